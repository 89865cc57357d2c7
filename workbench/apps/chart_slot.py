"""A place on a page for one plotly chart that always shows the latest figure, in a real browser too.

Why not change one `go.FigureWidget` in place: anywidget 0.11 gives each widget model 2 s to initialize in the
browser (`AbortSignal.timeout(2000)` in its runtime). With several FigureWidgets on one page, or a busy machine,
the later ones time out ("[anywidget] Failed to initialize model.") and never apply an update again, although
the kernel keeps changing them. A fresh FigureWidget shown in a container on each update draws: one model
initializes at a time, and a chart that missed its 2 s is replaced by the next update instead of staying stuck.

`ChartSlot` is that container: a `widgets.Box` holding one FigureWidget; `show(figure)` puts a new FigureWidget of
the whole finished figure in it (the plotly 7.1 rule: build first, then wrap), gives it the slot's stable CSS
classes (so `.wb-...-chart.js-plotly-plot` still finds the drawn plot) and closes the one it replaces (else every
update would leave a widget model behind in the browser). A slot may start with a light `placeholder` instead
of a chart: the page then opens with fewer FigureWidgets to initialize, and the chart arrives with the first
`show`. `change(update, build)` changes the shown chart in place (`update` in one `batch_update`) when the
chart maker knows the browser applies such changes (`ChartMaker.hears`), else shows `build()`.

The FigureWidgets come from the kernel's chart maker (`workbench.apps.serving`), which a page's server may
replace with a faster one; `figure_widget` gives one for a chart outside a slot.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.serving import chart_maker

__all__ = ["ChartSlot", "figure_widget"]


def figure_widget(figure: go.Figure) -> go.FigureWidget:
    """A FigureWidget of `figure`, from the kernel's chart maker."""
    return chart_maker().widget(figure)


class ChartSlot(widgets.Box):
    """One chart that `show(figure)` replaces whole; `figure` is the FigureWidget now shown (for scripts)."""

    children: tuple[widgets.Widget, ...]  # the Box's trait, declared for mypy (ipywidgets is untyped)

    def __init__(self, figure: go.Figure | None, *css_classes: str,
                 placeholder: widgets.Widget | None = None) -> None:
        self.css_classes = css_classes
        first = self._widget(figure) if figure is not None else placeholder or widgets.HTML()
        super().__init__(children=(first,), _dom_classes=("wb-chart-slot",))

    def _widget(self, figure: go.Figure) -> go.FigureWidget:
        shown = figure_widget(figure)
        for css in self.css_classes:
            shown.add_class(css)
        return shown

    @property
    def figure(self) -> go.FigureWidget | None:
        """The FigureWidget shown now (None while the placeholder is shown)."""
        shown = self.children[0]
        return shown if isinstance(shown, go.FigureWidget) else None

    @property
    def live(self) -> bool:
        """Whether a change to the shown chart is made in place (the browser is known to apply it)."""
        shown = self.figure
        return shown is not None and chart_maker().hears(shown)

    def show(self, figure: go.Figure) -> go.FigureWidget:
        """Put a new FigureWidget of `figure` in the slot (closing the old one) and return it."""
        old = self.children
        self.children = (self._widget(figure),)
        for widget in old:
            widget.close()  # a placeholder too: show() never goes back to it
        shown = self.figure
        assert shown is not None
        return shown

    def change(self, update: Callable[[go.FigureWidget], object], build: Callable[[], go.Figure]) -> go.FigureWidget:
        """Change the shown chart in place with `update(figure)` (one batch) when the browser hears it, else
        show a new one from `build()`. `update` must leave the chart as `build()` would draw it."""
        shown = self.figure
        if shown is None or not self.live:
            return self.show(build())
        with shown.batch_update():
            update(shown)
        return shown
