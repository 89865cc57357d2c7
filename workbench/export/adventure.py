"""An adventure's packet as a file: "html" (the page of `render.adventure`) or "pdf" (that page printed).

The PDF is printed by the same headless Chromium as a monster's printout (`export.printout`), offline: the
page is complete in itself and may fetch nothing. Each encounter's sheet and the stat block cards start a
printed page (the page's own CSS), on A4 by default or US Letter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.encounter.adventure import Adventure
from workbench.errors import InvalidInput
from workbench.export.printout import _browser, _offline_page
from workbench.model import Monster
from workbench.render.adventure import adventure_html

__all__ = ["PACKET_FORMATS", "PAGE_SIZES", "export_adventure"]

PACKET_FORMATS = ("html", "pdf")
PAGE_SIZES = {"a4": "A4", "letter": "letter"}


def _page_css(page: str) -> str:
    return f"<style>@page{{size:{PAGE_SIZES[page]};margin:12mm}}</style>"


def export_adventure(
    adventure: Adventure, fmt: str, monsters: Sequence[Monster] = (), page: str = "a4"
) -> str | bytes:
    """The adventure's packet: str for "html", bytes for "pdf". `monsters` give the creatures' own stat blocks
    (by name); the others are printed as the formulas build them."""
    if not isinstance(adventure, Adventure):
        raise InvalidInput("adventure", adventure, "an Adventure")
    if fmt not in PACKET_FORMATS:
        raise InvalidInput("fmt", fmt, " or ".join(f'"{f}"' for f in PACKET_FORMATS))
    if page not in PAGE_SIZES:
        raise InvalidInput("page", page, " or ".join(f'"{p}"' for p in PAGE_SIZES))
    document = adventure_html(adventure.plan(), monsters).replace("</head>", _page_css(page) + "</head>", 1)
    if fmt == "html":
        return document

    def job(browser: Any) -> bytes:
        context, tab = _offline_page(browser)
        try:
            tab.emulate_media(media="print")
            tab.set_content(document, wait_until="load")
            pdf: bytes = tab.pdf(prefer_css_page_size=True, print_background=True)
            return pdf
        finally:
            context.close()

    return _browser().run(job)
