"""The workbench's errors: one root type, stable codes for tests, readable messages for people.

Every refusal names the field that was wrong and what it accepts, so a Director typing into a notebook or
the command line knows what to change without reading code.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["WorkbenchError", "InvalidInput", "NotFound", "RulesetError", "shown"]

SHOWN_CHARS = 80
SHOWN_NAMES = 10  # a NotFound lists at most this many of the names there are


def shown(value: object) -> str:
    """`value` as a message shows it: its repr (control characters escaped), cut to a readable length.

    A hostile value never makes the message itself fail or flood a terminal: an integer too long for
    `repr` is described by its digit count, a long text is cut in the middle with its length named. Both
    ends are kept because a path's file name is at its end: a deep folder must not hide which file it was.
    Nothing given (None) is said in words: a Director never reads a Python `None`.
    """
    if value is None:
        return "nothing"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a repr that fails (or a value too large for one) is not shown
        return f"a {type(value).__name__}"
    if len(text) > SHOWN_CHARS:
        keep = (SHOWN_CHARS - 10) // 2
        return f"{text[:keep]}…{text[-keep:]} ({len(text)} characters)"
    return text


class WorkbenchError(Exception):
    """Root of every error the workbench raises on purpose.

    `code` is a stable identity that tests and callers match on; the message is for people. `summary` is
    the message on one line, as the command line prints it (a subclass with a longer message composes its
    summary from its parts, so nothing has to take the message apart).
    """

    code: str = "workbench-error"

    @property
    def summary(self) -> str:
        return " ".join(str(self).split())


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
        because = f" ({reason})" if reason else ""
        # what was given and what is accepted, without the field (the CLI names it as its --flag)
        self.detail = f"got {shown(value)}{because}; accepts {accepts}"
        super().__init__(f"{field}: {self.detail}")


class NotFound(WorkbenchError, KeyError):
    """A name looked up is not there: a monster in a library, a stat block in a bestiary, a field.

    A `KeyError` too (a library is looked up like a dict); `code` is ``"not-found-<what>"``; `known` lists
    the names there are, when they are few enough to show.
    """

    def __init__(self, what: str, name: object, known: Sequence[str] = (), where: str | None = None) -> None:
        self.what = what
        self.name = name
        self.known = tuple(known)
        self.code = f"not-found-{what.replace('_', '-').replace(' ', '-')}"
        place = f" in {where}" if where else ""
        more = f", … ({len(self.known)} in all)" if len(self.known) > SHOWN_NAMES else ""
        listing = f"; there are: {', '.join(self.known[:SHOWN_NAMES])}{more}" if self.known else ""
        self.message = f"{what}: no {shown(name)}{place}{listing}"
        super().__init__(self.message)

    def __str__(self) -> str:  # KeyError would show the repr of the message
        return self.message


class RulesetError(WorkbenchError, ValueError):
    """A ruleset or data file failed validation; `problems` lists every bad entry at once."""

    code = "invalid-ruleset"

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems = list(problems)
        listing = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{self.summary}\n{listing}")

    @property
    def summary(self) -> str:
        return f"{self.source}: {len(self.problems)} problem(s)"

