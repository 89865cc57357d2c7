"""Editing an encounter by mouse: counts up and down (minions by fours), the star of the show, initiative
groups chosen per entry. Pure functions, each returning a new `Encounter`, so the editor's handlers only
pick which one to call.

Initiative groups are numbered from 1 in the order of `Encounter.groups`. Assigning an entry to a group moves
all of its creatures there (a split suggested by `suggest_groups`, such as eight minions in two groups, is
kept until the Director assigns that entry); an entry in no group is "not in a group yet", which the
group guideline reports.
"""

from __future__ import annotations

from numbers import Integral

from workbench.encounter.encounter import Creature, Encounter, InitiativeGroup
from workbench.errors import InvalidInput
from workbench.rules.encounter_tables import EncounterRules, encounter_rules

__all__ = ["count_step", "step_count", "set_star", "assign_group", "group_of", "NO_GROUP", "SPLIT"]

NO_GROUP = 0
SPLIT = -1


def count_step(creature: Creature, rules: EncounterRules | None = None) -> int:
    """How many creatures one + or − changes: minions come four at a time ("you buy them four at a time")."""
    return (rules or encounter_rules()).guidelines.minions_per_set if creature.minion else 1


def _index(encounter: Encounter, index: object) -> int:
    if isinstance(index, bool) or not isinstance(index, Integral) or not 0 <= int(index) < len(encounter.creatures):
        raise InvalidInput("index", index, f"an entry number from 0 to {len(encounter.creatures) - 1}")
    return int(index)


def _without(groups: tuple[InitiativeGroup, ...], index: int) -> list[list[tuple[int, int]]]:
    return [[m for m in g.members if m[0] != index] for g in groups]


def _rebuilt(members: list[list[tuple[int, int]]]) -> tuple[InitiativeGroup, ...]:
    return tuple(InitiativeGroup(members=tuple(sorted(m))) for m in members if m)


def step_count(encounter: Encounter, index: int, steps: int, rules: EncounterRules | None = None) -> Encounter:
    """Add (`steps` > 0) or take away creatures of one entry, a set of four minions or one creature per step.

    Refuses going below one step (remove the entry instead). The entry leaves its initiative groups when its
    count changes (the groups no longer hold all of it); it is reassigned by the Director or by "Suggest".
    `rules`: the encounter rules that say how many minions one step is (the shipped ones when None).
    """
    index = _index(encounter, index)
    c = encounter.creatures[index]
    step = count_step(c, rules or encounter_rules())
    new = c.count + steps * step
    if new < step:
        raise InvalidInput("count", new, f"at least {step} of {c.label} (remove the entry to drop it)")
    creatures = list(encounter.creatures)
    creatures[index] = c.model_copy(update={"count": new})
    groups = _rebuilt(_without(encounter.groups, index))
    return encounter.model_copy(update={"creatures": tuple(creatures), "groups": groups})


def set_star(encounter: Encounter, index: int, star: bool) -> Encounter:
    """Mark one entry as the star of the show (or not); the star guideline checks whether it can be."""
    index = _index(encounter, index)
    creatures = list(encounter.creatures)
    creatures[index] = creatures[index].model_copy(update={"star": bool(star)})
    return encounter.model_copy(update={"creatures": tuple(creatures)})


def group_of(encounter: Encounter, index: int) -> int:
    """The group number (from 1) holding all of an entry, `NO_GROUP` if none holds any, `SPLIT` otherwise."""
    index = _index(encounter, index)
    holding = [(n, dict(g.members).get(index, 0)) for n, g in enumerate(encounter.groups, start=1)]
    holding = [(n, count) for n, count in holding if count]
    if not holding:
        return NO_GROUP
    if len(holding) == 1 and holding[0][1] == encounter.creatures[index].count:
        return holding[0][0]
    return SPLIT


def assign_group(encounter: Encounter, index: int, group: int) -> Encounter:
    """Put all of an entry into group `group` (1 upwards; one past the last starts a new group), or into no
    group with `NO_GROUP`. Groups left empty disappear and the rest keep their order."""
    index = _index(encounter, index)
    members = _without(encounter.groups, index)
    if isinstance(group, bool) or not isinstance(group, Integral) or not 0 <= group <= len(members) + 1:
        raise InvalidInput("group", group, f"a group number from 1 to {len(members) + 1}, or 0 for none")
    if group:
        if group == len(members) + 1:
            members.append([])
        members[group - 1].append((index, encounter.creatures[index].count))
    return encounter.model_copy(update={"groups": _rebuilt(members)})
