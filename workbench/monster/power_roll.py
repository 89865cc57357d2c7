"""Power-roll math: the exact odds of each tier and the expected damage of an ability per use.

A Director weighing an ability wants to know how often it lands its tier 3 and what it deals on average, with
and without an edge or a bane; no Draw Steel tool shows this. The answer is
exact: the 100 equally likely outcomes of two d10s are counted, and the result is a `Fraction`, never a float
(RULES-READINGS.md, "Monster numbers": exact arithmetic, never binary floats).

The rules, and where they come from
-----------------------------------
The rules text in ``data/rules/`` does not hold the power-roll rules; it points to the core book:
"Power rolls, edges and banes, Recoveries, respites, Victories, ...: Chapter 1: The Basics"
(monster-basics.txt, "Other Sections"). Its only other words on them are the "critical hit" a rolled ability
can score ("If a minion squad scores a critical hit with their signature ability ...", "Using Minions";
"there's no chance of a creature rolling a critical hit" with a free strike). RULES-READINGS.md says nothing
about power rolls. So the rules used here are the core book's power-roll rules, quoted:

- "2d10 + bonus; 11 or less is tier 1, 12–16 tier 2, 17 or more tier 3"
- "a natural 19 or 20 (the two dice) is always tier 3"
- "edges and banes count at most two each and cancel one for one"
- "a net single edge adds 2 to the roll, a net single bane subtracts 2"
- "a net double edge raises the tier by one and a net double bane lowers it by one (no ±2 then), between
  tier 1 and tier 3"

Readings taken where those words leave a choice
-----------------------------------------------
1. **A double bane does not lower a natural 19 or 20; the critical is applied last.** The issue says a
   natural 19 or 20 is "always tier 3", and "always" admits no exception for the double bane's shift, so the
   order is: tier from the total (with a single edge's or bane's ±2), then a double edge's or bane's shift of
   one tier (clamped to tier 1..3), then a natural 19 or 20 makes it tier 3 whatever came before. (The other
   order, critical first and then the shift, would turn a double-baned natural 20 into tier 2.) The Steel
   Compendium's Director Reference (a third-party summary of the core book, not part of data/rules)
   agrees: a natural 19–20 is an automatic tier 3 regardless of modifiers.
2. **"Cancel one for one" is the difference.** The net count is ``edges - banes`` after each is capped at two
   (values outside 0–2 are refused, not capped): two edges and one bane leave a net single edge; two and two
   leave nothing.
3. **"Natural" is the sum of the two dice before any bonus or edge**, so a natural 19 or 20 is 3 of the 100
   outcomes (9+10, 10+9, 10+10) at every bonus, edge and bane.

The bonus
---------
Accepted from −10 to +10 (`MIN_BONUS`, `MAX_BONUS`). A monster's power-roll bonus is its highest
characteristic, "to a maximum of +5" (monster-basics.txt, "Damage and Power Roll Tiers"); a hero's skill or
an ability can add a little more. A bonus past ±10 is far more likely a typing slip than a design (at +10
tier 1 is already out of reach), so it is refused with the range named.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from workbench.errors import InvalidInput

__all__ = [
    "MAX_BONUS",
    "MAX_EDGES_OR_BANES",
    "MIN_BONUS",
    "expected_damage",
    "roll_tier",
    "tier_odds",
]

MIN_BONUS = -10
MAX_BONUS = 10
MAX_EDGES_OR_BANES = 2

# Thresholds of the three tiers ("11 or less is tier 1, 12–16 tier 2, 17 or more tier 3").
_TIER_2_FROM = 12
_TIER_3_FROM = 17
# A natural 19 or 20 (the two dice, before anything is added) is always tier 3.
_CRITICAL_FROM = 19
# A net single edge adds 2 to the roll; a net single bane subtracts 2.
_SINGLE_EDGE_BONUS = 2

_FACES = range(1, 11)
# How many of the 100 outcomes of 2d10 give each natural sum 2..20: 1, 2, ..., 10, ..., 2, 1.
_WAYS: dict[int, int] = {natural: 10 - abs(natural - 11) for natural in range(2, 21)}
_OUTCOMES = 100

_BONUS_ACCEPTS = f"a whole number from {MIN_BONUS} to {MAX_BONUS}"
_COUNT_ACCEPTS = "a whole number from 0 to 2 (the rules count at most two edges and two banes)"


def _check_bonus(bonus: object) -> int:
    # bool is an int in Python; True as a bonus is a slip, not +1.
    if isinstance(bonus, bool) or not isinstance(bonus, int):
        raise InvalidInput("bonus", bonus, _BONUS_ACCEPTS, reason="not a whole number")
    if not MIN_BONUS <= bonus <= MAX_BONUS:
        raise InvalidInput("bonus", bonus, _BONUS_ACCEPTS, reason="out of range")
    return bonus


def _check_count(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(field, value, _COUNT_ACCEPTS, reason="not a whole number")
    if not 0 <= value <= MAX_EDGES_OR_BANES:
        raise InvalidInput(field, value, _COUNT_ACCEPTS, reason="out of range")
    return value


def _net(edges: object, banes: object) -> int:
    """Edges minus banes, each checked to be 0–2: −2 (double bane) .. +2 (double edge)."""
    return _check_count("edges", edges) - _check_count("banes", banes)


def _tier(natural: int, bonus: int, net: int) -> int:
    """The tier of one roll, already validated; the order of steps is reading 1 of the module docstring."""
    total = natural + bonus
    if abs(net) == 1:
        total += net * _SINGLE_EDGE_BONUS
    tier = 1 if total < _TIER_2_FROM else 2 if total < _TIER_3_FROM else 3
    if abs(net) == 2:
        tier = min(3, max(1, tier + net // 2))
    if natural >= _CRITICAL_FROM:
        tier = 3
    return tier


def roll_tier(natural: int, bonus: int, edges: int = 0, banes: int = 0) -> int:
    """The tier (1, 2 or 3) of one power roll whose two d10s sum to `natural` (2–20).

    The "how was this computed" view for a single roll: the same steps `tier_odds` counts over all 100
    outcomes. See the module docstring for the rules and the readings taken.
    """
    if isinstance(natural, bool) or not isinstance(natural, int) or not 2 <= natural <= 20:
        raise InvalidInput("natural", natural, "a whole number from 2 to 20 (the sum of two d10s)")
    return _tier(natural, _check_bonus(bonus), _net(edges, banes))


def tier_odds(bonus: int, edges: int = 0, banes: int = 0) -> tuple[Fraction, Fraction, Fraction]:
    """Exact probabilities of tier 1, tier 2 and tier 3 for a power roll of 2d10 + `bonus`.

    `edges` and `banes` are each 0, 1 or 2 and cancel one for one: a net single edge is +2 to the roll, a net
    single bane −2; a net double edge raises the tier by one, a net double bane lowers it by one (no ±2
    then).
    A natural 19 or 20 is always tier 3, also under a double bane (module docstring, reading 1). The three
    Fractions sum to 1. Refuses a bonus outside −10..+10 or a count outside 0–2 with `InvalidInput`.
    """
    return _odds(_check_bonus(bonus), _net(edges, banes))


@cache
def _odds(bonus: int, net: int) -> tuple[Fraction, Fraction, Fraction]:
    """`tier_odds` for checked values (21 bonuses × 5 nets at most: kept, as a stat block asks again and again)."""
    ways = [0, 0, 0]
    for natural, count in _WAYS.items():
        ways[_tier(natural, bonus, net) - 1] += count
    return (Fraction(ways[0], _OUTCOMES), Fraction(ways[1], _OUTCOMES), Fraction(ways[2], _OUTCOMES))


def _check_tiers(tiers: object) -> tuple[int, int, int]:
    accepts = (
        "three tier damages (tier 1, tier 2, tier 3), each a whole number of 0 or more, "
        "or None for no damage at that tier"
    )
    if isinstance(tiers, (str, bytes)) or not isinstance(tiers, Sequence) or len(tiers) != 3:
        raise InvalidInput("tiers", tiers, accepts, reason="not three values")
    damages: list[int] = []
    for damage in tiers:
        if damage is None:
            damages.append(0)
        elif isinstance(damage, bool) or not isinstance(damage, int):
            raise InvalidInput("tiers", tiers, accepts, reason=f"{damage!r} is not a whole number")
        elif damage < 0:
            raise InvalidInput("tiers", tiers, accepts, reason=f"{damage} is negative")
        else:
            damages.append(damage)
    return (damages[0], damages[1], damages[2])


def expected_damage(
    tiers: Sequence[int | None], bonus: int, edges: int = 0, banes: int = 0
) -> Fraction:
    """Expected damage of one use of an ability: the sum over tiers of P(tier) × that tier's damage.

    `tiers` is the ability's (tier 1, tier 2, tier 3) damage, as a stat block prints it; None means the tier
    deals no damage (it counts as 0). Damages are whole numbers, as the rules' rounding makes them; a float is
    refused so that the result stays exact. The figure is for one target: an ability with several targets
    makes one roll and deals its tier's damage to each. Refuses what `tier_odds` refuses, and a tier damage
    that is negative or not a whole number, with `InvalidInput` naming the field.
    """
    damages = _check_tiers(tiers)
    odds = tier_odds(bonus, edges, banes)
    return sum((p * d for p, d in zip(odds, damages, strict=True)), Fraction(0))
