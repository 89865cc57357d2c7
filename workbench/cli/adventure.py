"""`workbench adventure FILE`: a day of encounters as the heroes meet them, Victories piling up between respites.

For each encounter: the Victories the heroes arrive with, the encounter strength with them, the band and the
difficulty after objectives (and the one it was built at), the Victories it is worth, the Malice the monsters
start with and the warnings of the day (past 6 Victories' worth before a respite, a difficulty that drifted,
a solo fought early), each with the rules' words. `--json` prints one object `{"name", "heroes",
"encounters": [...]}`. FILE may also name an adventure saved in the workspace (`adventures/NAME.json`);
`--packet OUT.html` (or `.pdf`) writes the printable packet (a new file, never over one); a creature named as a
monster of the workspace's library or bestiaries prints with that stat block.
"""

from __future__ import annotations

import argparse
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

from workbench.cli import emit, json_number, one_line
from workbench.cli.encounter import checks_payload
from workbench.encounter.adventure import AdventurePlan, load_adventure, plan
from workbench.errors import InvalidInput
from workbench.export.adventure import export_adventure
from workbench.io.problem import FileProblem
from workbench.io.writing import write_atomic
from workbench.model import Monster
from workbench.numbers import format_number
from workbench.workspace.folder import adventures_folder
from workbench.workspace.shelf import workspace_bestiary

__all__ = ["register", "run", "plan_payload", "plan_text"]

PACKET_ACCEPTS = "a new file name ending in .html or .pdf"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "adventure", help="an adventure's encounters in order: arrival Victories, strength, band, Malice, warnings"
    )
    parser.add_argument(
        "file", metavar="FILE",
        help="an adventure JSON file saved by the workbench, or the name of one in the workspace's adventures",
    )
    parser.add_argument("--packet", metavar="OUT", help="also write the printable packet to this new .html or .pdf file")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def plan_payload(found: AdventurePlan) -> dict[str, Any]:
    party = found.adventure.party
    return {
        "name": found.adventure.name,
        "heroes": party.size,
        "levels": list(party.levels),
        "victories": json_number(party.victories),
        "respites": list(found.adventure.respites),
        "encounters": [
            {
                "number": e.index + 1,
                "name": e.name,
                "respite_before": e.respite_before,
                "arrival_victories": json_number(e.arrival_victories),
                "encounter_strength": json_number(e.encounter_strength),
                "total_ev": json_number(e.total_ev),
                "band": e.band,
                "difficulty": e.difficulty,
                "built_difficulty": e.built_difficulty,
                "built_victories": json_number(e.built_victories),
                "victories": e.victories,
                "since_respite": json_number(e.since_respite),
                "starting_malice": e.starting_malice,
                "first_round_malice": e.first_round_malice,
                "warnings": checks_payload(e.warnings),
            }
            for e in found.encounters
        ],
    }


def _plural(value: Fraction | int, one: str, many: str) -> str:
    return f"{format_number(value)} {one if value == 1 else many}"


def plan_text(found: AdventurePlan) -> str:
    adventure = found.adventure
    party = adventure.party
    levels = sorted(set(party.levels))
    level = f"level {levels[0]}" if len(levels) == 1 else "levels " + ", ".join(str(v) for v in levels)
    title = one_line(adventure.name or "Adventure")
    lines = [
        f"{title}: {_plural(party.size, 'hero', 'heroes')} of {level}, "
        f"{_plural(len(found.encounters), 'encounter', 'encounters')}, "
        f"starting with {_plural(party.victories, 'Victory', 'Victories')}"
    ]
    if not found.encounters:
        lines.append("No encounters yet.")
    for e in found.encounters:
        if e.respite_before:
            lines.append("-- respite: Victories back to 0 --")
        built = "" if not e.drifted else f" (built {e.built_difficulty})"
        lines.append(
            f"{e.index + 1}. {one_line(e.name or 'Encounter')}: arrive with {_plural(e.arrival_victories, 'Victory', 'Victories')}"
            f"; encounter strength {format_number(e.encounter_strength)}, EV {format_number(e.total_ev)} "
            f"→ {e.difficulty}{built}, worth {_plural(e.victories, 'Victory', 'Victories')}; "
            f"Malice {e.starting_malice} at the start ({e.first_round_malice} once round 1 begins)"
        )
        for w in e.warnings:
            lines.append(f"   Warning: {w.title}: {w.detail}")
            lines.append(f"   \"{w.rule}\" ({w.section})")
    if len(adventure.respites) and adventure.respites[-1] == len(adventure.encounters) and adventure.encounters:
        lines.append("-- respite --")
    return "\n".join(lines)


def _adventure_file(text: str) -> Path:
    """The file named, or else the workspace's adventure of that name (`adventures/NAME.json`)."""
    given = Path(text).expanduser()
    if given.exists() or given.suffix == ".json" or "/" in text or os.sep in text:
        return given
    return adventures_folder() / f"{text}.json"


def _workspace_monsters() -> list[Monster]:
    """The whole stat blocks at hand (the library and the added bestiaries): a creature named as one of them
    prints with it on the packet's cards."""
    return [m for m in workspace_bestiary(sample=False).monsters if isinstance(m, Monster)]


def run(args: argparse.Namespace) -> None:
    found = plan(load_adventure(_adventure_file(args.file)))
    if args.packet is not None:
        out = Path(args.packet).expanduser()
        kind = {".html": "html", ".htm": "html", ".pdf": "pdf"}.get(out.suffix.lower())
        if kind is None:
            raise InvalidInput("packet", args.packet, PACKET_ACCEPTS)
        if out.exists():
            raise InvalidInput("packet", args.packet, PACKET_ACCEPTS, "the file exists")
        try:
            write_atomic(out, export_adventure(found.adventure, kind, _workspace_monsters()), overwrite=False,
                         lock=False)
        except FileExistsError:
            raise InvalidInput("packet", args.packet, PACKET_ACCEPTS, "the file exists") from None
        except FileProblem as exc:
            if out.exists():
                raise InvalidInput("packet", args.packet, PACKET_ACCEPTS, "the file exists") from None
            raise InvalidInput("packet", args.packet, "a file the workbench can write", exc.reason) from None
    emit(plan_payload(found), args.json, plan_text(found) + (f"\nPacket written to {args.packet}" if args.packet else ""))
