"""How a figure shown as a cell's output draws on a Voilà page: as HTML that plotly.js draws, with no page error.

Why: in a Jupyter kernel plotly shows a `go.Figure` as the MIME type `application/vnd.plotly.v1+json`, which
JupyterLab's plotly extension (jupyterlab-plotly) draws. Once drawn, that renderer caches a PNG of the chart
in its output model with `model.setData(...)`; Voilà 0.5 hands renderers the plain output JSON, which has no
`setData`, so every page with such a chart raised `r.setData is not a function` (the chart still drew). Under
Voilà the figures are therefore shown as `text/html`: plotly.js once per page (embedded, so the page works
offline), then each figure as a `<div>` and the script that draws it; no MathJax from a CDN.

Under `workbench app` (its kernels have `$WORKBENCH_PLOTLY_BUNDLE`, `served_bundle`) the page does not carry
plotly.js at all: each figure's script waits for the server's chart JavaScript (`site.plotly_bundle`), which
the page's head runs and the charts' widgets use too (`LOAD_CHARTS`), so one file is fetched and compiled once
per page and kept in the browser's caches. The embedded copy was a 4.6 MB inline script in every lesson page
with a chart, sent from the kernel through the server and parsed on the page's main thread at each visit.

Where: in the kernels of `workbench app` (`kernel_start`), which Voilà started (it puts `VOILA_KERNEL_ID` and
`VOILA_BASE_URL` in their environment); JupyterLab, nbval, scripts and stock Voilà keep plotly's own choice.
FigureWidgets (the apps' live charts) are widgets, drawn by anywidget, and are not concerned.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Mapping
from typing import Any

import plotly.io as pio
from plotly.io._base_renderers import NotebookRenderer  # plotly exports no base class for an HTML renderer

__all__ = ["BUNDLE_VARIABLE", "CHARTS_SCRIPT_ATTRIBUTE", "LOAD_CHARTS", "PAGE_RENDERER", "PageRenderer", "in_voila",
           "served_bundle", "use_page_renderer"]

PAGE_RENDERER = "workbench_page"
VOILA_ENVIRONMENT = ("VOILA_KERNEL_ID", "VOILA_BASE_URL")  # set by Voilà in the environment of its kernels
BUNDLE_VARIABLE = "WORKBENCH_PLOTLY_BUNDLE"  # site.PLOTLY_BUNDLE_VARIABLE (the server process imports no plotly)
BASE_URL_VARIABLE = "VOILA_BASE_URL"
HEIGHT = 525  # px, plotly's notebook default
CHARTS_SCRIPT_ATTRIBUTE = "data-workbench-charts"  # marks the page head's <script> of the charts (site)
# A JavaScript function of the charts' address -> a promise of their module ({default: the FigureWidget view}).
# Served as a classic script (plotly.js's cartesian build and workbench/pages/figure_view.js), the page's head runs
# them: wait until it has (a deferred script may run after a widget asks), then take the view it left in
# `window.workbenchFigureView`. Without that script (plotly's own widget bundle, a module), import the address.
LOAD_CHARTS = """async (url) => {
  const tag = document.querySelector("script[@ATTRIBUTE@]");
  if (!tag) return import(url);
  if (!window.workbenchFigureView) {
    await new Promise((ran, failed) => {
      tag.addEventListener("load", ran);
      tag.addEventListener("error", () => failed(new Error("the charts' JavaScript did not load: " + tag.src)));
    });
  }
  return { default: window.workbenchFigureView };
}""".replace("@ATTRIBUTE@", CHARTS_SCRIPT_ATTRIBUTE)


def in_voila(environ: Mapping[str, str] | None = None) -> bool:
    """True in a kernel started by Voilà (`workbench app` or plain `voila`)."""
    env = os.environ if environ is None else environ
    return any(name in env for name in VOILA_ENVIRONMENT)


def served_bundle(environ: Mapping[str, str] | None = None) -> str | None:
    """The address (from the server's root) of the charts' JavaScript (plotly.js and a FigureWidget view) on the
    `workbench app` server that started this kernel, e.g. `/voila/static/plotly-widget-7.1.0.js?v=7.1.0`; None
    anywhere else."""
    env = os.environ if environ is None else environ
    address = env.get(BUNDLE_VARIABLE, "").strip()
    if not address:
        return None
    base = env.get(BASE_URL_VARIABLE, "/") or "/"
    return base.rstrip("/") + "/" + address.lstrip("/")


def _in_script(text: str) -> str:
    """JSON text made safe inside an HTML <script>: a title holding `</script>` cannot end it."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def figure_html(fig_dict: dict[str, Any], config: Mapping[str, Any], bundle: str) -> str:
    """A figure as a `<div>` (plotly's notebook size: the layout's, else the width of the page and 525 px)
    and a script that waits for the charts' JavaScript at `bundle` (which sets `window.Plotly`), then draws it."""
    div = f"wb-figure-{uuid.uuid4().hex}"
    layout = fig_dict.get("layout", {})
    width = f"{layout['width']}px" if "width" in layout else "100%"
    figure = pio.to_json({"data": fig_dict.get("data", []), "layout": layout}, validate=False)
    options = json.dumps({"responsive": True, **config})
    return (
        f'<div id="{div}" class="plotly-graph-div" style="height:{layout.get("height", HEIGHT)}px; '
        f'width:{width};"></div>\n'
        f"<script>({LOAD_CHARTS})(new URL({_in_script(json.dumps(bundle))}, window.location.origin).href).then(() => {{\n"
        f"  const figure = {_in_script(figure)};\n"
        f"  window.Plotly.newPlot({json.dumps(div)}, figure.data, figure.layout, {_in_script(options)});\n"
        f"}});</script>"
    )


class PageRenderer(NotebookRenderer):  # type: ignore[misc]  # plotly is untyped
    """plotly's `notebook` renderer (plotly.js embedded once, before the first figure shown), except that a
    figure asks for no MathJax from a CDN (the workbench's charts have no LaTeX; offline it would fail) and
    carries no clean-up script for the classic notebook; under `workbench app`, nothing embedded: each figure
    draws with the server's plotly (`served_bundle`)."""

    def activate(self) -> None:
        if served_bundle() is None:
            super().activate()

    def to_mimebundle(self, fig_dict: dict[str, Any]) -> dict[str, str]:
        bundle = served_bundle()
        if bundle is not None:
            return {"text/html": figure_html(fig_dict, self.config or {}, bundle)}
        html: str = pio.to_html(fig_dict, config=self.config, include_plotlyjs=False, include_mathjax=False,
                                full_html=False, default_width="100%", default_height=HEIGHT, validate=False)
        return {"text/html": html}


def use_page_renderer() -> None:
    """Show figures through `PageRenderer` from now on (registered as `PAGE_RENDERER`)."""
    if pio.renderers.default != PAGE_RENDERER:
        pio.renderers[PAGE_RENDERER] = PageRenderer()
        pio.renderers.default = PAGE_RENDERER
