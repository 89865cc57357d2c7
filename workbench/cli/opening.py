"""`workbench open CODE [--save [--name NAME] [--overwrite]] [--json]`: what a share code holds, printed or
saved into the workspace.

CODE is the code as pasted (a link around it, or line breaks a chat put in, are fine: quote it), or `-` to
read it from standard input. Without `--save` it prints what `workbench show` prints for a monster (its stat
block), what `workbench encounter` prints for an encounter (its report) and what `workbench adventure` prints
for an adventure (its plan). With `--save` it saves it where the workspace keeps its kind: a monster in the
library, an encounter in `encounters/`, an adventure in `adventures/`, named after it (or `--name`); a file
of that name is never replaced without `--overwrite`. A refused code saves nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from workbench.cli import emit, one_line
from workbench.cli.adventure import plan_payload, plan_text
from workbench.cli.encounter import report_payload, report_text
from workbench.cli.show import monster_payload
from workbench.encounter.adventure import Adventure, plan, save_adventure
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import save_encounter
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.formats.share_code import MAX_PASTED_CHARS, Shared, read_code
from workbench.io.home import library_folder
from workbench.model import Monster
from workbench.monster.library import NameTaken, check_name, save_monster, suggest_name
from workbench.render.stat_block import stat_block_markdown
from workbench.workspace.folder import adventures_folder, encounters_folder

__all__ = ["register", "run", "save_shared"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("open", help="what a share code holds: printed, or saved into the workspace")
    parser.add_argument("code", metavar="CODE", help="a share code (or a link holding one); - reads standard input")
    parser.add_argument("--save", action="store_true",
                        help="save it into the workspace (library, encounters or adventures)")
    parser.add_argument("--name", default=None, help="the name to save it under (its own name by default)")
    parser.add_argument("--overwrite", action="store_true", help="with --save: replace a file of that name")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def _file_name(name: str | None, own: str, kind: str) -> str:
    """The name to save under: the one given, else the object's own made safe for a file name."""
    chosen = name if name is not None else suggest_name(own)
    if not chosen.strip():
        raise InvalidInput("name", own, f"a name for the {kind} (it has none of its own: give --name)")
    return check_name(chosen)


def save_shared(shared: Shared, name: str | None = None, overwrite: bool = False) -> Path:
    """Save what a code held where the workspace keeps its kind; a taken name is refused unless `overwrite`."""
    value = shared.value
    taken = InvalidInput("overwrite", name or "", "--overwrite to replace it", "a file of that name exists; "
                         "nothing was saved")
    if isinstance(value, Monster):
        stem = _file_name(name, value.name, "monster")
        try:
            return save_monster(value, stem, library_folder(), overwrite=overwrite)
        except NameTaken as exc:
            raise InvalidInput("overwrite", stem, "--overwrite to replace it",
                               f"{exc.path.name} is in the library; nothing was saved") from None
    folder = encounters_folder() if isinstance(value, Encounter) else adventures_folder()
    stem = _file_name(name, value.name, shared.kind)
    path = folder / f"{stem}.json"
    if path.exists() and not overwrite:
        raise InvalidInput("overwrite", stem, "--overwrite to replace it",
                           f"{path.name} is in {folder}; nothing was saved")
    try:
        if isinstance(value, Encounter):
            return save_encounter(value, path, overwrite=overwrite, inside=folder)
        return save_adventure(value, path, overwrite=overwrite)
    except InvalidInput as exc:
        if exc.reason == "the file exists":  # taken between the look and the save
            raise taken from None
        raise


def _shown(shared: Shared) -> tuple[dict[str, Any], str]:
    value = shared.value
    if isinstance(value, Monster):
        return monster_payload(value), stat_block_markdown(value)
    if isinstance(value, Encounter):
        found = report(value)
        return report_payload(value.name, found), report_text(value.name, found)
    assert isinstance(value, Adventure)
    found_plan = plan(value)
    return plan_payload(found_plan), plan_text(found_plan)


def run(args: argparse.Namespace) -> None:
    text = sys.stdin.read(MAX_PASTED_CHARS + 1) if args.code == "-" else args.code
    shared = read_code(text)
    if args.save:
        path = save_shared(shared, args.name, args.overwrite)
        said = f"saved the {shared.kind} {shared.value.name or ''} as {path}".replace("  ", " ")
        emit({"kind": shared.kind, "saved": str(path)}, args.json, one_line(said))
        return
    payload, text = _shown(shared)
    emit({"kind": shared.kind, **payload}, args.json, text)
