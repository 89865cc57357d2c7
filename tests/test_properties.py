"""Properties over every valid input: whole positive numbers, nothing falls as level rises, table agrees."""

from __future__ import annotations

import rules_reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb

pairs = st.sampled_from(ref.combinations())
levels = st.integers(min_value=1, max_value=40)


@st.composite
def monsters(draw):
    organization, role = draw(pairs)
    level = draw(levels)
    extra = draw(st.booleans()) if organization != "minion" else False
    expected = ref.expected_targets(organization)
    targets = draw(st.integers(min_value=max(1, expected - 1), max_value=expected + 6))
    return dict(level=level, organization=organization, role=role, extra_stamina=extra, targets=targets)


@given(monsters())
@settings(max_examples=400)
def test_numbers_are_positive_whole_numbers(args):
    m = wb.build_monster(**args)
    numbers = [m.ev, m.stamina, m.free_strike, m.highest_characteristic, m.echelon,
               *m.damage.as_tuple(), *m.non_strike_damage.as_tuple()]
    assert all(type(n) is int and n > 0 for n in numbers)


@given(monsters())
@settings(max_examples=400)
def test_nothing_decreases_as_level_rises(args):
    low = wb.build_monster(**args)
    high = wb.build_monster(**{**args, "level": args["level"] + 1})
    for field in ("ev", "stamina", "free_strike", "highest_characteristic", "echelon"):
        assert getattr(high, field) >= getattr(low, field), field
    for tiers in ("damage", "non_strike_damage", "potency"):
        assert all(h >= lo for h, lo in zip(getattr(high, tiers).as_tuple(), getattr(low, tiers).as_tuple(), strict=False))


@given(monsters())
@settings(max_examples=300)
def test_higher_tiers_never_deal_less(args):
    d = wb.build_monster(**args).damage
    assert d.tier1 <= d.tier2 <= d.tier3


@given(monsters())
@settings(max_examples=300)
def test_more_targets_never_deal_more(args):
    m = wb.build_monster(**args)
    assert wb.ability_damage(m.level, m.organization, m.role, targets=m.targets + 1).tier3 <= m.damage.tier3


def test_every_row_of_the_table_is_the_rules_reading():
    """Each row against tests/rules_reference.py, typed from the rules text apart from the library."""
    for extra in (False, True):
        frame = wb.stat_table(range(1, 21), extra_stamina=extra)
        assert len(frame) == 20 * len(ref.combinations())
        disagreements = []
        for row in frame.to_dict("records"):
            role = row["role"] if isinstance(row["role"], str) else None  # pandas shows "no role" as missing
            level, organization = row["level"], row["organization"]
            expected = {
                "ev": ref.ev(level, organization),
                "stamina": ref.stamina(level, organization, role, row["extra_stamina"]),
                "free_strike": ref.free_strike(level, organization, role),
                "highest_characteristic": ref.highest_characteristic(level, organization),
                "echelon": ref.echelon(level),
                **{f"damage_tier{tier}": ref.damage(level, organization, role, tier) for tier in (1, 2, 3)},
                "non_strike_tier3": ref.damage(level, organization, role, 3, strike=False),
                "potency_tier3": ref.potency(level, organization, 3),
            }
            if any(row[k] != v for k, v in expected.items()):
                disagreements.append(row)
        assert disagreements == []
        assert frame.loc[frame.organization != "minion", "extra_stamina"].eq(extra).all()
