"""Every objective played over party sizes, compositions and durations, against a small reference written
from the objectives' text here (not the workbench's own code): when the fight ends, whether the heroes
succeed, and the Victories each hero earns."""

from __future__ import annotations

import itertools

import pytest
from fight_setups import BOSS, BRUTE, SPINECLEAVER, encounter, group, refusal

from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.fight.fight import Fight

ORDER = ("trivial", "easy", "standard", "hard", "extreme")
# "Victories" of each objective for easy, standard, hard, extreme (a hard value carries on where none is named)
VICTORIES = {
    "diminish_numbers": (1, 1, 2, 2), "defeat_a_specific_foe": (1, 1, 2, 2), "get_the_thing": (1, 1, 1, 2),
    "destroy_the_thing": (1, 1, 2, 2), "save_another": (1, 1, 2, 2), "escort": (1, 1, 1, 2),
    "hold_them_off": (1, 1, 1, 2), "assault_the_defenses": (1, 1, 2, 2), "stop_the_action": (1, 1, 1, 2),
    "complete_the_action": (1, 1, 1, 2),
}


def shifted(base: str, shift: int) -> str:
    return ORDER[min(max(ORDER.index(base) + shift, 0), len(ORDER) - 1)]


def reference_victories(key: str, difficulty: str, met: bool, bonus: bool) -> int:
    """ "they earn 2 Victories if ... and the encounter is of standard or higher difficulty"; trivial earns 0."""
    if not met or difficulty == "trivial":
        return 0
    value = VICTORIES[key][ORDER.index(difficulty) - 1]
    if bonus and ORDER.index(difficulty) >= ORDER.index("standard"):
        value = 2
    return value


def base_of(heroes: int, brutes: int) -> str:
    return report(encounter((BRUTE, brutes), heroes=heroes)).difficulty


def fight_of(key: str, heroes: int, brutes: int, durations=None, retainers=0, **conditions) -> Fight:
    party = make_party(heroes=heroes, level=1, retainers=[1] * retainers)
    enc = Encounter(party=party).adding(creature_from_monster(BRUTE, brutes))
    enc = enc.model_copy(update={"objectives": (choose_objective(key, **conditions),)})
    return Fight(enc, [BRUTE], durations=durations)


PARTIES = (2, 3, 4, 5, 6)
BRUTES = (2, 4, 6, 8)


# ---------------------------------------------------------------- Diminish Numbers


def diminish_deaths(condition: str, heroes: int, foes: int) -> int:
    """How many foes must fall: "outnumber their foes"; "two to one"; "half or less of what it was"."""
    for dead in range(foes + 1):
        left = foes - dead
        if (condition == "horde" and heroes > left) or (condition == "platoon" and heroes >= 2 * left) or (
                condition == "half" and 2 * left <= foes):
            return dead
    return foes


@pytest.mark.parametrize(("heroes", "brutes", "condition"),
                         list(itertools.product(PARTIES, BRUTES, ("half", "horde", "platoon"))))
def test_diminish_numbers_grid(heroes, brutes, condition):
    fight = fight_of("diminish_numbers", heroes, brutes)
    fight.choose("diminish_numbers", condition)
    need = diminish_deaths(condition, heroes, brutes)
    assert fight.ended == (need == 0)  # the heroes outnumber them from the start
    if need:
        fight.start_round()
    foes = [u.name for u in fight.units if u.kind != "hero"]
    for i, name in enumerate(foes[:need]):
        assert not fight.ended, (i, need)
        fight.dies(name)
    assert fight.ended and fight.state.objectives[0].status == "met"
    expected = reference_victories("diminish_numbers", base_of(heroes, brutes), True, False)
    assert fight.result().victories == expected


def test_diminish_numbers_two_minion_groups_end_with_no_non_minions():
    # "An encounter that includes two or more groups of minions ends when the heroes have no non-minion enemies
    # remaining."
    enc = encounter((BOSS, 1), (SPINECLEAVER, 8), groups=[group((0, 1)), group((1, 4)), group((1, 4))],
                    objectives=[choose_objective("diminish_numbers")])
    fight = Fight(enc, [BOSS, SPINECLEAVER])
    fight.choose("diminish_numbers", "minion_groups")
    fight.start_round()
    fight.dies("Goblin boss")
    assert fight.ended and fight.result().success
    lone = Fight(encounter((BRUTE, 2), objectives=[choose_objective("diminish_numbers")]), [BRUTE])
    refused = refusal(lambda: lone.choose("diminish_numbers", "minion_groups"))
    assert "two or more groups of minions" in refused.accepts


def test_diminish_numbers_does_not_count_reinforcements_at_the_start():
    # "The encounter ends when the number of remaining foes is half or less of what it was at the start."
    fight = fight_of("diminish_numbers", 4, 4)
    fight.start_round()
    fight.reinforce("Orc", 2)  # 6 foes now, 4 at the start: the end at 2 or fewer
    for name in ("Orc 1", "Orc 2", "Orc 3"):
        assert not fight.ended
        fight.dies(name)
    assert not fight.ended  # 3 left
    fight.dies("Orc 4")
    assert fight.ended


# ---------------------------------------------------------------- Hold Them Off


@pytest.mark.parametrize(("heroes", "retainers", "duration", "through"), [
    (h, r, d, t) for h in (2, 4, 6) for r in (0, 1) for d in (2, 3, 4, 5, 6) for t in range(h + r + 1)])
def test_hold_them_off_grid(heroes, retainers, duration, through):
    # "The heroes win if they survive for the encounter duration and allow fewer creatures through ... than the
    # number of heroes who started the encounter, including any retainers"; "one category harder if the
    # encounter duration is 5 rounds or greater"; "2 Victories if ... held off the enemy for an encounter
    # duration of 5 rounds or more and the encounter is of standard or higher difficulty"
    fight = fight_of("hold_them_off", heroes, 4, durations={"hold_them_off": duration}, retainers=retainers)
    base = report(Encounter(party=fight.encounter.party).adding(creature_from_monster(BRUTE, 4))).difficulty
    difficulty = shifted(base, 1 if duration >= 5 else 0)
    assert report(fight.encounter).difficulty == difficulty
    fight.start_round()
    for _ in range(through):
        fight.count("hold_them_off", "through")
    met = through < heroes + retainers
    assert fight.ended == (not met)
    if met:
        for _ in range(duration - 1):
            assert not fight.ended
            fight.start_round()
        fight.end_round()
    assert fight.ended
    assert fight.result().victories == reference_victories("hold_them_off", difficulty, met, duration >= 5)


@pytest.mark.parametrize("key", ["hold_them_off", "escort"])
def test_the_last_foe_falling_wins_neither_hold_them_off_nor_escort(key):
    # Hold Them Off: "The heroes win if they survive for the encounter duration"; Escort: "The heroes win when
    # the ward reaches their destination."
    fight = fight_of(key, 4, 2)
    fight.start_round()
    fight.dies("Orc 1")
    fight.dies("Orc 2")
    assert not fight.ended and fight.state.objectives[0].status == "open"


# ---------------------------------------------------------------- Complete the Action, Stop the Action


@pytest.mark.parametrize(("heroes", "duration", "failing"), [
    (h, d, f) for h in (2, 3, 5) for d in (1, 2, 3, 5, 6) for f in range(min(d, 3) + 1)])
def test_complete_the_action_grid(heroes, duration, failing):
    # "In each combat round, half or more of the heroes must use a maneuver to perform a task"; "At the end of
    # any combat round in which the heroes have failed to perform the required number of tasks, the party
    # accumulates one failure"; "The heroes win if they reach the end of the encounter duration with 1 or no
    # failures"; "one category harder if the encounter duration is 5 or more ... one category easier if the
    # encounter duration is 2 or less"
    fight = fight_of("complete_the_action", heroes, 4, durations={"complete_the_action": duration})
    difficulty = shifted(base_of(heroes, 4), 1 if duration >= 5 else -1 if duration <= 2 else 0)
    assert report(fight.encounter).difficulty == difficulty
    need = -(-heroes // 2)
    for r in range(1, duration + 1):
        if fight.ended:
            break
        fight.start_round()
        if fight.ended:  # the round before was the second failure
            break
        done = need - 1 if r <= failing else need
        for _ in range(done):
            fight.count("complete_the_action", "tasks")
    if not fight.ended:
        fight.end_round()
    met = failing <= 1
    assert fight.ended
    assert fight.result().victories == reference_victories("complete_the_action", difficulty, met, failing == 0)


@pytest.mark.parametrize(("duration", "stopped"), [(d, s) for d in (1, 2, 3, 4, 5) for s in (1, 2, 3, 4, 5, None)])
def test_stop_the_action_grid(duration, stopped):
    # "The heroes win if they stop the action before the encounter duration is up"; "one category harder if
    # the encounter duration is 2 rounds or less"; "2 Victories if ... the heroes stop the action before the
    # last round of the encounter duration and the encounter is of standard or higher difficulty"
    fight = fight_of("stop_the_action", 4, 4, durations={"stop_the_action": duration})
    difficulty = shifted(base_of(4, 4), 1 if duration <= 2 else 0)
    assert report(fight.encounter).difficulty == difficulty
    for r in range(1, duration + 1):
        fight.start_round()
        if r == stopped:
            fight.count("stop_the_action", "stopped")
            break
    if not fight.ended:
        fight.end_round()
    met = stopped is not None and stopped <= duration
    bonus = met and stopped is not None and stopped < duration
    assert fight.result().victories == reference_victories("stop_the_action", difficulty, met, bonus)


# ---------------------------------------------------------------- Get the Thing!, Escort, Destroy the Thing!


@pytest.mark.parametrize(("heroes", "brutes", "hurt"), list(itertools.product(PARTIES, BRUTES, (False, True))))
def test_get_the_thing_grid(heroes, brutes, hurt):
    # "The heroes win when all the heroes leave the encounter map with the thing."; "2 Victories if ... none of
    # the heroes took damage during an encounter of standard or higher difficulty"
    fight = fight_of("get_the_thing", heroes, brutes)
    fight.start_round()
    if hurt:
        fight.damage("Hero 1", 1)
    for _ in range(heroes):
        assert not fight.ended
        fight.count("get_the_thing", "escaped")
    assert fight.ended
    expected = reference_victories("get_the_thing", base_of(heroes, brutes), True, not hurt)
    assert fight.result().victories == expected


@pytest.mark.parametrize(("heroes", "arrives", "all_heroes"),
                         list(itertools.product((2, 4, 6), (1, 2, 3, 4, 5), (False, True))))
def test_escort_grid(heroes, arrives, all_heroes):
    # "2 Victories if ... the ward and all the heroes reach their destination in 3 rounds or less and the
    # encounter is of standard or higher difficulty"
    fight = fight_of("escort", heroes, 4)
    for _ in range(arrives):
        fight.start_round()
    for _ in range(heroes if all_heroes else heroes - 1):
        fight.count("escort", "heroes_at_exit")
    fight.count("escort", "at_exit")
    bonus = all_heroes and arrives <= 3
    assert fight.result().victories == reference_victories("escort", base_of(heroes, 4), True, bonus)


@pytest.mark.parametrize(("things", "needed"), [(t, n) for t in (1, 2, 3, 4) for n in range(1, t + 1)])
def test_destroy_the_thing_grid(things, needed):
    # "If the characters must destroy multiple things, divide the thing's Stamina between all of them"; "In a
    # multiple-thing setup, success might involve destroying only a certain number of the things."
    fight = fight_of("destroy_the_thing", 4, 4, multiple=things > 1)
    fight.set_things("destroy_the_thing", things, needed)
    fight.start_round()
    for _ in range(needed):
        assert not fight.ended
        fight.count("destroy_the_thing", "destroyed")
    assert fight.ended and fight.result().success


@pytest.mark.parametrize(("to_save", "lost"), [(n, k) for n in (1, 2, 3, 4, 5) for k in range(n + 1)])
def test_save_another_grid(to_save, lost):
    # "The heroes earn no Victories if more than half of the creatures meant to be saved were killed"; "2
    # Victories if ... all the creatures meant to be saved survived and the encounter is of standard or higher"
    fight = fight_of("save_another", 4, 4)
    fight.start_round()
    for _ in range(to_save):
        fight.count("save_another", "to_save")
    for _ in range(lost):
        if not fight.ended:
            fight.count("save_another", "lost")
    failed = 2 * lost > to_save
    assert fight.ended == failed
    if not failed:
        fight.settle("save_another", True)
    expected = reference_victories("save_another", base_of(4, 4), not failed, lost == 0)
    assert fight.result().victories == expected


@pytest.mark.parametrize(("heroes", "flees"), list(itertools.product(PARTIES, (False, True))))
def test_defeat_a_specific_foe_grid(heroes, flees):
    # "The heroes win when the designated creature or creatures are reduced to 0 Stamina."; "including a
    # scenario where designated creatures choose to flee"
    enc = encounter((BOSS, 1), (BRUTE, 2), heroes=heroes, objectives=[choose_objective("defeat_a_specific_foe")])
    fight = Fight(enc, [BOSS, BRUTE])
    fight.start_round()
    (fight.flees if flees else fight.dies)("Goblin boss")
    assert fight.ended
    base = report(encounter((BOSS, 1), (BRUTE, 2), heroes=heroes)).difficulty
    assert fight.result().victories == reference_victories("defeat_a_specific_foe", base, not flees, False)


@pytest.mark.parametrize("heroes", PARTIES)
def test_assault_the_defenses_grid(heroes):
    # "The heroes win when one or more heroes and none of their enemies have been in the defensive position
    # for 4 consecutive turns."
    fight = fight_of("assault_the_defenses", heroes, 4)
    fight.start_round()
    for _ in range(4):
        assert not fight.ended
        fight.count("assault_the_defenses", "held_turns")
    assert fight.ended
    assert fight.result().victories == reference_victories("assault_the_defenses", base_of(heroes, 4), True, False)
