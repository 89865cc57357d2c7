"""The Director's workspace: the party, the encounter and the monsters chosen once, shared by every app page.

Each page of `workbench app` runs in its own kernel, so they cannot share Python objects: they share one small
file instead, `workspace.json` in the Director's workbench folder (`~/drawsteel-workbench/` unless the
`WORKBENCH_HOME` variable names another). The encounter page writes the encounter (and its party) there after
every change; the fight page reads it to know which squads and which monsters' Malice features the fight has.
The homebrew library (the monsters a Director saved) lives beside it, in `monsters/`.

Here is what the pages need from that file and nothing about widgets: read and write it (a write goes to a
temporary file moved into place, so a crash never leaves half a workspace), keep the monsters the encounter
names (for their Malice features), and turn the encounter into the fight's pieces: each stat block's Monster,
the minion squads (up to eight minions each) and the creatures that may captain them.

Two pages (or a page and a script) may change the workspace at once, so no update may be lost: a workspace
read from the file remembers the hash of what it read, and saving it is a compare-and-swap under the folder's
lock (`safe_file.write_atomic`): if another process saved in between, the save is refused with
`FileChanged` and nothing is written. `update_workspace` reads, changes and writes as one step under the
lock, so concurrent updates through it all survive. A file that does not read as a workspace (damaged, or
something else) is never replaced by a save: the Director's file is kept until they move it away.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from workbench.encounter.encounter import Creature, Encounter, carries_formulas
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput
from workbench.fight.squad import MAX_SQUAD_SIZE, Squad, make_squad
from workbench.io.home import library_folder, open_workspace_folder, user_folder
from workbench.io.safe_file import (
    FileProblem,
    content_hash,
    folder_lock,
    parse_json,
    read_current,
    write_atomic,
    write_locked,
)
from workbench.model import Monster

if TYPE_CHECKING:
    from workbench.formats.bestiary import Bestiary
    from workbench.formats.collection import WorkspaceBestiary
    from workbench.rules.ruleset import Ruleset

__all__ = [
    "FORMAT",
    "Workspace",
    "default_workspace",
    "encounter_monsters",
    "encounter_squads",
    "folder_stamp",
    "library_folder",
    "load_workspace",
    "malice_party",
    "remember_encounter",
    "save_workspace",
    "squad_captains",
    "update_workspace",
    "user_folder",
    "workspace_path",
    "adventures_folder",
    "encounters_folder",
    "bestiaries_folder",
    "open_workspace_folder",
    "workspace_bestiary",
    "workspace_stat_blocks",
]

FORMAT: Final = "drawsteel-workbench/workspace"


class Workspace(BaseModel):
    """The encounter being prepared (its party included) and the Monsters behind its creatures."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    format: Literal["drawsteel-workbench/workspace"] = FORMAT
    encounter: Encounter
    monsters: tuple[Monster, ...] = ()
    # where this workspace was read from and the hash of what was read (copies keep them): the compare-and-
    # swap of `save_workspace`
    _source: str | None = PrivateAttr(default=None)
    _read_hash: str | None = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        """Equal when the contents are (where a workspace was read from is no part of what it holds)."""
        if not isinstance(other, Workspace):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:  # as a frozen model's: its fields' values
        return hash(tuple(self.__dict__.values()))


def workspace_path() -> Path:
    return user_folder() / "workspace.json"


def bestiaries_folder() -> Path:
    """Where the bestiaries the Director added live, one folder each (`workbench bestiary add`)."""
    return user_folder() / "bestiaries"


def encounters_folder() -> Path:
    """Where the encounter page saves the Director's encounters (a name alone saves here)."""
    return user_folder() / "encounters"


def adventures_folder() -> Path:
    """Where the Director's adventures are saved."""
    return user_folder() / "adventures"


def workspace_bestiary(sample: bool = True, published: bool = True) -> WorkspaceBestiary:
    """Every monster at hand, each with its shelf and attribution: the shipped sample, the bestiaries added
    to the workspace and the workspace's library, together, and the monsters still in the old library folders
    (a monster saved in a lesson before the workspace is offered on every page). `published=False` leaves out
    what `workspace_stat_blocks` lists (the sample and the added Steel Compendium stat blocks)."""
    from workbench.formats.collection import gather_bestiary, old_library_folders

    library = library_folder()
    return gather_bestiary(bestiaries_folder(), library, sample=sample and published,
                           old_libraries=old_library_folders(library), published=published)


def workspace_stat_blocks(sample: bool = True, ruleset: Ruleset | None = None) -> Bestiary:
    """The published stat blocks at hand (the shipped sample and those of the bestiaries added to the
    workspace), each on its shelf with its attribution: what the bestiary browser lists and what the
    calibration and "closest published monsters" compare with."""
    from workbench.formats.collection import published_stat_blocks

    return published_stat_blocks(bestiaries_folder(), sample=sample, ruleset=ruleset)


def folder_stamp(folder: Path | None = None) -> tuple[tuple[str, int, int], ...]:
    """What the Director's folder holds now, as (file, size, modification time in ns) for every file in it.

    A page built before its visit (a preheated kernel, `workbench.apps.visit`) compares the stamp taken when
    it was built with the one at the visit: another page may have saved a monster or changed the encounter
    in between, and then the page is built again from the files. Cheap: a stat per file, nothing read.
    """
    folder = folder if folder is not None else user_folder()
    found = []
    for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
        try:
            if path.is_file() and not path.name.startswith("."):  # the lock and unfinished saves are not files
                stat = path.stat()
                found.append((path.relative_to(folder).as_posix(), stat.st_size, stat.st_mtime_ns))
        except OSError:  # removed while we looked: it is simply not there
            continue
    return tuple(found)


def default_workspace() -> Workspace:
    """A first workspace: four level 1 heroes, no Victories, no creatures yet."""
    return Workspace(encounter=Encounter(party=make_party(heroes=4, level=1)))


def _resolved(path: str | Path | None) -> Path:
    if path is None:
        return workspace_path()
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise InvalidInput("path", path, "a workspace file path (or None for the Director's workspace)")
    return Path(path).expanduser()


def _refused(path: Path, reason: str) -> InvalidInput:
    return InvalidInput("workspace", str(path), "a workspace file written by the workbench", reason)


def _parsed(path: Path, raw: bytes | None) -> Workspace:
    """The workspace the bytes hold (the default one for no file), stamped with where and what was read."""
    if raw is None:
        workspace = default_workspace()
    else:
        try:
            workspace = Workspace.model_validate(parse_json(raw.decode("utf-8-sig"), path))
        except UnicodeDecodeError:
            raise _refused(path, "not UTF-8 text") from None
        except FileProblem as exc:
            raise _refused(path, exc.reason) from None
        except ValidationError:
            raise _refused(path, "it is not a workbench workspace file") from None
    _stamp(workspace, path, content_hash(raw))
    return workspace


def _stamp(workspace: Workspace, path: Path, digest: str) -> None:
    workspace._source = str(path.absolute())
    workspace._read_hash = digest


def _not_a_workspace(raw: bytes) -> str | None:
    """Why the file a save would replace is no workspace (then it is kept), or None."""
    try:
        Workspace.model_validate(parse_json(raw.decode("utf-8-sig")))
    except (UnicodeDecodeError, FileProblem, ValidationError):
        return ("it does not read as a workbench workspace, so it is kept as it is (move it away, and the "
                "workbench starts a new one)")
    return None


def load_workspace(path: str | Path | None = None) -> Workspace:
    """The saved workspace, or the default one when there is none yet.

    A file that does not read as a workspace is refused by name (`InvalidInput` on "workspace"); it is left
    as it is, so nothing the Director saved is lost.
    """
    path = _resolved(path)
    try:
        raw = read_current(path)
    except FileProblem as exc:
        raise _refused(path, exc.reason) from None
    return _parsed(path, raw)


def _text(workspace: Workspace) -> str:
    return json.dumps(workspace.model_dump(mode="json"), ensure_ascii=False, indent=1) + "\n"


def save_workspace(workspace: Workspace, path: str | Path | None = None) -> Path:
    """Write the workspace in one step, never over another process's update or over a damaged file.

    A workspace read from this file (`load_workspace`, and every copy of it) is saved only if the file
    still holds what was read: else `FileChanged` (a `FileProblem`), nothing written, and the caller reads
    it again. After a save the workspace stands for the file as saved, so the next save of it goes through.
    A workspace built in memory replaces the file only if that is a workspace.
    """
    if not isinstance(workspace, Workspace):
        raise InvalidInput("workspace", workspace, "a Workspace")
    path = _resolved(path)
    text = _text(workspace)
    expected = workspace._read_hash if workspace._source == str(path.absolute()) else None
    write_atomic(path, text, overwrite=True, expected=expected, same_kind=_not_a_workspace)
    _stamp(workspace, path, content_hash(text.encode("utf-8")))
    return path


def update_workspace(change: Callable[[Workspace], Workspace], path: str | Path | None = None) -> Workspace:
    """Read the workspace, apply `change` and save the result as one step under the folder's lock.

    Of several processes updating at once, each sees the others' saved changes: none is lost. A damaged
    file is refused by name (`InvalidInput` on "workspace") and kept. Returns the workspace as saved.
    """
    if not callable(change):
        raise InvalidInput("change", change, "a function from a Workspace to a Workspace")
    path = _resolved(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _refused(path, f"cannot make its folder: {exc.strerror or exc}") from None
    with folder_lock(path.parent, path) as journal:
        try:
            raw = read_current(path)
        except FileProblem as exc:
            raise _refused(path, exc.reason) from None
        current = _parsed(path, raw)
        changed: Any = change(current)
        if not isinstance(changed, Workspace):
            raise InvalidInput("change", changed, "a function returning a Workspace")
        text = _text(changed)
        write_locked(journal, path, text, overwrite=True, expected=content_hash(raw))
    _stamp(changed, path, content_hash(text.encode("utf-8")))
    return changed


def _key(name: str) -> str:
    return name.strip().lower()


def remember_encounter(workspace: Workspace, encounter: Encounter, known: Iterable[Monster] = ()) -> Workspace:
    """The workspace with `encounter` as its encounter, keeping the Monster of each named creature.

    Every creature carries its whole Monster; the monsters remembered by name (found among `known` and those
    remembered before) stand in only for entries of an encounter saved before creatures carried theirs.
    Monsters no creature names any more are dropped.
    """
    pool = {_key(m.name): m for m in (*workspace.monsters, *known) if m.name.strip()}
    wanted = {_key(c.name) for c in encounter.creatures if c.name.strip()}
    kept = tuple(pool[name] for name in sorted(wanted) if name in pool)
    return workspace.model_copy(update={"encounter": encounter, "monsters": kept})


def _monster_of(creature: Creature, remembered: dict[str, Monster]) -> Monster:
    """The creature's own Monster, named as the encounter names it; one remembered by its name (same stat
    block) stands in only for an entry that carries nothing but the formulas' numbers (an old file's)."""
    own = remembered.get(_key(creature.name))
    if own is not None and (own.level, own.organization, own.role) == (
        creature.level, creature.organization, creature.role
    ) and carries_formulas(creature):
        return own
    return creature.monster.model_copy(update={"name": creature.label[:1].upper() + creature.label[1:]})


def encounter_monsters(workspace: Workspace) -> tuple[tuple[Monster, int], ...]:
    """Each creature entry of the encounter as (its Monster, how many), in the encounter's order."""
    remembered = {_key(m.name): m for m in workspace.monsters if m.name.strip()}
    return tuple((_monster_of(c, remembered), c.count) for c in workspace.encounter.creatures)


def _sizes(count: int) -> list[int]:
    """`count` minions as squads of up to eight, as even as can be (12 -> 6 + 6, 9 -> 5 + 4)."""
    squads = -(-count // MAX_SQUAD_SIZE)
    base, extra = divmod(count, squads)
    return [base + 1] * extra + [base] * (squads - extra)


def encounter_squads(workspace: Workspace) -> tuple[Squad, ...]:
    """The encounter's minions as squads ("squads of up to eight creatures"), one stat block per squad."""
    squads: list[Squad] = []
    for monster, count in encounter_monsters(workspace):
        if monster.organization != "minion":
            continue
        sizes = _sizes(count)
        for number, size in enumerate(sizes, start=1):
            name = monster.name if len(sizes) == 1 else f"{monster.name} (squad {number})"
            squads.append(make_squad(monster, size, name=name))
    return tuple(squads)


def squad_captains(monsters: Sequence[tuple[Monster, int]]) -> tuple[Monster, ...]:
    """The encounter's creatures that may captain a squad: every stat block that is not a minion."""
    return tuple(m for m, _count in monsters if m.organization != "minion")


def malice_party(workspace: Workspace) -> tuple[int, int]:
    """(heroes, average Victories rounded down) for Malice: the party's heroes, not its retainers or allied
    NPCs ("the number of heroes"), and "the heroes' average Victories" as a whole number."""
    party = workspace.encounter.party
    heroes = sum(1 for m in party.members if m.kind == "hero") or party.size
    return heroes, int(party.victories)  # Fraction -> int rounds toward zero: down, Victories are never negative
