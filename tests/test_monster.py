"""build_monster against the rules text: worked examples, every table row, every combination, refusals."""

from __future__ import annotations

import pytest
import rules_reference as ref

import workbench as wb
from workbench.monster.formulas import covered_targets, target_choices

# ---------------------------------------------------------------- worked examples from the rules text

def test_level_1_minion_brute_has_5_stamina_and_a_squad_of_eight_has_40():
    # "a goblin spinecleaver has 5 Stamina, so a squad of eight spinecleavers has a Stamina pool of 40"
    # (the spinecleaver is a level 1 minion brute; Using Minions, Shared Low Stamina)
    m = wb.build_monster(level=1, organization="minion", role="brute")
    assert m.stamina == 5
    assert 8 * m.stamina == 40


def test_level_5_monster_has_plus_3_and_potencies_1_2_3():
    # "a level 5 goblin (2nd echelon) has a +3 for their highest characteristic ... M < 1 at tier 1,
    #  M < 2 at tier 2, and M < 3 at tier 3."
    m = wb.build_monster(level=5, organization="platoon", role="harrier")
    assert m.echelon == 2
    assert m.highest_characteristic == 3
    assert (m.potency.tier1, m.potency.tier2, m.potency.tier3) == (1, 2, 3)


@pytest.mark.parametrize("role", ["ambusher", "artillery", "brute"])
def test_elite_stacks_with_a_plus_1_role_for_plus_2(role):
    # "*Elite can be used in conjunction with a role that features a +1 damage modifier, for a total
    #  damage modifier of +2."
    assert wb.build_monster(level=3, organization="elite", role=role).damage_modifier == 2


def test_elite_with_a_plus_0_role_has_plus_1():
    assert wb.build_monster(level=3, organization="elite", role="defender").damage_modifier == 1


def test_exact_rounding_where_floats_would_round_wrongly():
    # RULES-READINGS: "in floats 25 × 1.1 × 0.8 is 22.000000000000004, which rounds up to 23".
    # Level 20 platoon brute: 4 + 20 + 1 = 25; tier 2; two targets where one is expected (× 0.8).
    m = wb.build_monster(level=20, organization="platoon", role="brute", targets=2)
    assert m.non_strike_damage.tier2 == 22
    assert m.damage.tier2 == 22 + m.highest_characteristic


def test_design_example_ev_working():
    # EV = ⌈(2 × 5 + 4) × 2⌉ = 28
    m = wb.build_monster(level=5, organization="elite", role="brute")
    ev_step = wb.explain(m)[0]
    assert str(ev_step) == "EV = ⌈(2 × 5 + 4) × 2⌉ = 28"


def test_level_1_werewolf_solo_matches_the_book():
    # Published Werewolf (level 1 solo): EV 36, Stamina 200, free strike 5, signature potencies M<1..M<3.
    m = wb.build_monster(level=1, organization="solo")
    assert (m.ev, m.stamina, m.free_strike) == (36, 200, 5)
    assert m.potency.as_tuple() == (1, 2, 3)


def test_minion_ev_is_for_four_minions():
    # "The EV for minions represents four minions together": level 1 minion: (2 + 4) × 0.5 = 3, the
    # spinecleaver's "3 for four minions".
    assert wb.build_monster(level=1, organization="minion", role="brute").ev == 3


@pytest.mark.parametrize(
    "level, organization, role, expected",
    [
        (1, "leader", None, 3),    # 1 + echelon 1 + 1
        (4, "solo", None, 4),      # 1 + 2 + 1
        (10, "leader", None, 5),   # 1 + 4 + 1 = 6, capped at +5
        (10, "platoon", "brute", 5),  # 1 + 4
        (9, "elite", "hexer", 4),  # 1 + 3
    ],
)
def test_highest_characteristic_by_echelon_with_bonus_and_cap(level, organization, role, expected):
    assert wb.build_monster(level, organization, role).highest_characteristic == expected


def test_level_1_leader_characteristic_and_potency_plus_one():
    # Leaders and solos: +1 highest characteristic (1 + 1 + 1 = 3), potencies from it: 1 / 2 / 3.
    m = wb.build_monster(1, "leader")
    assert m.highest_characteristic == 3
    assert m.potency.as_tuple() == (1, 2, 3)


@pytest.mark.parametrize(
    "organization, targets, factor_note",
    [
        ("platoon", 1, "expected: × 1"),
        ("platoon", 2, "one additional: × 0.8"),
        ("platoon", 3, "two additional: × 0.5"),
        ("platoon", 7, "six additional: × 0.5"),
        ("elite", 1, "one fewer: × 1.2"),
        ("elite", 2, "expected"),
        ("elite", 3, "one more: × 0.8"),
        ("solo", 4, "two more: × 0.5"),
        ("leader", 1, "one fewer: × 1.2"),
    ],
)
def test_target_factors(organization, targets, factor_note):
    role = None if organization in ("leader", "solo") else "artillery"
    for level in (1, 7, 20):
        got = wb.ability_damage(level, organization, role, targets=targets, strike=False)
        want = tuple(ref.damage(level, organization, role, t, targets, strike=False) for t in (1, 2, 3))
        assert got.as_tuple() == want, factor_note


def test_halved_damage_for_horde_and_minion():
    # (4 + 1 + 1) × 0.6 = 3.6, ÷ 2 = 1.8 → 2 for a level 1 horde brute (free strike);
    # tier 3: 6 × 1.4 = 8.4, ÷ 2 = 4.2 → 5, plus characteristic 2 = 7.
    m = wb.build_monster(1, "horde", "brute")
    assert m.free_strike == 2
    assert m.damage.tier3 == 7


def test_extra_stamina_is_added_after_the_multiplier():
    # Level 4 elite defender: (40 + 30) × 2 = 140, plus (3 × 4 + 3) = 15 → 155.
    assert wb.build_monster(4, "elite", "defender", extra_stamina=True).stamina == 155


def test_free_strike_is_tier_1_damage_without_characteristic():
    # Published Goblin Spinecleaver (level 1 minion brute): free strike 2 = ⌈(4 + 1 + 1) × 0.6 ÷ 2⌉.
    assert wb.build_monster(1, "minion", "brute").free_strike == 2


# ---------------------------------------------------------------- every combination against the reference

LEVELS = range(1, 21)


@pytest.mark.parametrize("organization, role", ref.combinations())
def test_every_level_matches_the_reference(organization, role):
    lowest, _ = covered_targets(organization)
    for level in LEVELS:
        for extra in ([False, True] if organization != "minion" else [False]):
            m = wb.build_monster(level, organization, role, extra_stamina=extra)
            assert m.ev == ref.ev(level, organization)
            assert m.stamina == ref.stamina(level, organization, role, extra)
            assert m.echelon == ref.echelon(level)
            assert m.highest_characteristic == ref.highest_characteristic(level, organization)
            assert m.potency.as_tuple() == tuple(ref.potency(level, organization, t) for t in (1, 2, 3))
            assert m.free_strike == ref.free_strike(level, organization, role)
            assert m.targets == ref.expected_targets(organization)
            assert m.damage.as_tuple() == tuple(ref.damage(level, organization, role, t) for t in (1, 2, 3))
        for targets in range(lowest, ref.expected_targets(organization) + 4):
            for strike in (True, False):
                got = wb.ability_damage(m.level, m.organization, m.role, targets=targets, strike=strike).as_tuple()
                want = tuple(ref.damage(level, organization, role, t, targets, strike) for t in (1, 2, 3))
                assert got == want, (level, targets, strike)


def test_explain_reports_the_numbers_it_computed():
    m = wb.build_monster(7, "horde", "ambusher", targets=3)
    by_name = {s.quantity: s.value for s in wb.explain(m)}
    assert by_name["EV"] == m.ev
    assert by_name["Stamina"] == m.stamina
    assert by_name["Free strike"] == m.free_strike
    assert by_name["Damage (tier 3, strike)"] == m.damage.tier3
    assert by_name["Damage (tier 1)"] == m.non_strike_damage.tier1


def test_explain_names_the_reading_used():
    m = wb.build_monster(3, "elite", "brute", targets=1)
    readings = " ".join(s.reading or "" for s in wb.explain(m))
    assert "stacked" in readings  # elite + brute damage modifiers
    assert "× 1.2" in readings  # one fewer target than expected


# ---------------------------------------------------------------- refusals

@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(level=0), "level"),         # levels start at 1
        (dict(level=-3), "level"),
        (dict(level=2.5), "level"),       # whole numbers only
        (dict(level="ten"), "level"),
        (dict(level=None), "level"),
        (dict(level=True), "level"),      # a bool is not a level
        (dict(organization="legion"), "organization"),
        (dict(organization=None), "organization"),
        (dict(role="wizard"), "role"),
        (dict(role=None), "role"),        # a platoon needs a role
        (dict(organization="leader", role="brute"), "role"),  # leaders have no role
        (dict(organization="solo", role="defender"), "role"),
        (dict(targets=0), "targets"),
        (dict(organization="elite", targets=0), "targets"),
        (dict(targets=2.0), "targets"),
        (dict(extra_stamina="yes"), "extra_stamina"),
        (dict(organization="minion", extra_stamina=True), "extra_stamina"),  # "non-minion monster"
    ],
)
def test_bad_input_is_refused_naming_the_field(kwargs, field):
    args = dict(level=3, organization="platoon", role="brute")
    args.update(kwargs)
    if args["organization"] in ("leader", "solo") and "role" not in kwargs:
        args["role"] = None
    with pytest.raises(wb.InvalidInput) as caught:
        wb.build_monster(**args)
    assert caught.value.field == field
    assert caught.value.code == "invalid-" + field.replace("_", "-")
    assert field in str(caught.value) and "accepts" in str(caught.value)


def test_unknown_organization_lists_the_ones_that_exist():
    with pytest.raises(wb.InvalidInput) as caught:
        wb.build_monster(3, "legion", "brute")
    for name in ref.ORGANIZATIONS:
        assert name in caught.value.accepts


def test_unknown_role_lists_the_roles():
    with pytest.raises(wb.InvalidInput) as caught:
        wb.build_monster(3, "horde", "wizard")
    for name in ref.ROLES:
        assert name in caught.value.accepts


def test_names_are_case_insensitive():
    assert wb.build_monster(3, "Elite", "Brute") == wb.build_monster(3, "elite", "brute")


def test_covered_targets():
    assert covered_targets("platoon") == (1, None)
    assert covered_targets("elite") == (1, None)


@pytest.mark.parametrize(
    ("organization", "beyond", "expected"),
    [
        ("platoon", 3, (1, 2, 3, 4)),  # expected 1: one fewer is not below 1; up to 1 + 3
        ("elite", 3, (1, 2, 3, 4, 5)),  # expected 2: one fewer is 1; up to 2 + 3
        ("solo", 0, (1, 2)),  # no extra steps asked for: up to the expected count
    ],
)
def test_target_choices_offer_what_the_rules_cover(organization, beyond, expected):
    assert target_choices(organization, beyond_expected=beyond) == expected


def test_target_choices_refuse_an_unknown_organization():
    with pytest.raises(wb.InvalidInput):
        target_choices("legion")
