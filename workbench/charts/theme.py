"""The charts' plotly template `WHITE`: plotly's own "plotly_white", cut to the trace types the workbench draws.

Why: plotly builds and checks a figure's whole template each time a figure or a FigureWidget is made with
it (a chart per slider move in the lessons, a FigureWidget per new chart on a page), and "plotly_white" holds
defaults for 24 trace types; the workbench draws three (`TRACE_TYPES`). Cut to those, a chart is made
faster and carries less than half the template to the browser. The charts look the same: plotly.js reads a trace type's defaults only for traces of that
type, and the layout part is plotly's, whole (tests/test_charts_theme.py holds both to it).

The charts in plotly's default look (no template named) keep it: plotly applies its default template
without checking it, which a named one cannot match.
"""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio

__all__ = ["TRACE_TYPES", "WHITE"]

TRACE_TYPES = ("bar", "box", "scatter")


_WHOLE = pio.templates["plotly_white"]
WHITE = go.layout.Template(layout=_WHOLE.layout, data={kind: _WHOLE.data[kind] for kind in TRACE_TYPES})
