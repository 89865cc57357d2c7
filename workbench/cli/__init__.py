"""The `workbench` console script: one subcommand per module in this package.

Every subcommand prints for a person by default and one JSON object with `--json`. Bad input exits with
status 2 and a single line on stderr naming the argument and what it accepts; nothing goes to stdout.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from workbench.errors import InvalidInput, WorkbenchError, shown
from workbench.rules.limits import MAX_NUMBER, whole_range

__all__ = ["main", "one_line", "terminal_safe"]

# Each name is a module of this package with `register(subparsers)`; the parser it adds sets `run`.
COMMANDS = (
    "monster", "show", "calibrate", "budget", "encounter", "suggest", "solo", "malice", "app", "importing", "exporting",
    "adventure", "bestiary", "workspace", "share", "opening",
)


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


# Characters a terminal acts on instead of showing: C0/C1 controls (escape sequences start with ESC) and the
# bidirectional overrides that reorder what follows. Newlines and tabs are the only ones text output keeps.
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` with every control character shown as its escape (ESC as \\x1b), so a monster's name cannot
    move the cursor, recolour the terminal or rewrite the line a Director reads."""
    return _TERMINAL_CONTROLS.sub(lambda m: ascii(m.group())[1:-1], text)


_LINE_BREAKS = re.compile("[\n\t\u0085\u2028\u2029]")


def one_line(text: str) -> str:
    """`terminal_safe`, with line breaks and tabs escaped too: a name printed in a line of its own ("saved X")
    cannot forge a second line."""
    return _LINE_BREAKS.sub(lambda m: ascii(m.group())[1:-1], terminal_safe(text))


def json_number(value: Fraction | int) -> int | float:
    """An exact number as `--json` gives it: a whole number as an int, anything else (a minion's quarter EV, an
    average of 2.5 Victories) as its float. For reading only: the workbench never computes with the float."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def emit(payload: dict[str, Any], as_json: bool, text: str) -> None:
    """Print one JSON object (controls escaped by JSON itself), or the text for a person (made terminal-safe)."""
    print(json.dumps(payload, ensure_ascii=False) if as_json else terminal_safe(text))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="workbench", description="Draw Steel monster workbench")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"workbench.cli.{name}").register(subparsers)
    return parser


def _argument_name(parser: argparse.ArgumentParser, command: str, field: str) -> str:
    """How the command line names `field`: a positional argument by its metavar (FILE), else its --flag."""
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        sub = action.choices.get(command) if isinstance(action.choices, dict) else None
        for argument in sub._actions if sub else ():
            if not argument.option_strings and argument.dest == field:
                return str(argument.metavar or argument.dest.upper())
    return "--" + field.replace("_", "-")


def _quiet_broken_pipe() -> int:
    """The reader went away (`| head`): stop without a traceback, and without Python's own complaint at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is no file (captured): nothing will be flushed to it
        pass
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except InvalidInput as exc:
        name = _argument_name(parser, args.command, exc.field)
        detail = exc.detail.splitlines()[0] if exc.detail else exc.detail
        print(terminal_safe(f"workbench {args.command}: error: {name}: {detail}"), file=sys.stderr)
        return 2
    except WorkbenchError as exc:
        print(terminal_safe(f"workbench {args.command}: error: {exc.summary}"), file=sys.stderr)
        return 2
    return 0
