"""One style for a message a page shows a Director: a refusal in red, a confirmation in green.

The text is escaped here (it often quotes what the Director typed); `css` keeps the class a page and its
browser tests look for (`wb-refusal`, `wb-error`, `wb-ok`).
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.render.escape import escape_html

__all__ = ["error_html", "ok_html", "REFUSAL_COLOUR", "OK_COLOUR"]

REFUSAL_COLOUR = "#a00"
OK_COLOUR = "#264"


def _message(text: str, css: str, tag: str, colour: str, items: Sequence[str], small: bool) -> str:
    size = "font-size:.85em;" if small else ""
    listing = "<ul>" + "".join(f"<li>{escape_html(i)}</li>" for i in items) + "</ul>" if items else ""
    return f'<{tag} class="{css}" style="{size}color:{colour}">{escape_html(text)}{listing}</{tag}>'


def error_html(
    text: str, css: str = "wb-refusal", tag: str = "span", items: Sequence[str] = (), small: bool = False
) -> str:
    """A refusal or failure, escaped, in red; `items` (escaped too) listed under it."""
    return _message(text, css, tag, REFUSAL_COLOUR, items, small)


def ok_html(text: str, css: str = "wb-ok", tag: str = "span") -> str:
    """A confirmation ("Saved ..."), escaped, in green."""
    return _message(text, css, tag, OK_COLOUR, (), False)
