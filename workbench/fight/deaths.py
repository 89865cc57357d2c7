"""The ROUND:COUNT notation for heroes who died during a fight: "3:1" is one hero missing from round 3's
Malice gain (a hero who falls during round 2 stops generating Malice from round 3).

The command line (`--deaths 3:1`, repeatable) and the Malice planner (a box of pairs, "2:1, 4:1") read the
notation here, so both take the same texts and refuse the same ones with the same words. A number is plain
ASCII digits: `int()` alone would read "５" as 5 and fail on "²" with a bare ValueError.
"""

from __future__ import annotations

import re

from workbench.errors import InvalidInput
from workbench.rules.limits import MAX_HEROES, MAX_ROUNDS

__all__ = ["DEATHS_ACCEPTS", "parse_death", "parse_deaths"]

DEATHS_ACCEPTS = (
    f"ROUND:COUNT in digits 0-9, round from 1 to {MAX_ROUNDS} and count from 0 to {MAX_HEROES}, "
    "e.g. 3:1 (one hero died before round 3's gain)"
)
_PAIR = re.compile(r"([0-9]{1,9}):([0-9]{1,9})", re.ASCII)


def parse_death(text: str) -> tuple[int, int]:
    """ "3:1" -> (3, 1): the round whose gain the heroes miss, and how many heroes; else `InvalidInput`."""
    match = _PAIR.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise InvalidInput("deaths", text, DEATHS_ACCEPTS)
    round_number, count = int(match[1]), int(match[2])
    if not 1 <= round_number <= MAX_ROUNDS or count > MAX_HEROES:
        raise InvalidInput("deaths", text, DEATHS_ACCEPTS)
    return round_number, count


def parse_deaths(text: str) -> list[tuple[int, int]]:
    """ "2:1, 4:1" -> [(2, 1), (4, 1)]: pairs separated by commas or spaces (blank: none). The first pair
    refused is named, with the words `parse_death` gives for it alone."""
    if not isinstance(text, str):
        raise InvalidInput("deaths", text, DEATHS_ACCEPTS)
    return [parse_death(item) for item in text.replace(",", " ").split()]
