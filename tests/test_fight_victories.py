"""The Victories a fight earns (`workbench.fight.victories`): each objective's for its difficulty, with the
bonus the fight measured; none without success; the running total an adventure carries on."""

from __future__ import annotations

import pytest
from fight_setups import BOSS, BRUTE, encounter, named, platoon, rout

from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.fight.fight import Fight
from workbench.monster.solo import instant_solo


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
    # "The encounter difficulty is one category harder if the encounter duration is 5 rounds or greater"
    fight = Fight(platoon(4, "hold_them_off"), durations={"hold_them_off": 5})
    assert report(fight.encounter).difficulty == "hard"  # standard by EV, one category harder
    for _ in range(5):
        fight.start_round()
    assert not fight.ended
    fight.end_round()
    result = fight.result()
    assert result.victories == 2 and result.objectives[0].bonus
    short = Fight(platoon(2, "hold_them_off"), durations={"hold_them_off": 5})  # trivial by EV: easy, no bonus
    assert report(short.encounter).difficulty == "easy"
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
    for _ in range(4):  # "The heroes win when all the heroes leave the encounter map with the thing."
        assert not fight.ended
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
        for _ in range(2):  # "In each combat round, half or more of the heroes must use a maneuver to perform a task"
            fight.count("complete_the_action", "tasks")
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


def test_victories_after_carry_into_the_next_encounter():
    fight = Fight(platoon(8), victories=2)  # EV 48 against ES 30 + 3 × 6: hard, 2 Victories
    assert report(fight.encounter).difficulty == "hard"
    rout(fight)
    assert fight.result().victories_after == 4


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
