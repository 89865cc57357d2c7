"""`workbench suggest`: encounters for a party from a bestiary, inside a difficulty's band, every guideline kept.

The bestiary is the workspace's (the shipped sample, the bestiaries added with `workbench bestiary add` and
the Director's library, their attribution shown under the text) unless `--bestiary DIR` names folders of stat
block JSON files (searched recursively; repeat the option for several). Files that cannot be read are named on
stderr and the rest are used. The creatures' levels keep to the Guidelines and to Quick Encounter Building's
levels for the difficulty, so an encounter's two checks agree; `--guidelines-levels-only` drops the second. `--seed` makes the answer reproducible (0 by default, so the same command gives
the same answer).
"""

from __future__ import annotations

import argparse
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from workbench.cli import bounded_int, emit, json_number, one_line, whole_number
from workbench.cli.budget import average_victories
from workbench.cli.calibrate import existing_path
from workbench.cli.encounter import checks_payload
from workbench.encounter.groups import format_groups
from workbench.encounter.party import make_party
from workbench.encounter.suggest import MAX_SUGGESTIONS, Suggestion, suggest_encounters
from workbench.formats.bestiary import SAMPLE_DIR, Bestiary, load_bestiary
from workbench.numbers import format_number
from workbench.rules.encounter_tables import DIFFICULTIES
from workbench.rules.limits import MAX_HEROES, MAX_LEVEL
from workbench.workspace.shelf import WorkspaceBestiary, workspace_bestiary

__all__ = ["register", "run", "suggestions_payload", "suggestions_text"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "suggest", help="encounters from a bestiary for a party, inside a difficulty's band, every guideline kept"
    )
    parser.add_argument("--heroes", type=bounded_int(1, MAX_HEROES), required=True, help="heroes, retainers included")
    parser.add_argument("--level", type=bounded_int(1, MAX_LEVEL), required=True, help="the heroes' level")
    parser.add_argument("--difficulty", choices=DIFFICULTIES, required=True)
    parser.add_argument(
        "--victories", type=average_victories, default=Fraction(0), help="average Victories per hero, e.g. 2 or 2.5"
    )
    parser.add_argument(
        "--bestiary", type=existing_path, action="append", metavar="DIR",
        help="a folder of stat block JSON files (repeatable; the shipped sample by default)",
    )
    parser.add_argument(
        "--keyword", action="append", default=[], metavar="K",
        help="keep to stat blocks with this keyword, e.g. Goblin (repeatable: any of them)",
    )
    parser.add_argument(
        "--count", type=_count, default=10, metavar="N", help=f"how many suggestions (1 to {MAX_SUGGESTIONS})"
    )
    parser.add_argument(
        "--guidelines-levels-only", action="store_true",
        help="hold the creatures' levels to the Guidelines only (by default they also keep to the levels Quick "
        "Encounter Building allows for the difficulty, so both checks pass every suggestion)",
    )
    parser.add_argument("--seed", type=whole_number, default=0, metavar="S", help="the search's seed")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


_count = bounded_int(1, MAX_SUGGESTIONS)


def suggestions_payload(found: tuple[Suggestion, ...]) -> dict[str, Any]:
    """The JSON object of `--json`, one object per encounter, best first: the keys scripts read."""
    return {
        "encounters": [
            {
                "creatures": [
                    {
                        "name": c.name,
                        "level": c.level,
                        "organization": c.organization,
                        "role": c.role,
                        "count": c.count,
                        "ev": c.ev,
                    }
                    for c in s.creatures
                ],
                "ev": json_number(s.ev),
                "difficulty": s.difficulty,
                "victories": s.victories,
                "broken": checks_payload(s.broken),
            }
            for s in found
        ]
    }


def suggestions_text(found: tuple[Suggestion, ...], heroes: int, level: int, difficulty: str) -> str:
    lines = [f"{len(found)} {difficulty} encounter(s) for {heroes} level {level} heroes, best first:"]
    for number, s in enumerate(found, start=1):
        victories = f"{s.victories} {'Victory' if s.victories == 1 else 'Victories'}"
        lines.append("")
        lines.append(f"{number}. EV {format_number(s.ev)}, {s.difficulty}, {victories}"
                     + (f" — a {s.theme.capitalize()} fight" if s.theme else ""))
        for c in s.creatures:
            kind = " ".join(part for part in (c.organization, c.role) if part)
            star = ", star of the show" if c.star else ""
            lines.append(f"   {c.count} × {one_line(c.label)} (level {c.level} {kind}{star})")
        lines.append(f"   Initiative groups (entries as listed): {format_groups(s.encounter.groups)}")
        for check in s.broken:
            lines.append(f"   Advice not kept: {check.title} ({check.detail})")
    return "\n".join(lines)


def _workspace_bestiary() -> tuple[WorkspaceBestiary, str]:
    """The workspace's monsters (the sample, the added bestiaries, the library) and the lines naming where they
    come from with their attribution; what did not load is named on stderr."""
    found = workspace_bestiary()
    if found.problems:
        names = "; ".join(f"{what} ({why})" for what, why in found.problems)
        print(one_line(f"workbench suggest: {len(found.problems)} not read: {names}"), file=sys.stderr)
    return found, "\n".join(["", "", "Monsters from:", *(f"  {line}" for line in found.attribution_lines())])


def _bestiary(folders: list[Path] | None) -> Bestiary:
    """The folders' stat blocks together (the sample when none is named); unreadable files named on stderr."""
    loaded = [load_bestiary(folder) for folder in (folders or [SAMPLE_DIR])]
    failures = [f for b in loaded for f in b.failures]
    if failures:
        names = "; ".join(f"{f.file} ({f.reason})" for f in failures)
        print(one_line(f"workbench suggest: {len(failures)} file(s) not read: {names}"), file=sys.stderr)
    return Bestiary(
        source=", ".join(b.source for b in loaded),
        monsters=tuple(m for b in loaded for m in b.monsters),
        failures=tuple(failures),
    )


def run(args: argparse.Namespace) -> None:
    party = make_party(heroes=args.heroes, level=args.level, victories=args.victories)
    sources = ""
    bestiary: Bestiary | WorkspaceBestiary
    if args.bestiary:
        bestiary = _bestiary(args.bestiary)
    else:
        bestiary, sources = _workspace_bestiary()
    found = suggest_encounters(
        party, args.difficulty, bestiary, keywords=args.keyword, count=args.count, rng=random.Random(args.seed),
        quick_levels=not args.guidelines_levels_only,
    )
    text = suggestions_text(found, args.heroes, args.level, args.difficulty) + sources
    emit(suggestions_payload(found), args.json, text)
