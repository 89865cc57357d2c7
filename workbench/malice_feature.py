"""Malice features as the book prints them: the basic ones every monster has, the solo ones, and the advice.

The text and the numbers inside it (Malicious Strike's 5+ cost and its "three times the highest
characteristic" cap, Solo Action's 5, the 2–3 / 5 / 7–10 advice) live in `data/malice-features.toml`, so a
Director reads the book's words on the stat block and a variant changes one number in one place. The file
is validated when loaded and every problem is reported at once (`RulesetError`).

A Malice feature is a `workbench.monster.Trait(name, text, cost)`; `cost` is the least it costs (5 for
Malicious Strike's "5+").
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from functools import cache
from numbers import Integral
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from workbench.datafile import load_toml_model
from workbench.errors import InvalidInput
from workbench.monster import Monster, Trait
from workbench.ruleset import DATA_DIR

__all__ = [
    "MALICE_FEATURES_PATH",
    "FeatureBook",
    "basic_malice_features",
    "cost_advice",
    "feature_book",
    "load_feature_book",
    "malicious_strike_extra_damage",
    "malicious_strike_range",
    "solo_action",
]

MALICE_FEATURES_PATH = DATA_DIR / "malice-features.toml"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FeatureEntry(_Frozen):
    """One Malice feature of the book: its name, least cost, whether more can be spent, its text."""

    name: str = Field(min_length=1)
    cost: int = Field(ge=0)
    variable_cost: bool
    text: str = Field(min_length=1)

    def as_trait(self) -> Trait:
        return Trait(name=self.name, text=self.text, cost=self.cost)

    @property
    def cost_label(self) -> str:
        """The cost as the book prints it: "3 Malice", "5+ Malice"."""
        return f"{self.cost}{'+' if self.variable_cost else ''} Malice"


class BasicMalice(_Frozen):
    section: str
    intro: str
    timing: str
    features: tuple[FeatureEntry, ...] = Field(min_length=1)


class MaliciousStrike(_Frozen):
    name: str
    base_cost: int = Field(gt=0)
    extra_damage_per_malice: int = Field(gt=0)
    maximum_multiple: int = Field(ge=1)
    not_two_rounds_in_a_row: bool


class SoloTrait(_Frozen):
    name: str = Field(min_length=1)
    only_if_missing: bool
    text: str = Field(min_length=1)

    def as_trait(self) -> Trait:
        return Trait(name=self.name, text=self.text)


class InstantSolo(_Frozen):
    section: str
    intro: str
    from_organizations: tuple[str, ...] = Field(min_length=1)
    ev_multiplier: Decimal = Field(gt=0)
    stamina_multiplier: Decimal = Field(gt=0)
    traits: tuple[SoloTrait, ...] = Field(min_length=1)
    malice_feature: FeatureEntry


class VillainSlot(_Frozen):
    key: str = Field(min_length=1)
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class VillainActions(_Frozen):
    section: str
    organizations: tuple[str, ...] = Field(min_length=1)
    count: int = Field(gt=0)
    rules: tuple[str, ...] = Field(min_length=1)
    summary: str
    slots: tuple[VillainSlot, ...] = Field(min_length=1)


class CostBand(_Frozen):
    low: int = Field(ge=0)
    high: int = Field(ge=0)

    @property
    def label(self) -> str:
        return f"{self.low}" if self.low == self.high else f"{self.low} to {self.high}"


class Advice(_Frozen):
    section: str
    text: str
    features: int = Field(gt=0)
    features_with_several_types: int = Field(gt=0)
    bands: tuple[CostBand, ...] = Field(min_length=1)


class FeatureBook(_Frozen):
    """Everything in `data/malice-features.toml`, validated as a whole."""

    basic_malice: BasicMalice
    malicious_strike: MaliciousStrike
    instant_solo: InstantSolo
    villain_actions: VillainActions
    advice: Advice

    @model_validator(mode="after")
    def _consistent(self) -> FeatureBook:
        problems: list[str] = []
        names = [f.name for f in self.basic_malice.features]
        if len(set(names)) != len(names):
            problems.append("basic_malice.features: names must be unique")
        strike = [f for f in self.basic_malice.features if f.name == self.malicious_strike.name]
        if not strike:
            problems.append(f"basic_malice.features: no feature named {self.malicious_strike.name!r}")
        elif strike[0].cost != self.malicious_strike.base_cost or not strike[0].variable_cost:
            problems.append("malicious_strike.base_cost must equal its feature's cost, marked variable_cost")
        if self.villain_actions.count != len(self.villain_actions.slots):
            problems.append("villain_actions: count must equal the number of slots")
        keys = [s.key for s in self.villain_actions.slots]
        if len(set(keys)) != len(keys):
            problems.append("villain_actions.slots: keys must be unique")
        for i, band in enumerate(self.advice.bands):
            if band.low > band.high:
                problems.append(f"advice.bands.{i}: low must not exceed high")
        highs = [b.high for b in self.advice.bands]
        lows = [b.low for b in self.advice.bands]
        if any(lo <= hi for lo, hi in zip(lows[1:], highs[:-1], strict=False)):
            problems.append("advice.bands: bands must rise and must not overlap")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def load_feature_book(path: str | Path) -> FeatureBook:
    """Load and validate a Malice features file; every bad entry is reported in one `RulesetError`."""
    return load_toml_model(FeatureBook, path)


@cache
def feature_book() -> FeatureBook:
    """The book's Malice features, solo traits, villain action rules and advice (loaded once)."""
    return load_feature_book(MALICE_FEATURES_PATH)


def basic_malice_features() -> tuple[Trait, ...]:
    """The Malice features every monster has: Brutal Effectiveness (3) and Malicious Strike (5+)."""
    return tuple(f.as_trait() for f in feature_book().basic_malice.features)


def solo_action() -> Trait:
    """The Malice feature an instant solo gains: Solo Action (5 Malice)."""
    return feature_book().instant_solo.malice_feature.as_trait()


def _check_monster(monster: Any) -> Monster:
    if not isinstance(monster, Monster):
        raise InvalidInput("monster", monster, "a Monster (from build_monster)")
    return monster


def malicious_strike_range(monster: Monster) -> tuple[int, int]:
    """Malicious Strike's extra damage for this monster: from its highest characteristic to three times it.

    "Their next strike deals extra damage to one target equal to the monster's highest characteristic
    score ... (to a maximum of three times the monster's highest characteristic)."
    """
    monster = _check_monster(monster)
    rule = feature_book().malicious_strike
    low = monster.highest_characteristic
    return low, low * rule.maximum_multiple


def malicious_strike_extra_damage(monster: Monster, malice: int) -> int:
    """The extra damage Malicious Strike deals when `malice` Malice is spent on it.

    5 Malice gives the highest characteristic; each further Malice adds 1, up to three times the highest
    characteristic (Malice spent beyond that adds nothing). Fewer than 5 Malice cannot buy the feature.
    """
    monster = _check_monster(monster)
    rule = feature_book().malicious_strike
    if isinstance(malice, bool) or not isinstance(malice, Integral) or malice < rule.base_cost:
        raise InvalidInput("malice", malice, f"a whole number of Malice from {rule.base_cost} upwards")
    low, high = malicious_strike_range(monster)
    return min(low + (int(malice) - rule.base_cost) * rule.extra_damage_per_malice, high)


def _cost_of(item: Any) -> int:
    cost = item.cost if isinstance(item, Trait) else item
    if isinstance(cost, bool) or not isinstance(cost, Integral) or cost < 0:
        raise InvalidInput(
            "costs", item, "whole numbers of Malice from 0 upwards (or Traits that have a cost)"
        )
    return int(cost)


def cost_advice(costs: Iterable[int | Trait], monster_types: int = 1) -> list[str]:
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
    advice = feature_book().advice
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
