"""`workbench import FILE...`: stat block files of other tools into the homebrew library.

Every file is read first (Steel Compendium, Forge Steel `.ds-monster` or `.ds-monster-group`, Foundry NPC
actor; the format told from the content) and every target name checked (as NFC, case-folded: "Café" typed
two ways, "Goblin" and "GOBLIN" are one name), then all are saved as one transaction
(`library.save_monsters`): a bad file, a name already in the library, a full disk saves none of them, and
with `--overwrite` no old monster is replaced unless all are. Names are printed with their control
characters escaped, so a name cannot rewrite the terminal or forge a line.
`--text FILE` reads a stat block pasted as text (from the book or a PDF) the same way. A part of a file kept
as text (a distance in words, a line the text reader could not place) is named after the monster is saved.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from workbench.cli import one_line
from workbench.errors import InvalidInput
from workbench.formats.book_text import parse_stat_block_text
from workbench.formats.reader import MAX_FILE_BYTES, import_monsters
from workbench.io.home import library_folder
from workbench.io.problem import FileProblem
from workbench.io.reading import read_text
from workbench.model import Monster
from workbench.monster.library import NameTaken, check_name, name_key, save_monsters, suggest_name

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("import", help="read stat block files (Steel Compendium, Forge Steel, Foundry) "
                                   "into the homebrew library")
    parser.add_argument("files", metavar="FILE", nargs="*", type=Path)
    parser.add_argument("--text", metavar="FILE", action="append", type=Path, default=[],
                        help="a text file holding a stat block copied from the book or a PDF (repeatable)")
    parser.add_argument("--library", type=Path, default=None, help=f"library folder (default {library_folder()})")
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


def _pasted(path: Path) -> Monster:
    """The stat block of a text file (book or PDF text); a file that can't be read is named with the reason."""
    try:
        text = read_text(path, limit=MAX_FILE_BYTES)
    except FileProblem as exc:
        raise InvalidInput("text", str(path), "a text file holding a stat block", exc.reason) from None
    return parse_stat_block_text(text, source=path.name)


def run(args: argparse.Namespace) -> None:
    if not args.files and not args.text:
        raise InvalidInput("files", "", "one or more stat block files, or --text FILE")
    monsters = [m for path in args.files for m in import_monsters(path)]
    monsters += [_pasted(path) for path in args.text]
    named = _named(monsters)
    counts = Counter(name_key(n) for n, _ in named)
    repeated = [n for n, _ in named if counts[name_key(n)] > 1]
    if repeated:
        raise InvalidInput("files", repeated[0], "monsters of different names (two files hold this one; names "
                           "differing only in case or accents are one)")
    try:
        paths = save_monsters(named, args.library, overwrite=args.overwrite)
    except NameTaken as exc:
        raise InvalidInput("overwrite", exc.value, "--overwrite to replace a monster already in the library",
                           f"{exc.path.name} is in the library; nothing was saved") from None
    for (_name, monster), path in zip(named, paths, strict=True):
        print(one_line(f"saved {monster.name} (level {monster.level}) as {path}"))
        for part in monster.kept_as_text:
            print(one_line(f"  kept as text: {part}"))
