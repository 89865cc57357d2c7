"""Malice features as the book prints them: the basic ones every monster has, the solo ones, and the advice.

The text and the numbers inside it (Malicious Strike's 5+ cost and its "three times the highest
characteristic" cap, Solo Action's 5, the 2–3 / 5 / 7–10 advice) live in `data/malice-features.toml`, so a
Director reads the book's words on the stat block and a variant changes one number in one place. The file
is validated when loaded and every problem is reported at once (`RulesetError`).

A monster carries a feature as a `workbench.model.Trait(name, text, cost)` (`Trait.from_book`); `cost` is the
least it costs (5 for Malicious Strike's "5+"). What the features do with a monster's numbers is
`workbench.fight.malice_features`'s; this module only reads the book.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path

from pydantic import Field, model_validator

from workbench.frozen import Frozen
from workbench.rules.datafile import load_toml_model
from workbench.rules.ruleset import DATA_DIR

__all__ = [
    "MALICE_FEATURES_PATH",
    "FeatureBook",
    "feature_book",
    "load_feature_book",
    "FeatureEntry",
    "SoloTrait",
]

MALICE_FEATURES_PATH = DATA_DIR / "malice-features.toml"


class FeatureEntry(Frozen):
    """One Malice feature of the book: its name, least cost, whether more can be spent, its text."""

    name: str = Field(min_length=1)
    cost: int = Field(ge=0)
    variable_cost: bool
    text: str = Field(min_length=1)

    @property
    def cost_label(self) -> str:
        """The cost as the book prints it: "3 Malice", "5+ Malice"."""
        return f"{self.cost}{'+' if self.variable_cost else ''} Malice"


class BasicMalice(Frozen):
    section: str
    intro: str
    timing: str
    features: tuple[FeatureEntry, ...] = Field(min_length=1)


class MaliciousStrike(Frozen):
    name: str
    base_cost: int = Field(gt=0)
    extra_damage_per_malice: int = Field(gt=0)
    maximum_multiple: int = Field(ge=1)
    not_two_rounds_in_a_row: bool


class SoloTrait(Frozen):
    name: str = Field(min_length=1)
    only_if_missing: bool
    text: str = Field(min_length=1)


class InstantSolo(Frozen):
    section: str
    intro: str
    from_organizations: tuple[str, ...] = Field(min_length=1)
    ev_multiplier: Decimal = Field(gt=0)
    stamina_multiplier: Decimal = Field(gt=0)
    traits: tuple[SoloTrait, ...] = Field(min_length=1)
    malice_feature: FeatureEntry


class VillainSlot(Frozen):
    key: str = Field(min_length=1)
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class VillainActions(Frozen):
    section: str
    organizations: tuple[str, ...] = Field(min_length=1)
    count: int = Field(gt=0)
    rules: tuple[str, ...] = Field(min_length=1)
    summary: str
    slots: tuple[VillainSlot, ...] = Field(min_length=1)


class CostBand(Frozen):
    low: int = Field(ge=0)
    high: int = Field(ge=0)

    @property
    def label(self) -> str:
        return f"{self.low}" if self.low == self.high else f"{self.low} to {self.high}"


class Advice(Frozen):
    section: str
    text: str
    features: int = Field(gt=0)
    features_with_several_types: int = Field(gt=0)
    bands: tuple[CostBand, ...] = Field(min_length=1)


class FeatureBook(Frozen):
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
