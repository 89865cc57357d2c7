"""`export_monster(monster, fmt)`: one monster, or several together, in any format the workbench writes.

Text formats return `str`: "forge-steel" (a `.ds-monster`), "foundry" (an NPC actor), "steel-compendium" (a
stat block JSON), "markdown", "html" (a whole page). Printed formats return `bytes`: "pdf" (one page per
monster) and "png" (one monster's card). `export_monsters` puts several monsters into one file where the
format has a container: a Forge Steel `.ds-monster-group`, one PDF, one HTML page, one Markdown document; the
Steel Compendium and Foundry hold one monster a file (a list would open in neither tool).

The one place a format name becomes a file: the command line, the Export tab and the notebooks all call it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workbench.errors import InvalidInput
from workbench.export.printout import print_pdf, print_png
from workbench.formats import forge_steel, foundry, steel_compendium
from workbench.model import Monster, require_monster
from workbench.render.escape import Markup, join, stylesheet
from workbench.render.stat_block import stat_block_html, stat_block_markdown

__all__ = ["FORMATS", "GROUP_FORMATS", "SUFFIXES", "export_monster", "export_monsters"]

SUFFIXES = {
    "forge-steel": ".ds-monster",
    "foundry": ".json",
    "steel-compendium": ".json",
    "markdown": ".md",
    "html": ".html",
    "pdf": ".pdf",
    "png": ".png",
}
FORMATS = tuple(SUFFIXES)
GROUP_FORMATS = {"forge-steel": ".ds-monster-group", "markdown": ".md", "html": ".html", "pdf": ".pdf"}


def _page(monsters: Sequence[Monster]) -> str:
    title = monsters[0].name if len(monsters) == 1 else "Stat blocks"
    blocks = join(stat_block_html(m, style=False) for m in monsters)
    return str(Markup('<!DOCTYPE html><html class="wb-print"><head><meta charset="utf-8"><title>{}</title>{}</head>'
                      "<body>{}</body></html>").format(title, stylesheet(), blocks))


_ONE: dict[str, Callable[[Monster], str | bytes]] = {
    "forge-steel": forge_steel.export_monster,
    "foundry": foundry.export_monster,
    "steel-compendium": steel_compendium.export_monster,
    "markdown": stat_block_markdown,
    "html": lambda m: _page([m]),
    "pdf": print_pdf,
    "png": print_png,
}


def _format(fmt: object, allowed: Sequence[str]) -> str:
    key = fmt.strip().lower() if isinstance(fmt, str) else ""
    if key not in allowed:
        raise InvalidInput("format", fmt, "one of " + ", ".join(allowed))
    return key


def export_monster(monster: Monster, fmt: str) -> str | bytes:
    """The monster in `fmt`: str for forge-steel, foundry, steel-compendium, markdown, html; bytes for pdf, png."""
    require_monster(monster)
    return _ONE[_format(fmt, FORMATS)](monster)


def export_monsters(monsters: Sequence[Monster], fmt: str, name: str = "Workbench monsters") -> str | bytes:
    """Several monsters in one file: a Forge Steel group (`name` is the group's), one PDF, HTML or Markdown."""
    key = _format(fmt, tuple(GROUP_FORMATS))
    found = list(monsters)
    if not found or not all(isinstance(m, Monster) for m in found):
        raise InvalidInput("monsters", monsters, "a non-empty list of Monsters")
    if key == "forge-steel":
        return forge_steel.export_group(found, name)
    if key == "pdf":
        return print_pdf(found)
    if key == "html":
        return _page(found)
    return "\n---\n\n".join(stat_block_markdown(m) for m in found)
