"""Every monster at hand, each on the shelf it came from: the shipped sample, the bestiaries added to the
workspace, the Director's library, and the old library folders not moved yet.

`gather_bestiary` lists them together, each monster with its shelf and each shelf with its attribution, so
wherever monsters are listed the attribution can be shown beside them; `published_stat_blocks` lists the
published stat blocks the calibration and the bestiary browser read. `workspace_bestiary` and
`workspace_stat_blocks` do so for the Director's own folder.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from workbench.formats.bestiary import (
    SAMPLE_DIR,
    Bestiary,
    BestiaryShelf,
    LoadFailure,
    PublishedMonster,
    StatBlockError,
    read_stat_block_file,
    sample_bestiary,
)
from workbench.frozen import Frozen
from workbench.io.home import library_folder
from workbench.io.problem import FileProblem
from workbench.io.reading import read_bytes
from workbench.model import Monster
from workbench.monster.library import load_library
from workbench.rules.ruleset import Ruleset
from workbench.workspace.added_bestiary import MAX_LICENCE_BYTES, first_paragraph, list_bestiaries
from workbench.workspace.folder import bestiaries_folder
from workbench.workspace.migration import old_library_folders

__all__ = [
    "LIBRARY_SHELF",
    "SAMPLE_SHELF",
    "ListedMonster",
    "Shelf",
    "WorkspaceBestiary",
    "gather_bestiary",
    "published_stat_blocks",
    "workspace_bestiary",
    "workspace_stat_blocks",
]


class Shelf(Frozen):
    """Where listed monsters come from: the shipped sample, an added bestiary, or the Director's library."""

    name: str
    kind: Literal["sample", "bestiary", "library"]
    attribution: str = ""
    count: int = 0


class ListedMonster(Frozen):
    """A monster as listed, with the shelf it came from."""

    monster: Monster | PublishedMonster
    shelf: str


class WorkspaceBestiary(Frozen):
    """Every monster at hand: the sample, the added bestiaries and the library, each with its shelf."""

    shelves: tuple[Shelf, ...] = ()
    entries: tuple[ListedMonster, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()  # (what, why) for a bestiary or a library file that did not load

    @property
    def monsters(self) -> tuple[Monster | PublishedMonster, ...]:
        return tuple(e.monster for e in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def attribution_lines(self) -> tuple[str, ...]:
        """One line per shelf that has monsters: its name, how many, and its attribution."""
        return tuple(
            f"{s.name} ({s.count} monsters)" + (f": {s.attribution}" if s.attribution else "")
            for s in self.shelves
            if s.count
        )


SAMPLE_SHELF = "Published sample (Steel Compendium)"
LIBRARY_SHELF = "Your library"


def _sample_attribution() -> str:
    try:
        text = read_bytes(SAMPLE_DIR / "LICENSE", limit=MAX_LICENCE_BYTES).decode("utf-8", errors="replace")
    except FileProblem:
        return ""
    return first_paragraph(text)


def gather_bestiary(
    bestiaries: str | os.PathLike[str] | None,
    library: str | os.PathLike[str] | None,
    *,
    sample: bool = True,
    old_libraries: Sequence[str | os.PathLike[str]] = (),
    published: bool = True,
) -> WorkspaceBestiary:
    """The sample (unless `sample=False`), every bestiary added under `bestiaries`, the library folder's
    monsters and those still in `old_libraries` (saved before the workspace, not moved yet: offered too, on a
    shelf of their own), together; a bestiary or library file that does not load is in `problems` by name.
    A saved monster is listed under its library name when it has none of its own (`Entry.named`).

    `published=False` leaves out the added bestiaries' Steel Compendium stat blocks: a page listing those as
    published stat blocks (`published_stat_blocks`) lists the rest of the workspace's monsters with this."""
    shelves: list[Shelf] = []
    entries: list[ListedMonster] = []
    problems: list[tuple[str, str]] = []
    if sample:
        shipped = sample_bestiary()
        shelves.append(Shelf(name=SAMPLE_SHELF, kind="sample", attribution=_sample_attribution(),
                             count=len(shipped.monsters)))
        entries += [ListedMonster(monster=m, shelf=SAMPLE_SHELF) for m in shipped.monsters]
    if bestiaries is not None:
        added, broken = list_bestiaries(bestiaries)
        problems += [(f"bestiary {folder}", why) for folder, why in broken]
        for b in added:
            kinds = b.monster_formats if len(b.monster_formats) == len(b.monsters) else ("",) * len(b.monsters)
            kept = [m for m, kind in zip(b.monsters, kinds, strict=True) if published or kind != "steel-compendium"]
            shelves.append(Shelf(name=b.name, kind="bestiary", attribution=b.attribution, count=len(kept)))
            entries += [ListedMonster(monster=m, shelf=b.name) for m in kept]
    if library is not None:
        contents = load_library(Path(library))
        problems += [(f"library file {file}", why) for file, why in contents.problems]
        shelves.append(Shelf(name=LIBRARY_SHELF, kind="library", count=len(contents.entries)))
        entries += [ListedMonster(monster=e.named, shelf=LIBRARY_SHELF) for e in contents.entries]
    for folder in old_libraries:
        contents = load_library(Path(folder))
        if not contents.entries:
            continue
        name = f"Saved in {folder} (workbench workspace --move brings them into the library)"
        problems += [(f"library file {file}", why) for file, why in contents.problems]
        shelves.append(Shelf(name=name, kind="library", count=len(contents.entries)))
        entries += [ListedMonster(monster=e.named, shelf=name) for e in contents.entries]
    return WorkspaceBestiary(shelves=tuple(shelves), entries=tuple(entries), problems=tuple(problems))


def published_stat_blocks(
    bestiaries: str | os.PathLike[str] | None, *, sample: bool = True, ruleset: Ruleset | None = None
) -> Bestiary:
    """The published stat blocks at hand as the calibration and the bestiary browser read them
    (`PublishedMonster`): the sample and every Steel Compendium stat block of the added bestiaries, read from the
    files kept beside them. Each is on its bestiary's shelf (`PublishedMonster.shelf`, its file named from the
    shelf's folder) and each shelf carries its attribution, so wherever they are listed the attribution can be
    shown. One stat block found twice (the sample added as a bestiary too) counts once, so no fit weighs it
    double."""
    found: list[PublishedMonster] = []
    failures: list[LoadFailure] = []
    shelves: list[BestiaryShelf] = []
    if sample:
        published = sample_bestiary(ruleset)
        found += [m.model_copy(update={"shelf": SAMPLE_SHELF}) for m in published.monsters]
        failures += published.failures
        shelves.append(BestiaryShelf(name=SAMPLE_SHELF, folder=str(SAMPLE_DIR), attribution=_sample_attribution()))
    added = list_bestiaries(bestiaries)[0] if bestiaries is not None else ()
    for b in added:
        folder = Path(b.folder)
        files = sorted({f for f, kind in zip(b.monster_files, b.monster_formats, strict=False)
                        if kind == "steel-compendium"})
        for file in files:
            try:
                read = read_stat_block_file(folder / file, file, ruleset, inside=folder)
                found.append(read.model_copy(update={"shelf": b.name}))
            except StatBlockError as exc:
                failures.append(LoadFailure(file=f"{b.name}: {file}", reason=exc.reason))
        shelves.append(BestiaryShelf(name=b.name, folder=str(folder), attribution=b.attribution))
    seen: set[tuple[str, int, str, int, int]] = set()
    unique: list[PublishedMonster] = []
    for m in found:
        key = (m.name.casefold(), m.level, m.organization, m.ev, m.stamina)
        if key not in seen:
            seen.add(key)
            unique.append(m)
    return Bestiary(source=", ".join(s.name for s in shelves), monsters=tuple(unique), failures=tuple(failures),
                    shelves=tuple(shelves))


def workspace_bestiary(sample: bool = True, published: bool = True) -> WorkspaceBestiary:
    """Every monster at hand, each with its shelf and attribution: the shipped sample, the bestiaries added
    to the workspace and the workspace's library, together, and the monsters still in the old library folders
    (a monster saved in a lesson before the workspace is offered on every page). `published=False` leaves out
    what `workspace_stat_blocks` lists (the sample and the added Steel Compendium stat blocks)."""
    library = library_folder()
    return gather_bestiary(bestiaries_folder(), library, sample=sample and published,
                           old_libraries=old_library_folders(library), published=published)


def workspace_stat_blocks(sample: bool = True, ruleset: Ruleset | None = None) -> Bestiary:
    """The published stat blocks at hand (the shipped sample and those of the bestiaries added to the
    workspace), each on its shelf with its attribution: what the bestiary browser lists and what the
    calibration and "closest published monsters" compare with."""
    return published_stat_blocks(bestiaries_folder(), sample=sample, ruleset=ruleset)
