"""Party encounter strength and budget bands: the Encounter Strength table cell by cell, the worked examples
of "Step 3" and "Factor in Victories", every band edge, mixed levels, retainers, and properties."""

from __future__ import annotations

import re
from fractions import Fraction
from math import floor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.encounter.party import budget, hero_strength, make_party
from workbench.errors import InvalidInput
from workbench.numbers import format_number
from workbench.rules.encounter_tables import DIFFICULTIES
from workbench.rules.ruleset import DATA_DIR

# The Encounter Strength Table of "Step 3: Determine Encounter Strength", copied row by row from the rules
# text ("Hero Level  1 Hero*  2 Heroes* ... 8 Heroes*"); rows are the 1st to 10th level.
TABLE_ROWS = {
    1: (6, 12, 18, 24, 30, 36, 42, 48),  # "1st 6 12 18 24 30 36 42 48"
    2: (8, 16, 24, 32, 40, 48, 56, 64),  # "2nd 8 16 24 32 40 48 56 64"
    3: (10, 20, 30, 40, 50, 60, 70, 80),  # "3rd 10 20 30 40 50 60 70 80"
    4: (12, 24, 36, 48, 60, 72, 84, 96),  # "4th 12 24 36 48 60 72 84 96"
    5: (14, 28, 42, 56, 70, 84, 98, 112),  # "5th 14 28 42 56 70 84 98 112"
    6: (16, 32, 48, 64, 80, 96, 112, 128),  # "6th 16 32 48 64 80 96 112 128"
    7: (18, 36, 54, 72, 90, 108, 126, 144),  # "7th 18 36 54 72 90 108 126 144"
    8: (20, 40, 60, 80, 100, 120, 140, 160),  # "8th 20 40 60 80 100 120 140 160"
    9: (22, 44, 66, 88, 110, 132, 154, 176),  # "9th 22 44 66 88 110 132 154 176"
    10: (24, 48, 72, 96, 120, 144, 168, 192),  # "10th 24 48 72 96 120 144 168 192"
}
TABLE = {(level, heroes): value for level, row in TABLE_ROWS.items() for heroes, value in enumerate(row, 1)}
RULES = DATA_DIR / "rules" / "monster-basics.txt"  # the rules text, copied into the repository


def _strength_table_from_rules() -> dict[tuple[int, int], int]:
    """The same table parsed from the rules text itself: (level, heroes) -> ES."""
    text = RULES.read_text()
    block = text[text.index("Encounter Strength Table") :].split("*Add one Hero")[0]
    cells: dict[tuple[int, int], int] = {}
    for line in block.splitlines():
        match = re.match(r"^(\d+)(?:st|nd|rd|th)\t(.*)$", line)
        if match:
            for heroes, value in enumerate(match[2].split("\t"), start=1):
                cells[(int(match[1]), heroes)] = int(value)
    return cells


def test_the_typed_table_is_the_rules_table():
    assert RULES.exists(), f"the rules text is expected at {RULES}"
    assert _strength_table_from_rules() == TABLE


def test_the_table_was_read_whole():
    # "Hero Level 1 Hero* ... 8 Heroes*" and rows "1st" to "10th": 80 cells.
    assert len(TABLE) == 80
    assert TABLE[(1, 1)] == 6 and TABLE[(10, 8)] == 192


def test_every_cell_of_the_encounter_strength_table():
    wrong = [
        (level, heroes, value, budget(make_party(heroes=heroes, level=level)).encounter_strength)
        for (level, heroes), value in TABLE.items()
        if budget(make_party(heroes=heroes, level=level)).encounter_strength != value
    ]
    assert wrong == []


def test_worked_examples_of_step_3():
    # "a 3rd-level hero has an encounter strength of 10 (4 + 2 + 2 + 2)"
    assert hero_strength(3) == 10
    # "a group of five 3rd-level heroes has an ES of 50"
    assert budget(make_party(heroes=5, level=3)).encounter_strength == 50
    # "If a 3rd-level retainer or NPC fights alongside the heroes, they count as a 3rd-level hero."
    with_retainer = budget(make_party(heroes=4, level=3, retainers=[3]))
    with_ally = budget(make_party(heroes=4, level=3, allies=[3]))
    assert with_retainer.encounter_strength == with_ally.encounter_strength == 50


@pytest.mark.parametrize(
    "victories, bonus",
    [
        (0, 0),  # no Victories, no bonus
        (1, 0),  # one Victory: less than 2, rounded down
        (2, 10),  # "if a party of 3rd-level heroes has 2 or 3 Victories each, increase the ES by 10"
        (3, 10),  # same sentence: 3 Victories
        (6, 30),  # "If they have 6 Victories each, increase the ES by 30."
        (Fraction(7, 2), 10),  # average 3.5: one extra hero
    ],
)
def test_factor_in_victories(victories, bonus):
    for heroes in (1, 4, 5):
        b = budget(make_party(heroes=heroes, level=3, victories=victories))
        assert b.victories_bonus == bonus
        assert b.encounter_strength == 10 * heroes + bonus


def test_victories_given_per_hero_are_averaged_exactly():
    # (2 + 3 + 4) / 3 = 3 -> one extra hero of 10 for five... here three 3rd-level heroes: 30 + 10
    b = budget(make_party(heroes=3, level=3, victories=[2, 3, 4]))
    assert b.party.victories == 3
    assert b.encounter_strength == 40


# Band edges, computed by hand from "Step 4: Determine Encounter Budget":
# trivial < ES - h; easy < ES; standard <= ES + h; hard <= ES + 3h; extreme above.
@pytest.mark.parametrize(
    "heroes, level, victories, ev, band",
    [
        # five 3rd-level heroes: ES 50, h 10
        (5, 3, 0, 39, "trivial"),  # below ES - h = 40
        (5, 3, 0, 40, "easy"),  # exactly ES - one hero: easy
        (5, 3, 0, 49, "easy"),  # one below ES
        (5, 3, 0, 50, "standard"),  # exactly ES
        (5, 3, 0, 60, "standard"),  # exactly ES + one hero: still standard
        (5, 3, 0, 61, "hard"),
        (5, 3, 0, 80, "hard"),  # exactly ES + three heroes: hard
        (5, 3, 0, 81, "extreme"),
        # four 1st-level heroes with 4 Victories: ES 24 + 2 x 6 = 36, h 6
        (4, 1, 4, 29, "trivial"),
        (4, 1, 4, 30, "easy"),  # ES - h = 30
        (4, 1, 4, 36, "standard"),  # ES
        (4, 1, 4, 42, "standard"),  # ES + h
        (4, 1, 4, 43, "hard"),
        (4, 1, 4, 54, "hard"),  # ES + 3h
        (4, 1, 4, 55, "extreme"),
        # one 10th-level hero: ES 24, h 24; trivial is empty (below 0)
        (1, 10, 0, 0, "easy"),
        (1, 10, 0, 24, "standard"),
        (1, 10, 0, 48, "standard"),
        (1, 10, 0, 49, "hard"),
        (1, 10, 0, 96, "hard"),
        (1, 10, 0, 97, "extreme"),
    ],
)
def test_band_edges(heroes, level, victories, ev, band):
    b = budget(make_party(heroes=heroes, level=level, victories=victories))
    assert b.difficulty(ev) == band
    found = [x.name for x in b.bands if x.min <= ev and (x.max is None or ev <= x.max)]
    assert found == [band]


def test_bands_as_whole_ev_ranges_for_the_book_party():
    # five 3rd-level heroes: ES 50, h 10 -> trivial 0-39, easy 40-49, standard 50-60, hard 61-80, extreme 81+
    b = budget(make_party(heroes=5, level=3))
    assert [(x.name, x.min, x.max) for x in b.bands] == [
        ("trivial", 0, 39),
        ("easy", 40, 49),
        ("standard", 50, 60),
        ("hard", 61, 80),
        ("extreme", 81, None),
    ]
    assert [x.victories for x in b.bands] == [0, 1, 1, 2, 2]  # Step 2: "typically worth"


def test_mixed_levels():
    # levels 1, 2, 2: ES 6 + 8 + 8 = 22; one hero's ES 22/3; average Victories 2 adds 22/3 -> 88/3.
    b = budget(make_party([1, 2, 2], victories=2))
    assert b.party_strength == 22
    assert b.hero_strength == Fraction(22, 3)
    assert b.encounter_strength == Fraction(88, 3)
    # trivial < 22; easy < 29 1/3; standard <= 36 2/3; hard <= 51 1/3
    assert [(x.min, x.max) for x in b.bands] == [(0, 21), (22, 29), (30, 36), (37, 51), (52, None)]
    assert b.difficulty(Fraction(117, 4)) == "easy"  # 29.25 is below ES = 29 1/3
    assert b.difficulty(Fraction(59, 2)) == "standard"  # 29.5 is at least ES
    assert format_number(b.encounter_strength) == "29 1/3"


def test_added_heroes_count_for_difficulty_only():
    # Save Another: one willing ally adds one hero of the party's strength (10) for difficulty.
    b = budget(make_party(heroes=5, level=3), added_heroes=1)
    assert b.encounter_strength == 60
    assert b.heroes == 5


def test_steps_show_the_working():
    b = budget(make_party(heroes=5, level=3, victories=2))
    shown = [str(s) for s in b.steps]
    assert "Party ES = 5 × (4 + 2 × 3) = 50" in shown
    assert "Encounter strength = 50 + 10 = 60" in shown


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"heroes": 0, "level": 3}, "invalid-heroes"),  # no heroes
        ({"heroes": 5, "level": 0}, "invalid-level"),  # levels start at 1
        ({"heroes": 5, "level": 3, "victories": -1}, "invalid-victories"),  # no negative Victories
        ({"heroes": 5, "level": 3, "victories": "many"}, "invalid-victories"),  # not a number
        ({"levels": []}, "invalid-levels"),  # nobody
        ({"levels": [3, 0]}, "invalid-levels"),  # a level 0 hero
        ({"heroes": 2.5, "level": 3}, "invalid-heroes"),  # not whole
        ({"heroes": 5, "level": 3, "retainers": [0]}, "invalid-retainers"),
    ],
)
def test_bad_party_input_is_refused_by_name(kwargs, code):
    with pytest.raises(InvalidInput) as caught:
        make_party(**kwargs)
    assert caught.value.code == code
    assert "accepts" in str(caught.value)


def test_unknown_difficulty_is_refused():
    with pytest.raises(InvalidInput) as caught:
        budget(make_party(heroes=5, level=3)).band("deadly")
    assert caught.value.code == "invalid-difficulty"


parties = st.builds(
    lambda levels, victories: make_party(levels, victories=victories),
    st.lists(st.integers(1, 20), min_size=1, max_size=10),
    st.fractions(min_value=0, max_value=12, max_denominator=6),
)


@given(parties)
@settings(max_examples=300)
def test_bands_are_contiguous_and_never_overlap(party):
    b = budget(party)
    assert [x.name for x in b.bands] == list(DIFFICULTIES)
    assert b.bands[0].min == 0 and b.bands[-1].max is None
    for before, after in zip(b.bands, b.bands[1:], strict=False):
        assert after.min == before.max + 1
    # Both answers change only at a band's edges (whole or exact): every EV beside one, and the middle of each band
    edges = [edge for band in b.bands for edge in (band.min, band.max, band.lower, band.upper) if edge is not None]
    evs = {floor(edge) + step for edge in edges for step in (-1, 0, 1, 2)}
    evs |= {(band.min + band.max) // 2 for band in b.bands if band.max is not None} | {b.bands[-1].min + 5}
    for ev in sorted(ev for ev in evs if ev >= 0):
        holding = [x.name for x in b.bands if x.contains(ev)]
        ranged = [x.name for x in b.bands if x.min <= ev and (x.max is None or ev <= x.max)]
        assert holding == ranged and len(holding) == 1


@given(parties, st.integers(0, 400), st.integers(0, 400))
@settings(max_examples=300)
def test_difficulty_never_falls_as_ev_rises(party, a, c):
    b = budget(party)
    low, high = sorted((a, c))
    assert DIFFICULTIES.index(b.difficulty(low)) <= DIFFICULTIES.index(b.difficulty(high))


@given(parties, st.integers(1, 20))
@settings(max_examples=200)
def test_more_victories_or_heroes_never_lower_the_strength(party, level):
    b = budget(party)
    more_victories = party.model_copy(update={"victories": party.victories + 2})
    assert budget(more_victories).encounter_strength >= b.encounter_strength
    bigger = make_party(list(party.levels) + [level], victories=party.victories)
    assert budget(bigger).party_strength > b.party_strength
