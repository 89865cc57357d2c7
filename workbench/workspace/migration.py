"""The old folders a library lived in before the workspace (`data/homebrew` in a checkout,
`~/drawsteel-homebrew`): `old_library_monsters` finds what they hold, `move_old_monsters` copies each monster
into the workspace's library (never over a file there; the old file is removed only once its copy is in place).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.io.problem import FileProblem
from workbench.io.reading import read_bytes
from workbench.io.writing import write_atomic
from workbench.monster.library import OLD_CHECKOUT_FOLDER

__all__ = ["OldMonster", "move_old_monsters", "old_library_folders", "old_library_monsters"]


class OldMonster(Frozen):
    """A monster file in an old library folder, and what moving it would do."""

    file: str  # the file's full path
    name: str  # its file name
    status: Literal["move", "same", "conflict"]  # "same": the workspace has an identical file already


def old_library_folders(workspace_library: str | os.PathLike[str]) -> tuple[Path, ...]:
    """The folders a library lived in before the workspace: the checkout's `data/homebrew` and `~/drawsteel-homebrew`, without the workspace's own library folder."""
    here = Path(workspace_library).expanduser()
    candidates = [OLD_CHECKOUT_FOLDER, Path.home() / "drawsteel-homebrew"]
    out: list[Path] = []
    for folder in candidates:
        if folder.is_dir() and not _same_folder(folder, here) and all(not _same_folder(folder, o) for o in out):
            out.append(folder)
    return tuple(out)


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def old_library_monsters(
    workspace_library: str | os.PathLike[str], folders: Sequence[str | os.PathLike[str]] | None = None
) -> tuple[OldMonster, ...]:
    """Each monster file in the old folders, with what moving it into the workspace's library would do."""
    here = Path(workspace_library).expanduser()
    found: list[OldMonster] = []
    for folder in (old_library_folders(here) if folders is None else [Path(f) for f in folders]):
        for path in sorted(p for p in Path(folder).glob("*.json") if p.is_file() and not p.name.startswith(".")):
            target = here / path.name
            if not target.exists():
                status: Literal["move", "same", "conflict"] = "move"
            else:
                status = "same" if _same_bytes(path, target, here) else "conflict"
            found.append(OldMonster(file=str(path), name=path.name, status=status))
    return tuple(found)


def _same_bytes(a: Path, b: Path, b_inside: Path | None = None) -> bool:
    """Whether two files hold the same bytes (`b` read only inside `b_inside`: a link leading out is no copy)."""
    try:
        return read_bytes(a) == read_bytes(b, inside=b_inside)
    except FileProblem:
        return False


def move_old_monsters(
    workspace_library: str | os.PathLike[str], folders: Sequence[str | os.PathLike[str]] | None = None
) -> tuple[tuple[OldMonster, ...], tuple[OldMonster, ...]]:
    """Copy each old monster file into the workspace's library, then remove the old one: (moved, kept).

    A file whose name the workspace's library already has is kept where it is (a "conflict": both are
    the Director's, and neither is overwritten); an identical copy there is a move already done, so the old
    one is removed. The copy is made new (never over a file) and checked before the old file goes.
    """
    here = Path(workspace_library).expanduser()
    moved: list[OldMonster] = []
    kept: list[OldMonster] = []
    try:
        here.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInput("library", str(here), "a folder the workbench can write", str(exc)) from None
    for old in old_library_monsters(here, folders):
        source, target = Path(old.file), here / old.name
        if old.status == "conflict":
            kept.append(old)
            continue
        try:
            if old.status == "move":
                write_atomic(target, read_bytes(source))  # the library's lock, new, never through a link
            if not _same_bytes(source, target, here):
                kept.append(old.model_copy(update={"status": "conflict"}))
                continue
            source.unlink()
            moved.append(old)
        except (OSError, FileProblem):
            kept.append(old)
    return tuple(moved), tuple(kept)

