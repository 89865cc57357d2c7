"""The ranges every number a Director types must fall in, and the one check of each kind that enforces
them: `whole` for a bounded whole number, `true_or_false` for a yes/no switch.

The rules bound some numbers themselves (a squad of up to eight minions); for the rest good sense does:
no table reaches level 100, a party of 100 heroes or a fight of 100 rounds. Without a bound a typo
(`--heroes 100000000`) hangs the workbench and a hostile file (`"level": 10**30`) builds absurd monsters, so
every number is refused outside its range with the range named. The bounds are far beyond play, so no
legitimate use meets them.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from workbench.errors import InvalidInput

__all__ = [
    "MAX_COUNT",
    "MAX_HEROES",
    "MAX_LEVEL",
    "MAX_NUMBER",
    "MAX_ROUNDS",
    "MAX_TARGETS",
    "MAX_VICTORIES",
    "true_or_false",
    "typed_whole",
    "whole",
    "whole_range",
]

MAX_LEVEL = 100  # monsters and heroes; the book stops at 10, the explorer shows 20
MAX_HEROES = 100  # a party, retainers and allies included
MAX_VICTORIES = 100  # a hero's (or the party's average) Victories
MAX_ROUNDS = 100  # combat rounds planned or simulated
MAX_COUNT = 100  # creatures of one stat block in an encounter
MAX_TARGETS = 100  # targets of one ability
MAX_NUMBER = 1_000_000  # any other amount: Stamina, damage, Malice, EV


def whole_range(lowest: int, highest: int) -> str:
    """What a bounded whole-number field accepts, in words."""
    return f"a whole number from {lowest} to {highest}"


def whole(field: str, value: Any, lowest: int, highest: int = MAX_NUMBER, accepts: str | None = None) -> int:
    """`value` as an int if it is a whole number (never a bool) from `lowest` to `highest`, else
    `InvalidInput` naming `field` and the range (or `accepts`, when the caller words it)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidInput(field, value, accepts or whole_range(lowest, highest))
    number = int(value)
    if not lowest <= number <= highest:
        raise InvalidInput(field, value, accepts or whole_range(lowest, highest))
    return number


def typed_whole(text: str, digits: int = 7) -> int | None:
    """`text` (spaces around it aside) as a whole number if it is typed with the digits 0-9, at most `digits` of
    them (7 reach `MAX_NUMBER`), else None. `str.isdigit` takes "²" and "５" too, which int() refuses or reads
    otherwise, and int() raises its own ValueError past 4,300 digits."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None


def true_or_false(field: str, value: Any) -> bool:
    """`value` if it is True or False, else `InvalidInput` naming `field`: 1, "yes" or None are refused, since
    a switch that reads them would silently turn a typo into a rules choice."""
    if not isinstance(value, bool):
        raise InvalidInput(field, value, "True or False")
    return value
