"""One look for a message a page shows a Director: a refusal in red, a confirmation in green.

The text is escaped here (it often quotes what the Director typed); `css` keeps the class a page and its
browser tests look for (`wb-refusal`, `wb-error`, `wb-ok`).
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.render.escape import Markup, join

__all__ = ["error_html", "ok_html", "REFUSAL_COLOUR", "OK_COLOUR"]

REFUSAL_COLOUR = "#a00"  # the stylesheet's [data-tone="refusal"]
OK_COLOUR = "#264"  # the stylesheet's [data-tone="ok"]


def _message(text: str, css: str, tag: str, tone: str, items: Sequence[str], small: bool) -> Markup:
    listing = Markup("<ul>{}</ul>").format(join(Markup("<li>{}</li>").format(i) for i in items)) if items else ""
    size = Markup(' data-size="small"') if small else ""
    return Markup('<{} class="{}" data-tone="{}"{}>{}{}</{}>').format(Markup(tag), css, tone, size, text, listing, Markup(tag))


def error_html(
    text: str, css: str = "wb-refusal", tag: str = "span", items: Sequence[str] = (), small: bool = False
) -> str:
    """A refusal or failure, escaped, in red; `items` (escaped too) listed under it."""
    return _message(text, css, tag, "refusal", items, small)


def ok_html(text: str, css: str = "wb-ok", tag: str = "span") -> str:
    """A confirmation ("Saved ..."), escaped, in green."""
    return _message(text, css, tag, "ok", (), False)
