"""An adventure's packet as a file: "html" (the page of `render.adventure`) or "pdf" (that page printed).

The PDF is printed by the same headless Chromium as a monster's printout (`export.printout.document_pdf`),
offline: the page is complete in itself and may fetch nothing. Each encounter's sheet and the stat block cards
start a printed page (the page's own CSS), on A4 by default or US Letter. As a monster's printout does, the
packet refuses, before the browser starts, a day, a sheet or a card with more text than one page holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.encounter.adventure import Adventure
from workbench.errors import InvalidInput
from workbench.export.printout import document_pdf
from workbench.model import Monster
from workbench.render.adventure import adventure_html

__all__ = ["PACKET_FORMATS", "PAGE_SIZES", "export_adventure", "packet_parts"]

PACKET_FORMATS = ("html", "pdf")
PAGE_SIZES = {"a4": "A4", "letter": "letter"}


# where a printed page of its own starts in the packet's body: an encounter's sheet, a stat block card
_PART = re.compile(r'(?=<section class="wb-sheet"|<div class="wb-card">)')
# the day's lines: it runs over as many pages as the adventure has encounters, a line never breaks
_DAY_LINE = re.compile(r'(?=<tr[ >]|<li class="wb-warning")')


def _page_css(page: str) -> str:
    return f"<style>@page{{size:{PAGE_SIZES[page]};margin:12mm}}</style>"


def packet_parts(document: str) -> tuple[tuple[str, str], ...]:
    """The packet's pieces that must each fit a printed page, named as a Director finds them: each encounter's
    sheet and each stat block card (each starts a page), and the day (the title and each line of its table,
    each warning: the day runs over as many pages as it needs, a line does not)."""
    day, *pieces = _PART.split(document.partition("<body>")[2])
    parts = [("the day" if n == 0 else f"the day, line {n}", line) for n, line in enumerate(_DAY_LINE.split(day))]
    sheets = cards = 0
    for piece in pieces:
        if piece.startswith('<section class="wb-sheet"'):
            sheets += 1
            parts.append((f"the sheet of encounter {sheets}", piece))
        else:
            cards += 1
            parts.append((f"stat block card {cards}", piece))
    return tuple(parts)


def export_adventure(
    adventure: Adventure, fmt: str, monsters: Sequence[Monster] = (), page: str = "a4"
) -> str | bytes:
    """The adventure's packet: str for "html", bytes for "pdf". Each creature's card is the whole monster its
    entry carries; `monsters` stand in, by name, only for entries that carry nothing but the formulas'
    numbers (an adventure saved before entries carried their monster)."""
    if not isinstance(adventure, Adventure):
        raise InvalidInput("adventure", adventure, "an Adventure")
    if fmt not in PACKET_FORMATS:
        raise InvalidInput("fmt", fmt, " or ".join(f'"{f}"' for f in PACKET_FORMATS))
    if page not in PAGE_SIZES:
        raise InvalidInput("page", page, " or ".join(f'"{p}"' for p in PAGE_SIZES))
    document = str(adventure_html(adventure.plan(), monsters)).replace("</head>", _page_css(page) + "</head>", 1)
    if fmt == "html":
        return document
    return document_pdf(document, page, packet_parts(document), field="adventure",
                        what="a day, sheet or card")
