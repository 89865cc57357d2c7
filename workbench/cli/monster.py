"""`workbench monster`: one monster's numbers, as a stat block or JSON."""

from __future__ import annotations

import argparse

from workbench.cli import bounded_int, emit
from workbench.model import Monster
from workbench.monster.formulas import build_monster
from workbench.render.text import stat_block_text
from workbench.rules.limits import MAX_LEVEL, MAX_TARGETS

__all__ = ["add_monster_options", "monster_from_options", "register", "run"]


def add_monster_options(
    parser: argparse.ArgumentParser, organization_help: str | None = None, role_help: str | None = None
) -> None:
    """The options that say which monster to build from the formulas: `workbench monster`'s own, and
    `workbench solo`'s for the leader or elite it adapts (`monster_from_options` builds it)."""
    parser.add_argument("--level", type=bounded_int(1, MAX_LEVEL), required=True)
    parser.add_argument("--organization", required=True, help=organization_help)
    parser.add_argument("--role", default=None, help=role_help)
    parser.add_argument("--extra-stamina", action="store_true")


def monster_from_options(args: argparse.Namespace, targets: int | None = None) -> Monster:
    """The monster the `add_monster_options` options describe."""
    return build_monster(
        level=args.level,
        organization=args.organization,
        role=args.role,
        extra_stamina=args.extra_stamina,
        targets=targets,
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("monster", help="a monster's numbers from level, organization and role")
    add_monster_options(parser, role_help="not for leaders and solos")
    parser.add_argument("--targets", type=bounded_int(1, MAX_TARGETS), default=None)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    monster = monster_from_options(args, targets=args.targets)
    emit(monster.model_dump(mode="json"), args.json, stat_block_text(monster))
