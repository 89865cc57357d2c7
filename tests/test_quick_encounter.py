"""Quick Encounter Building: hero slots from party size and Victories, the difficulty adjustments, the slot
values of each organization, the level limits, terrain advice, and the comparison with the EV method."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.encounter.encounter import parse_spec
from workbench.encounter.party import make_party
from workbench.encounter.quick_method import fills, quick_plan, slots_of, terrain_advice
from workbench.errors import InvalidInput
from workbench.rules.encounter_tables import DIFFICULTIES


def party(heroes=5, level=3, victories=0):
    return make_party(heroes=heroes, level=level, victories=victories)


@pytest.mark.parametrize(
    "heroes, victories, difficulty, slots, max_slots",
    [
        (5, 0, "trivial", 3, 3),  # "subtract two hero slots"
        (5, 0, "easy", 4, 4),  # "subtract one hero slot"
        (5, 0, "standard", 5, 6),  # no creatures yet: "You can add one more hero slot if none ... higher"
        (5, 0, "hard", 7, 8),  # "add two hero slots" (+1 "if not all the creatures ... are a higher level")
        (5, 0, "extreme", 9, None),  # "add four or more hero slots"
        (5, 2, "standard", 6, 7),  # "For every two Victories ... add another hero"
        (5, 3, "standard", 6, 7),  # 3 Victories: still one extra hero
        (4, 4, "easy", 5, 5),  # 4 heroes + 2 for Victories - 1
        (1, 0, "trivial", 0, 0),  # never fewer than zero slots
    ],
)
def test_hero_slots(heroes, victories, difficulty, slots, max_slots):
    plan = quick_plan(party(heroes, 3, victories), difficulty)
    assert plan.slots == slots
    assert plan.max_slots == max_slots


@pytest.mark.parametrize(
    "spec, slots",
    [
        ("8 x level 3 minion harrier", 1),  # "Eight minions fill one hero slot."
        ("4 x level 3 minion harrier", Fraction(1, 2)),  # half a set of eight
        ("2 x level 3 horde harrier", 1),  # "Two horde creatures fill one hero slot."
        ("1 x level 3 platoon brute", 1),  # "One platoon creature fills one hero slot."
        ("1 x level 3 leader", 2),  # "One leader or elite creature fills two hero slots."
        ("1 x level 3 elite brute", 2),
        ("1 x level 3 solo", 6),  # "six hero slots"
        ("1 x level 4 solo", 7),  # "plus one slot for each level the creature is higher than the heroes"
        ("1 x level 2 solo", 6),  # lower level: no fewer than six
    ],
)
def test_slot_values(spec, slots):
    assert slots_of(parse_spec(spec), 3) == slots


def test_a_solo_above_a_mixed_party_counts_started_levels():
    # average level 3.5: a level 5 solo is 1.5 levels above -> 2 extra slots (reading: started levels)
    assert slots_of(parse_spec("level 5 solo"), Fraction(7, 2)) == 8


def test_standard_bonus_slot_only_when_no_creature_is_above_the_heroes():
    same = quick_plan(party(), "standard", [parse_spec("5 x level 3 platoon brute")])
    assert same.bonus_slot and same.max_slots == 6 and same.fits
    higher = quick_plan(party(), "standard", [parse_spec("5 x level 4 platoon brute")])
    assert not higher.bonus_slot and higher.max_slots == 5 and higher.fits


def test_hard_bonus_slot_unless_all_creatures_are_above():
    mixed = quick_plan(party(), "hard", [parse_spec("4 x level 5 platoon brute"), parse_spec("4 x level 3 platoon brute")])
    assert mixed.bonus_slot and mixed.max_slots == 8 and mixed.fits  # 8 slots used of 7-8
    above = quick_plan(party(), "hard", [parse_spec("8 x level 4 platoon brute")])
    assert not above.bonus_slot and not above.fits  # 8 slots used, at most 7


@pytest.mark.parametrize(
    "difficulty, spec, problem",
    [
        ("trivial", "level 4 platoon brute", "above"),  # "Use only creatures of the heroes' level or lower."
        ("trivial", "level 1 platoon brute", None),
        ("easy", "level 5 platoon brute", "above"),  # "the heroes' level or one level higher"
        ("easy", "level 2 platoon brute", "below"),
        ("easy", "level 4 platoon brute", None),
        ("standard", "level 4 platoon brute", None),
        ("hard", "level 5 platoon brute", None),  # "up to two levels higher"
        ("hard", "level 6 platoon brute", "above"),
        ("hard", "level 4 solo", None),  # "or up to one level higher for solo creatures"
        ("hard", "level 5 solo", "above"),
        ("extreme", "level 9 platoon brute", None),  # "the heroes' level or higher"
        ("extreme", "level 2 platoon brute", "below"),
    ],
)
def test_level_limits(difficulty, spec, problem):
    plan = quick_plan(party(), difficulty, [parse_spec(spec)])
    if problem:
        assert len(plan.level_problems) == 1 and problem in plan.level_problems[0]
    else:
        assert plan.level_problems == ()


@pytest.mark.parametrize(
    "difficulty, low, high",
    [
        ("trivial", 1, 2),  # "one or two dynamic terrain objects for encounters of standard difficulty or easier"
        ("easy", 1, 2),
        ("standard", 1, 2),
        ("hard", 2, 3),  # "Add two to three dynamic terrain objects to hard and extreme encounters."
        ("extreme", 2, 3),
    ],
)
def test_terrain_advice(difficulty, low, high):
    assert terrain_advice(difficulty)[:2] == (low, high)


def test_compared_with_the_ev_method():
    # Standard for five 3rd-level heroes, quick method: 5 slots = 5 platoon creatures of level 3 (EV 10
    # each): 50 EV, which the EV method also calls standard (50-60).
    plan = quick_plan(party(), "standard", [parse_spec("5 x level 3 platoon brute")])
    assert plan.used == 5 and plan.ev == 50 and plan.ev_band == "standard"
    # Hard: 7 slots as a level 3 leader (2) + 5 platoon (5): 20 + 50 = 70, hard by EV (61-80)
    plan = quick_plan(party(), "hard", [parse_spec("level 3 leader"), parse_spec("5 x level 3 platoon brute")])
    assert plan.used == 7 and plan.ev == 70 and plan.ev_band == "hard"


def test_fills():
    # 3 slots: 24 minions, 6 horde, 3 platoon, 1 elite or leader (whole creatures only)
    assert fills(3) == {"minion": 24, "horde": 6, "platoon": 3, "elite": 1, "leader": 1}


def test_bad_input():
    with pytest.raises(InvalidInput) as caught:
        quick_plan(party(), "deadly")
    assert caught.value.code == "invalid-difficulty"
    with pytest.raises(InvalidInput):
        quick_plan("five heroes", "easy")


@given(
    st.lists(st.integers(1, 10), min_size=1, max_size=9),
    st.fractions(min_value=0, max_value=12, max_denominator=4),
)
@settings(max_examples=200)
def test_harder_difficulties_never_have_fewer_slots(levels, victories):
    # "subtract two" < "subtract one" < standard < "add two" < "add four or more"
    p = make_party(levels, victories=victories)
    slots = [quick_plan(p, d).slots for d in DIFFICULTIES]
    assert slots == sorted(slots)
    assert all(s >= 0 for s in slots)
    # one more hero (a retainer counts) is one more slot, never fewer
    bigger = make_party(levels, victories=victories, retainers=[levels[0]])
    assert quick_plan(bigger, "standard").slots == slots[2] + 1


@given(st.integers(1, 16), st.sampled_from(["minion", "horde", "platoon", "elite", "leader", "solo"]), st.integers(1, 10))
@settings(max_examples=200)
def test_slots_grow_with_the_count(count, organization, level):
    role = "" if organization in ("leader", "solo") else " harrier"
    one = slots_of(parse_spec(f"level {level} {organization}{role}"), 3)
    many = slots_of(parse_spec(f"{count} x level {level} {organization}{role}"), 3)
    assert many == count * one and one > 0
