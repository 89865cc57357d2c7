"""A formula monster's signature ability and highest characteristic, held in the monster itself.

The formulas give numbers (the highest characteristic, each tier's damage and potency, the target count);
the Director gives the text (the signature ability's name and words) and two choices: which characteristic
carries the highest value, and whether the signature ability is a strike. `build_monster` writes all of it
into the monster (`with_signature`): the chosen characteristic at the highest value, and the signature
ability as an `Ability` with its tiers, damage and potencies. Every view and every export reads the
monster alone.

A monster whose one ability is exactly the signature ability its numbers and text make is a formula
monster (`signature_choices` gives its choices back); a copy of it that changes them (`model_copy`: a
re-levelled, re-worded or renamed one) has its ability and characteristic written anew. A monster with
abilities of its own (a published stat block, one edited in the ability editor) keeps them as they are.
"""

from __future__ import annotations

from workbench.model import Ability, Monster, check_characteristic, require_monster
from workbench.model.signature import SIGNATURE_NAME
from workbench.rules.limits import true_or_false

__all__ = ["SIGNATURE_NAME", "signature_ability", "signature_choices", "with_signature"]


def signature_ability(monster: Monster, characteristic: str = "might", strike: bool = True) -> Ability:
    """The signature ability the monster's numbers and text make, for these choices
    (`Monster.formula_signature`); a bad choice is `InvalidInput` naming it."""
    require_monster(monster)
    return monster.formula_signature(check_characteristic(characteristic), true_or_false("strike", strike))


def signature_choices(monster: Monster) -> tuple[str, bool] | None:
    """(characteristic, strike) of a formula monster; None for a monster with abilities of its own, or none."""
    return require_monster(monster).formula_choices()


def with_signature(monster: Monster, characteristic: str = "might", strike: bool = True) -> Monster:
    """`monster` with the choices written in where it has nothing of its own: the chosen characteristic set
    to the highest value (unless all five or that one are set) and the signature ability (unless it has
    abilities). A monster saved before the model held them comes back showing what it showed."""
    require_monster(monster)
    chosen = check_characteristic(characteristic)
    ability = signature_ability(monster, chosen, strike)
    update: dict[str, object] = {}
    if not monster.characteristics.known and monster.characteristics[chosen] is None:
        update["characteristics"] = monster.characteristics.model_copy(update={chosen: monster.highest_characteristic})
    if not monster.abilities:
        update["abilities"] = (ability,)
    return monster.model_copy(update=update) if update else monster
