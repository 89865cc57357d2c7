"""The fight at the table (`wb.Fight`): rounds, turns by initiative group, Stamina, squads, captains,
conditions, Malice, villain actions, the solo's two turns, objectives and the Victories at the end; every
change an event that undoes, saves and replays. Each rule is quoted where it is tested."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.encounter.encounter import Encounter, InitiativeGroup, creature_from_monster
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.fight.fight import Fight, load_fight
from workbench.monster.formulas import build_monster
from workbench.monster.solo import instant_solo
from workbench.rules import encounter_tables
from workbench.rules.encounter_tables import encounter_rules


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


# ---------------------------------------------------------------- set-up


def test_public_name():
    assert wb.Fight is Fight


def test_initiative_groups_act_together():
    # "all creatures in the same initiative group acting on the same turn"
    fight = boss_fight()
    groups = [a for a in fight.actors if a.side == "monster"]
    assert [a.units for a in groups] == [("Goblin boss",), ("Goblin spinecleaver",), ("Orc 1", "Orc 2")]
    assert [a.label for a in fight.actors if a.side == "hero"] == ["Hero 1", "Hero 2", "Hero 3", "Hero 4"]
    fight.start_round()
    fight.start_turn("Group 3")
    fight.end_turn()
    assert fight.turns_left("Group 3") == 0
    assert "has taken its turn this round" in refusal(lambda: fight.start_turn("Group 3")).reason


def test_a_turn_waits_for_the_last_to_end_and_a_round_for_the_first():
    fight = boss_fight()
    assert refusal(lambda: fight.start_turn("Hero 1")).field == "round"
    fight.start_round()
    fight.start_turn("Hero 1")
    assert "Hero 1's turn has not ended" in refusal(lambda: fight.start_turn("Hero 2")).reason
    assert "has not ended" in refusal(fight.start_round).reason


def test_creatures_without_groups_are_grouped_by_the_suggestion_and_none_is_left_out():
    enc = encounter((BRUTE, 3))
    fight = Fight(enc)
    placed = [u for a in fight.actors if a.side == "monster" for u in a.units]
    assert sorted(placed) == ["Orc 1", "Orc 2", "Orc 3"]


def test_bad_setup_is_refused_by_name():
    enc = encounter((BRUTE, 1))
    assert refusal(lambda: Fight("not an encounter")).field == "encounter"
    assert refusal(lambda: Fight(enc, [BRUTE, BRUTE])).field == "monsters"
    assert refusal(lambda: Fight(enc, victories=-1)).field == "victories"
    assert refusal(lambda: Fight(enc, hero_names=["Ash", "Ash"])).field == "hero_names"


# ---------------------------------------------------------------- Stamina


def test_stamina_winded_at_half_and_dead_at_zero():
    fight = boss_fight()
    fight.start_round()
    assert fight.unit("Orc 1").maximum == 40
    fight.damage("Orc 1", 19)
    assert not fight.unit("Orc 1").winded  # 21 of 40 is more than half
    fight.damage("Orc 1", 1)
    assert fight.unit("Orc 1").winded  # 20 of 40: half
    fight.heal("Orc 1", 100)
    assert fight.unit("Orc 1").current == 40  # healing stops at the Stamina maximum
    fight.damage("Orc 1", 50, weakness=5)
    assert (fight.unit("Orc 1").current, fight.unit("Orc 1").status) == (0, "dead")
    assert "is dead" in refusal(lambda: fight.heal("Orc 1", 5)).reason


def test_weakness_and_immunity_on_a_creature():
    fight = boss_fight()
    fight.start_round()
    fight.damage("Orc 1", 10, weakness=3)
    assert fight.unit("Orc 1").current == 27
    fight.damage("Orc 1", 4, immunity=5)  # never below 0 damage
    assert fight.unit("Orc 1").current == 27


# ---------------------------------------------------------------- squads


def test_a_squad_is_one_pool_and_loses_a_minion_at_each_multiple():
    # "a squad of eight spinecleavers has a Stamina pool of 40" ... "When the Stamina pool hits 30, 25, 20,
    # 15, 10, 5, and finally 0, another minion in the squad dies each time."
    fight = boss_fight()
    fight.start_round()
    squad = fight.unit("Goblin spinecleaver")
    assert (squad.current, squad.squad.alive) == (40, 8)
    alive = []
    for _ in range(8):
        fight.damage("Goblin spinecleaver", 5)
        alive.append(fight.unit("Goblin spinecleaver").squad.alive)
    assert alive == [7, 6, 5, 4, 3, 2, 1, 0]
    assert fight.unit("Goblin spinecleaver").status == "dead"


def test_single_target_damage_drops_several_area_damage_only_those_in_it():
    # "if a goblin spinecleaver takes 12 damage from a fury's Brutal Slam ability" two drop; Incinerate's 6
    # to three spinecleavers: "the minion pool loses 15 Stamina instead of 18"
    fight = boss_fight()
    fight.start_round()
    fight.damage("Goblin spinecleaver", 12)
    assert fight.unit("Goblin spinecleaver").squad.alive == 6
    fight.undo()
    fight.damage("Goblin spinecleaver", 6, in_area=3)
    assert (fight.unit("Goblin spinecleaver").current, fight.unit("Goblin spinecleaver").squad.alive) == (25, 5)


def test_a_squad_never_regains_stamina_nor_is_winded():
    # "minions can't be winded, can't regain Stamina, and can't gain temporary Stamina during a battle"
    fight = boss_fight()
    fight.start_round()
    fight.damage("Goblin spinecleaver", 30)
    assert not fight.unit("Goblin spinecleaver").winded
    assert "can't gain Stamina" in refusal(lambda: fight.heal("Goblin spinecleaver", 5)).reason


def test_area_damage_on_a_single_creature_is_refused():
    fight = boss_fight()
    fight.start_round()
    assert refusal(lambda: fight.damage("Orc 1", 5, in_area=2)).field == "in_area"


def test_captain_attaches_and_falls_with_its_creature():
    fight = boss_fight()
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    assert fight.unit("Goblin spinecleaver").squad.captain == "Goblin boss"
    assert "already has" in refusal(lambda: fight.attach_captain("Goblin spinecleaver", "Orc 1")).reason
    assert refusal(lambda: fight.attach_captain("Goblin spinecleaver", "Hero 1")).field == "captain"
    fight.damage("Goblin boss", 80)
    assert fight.unit("Goblin boss").status == "dead"
    assert fight.unit("Goblin spinecleaver").squad.captain is None
    # "a new one joins at the start of the next round"
    assert "fell in round 1" in refusal(lambda: fight.attach_captain("Goblin spinecleaver", "Orc 1")).reason
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Orc 1")
    assert fight.unit("Goblin spinecleaver").squad.captain == "Orc 1"


def test_with_captain_stamina_bonus_raises_the_pool():
    minion = SPINECLEAVER.model_copy(update={"with_captain": "+2 bonus to Stamina"})
    enc = encounter((BOSS, 1), (minion, 4), groups=[group((0, 1)), group((1, 4))])
    fight = Fight(enc, [BOSS, minion])
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    assert fight.unit("Goblin spinecleaver").current == 4 * 7


def test_twelve_minions_of_one_group_make_two_squads_of_up_to_eight():
    # "squads of up to eight creatures"
    enc = encounter((SPINECLEAVER, 12), groups=[group((0, 12))])
    fight = Fight(enc)
    squads = [u for u in fight.units if u.kind == "squad"]
    assert [u.squad.size for u in squads] == [6, 6]
    assert len({u.name for u in squads}) == 2


# ---------------------------------------------------------------- dead, fled, conditions


def test_fled_creatures_leave_the_fight_and_their_group_is_skipped():
    fight = boss_fight()
    fight.start_round()
    fight.flees("Orc 1")
    fight.dies("Orc 2")
    assert [fight.unit(n).status for n in ("Orc 1", "Orc 2")] == ["fled", "dead"]
    assert fight.turns_left("Group 3") == 0
    assert "down or fled" in refusal(lambda: fight.start_turn("Group 3")).reason
    assert refusal(lambda: fight.damage("Orc 1", 3)).field == "unit"


def test_end_of_turn_conditions_end_at_the_end_of_the_creatures_next_turn():
    fight = boss_fight()
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.add_condition("Orc 1", "dazed", "end of turn")
    fight.add_condition("Orc 1", "bleeding", "save ends")
    fight.end_turn()
    fight.start_turn("Group 3")
    fight.end_turn()
    assert [c.label for c in fight.unit("Orc 1").conditions] == ["bleeding"]
    fight.end_condition("Orc 1", "bleeding")  # the save succeeded
    assert fight.unit("Orc 1").conditions == ()


def test_a_condition_added_during_the_creatures_own_turn_lasts_to_its_next_turn():
    fight = boss_fight()
    fight.start_round()
    fight.start_turn("Group 3")
    fight.add_condition("Orc 2", "slowed", "end of turn")
    fight.end_turn()
    assert [c.label for c in fight.unit("Orc 2").conditions] == ["slowed"]


def test_condition_refusals():
    fight = boss_fight()
    fight.start_round()
    assert refusal(lambda: fight.add_condition("Orc 1", "dazed", "next week")).field == "ends"
    assert refusal(lambda: fight.add_condition("Orc 1", "  ")).field == "label"
    fight.add_condition("Orc 1", "dazed")
    assert refusal(lambda: fight.add_condition("Orc 1", "Dazed")).field == "label"
    assert refusal(lambda: fight.end_condition("Orc 1", "prone")).field == "label"


# ---------------------------------------------------------------- Malice


def test_malice_is_the_books_nine_then_seven_then_eight():
    # "if five heroes with three Victories each are just starting their first combat round, you begin that
    # combat with 9 Malice ... you gain 7 Malice ... you gain 8 Malice in the third round"
    fight = boss_fight(heroes=5, victories=3)
    totals = []
    for _ in range(3):
        fight.start_round()
        totals.append(fight.malice)
    assert totals == [9, 16, 24]


def test_malice_per_round_with_a_dead_hero():
    # "If a hero dies, they stop generating Malice for you."
    fight = boss_fight(heroes=5, victories=3)
    fight.start_round()  # 3 + 5 + 1 = 9
    fight.dies("Hero 2")
    fight.start_round()  # 4 living heroes + round 2 = 6
    assert fight.malice == 15
    assert fight.unit("Hero 2").status == "dead"


def test_arrival_victories_replace_the_partys():
    fight = Fight(encounter((BRUTE, 1)), victories=Fraction(5, 2))
    fight.start_round()
    assert fight.malice == 2 + 4 + 1  # "the average number of Victories per hero", rounded down


def test_basic_malice_only_at_a_monsters_turn_and_strike_not_two_rounds_running():
    fight = boss_fight(heroes=5, victories=3)
    fight.start_round()
    fight.start_turn("Hero 1")
    assert "a hero's" in refusal(lambda: fight.spend("Brutal Effectiveness")).reason
    fight.end_turn()
    fight.start_turn("Group 1")
    fight.spend("Malicious Strike", 5, unit="Goblin boss")
    assert fight.malice == 4
    fight.end_turn()
    fight.start_round()
    fight.start_turn("Group 3")
    assert "two rounds in a row" in refusal(lambda: fight.spend("Malicious Strike", 5, unit="Orc 1")).reason
    assert refusal(lambda: fight.spend("No Such Thing")).field == "feature"


def test_unused_malice_is_lost_at_the_end():
    # "At the end of an encounter, any unused Malice is lost."
    fight = boss_fight()
    fight.start_round()
    fight.end()
    assert fight.malice == 0 and fight.ended


# ---------------------------------------------------------------- villain actions


def test_a_villain_action_refused_twice_in_one_round():
    # "no more than one villain action can be used per round"; "Each villain action can be used only once
    # per encounter"
    fight = boss_fight()
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.end_turn()
    assert fight.villain_action_allowed("Goblin boss", 1) is None
    fight.villain_action("Goblin boss", 1)
    fight.start_turn("Hero 2")
    fight.end_turn()
    second = refusal(lambda: fight.villain_action("Goblin boss", 2))
    assert "no more than one villain action can be used per round" in second.reason
    assert fight.villain_action_allowed("Goblin boss", 2) is not None
    fight.start_round()
    fight.start_turn("Hero 3")
    fight.end_turn()
    again = refusal(lambda: fight.villain_action("Goblin boss", 1))
    assert "Each villain action can be used only once per encounter" in again.reason
    fight.villain_action("Goblin boss", 2)
    assert fight.villain_actions_used() == (("Goblin boss", 1, 1), ("Goblin boss", 2, 2))


def test_a_villain_action_only_at_the_end_of_another_creatures_turn():
    # "A creature can use a villain action at the end of any other creature's turn during combat."
    fight = boss_fight()
    fight.start_round()
    words = "A creature can use a villain action at the end of any other creature's turn during combat."
    assert refusal(lambda: fight.villain_action("Goblin boss", 1)).reason == words  # no turn has ended
    fight.start_turn("Hero 1")
    assert refusal(lambda: fight.villain_action("Goblin boss", 1)).reason == words  # during a turn
    fight.end_turn()
    fight.start_turn("Group 1")
    fight.end_turn()
    own = refusal(lambda: fight.villain_action("Goblin boss", 1))
    assert words in own.reason and "Goblin boss's own" in own.reason
    assert "villain actions" in refusal(lambda: fight.villain_action("Orc 1", 1)).reason


# ---------------------------------------------------------------- the solo


def solo_fight():
    solo = instant_solo(named(1, "leader", None, "Ogre chief"))
    enc = encounter((solo, 1), heroes=4)
    return Fight(enc, [solo])


def test_the_solos_two_turns_never_consecutive():
    # "Solo Turns The creature can take two turns each round. They can't take turns consecutively."
    fight = solo_fight()
    solo = next(a for a in fight.actors if a.side == "monster")
    assert solo.turns == 2
    fight.start_round()
    fight.start_turn(solo.label)
    fight.end_turn()
    assert fight.turns_left(solo.label) == 1
    consecutive = refusal(lambda: fight.start_turn(solo.label))
    assert "They can't take turns consecutively." in consecutive.reason
    fight.start_turn("Hero 1")
    fight.end_turn()
    fight.start_turn(solo.label)
    fight.end_turn()
    third = refusal(lambda: fight.start_turn(solo.label))
    assert "two turns" in third.reason and "The creature can take two turns each round." in third.reason


def test_the_solos_last_turn_of_a_round_and_first_of_the_next_are_consecutive():
    fight = solo_fight()
    solo = next(a for a in fight.actors if a.side == "monster").label
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.end_turn()
    fight.start_turn(solo)
    fight.end_turn()
    fight.start_round()
    assert "consecutively" in refusal(lambda: fight.start_turn(solo)).reason


def test_solo_action_is_offered_with_a_solo():
    # "Give them the following Malice feature: Solo Action (5 Malice)"
    assert "Solo Action" in [f.name for f in solo_fight().features]
    assert "Solo Action" not in [f.name for f in Fight(encounter((BRUTE, 1))).features]


# ---------------------------------------------------------------- objectives and Victories


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


@pytest.mark.parametrize(("count", "difficulty", "victories"), [
    (3, "easy", 1), (4, "standard", 1), (6, "hard", 2), (8, "extreme", 2),
])
def test_no_objective_earns_the_difficultys_victories(count, difficulty, victories):
    # "An easy encounter is typically worth 1 Victory." ... "A hard encounter is typically worth 2 Victories."
    fight = Fight(platoon(count))
    assert report(fight.encounter).difficulty == difficulty
    rout(fight)
    assert fight.ended and fight.result().victories == victories
    assert fight.state.end_reason == "every foe is down or fled"


@pytest.mark.parametrize(("count", "victories"), [(3, 1), (4, 1), (6, 1), (8, 2)])
def test_hold_them_off_victories_by_difficulty(count, victories):
    # "Each hero earns 1 Victory if the success condition is met. They earn 2 Victories if the success
    # condition is met and the encounter's difficulty is extreme"
    fight = Fight(platoon(count, "hold_them_off"))
    for _ in range(3):  # "A typical encounter duration is 3 rounds."
        fight.start_round()
    assert not fight.ended
    fight.end_round()
    assert fight.ended
    assert fight.result().success and fight.result().victories == victories


def test_hold_them_off_five_rounds_earns_the_bonus():
    # "or if the party held off the enemy for an encounter duration of 5 rounds or more and the encounter is
    # of standard or higher difficulty"
    fight = Fight(platoon(4, "hold_them_off"), durations={"hold_them_off": 5})
    assert report(fight.encounter).difficulty == "standard"
    for _ in range(5):
        fight.start_round()
    assert not fight.ended
    fight.end_round()
    result = fight.result()
    assert result.victories == 2 and result.objectives[0].bonus
    short = Fight(platoon(3, "hold_them_off"), durations={"hold_them_off": 5})  # easy: no bonus
    for _ in range(5):
        short.start_round()
    short.end_round()
    assert short.result().victories == 1


def test_hold_them_off_fails_when_as_many_get_through_as_heroes_started():
    # "The heroes earn no Victories if a number of creatures equal to or greater than the number of starting
    # heroes get through"
    fight = Fight(platoon(4, "hold_them_off"))
    fight.start_round()
    for _ in range(3):
        fight.count("hold_them_off", "through")
    assert not fight.ended
    fight.count("hold_them_off", "through")
    assert fight.ended and fight.result().victories == 0
    assert "equal to or greater than the number of starting heroes" in fight.result().objectives[0].working


@pytest.mark.parametrize(("hurt", "victories"), [(False, 2), (True, 1)])
def test_get_the_thing_bonus_when_no_hero_took_damage(hurt, victories):
    # "They instead earn 2 Victories if ... none of the heroes took damage during an encounter of standard or
    # higher difficulty."
    fight = Fight(platoon(4, "get_the_thing"))
    assert report(fight.encounter).difficulty == "standard"
    fight.start_round()
    if hurt:
        fight.damage("Hero 1", 3)
    fight.count("get_the_thing", "escaped")
    assert fight.ended and fight.result().victories == victories


@pytest.mark.parametrize(("lost", "victories"), [(0, 2), (1, 1)])
def test_save_another_bonus_when_all_saved(lost, victories):
    # "Each hero earns 2 Victories if ... all the creatures meant to be saved survived and the encounter is
    # of standard or higher difficulty."
    fight = Fight(platoon(4, "save_another"))
    fight.start_round()
    for _ in range(3):
        fight.count("save_another", "to_save")
    for _ in range(lost):
        fight.count("save_another", "lost")
    fight.settle("save_another", True)
    assert fight.result().victories == victories


def test_save_another_fails_when_more_than_half_are_lost():
    # "The heroes earn no Victories if more than half of the creatures meant to be saved were killed"
    fight = Fight(platoon(4, "save_another"))
    fight.start_round()
    for _ in range(3):
        fight.count("save_another", "to_save")
    fight.count("save_another", "lost")
    assert not fight.ended
    fight.count("save_another", "lost")
    assert fight.ended and fight.result().victories == 0


def test_defeat_a_specific_foe_fails_when_it_flees():
    # "including a scenario where designated creatures choose to flee"
    enc = encounter((BOSS, 1), (BRUTE, 2), objectives=[choose_objective("defeat_a_specific_foe")])
    fight = Fight(enc, [BOSS, BRUTE])
    fight.start_round()
    fight.flees("Goblin boss")
    assert fight.ended and fight.result().victories == 0
    fight.undo()
    fight.damage("Goblin boss", 80)  # "reduced to 0 Stamina"
    assert fight.ended and fight.result().success


def test_diminish_numbers_ends_at_half():
    # "The encounter ends when the number of remaining foes is half or less of what it was at the start."
    fight = Fight(platoon(6, "diminish_numbers"))
    fight.start_round()
    for name in ("Orc 1", "Orc 2"):
        fight.dies(name)
    assert not fight.ended
    fight.dies("Orc 3")
    assert fight.ended and fight.result().victories == 2  # hard


def test_complete_the_action_zero_failures_bonus_and_two_failures_fail():
    # "2 Victories if ... they reach the end of the encounter duration with zero failures"; "no Victories ...
    # if they accumulate 2 or more failures"
    fight = Fight(platoon(4, "complete_the_action"))
    for _ in range(3):
        fight.start_round()
    fight.end_round()
    assert fight.result().victories == 2
    fight = Fight(platoon(4, "complete_the_action"))
    fight.start_round()
    fight.count("complete_the_action", "failures")
    fight.count("complete_the_action", "failures")
    assert fight.ended and fight.result().victories == 0


def test_stop_the_action_before_the_last_round_earns_the_bonus():
    fight = Fight(platoon(4, "stop_the_action"))
    fight.start_round()
    fight.count("stop_the_action", "stopped")
    assert fight.result().victories == 2
    late = Fight(platoon(4, "stop_the_action"))
    for _ in range(3):
        late.start_round()
    late.count("stop_the_action", "stopped")
    assert late.result().victories == 1


def test_every_hero_dead_is_a_failure():
    fight = Fight(platoon(4))
    fight.start_round()
    for hero in ("Hero 1", "Hero 2", "Hero 3", "Hero 4"):
        fight.dies(hero)
    assert fight.ended and fight.state.end_reason == "every hero is dead" and fight.result().victories == 0


def test_an_ended_fight_refuses_actions_until_undone():
    fight = Fight(platoon(3))
    rout(fight)
    assert "the fight is over" in refusal(fight.start_round).reason
    fight.undo()
    assert not fight.ended


def test_victories_after_carry_into_the_next_encounter():
    fight = Fight(platoon(8), victories=2)  # EV 48 against ES 30 + 3 × 6: hard, 2 Victories
    assert report(fight.encounter).difficulty == "hard"
    rout(fight)
    assert fight.result().victories_after == 4


# ---------------------------------------------------------------- the log: undo, save, resume


def test_undo_takes_back_one_event_and_nothing_is_left_to_undo_at_the_start():
    fight = boss_fight()
    first = fight.state
    fight.start_round()
    fight.damage("Orc 1", 5)
    fight.undo()
    fight.undo()
    assert fight.state == first and not fight.can_undo
    assert refusal(fight.undo).field == "undo"


def test_a_refusal_changes_nothing():
    fight = boss_fight()
    fight.start_round()
    before, events = fight.state, fight.events
    refusal(lambda: fight.damage("Nobody", 5))
    refusal(lambda: fight.damage("Orc 1", -5))
    assert fight.state == before and fight.events == events


def test_saving_and_reopening_resumes_the_fight(tmp_path):
    fight = boss_fight(heroes=5, victories=3)
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    fight.start_turn("Hero 1")
    fight.damage("Goblin spinecleaver", 6, in_area=3)
    fight.add_condition("Orc 1", "dazed", "save ends")
    fight.end_turn()
    fight.villain_action("Goblin boss", 1)
    path = fight.save(tmp_path / "fight.json")
    again = load_fight(path)
    assert again.state == fight.state and again.events == fight.events
    again.start_turn("Hero 2")  # and it goes on
    assert json.loads(path.read_text())["format"] == "drawsteel-workbench/fight"


def test_a_file_that_is_not_a_fight_or_does_not_replay_is_refused(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "something else"}')
    assert refusal(lambda: load_fight(bad)).field == "fight"
    fight = boss_fight()
    fight.start_round()
    data = fight.to_data()
    data["events"].append({"kind": "damage", "unit": "Nobody", "amount": 3})
    assert "event 2" in refusal(lambda: Fight.from_data(data)).reason
    data["events"][-1] = {"kind": "explode"}
    assert refusal(lambda: Fight.from_data(data)).field == "fight"


# ---------------------------------------------------------------- properties

ACTIONS = st.lists(st.tuples(
    st.sampled_from(["round", "turn", "end_turn", "damage", "area", "heal", "villain", "dies", "reinforce",
                     "undo"]),
    st.integers(0, 12), st.integers(0, 30),
), max_size=40)


def _try(fight, kind, a, b):
    units = [u.name for u in fight.units]
    actors = [x.label for x in fight.actors]
    try:
        if kind == "round":
            fight.start_round()
        elif kind == "turn":
            fight.start_turn(actors[a % len(actors)])
        elif kind == "end_turn":
            fight.end_turn()
        elif kind == "damage":
            fight.damage(units[a % len(units)], b)
        elif kind == "area":
            fight.damage("Goblin spinecleaver", b, in_area=1 + a % 3)
        elif kind == "heal":
            fight.heal(units[a % len(units)], b)
        elif kind == "villain":
            fight.villain_action("Goblin boss", 1 + a % 3)
        elif kind == "dies":
            fight.dies(units[a % len(units)])
        elif kind == "reinforce":
            fight.reinforce(("Orc", "Goblin spinecleaver")[a % 2], 1 + b % 3)
        else:
            fight.undo()
    except InvalidInput:
        pass


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_any_run_keeps_the_invariants_replays_and_undoes_to_the_start(actions):
    fight = boss_fight(heroes=5, victories=3)
    first = fight.state
    for kind, a, b in actions:
        _try(fight, kind, a, b)
        for u in fight.units:
            assert 0 <= u.current <= u.maximum or u.kind == "hero"
            if u.squad is not None:
                assert u.squad.alive == -(-u.squad.pool // u.squad.stamina_each)
                assert (u.squad.alive == 0) <= (u.status != "active")
        assert fight.malice >= 0
        rounds = [r for _, _, r in fight.villain_actions_used()]
        assert len(rounds) == len(set(rounds))  # one a round
    assert Fight.from_data(json.loads(json.dumps(fight.to_data()))).state == fight.state
    while fight.can_undo:
        fight.undo()
    assert fight.state == first


def test_damage_by_round_tallies_what_heroes_took_and_foes_lost():
    fight = boss_fight()
    fight.start_round()
    fight.damage("Hero 1", 7)
    fight.damage("Orc 1", 50)  # 40 Stamina: the foes lose 40, not 50
    fight.damage("Goblin spinecleaver", 6, in_area=3)  # 3 × 5 = 15
    fight.start_round()
    fight.start_round()
    fight.damage("Hero 2", 4)
    assert fight.damage_by_round() == ((1, 7, 55), (2, 0, 0), (3, 4, 0))
    fight.undo()
    assert fight.damage_by_round()[-1] == (3, 0, 0)


def test_diminish_numbers_a_solo_gives_up_at_a_quarter_after_its_villain_actions():
    # "that creature flees or surrenders when reduced to one-quarter or less of their Stamina and after using
    # all their villain actions"
    solo = instant_solo(named(1, "leader", None, "Ogre chief"))
    fight = Fight(encounter((solo, 1), objectives=[choose_objective("diminish_numbers")]), [solo])
    full = fight.unit("Ogre chief").maximum
    fight.start_round()
    fight.damage("Ogre chief", full - full // 4)  # a quarter left, rounded down
    assert 4 * fight.unit("Ogre chief").current <= full and not fight.ended
    for number, hero in zip((1, 2, 3), ("Hero 1", "Hero 2", "Hero 3"), strict=True):
        fight.start_turn(hero)
        fight.end_turn()
        fight.villain_action("Ogre chief", number)
        assert fight.ended == (number == 3)
        if number < 3:
            fight.start_round()
    assert fight.result().success


def test_an_adventures_encounter_is_fought_at_its_arrival_victories():
    # "An adventure takes those Victories into its next encounter": the second fight starts with the first's.
    from workbench.encounter.adventure import Adventure

    party = make_party(heroes=4, level=1)
    first, second = platoon(6), platoon(4)
    adventure = Adventure(party=party, encounters=(first, second))
    encounter_one, arrival_one = adventure.arrival(0)
    fight = Fight(encounter_one, victories=arrival_one)
    rout(fight)
    earned = fight.result().victories_after
    encounter_two, arrival = adventure.arrival(1)
    assert arrival == earned == 2  # a hard encounter's 2 Victories
    nxt = Fight(encounter_two, victories=arrival)
    nxt.start_round()
    assert nxt.malice == 2 + 4 + 1


def test_reinforcements_join_as_a_new_group():
    # Hold Them Off: "At the end of each combat round, you add more enemies to the map"
    fight = boss_fight()
    fight.start_round()
    fight.reinforce("Orc", 2)
    fight.reinforce("Goblin spinecleaver", 4)
    groups = [a for a in fight.actors if a.side == "monster"]
    assert [a.units for a in groups[3:]] == [("Orc 3", "Orc 4"), ("Goblin spinecleaver (squad 2)",)]
    assert fight.unit("Goblin spinecleaver (squad 2)").current == 4 * 5
    fight.start_turn("Group 4")
    fight.end_turn()
    assert "one of the encounter's stat blocks" in refusal(lambda: fight.reinforce("Dragon", 1)).accepts
    assert refusal(lambda: fight.reinforce("Orc", 0)).field == "count"
    fight.undo()
    fight.undo()
    fight.undo()
    assert [a.label for a in fight.actors if a.side == "monster"] == ["Group 1", "Group 2", "Group 3", "Group 4"]


def test_a_fight_with_reinforcements_saves_and_replays(tmp_path):
    fight = boss_fight()
    fight.start_round()
    fight.reinforce("Orc", 1)
    fight.damage("Orc 3", 5)
    again = load_fight(fight.save(tmp_path / "f.json"))
    assert again.state == fight.state and again.actors == fight.actors


def test_arrival_victories_set_the_difficulty_too():
    # "For every 2 Victories the heroes have earned on average, increase the party's encounter strength as if
    # there were another hero in the party": six platoon brutes, hard for four fresh heroes, are standard
    # with 2 Victories (ES 24 + 6 = 30, one hero 6: standard up to 36)
    fresh, seasoned = Fight(platoon(6)), Fight(platoon(6), victories=2)
    assert report(fresh.encounter).difficulty == "hard"
    assert report(seasoned.encounter).difficulty == "standard"
    rout(fresh)
    rout(seasoned)
    assert (fresh.result().victories, seasoned.result().victories) == (2, 1)


def test_an_event_with_unknown_arguments_is_refused_by_name():
    fight = boss_fight()
    fight.start_round()
    refused = refusal(lambda: fight.do("damage", unit="Orc 1", amount=3, colour="red"))
    assert refused.field == "event" and "unit, amount" in refused.accepts
    assert refusal(lambda: fight.do("explode")).field == "event"


# ---------------------------------------------------------------- the durations: the encounter's rules, one source


def _stated_duration(key, lines, long):
    """The rounds the encounter's report gives an objective: its typical duration, or the long one when the
    long duration is ticked; None when the report names no duration for it."""
    text = " ".join(lines)
    typical = re.search(r"A typical encounter duration is (\d+) rounds", text)
    longer = re.search(r"(\d+) or more rounds", text)
    if long and longer:
        return int(longer.group(1))
    return int(typical.group(1)) if typical else None


def _durations_agree():
    """Every objective (Hold Them Off also with its long duration ticked): the fight's rounds and the report's."""
    cases = [(key, {}) for key in encounter_rules().objectives] + [("hold_them_off", {"long_duration": True})]
    checked = []
    for key, conditions in cases:
        enc = platoon(4, key, **conditions)
        (lines,) = [lines for k, lines in report(enc).objective_numbers if k == key]
        (progress,) = Fight(enc).state.objectives
        assert progress.duration == _stated_duration(key, lines, bool(conditions)), (key, conditions, lines)
        checked.append((key, progress.duration))
    return checked


def test_the_fight_runs_each_objective_for_the_duration_the_encounter_report_states():
    checked = _durations_agree()
    timed = {key for key, duration in checked if duration is not None}
    assert timed == {"hold_them_off", "stop_the_action", "complete_the_action"}


def test_changed_durations_in_the_rules_reach_the_fight_and_the_report_alike(monkeypatch):
    rules = encounter_rules()
    timing = rules.objective_rules.model_copy(update={"typical_duration": 4, "long_duration": 7})
    changed = rules.model_copy(update={"objective_rules": timing})
    encounter_rules.cache_clear()
    monkeypatch.setattr(encounter_tables, "load_encounter_rules", lambda _path: changed)
    try:
        checked = dict(_durations_agree())
        assert checked["stop_the_action"] == 4 and checked["complete_the_action"] == 4
        long_hold = Fight(platoon(4, "hold_them_off", long_duration=True)).state.objectives[0]
        assert long_hold.duration == 7
    finally:
        monkeypatch.undo()
        encounter_rules.cache_clear()
