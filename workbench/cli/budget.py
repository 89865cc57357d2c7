"""`workbench budget`: a party's encounter strength, one hero's strength and the five budget bands."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from workbench.cli import bounded_int, emit, json_number
from workbench.encounter.party import VICTORIES_ACCEPTS, Budget, budget, make_party, parse_victories
from workbench.errors import InvalidInput, shown
from workbench.numbers import format_number
from workbench.rules.limits import MAX_HEROES, MAX_LEVEL

__all__ = ["register", "run", "budget_payload", "budget_text", "average_victories"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "budget", help="encounter strength and the five budget bands for a party of heroes"
    )
    parser.add_argument("--heroes", type=bounded_int(1, MAX_HEROES), required=True, help="heroes, retainers included")
    parser.add_argument("--level", type=bounded_int(1, MAX_LEVEL), required=True, help="the heroes' level")
    parser.add_argument(
        "--victories", type=average_victories, default=Fraction(0), help="average Victories per hero, e.g. 2 or 2.5"
    )
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def average_victories(text: str) -> Fraction:
    """argparse type: the heroes' average Victories, which need not be whole (2.5), from 0 to the maximum."""
    try:
        return parse_victories(text)
    except InvalidInput:
        raise argparse.ArgumentTypeError(f"got {shown(text)}; accepts {VICTORIES_ACCEPTS}") from None


def budget_payload(b: Budget) -> dict[str, Any]:
    """The JSON object `--json` prints: bands as inclusive ranges of whole EV totals (extreme: max null)."""
    return {
        "heroes": b.heroes,
        "victories": json_number(b.party.victories),
        "party_strength": json_number(b.party_strength),
        "victories_bonus": json_number(b.victories_bonus),
        "encounter_strength": json_number(b.encounter_strength),
        "hero_strength": json_number(b.hero_strength),
        "bands": {band.name: {"min": band.min, "max": band.max} for band in b.bands},
        "victory_costs": {str(v): json_number(ev) for v, ev in b.victory_costs},
    }


def budget_text(b: Budget) -> str:
    lines = [str(step) for step in b.steps[: -len(b.bands) + 1]]
    lines.append("")
    width = max(len(band.name) for band in b.bands)
    for band in b.bands:
        span = band.span + (" (no EV total is this low)" if band.empty else "")
        victories = f"{band.victories} {'Victory' if band.victories == 1 else 'Victories'}"
        lines.append(f"{band.name.capitalize():<{width}}  EV {span}  ({victories})")
    lines.append("")
    lines.append(
        f"Encounter strength {format_number(b.encounter_strength)}; one hero's strength "
        f"{format_number(b.hero_strength)}."
    )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    b = budget(make_party(heroes=args.heroes, level=args.level, victories=args.victories))
    emit(budget_payload(b), args.json, budget_text(b))
