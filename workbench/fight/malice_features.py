"""The Malice features a Director spends on: the basic ones every monster has, Malicious Strike's extra
damage, the features on offer in one encounter, and what a feature and the Malice put into it must be.

Rules: "Malice" (Monster Basics), "Basic Malice Features" and "That's So Much Malice!". The features
themselves (their costs and text) come from a `FeatureBook` (`workbench.rules.feature_book`): the functions a
Director calls take one (`book`, the shipped `data/malice-features.toml` when None) and hand it on to the
helpers, which take it as given.
"""

from __future__ import annotations

from collections.abc import Iterable
from numbers import Integral
from typing import Any

from workbench.errors import InvalidInput
from workbench.model import Monster, Trait, require_monster
from workbench.rules.feature_book import FeatureBook, feature_book
from workbench.rules.limits import whole

__all__ = [
    "basic_malice_features",
    "cost_advice",
    "malicious_strike_extra_damage",
    "malicious_strike_range",
    "is_malicious_strike",
    "is_basic_feature",
    "strike_extra_damage",
    "strike_not_twice_in_a_row",
    "encounter_features",
    "check_feature",
    "check_amount",
]

def basic_malice_features(book: FeatureBook | None = None) -> tuple[Trait, ...]:
    """The Malice features every monster has: Brutal Effectiveness (3) and Malicious Strike (5+)."""
    return tuple(Trait.from_book(f) for f in (book or feature_book()).basic_malice.features)


def malicious_strike_range(monster: Monster, book: FeatureBook | None = None) -> tuple[int, int]:
    """Malicious Strike's extra damage for this monster: from its highest characteristic to three times it.

    "Their next strike deals extra damage to one target equal to the monster's highest characteristic
    score ... (to a maximum of three times the monster's highest characteristic)."
    """
    monster = require_monster(monster)
    rule = (book or feature_book()).malicious_strike
    low = monster.highest_characteristic
    return low, low * rule.maximum_multiple


def malicious_strike_extra_damage(monster: Monster, malice: int, book: FeatureBook | None = None) -> int:
    """The extra damage Malicious Strike deals when `malice` Malice is spent on it.

    5 Malice gives the highest characteristic; each further Malice adds 1, up to three times the highest
    characteristic (Malice spent beyond that adds nothing). Fewer than 5 Malice cannot buy the feature.
    """
    monster = require_monster(monster)
    return strike_extra_damage(monster.highest_characteristic, malice, book or feature_book())


def strike_extra_damage(highest_characteristic: int, malice: int, book: FeatureBook) -> int:
    """Malicious Strike's extra damage for a monster whose highest characteristic is given, for `malice` spent.

    The same rule as `malicious_strike_extra_damage`, for stat blocks that are not built Monsters (the pace
    of a fight reads published ones).
    """
    rule = book.malicious_strike
    if isinstance(malice, bool) or not isinstance(malice, Integral) or malice < rule.base_cost:
        raise InvalidInput("malice", malice, f"a whole number of Malice from {rule.base_cost} upwards")
    low, high = highest_characteristic, highest_characteristic * rule.maximum_multiple
    return min(low + (int(malice) - rule.base_cost) * rule.extra_damage_per_malice, high)


def _cost_of(item: Any) -> int:
    cost = item.cost if isinstance(item, Trait) else item
    if isinstance(cost, bool) or not isinstance(cost, Integral) or cost < 0:
        raise InvalidInput(
            "costs", item, "whole numbers of Malice from 0 upwards (or Traits that have a cost)"
        )
    return int(cost)


def cost_advice(
    costs: Iterable[int | Trait], monster_types: int = 1, book: FeatureBook | None = None
) -> list[str]:
    """Hints from "That's So Much Malice!" for the Malice features prepared for one encounter.

    `costs` are the features' (least) costs, or the features themselves (`Trait` with a cost). The advice:
    prepare three features — four when the encounter has several monster types or bands — one costing
    2 to 3 Malice, one costing 5 and one costing 7 to 10. Returns one plain-words hint for each part of the
    advice not met; an empty list means the features cover it.
    """
    if isinstance(monster_types, bool) or not isinstance(monster_types, Integral) or monster_types < 1:
        raise InvalidInput("monster_types", monster_types, "a whole number from 1 upwards")
    if isinstance(costs, (str, bytes)) or not isinstance(costs, Iterable):
        raise InvalidInput("costs", costs, "a list of whole numbers of Malice")
    values = [_cost_of(item) for item in costs]
    advice = (book or feature_book()).advice
    hints: list[str] = []
    for band in advice.bands:
        if not any(band.low <= cost <= band.high for cost in values):
            hints.append(
                f"No feature costing {band.label} Malice: \"{advice.section}\" suggests preparing one."
            )
    enough = advice.features if monster_types == 1 else advice.features_with_several_types
    if len(values) > enough:
        kinds = "one monster type" if monster_types == 1 else "several monster types or bands"
        hints.append(
            f"{len(values)} features prepared: with {kinds} you often need only {enough} "
            f"(\"{advice.section}\")."
        )
    return hints


def check_feature(feature: object, field: str = "feature") -> tuple[Trait, int]:
    """A Malice feature and its cost (a Trait's cost may be None; a Malice feature's is a whole number)."""
    if not isinstance(feature, Trait) or isinstance(feature.cost, bool) or not isinstance(feature.cost, int):
        raise InvalidInput(field, feature, "a Malice feature: a Trait with a whole-number cost")
    if feature.cost < 1:
        raise InvalidInput(field, feature, "a Malice feature: a Trait with a cost from 1 upwards")
    return feature, feature.cost


def is_malicious_strike(feature: Trait, book: FeatureBook) -> bool:
    """Malicious Strike (named in the feature book) is the one feature that takes more than its cost."""
    return feature.name.strip().lower() == book.malicious_strike.name.lower()


def strike_not_twice_in_a_row(book: FeatureBook) -> bool:
    return book.malicious_strike.not_two_rounds_in_a_row


def check_amount(feature: Trait, amount: Any, monster: Monster | None, book: FeatureBook) -> int:
    cost = feature.cost or 0
    if not is_malicious_strike(feature, book):
        if isinstance(amount, bool) or not isinstance(amount, Integral) or amount != cost:
            raise InvalidInput("amount", amount, f"exactly {cost} (the cost of {feature.name})")
        return cost
    number = whole("amount", amount, cost, accepts=f"{cost} Malice or more for {feature.name}")
    if monster is not None:
        low, high = malicious_strike_range(monster, book)
        most = cost + (high - low) // book.malicious_strike.extra_damage_per_malice
        if number > most:
            raise InvalidInput(
                "amount",
                number,
                f"{cost} to {most} Malice for this monster's {feature.name}",
                f"its extra damage stops at three times its highest characteristic ({high})",
            )
    return number


def encounter_features(
    monsters: Iterable[Monster] = (), extra: Iterable[Trait] = (), book: FeatureBook | None = None
) -> tuple[Trait, ...]:
    """The Malice features a Director can spend on in an encounter with these monsters: the basic ones every
    monster has ("Basic Malice Features"), then each monster's own from its stat block (e.g. Solo Action on an
    instant solo, or a "[Creature] Malice" feature), then `extra`. Each name once, the first one kept."""
    monsters = tuple(monsters)
    for monster in monsters:
        require_monster(monster, "monsters")
    candidates = [*basic_malice_features(book), *(f for m in monsters for f in m.malice_features), *extra]
    out: dict[str, Trait] = {}
    for feature in candidates:
        checked, _ = check_feature(feature, "features")
        out.setdefault(checked.name.strip().lower(), checked)
    return tuple(out.values())


def is_basic_feature(feature: Trait, book: FeatureBook) -> bool:
    """One of the "Basic Malice Features" every monster has (activated at the start of a monster's turn)."""
    return feature.name.strip().casefold() in {f.name.casefold() for f in basic_malice_features(book)}
