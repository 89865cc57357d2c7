"""Reading any stat block file the workbench knows, the format told from the content, never the extension.

A Forge Steel monster is the object with `withCaptain` (Forge Steel's own test), a group the object with
`monsters` and `malice`; a Foundry actor has `type: "npc"` and `system`; a Steel Compendium stat block has
`type: "statblock"` (or, in older files, `free_strike` beside its `features`).

Opening is lenient and honest: a part of a real file the model cannot structure (a distance in words, a
formula it does not evaluate, an organization the file leaves blank) stays as written and is listed in the
monster's `kept_as_text`. A file that is none of these formats, or holds a value of the wrong kind or out of
range, is refused with the file, the format it looked like and the part that failed (`ImportRefused`), in
words, never Python's; nothing is half-read in silence. A monster is also refused when the homebrew library
could not load it back (`record.check_monster`), so every monster that imports can be loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.formats.forge_steel import FORMAT as FORGE_STEEL
from workbench.formats.forge_steel import is_forge_steel, is_forge_steel_group, read_forge_steel
from workbench.formats.foundry import FORMAT as FOUNDRY
from workbench.formats.foundry import is_foundry, read_foundry
from workbench.formats.record import ImportRefused, check_monster
from workbench.formats.steel_compendium import FORMAT as STEEL_COMPENDIUM
from workbench.formats.steel_compendium import is_steel_compendium, read_steel_compendium
from workbench.io.problem import FileProblem
from workbench.io.reading import parse_json, read_text
from workbench.model import Monster

__all__ = ["MAX_FILE_BYTES", "ImportRefused", "detect_format", "import_monster", "import_monsters", "read_monsters"]

# A Forge Steel group of a whole library, each monster with its record, stays far below this.
MAX_FILE_BYTES = 16 * 1_048_576
FORMATS = ("forge-steel", "forge-steel-group", "foundry", "steel-compendium")


def detect_format(data: Any) -> str | None:
    """"forge-steel", "forge-steel-group", "foundry", "steel-compendium", or None for none of them."""
    if is_forge_steel_group(data):
        return "forge-steel-group"
    if is_forge_steel(data):
        return "forge-steel"
    if is_foundry(data):
        return "foundry"
    if is_steel_compendium(data):
        return "steel-compendium"
    return None


def read_monsters(data: Any, source: str) -> list[Monster]:
    """The monsters of parsed JSON, whatever known format it is in."""
    kind = detect_format(data)
    if kind in ("forge-steel", "forge-steel-group"):
        return read_forge_steel(data, source)  # each monster checked there, named by its place in a group
    if kind == "foundry":
        return [check_monster(read_foundry(data, source), source, FOUNDRY)]
    if kind == "steel-compendium":
        return [check_monster(read_steel_compendium(data, source), source, STEEL_COMPENDIUM)]
    keys = ", ".join(sorted(data)[:8]) if isinstance(data, dict) else type(data).__name__
    raise ImportRefused(source, "no known stat block format", "top level",
                        f"found {keys}; accepts a Steel Compendium stat block, a Forge Steel .ds-monster or "
                        ".ds-monster-group, or a Foundry VTT Draw Steel NPC actor")


def _load(path: str | Path) -> tuple[Any, str]:
    """The file's JSON, read through the workbench's safe reader (regular files only, a size cap, no
    runaway nesting or numbers); any problem refuses the file by name."""
    source = str(path)
    try:
        return parse_json(read_text(path, limit=MAX_FILE_BYTES), source), source
    except FileProblem as exc:
        raise ImportRefused(source, "no known stat block format", "file", exc.reason) from None


def import_monsters(path: str | Path) -> list[Monster]:
    """Every monster of a file: one for a stat block or an actor, all of a Forge Steel group."""
    data, source = _load(path)
    return read_monsters(data, source)


def import_monster(path: str | Path) -> Monster:
    """The monster of a stat block file; a Forge Steel group must hold exactly one (use `import_monsters`)."""
    data, source = _load(path)
    monsters = read_monsters(data, source)
    if len(monsters) != 1:
        raise ImportRefused(source, FORGE_STEEL + " group", "monsters",
                            f"holds {len(monsters)} monsters; wb.import_monsters reads them all")
    return monsters[0]
