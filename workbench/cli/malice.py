"""`workbench malice`: the Malice a Director gains round by round, as a table or JSON.

`--deaths ROUND:COUNT` (repeatable) says how many heroes died before that round's gain; a hero who falls
during round 2 stops generating Malice from round 3, so it is given as `--deaths 3:1`.
"""

from __future__ import annotations

import argparse

from workbench.cli import bounded_int, emit, json_number
from workbench.cli.budget import average_victories
from workbench.errors import InvalidInput
from workbench.fight.deaths import parse_death
from workbench.fight.malice_schedule import MaliceRound, malice_schedule
from workbench.rules.limits import MAX_HEROES, MAX_ROUNDS


def death(text: str) -> tuple[int, int]:
    """argparse type for one ROUND:COUNT pair (`workbench.fight.deaths`)."""
    try:
        return parse_death(text)
    except InvalidInput as exc:
        raise argparse.ArgumentTypeError(exc.detail) from None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "malice", help="Malice gained each round (start of combat, then living heroes + round number)"
    )
    parser.add_argument("--heroes", type=bounded_int(1, MAX_HEROES), required=True)
    parser.add_argument(
        "--victories", type=average_victories, required=True,
        help="average Victories per hero, e.g. 3 or 2.5 (rounded down, as the budget does)",
    )
    parser.add_argument("--rounds", type=bounded_int(1, MAX_ROUNDS), required=True)
    parser.add_argument(
        "--deaths", type=death, action="append", default=[], metavar="ROUND:COUNT",
        help="heroes who died before that round's gain (repeatable)",
    )
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def _text(schedule: tuple[MaliceRound, ...]) -> str:
    lines = ["Round  Heroes  Gain  Total   Working"]
    for r in schedule:
        note = f"  ({r.deaths} died)" if r.deaths else ""
        lines.append(f"{r.round:>5}  {r.heroes:>6}  {r.gain:>4}  {r.total:>5}   {r.working}{note}")
    lines.append("Round 1 adds the average Victories (rounded down); unused Malice is lost at the end.")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    schedule = malice_schedule(args.heroes, args.victories, args.rounds, args.deaths)
    payload = {
        "heroes": args.heroes,
        "victories": json_number(args.victories),
        "deaths": [{"round": r.round, "count": r.deaths} for r in schedule if r.deaths],
        "rounds": [{"round": r.round, "gain": r.gain, "total": r.total} for r in schedule],
    }
    emit(payload, args.json, _text(schedule))
