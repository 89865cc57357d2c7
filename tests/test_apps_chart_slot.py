"""ChartSlot: each `show` puts a new FigureWidget of the whole figure in the slot and closes the old one; with
the server's chart maker (`workbench.server.charts`, installed in `workbench app`'s kernels) a change is made in
place once the browser has answered the chart.

Why: a FigureWidget changed in place can stay stuck in a browser (anywidget's 2 s model-initialization
timeout); a fresh one per update draws. The browser side is tested in tests/browser/.
"""

from __future__ import annotations

import json
import re

import ipywidgets as widgets
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from plotly.utils import PlotlyJSONEncoder

from workbench import stat_table
from workbench.apps import serving
from workbench.apps.chart_slot import ChartSlot
from workbench.charts.scaling import scaling_figure
from workbench.server.charts import HeardFigure, ServedCharts
from workbench.server.charts import heard_widget as figure_widget
from workbench.server.page_renderer import BUNDLE_VARIABLE


@pytest.fixture
def served(monkeypatch):
    """This kernel as one of `workbench app`'s: the server's chart maker (no served bundle), restored after."""
    monkeypatch.setitem(serving._INSTALLED, "charts", ServedCharts(bundle=None))


def figure(ys: list[int], title: str) -> go.Figure:
    return go.Figure(go.Scatter(x=list(range(1, len(ys) + 1)), y=ys, name="line"), layout={"title": title})


def test_starts_with_a_figurewidget_of_the_figure_carrying_the_css_classes():
    slot = ChartSlot(figure([1, 2], "first"), "wb-test-chart", "wb-other")
    assert isinstance(slot, widgets.Box)
    assert slot.children == (slot.figure,)
    assert isinstance(slot.figure, go.FigureWidget)
    assert list(slot.figure.data[0].y) == [1, 2]
    assert {"wb-test-chart", "wb-other"} <= set(slot.figure._dom_classes)
    assert "wb-test-chart" not in slot._dom_classes  # only the plot carries it: `.wb-test-chart.js-plotly-plot`


def test_show_swaps_in_a_new_widget_and_closes_the_old_one():
    slot = ChartSlot(figure([1, 2], "first"), "wb-test-chart")
    old = slot.figure
    shown = slot.show(figure([5, 6, 7], "second"))
    assert shown is slot.figure and shown is not old
    assert slot.children == (shown,)
    assert list(shown.data[0].y) == [5, 6, 7]
    assert shown.layout.title.text == "second"
    assert "wb-test-chart" in shown._dom_classes
    assert old.comm is None  # closed: its model is gone from the page, not left behind on every update


def test_a_slot_may_start_with_a_placeholder_until_the_first_show():
    note = widgets.HTML("the chart comes with the first change")
    slot = ChartSlot(None, "wb-test-chart", placeholder=note)
    assert slot.children == (note,) and slot.figure is None
    shown = slot.show(figure([3], "now"))
    assert slot.children == (shown,) and list(shown.data[0].y) == [3]
    assert note.comm is None


def _browser_draws(shown: go.FigureWidget, edit_id: int = 0) -> None:
    """What plotly's view in the browser sends after drawing (or after a relayout): the layout it drew."""
    shown.set_state({"_js2py_widget_layoutDelta": {"layout_delta": {}, "layout_edit_id": edit_id}})


def test_without_a_server_every_change_is_a_new_plotly_figurewidget():
    slot = ChartSlot(figure([1, 2], "first"))
    first = slot.figure
    assert isinstance(first, go.FigureWidget) and not isinstance(first, HeardFigure) and not slot.live
    _browser_draws(first)  # plotly's own widget keeps no report: nothing says the browser hears it
    shown = slot.change(lambda f: f.data[0].update(y=[9, 9]), lambda: figure([3, 4], "built"))
    assert shown is not first and list(shown.data[0].y) == [3, 4] and first.comm is None


def test_the_server_installs_its_chart_maker(monkeypatch):
    monkeypatch.setitem(serving._INSTALLED, "charts", serving.ChartMaker())
    monkeypatch.setitem(serving._INSTALLED, "pages", None)
    monkeypatch.delenv("VOILA_KERNEL_ID", raising=False)
    monkeypatch.delenv("VOILA_BASE_URL", raising=False)
    from workbench.server import kernel_start

    kernel_start.start()  # not a kernel Voilà started: nothing changes
    assert type(serving.chart_maker()) is serving.ChartMaker and serving.serve_page(lambda: "page") == "page"
    monkeypatch.setenv("VOILA_KERNEL_ID", "k")
    monkeypatch.setattr("workbench.server.page_renderer.use_page_renderer", lambda: None)
    kernel_start.start()
    assert isinstance(serving.chart_maker(), ServedCharts)
    assert isinstance(ChartSlot(figure([1], "served")).figure, HeardFigure)


def test_change_shows_a_new_chart_until_the_browser_answers_the_kernel(served):
    slot = ChartSlot(figure([1, 2], "first"))
    first = slot.figure
    shown = slot.change(lambda f: f.data[0].update(y=[9, 9]), lambda: figure([3, 4], "built"))
    assert shown is not first and list(shown.data[0].y) == [3, 4]  # nobody drew the chart yet: a new one
    _browser_draws(shown)  # drawn: the slot asks it something back ...
    assert not slot.live and shown._last_layout_edit_id == 1
    again = slot.change(lambda f: f.data[0].update(y=[9, 9]), lambda: figure([5, 6], "built"))
    assert again is not shown and list(again.data[0].y) == [5, 6]  # ... but no answer came: still new charts


def test_once_the_browser_answers_a_change_is_made_in_place(served):
    slot = ChartSlot(figure([1, 2], "first"))
    shown = slot.figure
    _browser_draws(shown)
    _browser_draws(shown, edit_id=shown._last_layout_edit_id)  # the browser applied the kernel's relayout
    assert slot.live
    built = []
    same = slot.change(lambda f: f.data[0].update(y=[7, 8]), lambda: built.append(1) or figure([0], "x"))
    assert same is shown and slot.children == (shown,) and not built  # in place, nothing rebuilt
    assert list(shown.data[0].y) == [7, 8] and shown.comm is not None
    replaced = slot.show(figure([1], "whole new"))  # a whole new figure still replaces the chart ...
    assert replaced is not shown and not slot.live  # ... and the new one has to answer again


def test_an_answer_from_a_replaced_chart_does_not_count(served):
    slot = ChartSlot(figure([1, 2], "first"))
    old = slot.figure
    _browser_draws(old)
    probe = old._last_layout_edit_id
    slot.show(figure([3], "second"))
    _browser_draws(old, edit_id=probe)  # late news about the closed chart
    assert not slot.live


def test_under_workbench_app_a_slots_charts_import_plotly_from_the_server(monkeypatch):
    assert len(str(ChartSlot(figure([1, 2], "carried")).figure._esm)) > 1_000_000  # stock voila, JupyterLab
    monkeypatch.setenv(BUNDLE_VARIABLE, "voila/static/plotly-widget-9.js?v=9")
    monkeypatch.setenv("VOILA_BASE_URL", "/")
    monkeypatch.setitem(serving._INSTALLED, "charts", ServedCharts())
    slot = ChartSlot(figure([1, 2], "first"))
    assert '"/voila/static/plotly-widget-9.js?v=9"' in slot.figure._esm and len(slot.figure._esm) < 1000
    assert '"/voila/static/plotly-widget-9.js' in slot.show(figure([3, 4], "second"))._esm


def test_the_views_reports_are_not_echoed_back_to_the_browser(monkeypatch, served):
    """ipywidgets 8 echoes each state the browser sends (`echo_update`); plotly's view reports its whole computed
    deltas after every draw, and the echo sent them back for nothing."""
    slot = ChartSlot(figure([1, 2], "first"))
    shown = slot.figure
    sent: list[dict] = []
    monkeypatch.setattr(type(shown), "_send", lambda self, msg, buffers=None: sent.append(msg))
    _browser_draws(shown)
    shown.set_state({"_js2py_layoutDelta": {"layout_delta": {"width": 700}, "layout_edit_id": 0}})
    shown.set_state({"_js2py_traceDeltas": {"trace_deltas": [{"uid": shown.data[0].uid}], "trace_edit_id": 0}})
    shown.set_state({"_dom_classes": ["wb-any"]})  # a state of any other widget trait is echoed, as ipywidgets does
    echoed = [key for msg in sent if msg.get("method") == "echo_update" for key in msg["state"]]
    assert echoed == ["_dom_classes"]


def _synced(shown: go.FigureWidget) -> str:
    """The widget's state as the browser gets it (and as Python keeps it), its traces' random uids aside."""
    state = {"sent": [shown._widget_data, shown._widget_layout], "kept": [shown._data, shown._layout]}
    return re.sub(r'"uid": "[^"]*"', '"uid": "-"', json.dumps(state, cls=PlotlyJSONEncoder, sort_keys=True))


def _built_figures() -> list[go.Figure]:
    """A chart with subplots, annotations, the workbench's template and arrays; a bar chart in plotly's look."""
    table = stat_table(range(1, 11))
    return [scaling_figure(table, 4, "platoon", "brute"),
            go.Figure(go.Bar(x=["a", "b"], y=np.array([1.5, 2]), text=["1.5", "2"]), layout={"title": "bars"})]


@pytest.mark.parametrize("built", _built_figures(), ids=["scaling", "plain"])
def test_a_slots_widget_has_the_state_plotly_gives_the_figure(built):
    fast = figure_widget(built)
    assert isinstance(fast, HeardFigure)
    assert _synced(fast) == _synced(HeardFigure(built))
    assert len({trace.uid for trace in fast.data}) == len(fast.data)  # each trace has its own uid for the view
    fast.data[0].name = "changed"
    fast.layout.title.text = "changed"
    assert built.data[0].name != "changed" and built.layout.title.text != "changed"  # a copy, not the figure


@pytest.mark.parametrize(("change", "value"), [
    (lambda w, v: setattr(w.data[0].marker, "color", v), "not a colour"),
    (lambda w, v: setattr(w.layout.xaxis.title.font, "size", v), "big"),
    (lambda w, v: w.update_layout(height=v), "tall"),
    (lambda w, v: w.data[0].update(opacity=v), 7),
], ids=["trace's marker", "layout's axis", "update_layout", "trace's update"])
def test_a_slots_widget_still_checks_its_later_changes(change, value):
    with pytest.raises(ValueError):
        change(figure_widget(_built_figures()[0]), value)


def test_a_slots_widget_takes_later_changes_as_plotly_would():
    built = _built_figures()[0]
    fast, own = figure_widget(built), HeardFigure(built)
    for shown in (fast, own):
        shown.data[0].update(x=pd.Series([1, 2, 3]), y=np.arange(3) * 2.5)
        shown.layout.annotations[0].text = "left"
    assert _synced(fast) == _synced(own)
