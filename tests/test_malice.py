"""Malice: the schedule against the rules text's example, the spending plan, and the table-side tracker."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import workbench as wb
from workbench.fight.malice_features import basic_malice_features, encounter_features
from workbench.fight.malice_plan import affordable_rounds, spending_plan
from workbench.fight.malice_schedule import average_victories, malice_schedule
from workbench.fight.malice_tracker import MaliceTracker, end_encounter, hero_dies, spend, start_encounter, start_round
from workbench.model import Trait
from workbench.monster.solo import solo_action

BRUTAL = Trait(name="Brutal Effectiveness", text="(test copy)", cost=3)
STRIKE = Trait(name="Malicious Strike", text="(test copy)", cost=5)
SOLO = Trait(name="Solo Action", text="(test copy)", cost=5)
BIG = Trait(name="Goblin Mode", text="a custom 7-cost feature", cost=7)


def gains(rounds):
    return [r.gain for r in rounds]


def totals(rounds):
    return [r.total for r in rounds]


# ---------------------------------------------------------------- the schedule: the book's example


def test_book_example_five_heroes_three_victories():
    # "if five heroes with three Victories each are just starting their first combat round, you begin that
    #  combat with 9 Malice-3 for the average number of Victories, 5 for the number of heroes, and 1 for the
    #  first round of combat. At the start of the next round ... you gain 7 Malice ... you gain 8 Malice in
    #  the third round, 9 Malice in the fourth round, and so on."
    schedule = malice_schedule(heroes=5, victories=3, rounds=5)
    assert gains(schedule) == [9, 7, 8, 9, 10]
    # Running totals by hand: 9, 9+7=16, 16+8=24, 24+9=33, 33+10=43.
    assert totals(schedule) == [9, 16, 24, 33, 43]


def test_round_one_working_shows_victories_heroes_and_round():
    # "9 Malice-3 for the average number of Victories, 5 for the number of heroes, and 1 for the first round"
    first, second = malice_schedule(5, 3, 2)
    assert str(first.step()) == "Malice gained in round 1 = 3 + 5 + 1 = 9"
    # "you gain 7 Malice-5 for the number of heroes plus 2 for the second round"
    assert str(second.step()) == "Malice gained in round 2 = 5 + 2 = 7"


@pytest.mark.parametrize(
    ("victories", "expected"),
    [
        (3, 3),                 # already an average
        ([3, 3, 3, 3, 3], 3),   # the book's five heroes with three each
        ([2, 3, 3, 3, 3], 2),   # 14 / 5 = 2.8, rounded down (RULES-READINGS: rounded down)
        ([0, 0, 0, 0, 4], 0),   # 4 / 5 = 0.8 -> 0
        ([4, 4, 4, 4, 4], 4),   # exact
    ],
)
def test_average_victories_rounds_down(victories, expected):
    assert average_victories(victories, heroes=5) == expected


@pytest.mark.parametrize(
    ("deaths", "expected_gains"),
    [
        # One hero dies during round 1, counted before round 2's gain: 3+5+1, 4+2, 4+3, 4+4.
        ({2: 1}, [9, 6, 7, 8]),
        # Deaths before the first gain count in it: 3 + 4 + 1 = 8.
        ({1: 1}, [8, 6, 7, 8]),
        # Two deaths in different rounds: 9, 4+2=6, 3+3=6, 3+4=7.
        ({2: 1, 3: 1}, [9, 6, 6, 7]),
        # The whole party falls before round 3: only the round number remains.
        ({3: 5}, [9, 7, 3, 4]),
        # Given as pairs, repeated rounds add up (same as {2: 2}): 9, 3+2, 3+3, 3+4.
        ([(2, 1), (2, 1)], [9, 5, 6, 7]),
    ],
)
def test_deaths_count_before_that_rounds_gain(deaths, expected_gains):
    assert gains(malice_schedule(5, 3, 4, deaths)) == expected_gains


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"heroes": 0, "victories": 3, "rounds": 5}, "heroes"),           # no heroes, no fight
        ({"heroes": 5, "victories": -1, "rounds": 5}, "victories"),       # Victories are never negative
        ({"heroes": 5, "victories": [3, 3], "rounds": 5}, "victories"),   # one per hero, five heroes
        ({"heroes": 5, "victories": 3, "rounds": 0}, "rounds"),           # at least one round
        ({"heroes": 5, "victories": 3, "rounds": 2.5}, "rounds"),         # whole rounds only
        ({"heroes": 5, "victories": 3, "rounds": 3, "deaths": {4: 1}}, "deaths"),  # beyond the fight
        ({"heroes": 5, "victories": 3, "rounds": 3, "deaths": {2: 6}}, "deaths"),  # more than the heroes
        ({"heroes": 5, "victories": 3, "rounds": 3, "deaths": {0: 1}}, "deaths"),  # no round 0
        ({"heroes": True, "victories": 3, "rounds": 3}, "heroes"),        # a bool is not a count
    ],
)
def test_schedule_refuses_bad_input_naming_the_field(kwargs, field):
    with pytest.raises(wb.InvalidInput) as caught:
        malice_schedule(**kwargs)
    assert caught.value.field == field
    assert caught.value.accepts


@given(
    heroes=st.integers(1, 8),
    victories=st.integers(0, 16),
    rounds=st.integers(1, 12),
    data=st.data(),
)
def test_schedule_matches_the_formula_round_by_round(heroes, victories, rounds, data):
    died = data.draw(st.lists(st.integers(1, rounds), max_size=heroes))
    deaths = [(r, 1) for r in died]
    schedule = malice_schedule(heroes, victories, rounds, deaths)
    total = 0
    for r in schedule:
        living = heroes - sum(1 for d in died if d <= r.round)
        expected = living + r.round + (victories if r.round == 1 else 0)
        total += expected
        assert (r.heroes, r.gain, r.total) == (living, expected, total)
    assert all(later.total > earlier.total for earlier, later in zip(schedule, schedule[1:], strict=False))


# ---------------------------------------------------------------- planning


def test_basic_features_come_from_the_feature_data():
    # "Brutal Effectiveness (3 Malice)", "Malicious Strike (5+ Malice)", "Solo Action (5 Malice)"
    costs = {f.name: f.cost for f in (*basic_malice_features(), solo_action())}
    assert costs == {"Brutal Effectiveness": 3, "Malicious Strike": 5, "Solo Action": 5}


def test_encounter_features_are_the_basic_ones_then_each_monsters_own_once():
    # "All monsters have access to the following Malice features, in addition to any "[Creature] Malice"
    #  features they might have." An instant solo gains "Solo Action (5 Malice)".
    drums = Trait(name="War Drums", text="a band feature", cost=7)
    band = wb.build_monster(level=2, organization="platoon", role="brute").model_copy(
        update={"name": "Orc", "malice_features": (drums,)})
    solo = wb.instant_solo(wb.build_monster(level=2, organization="leader"))
    twice = band.model_copy(update={"name": "Orc 2"})  # the same band feature again: listed once
    found = encounter_features([band, solo, twice], extra=[BIG])
    assert [(f.name, f.cost) for f in found] == [
        ("Brutal Effectiveness", 3), ("Malicious Strike", 5), ("War Drums", 7), ("Solo Action", 5),
        ("Goblin Mode", 7),
    ]
    assert [f.name for f in encounter_features()] == ["Brutal Effectiveness", "Malicious Strike"]
    with pytest.raises(wb.InvalidInput) as caught:
        encounter_features(["Orc"])
    assert caught.value.field == "monsters"


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


# ---------------------------------------------------------------- the tracker


def level(n, organization="platoon", role="brute"):
    return wb.build_monster(level=n, organization=organization, role=role).model_copy(update={"name": "Orc"})


def test_tracker_follows_the_book_example():
    t = MaliceTracker(heroes=5, victories=3)
    assert t.malice == 0 and t.round == 0
    t.start_round()
    assert t.malice == 9      # "you begin that combat with 9 Malice"
    t.start_round()
    assert t.malice == 16     # + 7
    t.start_round()
    assert t.malice == 24     # + 8


def test_tracker_spend_refused_when_short_and_nothing_changes():
    t = MaliceTracker(heroes=2, victories=0)
    t.start_round()           # 0 + 2 + 1 = 3
    before = t.state
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(SOLO)         # 5 > 3
    assert caught.value.field == "amount"
    assert t.state == before
    t.spend(BRUTAL)
    assert t.malice == 0


def test_malicious_strike_refused_two_rounds_in_a_row_even_by_different_monsters():
    t = MaliceTracker(heroes=5, victories=3)
    t.start_round()
    t.spend(STRIKE, monster=level(1))
    t.start_round()
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(STRIKE, monster=level(4))  # a different monster, the next round
    assert caught.value.field == "feature"
    t.spend(BRUTAL)                         # other features are fine
    t.start_round()
    t.spend(STRIKE, monster=level(4))       # a round later it is allowed again


@pytest.mark.parametrize(
    ("monster_level", "organization", "role", "amount", "extra"),
    [
        # Level 1 platoon: highest characteristic 1 + echelon 1 = 2. 5 Malice: +2.
        (1, "platoon", "brute", 5, 2),
        # "increases by 1 for each additional Malice": 6 Malice -> +3.
        (1, "platoon", "brute", 6, 3),
        # "to a maximum of three times the monster's highest characteristic": 3 x 2 = 6 at 9 Malice.
        (1, "platoon", "brute", 9, 6),
        # Level 10 leader: 1 + 4 + 1 = 6, but "at most +5": 5. 5 Malice -> +5; cap 15 at 5 + 10 = 15 Malice.
        (10, "leader", None, 5, 5),
        (10, "leader", None, 15, 15),
    ],
)
def test_malicious_strike_extra_damage_in_the_log(monster_level, organization, role, amount, extra):
    t = MaliceTracker(heroes=8, victories=20)  # 20 + 8 + 1 = 29 in round 1: enough for every row
    t.start_round()
    t.spend(STRIKE, amount=amount, monster=level(monster_level, organization, role))
    assert f"+{extra} damage" in t.log[-1].text
    assert t.malice == 29 - amount


def test_malicious_strike_beyond_three_times_is_refused():
    t = MaliceTracker(heroes=8, victories=20)
    t.start_round()
    # Level 1 platoon: 2 to 6 extra, so 5 to 9 Malice; 10 would buy nothing more.
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(STRIKE, amount=10, monster=level(1))
    assert caught.value.field == "amount"
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(STRIKE)  # whose strike? the damage needs the monster's highest characteristic
    assert caught.value.field == "monster"


def test_tracker_deaths_undo_log_and_end():
    t = MaliceTracker(heroes=5, victories=3)
    t.start_round()             # 9
    t.hero_dies()               # dies in round 1: missing from round 2's gain
    t.start_round()             # + 4 + 2 = 15
    assert t.malice == 15
    t.undo()
    t.undo()
    assert t.malice == 9 and t.state.living == 5
    t.start_round()
    assert t.malice == 16
    t.end_encounter()           # "At the end of an encounter, any unused Malice is lost."
    assert t.malice == 0
    assert t.log[-1].kind == "end" and "16 unused Malice lost" in t.log[-1].text
    with pytest.raises(wb.InvalidInput):
        t.start_round()         # the encounter is over
    t.reset()
    assert (t.malice, t.round, t.state.living, t.state.ended) == (0, 0, 5, False)


def test_undo_with_nothing_to_undo_is_refused():
    with pytest.raises(wb.InvalidInput) as caught:
        MaliceTracker(heroes=3, victories=0).undo()
    assert caught.value.field == "undo"


def test_spend_before_the_first_round_is_refused():
    with pytest.raises(wb.InvalidInput):
        spend(start_encounter(5, 3), BRUTAL)


# ---------------------------------------------------------------- properties


ACTIONS = st.lists(
    st.one_of(
        st.just(("round",)),
        st.tuples(st.just("die"), st.integers(1, 3)),
        st.tuples(st.just("spend"), st.sampled_from([BRUTAL, STRIKE, SOLO, BIG]), st.integers(0, 4)),
        st.just(("undo",)),
    ),
    max_size=30,
)


def perform(t, action, monster):
    if action[0] == "round":
        t.start_round()
    elif action[0] == "die":
        t.hero_dies(action[1])
    else:
        feature, more = action[1], action[2]
        extra = more if feature is STRIKE else 0
        t.spend(feature, amount=feature.cost + extra, monster=monster)


@given(heroes=st.integers(1, 6), victories=st.integers(0, 6), actions=ACTIONS)
def test_tracker_malice_never_negative_and_undo_restores_exactly(heroes, victories, actions):
    monster = level(3)
    t = MaliceTracker(heroes, victories)
    for action in actions:
        if action[0] == "undo":
            if t.can_undo:
                t.undo()
            continue
        before = t.state
        try:
            perform(t, action, monster)
        except wb.InvalidInput:
            assert t.state == before  # a refusal changes nothing
            continue
        assert t.malice >= 0
        after = t.state
        t.undo()
        assert t.state == before      # undo restores the exact prior state
        perform(t, action, monster)   # and doing it again gives the same state
        assert t.state == after


@given(heroes=st.integers(1, 6), victories=st.integers(0, 6), rounds=st.integers(1, 8), data=st.data())
def test_tracker_gains_agree_with_the_schedule(heroes, victories, rounds, data):
    died = data.draw(st.lists(st.integers(2, rounds + 1), max_size=heroes))
    state = start_encounter(heroes, victories)
    for number in range(1, rounds + 1):
        for _ in [d for d in died if d == number]:
            state = hero_dies(state)
        state = start_round(state)
    schedule = malice_schedule(heroes, victories, rounds, [(d, 1) for d in died if d <= rounds])
    assert state.malice == schedule[-1].total
    assert end_encounter(state).malice == 0


@pytest.mark.parametrize(
    "victories, start",
    [
        (Fraction(5, 2), 2),  # "the average number of Victories per hero": 2.5, rounded down
        (Decimal("3.9"), 3),
        (2.5, 2),
        (Fraction(0), 0),
    ],
)
def test_a_fractional_average_is_rounded_down(victories, start):
    assert gains(malice_schedule(5, victories, 1)) == [start + 5 + 1]


def test_a_negative_average_is_refused():
    with pytest.raises(wb.InvalidInput) as caught:
        malice_schedule(5, Fraction(-1, 2), 1)
    assert caught.value.field == "victories"
