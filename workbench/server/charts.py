"""The charts of a page served by `workbench app`: FigureWidgets that load their JavaScript from the server,
are made without checking a finished figure twice, and are changed in place once the browser is known to hear them.

`ServedCharts` is the chart maker the server installs in each of its kernels (`workbench.apps.serving`), so every
`ChartSlot` and `figure_widget` of the apps makes its FigureWidgets here:

- Every plotly FigureWidget carries plotly's ~5 MB widget JavaScript in its state, which the browser receives
  over the websocket and compiles for each chart. The server serves the charts' JavaScript as a file
  (`site.plotly_bundle`), and a `ServedCharts` widget carries a few lines that import it from there
  (`BUNDLE_SHIM`): the browser fetches and compiles it once per page and keeps it in its cache.
- plotly checks a whole figure again, template included, when a FigureWidget is made from it; the figures the
  apps hand over were checked as they were built, so the widget takes their properties as they are
  (`heard_widget`). Checking is back on for the widget's own later changes.
- A change made in place (a few changed numbers and one `Plotly.update`) is far cheaper than a new chart, but
  is lost when anywidget gave up on the model. So a `HeardFigure` proves the browser hears it: when the browser
  has drawn it (the view reports its layout as `_js2py_widget_layoutDelta`, a trait plotly's Python side lacks,
  which `HeardFigure` adds), it sends one harmless relayout (`datarevision`), and the browser's answer to that
  message makes it `live`; `ServedCharts.hears` says so to the slot.
"""

from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go
import traitlets
from plotly.serializers import custom_serializers

from workbench.apps.serving import ChartMaker
from workbench.server.page_renderer import LOAD_CHARTS, served_bundle
from workbench.server.switches import off

__all__ = ["BUNDLE_SHIM", "HeardFigure", "ServedCharts", "heard_widget"]

# An ES module for anywidget: the charts' view from the JavaScript the page's head ran (`LOAD_CHARTS`), else
# imported by its address on this page's server (a module imported twice from one address is evaluated once).
BUNDLE_SHIM = """const load = {loader};
const charts = await load(new URL({address}, window.location.origin).href);
export default charts.default;
"""

# What plotly's view in the browser reports to the kernel after each draw. ipywidgets 8 echoes every state the
# browser sends back to it (`echo_update`), and these reports are the figure's whole computed trace and layout
# deltas: the echo doubled a chart change's traffic and kept the page busy after the chart was drawn. The
# kernel reads them; the browser has no use for them back.
_REPORT = {"sync": True, "echo_update": False, **custom_serializers}


class HeardFigure(go.FigureWidget):  # type: ignore[misc]  # plotly is untyped
    """A FigureWidget that keeps what plotly's view in the browser reports after each draw or relayout
    (`{"layout_delta": ..., "layout_edit_id": n}`; without this trait the kernel drops it), does not echo the
    view's reports back to it, and is `live` once the browser has answered a change the kernel made."""

    _js2py_widget_layoutDelta = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_traceDeltas = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_layoutDelta = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_restyle = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_relayout = traitlets.Dict(allow_none=True).tag(**_REPORT)
    _js2py_update = traitlets.Dict(allow_none=True).tag(**_REPORT)
    live = False  # the browser applies the kernel's changes to this chart
    _probe: int | None = None  # the layout edit id of the relayout sent to ask the browser back

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.observe(self._heard, names="_js2py_widget_layoutDelta")

    def _heard(self, change: dict[str, Any]) -> None:
        """The browser reported the chart's layout: after it first drew the chart, ask it back with one
        relayout; its answer (the relayout's edit id) makes the chart live."""
        message = change["new"]
        if not message or self.live:
            return
        if self._probe is None:
            self.layout.datarevision = 1
            self._probe = self._last_layout_edit_id
        elif message.get("layout_edit_id") == self._probe:
            self.live = True


def heard_widget(figure: go.Figure, kind: type[HeardFigure] = HeardFigure) -> HeardFigure:
    """A `kind` of `figure`, made without checking again every property `go.Figure` checked as the figure was
    built: most of the kernel's work in making a chart, for the same widget state. A figure with animation frames
    goes plotly's own way."""
    if figure.frames:
        return kind(figure)
    widget = kind({"data": figure._data, "layout": figure._layout}, _validate=False)  # copied by plotly
    for part in (widget, widget._layout_obj, *widget.data):
        part._validate = True
    return widget


class ServedCharts(ChartMaker):
    """The chart maker of `workbench app`'s kernels: `HeardFigure`s that, under a server serving the charts'
    JavaScript (`served_bundle`), import it from there instead of carrying it."""

    def __init__(self, bundle: str | None = None) -> None:
        bundle = bundle if bundle is not None else served_bundle()
        self.kind: type[HeardFigure] = HeardFigure
        self.in_place = not off("in-place")
        self.checked = off("unchecked")  # plotly checks the figure again, as its own FigureWidget does
        if bundle is not None:
            shim = BUNDLE_SHIM.format(loader=LOAD_CHARTS, address=json.dumps(bundle))
            self.kind = type("ServedFigure", (HeardFigure,), {"_esm": shim})

    def widget(self, figure: go.Figure) -> go.FigureWidget:
        return self.kind(figure) if self.checked else heard_widget(figure, self.kind)

    def hears(self, widget: go.FigureWidget) -> bool:
        return self.in_place and isinstance(widget, HeardFigure) and widget.live
