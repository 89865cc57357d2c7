"""New abilities pre-filled from the formulas: "add a signature strike", "add a 2-target ability", "add an
area ability", "add a villain action", "add a Malice ability".

Each template is an `Ability` whose numbers are the formulas' for the monster and the ability's kind — its
target count, strike or not, the organization's halving, the tier modifiers, the power roll bonus (the
highest characteristic) and, where the kind usually has one, the potency of each tier. The Director then
changes what they like; a changed number is shown as a departure (workbench.monster.departure).

Readings: an area ability ("Each enemy in the area") is computed at the organization's expected target count,
as the calibration compares published areas; a villain action is an area ability that is not a strike.
"""

from __future__ import annotations

from typing import Literal

from workbench.errors import InvalidInput
from workbench.model import Ability, Damage, Monster, Potency, Tier
from workbench.model.ability import MAX_POTENCY, MIN_POTENCY
from workbench.model.parts import MAX_CHARACTERISTIC, MIN_CHARACTERISTIC
from workbench.monster.departure import formula_for
from workbench.monster.formulas import ability_damage

__all__ = ["TEMPLATES", "carry_ability", "suggest_ability"]

Template = Literal["signature strike", "two-target strike", "area", "villain action", "malice"]
TEMPLATES: tuple[str, ...] = ("signature strike", "two-target strike", "area", "villain action", "malice")
_COUNT_WORDS = {1: "One creature or object", 2: "Two creatures or objects", 3: "Three creatures or objects"}


def _tiers(monster: Monster, targets: int, strike: bool, potency_effect: str | None) -> dict[str, Tier]:
    damage = ability_damage(monster.level, monster.organization, monster.role, targets, strike, monster.rules)
    tiers = {}
    for number, amount in enumerate(damage.as_tuple(), 1):
        potency = None
        if potency_effect is not None:
            value = getattr(monster.potency, f"tier{number}")
            potency = Potency(characteristic="might", value=value)
        tiers[f"tier{number}"] = Tier(damages=(Damage(amount=amount),), potency=potency,
                                      effect=potency_effect if potency is not None else "")
    return tiers


def _next_villain_action(monster: Monster) -> int:
    taken = {a.villain_action for a in monster.abilities if a.villain_action}
    free = [n for n in (1, 2, 3) if n not in taken]
    if not free:
        raise InvalidInput("template", "villain action", "another kind: this monster has villain actions 1, 2 and 3")
    return free[0]


def suggest_ability(monster: Monster, template: str, name: str | None = None) -> Ability:
    """A new ability of the kind `template` (one of `TEMPLATES`), every number the formulas'."""
    if template not in TEMPLATES:
        raise InvalidInput("template", template, "one of " + ", ".join(TEMPLATES))
    bonus = monster.highest_characteristic
    expected = monster.expected_targets
    if template in ("signature strike", "two-target strike"):
        targets = expected if template == "signature strike" else 2
        return Ability(
            name=name or ("Signature Strike" if template == "signature strike" else "Cleave"),
            cost="signature" if template == "signature strike" else None,
            action="main action", keywords=("Melee", "Strike", "Weapon"), distance="Melee 1",
            target=_COUNT_WORDS.get(targets, f"{targets} creatures or objects"),
            power_roll={"bonus": bonus, **_tiers(monster, targets, True, None)},
        )
    if template == "malice":
        return Ability(
            name=name or "Malice Strike", cost=3, action="main action", keywords=("Melee", "Strike", "Weapon"),
            distance="Melee 1", target=_COUNT_WORDS[1],
            power_roll={"bonus": bonus, **_tiers(monster, 1, True, "bleeding (save ends)")},
        )
    villain = template == "villain action"
    return Ability(
        name=name or ("Villain Action" if villain else "Area Attack"),
        cost=f"villain {_next_villain_action(monster)}" if villain else None,
        action=None if villain else "main action", keywords=("Area",), distance="3 burst",
        target="Each enemy in the area",
        power_roll={"bonus": bonus, **_tiers(monster, expected, False, "slowed (save ends)")},
    )


def _carried(tiers: tuple[Tier, ...], old: tuple[tuple[int, ...], tuple[int, ...]],
             new: tuple[tuple[int, ...], tuple[int, ...]], test: bool) -> tuple[Tier, ...]:
    moved = []
    for number, tier in enumerate(tiers, 1):
        index = 3 - number if test else number - 1  # a test's tier 1 is the worst outcome: formula tier 3
        damage = potency = None
        if tier.damage is not None:
            extra = sum(d.amount for d in tier.damages[1:])
            damage = max(extra, tier.damage + new[0][index] - old[0][index])
        if tier.potency is not None:
            potency = min(max(tier.potency.value + new[1][index] - old[1][index], MIN_POTENCY), MAX_POTENCY)
        moved.append(tier.with_numbers(damage=damage, potency=potency))
    return tuple(moved)


def _same_formulas(old: Monster, new: Monster) -> bool:
    """Whether an ability's formula numbers are the same for both (a rebuild with only words changed)."""
    def key(m: Monster) -> tuple[object, ...]:
        return (m.level, m.organization, m.role, m.expected_targets, m.highest_characteristic, m.potency)
    return old is new or (old.rules is new.rules and key(old) == key(new))


def carry_ability(ability: Ability, old: Monster, new: Monster) -> Ability:
    """`ability`, designed for `old`, moved to `new` (another level, organization, role or target count):
    each tier damage and potency and the power roll bonus keep their departure from the formulas
    (new = old + formula for `new` − formula for `old`), so a template stays the formulas' and a number the
    Director changed stays changed by as much. Numbers are kept within the rules' range (damage 0 or
    more, potency −5 to 6, bonus −10 to 10); the builder carries from the design each time, so nothing
    kept at an edge is lost on the way back.
    """
    if _same_formulas(old, new):
        return ability
    before, after = formula_for(old, ability), formula_for(new, ability)
    numbers_before, numbers_after = (before[0], before[1]), (after[0], after[1])
    update: dict[str, object] = {}
    roll = ability.power_roll
    if roll is not None:
        bonus = roll.bonus + new.highest_characteristic - old.highest_characteristic
        tiers = _carried(roll.tiers, numbers_before, numbers_after, test=False)
        update["power_roll"] = roll.model_copy(update={
            "bonus": min(max(bonus, MIN_CHARACTERISTIC), MAX_CHARACTERISTIC),
            "tier1": tiers[0], "tier2": tiers[1], "tier3": tiers[2],
        })
    for part in ("effects_before", "effects_after"):
        effects = getattr(ability, part)
        if any(e.tiers is not None for e in effects):
            update[part] = tuple(
                e if e.tiers is None else e.model_copy(update={
                    "tiers": _carried(e.tiers, numbers_before, numbers_after, test=True)})
                for e in effects
            )
    return ability.model_copy(update=update) if update else ability
