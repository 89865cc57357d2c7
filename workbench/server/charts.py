"""A place on a page for one plotly chart that always shows the latest figure, in a real browser too.

Why not change one `go.FigureWidget` in place: anywidget 0.11 gives each widget model 2 s to initialize
in the browser (`AbortSignal.timeout(2000)` in its runtime). With several FigureWidgets on one page, or a
busy machine, the later ones time out ("[anywidget] Failed to initialize model.") and never apply an
update again, although the kernel keeps changing them. A fresh FigureWidget shown in a container on each
update draws correctly (the swarm app has always worked that way): one model initializes at a time, and a
chart that missed its 2 s is replaced by the next update instead of staying stuck. (The pages and lessons
served by `workbench app` give a model a minute instead, in their template; JupyterLab and plain `voila` keep
anywidget's 2 s.)

`ChartSlot` is that container: a `widgets.Box` holding one FigureWidget; `show(figure)` builds a new
`go.FigureWidget` from the whole finished figure (the plotly 7.1 rule: build first, then wrap), gives it
the slot's stable CSS classes (so `.wb-...-chart.js-plotly-plot` still finds the drawn plot) and closes the
one it replaces (else every update would leave a ~5 MB widget model behind in the browser).

Each FigureWidget model evaluates plotly's ~5 MB widget bundle in the browser, one after another, when a
page opens; on a busy machine the second on a page can miss its 2 s. So a slot may start with a light
`placeholder` (any widget) instead of a chart: the page then opens with fewer FigureWidgets to initialize,
and the chart arrives with the first `show`.

Changing a chart in place is still much faster (a slider move: a few changed numbers sent and one
`Plotly.update`, instead of a new model and a new plot), so `change(update, build)` does it once the slot
knows the browser hears the shown chart: when the browser has drawn it (plotly's view then reports its layout
to the kernel, as `_js2py_widget_layoutDelta`: plotly 7.1's Python side has no trait of that name, so the
slot's charts are `HeardFigure`s, which add it), the slot sends it one harmless relayout (`datarevision`), and
the browser's answer to that message proves anywidget initialized the model in time. Until then, and for good if no answer comes,
`change` falls back to `show(build())`. `update` runs inside `batch_update`: one message per change.

Under `workbench app` every FigureWidget the workbench makes (`figure_widget`, a slot's among them) imports that
bundle from the server (`visit.load_plotly_from_server`), on the app pages and in the lessons: a new chart per
change then sends a few lines instead of ~5 MB over the websocket and the browser compiles the bundle once per
page, so it starts well within anywidget's 2 s on a busy machine (the explorer's and the solo chart's updates
were lost there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import traitlets
from plotly.serializers import custom_serializers

from workbench.apps.visit import load_plotly_from_server

__all__ = ["ChartSlot", "HeardFigure", "figure_widget"]


# What plotly's view in the browser reports to the kernel after each draw. ipywidgets 8 echoes every state the
# browser sends back to it (`echo_update`), and these reports are the figure's whole computed trace and layout
# deltas: the echo doubled a chart change's traffic and kept the page busy after the chart was drawn, when the
# next key at 175 ms came. The kernel reads them; the browser has no use for them back.
_REPORT = {"sync": True, "echo_update": False, **custom_serializers}


class HeardFigure(go.FigureWidget):
    """A FigureWidget that keeps what plotly's view in the browser reports after each draw or relayout
    (`{"layout_delta": ..., "layout_edit_id": n}`; without this trait the kernel drops it), and does not echo
    the view's reports back to it."""

    _js2py_widget_layoutDelta = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_traceDeltas = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_layoutDelta = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_restyle = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_relayout = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_update = traitlets.Dict(allow_none=True).tag(**_REPORT)


def figure_widget(figure: go.Figure) -> HeardFigure:
    """A `HeardFigure` of `figure`, made without checking again every property `go.Figure` checked as the
    figure was built.

    Why: plotly checks a whole figure again, template included, when a FigureWidget is made from it. On the
    2-core machine that is 20-48 ms of a page kernel's CPU per chart (a fresh chart per slider move on most
    pages); taking the checked properties as they are takes 6-15 ms, and the widget's state is the same.
    Checking is back on for the widget's own later changes (`update`, `batch_update`, setting a property).
    A figure with animation frames goes plotly's own way.

    Under `workbench app` the widget imports plotly from the server (`load_plotly_from_server`) instead of carrying
    plotly's ~5 MB widget bundle, which every new chart sent to the browser to evaluate again: the swarm app's
    charts in the homebrew lesson, made outside a `ChartSlot`, did (~0.5 s of the browser's CPU each).
    """
    load_plotly_from_server()  # under workbench app; elsewhere the widget carries its JavaScript
    if figure.frames:
        return HeardFigure(figure)
    widget = HeardFigure({"data": figure._data, "layout": figure._layout}, _validate=False)  # copied by plotly
    for part in (widget, widget._layout_obj, *widget.data):
        part._validate = True
    return widget


class ChartSlot(widgets.Box):
    """One chart that `show(figure)` replaces whole; `figure` is the FigureWidget now shown (for scripts)."""

    children: tuple[widgets.Widget, ...]  # the Box's trait, declared for mypy (ipywidgets is untyped)

    def __init__(self, figure: go.Figure | None, *css_classes: str,
                 placeholder: widgets.Widget | None = None) -> None:
        self.css_classes = css_classes
        self._probe: int | None = None  # the layout edit id of the relayout sent to the shown chart
        self.live = False  # the browser applies the kernel's changes to the shown chart
        first = self._widget(figure) if figure is not None else placeholder or widgets.HTML()
        super().__init__(children=(first,))
        self.add_class("wb-chart-slot")

    def _widget(self, figure: go.Figure) -> go.FigureWidget:
        shown = figure_widget(figure)
        for css in self.css_classes:
            shown.add_class(css)
        shown.observe(self._heard, names="_js2py_widget_layoutDelta")
        return shown

    def _heard(self, change: dict[str, Any]) -> None:
        """The browser reported the chart's layout: after it first drew the chart (edit id 0) ask it back
        with one relayout; its answer (the relayout's edit id) makes the slot live."""
        message, shown = change["new"], self.figure
        if not message or shown is None or change["owner"] is not shown or self.live:
            return
        if self._probe is None:
            shown.layout.datarevision = 1
            self._probe = shown._last_layout_edit_id
        elif message.get("layout_edit_id") == self._probe:
            self.live = True

    @property
    def figure(self) -> go.FigureWidget | None:
        """The FigureWidget shown now (None while the placeholder is shown)."""
        shown = self.children[0]
        return shown if isinstance(shown, go.FigureWidget) else None

    def show(self, figure: go.Figure) -> go.FigureWidget:
        """Put a new FigureWidget of `figure` in the slot (closing the old one) and return it."""
        old = self.children
        self._probe, self.live = None, False
        self.children = (self._widget(figure),)
        for widget in old:
            widget.close()  # a placeholder too: show() never goes back to it
        return self.figure

    def change(self, update: Callable[[go.FigureWidget], object], build: Callable[[], go.Figure]) -> go.FigureWidget:
        """Change the shown chart in place with `update(figure)` (one batch) when the browser hears it, else
        show a new one from `build()`. `update` must leave the chart as `build()` would draw it."""
        shown = self.figure
        if shown is None or not self.live:
            return self.show(build())
        with shown.batch_update():
            update(shown)
        return shown
