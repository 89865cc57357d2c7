"""Malice as frames: the schedule round by round, and a spending plan, for display, sorting and charts.

Every number comes from `workbench.fight.malice_schedule` and `workbench.fight.malice_plan`; this module only
lays them out in rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from workbench.fight.malice_plan import SpendingPlan
from workbench.fight.malice_schedule import MaliceRound

__all__ = ["malice_table", "plan_table", "SCHEDULE_COLUMNS", "PLAN_COLUMNS"]

SCHEDULE_COLUMNS = ("round", "heroes", "deaths", "gain", "total", "working")
PLAN_COLUMNS = ("round", "gain", "available", "bought", "spent", "left")


def malice_table(schedule: Sequence[MaliceRound]) -> pd.DataFrame:
    """One row per round: living heroes for its gain, deaths counted before it, gain, running total, working."""
    rows = [(r.round, r.heroes, r.deaths, r.gain, r.total, r.working) for r in schedule]
    return pd.DataFrame(rows, columns=list(SCHEDULE_COLUMNS))


def plan_table(plan: SpendingPlan) -> pd.DataFrame:
    """One row per round of a spending plan: on hand after the gain, what is bought, spent and left."""
    rows = [
        (
            r.round, r.gain, r.available,
            ", ".join(f"{p.feature.name} ({p.amount})" for p in r.bought),
            r.spent, r.left,
        )
        for r in plan.rounds
    ]
    return pd.DataFrame(rows, columns=list(PLAN_COLUMNS))
