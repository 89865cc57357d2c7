"""`workbench import FILE...`: stat block files of other tools into the homebrew library.

Every file is read first (Steel Compendium, Forge Steel `.ds-monster` or `.ds-monster-group`, Foundry NPC
actor; the format told from the content) and every target name checked, so a bad file or a name already in
the library stops the command before anything is written: nothing saved is lost or half-replaced.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.errors import InvalidInput
from workbench.formats.reader import import_monsters
from workbench.model import Monster
from workbench.monster.library import DEFAULT_FOLDER, check_name, list_monsters, save_monster, suggest_name

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("import", help="read stat block files (Steel Compendium, Forge Steel, Foundry) "
                                   "into the homebrew library")
    parser.add_argument("files", metavar="FILE", nargs="+", type=Path)
    parser.add_argument("--library", type=Path, default=None, help=f"library folder (default {DEFAULT_FOLDER})")
    parser.add_argument("--overwrite", action="store_true", help="replace monsters of the same name")
    parser.set_defaults(run=run)


def _named(monsters: list[Monster]) -> list[tuple[str, Monster]]:
    named = []
    for monster in monsters:
        name = suggest_name(monster.name)
        if not name:
            raise InvalidInput("files", monster.name, "monsters whose names have a letter or digit")
        named.append((check_name(name), monster))
    return named


def run(args: argparse.Namespace) -> None:
    monsters = [m for path in args.files for m in import_monsters(path)]
    named = _named(monsters)
    names = [n for n, _ in named]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InvalidInput("files", repeated[0], "monsters of different names (two files hold this one)")
    if not args.overwrite:
        present = set(list_monsters(args.library))
        taken = [n for n in names if n in present]
        if taken:
            raise InvalidInput("overwrite", taken[0], "--overwrite to replace a monster already in the library")
    for name, monster in named:
        path = save_monster(monster, name, args.library, overwrite=args.overwrite)
        print(f"saved {monster.name} (level {monster.level}) as {path}")
