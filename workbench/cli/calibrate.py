"""`workbench calibrate PATH`: how close the core formulas come to a folder of published stat blocks.

PATH is a folder searched recursively for Steel Compendium JSON stat blocks (or one .json file). The fit is
for the core ruleset as written; a minion's EV is compared as printed (the EV of four minions).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.bestiary import load_bestiary
from workbench.calibration import HEADLINE_QUANTITIES, QUANTITIES, Fit, calibrate, fit_report
from workbench.cli import emit

__all__ = ["register", "run", "calibration_payload", "calibration_text"]

LABELS = {
    "ev": "EV",
    "stamina": "Stamina",
    "free_strike": "Free strike",
    "highest_characteristic": "Highest characteristic",
    "damage_tier1": "Signature damage, tier 1",
    "damage_tier2": "Signature damage, tier 2",
    "damage_tier3": "Signature damage, tier 3",
}


def existing_path(text: str) -> Path:
    """argparse type for a folder or file that exists."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(
            f"got {text!r} (no such file or folder); accepts a folder of stat block JSON files or one .json file"
        )
    return path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="fit of the core formulas against published stat blocks (a folder, searched recursively)"
    )
    parser.add_argument("path", metavar="PATH", type=existing_path, help="folder of stat block JSON files")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def _figures(f: Fit) -> dict[str, float | None]:
    d = f.as_dict()
    return {k: d[k] for k in ("exact_rate", "mean_abs_error", "median_abs_error")}  # type: ignore[misc]


SHORT = {"ev": "EV", "stamina": "Stamina", "free_strike": "Free str.", "highest_characteristic": "High. char.",
         "damage_tier1": "Dmg t1", "damage_tier2": "Dmg t2", "damage_tier3": "Dmg t3"}


def calibration_payload(path: str | Path) -> tuple[dict, dict[str, Fit], dict[str, dict[str, dict[str, Fit]]]]:
    """The JSON object `--json` prints, the full fit per quantity, and the fit per organization and per role
    (for the text view)."""
    bestiary = load_bestiary(path)
    results = calibrate(bestiary.monsters)
    empty = {q: Fit(0, 0, None, None, None, None, 0) for q in QUANTITIES}
    report = fit_report(results).get("all") or empty
    groups = {by: fit_report(results, by=by) for by in ("organization", "role")}
    payload = {
        "parsed": len(bestiary.monsters),
        "failed": [{"file": f.file, "reason": f.reason} for f in bestiary.failures],
        "fit": {q: _figures(report[q]) for q in HEADLINE_QUANTITIES},
    }
    return payload, report, groups


def _cell(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:.0%}" if percent else f"{value:.2f}"


def _group_lines(by: str, groups: dict[str, dict[str, Fit]]) -> list[str]:
    lines = ["", f"By {by}: exact matches / mean |error| per number",
             f"{'':<13}{'n':>4}" + "".join(f"{SHORT[q]:>13}" for q in QUANTITIES)]
    for group, per in groups.items():
        cells = []
        for q in QUANTITIES:
            f = per[q].as_dict()
            cells.append(f"{_cell(f['exact_rate'], True)}/{_cell(f['mean_abs_error'])}")
        lines.append(f"{group:<13}{per[QUANTITIES[0]].count:>4}" + "".join(f"{c:>13}" for c in cells))
    return lines


def calibration_text(payload: dict, report: dict[str, Fit], path: str | Path,
                     groups: dict[str, dict[str, dict[str, Fit]]] | None = None) -> str:
    lines = [
        f"Read {payload['parsed']} stat block(s) from {path}; {len(payload['failed'])} file(s) failed.",
        "Core ruleset as written; a minion's EV compared as printed (the EV of four minions).",
        "",
        f"{'Number':<27}{'compared':>9}{'exact':>8}{'mean |err|':>12}{'median |err|':>14}{'mean bias':>11}",
    ]
    for quantity in QUANTITIES:
        f = report[quantity].as_dict()
        lines.append(
            f"{LABELS[quantity]:<27}{f['count']:>9}{_cell(f['exact_rate'], True):>8}"
            f"{_cell(f['mean_abs_error']):>12}{_cell(f['median_abs_error']):>14}{_cell(f['mean_residual']):>11}"
        )
    lines.append("(error = predicted − printed; a positive bias means the formula runs high)")
    for by, per_group in (groups or {}).items():
        if per_group:
            lines += _group_lines(by, per_group)
    if payload["failed"]:
        lines += ["", "Files that did not load:"]
        lines += [f"  {f['file']}: {f['reason']}" for f in payload["failed"]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    payload, report, groups = calibration_payload(args.path)
    emit(payload, args.json, "" if args.json else calibration_text(payload, report, args.path, groups))
