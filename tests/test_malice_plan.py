"""The spending plan (`workbench.fight.malice_plan`): each wished-for feature bought in the earliest round it
fits, Malicious Strike never two rounds running, the per-round cap and the monsters' turns."""

from __future__ import annotations

import pytest
from malice_setups import BIG, BRUTAL, STRIKE, totals

import workbench as wb
from workbench.errors import InvalidInput
from workbench.fight.malice_plan import affordable_rounds, spending_plan
from workbench.fight.malice_schedule import malice_schedule
from workbench.model import Trait

OWN = Trait(name="Goblin Malice: Swarm", text="Every goblin shifts 2.", cost=3)


def test_when_each_feature_becomes_affordable():
    # Two heroes with no Victories: totals 0+2+1=3, +2+2=7, +2+3=12 (by hand).
    schedule = malice_schedule(2, 0, 3)
    assert totals(schedule) == [3, 7, 12]
    big = Trait(name="Huge", text="", cost=20)
    assert affordable_rounds(schedule, [BRUTAL, STRIKE, BIG, big]) == {
        "Brutal Effectiveness": 1,  # 3 >= 3 in round 1
        "Malicious Strike": 2,      # 7 >= 5 first in round 2
        "Goblin Mode": 2,           # 7 >= 7 in round 2
        "Huge": None,               # 12 < 20 after three rounds
    }


def test_plan_buys_in_order_and_saves_up_for_the_front_of_the_queue():
    # Five heroes, three Victories: 9, 7, 8 (the book's numbers).
    schedule = malice_schedule(5, 3, 3)
    plan = spending_plan(schedule, [BIG, BRUTAL, BIG])
    # Round 1: 9 on hand; 7 for Goblin Mode (2 left), Brutal Effectiveness needs 3: waits.
    # Round 2: 2 + 7 = 9; Brutal Effectiveness (6 left); Goblin Mode needs 7: waits.
    # Round 3: 6 + 8 = 14; Goblin Mode (7 left). Unused 7 is lost at the end.
    assert [[p.feature.name for p in r.bought] for r in plan.rounds] == [
        ["Goblin Mode"], ["Brutal Effectiveness"], ["Goblin Mode"]
    ]
    assert [r.available for r in plan.rounds] == [9, 9, 14]
    assert [r.left for r in plan.rounds] == [2, 6, 7]
    assert plan.lost == 7
    assert plan.unbought == ()


def test_plan_never_puts_malicious_strike_in_two_rounds_in_a_row():
    # "This feature can't be used two rounds in a row, even by different monsters."
    schedule = malice_schedule(5, 3, 4)  # 9, 7, 8, 9
    plan = spending_plan(schedule, [STRIKE, STRIKE, STRIKE])
    rounds_used = [r.round for r in plan.rounds for p in r.bought if p.feature.name == "Malicious Strike"]
    # Round 1: 9 -> strike (4 left); round 2: 11 on hand but last round had one: wait; round 3: 19 ->
    # strike (14 left) and, in the same round, the next one (9 left); the book bars rounds in a row only.
    assert rounds_used == [1, 3, 3]
    assert all(b - a != 1 for a, b in zip(rounds_used, rounds_used[1:], strict=False))


def test_plan_per_round_cap_and_unbought():
    schedule = malice_schedule(5, 3, 2)  # 9, 7
    plan = spending_plan(schedule, [BRUTAL, BRUTAL, BRUTAL, BRUTAL, BIG, BIG], per_round=2)
    # Round 1: 9 -> two Brutal (3 left). Round 2: 10 -> two Brutal (4 left); Goblin Mode x2 never fit.
    assert [len(r.bought) for r in plan.rounds] == [2, 2]
    assert [p.feature.name for p in plan.unbought] == ["Goblin Mode", "Goblin Mode"]


def test_plan_takes_malicious_strike_with_more_malice():
    plan = spending_plan(malice_schedule(5, 3, 1), [(STRIKE, 8)])
    assert plan.rounds[0].spent == 8


def test_plan_advice_flags_a_missing_band():
    # "Just pick a feature costing 2 to 3 Malice, a feature costing 5 Malice, and a feature costing 7 to 10"
    covered = spending_plan(malice_schedule(5, 3, 2), [BRUTAL, STRIKE, BIG])
    assert covered.advice == ()
    missing = spending_plan(malice_schedule(5, 3, 2), [BRUTAL, STRIKE])
    assert len(missing.advice) == 1 and "7 to 10" in missing.advice[0]


@pytest.mark.parametrize(
    "wish",
    [
        Trait(name="Rage", text="", cost=None),       # a trait without a cost is not a Malice feature
        (BRUTAL, 4),                                  # only Malicious Strike takes more than its cost
        (STRIKE, 4),                                  # Malicious Strike costs at least 5
        "Brutal Effectiveness",                       # a name is not a feature
    ],
)
def test_plan_refuses_bad_wishes(wish):
    with pytest.raises(wb.InvalidInput):
        spending_plan(malice_schedule(5, 3, 2), [wish])


def test_planner_knows_monster_turns():
    # two monster turns a round: at most two basic features in a round, and each own feature at most twice
    schedule = malice_schedule(5, 10, 2)  # 16, then 7
    wishes = [BRUTAL, BRUTAL, BRUTAL, OWN]
    free = spending_plan(schedule, wishes)
    assert [len(r.bought) for r in free.rounds] == [4, 0]
    turns = spending_plan(schedule, wishes, monster_turns=2)
    assert [[p.feature.name for p in r.bought] for r in turns.rounds] == [
        ["Brutal Effectiveness", "Brutal Effectiveness"],
        ["Brutal Effectiveness", OWN.name],
    ]
    with pytest.raises(InvalidInput, match="monster_turns"):
        spending_plan(schedule, wishes, monster_turns=0)
