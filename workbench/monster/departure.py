"""Where an ability departs from the formulas: each tier's damage and potency beside the formula's number.

The formulas suggest every number and say where the design departs: an ability's formula
damage is the one for its kind — its target count, strike or not, the organization's halving, the tier
modifiers — and its formula potency the highest characteristic minus one per tier below 3. A number that
differs is a `Departure`, shown on the block as "tier 2: 12 damage, the formula gives 9 for a 2-target
non-strike: +33%".

The stat block's own numbers depart the same way: `number_departures` gives each of EV, Stamina and the
free strike that is not the formula's at the monster's level (a published stat block's printed Stamina 7
where the formulas give 5), with the formula's working, as `relevel` keeps it ("Move.departure").

Readings: as for re-levelling (workbench.monster.relevel) — a target text naming no count ("Each enemy in
the area") is compared at the organization's expected count, and a test's tier t (tier 1 the worst for the
one tested) is compared with the formula's tier 4 − t.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict

from workbench.model import Ability, Monster, Step, Tier
from workbench.monster.formulas import ability_damage, build_monster, explain
from workbench.rules.ruleset import Ruleset

__all__ = ["NUMBERS", "Departure", "NumberDeparture", "ability_departures", "formula_for", "number_departures"]

NUMBERS = ("EV", "Stamina", "Free strike")  # the block's own numbers, by their formula's quantity


class Departure(BaseModel):
    """One tier number of an ability that differs from the formula's."""

    model_config = ConfigDict(frozen=True)
    ability: str
    tier: int
    quantity: Literal["damage", "potency"]
    value: int
    formula: int
    targets: int
    counted: bool  # False: the target text names no count; compared at the organization's expected count
    strike: bool
    test: bool = False

    @property
    def difference(self) -> int:
        return self.value - self.formula

    @property
    def ratio(self) -> Fraction | None:
        """(value − formula) / formula; None when the formula gives 0."""
        return Fraction(self.difference, self.formula) if self.formula else None

    @property
    def kind(self) -> str:
        """"2-target non-strike", "1-target strike (area: the expected count)"."""
        kind = f"{self.targets}-target {'strike' if self.strike else 'non-strike'}"
        return kind if self.counted else f"{kind} (no count in the target text: the expected {self.targets})"

    def __str__(self) -> str:
        where = f"tier {self.tier}{' of the test' if self.test else ''}"
        if self.quantity == "potency":
            return f"{where}: potency {self.value}, the formula gives {self.formula}: {self.difference:+d}"
        ratio = self.ratio
        change = "" if ratio is None else f": {_whole_percent(ratio)}"
        return f"{where}: {self.value} damage, the formula gives {self.formula} for a {self.kind}{change}"


def _whole_percent(ratio: Fraction) -> str:
    """+33%, −20%: rounded half away from zero, exactly."""
    hundredths = ratio * 100
    rounded = int(abs(hundredths) + Fraction(1, 2)) * (1 if hundredths >= 0 else -1)
    return f"+{rounded}%" if rounded >= 0 else f"−{-rounded}%"


Formulas = tuple[tuple[int, int, int], tuple[int, int, int], int, bool]


def formula_for(monster: Monster, ability: Ability) -> Formulas:
    """The formula's (damage per tier, potency per tier) for this ability at the monster's level, with the
    target count used and whether the target text named it."""
    count = ability.target.count if ability.target is not None else None
    targets = count if count is not None else monster.expected_targets
    damage, potency = _numbers(monster.rules, monster.level, monster.organization, monster.role, targets,
                               ability.is_strike)
    return damage, potency, targets, count is not None


# The formulas' numbers by (ruleset, level, organization, role, targets, strike): a stat block asks for the
# same few again for every ability on every redraw (a builder's 8 abilities: 16 monsters built a change).
# A Ruleset is not hashable: it is keyed by identity, and kept in the entry so its id is never reused.
_NUMBERS: dict[tuple[object, ...], tuple[Ruleset, tuple[int, int, int], tuple[int, int, int]]] = {}
_MAX_NUMBERS = 4096


def _numbers(rules: Ruleset, level: int, organization: str, role: str | None, targets: int,
             strike: bool) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    key = (id(rules), level, organization, role, targets, strike)
    found = _NUMBERS.get(key)
    if found is None or found[0] is not rules:
        damage = ability_damage(level, organization, role, targets, strike, rules).as_tuple()
        potency = build_monster(level, organization, role, ruleset=rules).potency.as_tuple()
        if len(_NUMBERS) >= _MAX_NUMBERS:
            _NUMBERS.clear()
        found = _NUMBERS[key] = (rules, damage, potency)
    return found[1], found[2]


def _tier_departures(ability: Ability, tiers: tuple[Tier, ...], formulas: Formulas, test: bool) -> list[Departure]:
    damage, potency, targets, counted = formulas
    found = []
    for number, tier in enumerate(tiers, 1):
        index = (3 - number) if test else number - 1
        common = {"ability": ability.name, "tier": number, "targets": targets, "counted": counted,
                  "strike": ability.is_strike and not test, "test": test}
        if tier.damage is not None and tier.damage != damage[index]:
            found.append(Departure(quantity="damage", value=tier.damage, formula=damage[index], **common))
        if tier.potency is not None and tier.potency.value != potency[index]:
            found.append(Departure(quantity="potency", value=tier.potency.value, formula=potency[index], **common))
    return found


def ability_departures(monster: Monster, ability: Ability) -> tuple[Departure, ...]:
    """Every tier damage and potency of `ability` that differs from the formula's, in tier order."""
    formulas = formula_for(monster, ability)
    found: list[Departure] = []
    if ability.power_roll is not None:
        found += _tier_departures(ability, ability.power_roll.tiers, formulas, test=False)
    for effect in ability.effects:
        if effect.tiers is not None:
            found += _tier_departures(ability, effect.tiers, formulas, test=True)
    return tuple(found)


class NumberDeparture(BaseModel):
    """One of the block's own numbers (EV, Stamina, free strike) that differs from the formula's."""

    model_config = ConfigDict(frozen=True)
    quantity: str
    value: int
    formula: Step

    @property
    def difference(self) -> int:
        return self.value - self.formula.value

    def __str__(self) -> str:
        return (f"{self.quantity} {self.value}: the formulas give {self.formula.value} "
                f"({self.formula.working}), {self.difference:+d}")


def number_departures(monster: Monster) -> tuple[NumberDeparture, ...]:
    """EV, Stamina and free strike where they differ from the formulas' for the monster's level,
    organization, role, extra Stamina and target count, in that order (none for a formula monster)."""
    m = monster
    built = build_monster(m.level, m.organization, m.role, m.extra_stamina, m.targets, m.rules)
    steps = {s.quantity: s for s in explain(built)}
    values = dict(zip(NUMBERS, (m.ev, m.stamina, m.free_strike), strict=True))
    return tuple(NumberDeparture(quantity=q, value=values[q], formula=steps[q]) for q in NUMBERS
                 if values[q] != steps[q].value)
