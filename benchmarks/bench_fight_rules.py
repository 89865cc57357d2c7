"""How long one action takes from the call to the fight's state updated, for the rules the fight applies at the
table: a typed hit on a fire-weak squad of eight with a captain, a stat block's Malice ability paid, a villain
action by name, a Complete the Action task counted, the end of the solo's turn with End Effect on offer.

Each is the event applied and the end checked (`Fight.do`), then undone, so the state is the same each time.
The fight has a leader with published Malice abilities and villain actions, a squad of eight fire-weak minions,
two platoon creatures and a solo with a guard in its group, with Complete the Action and Diminish Numbers.

Run: .venv/bin/python benchmarks/bench_fight_rules.py
"""

from __future__ import annotations

from timing import load_average, report, timed

import workbench as wb
from workbench.encounter.encounter import InitiativeGroup, creature_from_monster
from workbench.model import Ability, DamageModifier
from workbench.monster.solo import instant_solo


def fight() -> wb.Fight:
    boss = wb.build_monster(3, "leader").model_copy(update={"name": "Goblin monarch", "abilities": (
        Ability(name="Get in Here!", cost="villain 1"), Ability(name="Focus Fire", cost="villain 2"),
        Ability(name="Kill!", cost="villain 3"), Ability(name="Trample", cost=3, action="main action"))})
    minion = wb.build_monster(3, "minion", "brute").model_copy(update={
        "name": "Goblin spinecleaver", "weaknesses": (DamageModifier(type="fire", value=5),)})
    orc = wb.build_monster(3, "platoon", "brute").model_copy(update={"name": "Orc"})
    solo = instant_solo(wb.build_monster(3, "elite", "brute")).model_copy(update={"name": "Ogre"})
    enc = wb.Encounter(party=wb.make_party(heroes=5, level=3, victories=2))
    for monster, count in ((boss, 1), (minion, 8), (orc, 2), (solo, 1)):
        enc = enc.adding(creature_from_monster(monster, count))
    groups = (InitiativeGroup(members=((0, 1),)), InitiativeGroup(members=((1, 8),)),
              InitiativeGroup(members=((2, 2),)), InitiativeGroup(members=((3, 1),)))
    enc = enc.model_copy(update={"groups": groups, "objectives": (
        wb.choose_objective("complete_the_action"), wb.choose_objective("diminish_numbers"))})
    return wb.Fight(enc, [boss, minion, orc, solo])


def main() -> None:
    print(f"load average: {load_average()}")
    f = fight()
    f.start_round()
    f.attach_captain("Goblin spinecleaver", "Goblin monarch")
    f.start_round()
    f.start_turn("Hero 1")
    f.end_turn()
    report("fire hit on the squad (weakness once) + undo",
           timed(lambda: (f.damage("Goblin spinecleaver", 6, in_area=3, damage_type="fire"), f.undo()), 500))
    report("villain action by name + undo",
           timed(lambda: (f.villain_action("Goblin monarch", action="Focus Fire"), f.undo()), 500))
    report("Complete the Action task + undo",
           timed(lambda: (f.count("complete_the_action", "tasks"), f.undo()), 500))
    f.start_turn("Group 1")
    report("Trample (3 Malice) paid + undo", timed(lambda: (f.spend("Trample", unit="Goblin monarch"), f.undo()), 500))
    f.end_turn()
    f.start_turn("Group 4")
    f.add_condition("Ogre", "weakened", "save ends")
    report("end of the solo's turn, End Effect offered + undo",
           timed(lambda: (f.end_turn(), f.end_effect_offer(), f.undo()), 500))


if __name__ == "__main__":
    main()
