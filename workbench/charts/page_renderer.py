"""How a figure shown as a cell's output draws on a Voilà page: as HTML that plotly.js draws, with no page error.

Why: in a Jupyter kernel plotly shows a `go.Figure` as the MIME type `application/vnd.plotly.v1+json`, which
JupyterLab's plotly extension (jupyterlab-plotly) draws. Once drawn, that renderer caches a PNG of the chart
in its output model with `model.setData(...)`; Voilà 0.5 hands renderers the plain output JSON, which has no
`setData`, so every page with such a chart raised `r.setData is not a function` (the chart still drew). Under
Voilà the figures are therefore shown as `text/html`: plotly.js once per page (embedded, so the page works
offline), then each figure as a `<div>` and the script that draws it; no MathJax from a CDN.

Where: only in a kernel Voilà started (Voilà puts `VOILA_KERNEL_ID` and `VOILA_BASE_URL` in its environment);
JupyterLab, nbval and scripts keep plotly's own choice. FigureWidgets (the apps' live charts) are widgets,
drawn by anywidget, and are not concerned.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import plotly.io as pio
from plotly.io._base_renderers import NotebookRenderer  # plotly exports no base class for an HTML renderer

__all__ = ["PAGE_RENDERER", "PageRenderer", "in_voila", "use_page_renderer"]

PAGE_RENDERER = "workbench_page"
VOILA_ENVIRONMENT = ("VOILA_KERNEL_ID", "VOILA_BASE_URL")  # set by Voilà in the environment of its kernels


def in_voila(environ: Mapping[str, str] | None = None) -> bool:
    """True in a kernel started by Voilà (`workbench app` or plain `voila`)."""
    env = os.environ if environ is None else environ
    return any(name in env for name in VOILA_ENVIRONMENT)


class PageRenderer(NotebookRenderer):  # type: ignore[misc]  # plotly is untyped
    """plotly's `notebook` renderer (plotly.js embedded once, before the first figure shown), except that a
    figure asks for no MathJax from a CDN (the workbench's charts have no LaTeX; offline it would fail) and
    carries no clean-up script for the classic notebook."""

    def to_mimebundle(self, fig_dict: dict[str, Any]) -> dict[str, str]:
        html: str = pio.to_html(fig_dict, config=self.config, include_plotlyjs=False, include_mathjax=False,
                                full_html=False, default_width="100%", default_height=525, validate=False)
        return {"text/html": html}


def use_page_renderer() -> None:
    """Show figures through `PageRenderer` from now on (registered as `PAGE_RENDERER`)."""
    if pio.renderers.default != PAGE_RENDERER:
        pio.renderers[PAGE_RENDERER] = PageRenderer()
        pio.renderers.default = PAGE_RENDERER
