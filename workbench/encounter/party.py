"""The heroes' side of encounter building: a party, its encounter strength (ES) and the five budget bands.

"Step 3: Determine Encounter Strength" and "Step 4: Determine Encounter Budget" as pure functions. A hero's
ES is 4 + 2 × level; retainers and allied NPCs count as heroes; every 2 average Victories (rounded down) add
the ES of one more hero, where one hero's ES is the party ES divided by the number of heroes (so a party of
mixed levels can have a fractional hero strength: all arithmetic is exact, with `Fraction`). Each number
comes with its working (`Calc`), so a notebook shows "ES = 5 × (4 + 2 × 3) = 50" from the code that
computed it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Any, Literal

from pydantic import Field, field_validator

from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.numbers import format_number
from workbench.rules.encounter_tables import DIFFICULTIES, EncounterRules, check_difficulty, encounter_rules
from workbench.rules.limits import MAX_HEROES, MAX_LEVEL, MAX_VICTORIES, whole

__all__ = [
    "Member",
    "Party",
    "Band",
    "Budget",
    "Calc",
    "make_party",
    "hero_strength",
    "budget",
    "parse_victories",
    "VICTORIES_ACCEPTS",
]

SECTION_ES = "Step 3: Determine Encounter Strength"
SECTION_BUDGET = "Step 4: Determine Encounter Budget"
KINDS = ("hero", "retainer", "ally")


class Calc(Frozen):
    """One computed number with its formula and this party's values plugged in."""

    quantity: str
    formula: str
    working: str
    value: Fraction
    section: str
    reading: str | None = None

    def __str__(self) -> str:
        return f"{self.quantity} = {self.working} = {format_number(self.value)}"


class Member(Frozen):
    """One combatant on the heroes' side. Retainers and allied NPCs count as heroes of their level."""

    level: int = Field(ge=1, le=MAX_LEVEL)
    kind: Literal["hero", "retainer", "ally"] = "hero"
    name: str = ""


class Party(Frozen):
    """The heroes (with retainers and allies) and their average Victories."""

    members: tuple[Member, ...] = Field(min_length=1, max_length=MAX_HEROES)
    victories: Fraction = Fraction(0)

    @field_validator("victories", mode="before")
    @classmethod
    def _bounded_victories(cls, value: Any) -> Any:
        """Checked before pydantic's own Fraction parsing, which would take "1e100000000" and never finish."""
        return _exact_victories(value)

    @property
    def size(self) -> int:
        """How many count as heroes (retainers and allied NPCs included)."""
        return len(self.members)

    @property
    def levels(self) -> tuple[int, ...]:
        return tuple(m.level for m in self.members)

    @property
    def heroes(self) -> tuple[Member, ...]:
        """The heroes themselves, without retainers and allied NPCs (every member when there is no hero).

        A retainer or allied NPC "counts as a hero when determining encounter strength", and only then: the
        heroes' level (creature level limits, the thing's and ward's Stamina) is the heroes' own.
        """
        return tuple(m for m in self.members if m.kind == "hero") or self.members

    @property
    def average_level(self) -> Fraction:
        """The heroes' average level, exact (the rules' "heroes' level" for a party of mixed levels); retainers
        and allied NPCs are not averaged in (they count as heroes for encounter strength only)."""
        return Fraction(sum(m.level for m in self.heroes), len(self.heroes))

    @property
    def heroes_uniform(self) -> bool:
        """Whether the heroes (retainers and allies aside) are all of one level, so "the heroes' level" is
        theirs, not an average."""
        return len({m.level for m in self.heroes}) == 1

    @property
    def uniform(self) -> bool:
        """Whether everyone counted for encounter strength (retainers and allies too) is of one level."""
        return len(set(self.levels)) == 1


# "2", "2.5", "5/2": plain ASCII digits only, a few of them (Fraction("1e100000000") would never finish)
_AVERAGE = re.compile(r"\s*-?([0-9]{1,6}(?:\.[0-9]{1,6})?|[0-9]{1,6}\s*/\s*[0-9]{1,6})\s*", re.ASCII)
VICTORIES_ACCEPTS = (
    f"a number of average Victories from 0 to {MAX_VICTORIES} (or one whole number per hero)"
)


def parse_victories(value: Any) -> Fraction:
    """The heroes' average Victories, exact, from a number or a typed text ("2", "2.5", "5/2"), from 0 to
    `MAX_VICTORIES`; InvalidInput on "victories" otherwise (a text is read only if short and plain)."""
    return _victories(value)


def _victories(value: Any) -> Fraction:
    exact = _exact_victories(value)
    if not 0 <= exact <= MAX_VICTORIES:
        raise InvalidInput("victories", value, VICTORIES_ACCEPTS)
    return exact


def _exact_victories(value: Any) -> Fraction:
    """The number given, exact, whatever its sign or size (a file's is range-checked with its other problems);
    refuses what is no number and what would take forever to make one."""
    accepts = VICTORIES_ACCEPTS
    if isinstance(value, (list, tuple)):
        if not value or len(value) > MAX_HEROES:
            raise InvalidInput("victories", value, accepts)
        each = [_exact_victories(v) for v in value]
        return Fraction(sum(each), len(each))
    if isinstance(value, bool):
        raise InvalidInput("victories", value, accepts)
    if isinstance(value, Decimal) and (not value.is_finite() or (value and abs(value.adjusted()) > 6)):
        raise InvalidInput("victories", value, accepts)  # NaN, Infinity, or digits no average has
    if isinstance(value, (Rational, Decimal)):
        exact = Fraction(value)
    elif isinstance(value, str) and _AVERAGE.fullmatch(value):
        try:
            exact = Fraction(value.replace(" ", ""))
        except ZeroDivisionError:
            raise InvalidInput("victories", value, accepts) from None
    else:
        raise InvalidInput("victories", value, accepts)
    return exact


def _levels(field: str, values: Any) -> list[int]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidInput(field, values, f"a list of levels, each a whole number from 1 to {MAX_LEVEL}")
    levels = []
    for value in values:
        levels.append(whole(field, value, 1, MAX_LEVEL))
        if len(levels) > MAX_HEROES:
            raise InvalidInput(field, f"{len(levels)}+ levels", f"at most {MAX_HEROES} levels")
    return levels


def make_party(
    levels: Sequence[int] | None = None,
    *,
    heroes: int | None = None,
    level: int | None = None,
    victories: Any = 0,
    retainers: Iterable[int] = (),
    allies: Iterable[int] = (),
) -> Party:
    """A party from `heroes` × `level`, or from one level per hero (`levels`, mixed allowed).

    `victories` is the heroes' average (a number), or one whole number per hero (averaged exactly).
    `retainers` and `allies` are the levels of retainers and allied NPCs; they count as heroes.

    >>> make_party(heroes=5, level=3).size
    5
    """
    if levels is not None:
        if heroes is not None or level is not None:
            raise InvalidInput("levels", levels, "either levels, or heroes and level, not both")
        hero_levels = _levels("levels", levels)
        if not hero_levels:
            raise InvalidInput("levels", levels, "at least one hero level")
    else:
        if heroes is None or level is None:
            raise InvalidInput("heroes", heroes, "a number of heroes with their level (or a list of levels)")
        hero_levels = [whole("level", level, 1, MAX_LEVEL)] * whole("heroes", heroes, 1, MAX_HEROES)
    members = [Member(level=v) for v in hero_levels]
    members += [Member(level=v, kind="retainer") for v in _levels("retainers", retainers)]
    members += [Member(level=v, kind="ally") for v in _levels("allies", allies)]
    if len(members) > MAX_HEROES:
        raise InvalidInput("heroes", len(members), f"at most {MAX_HEROES} heroes, retainers and allies together")
    return Party(members=tuple(members), victories=_victories(victories))


def hero_strength(level: int, rules: EncounterRules | None = None) -> int:
    """One hero's encounter strength: 4 + 2 × level ("a 3rd-level hero has an encounter strength of 10")."""
    s = (rules or encounter_rules()).strength
    return s.hero_base + s.per_level * whole("level", level, 1, MAX_LEVEL)


class Band(Frozen):
    """A budget band: the exact bounds, and the whole EV totals in it (`max` None: no upper end).

    An empty band (a one-hero party's trivial band: EV below 0) has `max` = `min` − 1.
    """

    name: str
    min: int
    max: int | None
    lower: Fraction | None
    lower_inclusive: bool
    upper: Fraction | None
    upper_inclusive: bool
    victories: int
    rule: str

    def contains(self, ev: Fraction | int) -> bool:
        ev = Fraction(ev)
        if self.lower is not None and (ev < self.lower if self.lower_inclusive else ev <= self.lower):
            return False
        if self.upper is not None and (ev > self.upper if self.upper_inclusive else ev >= self.upper):
            return False
        return True

    @property
    def empty(self) -> bool:
        return self.max is not None and self.max < self.min

    @property
    def span(self) -> str:
        """The whole EV totals in the band, for people: "50 to 60", "81 or more", or "none"."""
        if self.empty:
            return "none"
        return f"{self.min} or more" if self.max is None else f"{self.min} to {self.max}"


class Budget(Frozen):
    """A party's encounter strength and its five budget bands, with the working of each number."""

    party: Party
    heroes: int
    added_heroes: int
    party_strength: Fraction
    hero_strength: Fraction
    extra_heroes: int
    victories_bonus: Fraction
    encounter_strength: Fraction
    bands: tuple[Band, ...]
    steps: tuple[Calc, ...]
    # "keep a list of monsters with an EV cost worth roughly the encounter strength of two, four, and six
    # Victories": (Victories, that EV), each Victories ÷ 2 heroes' ES as "Factor in Victories" counts them
    victory_costs: tuple[tuple[int, Fraction], ...] = ()

    def band(self, name: str) -> Band:
        return self.bands[DIFFICULTIES.index(check_difficulty(name))]

    def difficulty(self, ev: Fraction | int) -> str:
        """The band an EV total falls in (exact comparison, so a minion's quarter EV counts)."""
        ev = Fraction(ev)
        if ev < 0:
            raise InvalidInput("ev", ev, "an EV total from 0 upwards")
        return next(b.name for b in self.bands if b.contains(ev))

    def left_to_spend(self, ev: Fraction | int, difficulty: str) -> Fraction | None:
        """EV still to spend before the total leaves `difficulty`'s band (None: no upper end)."""
        band = self.band(difficulty)
        if band.max is None:
            return None
        return Fraction(band.max) - Fraction(ev)


def _bands(
    es: Fraction, h: Fraction, rules: EncounterRules
) -> tuple[Band, ...]:
    bands: list[Band] = []
    lower: Fraction | None = None
    lower_inclusive = True
    minimum = 0
    for rule in rules.bands:
        if rule.upper_heroes is None:
            upper, inclusive, maximum = None, False, None
        else:
            upper = es + rule.upper_heroes * h
            inclusive = bool(rule.upper_inclusive)
            maximum = math.floor(upper) if inclusive else math.ceil(upper) - 1
            maximum = max(maximum, minimum - 1)
        bands.append(
            Band(
                name=rule.name,
                min=minimum,
                max=maximum,
                lower=lower,
                lower_inclusive=lower_inclusive,
                upper=upper,
                upper_inclusive=inclusive,
                victories=rule.victories,
                rule=rule.rule,
            )
        )
        if maximum is not None:
            minimum = maximum + 1
        lower, lower_inclusive = upper, not inclusive
    return tuple(bands)


def budget(party: Party, added_heroes: int = 0, rules: EncounterRules | None = None) -> Budget:
    """The party's ES (with its Victories) and the five bands.

    `added_heroes` adds heroes of the party's strength for determining difficulty only (an objective such
    as Save Another: "add one hero to the party for the purpose of determining the encounter's difficulty").
    """
    rules = rules or encounter_rules()
    if not isinstance(party, Party):
        raise InvalidInput("party", party, "a Party (see make_party)")
    added = whole("added_heroes", added_heroes, 0, MAX_HEROES)
    s = rules.strength
    each = [hero_strength(level, rules) for level in party.levels]
    party_es = Fraction(sum(each))
    n = party.size
    h = party_es / n
    steps: list[Calc] = []
    if party.uniform:
        steps.append(
            Calc(
                quantity="One hero's ES",
                formula=f"{s.hero_base} + {s.per_level} × level",
                working=f"{s.hero_base} + {s.per_level} × {party.levels[0]}",
                value=Fraction(each[0]),
                section=SECTION_ES,
            )
        )
        working = f"{n} × ({s.hero_base} + {s.per_level} × {party.levels[0]})"
    else:
        working = " + ".join(f"({s.hero_base} + {s.per_level} × {lvl})" for lvl in party.levels)
    kinds = {m.kind for m in party.members} - {"hero"}
    steps.append(
        Calc(
            quantity="Party ES",
            formula="sum of every hero's ES",
            working=working,
            value=party_es,
            section=SECTION_ES,
            reading="retainers and allied NPCs count as heroes of their level" if kinds else None,
        )
    )
    if not party.uniform:
        steps.append(
            Calc(
                quantity="One hero's ES",
                formula="party ES ÷ number of heroes",
                working=f"{format_number(party_es)} ÷ {n}",
                value=h,
                section=SECTION_ES,
                reading="for a party of mixed levels, one hero's ES is the party ES divided by the heroes",
            )
        )
    extra = math.floor(party.victories / s.victories_per_extra_hero)
    bonus = extra * h
    steps.append(
        Calc(
            quantity="Victories bonus",
            formula=f"⌊average Victories ÷ {s.victories_per_extra_hero}⌋ × one hero's ES",
            working=(
                f"⌊{format_number(party.victories)} ÷ {s.victories_per_extra_hero}⌋ × {format_number(h)}"
            ),
            value=bonus,
            section="Factor in Victories",
        )
    )
    es = party_es + bonus
    working = f"{format_number(party_es)} + {format_number(bonus)}"
    if added:
        es += added * h
        working += f" + {added} × {format_number(h)}"
    steps.append(
        Calc(
            quantity="Encounter strength",
            formula="party ES + Victories bonus" + (" + added heroes × one hero's ES" if added else ""),
            working=working,
            value=es,
            section=SECTION_ES,
            reading="heroes added by the objective count for difficulty only" if added else None,
        )
    )
    costs = tuple((v, Fraction(v, s.victories_per_extra_hero) * h) for v in s.keep_list_victories)
    steps.extend(
        Calc(
            quantity=f"EV worth {v} Victories",
            formula=f"{v} ÷ {s.victories_per_extra_hero} × one hero's ES",
            working=f"{v} ÷ {s.victories_per_extra_hero} × {format_number(h)}",
            value=ev,
            section="Factor in Victories",
            reading="the EV of the monsters to keep on a list, to drop into an encounter as the Victories grow",
        )
        for v, ev in costs
    )
    bands = _bands(es, h, rules)
    for band, rule in zip(bands[:-1], rules.bands[:-1], strict=False):
        k = rule.upper_heroes
        sign = "+" if (k or 0) >= 0 else "−"
        steps.append(
            Calc(
                quantity=f"{band.name.capitalize()} ends {'at' if band.upper_inclusive else 'below'}",
                formula=f"ES {sign} {abs(k or 0)} × one hero's ES",
                working=f"{format_number(es)} {sign} {abs(k or 0)} × {format_number(h)}",
                value=band.upper if band.upper is not None else Fraction(0),
                section=SECTION_BUDGET,
                reading=(
                    f"a total of exactly {format_number(band.upper)} is "
                    f"{band.name if band.upper_inclusive else DIFFICULTIES[DIFFICULTIES.index(band.name) + 1]}"
                    if band.upper is not None
                    else None
                ),
            )
        )
    return Budget(
        party=party,
        heroes=n,
        added_heroes=added,
        party_strength=party_es,
        hero_strength=h,
        extra_heroes=extra,
        victories_bonus=bonus,
        encounter_strength=es,
        bands=bands,
        steps=tuple(steps),
        victory_costs=costs,
    )
