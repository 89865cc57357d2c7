"""Expected damage per use across levels, the formula's signature beside the published ones (for the chart)."""

from __future__ import annotations

from fractions import Fraction

import rules_reference as ref

from workbench.charts.power_roll import expected_damage_figure
from workbench.formats.bestiary import sample_bestiary
from workbench.tables.power_roll import expected_damage_frame, published_expected_damage_frame


def odds(bonus: int, net: int = 0) -> list[Fraction]:
    """Tier odds by counting the 100 outcomes (a net single edge +2, a single bane −2)."""
    counts = [0, 0, 0]
    for a in range(1, 11):
        for b in range(1, 11):
            total = a + b + bonus + 2 * net
            tier = 3 if a + b >= 19 or total >= 17 else 2 if total >= 12 else 1
            counts[tier - 1] += 1
    return [Fraction(c, 100) for c in counts]


def test_each_level_is_the_formulas_signature_times_the_tier_odds():
    frame = expected_damage_frame("elite", "brute", levels=range(1, 6))
    assert list(frame.level) == [1, 2, 3, 4, 5]
    for row in frame.itertuples():
        damage = [ref.damage(row.level, "elite", "brute", t) for t in (1, 2, 3)]
        bonus = ref.highest_characteristic(row.level, "elite")
        assert row.bonus == bonus
        for column, net in (("expected", 0), ("with_edge", 1), ("with_bane", -1)):
            exact = sum((p * d for p, d in zip(odds(bonus, net), damage, strict=True)), Fraction(0))
            assert getattr(row, column) == float(exact), (row.level, column)


def test_published_signatures_of_the_same_organization_and_role():
    monsters = sample_bestiary().monsters
    frame = published_expected_damage_frame(monsters, "elite", "brute")
    names = {m.name for m in monsters if (m.organization, m.role) == ("elite", "brute")
             and m.signature and m.signature.damage and m.signature.bonus is not None}
    assert set(frame.name) == names and names
    for row in frame.itertuples():
        signature = next(m for m in monsters if m.name == row.name).signature
        exact = sum((p * d for p, d in zip(odds(signature.bonus), signature.damage, strict=True)), Fraction(0))
        assert row.expected == float(exact)
    figure = expected_damage_figure(expected_damage_frame("elite", "brute"), frame, "Elite brute")
    assert [t.name for t in figure.data] == ["with an edge", "edge … bane", "formula", "published"]
