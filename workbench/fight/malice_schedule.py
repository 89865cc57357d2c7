"""The Malice a Director gains, round by round: the schedule it arrives on.

Rules: "Malice" (Monster Basics) and data/rules/malice.txt. Readings (data/rules/RULES-READINGS.md):
at the start of combat the Director gains the heroes' average Victories, rounded down; at the start of each
round, the living heroes plus the round number. The book's example is one gain at the start of round 1
(3 + 5 + 1 = 9), then 7, 8, 9, ... . A hero who dies stops generating Malice: deaths given for a round are
counted before that round's gain (a hero who falls during round 2 is missing from round 3's gain, so it is
given as a death "in round 3").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from numbers import Integral
from typing import Any

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.model import Step
from workbench.rules.limits import MAX_HEROES, MAX_ROUNDS, MAX_VICTORIES, whole

__all__ = [
    "average_victories",
    "MaliceRound",
    "malice_schedule",
]

SECTION = "Earning Malice"
_FROZEN = ConfigDict(frozen=True)


def average_victories(
    victories: int | Fraction | Decimal | Sequence[int], heroes: int | None = None
) -> int:
    """The heroes' average Victories, rounded down: the average itself (2, or 2.5 as a Fraction, Decimal or
    float) or one whole number per hero.

    "you gain Malice equal to the average number of Victories per hero": an average need not be whole; the
    workbench rounds it down, as the budget does (RULES-READINGS.md). With one number per hero, `heroes`
    (when given) must match their count.
    """
    accepts = (
        f"a number from 0 to {MAX_VICTORIES} (the average, e.g. 2 or 2.5), or one whole number from 0 to "
        f"{MAX_VICTORIES} per hero"
    )
    if isinstance(victories, Integral) and not isinstance(victories, bool):
        return whole("victories", victories, 0, MAX_VICTORIES, accepts)
    if isinstance(victories, Fraction | Decimal | float):
        if not math.isfinite(victories) or not 0 <= victories <= MAX_VICTORIES:  # before Fraction(1e100000000)
            raise InvalidInput("victories", victories, accepts)
        return math.floor(Fraction(victories))
    if isinstance(victories, (str, bytes)) or not isinstance(victories, Iterable):
        raise InvalidInput("victories", victories, accepts)
    each = list(victories)
    if not each or len(each) > MAX_HEROES or any(
        isinstance(v, bool) or not isinstance(v, Integral) or not 0 <= v <= MAX_VICTORIES for v in each
    ):
        raise InvalidInput("victories", victories, accepts)
    if heroes is not None and len(each) != heroes:
        raise InvalidInput(
            "victories", victories, accepts, f"{len(each)} values for {heroes} heroes"
        )
    return sum(int(v) for v in each) // len(each)


def _deaths_by_round(deaths: Any, rounds: int | None, heroes: int) -> dict[int, int]:
    """Deaths as {round: count} from a mapping or (round, count) pairs; duplicates add up."""
    accepts = (
        "pairs of round and count (round from 1 to the number of rounds, count from 0 upwards), "
        f"at most {heroes} in all"
    )
    if deaths is None:
        return {}
    pairs = list(deaths.items()) if isinstance(deaths, Mapping) else deaths
    out: dict[int, int] = {}
    try:
        for round_number, count in pairs:
            if isinstance(round_number, bool) or not isinstance(round_number, Integral):
                raise InvalidInput("deaths", deaths, accepts)
            if isinstance(count, bool) or not isinstance(count, Integral) or count < 0:
                raise InvalidInput("deaths", deaths, accepts)
            if int(round_number) < 1 or (rounds is not None and int(round_number) > rounds):
                raise InvalidInput("deaths", deaths, accepts, f"round {round_number} is not in the fight")
            out[int(round_number)] = out.get(int(round_number), 0) + int(count)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, InvalidInput):
            raise
        raise InvalidInput("deaths", deaths, accepts) from None
    if sum(out.values()) > heroes:
        raise InvalidInput("deaths", deaths, accepts, f"more deaths than the {heroes} heroes")
    return out


# ---------------------------------------------------------------- the schedule


class MaliceRound(BaseModel):
    """One round of the schedule: who was alive for its gain, what it gave, and the running total.

    `victories` is the start-of-combat part (round 1 only, else 0); `total` assumes nothing was spent.
    """

    model_config = _FROZEN
    round: int
    heroes: int
    deaths: int
    victories: int
    gain: int
    total: int

    @property
    def working(self) -> str:
        parts = ([str(self.victories)] if self.round == 1 else []) + [str(self.heroes), str(self.round)]
        return " + ".join(parts)

    def step(self) -> Step:
        """The gain with its formula, as the notebook shows it ("Malice gained in round 1 = 3 + 5 + 1 = 9")."""
        formula = "living heroes + round number"
        if self.round == 1:
            formula = "average Victories + " + formula
        reading = "average Victories rounded down" if self.round == 1 else None
        if self.deaths:
            note = f"{self.deaths} hero death(s) counted before this round's gain"
            reading = f"{reading}; {note}" if reading else note
        return Step(
            quantity=f"Malice gained in round {self.round}",
            formula=formula,
            working=self.working,
            value=self.gain,
            section=SECTION,
            reading=reading,
        )


def malice_schedule(
    heroes: int,
    victories: int | Sequence[int],
    rounds: int,
    deaths: Mapping[int, int] | Iterable[tuple[int, int]] | None = None,
) -> tuple[MaliceRound, ...]:
    """Malice gained in each round and the running total, if none is spent.

    Round 1 adds the start-of-combat gain (average Victories, rounded down) to the round's own gain.
    `deaths` maps a round to the heroes who died before its gain (they are missing from it and every later
    gain). Five heroes with three Victories each: 9, 7, 8, 9, 10 (totals 9, 16, 24, 33, 43).
    """
    heroes = whole("heroes", heroes, 1, MAX_HEROES)
    average = average_victories(victories, heroes)
    rounds = whole("rounds", rounds, 1, MAX_ROUNDS)
    by_round = _deaths_by_round(deaths, rounds, heroes)
    living, total, out = heroes, 0, []
    for number in range(1, rounds + 1):
        died = by_round.get(number, 0)
        living -= died
        start = average if number == 1 else 0
        gain = start + living + number
        total += gain
        out.append(
            MaliceRound(round=number, heroes=living, deaths=died, victories=start, gain=gain, total=total)
        )
    return tuple(out)
