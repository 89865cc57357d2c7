"""`workbench export NAME_OR_FILE --format F [-o OUT]`: one file for another tool or for print.

NAME_OR_FILE is a stat block file (any format `workbench import` reads) or the name of a monster in the
homebrew library. The file is written to OUT (default: the monster's name with the format's suffix, in the
current folder); `-o -` prints a text format to stdout. A Forge Steel group file exported as "forge-steel",
"pdf", "html" or "markdown" keeps all its monsters in one file.

The file is written through `workbench.io.writing.write_atomic` (a temporary file moved into place, with the user's
usual mode): a pipe, a device or a symbolic link named by OUT is refused, never replaced, and a read-only
folder, a full disk or a permission problem is one line naming the file and the cause. Printed to a
terminal (`-o -`), the text has its control characters escaped, so a monster's name cannot act on it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli import one_line, terminal_safe
from workbench.errors import InvalidInput
from workbench.export.exporter import FORMATS, GROUP_FORMATS, SUFFIXES, export_monster, export_monsters
from workbench.formats.reader import import_monsters
from workbench.io.home import library_folder
from workbench.io.writing import write_atomic
from workbench.model import Monster
from workbench.monster.library import list_monsters, load_entry, suggest_name

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("export", help="write a monster as Forge Steel, Foundry, Steel Compendium, "
                                   "Markdown, HTML, PDF or PNG")
    parser.add_argument("source", metavar="NAME_OR_FILE", help="a stat block file or a library monster's name")
    parser.add_argument("--format", required=True, metavar="F", help="one of " + ", ".join(FORMATS))
    parser.add_argument("-o", "--output", default=None, metavar="OUT", help="file to write ('-': stdout)")
    parser.add_argument("--library", type=Path, default=None, help=f"library folder (default {library_folder()})")
    parser.set_defaults(run=run)


def _monsters(source: str, library: Path | None) -> list[Monster]:
    path = Path(source)
    if path.is_file():
        return import_monsters(path)
    if source in list_monsters(library):
        return [load_entry(source, library).monster]
    raise InvalidInput("source", source, "a stat block file or the name of a monster in the library "
                       f"({library or library_folder()})")


def run(args: argparse.Namespace) -> None:
    fmt = args.format.strip().lower()
    if fmt not in FORMATS:
        raise InvalidInput("format", args.format, "one of " + ", ".join(FORMATS))
    monsters = _monsters(args.source, args.library)
    if len(monsters) > 1:
        if fmt not in GROUP_FORMATS:
            raise InvalidInput("format", fmt, "one of " + ", ".join(GROUP_FORMATS) + f" for {len(monsters)} "
                               "monsters in one file")
        content = export_monsters(monsters, fmt, name=Path(args.source).stem)
        suffix = GROUP_FORMATS[fmt]
    else:
        content = export_monster(monsters[0], fmt)
        suffix = SUFFIXES[fmt]
    if args.output == "-":
        if isinstance(content, bytes):
            raise InvalidInput("output", "-", "a file name for pdf and png (they are not text)")
        text = content if content.endswith("\n") else content + "\n"
        sys.stdout.write(terminal_safe(text) if sys.stdout.isatty() else text)
        return
    stem = suggest_name(monsters[0].name if len(monsters) == 1 else Path(args.source).stem) or "monster"
    target = Path(args.output) if args.output else Path(stem + suffix)
    if target.is_dir():
        target = target / (stem + suffix)
    if not target.parent.exists():
        raise InvalidInput("output", str(target), "a file in a folder that exists")
    # no lock file is left in the Director's folder: an export is written whole or not at all, alone
    write_atomic(target, content, overwrite=True, lock=False)
    print(one_line(f"wrote {target}"))
