"""The signature ability a formula monster's numbers and text make: one `Ability`, built from plain values.

`Monster` writes it from its own fields (`Monster.formula_signature`) and writes it anew whenever a copy
changes those fields (`Monster.model_copy`); `workbench.monster.signature` is where the rest of the
workbench asks for it. Kept apart from the Monster so the ability's shape is in one small place.
"""

from __future__ import annotations

from functools import lru_cache

from workbench.model.ability import Ability, Damage, Effect, Potency, PowerRoll, Target, Tier

__all__ = ["SIGNATURE_NAME", "formula_ability"]

SIGNATURE_NAME = "Signature ability"  # the ability's name when the Director named none
_COUNT_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}


def _target(count: int) -> Target:
    word = _COUNT_WORDS.get(count, str(count))
    plural = "creature or object" if count == 1 else "creatures or objects"
    return Target(text=f"{word} {plural}", count=count)


@lru_cache(maxsize=4096)
def formula_ability(name: str, text: str, characteristic: str, strike: bool, targets: int, bonus: int,
                    damage: tuple[int, int, int], potency: tuple[int, int, int]) -> Ability:
    """The signature ability: `name` (or "Signature ability") and `text`, a strike or not, `targets`,
    "Power Roll + `bonus`", each tier's damage and potency (the characteristic's letter: "M < 1").

    One per set of values, shared (an Ability is frozen): building one validates every part, which would
    double the cost of each `build_monster`."""
    tiers = [Tier(damages=(Damage(amount=amount),), potency=Potency(characteristic=characteristic, value=value))
             for amount, value in zip(damage, potency, strict=True)]
    return Ability(
        name=name.strip() or SIGNATURE_NAME, cost="signature", action="main action",
        keywords=("Strike",) if strike else (), target=_target(targets),
        power_roll=PowerRoll(characteristics=(characteristic,), bonus=bonus, tier1=tiers[0], tier2=tiers[1],
                             tier3=tiers[2]),
        effects_after=(Effect(text=text.strip()),) if text.strip() else (),
    )
