"""`workbench encounter FILE [FILE...]`: an encounter file's EV, band, Victories and every broken guideline.

Several files are a sequence of encounters before a respite: each is reported, then the Victories they are
worth together (with `--since-respite N` already earned) against "from 4 to 6 Victories' worth of combat
encounters". One file prints the encounter's object as before, with a "respite" key; several print
`{"encounters": [...], "respite": {...}}`.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Iterable
from typing import Any

from workbench.cli import emit, json_number, one_line, whole_number
from workbench.encounter.files import load_encounter
from workbench.encounter.guidelines import Check
from workbench.encounter.report import EncounterReport, report
from workbench.encounter.respite import respite_check
from workbench.numbers import format_number

__all__ = ["register", "run", "report_payload", "report_text", "checks_payload"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "encounter", help="EV, difficulty, Victories and broken guidelines of a saved encounter"
    )
    parser.add_argument(
        "file", metavar="FILE", nargs="+",
        help="an encounter JSON file saved by the workbench (several: a sequence before a respite)",
    )
    parser.add_argument(
        "--since-respite", type=whole_number, default=0, metavar="N",
        help="Victories the heroes earned since their last respite, before these encounters",
    )
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def report_payload(name: str, r: EncounterReport) -> dict[str, Any]:
    return {
        "name": name,
        "total_ev": json_number(r.total_ev),
        "creature_ev": json_number(r.creature_ev),
        "terrain_ev": json_number(r.terrain_ev),
        "encounter_strength": json_number(r.budget.encounter_strength),
        "hero_strength": json_number(r.budget.hero_strength),
        "band": r.band,
        "difficulty": r.difficulty,
        "victories": r.victories,
        "objective_mode": r.outcome.mode,
        "alternatives": [
            {"key": a.key, "name": a.name, "difficulty": a.difficulty, "victories": a.victories}
            for a in r.outcome.alternatives
        ],
        "objective_numbers": {key: list(lines) for key, lines in r.objective_numbers},
        "victory_costs": {str(v): json_number(ev) for v, ev in r.budget.victory_costs},
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
        f"{one_line(name) if name else 'Encounter'}: EV {format_number(r.total_ev)} against encounter strength "
        f"{format_number(r.budget.encounter_strength)} → {r.band}",
    ]
    if r.difficulty != r.band:
        lines.append(f"Objectives make it {r.difficulty}: " + "; ".join(r.outcome.notes))
    lines.append(f"Victories: {r.victories}")
    for a in r.outcome.alternatives:
        lines.append(f"- alternative objective {a.name}: {a.difficulty}, {a.victories} Victories")
    for _, numbers in r.objective_numbers:
        lines.extend(f"- {line}" for line in numbers)
    if r.budget.victory_costs:
        lines.append("EV to keep on a list, worth " + ", ".join(
            f"{v} Victories: {format_number(ev)}" for v, ev in r.budget.victory_costs) + ".")
    if r.broken:
        lines.append("")
        lines.append(f"{len(r.broken)} guideline(s) broken:")
        for c in r.broken:
            lines.append(f"- {c.title} ({c.detail})")
            lines.append(textwrap.indent(textwrap.fill(f'"{c.rule}" ({c.section})', 100), "    "))
    else:
        lines.append("Every guideline is kept.")
    return "\n".join(lines)


def _respite_text(c: Check) -> str:
    return f"{'✗' if c.broken else '·'} {c.title}: {c.detail}\n" + textwrap.indent(
        textwrap.fill(f'"{c.rule}" ({c.section})', 100), "    "
    )


def run(args: argparse.Namespace) -> None:
    encounters = [load_encounter(path) for path in args.file]
    reports = [report(e) for e in encounters]
    respite = respite_check(reports, args.since_respite)
    respite_json = checks_payload([respite])[0] | {"broken": respite.broken}
    if len(encounters) == 1:
        payload = report_payload(encounters[0].name, reports[0]) | {"respite": respite_json}
        text = report_text(encounters[0].name, reports[0])
        if args.since_respite:
            text += "\n" + _respite_text(respite)
    else:
        payload = {
            "encounters": [report_payload(e.name, r) for e, r in zip(encounters, reports, strict=True)],
            "respite": respite_json,
        }
        text = "\n\n".join(report_text(e.name, r) for e, r in zip(encounters, reports, strict=True))
        text += "\n\n" + _respite_text(respite)
    emit(payload, args.json, text)
