"""The Export panel: a monster as a file the browser downloads (Forge Steel, Foundry, Steel Compendium,
Markdown, HTML, PDF, PNG), and a preview of its printed card.

A Director in Voilà has no file system, so the file travels inside the page: the panel draws a link whose
`href` is the file itself (a `data:` URL) and whose `download` attribute names it; clicking the link saves it.
The file is made when the Director asks ("Make file"), not on every change of the monster: printing takes a
headless Chromium a second. A monster that changes after that takes the link away, so a download is never of
an older monster than the one on screen.

What is exported is the monster the builder's block draws: a formula monster holds its signature ability and
its characteristic (`build_monster` writes them in), so every file carries them.

Glue only: `download_html` and `card_preview_html` are pure views (a monster in, HTML out); the class owns its
controls and one observer per control, and `wb.export_monster` does the work.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from workbench.apps.message import refusal_html
from workbench.errors import WorkbenchError
from workbench.export.exporter import FORMATS, SUFFIXES, export_monster
from workbench.export.printout import print_png
from workbench.model import Monster
from workbench.monster.library import suggest_name
from workbench.render.escape import Markup
from workbench.render.message import error_html

__all__ = ["ExportPanel", "LABELS", "card_preview_html", "download_html", "file_name"]

LABELS = {
    "forge-steel": "Forge Steel (.ds-monster)",
    "foundry": "Foundry VTT NPC (.json)",
    "steel-compendium": "Steel Compendium stat block (.json)",
    "markdown": "Markdown (.md)",
    "html": "Web page (.html)",
    "pdf": "PDF, A4 page (.pdf)",
    "png": "PNG card, 200 dpi (.png)",
}
MEDIA_TYPES = {"markdown": "text/markdown", "html": "text/html", "pdf": "application/pdf", "png": "image/png"}


# two formats share ".json": the name says which, so two downloads never land on one file name
NAME_TAGS = {"foundry": " (Foundry)", "steel-compendium": " (Steel Compendium)"}
# the download link drawn as a button (a plain link read as text, and was missed)
def file_name(monster: Monster, fmt: str) -> str:
    """The downloaded file's name: the monster's name as a safe file name, a tag for the formats that share a
    suffix, the format's suffix; each format its own name."""
    return (suggest_name(monster.name) or "monster") + NAME_TAGS.get(fmt, "") + SUFFIXES[fmt]


def download_html(monster: Monster, fmt: str) -> str:
    """A link that downloads the monster in `fmt` (the file inside the link, as a data: URL)."""
    content = export_monster(monster, fmt)
    payload = content if isinstance(content, bytes) else content.encode("utf-8")
    media = MEDIA_TYPES.get(fmt, "application/json")
    name = file_name(monster, fmt)
    href = f"data:{media};base64,{base64.b64encode(payload).decode('ascii')}"
    return (Markup('<a class="wb-download" data-format="{}" download="{}" '
            'href="{}">⬇ Download {}</a> '
            '<span class="wb-note">({:,} bytes)</span>').format(fmt, name, href, name, len(payload)))


def card_preview_html(monster: Monster) -> str:
    """The printed card as an image (what the PNG export gives)."""
    png = print_png(monster)
    alt = f"Printed card of {monster.name or 'the monster'}"
    return (Markup('<img class="wb-card-preview" alt="{}" '
            'src="data:image/png;base64,{}">').format(alt, base64.b64encode(png).decode("ascii")))


class ExportPanel(widgets.VBox):
    """Format, "Make file", the download link; "Preview card", the card. `show(monster)` sets the monster the
    files are made of."""

    def __init__(self, monster: Monster | None = None) -> None:
        self.monster = monster
        self.controls = {
            "format": widgets.Dropdown(options=[(LABELS[f], f) for f in FORMATS], value="forge-steel",
                                       description="Format"),
            "make": widgets.Button(description="Make file", icon="download"),
            "preview": widgets.Button(description="Preview card", icon="print"),
        }
        self.link = widgets.HTML()
        self.card = widgets.HTML()
        self.controls["format"].observe(self._forget, names="value")
        self.controls["make"].on_click(self._make)
        self.controls["preview"].on_click(self._preview)
        super().__init__(children=[
            widgets.HTML("<b>Export</b>: a file for Forge Steel, Foundry VTT, the Steel Compendium, or print"),
            widgets.HBox([self.controls["format"], self.controls["make"], self.controls["preview"]]),
            self.link, self.card,
        ])
        self.add_class("wb-export")

    def show(self, monster: Monster) -> None:
        """A new monster: links and preview made for the old one are taken away."""
        if monster != self.monster:
            self.monster = monster
            self.link.value = self.card.value = ""

    def _forget(self, _: Any = None) -> None:
        self.link.value = ""

    def _run(self, target: widgets.HTML, view: Callable[[Monster], str]) -> None:
        try:
            if self.monster is None:
                target.value = error_html("Build or load a monster first.")
                return
            target.value = view(self.monster)
        except WorkbenchError as exc:
            target.value = refusal_html(exc)

    def _make(self, _: Any = None) -> None:
        fmt = self.controls["format"].value
        self._run(self.link, lambda monster: download_html(monster, fmt))

    def _preview(self, _: Any = None) -> None:
        self._run(self.card, card_preview_html)
