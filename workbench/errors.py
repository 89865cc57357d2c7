"""The workbench's errors: one root type, stable codes for tests, readable messages for people.

Every refusal names the field that was wrong and what it accepts, so a Director typing into a notebook or
the command line knows what to change without reading code.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["WorkbenchError", "InvalidInput", "RulesetError", "shown"]

SHOWN_CHARS = 80


def shown(value: object) -> str:
    """`value` as a message shows it: its repr (control characters escaped), cut to a readable length.

    A hostile value never makes the message itself fail or flood a terminal: an integer too long for
    `repr` is described by its digit count, a long text is cut with its length named.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a repr that fails (or a value too large for one) is not shown
        return f"a {type(value).__name__}"
    if len(text) > SHOWN_CHARS:
        return f"{text[: SHOWN_CHARS - 10]}… ({len(text)} characters)"
    return text


class WorkbenchError(Exception):
    """Root of every error the workbench raises on purpose."""

    code: str = "workbench-error"


class InvalidInput(WorkbenchError, ValueError):
    """A value given by a user is outside what the rules cover.

    `field` names the argument, `accepts` says what it takes, `value` is what was given; `code` is a
    stable identity (``"invalid-<field>"``) that tests and callers can match on.
    """

    def __init__(self, field: str, value: object, accepts: str, reason: str | None = None) -> None:
        self.field = field
        self.value = value
        self.accepts = accepts
        self.reason = reason
        self.code = f"invalid-{field.replace('_', '-')}"
        detail = f" ({reason})" if reason else ""
        super().__init__(f"{field}: got {shown(value)}{detail}; accepts {accepts}")


class RulesetError(WorkbenchError, ValueError):
    """A ruleset or data file failed validation; `problems` lists every bad entry at once."""

    code = "invalid-ruleset"

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems = list(problems)
        listing = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{source}: {len(self.problems)} problem(s)\n{listing}")
