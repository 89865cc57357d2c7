"""The Ruleset: every table and modifier the monster formulas use, loaded from a file in `data/`.

Rules are data so a Director can copy `data/rulesets/core.toml`, change one number (a solo Stamina
modifier of 4, say) and compare the results side by side; nothing in the formulas is a module constant.
Decimal numbers are read as `Decimal`, never as binary floats, so every rounding is exact.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from workbench.arguments import checked, checked_methods
from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.rules.datafile import load_toml_model, validate_data

__all__ = ["Ruleset", "Role", "Organization", "core_ruleset", "load_ruleset", "DATA_DIR"]


def _data_dir() -> Path:
    """`data/` of a source checkout (editable install), else the copy a wheel installs as `workbench/_data`."""
    package = Path(__file__).resolve().parents[1]  # workbench/
    checkout = package.parent / "data"
    return checkout if (checkout / "rulesets").is_dir() else package / "_data"


DATA_DIR = _data_dir()
CORE_RULESET_PATH = DATA_DIR / "rulesets" / "core.toml"

Positive = Field(gt=0)


class _Frozen(Frozen):
    model_config = ConfigDict(defer_build=True)  # schema built on first use: faster import


class Formulas(_Frozen):
    """The constant terms of the EV, Stamina and damage equations."""

    ev_per_level: int = Field(gt=0)
    ev_base: int = Field(ge=0)
    stamina_per_level: int = Field(gt=0)
    extra_stamina_per_level: int = Field(ge=0)
    extra_stamina_base: int = Field(ge=0)
    damage_base: int = Field(ge=0)
    minions_per_ev: int = Field(gt=0)


class TierModifiers(_Frozen):
    tier1: Decimal = Positive
    tier2: Decimal = Positive
    tier3: Decimal = Positive


class Characteristic(_Frozen):
    base: int = Field(ge=0)
    maximum: int = Field(gt=0)
    potency_maximum: int = Field(gt=0)


class Options(_Frozen):
    """Switches for the places where the text leaves room; the core ruleset keeps the text as written."""

    halved_damage_rounding: Literal["up", "down"]
    minion_strike_adds_characteristic: bool
    extra_stamina_for_minions: bool
    # "increase their potency values at all tiers by 1 (to a maximum of 6)": "own" reads it as an increase of
    # its own, on potencies based on the characteristic before the leader/solo +1 (4/5/6 at level 10 and up,
    # as the published level 10+ leaders and solos print); "shared" as the same +1 the highest
    # characteristic got (3/4/5 there). Both give the same potencies at levels 1-9.
    leader_potency_increase: Literal["own", "shared"] = "own"


class Echelon(_Frozen):
    echelon: int = Field(gt=0)
    first_level: int = Field(gt=0)


class TargetFactor(_Frozen):
    offset: int
    factor: Decimal = Positive


class Role(_Frozen):
    """A row of the Role and Damage Modifier Table."""

    stamina_modifier: int
    damage_modifier: int
    description: str


class Organization(_Frozen):
    """A row of the Organization Modifier Table, with the organization's own row of the role table."""

    ev_modifier: Decimal = Positive
    stamina_modifier: Decimal = Positive
    needs_role: bool
    role_stamina_modifier: int
    role_damage_modifier: int
    halves_damage: bool
    expected_targets: int = Field(gt=0)
    characteristic_bonus: int = Field(ge=0)
    description: str


@checked_methods
class Ruleset(_Frozen):
    """All the numbers of "Adjusting Monster Levels"; validated as a whole when loaded."""

    name: str = Field(min_length=1)
    description: str = ""
    formulas: Formulas
    tiers: TierModifiers
    characteristic: Characteristic
    options: Options
    echelons: tuple[Echelon, ...] = Field(min_length=1)
    target_factors: tuple[TargetFactor, ...] = Field(min_length=1)
    roles: dict[str, Role] = Field(min_length=1)
    organizations: dict[str, Organization] = Field(min_length=1)

    @model_validator(mode="after")
    def _tables_are_consistent(self) -> Ruleset:
        problems: list[str] = []
        levels = [e.first_level for e in self.echelons]
        if levels[0] != 1:
            problems.append("echelons: the first echelon must begin at level 1")
        if levels != sorted(set(levels)):
            problems.append("echelons: first_level must rise strictly from one echelon to the next")
        offsets = [t.offset for t in self.target_factors]
        if 0 not in offsets:
            problems.append("target_factors: needs an entry with offset 0 (the expected target count)")
        if offsets != sorted(set(offsets)):
            problems.append("target_factors: offsets must rise strictly")
        for key in list(self.roles) + list(self.organizations):
            if key != key.strip().lower():
                problems.append(f"{key!r}: role and organization names are written in lower case")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    # Exact views of the decimal tables, used by the formulas.
    def tier_modifier(self, tier: int) -> Fraction:
        if tier not in (1, 2, 3):
            raise InvalidInput("tier", tier, "a tier of a power roll: 1, 2 or 3")
        return Fraction(getattr(self.tiers, f"tier{tier}"))

    def takes_extra_stamina(self, organization: str) -> bool:
        """Whether extra Stamina applies to this organization: every one but minions, and minions too when
        the ruleset's option says so (the one place this rule is written)."""
        return organization != "minion" or self.options.extra_stamina_for_minions

    def echelon_of(self, level: int) -> int:
        """Echelon of a level: the last echelon whose first level is at or below it."""
        echelons = [e.echelon for e in self.echelons if e.first_level <= level]
        if not echelons:
            raise InvalidInput("level", level, f"a level from {min(e.first_level for e in self.echelons)} upwards")
        return max(echelons)

    def updated(self, changes: dict[str, Any]) -> Ruleset:
        """A copy with `changes` merged in (nested dicts), validated like a file.

        >>> core_ruleset().updated({"organizations": {"solo": {"stamina_modifier": 4}}}).name
        'core (changed)'
        """
        data = self.model_dump()
        _merge(data, changes)
        if "name" not in changes:
            data["name"] = f"{self.name} (changed)"
        return ruleset_from_dict(data, source=f"changes to {self.name}")


def _merge(into: dict[str, Any], changes: dict[str, Any]) -> None:
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def ruleset_from_dict(data: dict[str, Any], source: str = "ruleset") -> Ruleset:
    """Validate a ruleset given as plain data; every bad entry is reported in one RulesetError."""
    return validate_data(Ruleset, data, source)


@checked
def load_ruleset(path: str | Path) -> Ruleset:
    """Load and validate a ruleset TOML file (decimals read exactly)."""
    return load_toml_model(Ruleset, path)


@cache
def core_ruleset() -> Ruleset:
    """The rules as written (`data/rulesets/core.toml`), loaded once."""
    return load_ruleset(CORE_RULESET_PATH)
