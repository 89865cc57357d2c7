"""`workbench bestiary add SOURCE`, `workbench bestiary list` and `workbench bestiary remove NAME`: the bestiaries at
hand in the workspace.

`add` takes a folder, a .zip or .tar.gz file, a stat block file or an http(s) URL (fetched now, as asked),
reads every monster through the importer and keeps them in the workspace (`$WORKBENCH_HOME/bestiaries/NAME/`)
with the source's licence and attribution. Progress goes to stderr from the first file; files that failed are
named. `list` shows each bestiary with its attribution; `remove` takes one away, its sources and licence with it.
`--json` prints one object.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from workbench.cli import emit, terminal_safe
from workbench.errors import InvalidInput
from workbench.workspace.added_bestiary import (
    SOURCE_ACCEPTS,
    AddedBestiary,
    add_bestiary,
    list_bestiaries,
    remove_bestiary,
)
from workbench.workspace.folder import bestiaries_folder

__all__ = ["register", "run", "run_add", "run_list", "run_remove", "added_payload", "added_text"]

SHOWN_FAILURES = 20


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bestiary", help="add a bestiary (a folder, .zip, .tar.gz or URL) to the workspace, list those added, or "
                         "remove one"
    )
    parser.add_argument("action", metavar="ACTION", choices=("add", "list", "remove"),
                        help="add SOURCE, list, or remove NAME")
    parser.add_argument("source", metavar="SOURCE", nargs="?",
                        help="for add: a folder, a .zip or .tar.gz file, or an http(s) URL (fetched now); for "
                             "remove: the bestiary's name (as list shows it)")
    parser.add_argument("--name", metavar="NAME", help="the bestiary's name (from the source by default)")
    parser.add_argument("--attribution", default="", metavar="TEXT",
                        help="the source's attribution and licence, when the source holds no LICENSE file")
    parser.add_argument("--licence", "--license", dest="licence", metavar="FILE",
                        help="a licence file to keep beside the monsters")
    parser.add_argument("--replace", action="store_true", help="replace a bestiary of the same name")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    if args.action == "list":
        if args.source is not None:
            raise InvalidInput("source", args.source, "nothing: list takes no SOURCE (add SOURCE adds one)")
        run_list(args)
    elif args.action == "remove":
        if args.source is None:
            raise InvalidInput("source", None, "the name of an added bestiary (workbench bestiary list)",
                               "remove needs a NAME")
        try:
            run_remove(args)
        except InvalidInput as exc:  # the name is given as SOURCE here, not as --name
            if exc.field != "name":
                raise
            raise InvalidInput("source", exc.value, exc.accepts, exc.reason) from exc
    elif args.source is None:
        raise InvalidInput("source", None, SOURCE_ACCEPTS, "add needs a SOURCE")
    else:
        run_add(args)


def added_payload(b: AddedBestiary) -> dict[str, Any]:
    return {
        "name": b.name,
        "folder": b.folder,
        "source": b.source,
        "monsters": len(b.monsters),
        "attribution": b.attribution,
        "licence_files": list(b.licence_files),
        "failures": [{"file": f.file, "reason": f.reason} for f in b.failures],
        "skipped": [{"file": f.file, "reason": f.reason} for f in b.skipped],
    }


def added_text(b: AddedBestiary) -> str:
    lines = [f"Added {b.name}: {len(b.monsters)} monsters from {b.source}", f"Kept in {b.folder}"]
    lines.append("Attribution: " + (b.attribution or "none found; give one with --attribution or --licence"))
    if b.failures:
        lines.append(f"{len(b.failures)} file(s) failed:")
        lines += [f"  {f.file}: {f.reason}" for f in b.failures[:SHOWN_FAILURES]]
        if len(b.failures) > SHOWN_FAILURES:
            lines.append(f"  ... and {len(b.failures) - SHOWN_FAILURES} more (--json lists them all)")
    if b.skipped:
        lines.append(f"{len(b.skipped)} file(s) held no stat block or were not read (--json lists them)")
    return "\n".join(lines)


class _Progress:
    """Progress on stderr: a line at the first file, then each tenth, then the last (a bar on a terminal)."""

    def __init__(self) -> None:
        self.shown = -1
        self.tty = sys.stderr.isatty()

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage == "download":
            if done == 0:
                size = f" ({total // 1024} KiB)" if total else ""
                print(f"Downloading{size}...", file=sys.stderr, flush=True)
            return
        step = max(total // 10, 1)
        if self.tty:
            width = 30
            filled = width * done // total if total else width
            end = "\n" if done >= total else ""
            print(f"\rReading files [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end=end,
                  file=sys.stderr, flush=True)
        elif done <= 1 or done >= total or done // step != self.shown // step:
            print(f"Reading files: {done}/{total}", file=sys.stderr, flush=True)
        self.shown = done


def run_add(args: argparse.Namespace) -> None:
    added = add_bestiary(
        args.source, bestiaries_folder(), name=args.name, attribution=args.attribution, licence=args.licence,
        replace=args.replace, progress=_Progress(),
    )
    emit(added_payload(added), args.json, added_text(added))


def run_list(args: argparse.Namespace) -> None:
    found, problems = list_bestiaries(bestiaries_folder())
    payload = {
        "folder": str(bestiaries_folder()),
        "bestiaries": [
            {"name": b.name, "monsters": len(b.monsters), "source": b.source, "attribution": b.attribution}
            for b in found
        ],
        "problems": [{"folder": f, "reason": r} for f, r in problems],
    }
    lines = [f"Bestiaries in {bestiaries_folder()}:" if found else f"No bestiary added yet in {bestiaries_folder()}"]
    for b in found:
        lines.append(f"  {b.name}: {len(b.monsters)} monsters from {b.source}")
        lines.append(f"    Attribution: {b.attribution or 'none given'}")
    for folder, reason in problems:
        lines.append(f"  {folder}: not read ({reason})")
    emit(payload, args.json, terminal_safe("\n".join(lines)))


def run_remove(args: argparse.Namespace) -> None:
    removed = remove_bestiary(args.source, bestiaries_folder())
    payload = {"removed": removed.name, "monsters": len(removed.monsters), "folder": removed.folder}
    emit(payload, args.json, terminal_safe(f"Removed {removed.name}: its {len(removed.monsters)} monsters, "
                                           f"sources and licence are no longer in {bestiaries_folder()}"))
