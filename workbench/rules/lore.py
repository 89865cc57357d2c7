"""The rules' own words a Director needs beside the builder: general keywords, free strikes, the Noncombatant.

The text lives in `data/lore/monster-basics.json`, copied from "Monster Basics" by `data/lore/extract.py`,
so no widget types a rule by hand. Role and organization descriptions are in the ruleset
(`ruleset.roles[r].description`); this module holds the rest. Validated at load; every problem at once.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import Field, ValidationError

from workbench.errors import NotFound, RulesetError
from workbench.frozen import Frozen
from workbench.io.problem import os_reason
from workbench.rules.ruleset import DATA_DIR

__all__ = [
    "Lore",
    "Keyword",
    "FreeStrikeRules",
    "Noncombatant",
    "core_lore",
    "load_lore",
    "LORE_PATH",
]

LORE_PATH = DATA_DIR / "lore" / "monster-basics.json"


class Keyword(Frozen):
    """A general creature keyword ("General Keywords") and what it means."""

    name: str = Field(min_length=1)
    meaning: str = Field(min_length=1)


class FreeStrikeRules(Frozen):
    """"Creature Free Strikes": the distances and keywords every creature's free strike has."""

    introduction: str
    melee: str
    ranged: str
    keywords_text: str
    why_static: str
    melee_minimum_distance: int = Field(gt=0)
    ranged_minimum_distance: int = Field(gt=0)
    keyword: str
    inherited_keywords: tuple[str, ...]

    def summary(self) -> str:
        """One line for a stat block: the distances and keywords, as the rules give them."""
        inherited = ", ".join(self.inherited_keywords[:-1]) + f" or {self.inherited_keywords[-1]}"
        return (
            f"melee {self.melee_minimum_distance} or the signature ability's melee distance, "
            f"ranged {self.ranged_minimum_distance} or its ranged distance (whichever is higher); "
            f"{self.keyword}, plus {inherited} if the signature ability has it"
        )


class StatField(Frozen):
    label: str
    value: str


class Noncombatant(Frozen):
    """The ready-made stat block of "Harmless Creatures", for bystanders an adventure leaves unspecified."""

    name: str
    introduction: str
    keywords: str
    level: str
    ev: str
    fields: tuple[StatField, ...]
    size_note: str

    def value(self, label: str) -> str:
        """The printed value of one field ("Stamina" -> "8")."""
        for field in self.fields:
            if field.label == label:
                return field.value
        raise NotFound("field", label, [f.label for f in self.fields], where="this stat block")


class Lore(Frozen):
    source: str
    keywords_introduction: str
    general_keywords: tuple[Keyword, ...] = Field(min_length=1)
    free_strikes: FreeStrikeRules
    noncombatant: Noncombatant

    def keyword_names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.general_keywords)

    def meaning(self, keyword: str) -> str | None:
        """The meaning of a general keyword (any case), or None for a keyword the rules don't define."""
        for k in self.general_keywords:
            if k.name.lower() == keyword.strip().lower():
                return k.meaning
        return None


def load_lore(path: str | Path = LORE_PATH) -> Lore:
    """Load and validate a lore file; a bad file raises `RulesetError` listing every problem."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesetError(str(path), [f"cannot read the file: {os_reason(exc)}"]) from None
    except ValueError as exc:
        raise RulesetError(str(path), [f"not valid JSON: {exc}"]) from None
    try:
        return Lore.model_validate(data)
    except ValidationError as exc:
        problems = [".".join(str(p) for p in e["loc"]) + f": {e['msg']}" for e in exc.errors()]
        raise RulesetError(path.name, problems) from None


@cache
def core_lore() -> Lore:
    """The rules' text as shipped in `data/lore/`, loaded once."""
    return load_lore()
