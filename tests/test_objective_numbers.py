"""Numbers the objectives state in words, computed for the party and the foes."""

from __future__ import annotations

import pytest

from workbench.encounter.encounter import Encounter, creature_stamina, encounter_objective_numbers
from workbench.encounter.objective import (
    DIMINISH_CONDITIONS,
    choose_objective,
    complete_the_action_succeeds,
    complete_the_action_tasks,
    diminish_numbers_over,
    escort_start_distance,
    hold_them_off_limit,
    objective_numbers,
    solo_flee_stamina,
    with_duration,
)
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput
from workbench.monster.formulas import build_monster
from workbench.monster.solo import instant_solo


@pytest.mark.parametrize(
    "stamina, flees_at",
    [
        (200, 50),  # "reduced to one-quarter or less of their Stamina": 200 / 4
        (210, 52),  # 52.5 is the quarter: 52 is the highest whole Stamina at or below it
        (3, 0),
    ],
)
def test_a_solo_flees_at_a_quarter_of_its_stamina(stamina, flees_at):
    # Diminish Numbers: "that creature flees or surrenders when reduced to one-quarter or less of their Stamina
    # and after using all their villain actions"
    assert solo_flee_stamina(stamina) == flees_at


def test_the_encounter_gives_each_solo_its_fleeing_stamina():
    baron = instant_solo(build_monster(3, "leader").model_copy(update={"name": "Baron"}))
    e = Encounter(party=make_party(heroes=5, level=3)).adding(baron, "level 3 solo", "level 3 platoon brute")
    # the level 3 leader's Stamina ⌈(30 + 30) × 2⌉ = 120, × 2.5 = 300; a level 3 solo (30 + 30) × 5 = 300
    assert [creature_stamina(c) for c in e.creatures[:2]] == [baron.stamina, build_monster(3, "solo").stamina]
    lines = [line for line in encounter_objective_numbers(e, "diminish_numbers") if "flees" in line]
    assert len(lines) == 2  # the two solos, not the brute
    assert f"Baron (Stamina {baron.stamina}) flees or surrenders at ⌊{baron.stamina} ÷ 4⌋ = " \
           f"{baron.stamina // 4} Stamina or less" in lines[0]


def test_stamina_of_a_creature_saved_without_it():
    e = Encounter(party=make_party(heroes=5, level=3)).adding("level 3 leader instant solo")
    old = e.creatures[0].model_copy(update={"stamina": None})  # an encounter file of an earlier workbench
    assert creature_stamina(old) == instant_solo(build_monster(3, "leader")).stamina


def test_escort_start_distance():
    # "the ward's distance from the destination should be at least three times the ward's speed", "most
    # humanoid wards having speed 5"
    assert escort_start_distance() == 15
    assert escort_start_distance(7) == 21
    assert "= 15 squares" in " ".join(objective_numbers("escort", make_party(heroes=5, level=3)))
    with pytest.raises(InvalidInput):
        escort_start_distance(0)


def test_hold_them_off_counts_heroes_and_retainers():
    # "allow fewer creatures through ... than the number of heroes who started the encounter, including any
    # retainers on the heroes' side"
    party = make_party(heroes=4, level=3, retainers=[3])
    assert hold_them_off_limit(party) == 5
    assert "fewer than 5 creatures get through" in " ".join(objective_numbers("hold_them_off", party))


@pytest.mark.parametrize("failures, wins", [(0, True), (1, True), (2, False), (5, False)])
def test_complete_the_action_counts_failures(failures, wins):
    # "The heroes win if they reach the end of the encounter duration with 1 or no failures."; "2 or more
    # failures": no Victories
    assert complete_the_action_succeeds(failures) == wins


@pytest.mark.parametrize(("key", "rounds", "ticked"), [
    ("hold_them_off", 4, {"long_duration": 0}), ("hold_them_off", 6, {"long_duration": 1}),
    ("stop_the_action", 2, {"short_duration": 1}), ("stop_the_action", 3, {"short_duration": 0}),
    ("complete_the_action", 5, {"short_duration": 0, "long_or_tested": 1}),
    ("complete_the_action", 2, {"short_duration": 1}),
])
def test_a_duration_ticks_the_objectives_duration_conditions(key, rounds, ticked):
    # Hold Them Off: "one category harder if the encounter duration is 5 rounds or greater"; Stop the Action:
    # "one category harder if the encounter duration is 2 rounds or less"; Complete the Action: "one category
    # harder if the encounter duration is 5 or more ... one category easier if the encounter duration is 2 or
    # less"
    chosen = with_duration(choose_objective(key, long_duration=True) if key == "hold_them_off"
                           else choose_objective(key), rounds)
    assert {k: chosen.conditions.get(k, 0) for k in ticked} == ticked
    assert with_duration(choose_objective("escort"), 6) == choose_objective("escort")


@pytest.mark.parametrize(("heroes", "tasks"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_complete_the_action_tasks_are_half_the_heroes_or_more(heroes, tasks):
    # "In each combat round, half or more of the heroes must use a maneuver to perform a task"
    assert complete_the_action_tasks(heroes) == tasks
    assert 2 * tasks >= heroes and 2 * (tasks - 1) < heroes


@pytest.mark.parametrize(("condition", "heroes", "foes", "start", "non_minions", "over"), [
    ("horde", 4, 4, 8, 4, False), ("horde", 4, 3, 8, 3, True),  # "outnumber their foes"
    ("platoon", 4, 3, 8, 3, False), ("platoon", 4, 2, 8, 2, True),  # "two to one"
    ("half", 4, 5, 9, 5, False), ("half", 4, 4, 9, 4, True),  # "half or less of what it was at the start"
    ("minion_groups", 4, 8, 9, 1, False), ("minion_groups", 4, 8, 9, 0, True),  # "no non-minion enemies"
    ("solo", 4, 1, 1, 1, False),
])
def test_diminish_numbers_conditions(condition, heroes, foes, start, non_minions, over):
    assert diminish_numbers_over(condition, heroes, foes, start, non_minions) is over
    assert DIMINISH_CONDITIONS[condition].endswith(".")
