"""The encounter of the workspace turned into the fight's pieces: each stat block's Monster (the one remembered
for it, else one from the formulas), the minion squads (up to eight minions each), the creatures that may
captain them, and the party's numbers for Malice.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.encounter.encounter import Creature, carries_formulas
from workbench.fight.squad import Squad, make_squad, squad_sizes
from workbench.model import Monster
from workbench.workspace.state import Workspace

__all__ = ["encounter_monsters", "encounter_squads", "malice_party", "squad_captains"]


def _key(name: str) -> str:
    return name.strip().lower()


def _monster_of(creature: Creature, remembered: dict[str, Monster]) -> Monster:
    """The creature's own Monster, named as the encounter names it; one remembered by its name (same stat
    block) stands in only for an entry that carries nothing but the formulas' numbers (an old file's)."""
    own = remembered.get(_key(creature.name))
    if own is not None and (own.level, own.organization, own.role) == (
        creature.level, creature.organization, creature.role
    ) and carries_formulas(creature):
        return own
    return creature.monster.model_copy(update={"name": creature.label[:1].upper() + creature.label[1:]})


def encounter_monsters(workspace: Workspace) -> tuple[tuple[Monster, int], ...]:
    """Each creature entry of the encounter as (its Monster, how many), in the encounter's order."""
    remembered = {_key(m.name): m for m in workspace.monsters if m.name.strip()}
    return tuple((_monster_of(c, remembered), c.count) for c in workspace.encounter.creatures)


def encounter_squads(workspace: Workspace) -> tuple[Squad, ...]:
    """The encounter's minions as squads ("squads of up to eight creatures"), one stat block per squad."""
    squads: list[Squad] = []
    for monster, count in encounter_monsters(workspace):
        if monster.organization != "minion":
            continue
        sizes = squad_sizes(count)
        for number, size in enumerate(sizes, start=1):
            name = monster.name if len(sizes) == 1 else f"{monster.name} (squad {number})"
            squads.append(make_squad(monster, size, name=name))
    return tuple(squads)


def squad_captains(monsters: Sequence[tuple[Monster, int]]) -> tuple[Monster, ...]:
    """The encounter's creatures that may captain a squad: every stat block that is not a minion."""
    return tuple(m for m, _count in monsters if m.organization != "minion")


def malice_party(workspace: Workspace) -> tuple[int, int]:
    """(heroes, average Victories rounded down) for Malice: the party's heroes, not its retainers or allied
    NPCs ("the number of heroes"), and "the heroes' average Victories" as a whole number."""
    party = workspace.encounter.party
    heroes = sum(1 for m in party.members if m.kind == "hero") or party.size
    return heroes, int(party.victories)  # Fraction -> int rounds toward zero: down, Victories are never negative
