"""`workbench share NAME_OR_FILE [--json]`: the share code of a monster, an encounter or an adventure, to paste
into a chat (`workbench open CODE` on the other side).

NAME_OR_FILE is a file (a monster saved by the workbench, any stat block file `workbench import` reads, an
encounter file or an adventure file, told apart by their content) or the name of a monster in the library.
The code alone is printed, so it can be piped; `--json` prints `{"kind", "code", "characters"}`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli import emit
from workbench.encounter.adventure import FILE_FORMAT as ADVENTURE_FORMAT
from workbench.encounter.adventure import load_adventure
from workbench.encounter.files import FILE_FORMAT as ENCOUNTER_FORMAT
from workbench.encounter.files import load_encounter
from workbench.errors import InvalidInput
from workbench.formats.reader import import_monster
from workbench.formats.share_code import KINDS, PREFIX, VERSION, share_code
from workbench.io.home import library_folder
from workbench.io.problem import FileProblem
from workbench.io.reading import read_json
from workbench.monster.library import FORMAT as MONSTER_FORMAT
from workbench.monster.library import load_entry

__all__ = ["register", "run", "code_of"]

ACCEPTS = "a monster's name in the library, or a monster, encounter or adventure file"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("share", help="the share code of a monster, an encounter or an adventure")
    parser.add_argument("target", metavar="NAME_OR_FILE", help=ACCEPTS)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def code_of(target: str) -> str:
    """The code of the file named, or else of the library's monster of that name."""
    path = Path(target).expanduser()
    if not path.is_file():
        try:
            entry = load_entry(target, library_folder())
        except InvalidInput:
            raise InvalidInput("target", target, ACCEPTS, f"no such file, and no monster of that name in "
                                                          f"{library_folder()}") from None
        return share_code(entry.monster)
    try:
        data = read_json(path)
    except FileProblem as exc:
        raise InvalidInput("target", target, ACCEPTS, exc.reason) from None
    tag = data.get("format") if isinstance(data, dict) else None
    if tag == ENCOUNTER_FORMAT:
        return share_code(load_encounter(path))
    if tag == ADVENTURE_FORMAT:
        return share_code(load_adventure(path))
    if tag == MONSTER_FORMAT:
        entry = load_entry(path.stem, path.parent)
        return share_code(entry.monster)
    return share_code(import_monster(path))


def run(args: argparse.Namespace) -> None:
    code = code_of(args.target)
    kind = next(kind for kind, letter in KINDS.items() if code.startswith(f"{PREFIX}{VERSION}{letter}."))
    emit({"kind": kind, "code": code, "characters": len(code)}, args.json, code)

