"""The Monster the builder's stat block shows, whole: what every export of a builder monster carries.

A monster built from the formulas holds numbers and the Director's text, and two display choices beside it:
which characteristic carries the highest value, and whether the signature ability is a strike. The block
draws from these a characteristic row ("Might +2") and a signature ability (its name and text, "Power Roll
+ N", the damage and the potency of each tier). A file for another tool has no place for display choices,
so `monster_as_shown` writes them into the monster itself: the chosen characteristic set to the highest
value, and the signature ability as an `Ability` with exactly the block's numbers. A monster that already
has its abilities (a published stat block, one edited in the ability editor) keeps them; only a formula
monster's missing characteristic is filled.

Every view of a saved monster shows `entry_as_shown(entry)`, the library entry with its saved choices
written in, and a block drawn without display choices reads them back from the monster
(`shown_characteristic`, `shown_strike`), so the encounter, the fight, `workbench show`, the packet and the
printed card show the numbers the builder showed and the export carries.
"""

from __future__ import annotations

from pathlib import Path

from workbench.errors import InvalidInput
from workbench.model import (
    CHARACTERISTICS,
    Ability,
    Damage,
    Effect,
    Monster,
    Potency,
    PowerRoll,
    Target,
    Tier,
    require_monster,
)
from workbench.monster.library import Entry, load_library
from workbench.rules.limits import true_or_false

__all__ = ["SIGNATURE_NAME", "entry_as_shown", "library_as_shown", "monster_as_shown", "shown_characteristic", "shown_strike",
           "signature_ability"]

SIGNATURE_NAME = "Signature ability"  # the block's heading when the Director named none
_COUNT_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}


def _characteristic(characteristic: object) -> str:
    key = characteristic.strip().lower() if isinstance(characteristic, str) else None
    if key not in CHARACTERISTICS:
        raise InvalidInput("characteristic", characteristic, "one of " + ", ".join(CHARACTERISTICS))
    return key


def _target(count: int) -> Target:
    word = _COUNT_WORDS.get(count, str(count))
    plural = "creature or object" if count == 1 else "creatures or objects"
    return Target(text=f"{word} {plural}", count=count)


def signature_ability(monster: Monster, characteristic: str = "might", strike: bool = True) -> Ability:
    """The formula monster's signature ability as the block shows it: the Director's name and text, a strike
    or not, its targets, "Power Roll + highest", each tier's damage (with the characteristic for a strike)
    and potency ("M < 1", the chosen characteristic's letter)."""
    chosen = _characteristic(characteristic)
    damage = monster.damage if strike else monster.non_strike_damage
    tiers = [Tier(damages=(Damage(amount=amount),), potency=Potency(characteristic=chosen, value=potency))
             for amount, potency in zip(damage.as_tuple(), monster.potency.as_tuple(), strict=True)]
    text = monster.signature_text.strip()
    return Ability(
        name=monster.signature_name.strip() or SIGNATURE_NAME, cost="signature", action="main action",
        keywords=("Strike",) if strike else (), target=_target(monster.targets),
        power_roll=PowerRoll(characteristics=(chosen,), bonus=monster.highest_characteristic, tier1=tiers[0],
                             tier2=tiers[1], tier3=tiers[2]),
        effects_after=(Effect(text=text),) if text else (),
    )


def monster_as_shown(monster: Monster, characteristic: str = "might", strike: bool = True) -> Monster:
    """The monster with the block's display choices written in (see the module docstring)."""
    require_monster(monster)
    chosen = _characteristic(characteristic)
    true_or_false("strike", strike)
    update: dict[str, object] = {}
    if not monster.characteristics.known and monster.characteristics[chosen] is None:
        update["characteristics"] = monster.characteristics.model_copy(
            update={chosen: monster.highest_characteristic})
    if not monster.abilities:
        update["abilities"] = (signature_ability(monster, chosen, strike),)
    if not update:
        return monster
    shown = monster.model_copy(update=update)
    shown._rules = monster.rules
    return shown


def entry_as_shown(entry: Entry) -> Monster:
    """A saved monster as the builder showed it: its saved display choices written in (`monster_as_shown`),
    named by its library name when it has none of its own."""
    if not isinstance(entry, Entry):
        raise InvalidInput("entry", entry, "a library Entry (see load_entry or load_library)")
    shown = monster_as_shown(entry.monster, entry.characteristic, entry.strike)
    if shown.name.strip():
        return shown
    named = shown.model_copy(update={"name": entry.name})
    named._rules = shown.rules
    return named


def library_as_shown(folder: str | Path | None = None) -> tuple[list[Monster], list[str]]:
    """Every monster of a library folder as the builder showed it (`entry_as_shown`), and each file that did
    not load with its reason, so the pages that list saved monsters all show the same blocks."""
    contents = load_library(folder)
    return ([entry_as_shown(e) for e in contents.entries],
            [f"{file} ({reason})" for file, reason in contents.problems])


def _signature_roll(monster: Monster) -> Ability | None:
    return next((a for a in monster.abilities if a.cost == "signature" and a.power_roll is not None), None)


def shown_characteristic(monster: Monster) -> str:
    """The characteristic a block marks as the highest when it is given no choice: the one the monster's
    signature ability rolls with, if the monster has a value for it (`monster_as_shown` writes the choice
    there); else the first holding the monster's top value when that is at least the formulas' highest;
    else might (a bare formula monster, as the builder starts)."""
    require_monster(monster)
    values = {name: value for name, value in monster.characteristics.items() if value is not None}
    signature = _signature_roll(monster)
    if signature is not None and signature.power_roll is not None:
        rolled = [c for c in signature.power_roll.characteristics if c in values]
        if rolled:
            return max(rolled, key=lambda c: values[c])
    if values and max(values.values()) >= monster.highest_characteristic:
        top = max(values.values())
        return next(name for name in CHARACTERISTICS if values.get(name) == top)
    return "might"


def shown_strike(monster: Monster) -> bool:
    """Whether the monster's signature ability is a strike when a block is given no choice: its signature
    ability's "Strike" keyword when it has one (`monster_as_shown` writes the choice there), else a strike."""
    require_monster(monster)
    signature = _signature_roll(monster)
    return True if signature is None else any(k.strip().lower() == "strike" for k in signature.keywords)
