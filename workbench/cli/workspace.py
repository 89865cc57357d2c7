"""`workbench workspace [--move]`: where the Director's workspace is, what it holds, and monsters left behind.

Everything a Director makes lives in one folder, `~/drawsteel-workbench/` or `$WORKBENCH_HOME`: the library
(`monsters/`), the added bestiaries (`bestiaries/`), the adventures (`adventures/`). Monsters saved before it
existed sit in the old library folders (`data/homebrew` in a checkout, `~/drawsteel-homebrew`): this command
names them, and `--move` moves them into the workspace's library. A monster whose name the library already has
is left where it is, both files kept; nothing is overwritten.
"""

from __future__ import annotations

import argparse
from typing import Any

from workbench.cli import emit
from workbench.io.home import library_folder, user_folder
from workbench.monster.library import list_monsters
from workbench.workspace.added_bestiary import list_bestiaries
from workbench.workspace.folder import adventures_folder, bestiaries_folder
from workbench.workspace.migration import OldMonster, move_old_monsters, old_library_monsters

__all__ = ["register", "run"]

STATUS = {
    "move": "can be moved",
    "same": "the library has the same file: the old copy can go",
    "conflict": "the library has a different monster of that name: kept where it is",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "workspace", help="where the workspace is, what it holds, and monsters saved in the old folders"
    )
    parser.add_argument("--move", action="store_true",
                        help="move the monsters of the old folders into the workspace's library (never over one)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def _old(monsters: tuple[OldMonster, ...]) -> list[dict[str, Any]]:
    return [{"file": m.file, "name": m.name, "status": m.status} for m in monsters]


def run(args: argparse.Namespace) -> None:
    library = library_folder()
    moved: tuple[OldMonster, ...] = ()
    kept: tuple[OldMonster, ...] = ()
    if args.move:
        moved, kept = move_old_monsters(library)
    waiting = old_library_monsters(library)
    bestiaries, problems = list_bestiaries(bestiaries_folder())
    payload = {
        "folder": str(user_folder()),
        "library": str(library),
        "monsters": len(list_monsters(library)),
        "bestiaries": [{"name": b.name, "monsters": len(b.monsters)} for b in bestiaries],
        "adventures": str(adventures_folder()),
        "old_monsters": _old(waiting),
        "moved": _old(moved),
        "kept": _old(kept),
        "problems": [{"folder": f, "reason": r} for f, r in problems],
    }
    lines = [
        f"Workspace: {user_folder()}",
        f"  Library: {library} ({len(list_monsters(library))} monsters)",
        f"  Bestiaries: {bestiaries_folder()} ("
        + (", ".join(f"{b.name}: {len(b.monsters)} monsters" for b in bestiaries) or "none added yet") + ")",
        f"  Adventures: {adventures_folder()}",
    ]
    lines += [f"  Bestiary {f} not read: {r}" for f, r in problems]
    if moved:
        lines.append(f"Moved {len(moved)} monster(s) into the library: " + ", ".join(m.name for m in moved))
    if kept:
        lines.append(f"Kept {len(kept)} where they are (the library has another of that name): "
                     + ", ".join(m.file for m in kept))
    if waiting and not args.move:
        lines.append(f"{len(waiting)} monster(s) saved in an old library folder:")
        lines += [f"  {m.file}: {STATUS[m.status]}" for m in waiting]
        lines.append("Move them into the workspace with: workbench workspace --move")
    elif not waiting and not args.move:
        lines.append("No monsters left in the old library folders.")
    emit(payload, args.json, "\n".join(lines))
