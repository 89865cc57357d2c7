"""Quick Encounter Building: hero slots instead of EV arithmetic, and how its result compares with the EV method.

Step 1: one slot per hero (retainers and allies included), plus one for every two average Victories.
Step 2: adjust by difficulty (trivial −2, easy −1, hard +2, extreme +4 or more; standard and hard may add one
more when few creatures are above the heroes' level), then fill slots: eight minions, two horde creatures or
one platoon creature fill a slot; a leader or elite fills two; a solo six plus one per level above the heroes.
Each difficulty limits creature levels. Step 3: one or two dynamic terrain objects up to standard, two or
three for hard and extreme. All numbers come from `data/encounters.toml`.

Readings: the heroes' level of a mixed party is its exact average; a solo above a mixed party's average level
adds one slot per started level above it; the standard and hard bonus slots are offered when no creatures
have been chosen yet.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from workbench.encounter.encounter import Creature
from workbench.encounter.party import Party, budget
from workbench.errors import InvalidInput
from workbench.numbers import format_number
from workbench.rules.encounter_tables import EncounterRules, check_difficulty, encounter_rules

__all__ = ["QuickPlan", "quick_plan", "slots_of", "terrain_advice", "fills"]

SECTION = "Quick Encounter Building"


class QuickPlan(BaseModel):
    """Hero slots for a party and difficulty, the creatures' slots and levels, and the EV method's view."""

    model_config = ConfigDict(frozen=True)

    difficulty: str
    heroes: int
    extra_heroes: int
    base_slots: int
    adjustment: int
    or_more: bool
    bonus_slot: bool
    slots: int
    max_slots: int | None
    used: Fraction
    min_level: Fraction | None
    max_level: Fraction | None
    solo_max_level: Fraction | None
    level_problems: tuple[str, ...]
    terrain_objects: tuple[int, int]
    ev: Fraction
    ev_band: str
    rule: str
    terrain_rule: str

    @property
    def left(self) -> Fraction:
        """Slots still to fill (negative when overfilled) against the slots without the bonus slot."""
        return self.slots - self.used

    @property
    def fits(self) -> bool:
        """The creatures fill the slots (up to the bonus slot, if any) and keep to the difficulty's levels."""
        high = self.max_slots
        return not self.level_problems and self.used >= self.slots and (high is None or self.used <= high)

    def summary(self) -> str:
        top = "+" if self.max_slots is None else f"–{self.max_slots}" if self.max_slots != self.slots else ""
        return (
            f"{self.heroes} heroes + {self.extra_heroes} for Victories = {self.base_slots} slots; "
            f"{self.difficulty}: {self.adjustment:+d} → {self.slots}{top} slots; "
            f"filled {format_number(self.used)}; by EV the same creatures are {self.ev_band}"
        )


def _levels_above(level: int, party_level: Fraction) -> int:
    return max(0, math.ceil(level - party_level))


def slots_of(creature: Creature, party_level: Fraction | int, rules: EncounterRules | None = None) -> Fraction:
    """Hero slots the creatures of one entry fill."""
    rules = rules or encounter_rules()
    value = rules.quick.slots.get("solo" if creature.solo else creature.organization)
    if value is None:
        raise InvalidInput(
            "organization", creature.organization, "one of " + ", ".join(rules.quick.slots)
        )
    each = value.of_one() + value.per_level_above * _levels_above(creature.level, Fraction(party_level))
    return each * creature.count


def terrain_advice(difficulty: str, rules: EncounterRules | None = None) -> tuple[int, int, str]:
    """How many dynamic terrain objects to add for a difficulty (Step 3), with the rule's words."""
    rules = rules or encounter_rules()
    d = rules.quick.difficulty[check_difficulty(difficulty)]
    return d.terrain_objects[0], d.terrain_objects[1], rules.quick.terrain_rule


def fills(slots: Fraction | int, rules: EncounterRules | None = None) -> dict[str, int]:
    """How many creatures of each (non-solo) organization alone would fill `slots` (whole creatures)."""
    rules = rules or encounter_rules()
    slots = Fraction(slots)
    out: dict[str, int] = {}
    for organization, value in rules.quick.slots.items():
        if value.per_level_above:
            continue
        out[organization] = max(0, math.floor(slots / value.of_one()))
    return out


def quick_plan(
    party: Party,
    difficulty: str,
    creatures: Iterable[Creature] = (),
    rules: EncounterRules | None = None,
) -> QuickPlan:
    """The quick method for `party` at `difficulty`, checked against `creatures` and compared by EV."""
    rules = rules or encounter_rules()
    if not isinstance(party, Party):
        raise InvalidInput("party", party, "a Party (see make_party)")
    difficulty = check_difficulty(difficulty)
    if isinstance(creatures, (str, bytes)) or not isinstance(creatures, Iterable):
        raise InvalidInput("creatures", creatures, "a list of Creatures (see parse_spec, creature_from_monster)")
    creatures = tuple(creatures)
    for c in creatures:
        if not isinstance(c, Creature):
            raise InvalidInput("creatures", c, "a list of Creatures (see parse_spec, creature_from_monster)")
    d = rules.quick.difficulty[difficulty]
    level = party.average_level
    extra = math.floor(party.victories / rules.strength.victories_per_extra_hero)
    base = party.size + extra
    slots = max(0, base + d.slots)
    if d.bonus_slot == "none_above":
        bonus = all(c.level <= level for c in creatures)
    elif d.bonus_slot == "not_all_above":
        bonus = not creatures or not all(c.level > level for c in creatures)
    else:
        bonus = False
    max_slots = None if d.or_more else slots + (1 if bonus else 0)
    used = sum((slots_of(c, level, rules) for c in creatures), Fraction(0))
    low = None if d.min_level_offset is None else level + d.min_level_offset
    high = None if d.max_level_offset is None else level + d.max_level_offset
    solo_high = high if d.solo_max_level_offset is None else level + d.solo_max_level_offset
    problems: list[str] = []
    for c in creatures:
        top = solo_high if c.solo else high
        if low is not None and c.level < low:
            problems.append(f"{c.label}: level {c.level} is below {format_number(low)}")
        if top is not None and c.level > top:
            problems.append(f"{c.label}: level {c.level} is above {format_number(top)}")
    ev = sum((c.cost() for c in creatures), Fraction(0))
    return QuickPlan(
        difficulty=difficulty,
        heroes=party.size,
        extra_heroes=extra,
        base_slots=base,
        adjustment=d.slots,
        or_more=d.or_more,
        bonus_slot=bonus,
        slots=slots,
        max_slots=max_slots,
        used=used,
        min_level=low,
        max_level=high,
        solo_max_level=solo_high if d.solo_max_level_offset is not None else None,
        level_problems=tuple(problems),
        terrain_objects=d.terrain_objects,
        ev=ev,
        ev_band=budget(party, rules=rules).difficulty(ev),
        rule=d.rule,
        terrain_rule=rules.quick.terrain_rule,
    )
