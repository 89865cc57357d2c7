"""What the server of an app page may change in the page's kernel; the apps ask here and never the server.

An app page is a notebook whose one call builds a page (`serve_page(monster_page)`), and every chart on it is a
plotly FigureWidget in a `ChartSlot`. Served by stock Voilà, opened in JupyterLab or run in a test, a page is
built once and its charts are plotly's own FigureWidgets, each change shown as a new one. A server that does more
(`workbench app` builds its pages before their visit and serves the charts' JavaScript itself) installs its own
ways here when its kernel starts (`install`). The apps depend on this module only, so the server can change or
go without the apps changing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import plotly.graph_objects as go

__all__ = ["ChartMaker", "Lesson", "PageMaker", "chart_maker", "install", "lessons", "serve_page"]

Page = TypeVar("Page")
PageMaker = Callable[[Callable[[], Any]], Any]  # given a page's build function, returns the page to show
Lesson = tuple[str, str, str]  # a lesson served beside the pages: its notebook's file, title and one-line purpose


class ChartMaker:
    """How the apps' FigureWidgets are made: plotly's own, and never changed in place."""

    def widget(self, figure: go.Figure) -> go.FigureWidget:
        """A FigureWidget showing `figure`."""
        return go.FigureWidget(figure)

    def hears(self, widget: go.FigureWidget) -> bool:
        """Whether the browser is known to apply a change made to `widget` in place. Plotly's FigureWidget
        gives no such sign, and anywidget may have given up on its model (2 s to start): never."""
        return False


_INSTALLED: dict[str, Any] = {"pages": None, "charts": ChartMaker(), "lessons": ()}


def install(*, pages: PageMaker | None = None, charts: ChartMaker | None = None,
            lessons: tuple[Lesson, ...] | None = None) -> None:
    """The server's ways of building pages (`pages`) and making charts (`charts`) in this kernel, and the lessons
    it serves beside the pages (`lessons`, in order), from now on."""
    if pages is not None:
        _INSTALLED["pages"] = pages
    if charts is not None:
        _INSTALLED["charts"] = charts
    if lessons is not None:
        _INSTALLED["lessons"] = tuple(lessons)


def serve_page(build: Callable[[], Page]) -> Page:
    """The page `build()` makes, built the way this kernel's server asks (at once, without a server)."""
    maker: PageMaker | None = _INSTALLED["pages"]
    page: Page = build() if maker is None else maker(build)
    return page


def chart_maker() -> ChartMaker:
    """The maker of this kernel's FigureWidgets."""
    maker: ChartMaker = _INSTALLED["charts"]
    return maker


def lessons() -> tuple[Lesson, ...]:
    """The lessons this kernel's server serves beside the pages (none without a server)."""
    served: tuple[Lesson, ...] = _INSTALLED["lessons"]
    return served
