"""A monster moved to another level: "Adjusting Monster Levels" applied to every number the formulas set.

`relevel(monster, level, mode="delta")` gives a NEW monster (the one given is unchanged) with EV, Stamina,
free strike, the five characteristics, and each ability's power-roll bonus, tier damage and potencies
moved; `relevel_moves(...)` gives the working of each moved number (old → new, the formula at both levels).

Two modes:
- ``"delta"`` keeps the design's departure from the formulas: new = old + formula(new level) − formula(old
  level). Moving there and back returns the original numbers exactly (the formulas are the same both ways).
- ``"formula"`` replaces each number with the formula's at the new level.

Readings (shown beside the numbers they affect):
- The formulas set only the highest characteristic. In delta mode all five move by the same step as the
  highest; in formula mode the highest becomes the formula's and the other four keep their distance below
  it. A power roll's bonus is the highest characteristic ("highest characteristic and power roll bonus"),
  so it moves the same way.
- An ability's damage is the formula's for its kind: its target count (`target.count`; an area or "each"
  target is compared at the organization's expected count, as the calibration does), strike or not (the
  Strike keyword), the organization's halving, the tier modifiers. A tier with two damage parts ("8 damage,
  4 corruption damage") moves its first part by the whole tier's step.
- A test's tiers (an effect with tiers and no roll: "Each target makes a Might test") run the other way —
  tier 1 is the worst outcome for the target — so test tier t moves with formula tier 4 − t.
- Text is never rewritten except the numbers above: damage later in a tier's text (the potency's own
  "4 poison damage"), distances, and every word are kept.
- A formula monster's signature ability (`workbench.monster.signature`) is written anew from the moved
  numbers, as `build_monster` writes it: the same numbers as moving each of them, and its words kept.
- A number that would leave the rules' range is kept at its edge (damage at 0, a potency at -5 or 6, a
  characteristic or bonus at -10 or 10) and its `Move` says so. The monster remembers the design it came
  from (`relevelled_from`), and every re-levelling moves from that design: so a level-8 minion's 3 damage
  taken to level 1 shows 0, and taken back to level 8 is 3 again, exactly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from workbench.arguments import checks_itself
from workbench.errors import InvalidInput
from workbench.model import Ability, Characteristics, Effect, Monster, PowerRoll, Step, Tier, Tiers
from workbench.model.ability import MAX_POTENCY, MIN_POTENCY
from workbench.model.parts import CHARACTERISTICS, MAX_CHARACTERISTIC, MIN_CHARACTERISTIC
from workbench.monster.formulas import build_monster, explain
from workbench.monster.signature import signature_choices

__all__ = ["MODES", "Move", "relevel", "relevel_moves"]

MODES = ("delta", "formula")
Mode = Literal["delta", "formula"]


class Move(BaseModel):
    """One number moved: what it is, old → new, and the formula's value at the old and the new level."""

    model_config = ConfigDict(frozen=True)
    quantity: str
    old: int
    new: int
    mode: Mode
    formula_old: Step
    formula_new: Step
    old_level: int
    new_level: int
    clamped: bool = False

    @property
    def departure(self) -> int:
        """How far the old number was from the formula's at the old level (kept in delta mode)."""
        return self.old - self.formula_old.value

    @property
    def working(self) -> str:
        """"12 + (9 − 7) = 14" in delta mode; the formula's working in formula mode."""
        if self.mode == "formula":
            return f"{self.formula_new.working} = {self.new}"
        return f"{self.old} + ({self.formula_new.value} − {self.formula_old.value}) = {self.old + self.step}"

    @property
    def step(self) -> int:
        return self.formula_new.value - self.formula_old.value

    def __str__(self) -> str:
        kept = "; kept at the rules' limit" if self.clamped else ""
        return (f"{self.quantity}: {self.old} → {self.new}   ({self.working}{kept}; formula "
                f"{self.formula_old.value} at level {self.old_level}, {self.formula_new.value} at level "
                f"{self.new_level})")


class _Formulas:
    """The formulas' Steps at one level, by quantity, for any target count (built on first use)."""

    def __init__(self, monster: Monster, level: int) -> None:
        self.monster = monster
        self.level = level
        self._by_targets: dict[int, dict[str, Step]] = {}

    def steps(self, targets: int | None = None) -> dict[str, Step]:
        m = self.monster
        count = m.expected_targets if targets is None else targets
        if count not in self._by_targets:
            built = build_monster(self.level, m.organization, m.role, m.extra_stamina, count, m.rules)
            self._by_targets[count] = {s.quantity: s for s in explain(built)}
        return self._by_targets[count]

    def step(self, quantity: str, targets: int | None = None) -> Step:
        return self.steps(targets)[quantity]


class _Mover:
    """Moves numbers from one level to another and records each move."""

    def __init__(self, monster: Monster, level: int, mode: Mode) -> None:
        self.before = _Formulas(monster, monster.level)
        self.after = _Formulas(monster, level)
        self.monster = monster
        self.level = level
        self.mode = mode
        self.moves: list[Move] = []

    def move(self, quantity: str, old: int, formula: str, targets: int | None = None, offset: int = 0,
             low: int | None = None, high: int | None = None) -> int:
        """`old` moved by the formula `formula` (a Step quantity); `offset` is kept in formula mode; the
        result is kept within `low`..`high`."""
        before = self.before.step(formula, targets)
        after = self.after.step(formula, targets)
        wanted = after.value + offset if self.mode == "formula" else old + after.value - before.value
        new = max(wanted, low) if low is not None else wanted
        new = min(new, high) if high is not None else new
        self.moves.append(Move(quantity=quantity, old=old, new=new, mode=self.mode, formula_old=before,
                               formula_new=after, old_level=self.monster.level, new_level=self.level,
                               clamped=new != wanted))
        return new


def _check_mode(mode: object) -> Mode:
    if mode not in MODES:
        raise InvalidInput("mode", mode, "delta (keep the design's departures) or formula (the formulas' numbers)")
    return mode  # type: ignore[return-value]


def _tier(mover: _Mover, name: str, tier: Tier, number: int, formula_tier: int, targets: int | None,
          strike: bool) -> Tier:
    damage = potency = None
    if tier.damage is not None:
        quantity = f"Damage (tier {formula_tier}{', strike' if strike else ''})"
        extra = sum(d.amount for d in tier.damages[1:])  # the design's other damage parts stay as they are
        damage = mover.move(f"{name}, tier {number} damage", tier.damage, quantity, targets, low=extra)
    if tier.potency is not None:
        potency = mover.move(f"{name}, tier {number} potency ({tier.potency.letter})", tier.potency.value,
                             f"Potency (tier {formula_tier})", low=MIN_POTENCY, high=MAX_POTENCY)
    return tier.with_numbers(damage=damage, potency=potency)


def _roll(mover: _Mover, ability: Ability, roll: PowerRoll, targets: int | None) -> PowerRoll:
    highest = mover.monster.characteristics.highest
    offset = 0 if highest is None else roll.bonus - highest
    bonus = mover.move(f"{ability.name}, power roll bonus", roll.bonus, "Highest characteristic", offset=offset,
                       low=MIN_CHARACTERISTIC, high=MAX_CHARACTERISTIC)
    tiers = [_tier(mover, ability.name, t, n, n, targets, ability.is_strike) for n, t in enumerate(roll.tiers, 1)]
    return roll.model_copy(update={"bonus": bonus, "tier1": tiers[0], "tier2": tiers[1], "tier3": tiers[2]})


def _effect(mover: _Mover, ability: Ability, effect: Effect, targets: int | None) -> Effect:
    if effect.tiers is None:
        return effect
    # a test: tier 1 is the worst outcome for the one tested, so it moves with the formula's tier 3
    tiers = tuple(_tier(mover, f"{ability.name} (test)", t, n, 4 - n, targets, False)
                  for n, t in enumerate(effect.tiers, 1))
    return effect.model_copy(update={"tiers": tiers})


def _ability(mover: _Mover, ability: Ability) -> Ability:
    targets = ability.target.count if ability.target is not None else None
    update: dict[str, object] = {
        "effects_before": tuple(_effect(mover, ability, e, targets) for e in ability.effects_before),
        "effects_after": tuple(_effect(mover, ability, e, targets) for e in ability.effects_after),
    }
    if ability.power_roll is not None:
        update["power_roll"] = _roll(mover, ability, ability.power_roll, targets)
    return ability.model_copy(update=update)


def _characteristics(mover: _Mover, characteristics: Characteristics) -> Characteristics:
    highest = characteristics.highest
    values: dict[str, int | None] = {}
    for name in CHARACTERISTICS:
        old = getattr(characteristics, name)
        if old is None:
            values[name] = None
            continue
        values[name] = mover.move(name.capitalize(), old, "Highest characteristic", offset=old - (highest or old),
                                  low=MIN_CHARACTERISTIC, high=MAX_CHARACTERISTIC)
    return Characteristics(**values)


def _tiers(mover: _Mover, label: str, tiers: Tiers, quantity: str, targets: int) -> Tiers:
    moved = [mover.move(f"{label} (tier {n})", v, quantity.format(n=n), targets) for n, v in
             enumerate(tiers.as_tuple(), 1)]
    return Tiers(tier1=moved[0], tier2=moved[1], tier3=moved[2])


def _relevel(given: Monster, level: int, mode: object) -> tuple[Monster, tuple[Move, ...]]:
    if not isinstance(given, Monster):
        raise InvalidInput("monster", given, "a Monster")
    monster = given.relevelled_from or given  # always from the design: nothing clamped is lost on the way
    formula = build_monster(level, monster.organization, monster.role, monster.extra_stamina, monster.targets,
                            monster.rules)  # checks the level; gives the formula fields of the new level
    mode = _check_mode(mode)
    mover = _Mover(monster, formula.level, mode)
    targets = monster.targets
    update: dict[str, object] = {
        "level": formula.level,
        "echelon": formula.echelon,
        "damage_modifier": formula.damage_modifier,
        "ev": mover.move("EV", monster.ev, "EV"),
        "stamina": mover.move("Stamina", monster.stamina, "Stamina"),
        "free_strike": mover.move("Free strike", monster.free_strike, "Free strike"),
        "highest_characteristic": mover.move("Highest characteristic", monster.highest_characteristic,
                                             "Highest characteristic"),
        "damage": _tiers(mover, "Signature damage", monster.damage, "Damage (tier {n}, strike)", targets),
        "non_strike_damage": _tiers(mover, "Non-strike damage", monster.non_strike_damage, "Damage (tier {n})",
                                    targets),
        "potency": _tiers(mover, "Potency", monster.potency, "Potency (tier {n})", targets),
        "characteristics": _characteristics(mover, monster.characteristics),
        "abilities": tuple(_ability(mover, a) for a in monster.abilities),
    }
    if mode == "delta" and formula.level == monster.level:
        return monster, tuple(mover.moves)  # back at the design's level: the design itself
    if signature_choices(monster) is not None:  # a formula monster: its signature ability written anew
        del update["abilities"]
    return monster.model_copy(update={**update, "relevelled_from": monster}), tuple(mover.moves)


@checks_itself
def relevel(monster: Monster, level: int, mode: Mode = "delta") -> Monster:
    """The same monster at `level`, every formula number moved (module docstring); `monster` is unchanged.

    Refuses a level the formulas refuse, a mode other than "delta" or "formula", and a level at which a
    moved number would leave the rules' range (a damage below 0, a potency past 6), naming the number.
    """
    return _relevel(monster, level, mode)[0]


@checks_itself
def relevel_moves(monster: Monster, level: int, mode: Mode = "delta") -> tuple[Move, ...]:
    """The working of `relevel(monster, level, mode)`: each moved number, old → new, with the formula's value
    at both levels, in stat block order (header, characteristics, then each ability's bonus and tiers)."""
    return _relevel(monster, level, mode)[1]
