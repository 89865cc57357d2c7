"""The one frozen base of the stat block's parts, and what turns pydantic's complaints into `InvalidInput`.

A Director typing a tier damage of -3 must read "power_roll.tier2.damage: got -3; accepts a whole number of
0 or more", not a pydantic traceback; so every part is built through `Part.__init__`, which names the field
by its path inside the part (the first problem found) and keeps the stable `invalid-<field>` code.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, ValidationError

from workbench.errors import InvalidInput
from workbench.frozen import Frozen

__all__ = ["Part", "invalid_input"]


def invalid_input(exc: ValidationError) -> InvalidInput:
    """The first problem of a pydantic error as `InvalidInput`, its field named by its path ("tier1.damage").

    Our own checks raise `InvalidInput` named after the attribute they check (or, in a whole-part check,
    after the part); the path of the parts around it is put in front.
    """
    error = exc.errors()[0]
    loc = [str(p) for p in error["loc"]]
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, InvalidInput):
        inner = cause.field.split(".")
        path = loc if loc[-len(inner):] == inner else loc + inner
        return InvalidInput(".".join(path), cause.value, cause.accepts, cause.reason)
    return InvalidInput(".".join(loc) or "value", error.get("input"), _accepts(error))


def _accepts(error: Any) -> str:
    kind = str(error.get("type", ""))
    if kind.startswith("int"):
        return "a whole number"
    if kind == "missing":
        return "a value (it is required)"
    if kind == "extra_forbidden":
        return "no such field"
    if kind.startswith("literal"):
        return str(error.get("msg", "")).removeprefix("Input should be ")
    return str(error.get("msg", "a valid value"))


class Part(Frozen):
    """A frozen piece of a stat block; a bad value raises `InvalidInput` naming the field."""

    model_config = ConfigDict(defer_build=True)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise invalid_input(exc) from None
