"""Printed stat blocks: PDF pages and PNG cards drawn by a headless Chromium from the block's own HTML.

Why Chromium and not a Python PDF library: the printed card must look like the block the notebook and the
apps draw, and the browser tests already install a Chromium (`make browser`: Debian's headless shell and
chromium, else Playwright's build), so printing adds no second layout engine and no new system library. WeasyPrint
would need Pango and its own CSS subset, and it writes no PNG at all. Chromium embeds (subsets) every font it
draws with, so a PDF opens the same on any machine.

The browser is started once per process in one worker thread and kept warm (a card then takes a fraction of
a second); Playwright's sync API may not run on a thread that has an asyncio loop, which is the case in a
Jupyter kernel, so every call goes through that worker. A missing Playwright, Chromium or system library is
reported as `PrintUnavailable`, naming what to install.

Each monster gets a page; a block taller than the page is scaled down to fit it, so one monster stays on one
page. Down to `MIN_ZOOM`, no further: a block with more text than its page holds at that size (`page_capacity`)
is refused with a message saying how much it holds and how much fits, before the browser starts (a
500,000-character word would otherwise keep Chromium busy for minutes, and print as a grey smear). Every piece of user text is escaped by the stat block renderer before it reaches the browser, and the
page loads nothing from the network.
"""

from __future__ import annotations

import atexit
import html
import math
import os
import re
import struct
import threading
import zlib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.errors import InvalidInput, WorkbenchError
from workbench.model import Monster
from workbench.render.escape import Markup, join, stylesheet
from workbench.render.table_copy import table_copy_html

__all__ = ["PAGE_SIZES", "PageSize", "PrintUnavailable", "block_size", "chromium_launch_options", "document_pdf",
           "fitting", "page_capacity", "print_html", "print_pdf", "print_png"]

# The system's Chromium, first found: $WORKBENCH_CHROMIUM, else Debian's headless shell (the same Blink and V8
# without the desktop browser's own layers, so a page costs less CPU), else Debian's chromium.
SYSTEM_CHROMIUMS = (
    (Path(os.environ["WORKBENCH_CHROMIUM"]),) if os.environ.get("WORKBENCH_CHROMIUM") else
    (Path("/usr/lib/chromium/chromium-headless-shell"), Path("/usr/bin/chromium"))
)
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
CSS_PX_PER_INCH = 96
MM_PER_INCH = 25.4
MIN_DPI = 150
MAX_DPI = 600
# The smallest a block is printed to fit its page. The sample bestiary's longest block (a solo) needs about
# 0.56 on a card; below 0.4 (4.4 pt type on A4) a block is no longer read at the table.
MIN_ZOOM = 0.4
GLYPH_EM = 0.5  # an average character's width, in ems, in the block's sans-serif type
LINE_EM = 1.25  # a line's height, in ems


@dataclass(frozen=True)
class PageSize:
    """A paper size and its margin, in millimetres."""

    name: str
    width_mm: float
    height_mm: float
    margin_mm: float
    font_pt: float  # the block's base type size on this paper

    def content_px(self) -> tuple[float, float]:
        """The printable width and height in CSS pixels (96 to the inch), inside the margins."""
        scale = CSS_PX_PER_INCH / MM_PER_INCH
        return ((self.width_mm - 2 * self.margin_mm) * scale, (self.height_mm - 2 * self.margin_mm) * scale)


PAGE_SIZES = {
    "a4": PageSize("A4", 210, 297, 12, 11),
    "letter": PageSize("Letter", 215.9, 279.4, 12, 11),
    "card": PageSize("5 × 7 in card", 127, 177.8, 6, 8),  # an index card a Director puts on the table
}

# Runs in the page: a block taller than the printable height is zoomed down until it fits its page.
FIT_SCRIPT = """(limit) => {
  for (const page of document.querySelectorAll('.wb-page')) {
    const height = page.scrollHeight;
    if (height > limit) page.style.zoom = String(limit / height);
  }
}"""


class PrintUnavailable(WorkbenchError):
    """Printing needs Playwright and a Chromium with its system libraries; the message says what is missing."""

    code = "print-unavailable"


def _page_size(page: str) -> PageSize:
    key = page.strip().lower() if isinstance(page, str) else None
    if key not in PAGE_SIZES:
        raise InvalidInput("page", page, "one of " + ", ".join(PAGE_SIZES))
    return PAGE_SIZES[key]


def _monsters(monsters: Monster | Iterable[Monster]) -> tuple[Monster, ...]:
    found = (monsters,) if isinstance(monsters, Monster) else tuple(monsters)
    if not found or not all(isinstance(m, Monster) for m in found):
        raise InvalidInput("monsters", monsters, "a Monster or a non-empty list of Monsters")
    return found


Block = Callable[[Monster], str]

_TAG = re.compile(r"<[^>]*>")
_LINE_STARTS = re.compile(r"<(?:div|p|li|tr|h[1-6]|br|dt|dd)\b", re.IGNORECASE)


def _line_chars(size: PageSize) -> float:
    return size.content_px()[0] / (GLYPH_EM * size.font_pt * CSS_PX_PER_INCH / 72)


def page_capacity(size: PageSize) -> int:
    """How many characters of text one page holds with the block printed at `MIN_ZOOM` of its size: the
    lines that fit the printable height times the characters that fit a line, both divided by the zoom."""
    font_px = size.font_pt * CSS_PX_PER_INCH / 72
    lines = size.content_px()[1] / (LINE_EM * font_px)
    return math.floor(_line_chars(size) * lines / MIN_ZOOM**2)


def block_size(fragment: str, size: PageSize) -> int:
    """The text of a block's HTML as characters of the page's lines: its visible characters, plus half a line
    for every line or paragraph it starts (on average a line ends half-way)."""
    text = " ".join(html.unescape(_TAG.sub(" ", fragment)).split())
    return len(text) + math.ceil(len(_LINE_STARTS.findall(fragment)) * _line_chars(size) / 2)


def fitting(fragment: str, page: str, field: str = "monster", name: str = "", what: str = "a stat block",
            instead: str = "markdown or html") -> str:
    """`fragment` (the HTML of something printed on a page of its own), if its text fits one `page` at
    `MIN_ZOOM`; else InvalidInput naming `field` and `name`, saying how much fits and the formats (`instead`)
    that have no page. Every printout checks its pieces here before the browser starts: past the page, the
    text would only keep Chromium busy."""
    size = _page_size(page)
    used, room = block_size(fragment, size), page_capacity(size)
    if used > room:
        raise InvalidInput(
            field, name,
            f"{what} that fits one {size.name} page: about {room:,} characters of text at most",
            f"it holds about {used:,}; shorten its text, or export it as {instead}",
        )
    return fragment


def _default_block(monster: Monster) -> str:
    """The table copy: the book's block only (the builder's hints, odds and notes stay on screen)."""
    return table_copy_html(monster)


def print_html(monsters: Monster | Iterable[Monster], page: str = "a4", block: Block | None = None) -> str:
    """The whole document the browser prints: one `.wb-page` per monster, the page size in `@page`.

    `block` draws one monster's block as an HTML fragment (user text escaped); the stat block by default. A
    block holding more text than its page can (`page_capacity`) is refused naming the monster.
    """
    size = _page_size(page)
    draw = block or _default_block
    pages = join(Markup('<div class="wb-page">{}</div>').format(Markup(fitting(draw(m), page, "monster", m.name)))
                 for m in _monsters(monsters))
    # the page's size is the document's own (numbers, not text anyone typed); the rest is the stylesheet's
    at_page = Markup("<style>@page{{size:{}mm {}mm;margin:{}mm}}.wb-stat-block{{font-size:{}pt}}</style>").format(
        size.width_mm, size.height_mm, size.margin_mm, size.font_pt)
    return str(Markup(
        '<!DOCTYPE html><html class="wb-print"><head><meta charset="utf-8"><title>Stat blocks</title>'
        "{}{}</head><body>{}</body></html>"
    ).format(stylesheet(), at_page, pages))


# ---------------------------------------------------------------- the browser, one per process


def chromium_launch_options() -> dict[str, Any]:
    """Keyword arguments for Playwright's `chromium.launch(**options)`: headless with CHROMIUM_ARGS, the
    system Chromium when there is one (else Playwright's own build). The browser tests launch theirs the same
    way, so what they test is the browser the printer uses."""
    options: dict[str, Any] = {"headless": True, "args": list(CHROMIUM_ARGS)}
    system = next((path for path in SYSTEM_CHROMIUMS if path.exists()), None)
    if system is not None:
        options["executable_path"] = str(system)
    return options


class _Browser:
    """One Playwright + Chromium, owned by one worker thread, started on first use and closed at exit."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="workbench-print")
        self._lock = threading.Lock()
        self._playwright: Any = None
        self._browser: Any = None

    def run(self, job: Callable[[Any], bytes]) -> bytes:
        with self._lock:
            return self._executor.submit(self._call, job).result()

    def _call(self, job: Callable[[Any], bytes]) -> bytes:
        if self._browser is None or not self._browser.is_connected():
            self._browser = self._launch()
        return job(self._browser)

    def _launch(self) -> Any:
        try:
            from playwright.sync_api import Error, sync_playwright
        except ImportError as exc:
            raise PrintUnavailable(
                "printing needs the Python package playwright: run `make venv` (or `pip install playwright`)"
            ) from exc
        if self._playwright is None:
            self._playwright = sync_playwright().start()
        options = chromium_launch_options()
        try:
            return self._playwright.chromium.launch(**options)
        except Error as exc:
            raise PrintUnavailable(_launch_problem(str(exc), options.get("executable_path"))) from None

    def close(self) -> None:
        def stop() -> None:
            if self._browser is not None:
                self._browser.close()
            if self._playwright is not None:
                self._playwright.stop()
            self._browser = self._playwright = None

        try:
            self._executor.submit(stop).result(timeout=10)
        except Exception:  # the process is ending; a browser that won't close dies with it
            pass
        self._executor.shutdown(wait=False)


def _launch_problem(message: str, executable: str | None) -> str:
    """What to install, from Chromium's or Playwright's launch error."""
    library = re.search(r"error while loading shared libraries: ([^\s:]+)", message)
    if library:
        return (
            f"Chromium cannot start: the system library {library.group(1)} is missing; install Debian's "
            "chromium package (`apt-get install chromium chromium-headless-shell`, which brings its libraries) or run "
            "`.venv/bin/python -m playwright install-deps chromium`"
        )
    if "Executable doesn't exist" in message or "playwright install" in message:
        return (
            "no Chromium to print with: run `make browser` (Debian: `apt-get install chromium`; "
            "elsewhere `.venv/bin/python -m playwright install chromium`)"
        )
    where = executable or "Playwright's Chromium"
    first = message.strip().splitlines()[0] if message.strip() else "unknown error"
    return f"Chromium ({where}) did not start: {first}; `make browser` installs a working one"


_BROWSER: _Browser | None = None
_BROWSER_LOCK = threading.Lock()


def _browser() -> _Browser:
    global _BROWSER
    with _BROWSER_LOCK:
        if _BROWSER is None:
            _BROWSER = _Browser()
            atexit.register(_BROWSER.close)
        return _BROWSER


def _printed(document: str, capture: Callable[[Any], bytes], media: str | None = None,
             **context_options: Any) -> bytes:
    """`capture(tab)` of `document` laid out in a fresh page of the one browser that may fetch nothing from
    the network (the document is complete in itself); `media` "print" lays it out as printed."""

    def job(browser: Any) -> bytes:
        context = browser.new_context(**context_options)
        try:
            context.route("**/*", lambda route: route.abort())
            tab = context.new_page()
            if media is not None:
                tab.emulate_media(media=media)
            tab.set_content(document, wait_until="load")
            return capture(tab)
        finally:
            context.close()

    return _browser().run(job)


# ---------------------------------------------------------------- PDF


def document_pdf(document: str, page: str = "a4", parts: Iterable[tuple[str, str]] = (), *,
                 field: str = "document", what: str = "a part", instead: str = "html",
                 fit: bool = False) -> bytes:
    """A complete HTML document (its own `@page` size) printed to PDF by the one browser, offline.

    `parts` are the pieces that start a printed page of their own, each (its name, its HTML): each is checked
    by `fitting` first, so one with more text than a `page` holds is refused, naming `field` and the part,
    before the browser starts. `fit` zooms each `.wb-page` down to its page (laid out at the printed width, so
    the heights measured for fitting are the printed ones).
    """
    size = _page_size(page)
    for name, fragment in parts:
        fitting(fragment, page, field, name, what, instead)
    width, limit = size.content_px()

    def capture(tab: Any) -> bytes:
        if fit:
            tab.evaluate(FIT_SCRIPT, limit)
        pdf: bytes = tab.pdf(prefer_css_page_size=True, print_background=True)
        return pdf

    viewport = {"viewport": {"width": math.floor(width), "height": math.floor(limit)}} if fit else {}
    return _printed(document, capture, media="print", **viewport)


def print_pdf(monsters: Monster | Sequence[Monster], page: str = "a4", block: Block | None = None) -> bytes:
    """A PDF with one page per monster (a library or an encounter in one file); `page`: a4, letter or card."""
    return document_pdf(print_html(monsters, page, block), page, fit=True)


# ---------------------------------------------------------------- PNG


def print_png(monster: Monster, dpi: int = 200, page: str = "card", block: Block | None = None) -> bytes:
    """One monster's block as a PNG at `dpi` (150 to 600), the width of `page`'s printable area.

    The resolution is written into the file (its pHYs chunk), so an image viewer or a word processor places
    it at its true printed size.
    """
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not MIN_DPI <= dpi <= MAX_DPI:
        raise InvalidInput("dpi", dpi, f"a whole number from {MIN_DPI} to {MAX_DPI}")
    size = _page_size(page)
    width, height = size.content_px()
    document = print_html(monster, page, block)

    def capture(tab: Any) -> bytes:
        png: bytes = tab.locator(".wb-stat-block").first.screenshot(type="png")
        return png

    return with_dpi(_printed(document, capture, viewport={"width": round(width), "height": round(height)},
                             device_scale_factor=dpi / CSS_PX_PER_INCH), dpi)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def with_dpi(png: bytes, dpi: int) -> bytes:
    """The PNG with a pHYs chunk saying `dpi` (pixels per metre, as PNG stores it), replacing any other."""
    if not png.startswith(PNG_SIGNATURE):
        raise InvalidInput("png", png[:8], "PNG data")
    per_metre = math.ceil(dpi / 0.0254)  # never below the dpi asked for
    position = len(PNG_SIGNATURE)
    chunks = []
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        end = position + 12 + length
        kind = png[position + 4 : position + 8]
        if kind != b"pHYs":
            chunks.append(png[position:end])
            if kind == b"IHDR":
                chunks.append(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
        position = end
    return PNG_SIGNATURE + b"".join(chunks)


def png_dpi(png: bytes) -> tuple[float, float] | None:
    """The resolution a PNG declares (dots per inch across and down), or None if it declares none."""
    position = len(PNG_SIGNATURE)
    while position + 8 <= len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        if png[position + 4 : position + 8] == b"pHYs":
            x, y, unit = struct.unpack(">IIB", png[position + 8 : position + 17])
            return (x * 0.0254, y * 0.0254) if unit == 1 else None
        position += 12 + length
    return None
