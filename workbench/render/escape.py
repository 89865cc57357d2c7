"""The render layer's HTML door: `Markup` building from `workbench.markup`, and the one stylesheet.

Every renderer, app, export and the server build HTML through these names, so user text is escaped because it
is text. The look lives in one stylesheet, `workbench.css` beside this module (`stylesheet()`), never in
`style=` attributes, save a number that is data (a bar's width).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from workbench.markup import Markup, escape, join, tag

__all__ = ["Markup", "escape", "join", "stylesheet", "stylesheet_text", "tag"]


@cache
def stylesheet_text() -> str:
    """The workbench's one stylesheet (`workbench.css`), as CSS."""
    return files("workbench.render").joinpath("workbench.css").read_text(encoding="utf-8")


def stylesheet() -> Markup:
    """The stylesheet as a `<style>` element, for a page, a printout or a fragment shown on its own."""
    return Markup("<style>{}</style>").format(Markup(stylesheet_text()))
