"""`$WORKBENCH_SERVER_OFF` turns one speed device of the server off, and only that one: the benchmarks compare
the server with and without each device, so a switch that turned more (or nothing) off would mislead them."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from workbench.server import site
from workbench.server.charts import ServedCharts
from workbench.server.switches import DEVICES, OFF_VARIABLE, off


def test_the_variable_names_the_devices_that_are_off():
    environ = {OFF_VARIABLE: " cartesian,in-place "}
    assert [device for device in DEVICES if off(device, environ)] == ["in-place", "cartesian"]
    assert not any(off(device, {}) for device in DEVICES)
    assert not off("in-place", {OFF_VARIABLE: "place"})  # a whole name, not a part of one


def test_an_unknown_device_is_a_mistake_said_with_the_devices():
    with pytest.raises(ValueError, match="in-place, cartesian, zygote"):
        off("kernel", {})


def _heard(charts: ServedCharts) -> go.FigureWidget:
    widget = charts.widget(go.Figure(go.Bar(x=[1], y=[2])))
    widget.live = True  # as after the browser answered its probe
    return widget


def test_in_place_off_shows_a_new_chart_for_every_change(monkeypatch):
    assert ServedCharts(bundle=None).hears(_heard(ServedCharts(bundle=None)))
    monkeypatch.setenv(OFF_VARIABLE, "in-place")
    charts = ServedCharts(bundle=None)
    assert not charts.hears(_heard(charts))


def test_cartesian_off_serves_plotlys_own_bundle_and_nothing_else_changes(monkeypatch):
    on = site.plotly_bundle()
    assert on is not None and on.classic  # the cartesian build (make fetched it)
    monkeypatch.setenv(OFF_VARIABLE, "cartesian")
    bundle = site.plotly_bundle()
    assert bundle is not None and not bundle.classic and bundle.served_name.startswith("plotly-widget-")
    assert ServedCharts(bundle=None).hears(_heard(ServedCharts(bundle=None)))


def test_zygote_off_starts_kernels_the_usual_way(monkeypatch):
    from workbench.server.app import kernel_provisioner_arguments

    assert kernel_provisioner_arguments()  # the zygote's provisioner is installed (make venv)
    monkeypatch.setenv(OFF_VARIABLE, "zygote")
    assert kernel_provisioner_arguments() == []


def test_unchecked_off_has_plotly_check_the_figure_again(monkeypatch):
    from workbench.server import charts

    unchecked: list[go.Figure] = []
    monkeypatch.setattr(charts, "heard_widget", lambda figure, kind: unchecked.append(figure) or kind(figure))
    figure = go.Figure(go.Bar(x=[1], y=[2]))
    ServedCharts(bundle=None).widget(figure)
    assert unchecked == [figure]
    monkeypatch.setenv(OFF_VARIABLE, "unchecked")
    widget = ServedCharts(bundle=None).widget(figure)
    assert unchecked == [figure] and widget.layout == figure.layout  # plotly's own way, the same chart
