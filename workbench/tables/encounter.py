"""Encounter building as pandas frames: the Encounter Strength table, a party's bands, an encounter's
creatures and its guideline checks — for display, sorting and export."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from workbench.encounter.encounter import Encounter
from workbench.encounter.party import Budget, budget, make_party
from workbench.encounter.report import EncounterReport
from workbench.numbers import format_number
from workbench.rules.encounter_tables import EncounterRules

__all__ = ["encounter_strength_table", "bands_table", "creatures_table", "checks_table"]


def encounter_strength_table(
    levels: Iterable[int] = range(1, 11),
    heroes: Iterable[int] = range(1, 9),
    rules: EncounterRules | None = None,
) -> pd.DataFrame:
    """The book's Encounter Strength Table (no Victories): one row per hero level, one column per party size."""
    levels, heroes = list(levels), list(heroes)
    data = {
        f"{n} {'Hero' if n == 1 else 'Heroes'}": [
            int(budget(make_party(heroes=n, level=level), rules=rules).encounter_strength) for level in levels
        ]
        for n in heroes
    }
    frame = pd.DataFrame(data, index=pd.Index(levels, name="Hero Level"))
    return frame


def bands_table(b: Budget) -> pd.DataFrame:
    """The five bands: whole EV totals from min to max (max missing: no upper end) and their Victories."""
    rows = [
        {
            "difficulty": band.name,
            "min EV": band.min,
            "max EV": band.max,
            "exact upper bound": None if band.upper is None else format_number(band.upper),
            "upper bound included": band.upper_inclusive if band.upper is not None else None,
            "Victories": band.victories,
        }
        for band in b.bands
    ]
    return pd.DataFrame(rows).astype({"max EV": "Int64"})


def creatures_table(encounter: Encounter) -> pd.DataFrame:
    """One row per entry: what it is, how many, one creature's EV (a minion's: the EV of four), total cost."""
    rows = [
        {
            "creature": c.label,
            "level": c.level,
            "organization": c.organization,
            "role": c.role or "",
            "count": c.count,
            "EV": c.ev,
            "cost": format_number(c.cost()),
            "star": c.star,
        }
        for c in encounter.creatures
    ]
    rows += [
        {
            "creature": t.name,
            "level": t.level,
            "organization": "dynamic terrain",
            "role": "",
            "count": 1,
            "EV": t.ev,
            "cost": str(t.ev),
            "star": False,
        }
        for t in encounter.terrain
    ]
    columns = ["creature", "level", "organization", "role", "count", "EV", "cost", "star"]
    return pd.DataFrame(rows, columns=columns)


def checks_table(r: EncounterReport) -> pd.DataFrame:
    """Every guideline: applies, kept or broken, what was found, and the rule's own words."""
    rows = [
        {
            "guideline": c.title,
            "applies": c.applies,
            "broken": c.broken,
            "detail": c.detail,
            "section": c.section,
            "rule": c.rule,
        }
        for c in r.checks
    ]
    return pd.DataFrame(rows)
