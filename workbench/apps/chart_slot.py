"""A place on a page for one plotly chart that always shows the latest figure, in a real browser too.

Why not change one `go.FigureWidget` in place: anywidget 0.11 gives each widget model 2 s to initialize
in the browser (`AbortSignal.timeout(2000)` in its runtime). With several FigureWidgets on one page, or a
busy machine, the later ones time out ("[anywidget] Failed to initialize model.") and never apply an
update again, although the kernel keeps changing them. A fresh FigureWidget shown in a container on each
update draws correctly (the swarm app has always worked that way): one model initializes at a time, and a
chart that missed its 2 s is replaced by the next update instead of staying stuck.

`ChartSlot` is that container: a `widgets.Box` holding one FigureWidget; `show(figure)` builds a new
`go.FigureWidget` from the whole finished figure (the plotly 7.1 rule: build first, then wrap), gives it
the slot's stable CSS classes (so `.wb-...-chart.js-plotly-plot` still finds the drawn plot) and closes the
one it replaces (else every update would leave a ~5 MB widget model behind in the browser).

Each FigureWidget model evaluates plotly's ~5 MB widget bundle in the browser, one after another, when a
page opens; on a busy machine the second on a page can miss its 2 s. So a slot may start with a light
`placeholder` (any widget) instead of a chart: the page then opens with fewer FigureWidgets to initialize,
and the chart arrives with the first `show`.
"""

from __future__ import annotations

import ipywidgets as widgets
import plotly.graph_objects as go

__all__ = ["ChartSlot"]


class ChartSlot(widgets.Box):
    """One chart that `show(figure)` replaces whole; `figure` is the FigureWidget now shown (for scripts)."""

    children: tuple[widgets.Widget, ...]  # the Box's trait, declared for mypy (ipywidgets is untyped)

    def __init__(self, figure: go.Figure | None, *css_classes: str,
                 placeholder: widgets.Widget | None = None) -> None:
        self.css_classes = css_classes
        first = self._widget(figure) if figure is not None else placeholder or widgets.HTML()
        super().__init__(children=(first,))
        self.add_class("wb-chart-slot")

    def _widget(self, figure: go.Figure) -> go.FigureWidget:
        shown = go.FigureWidget(figure)
        for css in self.css_classes:
            shown.add_class(css)
        return shown

    @property
    def figure(self) -> go.FigureWidget | None:
        """The FigureWidget shown now (None while the placeholder is shown)."""
        shown = self.children[0]
        return shown if isinstance(shown, go.FigureWidget) else None

    def show(self, figure: go.Figure) -> go.FigureWidget:
        """Put a new FigureWidget of `figure` in the slot (closing the old one) and return it."""
        old = self.children
        self.children = (self._widget(figure),)
        for widget in old:
            widget.close()  # a placeholder too: show() never goes back to it
        return self.figure
