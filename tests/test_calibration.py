"""The calibration: fit figures computed from the sample's raw JSON by an independent reading, the variants'
effect, and the closest published monsters.

The independent side reads the JSON files with `json` and a few string splits, predicts with
`rules_reference` (integer arithmetic typed from the rules text, no workbench code), and computes the
figures with `statistics` over Fractions. Nothing here is a number copied from the library's output.
"""

from __future__ import annotations

import json
import statistics
from fractions import Fraction

import pytest
import rules_reference as ref
from hypothesis import given
from hypothesis import strategies as st

from workbench.calibration.fit import (
    QUANTITIES,
    Comparison,
    Variant,
    best_variant,
    calibrate,
    calibrate_monster,
    closest_published,
    compare_variants,
    fit,
    fit_report,
    targets_from_text,
    variants,
)
from workbench.errors import InvalidInput
from workbench.formats.bestiary import SAMPLE_DIR, sample_bestiary
from workbench.monster.formulas import build_monster
from workbench.rules.ruleset import core_ruleset

# ---------------------------------------------------------------- the independent side

_WORD = {"one": 1, "two": 2, "three": 3}


def _raw_blocks():
    return [json.loads(p.read_text()) for p in sorted(SAMPLE_DIR.rglob("*.json"))]


def _printed_damage(text):
    head = text.split(";")[0]
    return sum(int(piece.split()[0]) for piece in head.split(",") if "damage" in piece)


def _floor_div(a, b):
    return a // b


def _damage(level, org, role, tier, targets, strike, round_down=False, minion_char=True):
    """rules_reference.damage, with the two variant switches added in integer arithmetic."""
    _, damage_mod = ref.rows(org, role)
    num = (4 + level + damage_mod) * ref.TIER_THOUSANDTHS[tier] * ref.target_factor_thousandths(org, targets)
    den = 1000 * 1000 * (2 if org in ("horde", "minion") else 1)
    value = _floor_div(num, den) if (round_down and org in ("horde", "minion")) else ref.ceil_div(num, den)
    adds = strike and (org != "minion" or minion_char)
    return value + (ref.highest_characteristic(level, org) if adds else 0)


def _independent_pairs(round_down=False, minion_char=True, extra=False):
    """{quantity: [(predicted, printed), ...]} for every sample stat block."""
    pairs = {q: [] for q in QUANTITIES}
    for raw in _raw_blocks():
        words = raw["roles"][0].lower().split()
        org, role = words[0], (words[1] if len(words) > 1 else None)
        level = raw["level"]
        sig = next(f for f in raw["features"] if f.get("ability_type") == "Signature Ability")
        first = sig["target"].split()[0].lower()
        targets = _WORD.get(first, ref.expected_targets(org))  # "Each enemy in the area": expected count
        strike = "Strike" in sig["keywords"]
        tiers = sig["effects"][0]
        pairs["ev"].append((ref.ev(level, org), int(raw["ev"].split()[0])))
        pairs["stamina"].append(
            (ref.stamina(level, org, role, extra=extra and org != "minion"), int(raw["stamina"]))
        )
        free = _damage(level, org, role, 1, ref.expected_targets(org), False, round_down, minion_char)
        pairs["free_strike"].append((free, raw["free_strike"]))
        pairs["highest_characteristic"].append(
            (ref.highest_characteristic(level, org),
             max(raw[k] for k in ("might", "agility", "reason", "intuition", "presence")))
        )
        for t in (1, 2, 3):
            pairs[f"damage_tier{t}"].append(
                (_damage(level, org, role, t, targets, strike, round_down, minion_char),
                 _printed_damage(tiers[f"tier{t}"]))
            )
    return pairs


def _figures(pairs):
    errors = [Fraction(abs(p - q)) for p, q in pairs]
    return (
        Fraction(sum(1 for e in errors if e == 0), len(errors)),
        statistics.mean(errors),
        statistics.median(errors),
    )


# ---------------------------------------------------------------- the core ruleset as written


@pytest.fixture(scope="module")
def sample():
    return sample_bestiary().monsters


@pytest.fixture(scope="module")
def core_results(sample):
    return calibrate(sample)


@pytest.mark.parametrize("quantity", QUANTITIES)
def test_core_fit_matches_an_independent_computation(core_results, quantity):
    expected = _figures(_independent_pairs()[quantity])
    got = fit_report(core_results)["all"][quantity]
    assert (got.exact_rate, got.mean_abs_error, got.median_abs_error) == expected
    assert got.count == 49


def test_every_sample_monster_gets_every_comparison(core_results):
    assert [len(r.comparisons) for r in core_results] == [len(QUANTITIES)] * 49


@pytest.mark.parametrize("by", ["organization", "role", "level"])
def test_groups_partition_the_comparisons(core_results, by):
    report = fit_report(core_results, by=by)
    for quantity in QUANTITIES:
        assert sum(group[quantity].count for group in report.values()) == 49
        assert sum(group[quantity].exact for group in report.values()) == fit_report(core_results)["all"][
            quantity
        ].exact


def test_fit_per_organization_matches_an_independent_computation(core_results):
    pairs = _independent_pairs()["free_strike"]
    orgs = [raw["roles"][0].lower().split()[0] for raw in _raw_blocks()]
    report = fit_report(core_results, by="organization")
    assert set(report) == set(orgs)
    for org in set(orgs):
        mine = [pair for pair, o in zip(pairs, orgs, strict=False) if o == org]
        f = report[org]["free_strike"]
        assert (f.exact_rate, f.mean_abs_error, f.median_abs_error) == _figures(mine)


def test_leaders_and_solos_group_under_their_organization_by_role(core_results):
    report = fit_report(core_results, by="role")
    assert {"leader", "solo"} <= set(report)
    assert None not in report


@pytest.mark.parametrize(
    ("name", "quantity", "predicted", "printed"),
    [
        # Goblin Warrior, level 1 horde harrier, free strike: ⌈(4 + 1 + 0) × 0.6 ÷ 2⌉ = ⌈1.5⌉ = 2; printed 1
        ("Goblin Warrior", "free_strike", 2, 1),
        # Hobgoblin Grandguard, level 6 platoon defender: ⌈(10 × 6 + 30) × 1⌉ = 90; printed "111"
        ("Hobgoblin Grandguard", "stamina", 90, 111),
        # Goblin Runner, level 1 minion: EV ⌈(2 × 1 + 4) × 0.5⌉ = 3, printed "3 for four minions"
        ("Goblin Runner", "ev", 3, 3),
        # Werewolf, level 1 solo: Stamina ⌈(10 + 30) × 5⌉ = 200, printed "200"
        ("Werewolf", "stamina", 200, 200),
        # Werewolf: tier 3 strike, one target where two are expected: ⌈(4 + 1 + 2) × 1.4 × 1.2⌉ + 3 = 15; "16 damage"
        ("Werewolf", "damage_tier3", 15, 16),
        # Goblin Stinker (area, not a strike), compared at 1 target: ⌈(4 + 1 + 0) × 1.1 ÷ 2⌉ = 3; "2 poison damage"
        ("Goblin Stinker", "damage_tier2", 3, 2),
    ],
)
def test_hand_computed_rows(core_results, name, quantity, predicted, printed):
    result = next(r for r in core_results if r.published.name == name)
    row = result.comparison(quantity)
    assert (row.predicted, row.printed, row.residual) == (predicted, printed, predicted - printed)


def test_an_area_signature_is_compared_at_the_expected_count_and_says_so(core_results):
    stinker = next(r for r in core_results if r.published.name == "Goblin Stinker")
    assert stinker.targets == 1
    assert "not a count" in stinker.targets_note
    assert "not a count" in stinker.comparison("damage_tier1").note


def test_extra_stamina_explains_the_grandguard_exactly(sample):
    # 90 + (3 × 6 + 3) = 111, the printed Stamina: the book gave this defender the optional extra Stamina.
    grandguard = next(m for m in sample if m.name == "Hobgoblin Grandguard")
    assert calibrate_monster(grandguard, extra_stamina=True).comparison("stamina").residual == 0


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One creature or object", 1),
        ("Two creatures or objects", 2),
        ("One creature or object per minion", 1),  # each minion strikes one target
        ("Three creatures", 3),
        ("2 enemies", 2),
        ("Each enemy in the area", None),  # an area: no count
        ("Self", None),
        ("The triggering creature", None),
        ("", None),
    ],
)
def test_targets_from_text(text, count):
    assert targets_from_text(text) == count


# ---------------------------------------------------------------- fit figures


def _comparison(residual):
    return Comparison(name="x", level=1, organization="platoon", role="brute", quantity="ev",
                      predicted=10 + residual, printed=10)


def test_fit_by_hand():
    # residuals 0, 2, −1, 3: one exact of four; |errors| 0, 2, 1, 3: mean 6/4, median (1 + 2) / 2
    f = fit(_comparison(r) for r in (0, 2, -1, 3))
    assert (f.count, f.exact, f.exact_rate) == (4, 1, Fraction(1, 4))
    assert (f.mean_abs_error, f.median_abs_error, f.mean_residual) == (Fraction(3, 2), Fraction(3, 2), Fraction(1))
    assert f.as_dict()["exact_rate"] == 0.25


def test_fit_of_nothing_is_empty_not_an_error():
    f = fit([])
    assert f.count == 0 and f.exact_rate is None and f.as_dict()["mean_abs_error"] is None


@given(st.lists(st.integers(-30, 30), min_size=1, max_size=40))
def test_fit_agrees_with_statistics(residuals):
    f = fit(_comparison(r) for r in residuals)
    errors = [Fraction(abs(r)) for r in residuals]
    assert f.mean_abs_error == statistics.mean(errors)
    assert f.median_abs_error == statistics.median(errors)
    assert f.exact_rate == Fraction(residuals.count(0), len(residuals))
    assert f.mean_residual == Fraction(sum(residuals), len(residuals))


def test_an_unknown_grouping_is_refused(core_results):
    with pytest.raises(InvalidInput) as caught:
        fit_report(core_results, by="colour")
    assert caught.value.code == "invalid-by"


# ---------------------------------------------------------------- rule variants


def test_variants_cover_every_combination_with_the_written_one_first():
    all_variants = variants()
    assert len(all_variants) == 8 and len(set(all_variants)) == 8
    assert all_variants[0] == Variant()  # up, minion strikes add the characteristic, no extra Stamina
    assert all_variants[0].ruleset() is core_ruleset()


@pytest.fixture(scope="module")
def variant_fits(sample):
    return compare_variants(sample)


def test_each_variant_matches_an_independent_computation(variant_fits):
    for vf in variant_fits:
        v = vf.variant
        pairs = _independent_pairs(v.halved_damage_rounding == "down", v.minion_strike_adds_characteristic,
                                   v.extra_stamina)
        for quantity in QUANTITIES:
            got = vf.fits[quantity]
            assert (got.exact_rate, got.mean_abs_error, got.median_abs_error) == _figures(pairs[quantity]), (
                v.label, quantity,
            )
        pooled = [pair for q in QUANTITIES for pair in pairs[q]]
        assert vf.overall.total_abs_error == sum(abs(p - q) for p, q in pooled)


def test_the_best_variant_is_the_one_with_the_least_total_error(variant_fits):
    totals = {}
    for v in variants():
        pairs = _independent_pairs(v.halved_damage_rounding == "down", v.minion_strike_adds_characteristic,
                                   v.extra_stamina)
        totals[v] = sum(abs(p - q) for q in QUANTITIES for p, q in pairs[q])
    smallest = min(totals.values())
    assert best_variant(variant_fits).variant in {v for v, t in totals.items() if t == smallest}


def test_variants_change_only_what_they_switch(variant_fits):
    written = variant_fits[0]
    for vf in variant_fits[1:]:
        # EV and the highest characteristic are untouched by every switch
        assert vf.fits["ev"] == written.fits["ev"]
        assert vf.fits["highest_characteristic"] == written.fits["highest_characteristic"]
        if not vf.variant.extra_stamina:
            assert vf.fits["stamina"] == written.fits["stamina"]
        if vf.variant.halved_damage_rounding == "up":
            assert vf.fits["free_strike"] == written.fits["free_strike"]  # free strikes add no characteristic


def test_variants_never_change_the_core_defaults(variant_fits):
    options = core_ruleset().options
    assert options.halved_damage_rounding == "up"
    assert options.minion_strike_adds_characteristic is True


# ---------------------------------------------------------------- closest published monsters


def test_closest_published_to_a_level_1_minion_harrier(sample):
    # Built: EV ⌈6 × 0.5⌉ = 3, Stamina ⌈(10 + 20) × 0.125⌉ = ⌈3.75⌉ = 4. Goblin Runner and Kobold Veles are level 1
    # minion harriers with EV 3 and Stamina 4 (distance 0); the nearest other-role level 1 minion with the same
    # EV and Stamina is the Kobold Princeps (support, Stamina 4: distance 2 for the role).
    m = build_monster(1, "minion", "harrier")
    assert [p.name for p in closest_published(m, sample)] == ["Goblin Runner", "Kobold Veles", "Kobold Princeps"]


def test_closest_published_prefers_the_same_organization(sample):
    m = build_monster(5, "solo")
    names = [p.name for p in closest_published(m, sample, count=3)]
    assert set(names) == {"Medusa", "Manticore", "Werewolf"}  # the sample's only solos
    assert names[0] == "Medusa"  # level 5, the same as built


def test_closest_published_count_is_checked(sample):
    with pytest.raises(InvalidInput):
        closest_published(build_monster(1, "horde", "brute"), sample, count=-1)


def test_groups_come_in_table_order(core_results):
    present = {raw["roles"][0].lower().split()[0] for raw in _raw_blocks()}
    order = list(core_ruleset().organizations)  # the ruleset file's order
    assert list(fit_report(core_results, by="organization")) == [o for o in order if o in present]
    levels = list(fit_report(core_results, by="level"))
    assert levels == sorted(levels, key=int)
