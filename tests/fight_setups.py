"""The encounters the fight's tests play: a goblin boss with minions and orcs, a solo, a platoon of brutes;
the refusal an action raises."""

from __future__ import annotations

import pytest

from workbench.encounter.encounter import Encounter, InitiativeGroup, creature_from_monster
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput
from workbench.fight.fight import Fight
from workbench.monster.formulas import build_monster
from workbench.monster.solo import instant_solo

__all__ = ["group", "named", "SPINECLEAVER", "BOSS", "BRUTE", "encounter", "boss_fight", "refusal", "solo_fight",
           "platoon", "rout"]


def group(*members):
    return InitiativeGroup(members=tuple(members))


def named(level, organization, role, name):
    return build_monster(level, organization, role).model_copy(update={"name": name})


SPINECLEAVER = named(1, "minion", "brute", "Goblin spinecleaver")  # Stamina 5, as the book's spinecleaver
BOSS = named(1, "leader", None, "Goblin boss")
BRUTE = named(1, "platoon", "brute", "Orc")


def encounter(*entries, heroes=4, level=1, victories=0, groups=None, objectives=(), mode="combined"):
    enc = Encounter(party=make_party(heroes=heroes, level=level, victories=victories))
    for monster, count in entries:
        enc = enc.adding(creature_from_monster(monster, count))
    return enc.model_copy(update={
        "groups": tuple(groups) if groups is not None else (),
        "objectives": tuple(objectives),
        "objective_mode": mode,
    })


def boss_fight(**kwargs):
    """A leader alone in group 1, eight spinecleavers in group 2, two orcs in group 3."""
    enc = encounter((BOSS, 1), (SPINECLEAVER, 8), (BRUTE, 2),
                    groups=[group((0, 1)), group((1, 8)), group((2, 2))], **kwargs)
    return Fight(enc, [BOSS, SPINECLEAVER, BRUTE])


def refusal(action):
    with pytest.raises(InvalidInput) as caught:
        action()
    return caught.value


def solo_fight():
    solo = instant_solo(named(1, "leader", None, "Ogre chief"))
    enc = encounter((solo, 1), heroes=4)
    return Fight(enc, [solo])


def platoon(count, objective=None, **conditions):
    """Four level 1 heroes (ES 24, one hero 6) against `count` level 1 platoon brutes (EV 6 each): 3 easy,
    4 standard, 6 hard, 8 extreme."""
    objectives = [choose_objective(objective, **conditions)] if objective else []
    return encounter((BRUTE, count), objectives=objectives)


def rout(fight):
    """Every foe taken out of the fight."""
    fight.start_round()
    for unit in [u.name for u in fight.units if u.kind != "hero"]:
        fight.dies(unit)
