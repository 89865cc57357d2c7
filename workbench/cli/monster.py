"""`workbench monster`: one monster's numbers, as a stat block or JSON."""

from __future__ import annotations

import argparse

from workbench.cli import bounded_int, emit
from workbench.monster.formulas import build_monster
from workbench.render.text import stat_block_text
from workbench.rules.limits import MAX_LEVEL, MAX_TARGETS


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("monster", help="a monster's numbers from level, organization and role")
    parser.add_argument("--level", type=bounded_int(1, MAX_LEVEL), required=True)
    parser.add_argument("--organization", required=True)
    parser.add_argument("--role", default=None, help="not for leaders and solos")
    parser.add_argument("--extra-stamina", action="store_true")
    parser.add_argument("--targets", type=bounded_int(1, MAX_TARGETS), default=None)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    monster = build_monster(
        level=args.level,
        organization=args.organization,
        role=args.role,
        extra_stamina=args.extra_stamina,
        targets=args.targets,
    )
    emit(monster.model_dump(mode="json"), args.json, stat_block_text(monster))
