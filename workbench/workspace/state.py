"""The Director's workspace: the party, the encounter and the monsters chosen once, shared by every app page.

Each page of `workbench app` runs in its own kernel, so they cannot share Python objects: they share one small
file instead, `workspace.json` in the Director's workbench folder (`~/drawsteel-workbench/` unless the
`WORKBENCH_HOME` variable names another). The encounter page writes the encounter (and its party) there after
every change; the fight page reads it to know which squads and which monsters' Malice features the fight has.
The homebrew library (the monsters a Director saved) lives beside it, in `monsters/`.

Here is what the pages need from that file and nothing about widgets: read and write it (a write goes to a
temporary file moved into place, so a crash never leaves half a workspace), keep the monsters the encounter
names (for their Malice features); `workbench.workspace.fight_setup` turns the encounter into the fight's
pieces.

Two pages (or a page and a script) may change the workspace at once, so no update may be lost: a workspace
read from the file remembers the hash of what it read, and saving it is a compare-and-swap under the folder's
lock (`workbench.io.writing.write_atomic`): if another process saved in between, the save is refused with
`FileChanged` and nothing is written. `update_workspace` reads, changes and writes as one step under the
lock, so concurrent updates through it all survive. A file that does not read as a workspace (damaged, or
something else) is never replaced by a save: the Director's file is kept until they move it away.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from workbench.encounter.encounter import Encounter
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput
from workbench.io.lock import folder_lock
from workbench.io.problem import FileProblem, os_reason
from workbench.io.reading import parse_json
from workbench.io.writing import content_hash, read_current, write_atomic, write_locked
from workbench.model import Monster
from workbench.workspace.folder import workspace_path

__all__ = [
    "FORMAT",
    "AdventureLink",
    "Workspace",
    "default_workspace",
    "load_workspace",
    "remember_encounter",
    "save_workspace",
    "update_workspace",
]

FORMAT: Final = "drawsteel-workbench/workspace"


class AdventureLink(BaseModel):
    """The adventure the encounter was opened from to be fought: its file and the encounter's place in it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    path: str
    index: int


class Workspace(BaseModel):
    """The encounter being prepared (its party included) and the Monsters behind its creatures; `adventure`
    when the encounter was opened from an adventure to be fought (its Victories then travel back there)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    format: Literal["drawsteel-workbench/workspace"] = FORMAT
    encounter: Encounter
    monsters: tuple[Monster, ...] = ()
    adventure: AdventureLink | None = None
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
        raise _refused(path, f"cannot make its folder: {os_reason(exc)}") from None
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
    Monsters no creature names any more are dropped. Another encounter is no longer the one opened from an
    adventure.
    """
    pool = {_key(m.name): m for m in (*workspace.monsters, *known) if m.name.strip()}
    wanted = {_key(c.name) for c in encounter.creatures if c.name.strip()}
    kept = tuple(pool[name] for name in sorted(wanted) if name in pool)
    link = workspace.adventure if encounter == workspace.encounter else None
    return workspace.model_copy(update={"encounter": encounter, "monsters": kept, "adventure": link})
