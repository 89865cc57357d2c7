"""Weakness escalation as a DataFrame: every case of a module (grip × outcome × tag match × other source)."""

from __future__ import annotations

import pandas as pd

from workbench.homebrew.rule import FilledRule, HomebrewRule
from workbench.homebrew.weakness import OUTCOME_LABELS, weakness_cases

__all__ = ["weakness_table"]


def weakness_table(rule: FilledRule | HomebrewRule) -> pd.DataFrame:
    """One row per case; `wound` is missing (NA) where the module leaves the number to your system."""
    rows = [
        {
            "grip": c.grip.replace("_", "-"),
            "outcome": OUTCOME_LABELS[c.outcome],
            "matches_tag": c.matches_tag,
            "other_source_applied": c.other_source_applied,
            "wound": c.value,
            "escalated_by": c.escalated_by or "",
            "working": c.working,
        }
        for c in weakness_cases(rule)
    ]
    frame = pd.DataFrame(rows)
    frame["wound"] = frame["wound"].astype("Int64")
    return frame
