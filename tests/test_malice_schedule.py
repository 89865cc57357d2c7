"""The Malice schedule (`workbench.fight.malice_schedule`) against the rules text's example: the gain each
round, the average Victories rounded down, deaths counted before a round's gain."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from malice_setups import gains, totals

import workbench as wb
from workbench.fight.malice_schedule import average_victories, malice_schedule

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
