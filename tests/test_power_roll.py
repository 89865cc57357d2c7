"""Power-roll math: tier odds against a plain enumeration of the 100 dice outcomes, hand-checked rows,
properties, expected damage, and refusals of bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.errors import InvalidInput
from workbench.monster.power_roll import MAX_BONUS, MIN_BONUS, expected_damage, roll_tier, tier_odds

COUNTS = (0, 1, 2)
BONUSES = range(-5, 7)  # -5 .. +6: from a weak minion's roll to the highest bonus the formulas give


def enumerate_odds(bonus: int, edges: int, banes: int) -> tuple[Fraction, Fraction, Fraction]:
    """Roll every one of the 100 (die 1, die 2) pairs by hand and tally the tiers.

    Written independently of the module: a case per net edge/bane written out, the tier from an if-ladder.
    """
    tally = {1: 0, 2: 0, 3: 0}
    for die_1 in range(1, 11):
        for die_2 in range(1, 11):
            natural = die_1 + die_2
            net = edges - banes
            if net == 1:
                total, shift = natural + bonus + 2, 0
            elif net == -1:
                total, shift = natural + bonus - 2, 0
            elif net == 2:
                total, shift = natural + bonus, 1
            elif net == -2:
                total, shift = natural + bonus, -1
            else:
                total, shift = natural + bonus, 0
            if total <= 11:
                tier = 1
            elif total <= 16:
                tier = 2
            else:
                tier = 3
            tier += shift
            if tier < 1:
                tier = 1
            if tier > 3:
                tier = 3
            if natural == 19 or natural == 20:  # always tier 3, also under a double bane
                tier = 3
            tally[tier] += 1
    return (Fraction(tally[1], 100), Fraction(tally[2], 100), Fraction(tally[3], 100))


def test_tier_odds_equal_the_enumeration_of_the_100_outcomes():
    """Every bonus, edge and bane count against the enumeration: one rule, so one test naming each mismatch."""
    mismatches = []
    for bonus in BONUSES:
        for edges in COUNTS:
            for banes in COUNTS:
                odds = tier_odds(bonus, edges, banes)
                if odds != enumerate_odds(bonus, edges, banes) or sum(odds) != 1:
                    mismatches.append((bonus, edges, banes, odds))
                assert all(isinstance(p, Fraction) for p in odds), (bonus, edges, banes)
    assert mismatches == []


# Hand-checked rows. Ways to roll each natural sum s on 2d10: s-1 for s <= 11, 21-s above (11 has 10 ways).
HAND_CHECKED = [
    # bonus 0, nothing: tier 1 = sums 2..11 = 1+2+...+10 = 55; tier 3 = sums 17..20 = 4+3+2+1 = 10 (the
    # naturals 19 and 20 are already 17 or more, nothing added); tier 2 = the rest, 35.
    (0, 0, 0, (55, 35, 10)),
    # bonus 0, single edge = +2: tier 3 = sums 15..20 = 6+5+4+3+2+1 = 21; tier 1 = sums 2..9 = 1+...+8 = 36.
    (0, 1, 0, (36, 43, 21)),
    # bonus 2, nothing: the same numbers as bonus 0 with a single edge.
    (2, 0, 0, (36, 43, 21)),
    # bonus 0, single bane = -2: tier 1 = sums 2..13 = 55+9+8 = 72; tier 3 = sums 19..20 = 3 (total 17, 18
    # after -2, and naturals anyway); tier 2 = 25.
    (0, 0, 1, (72, 25, 3)),
    # bonus 0, double edge: every tier one up, tier 3 stays: tier 1's 55 become tier 2, 35 + 10 are tier 3.
    (0, 2, 0, (0, 55, 45)),
    # bonus 0, double bane: tier 2's 35 and tier 1's 55 are tier 1 (90); of tier 3's 10, sums 17 and 18
    # (4 + 3 = 7) drop to tier 2, the naturals 19 and 20 (2 + 1 = 3) stay tier 3.
    (0, 0, 2, (90, 7, 3)),
    # bonus -5, double bane: tier 2 would need a total of 12 (sum 17+); all drop to tier 1 except the 3
    # naturals 19/20, which stay tier 3; tier 2 is empty.
    (-5, 0, 2, (97, 0, 3)),
    # bonus +6, nothing: tier 3 = sums 11..20 = 10+9+...+1 = 55; tier 1 = sums 2..5 = 1+2+3+4 = 10.
    (6, 0, 0, (10, 35, 55)),
    # two edges and one bane cancel to a single edge: as row 2.
    (0, 2, 1, (36, 43, 21)),
    # two of each cancel to nothing: as row 1.
    (0, 2, 2, (55, 35, 10)),
    # bonus 10 (the top of the range): the total is 12 at least, so no tier 1;
    # tier 2 = sums 2..6 = 1+2+3+4+5 = 15.
    (10, 0, 0, (0, 15, 85)),
]


@pytest.mark.parametrize(("bonus", "edges", "banes", "hundredths"), HAND_CHECKED)
def test_hand_checked_rows(bonus, edges, banes, hundredths):
    assert tier_odds(bonus, edges, banes) == tuple(Fraction(n, 100) for n in hundredths)


def test_a_double_bane_does_not_lower_a_natural_19_or_20():
    assert roll_tier(20, -5, banes=2) == 3
    assert roll_tier(19, 0, banes=2) == 3
    assert roll_tier(18, 0, banes=2) == 2  # 18 is tier 3 by total, not a natural 19: the shift applies


def test_the_tier_shift_is_clamped_between_1_and_3():
    assert roll_tier(2, 0, banes=2) == 1
    assert roll_tier(18, 0, edges=2) == 3


@given(
    bonus=st.integers(MIN_BONUS, MAX_BONUS - 1),
    edges=st.sampled_from(COUNTS),
    banes=st.sampled_from(COUNTS),
)
def test_more_bonus_never_lowers_tier_3_nor_raises_tier_1(bonus, edges, banes):
    lower, higher = tier_odds(bonus, edges, banes), tier_odds(bonus + 1, edges, banes)
    assert higher[2] >= lower[2]
    assert higher[0] <= lower[0]


@given(bonus=st.integers(MIN_BONUS, MAX_BONUS), banes=st.sampled_from(COUNTS), edges=st.sampled_from((0, 1)))
def test_an_extra_edge_never_lowers_tier_3_and_an_extra_bane_never_raises_it(bonus, banes, edges):
    assert tier_odds(bonus, edges + 1, banes)[2] >= tier_odds(bonus, edges, banes)[2]
    assert tier_odds(bonus, banes, edges + 1)[2] <= tier_odds(bonus, banes, edges)[2]


@given(bonus=st.integers(MIN_BONUS, MAX_BONUS), edges=st.sampled_from(COUNTS), banes=st.sampled_from(COUNTS))
def test_odds_sum_to_1_and_tier_3_is_never_below_the_naturals(bonus, edges, banes):
    odds = tier_odds(bonus, edges, banes)
    assert sum(odds) == 1
    assert all(p >= 0 for p in odds)
    assert odds[2] >= Fraction(3, 100)


def test_expected_damage_by_hand():
    # bonus 0, nothing: (55 × 3 + 35 × 5 + 10 × 8) / 100 = (165 + 175 + 80) / 100 = 420/100.
    assert expected_damage((3, 5, 8), 0) == Fraction(21, 5)
    # None is no damage at that tier: (175 + 80) / 100.
    assert expected_damage((None, 5, 8), 0) == Fraction(51, 20)
    # bonus 0, double bane: (90 × 3 + 7 × 5 + 3 × 8) / 100 = (270 + 35 + 24) / 100.
    assert expected_damage([3, 5, 8], 0, banes=2) == Fraction(329, 100)
    assert expected_damage((None, None, None), 3, edges=1) == 0


@given(
    bonus=st.integers(MIN_BONUS, MAX_BONUS),
    edges=st.sampled_from(COUNTS),
    banes=st.sampled_from(COUNTS),
    damages=st.lists(st.one_of(st.none(), st.integers(0, 200)), min_size=3, max_size=3),
)
def test_expected_damage_is_the_odds_weighted_sum(bonus, edges, banes, damages):
    odds = tier_odds(bonus, edges, banes)
    expected = sum((p * (d or 0) for p, d in zip(odds, damages, strict=False)), Fraction(0))
    assert expected_damage(tuple(damages), bonus, edges, banes) == expected


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"bonus": "2"}, "bonus"),
        ({"bonus": True}, "bonus"),
        ({"bonus": 2.5}, "bonus"),
        ({"bonus": MAX_BONUS + 1}, "bonus"),
        ({"bonus": MIN_BONUS - 1}, "bonus"),
        ({"bonus": 0, "edges": 3}, "edges"),
        ({"bonus": 0, "edges": -1}, "edges"),
        ({"bonus": 0, "edges": True}, "edges"),
        ({"bonus": 0, "banes": -1}, "banes"),
        ({"bonus": 0, "banes": 3}, "banes"),
        ({"bonus": 0, "banes": "1"}, "banes"),
    ],
)
def test_bad_input_is_refused_with_the_field_named(kwargs, field):
    for call in (tier_odds, lambda **kw: expected_damage((1, 2, 3), **kw)):
        with pytest.raises(InvalidInput) as caught:
            call(**kwargs)
        assert caught.value.field == field
        assert caught.value.code == f"invalid-{field}"
        assert field in str(caught.value) and "accepts" in str(caught.value)


@pytest.mark.parametrize(
    "tiers", [(1, 2), (1, 2, 3, 4), (1, -2, 3), (1, 2.5, 3), (1, "2", 3), (1, True, 3), "123", 7]
)
def test_bad_tier_damages_are_refused(tiers):
    with pytest.raises(InvalidInput) as caught:
        expected_damage(tiers, 0)
    assert caught.value.field == "tiers"


def test_roll_tier_refuses_a_natural_outside_2_to_20():
    for natural in (1, 21, True, 19.0):
        with pytest.raises(InvalidInput) as caught:
            roll_tier(natural, 0)
        assert caught.value.field == "natural"
