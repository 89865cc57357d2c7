"""The charts' plotly template `WHITE`: plotly's own "plotly_white", cut to what the workbench draws.

Why: plotly builds and checks a figure's whole template each time a figure or a FigureWidget is made with
it (a chart per slider move in the lessons, a FigureWidget per new chart on a page), and "plotly_white" holds
defaults for 24 trace types and for kinds of plot the workbench never makes; the workbench draws three trace
types (`TRACE_TYPES`) on plain x/y axes with colours named. Cut to those (the layout without `UNDRAWN_LAYOUT`), a
chart and its FigureWidget are made faster, and carry a smaller template to the browser. The charts look the same: plotly.js reads a trace type's defaults only for traces of that type, and a
map's, a polar or 3-D plot's or a continuous colour scale's only where one is drawn (tests/test_charts_theme.py
holds the code to both).

The charts in plotly's default look (no template named) keep it: plotly applies its default template
without checking it, which a named one cannot match.
"""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio

__all__ = ["TRACE_TYPES", "UNDRAWN_LAYOUT", "WHITE"]

TRACE_TYPES = ("bar", "box", "scatter")
# The layout's parts for plots the workbench never makes: maps, polar, ternary and 3-D plots, continuous colour
UNDRAWN_LAYOUT = ("coloraxis", "colorscale", "geo", "polar", "scene", "ternary")


_WHOLE = pio.templates["plotly_white"]
WHITE = go.layout.Template(
    layout={part: value for part, value in _WHOLE.layout.to_plotly_json().items() if part not in UNDRAWN_LAYOUT},
    data={kind: _WHOLE.data[kind] for kind in TRACE_TYPES},
)
