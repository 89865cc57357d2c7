"""`workbench show FILE [--level N] [--mode delta|formula] [--json]`: any stat block file, whole, re-levelled
on request.

Reads a file of the homebrew library (version 1 or 2) or any stat block file `wb.import_monster` reads
(Steel Compendium, Forge Steel, Foundry), told apart by the content. With `--level` the monster is moved there (`wb.relevel`, `--mode delta` keeps
the design's departures, `formula` replaces them) and the working of every moved number is shown.
`--json` prints the keys scripts read: the Monster's numbers, `"characteristics": {"might": ...}`, `"abilities":
[{"name", "cost", "power_roll": {"bonus", "tier1": {"damage", ...}, ...}, ...}]`, and `"relevel"` with the
moves when `--level` was given.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from workbench.cli import emit, positive_int
from workbench.errors import InvalidInput
from workbench.formats.reader import import_monster
from workbench.io.problem import FileProblem
from workbench.io.reading import read_json
from workbench.model import Ability, Effect, Monster, PowerRoll, Tier
from workbench.monster.library import FORMAT, load_entry
from workbench.monster.relevel import MODES, Move, relevel, relevel_moves
from workbench.render.stat_block import stat_block_markdown

__all__ = ["monster_payload", "read_any", "register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("show", help="a stat block file, whole, re-levelled on request")
    parser.add_argument("file", help="a Steel Compendium stat block (.json) or a homebrew library file")
    parser.add_argument("--level", type=positive_int, default=None, help="move the monster to this level")
    parser.add_argument("--mode", choices=MODES, default="delta",
                        help="delta keeps the design's departures from the formulas; formula replaces them")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=run)


def read_any(path: str | Path) -> Monster:
    """A monster from any stat block file the workbench reads, told apart by its content."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInput("file", str(path), "a stat block file (.json) that exists")
    try:
        data = read_json(path, source=path.name)
    except FileProblem as exc:
        raise InvalidInput("file", str(path), "a stat block file of JSON", exc.reason) from None
    if isinstance(data, dict) and data.get("format") == FORMAT:  # a monster saved in a library folder
        return load_entry(path.stem, path.parent).named
    return import_monster(path)


def _tier(tier: Tier) -> dict[str, Any]:
    potency = tier.potency
    return {
        "damage": tier.damage,
        "damage_type": tier.damage_type,
        "potency": None if potency is None else {"characteristic": potency.characteristic, "value": potency.value},
        "effect": tier.effect,
        "text": str(tier),
    }


def _roll(roll: PowerRoll | None) -> dict[str, Any] | None:
    if roll is None:
        return None
    return {"bonus": roll.bonus, "characteristics": list(roll.characteristics),
            **{f"tier{n}": _tier(t) for n, t in enumerate(roll.tiers, 1)}}


def _effect(effect: Effect) -> dict[str, Any]:
    out: dict[str, Any] = {"name": effect.name, "text": effect.text, "malice": effect.malice or None}
    if effect.cost_text:
        out["cost"] = effect.cost_text
    if effect.tiers is not None:
        out.update({f"tier{n}": _tier(t) for n, t in enumerate(effect.tiers, 1)})
    return out


def _ability(ability: Ability) -> dict[str, Any]:
    return {
        "name": ability.name,
        "cost": ability.cost,
        "action": ability.action,
        "keywords": list(ability.keywords),
        "distance": None if ability.distance is None else str(ability.distance),
        "target": None if ability.target is None else ability.target.text,
        "targets": None if ability.target is None else ability.target.count,
        "trigger": ability.trigger,
        "effects_before": [_effect(e) for e in ability.effects_before],
        "power_roll": _roll(ability.power_roll),
        "effects_after": [_effect(e) for e in ability.effects_after],
    }


def _move(move: Move) -> dict[str, Any]:
    return {"quantity": move.quantity, "old": move.old, "new": move.new, "formula_old": move.formula_old.value,
            "formula_new": move.formula_new.value, "working": move.working, "clamped": move.clamped}


def monster_payload(monster: Monster) -> dict[str, Any]:
    """The JSON object of `workbench show --json` (the keys scripts read)."""
    payload = monster.model_dump(mode="json", exclude={"abilities", "characteristics", "relevelled_from",
                                                       "size_class", "movement", "stability_value"})
    payload["characteristics"] = monster.characteristics.as_dict()
    payload["size"] = str(monster.size_class) if monster.size_class else monster.size
    payload["speed"] = monster.movement.speed if monster.movement else monster.speed
    payload["movement"] = list(monster.movement.modes) if monster.movement else []
    payload["stability"] = monster.stability_value if monster.stability_value is not None else monster.stability
    payload["abilities"] = [_ability(a) for a in monster.abilities]
    return payload


def run(args: argparse.Namespace) -> None:
    monster = read_any(args.file)
    moves: tuple[Move, ...] = ()
    if args.level is not None:
        moves = relevel_moves(monster, args.level, args.mode)
        original_level = (monster.relevelled_from or monster).level
        monster = relevel(monster, args.level, args.mode)
    payload = monster_payload(monster)
    lines = [stat_block_markdown(monster)]
    if args.level is not None:
        payload["relevel"] = {"from_level": original_level, "to_level": args.level, "mode": args.mode,
                              "moves": [_move(m) for m in moves]}
        lines += ["", f"Re-levelled from level {original_level} to {args.level} ({args.mode} mode):",
                  *(f"  {m}" for m in moves)]
    emit(payload, args.json, "\n".join(lines))
