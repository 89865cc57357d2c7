"""`workbench encounter FILE`: an encounter file's EV, band, Victories and every broken guideline."""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from workbench.cli import emit
from workbench.encounter.encounter import Check, EncounterReport, load_encounter, report
from workbench.encounter.party import format_number

__all__ = ["register", "run", "report_payload", "report_text", "checks_payload"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "encounter", help="EV, difficulty, Victories and broken guidelines of a saved encounter"
    )
    parser.add_argument("file", metavar="FILE", help="an encounter JSON file saved by the workbench")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def _number(value: Fraction) -> int | float:
    """A whole number as an int; a minion's quarter EV as its (exact) float."""
    return value.numerator if value.denominator == 1 else float(value)


def report_payload(name: str, r: EncounterReport) -> dict[str, Any]:
    return {
        "name": name,
        "total_ev": _number(r.total_ev),
        "creature_ev": _number(r.creature_ev),
        "terrain_ev": _number(r.terrain_ev),
        "encounter_strength": _number(r.budget.encounter_strength),
        "hero_strength": _number(r.budget.hero_strength),
        "band": r.band,
        "difficulty": r.difficulty,
        "victories": r.victories,
        "objective_mode": r.outcome.mode,
        "alternatives": [
            {"key": a.key, "name": a.name, "difficulty": a.difficulty, "victories": a.victories}
            for a in r.outcome.alternatives
        ],
        "broken": checks_payload(r.broken),
    }


def checks_payload(checks: Iterable[Check]) -> list[dict[str, Any]]:
    """Guidelines as JSON: the stable key, the title, the rule's section and words, and this case's detail."""
    return [
        {"key": c.key, "title": c.title, "section": c.section, "rule": c.rule, "detail": c.detail}
        for c in checks
    ]


def report_text(name: str, r: EncounterReport) -> str:
    lines = [
        f"{name or 'Encounter'}: EV {format_number(r.total_ev)} against encounter strength "
        f"{format_number(r.budget.encounter_strength)} → {r.band}",
    ]
    if r.difficulty != r.band:
        lines.append(f"Objectives make it {r.difficulty}: " + "; ".join(r.outcome.notes))
    lines.append(f"Victories: {r.victories}")
    for a in r.outcome.alternatives:
        lines.append(f"- alternative objective {a.name}: {a.difficulty}, {a.victories} Victories")
    if r.broken:
        lines.append("")
        lines.append(f"{len(r.broken)} guideline(s) broken:")
        for c in r.broken:
            lines.append(f"- {c.title} ({c.detail})")
            lines.append(textwrap.indent(textwrap.fill(f'"{c.rule}" ({c.section})', 100), "    "))
    else:
        lines.append("Every guideline is kept.")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    encounter = load_encounter(args.file)
    r = report(encounter)
    emit(report_payload(encounter.name, r), args.json, report_text(encounter.name, r))
