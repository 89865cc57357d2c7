"""Figures shown as cell outputs in `workbench app`'s kernels go out as plain HTML (server.page_renderer):
JupyterLab's plotly renderer raises `r.setData is not a function` on a Voilà page. Elsewhere plotly's own choice
is kept.
"""

from __future__ import annotations

import json
import re

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from workbench.charts.malice import malice_figure
from workbench.fight.malice_schedule import malice_schedule
from workbench.server import kernel_start
from workbench.server.page_renderer import (
    BUNDLE_VARIABLE,
    LOAD_CHARTS,
    PAGE_RENDERER,
    PageRenderer,
    in_voila,
    served_bundle,
)


@pytest.fixture
def renderer_kept():
    """Whatever a test does to plotly's default renderer is undone (the process runs other tests)."""
    before = pio.renderers.default
    yield
    pio.renderers.default = before


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, False),
    ({"JPY_PARENT_PID": "1"}, False),  # a JupyterLab kernel
    ({"VOILA_KERNEL_ID": "9f1c"}, True),
    ({"VOILA_BASE_URL": "/"}, True),
])
def test_in_voila_by_the_kernel_environment(environ, expected):
    assert in_voila(environ) is expected


@pytest.mark.parametrize(("variable", "chosen"), [("VOILA_KERNEL_ID", True), (None, False)])
def test_the_servers_kernel_start_in_a_voila_kernel_chooses_the_page_renderer(monkeypatch, renderer_kept, variable,
                                                                              chosen):
    from workbench.apps import serving

    for name in ("VOILA_KERNEL_ID", "VOILA_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    if variable:
        monkeypatch.setenv(variable, "9f1c")
    monkeypatch.setattr(serving, "_INSTALLED", dict(serving._INSTALLED))  # restored after the test
    pio.renderers.default = "plotly_mimetype"  # what plotly picks in any Jupyter kernel
    kernel_start.start()
    assert (pio.renderers.default == PAGE_RENDERER) is chosen


def test_a_figure_under_voila_is_html_without_plotlys_mime_type_or_a_cdn(renderer_kept):
    figure = malice_figure(malice_schedule(heroes=5, victories=3, rounds=5))
    bundle = PageRenderer().to_mimebundle(figure.to_dict())
    assert set(bundle) == {"text/html"}  # not application/vnd.plotly.v1+json: that renderer calls setData
    html = bundle["text/html"]
    assert "Plotly.newPlot" in html and figure.layout.title.text in html
    assert "cdn" not in html.lower() and "mathjax" not in html.lower()  # offline: nothing from another host


def test_plotly_js_is_embedded_once_before_the_first_figure(renderer_kept, monkeypatch):
    shown: list[str] = []
    monkeypatch.setattr("plotly.io._base_renderers.ipython_display.display_html",
                        lambda html, raw: shown.append(html))
    pio.renderers[PAGE_RENDERER] = PageRenderer()
    pio.renderers.default = PAGE_RENDERER
    figure = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]))
    for _ in range(2):
        bundle = pio.renderers._build_mime_bundle(figure.to_dict())
        assert set(bundle) == {"text/html"}
    assert len(shown) == 1 and len(shown[0]) > 1_000_000  # the plotly.js library itself, shown once


@pytest.mark.parametrize(("base", "expected"), [
    (None, "/voila/static/plotly-widget-9.js?v=9"),
    ("/", "/voila/static/plotly-widget-9.js?v=9"),
    ("/workbench/", "/workbench/voila/static/plotly-widget-9.js?v=9"),
])
def test_the_served_bundle_is_found_under_the_servers_base_address(base, expected):
    environ = {BUNDLE_VARIABLE: "voila/static/plotly-widget-9.js?v=9"}
    if base is not None:
        environ["VOILA_BASE_URL"] = base
    assert served_bundle(environ) == expected
    assert served_bundle({"VOILA_BASE_URL": "/"}) is None  # stock voila: no workbench app, no served bundle


def test_under_workbench_app_figures_import_the_servers_plotly_and_embed_none(renderer_kept, monkeypatch):
    """A lesson page would carry plotly.js inline; under `workbench app` each figure imports the
    server's copy (the one the page head preloads and the chart widgets import) and the page embeds nothing."""
    shown: list[str] = []
    monkeypatch.setattr("plotly.io._base_renderers.ipython_display.display_html",
                        lambda html, raw: shown.append(html))
    monkeypatch.setenv(BUNDLE_VARIABLE, "voila/static/plotly-widget-9.js?v=9")
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    pio.renderers[PAGE_RENDERER] = PageRenderer()
    pio.renderers.default = PAGE_RENDERER
    figure = go.Figure(go.Bar(x=["a", "b"], y=[3, 4]), layout={"title": {"text": "Ogre </script><b>&"}, "height": 300})
    html = pio.renderers._build_mime_bundle(figure.to_dict())["text/html"]
    assert shown == []  # no plotly.js shown before the first figure
    assert len(html) < 20_000 and 'new URL("/base/voila/static/plotly-widget-9.js?v=9"' in html
    assert f"<script>({LOAD_CHARTS})(new URL(" in html  # waits for the page head's charts (or imports them)
    assert "height:300px" in html
    assert html.count("</script>") == 1 and "<b>" not in html  # the title cannot end the script or add markup
    data = json.loads(re.search(r"const figure = (.*);\n", html).group(1))
    assert data["layout"]["title"]["text"] == "Ogre </script><b>&"  # the browser reads the title unchanged
    assert data["data"][0]["y"] == [3, 4]
