"""`workbench calibrate PATH`: how close the core formulas come to a folder of published stat blocks.

PATH is a folder searched recursively for Steel Compendium JSON stat blocks (or one .json file). The fit is
for the core ruleset as written; a minion's EV is compared as printed (the EV of four minions).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.calibration.fit import (
    HEADLINE_QUANTITIES,
    QUANTITIES,
    QUANTITY_LABELS,
    Fit,
    VariantFit,
    best_variant,
    calibrate,
    compare_variants,
    fit,
    fit_report,
)
from workbench.cli import emit
from workbench.formats.bestiary import Bestiary, load_bestiary
from workbench.render.calibration import figure_text

__all__ = ["register", "run", "calibration_payload", "calibration_text"]


def existing_path(text: str) -> Path:
    """argparse type for a folder or file that exists."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(
            f"got {text!r} (no such file or folder); accepts a folder of stat block JSON files or one .json file"
        )
    return path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="fit of the core formulas against published stat blocks (a folder, searched recursively)"
    )
    parser.add_argument("path", metavar="PATH", type=existing_path, help="folder of stat block JSON files")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def _figures(f: Fit) -> dict[str, float | None]:
    d = f.as_dict()
    return {k: d[k] for k in ("exact_rate", "mean_abs_error", "median_abs_error")}


SHORT = {"ev": "EV", "stamina": "Stamina", "free_strike": "Free str.", "highest_characteristic": "High. char.",
         "damage_tier1": "Dmg t1", "damage_tier2": "Dmg t2", "damage_tier3": "Dmg t3"}


def calibration_payload(bestiary: Bestiary) -> tuple[dict[str, Any], dict[str, Fit], dict[str, dict[str, dict[str, Fit]]]]:
    """The JSON object `--json` prints, the full fit per quantity, and the fit per organization and per role
    (for the text view)."""
    results = calibrate(bestiary.monsters)
    report = fit_report(results).get("all") or {q: fit(()) for q in QUANTITIES}
    groups = {by: fit_report(results, by=by) for by in ("organization", "role")}
    payload = {
        "parsed": len(bestiary.monsters),
        "failed": [{"file": f.file, "reason": f.reason} for f in bestiary.failures],
        "fit": {q: _figures(report[q]) for q in HEADLINE_QUANTITIES},
    }
    return payload, report, groups


def _group_lines(by: str, groups: dict[str, dict[str, Fit]]) -> list[str]:
    figures = (("exact", "exact_rate", True), ("mean |err|", "mean_abs_error", False),
               ("median |err|", "median_abs_error", False))
    lines = ["", f"By {by} (n: stat blocks compared)",
             f"{'':<13}{'n':>4}  {'':<13}" + "".join(f"{SHORT[q]:>12}" for q in QUANTITIES)]
    for group, per in groups.items():
        for row, (label, key, percent) in enumerate(figures):
            head = f"{group:<13}{per[QUANTITIES[0]].count:>4}" if row == 0 else " " * 17
            cells = "".join(f"{figure_text(per[q].as_dict()[key], percent):>12}" for q in QUANTITIES)
            lines.append(f"{head}  {label:<13}{cells}")
    return lines


def _variant_lines(fits: Sequence[VariantFit]) -> list[str]:
    best = best_variant(fits)
    lines = ["", "Rule variants over every compared number (the first row is the rules as written; the core ruleset "
             "itself never changes):",
             f"{'halved damage':<15}{'minion strike':<22}{'extra Stamina':<18}{'exact':>10}{'total |err|':>13}"]
    for vf in fits:
        v = vf.variant
        note = "  (as written)" if vf is fits[0] else ""
        note += "  <- fits best" if vf is best else ""
        lines.append(
            f"{'rounded ' + v.halved_damage_rounding:<15}"
            f"{'adds characteristic' if v.minion_strike_adds_characteristic else 'no characteristic':<22}"
            f"{'every non-minion' if v.extra_stamina else 'none':<18}"
            f"{f'{vf.overall.exact}/{vf.overall.count}':>10}{vf.overall.total_abs_error:>13}{note}"
        )
    return lines


def calibration_text(payload: dict[str, Any], report: dict[str, Fit], path: str | Path,
                     groups: dict[str, dict[str, dict[str, Fit]]] | None = None,
                     variants: Sequence[VariantFit] = ()) -> str:
    lines = [
        f"Read {payload['parsed']} stat block(s) from {path}; {len(payload['failed'])} file(s) failed.",
        "Core ruleset as written; a minion's EV compared as printed (the EV of four minions).",
        "",
        f"{'Number':<27}{'compared':>9}{'exact':>8}{'mean |err|':>12}{'median |err|':>14}{'mean bias':>11}",
    ]
    for quantity in QUANTITIES:
        f = report[quantity].as_dict()
        lines.append(
            f"{QUANTITY_LABELS[quantity]:<27}{f['count']:>9}{figure_text(f['exact_rate'], True):>8}"
            f"{figure_text(f['mean_abs_error']):>12}{figure_text(f['median_abs_error']):>14}"
            f"{figure_text(f['mean_residual']):>11}"
        )
    lines.append("(error = predicted − printed; a positive bias means the formula runs high)")
    for by, per_group in (groups or {}).items():
        if per_group:
            lines += _group_lines(by, per_group)
    if variants:
        lines += _variant_lines(variants)
    if payload["failed"]:
        lines += ["", "Files that did not load:"]
        lines += [f"  {f['file']}: {f['reason']}" for f in payload["failed"]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    bestiary = load_bestiary(args.path)
    payload, report, groups = calibration_payload(bestiary)
    if args.json:
        emit(payload, True, "")
        return
    fits = compare_variants(bestiary.monsters) if bestiary.monsters else ()
    emit(payload, False, calibration_text(payload, report, args.path, groups, fits))
