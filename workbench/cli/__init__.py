"""The `workbench` console script: one subcommand per module in this package.

Every subcommand prints for a person by default and one JSON object with `--json`. Bad input exits with
status 2 and a single line on stderr naming the argument and what it accepts; nothing goes to stdout.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from workbench.errors import InvalidInput, WorkbenchError, shown
from workbench.rules.limits import MAX_NUMBER, whole_range

__all__ = ["main"]

# Each name is a module of this package with `register(subparsers)`; the parser it adds sets `run`.
COMMANDS = ("monster", "calibrate", "budget", "encounter", "suggest", "solo", "malice", "app", "importing", "exporting")


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


_DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)


def bounded_int(minimum: int, maximum: int = MAX_NUMBER) -> Callable[[str], int]:
    """An argparse type for a whole number from `minimum` to `maximum`, written in plain ASCII digits.

    `int()` alone would take "５" (a full-width digit), "5_0" and " 5", and 4,300 digits before failing;
    a typed number is digits 0-9 only, and the range is named when it is refused.
    """

    def parse(text: str) -> int:
        value = int(text) if _DIGITS.fullmatch(text) else None
        if value is None or not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"got {shown(text)}; accepts {whole_range(minimum, maximum)}")
        return value

    return parse


positive_int = bounded_int(1)
whole_number = bounded_int(0)


def emit(payload: dict[str, Any], as_json: bool, text: str) -> None:
    """Print one JSON object, or the text for a person."""
    print(json.dumps(payload, ensure_ascii=False) if as_json else text)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="workbench", description="Draw Steel monster workbench")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"workbench.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except InvalidInput as exc:
        flag = "--" + exc.field.replace("_", "-")
        print(f"workbench {args.command}: error: {flag}: {exc.detail}", file=sys.stderr)
        return 2
    except WorkbenchError as exc:
        print(f"workbench {args.command}: error: {exc.summary}", file=sys.stderr)
        return 2
    return 0
