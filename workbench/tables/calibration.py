"""The calibration as pandas frames: published monsters, predictions beside printed numbers, fit, variants.

The numbers come from `workbench.calibration.fit` (exact); floats appear here only for the fit figures, which
are ratios and averages meant for reading and plotting.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from workbench.calibration.fit import QUANTITIES, MonsterCalibration, VariantFit, best_variant, fit_report
from workbench.formats.bestiary import PublishedMonster

__all__ = [
    "published_table",
    "comparison_table",
    "calibration_table",
    "fit_table",
    "variant_table",
]


def published_table(monsters: Iterable[PublishedMonster]) -> pd.DataFrame:
    """One row per published stat block: its printed numbers (a minion's EV is the EV of four)."""
    rows = []
    for m in monsters:
        damage = m.signature.damage if m.signature and m.signature.damage else (None, None, None)
        rows.append({
            "name": m.name,
            "file": m.file,
            "level": m.level,
            "organization": m.organization,
            "role": m.role,
            "ev": m.ev,
            "stamina": m.stamina,
            "free_strike": m.free_strike,
            "highest_characteristic": m.highest_characteristic,
            "damage_tier1": damage[0],
            "damage_tier2": damage[1],
            "damage_tier3": damage[2],
            "signature": m.signature.name if m.signature else None,
            "target": m.signature.target if m.signature else None,
        })
    frame = pd.DataFrame(rows, columns=[
        "name", "file", "level", "organization", "role", "ev", "stamina", "free_strike",
        "highest_characteristic", "damage_tier1", "damage_tier2", "damage_tier3", "signature", "target",
    ])
    return frame.astype({"role": "object"})


def comparison_table(results: Iterable[MonsterCalibration]) -> pd.DataFrame:
    """Long form: one row per monster × number, with predicted, printed and residual (predicted − printed)."""
    rows = [
        {
            "name": c.name,
            "level": c.level,
            "organization": c.organization,
            "role": c.role,
            "quantity": c.quantity,
            "predicted": c.predicted,
            "printed": c.printed,
            "residual": c.residual,
            "note": c.note,
        }
        for r in results
        for c in r.comparisons
    ]
    columns = ["name", "level", "organization", "role", "quantity", "predicted", "printed", "residual", "note"]
    return pd.DataFrame(rows, columns=columns).astype({"role": "object"})


def calibration_table(results: Iterable[MonsterCalibration], quantities: Sequence[str] = QUANTITIES) -> pd.DataFrame:
    """Wide form: one row per monster; for each number a `<number> predicted`, `printed`, `residual` column."""
    rows = []
    for r in results:
        p = r.published
        row: dict[str, object] = {
            "name": p.name, "level": p.level, "organization": p.organization, "role": p.role,
            "targets": r.targets,
        }
        for q in quantities:
            c = r.comparison(q)
            row[f"{q} predicted"] = c.predicted if c else None
            row[f"{q} printed"] = c.printed if c else None
            row[f"{q} residual"] = c.residual if c else None
        rows.append(row)
    return pd.DataFrame(rows).astype({"role": "object"})


def fit_table(results: Iterable[MonsterCalibration], by: str = "all",
              quantities: Sequence[str] = QUANTITIES) -> pd.DataFrame:
    """One row per group × number: count, exact matches, exact rate, mean and median |error|, mean residual."""
    rows = []
    for group, per in fit_report(list(results), by=by, quantities=quantities).items():
        for quantity, f in per.items():
            rows.append({by: group, "quantity": quantity, "exact": f.exact, **f.as_dict()})
    columns = [by, "quantity", "count", "exact", "exact_rate", "mean_abs_error", "median_abs_error",
               "mean_residual"]
    return pd.DataFrame(rows, columns=columns)


def variant_table(fits: Sequence[VariantFit], quantities: Sequence[str] = QUANTITIES) -> pd.DataFrame:
    """One row per variant: its three switches, exact rate and mean |error| per number, the pooled totals,
    and which row fits best (`best`)."""
    best = best_variant(fits).variant if fits else None
    rows = []
    for vf in fits:
        v = vf.variant
        row: dict[str, object] = {
            "halved_damage_rounding": v.halved_damage_rounding,
            "minion_strike_adds_characteristic": v.minion_strike_adds_characteristic,
            "extra_stamina": v.extra_stamina,
            "as_written": vf is fits[0],
        }
        for q in quantities:
            d = vf.fits[q].as_dict()
            row[f"{q} exact_rate"] = d["exact_rate"]
            row[f"{q} mean_abs_error"] = d["mean_abs_error"]
        row["exact_matches"] = vf.overall.exact
        row["compared"] = vf.overall.count
        row["total_abs_error"] = vf.overall.total_abs_error
        row["best"] = v == best
        rows.append(row)
    return pd.DataFrame(rows)
