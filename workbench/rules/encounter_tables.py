"""The encounter-building tables (`data/encounters.toml`), loaded and validated as one frozen model.

The budget bands, the Victories each difficulty is worth, the guidelines the encounter editor checks, the
quick method's hero slots and the ten objectives are data, so a Director can copy the file, change a number
(the stat block limit, say) and compare. Every quoted rule is kept verbatim from the rules text so a broken
guideline can be shown in the book's own words.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.rules.datafile import load_toml_model
from workbench.rules.ruleset import DATA_DIR

__all__ = [
    "DIFFICULTIES",
    "EncounterRules",
    "BandRule",
    "Guidelines",
    "GuidelineText",
    "ObjectiveRule",
    "ObjectiveCondition",
    "DefenseRule",
    "QuickDifficulty",
    "SlotValue",
    "encounter_rules",
    "load_encounter_rules",
    "check_difficulty",
]

ENCOUNTER_RULES_PATH = DATA_DIR / "encounters.toml"
DIFFICULTIES = ("trivial", "easy", "standard", "hard", "extreme")


class Strength(Frozen):
    hero_base: int = Field(ge=0)
    per_level: int = Field(gt=0)
    victories_per_extra_hero: int = Field(gt=0)
    # "Factor in Victories": the list of monsters worth the ES of two, four and six Victories
    keep_list_victories: tuple[int, ...] = (2, 4, 6)
    keep_list_rule: str = ""


class BandRule(Frozen):
    """One budget band: it ends at party ES + `upper_heroes` × one hero's ES (none for the last band)."""

    name: str
    upper_heroes: int | None = None
    upper_inclusive: bool | None = None
    victories: int = Field(ge=0)
    rule: str
    victories_rule: str


class GuidelineText(Frozen):
    """A guideline's words: one or more sentences quoted from the section, shown joined by " … "."""

    section: str
    quotes: tuple[str, ...] = Field(min_length=1)

    @property
    def rule(self) -> str:
        return " … ".join(self.quotes)


class Guidelines(Frozen):
    level_above_party: int = Field(ge=0)
    level_above_party_victories: int = Field(ge=0)
    victories_for_higher_level: int = Field(ge=0)
    solo_level_above_party: int = Field(ge=0)
    creatures_per_hero: int = Field(gt=0)
    minion_half_above_per_hero: int = Field(ge=0)
    stat_blocks: int = Field(gt=0)
    minions_per_set: int = Field(gt=0)
    minion_sets: int = Field(gt=0)
    star_share: Fraction
    small_party: int = Field(ge=0)
    large_party: int = Field(gt=0)
    group_heroes_low: int = Field(ge=0)
    group_heroes_high: int = Field(gt=0)
    groups_spread: int = Field(ge=0)
    many_victories: int = Field(ge=0)
    max_controllers: int = Field(ge=0)
    max_leaders_or_support: int = Field(ge=0)
    minion_level_within: int = Field(ge=0)
    respite_victories: tuple[int, int]
    text: dict[str, GuidelineText]


class SlotValue(Frozen):
    """How many creatures fill one hero slot (`per_slot`) or how many slots one creature fills (`slots`)."""

    per_slot: int | None = Field(default=None, gt=0)
    slots: int | None = Field(default=None, gt=0)
    per_level_above: int = Field(default=0, ge=0)
    rule: str

    @model_validator(mode="after")
    def _one_way(self) -> SlotValue:
        if (self.per_slot is None) == (self.slots is None):
            raise ValueError("give exactly one of per_slot and slots")
        return self

    def of_one(self) -> Fraction:
        """Hero slots one creature fills, before any levels above the heroes."""
        return Fraction(1, self.per_slot) if self.per_slot else Fraction(self.slots or 0)


class QuickDifficulty(Frozen):
    slots: int
    or_more: bool = False
    bonus_slot: Literal["none_above", "not_all_above"] | None = None
    min_level_offset: int | None = None
    max_level_offset: int | None = None
    solo_max_level_offset: int | None = None
    terrain_objects: tuple[int, int]
    rule: str


class Quick(Frozen):
    rule_victories: str
    slots: dict[str, SlotValue]
    difficulty: dict[str, QuickDifficulty]
    terrain_rule: str


class ObjectiveCondition(Frozen):
    """Something the Director ticks (`flag`) or counts (`allies`, `count`) that changes an objective's
    difficulty. A `defense` is one of the thing's extra defenses: its shift comes from how many are ticked
    (`ObjectiveRule.defenses`), not from itself. Conditions with the same `either` are the text's "or": one
    shift between them."""

    key: str
    label: str
    shift: int = Field(ge=-1, le=1)
    kind: Literal["flag", "allies", "count"]
    defense: bool = False
    # conditions the text joins with "or" share one name here: ticking several shifts the difficulty once
    either: str = ""
    # ticked, the objective's success is its bonus outcome too (Hold Them Off's 5-round duration)
    implies_bonus: bool = False
    # keys this condition was saved under in older files
    was: tuple[str, ...] = ()


class DefenseRule(Frozen):
    """Destroy the Thing!: the difficulty moves by how many extra defenses the thing has."""

    none_shift: int = Field(ge=-1, le=1)
    many: int = Field(gt=1)
    many_shift: int = Field(ge=-1, le=1)
    rule: str
    exclusive: tuple[tuple[str, ...], ...] = ()
    exclusive_rule: str = ""


class ObjectiveRule(Frozen):
    name: str
    difficulty_modifier: str
    success: str
    victories_text: str
    failure: str
    victories: dict[str, int]
    bonus: str | None = None
    conditions: tuple[ObjectiveCondition, ...] = ()
    defenses: DefenseRule | None = None


class ObjectiveRules(Frozen):
    thing_stamina_per_level: int = Field(gt=0)
    sturdy_thing_stamina_per_level: int = Field(gt=0)
    ward_stamina_per_level: int = Field(gt=0)
    delicate_ward_stamina_per_level: int = Field(gt=0)
    escort_reinforcement_within: int = Field(ge=0)
    hold_reinforcement_heroes: int = Field(ge=0)
    bonus_victories: int = Field(ge=0)
    bonus_min_difficulty: str
    thing_rule: str
    sturdy_rule: str
    ward_rule: str
    escort_reinforcement_rule: str
    hold_reinforcement_rule: str
    combined_rule: str
    alternative_rule: str
    solo_flee_share: Fraction
    escort_start_speeds: int = Field(gt=0)
    ward_speed: int = Field(gt=0)
    escort_enemies_not_within: int = Field(ge=0)
    complete_failures_allowed: int = Field(ge=0)
    escort_start_rule: str
    # placement, duration and counts stated in the objectives' text
    typical_duration: int = Field(default=3, gt=0)
    hold_reinforcement_distance: int = Field(default=10, ge=0)
    escort_replacements_not_within: int = Field(default=5, ge=0)
    complete_tasks_share: Fraction = Fraction(1, 2)
    long_duration: int = Field(default=5, gt=0)
    platoon_outnumber: int = Field(default=2, gt=0)
    remaining_share: Fraction = Fraction(1, 2)
    specific_foe_share: Fraction = Fraction(1, 3)
    guardian_share: Fraction = Fraction(1, 3)
    typical_duration_rule: str = ""
    hold_distance_rule: str = ""
    escort_replacements_rule: str = ""
    tasks_rule: str = ""
    failure_rule: str = ""


class EncounterRules(Frozen):
    """Every table of encounter building; validated as a whole when loaded."""

    name: str = Field(min_length=1)
    strength: Strength
    bands: tuple[BandRule, ...]
    guidelines: Guidelines
    quick: Quick
    objective_rules: ObjectiveRules
    objectives: dict[str, ObjectiveRule]

    @model_validator(mode="after")
    def _consistent(self) -> EncounterRules:
        problems: list[str] = []
        names = tuple(b.name for b in self.bands)
        if names != DIFFICULTIES:
            problems.append(f"bands: must be {', '.join(DIFFICULTIES)} in that order (got {', '.join(names)})")
        for band in self.bands[:-1]:
            if band.upper_heroes is None or band.upper_inclusive is None:
                problems.append(f"bands.{band.name}: needs upper_heroes and upper_inclusive")
        if self.bands and self.bands[-1].upper_heroes is not None:
            problems.append("bands: the last band has no upper end")
        uppers = [(b.upper_heroes, b.upper_inclusive) for b in self.bands[:-1]]
        if uppers != sorted(uppers, key=lambda u: (u[0], bool(u[1]))) or len(set(uppers)) != len(uppers):
            problems.append("bands: upper ends must rise from band to band")
        if set(self.quick.difficulty) != set(DIFFICULTIES):
            problems.append("quick.difficulty: needs one entry per difficulty")
        for key, objective in self.objectives.items():
            defense_keys = {c.key for c in objective.conditions if c.defense}
            if bool(defense_keys) != (objective.defenses is not None):
                problems.append(f"objectives.{key}: defense conditions and a defenses rule go together")
            for group in objective.defenses.exclusive if objective.defenses else ():
                if not set(group) <= defense_keys:
                    problems.append(f"objectives.{key}.defenses.exclusive: {', '.join(group)} are not all defenses")
            if set(objective.victories) != set(DIFFICULTIES) - {"trivial"}:
                problems.append(f"objectives.{key}.victories: needs easy, standard, hard and extreme")
        if self.objective_rules.bonus_min_difficulty not in DIFFICULTIES:
            problems.append("objective_rules.bonus_min_difficulty: must be a difficulty")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def band(self, name: str) -> BandRule:
        return self.bands[DIFFICULTIES.index(check_difficulty(name))]


def check_difficulty(difficulty: Any, field: str = "difficulty") -> str:
    """A difficulty name, lower-cased; anything else is refused naming the five it accepts."""
    key = difficulty.strip().lower() if isinstance(difficulty, str) else None
    if key not in DIFFICULTIES:
        raise InvalidInput(field, difficulty, "one of " + ", ".join(DIFFICULTIES))
    return key


def load_encounter_rules(path: str | Path) -> EncounterRules:
    """Load and validate an encounter-rules TOML file; every bad entry is reported in one RulesetError."""
    return load_toml_model(EncounterRules, path)


@cache
def encounter_rules() -> EncounterRules:
    """The rules as written (`data/encounters.toml`), loaded once."""
    return load_encounter_rules(ENCOUNTER_RULES_PATH)
