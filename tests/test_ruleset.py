"""The core ruleset file against the rules' tables, and validation that reports every bad entry at once."""

from __future__ import annotations

import tomllib
from decimal import Decimal

import pytest
import rules_reference as ref

import workbench as wb
from workbench.rules.ruleset import CORE_RULESET_PATH, DATA_DIR, ruleset_from_dict


def test_core_ruleset_matches_the_role_and_damage_modifier_table():
    rules = wb.core_ruleset()
    problems = [
        f"{role}: {(r.stamina_modifier, r.damage_modifier)} != {ref.ROLE_TABLE[role]}"
        for role, r in rules.roles.items()
        if (r.stamina_modifier, r.damage_modifier) != ref.ROLE_TABLE.get(role)
    ]
    assert sorted(rules.roles) == sorted(ref.ROLE_TABLE)
    assert problems == []


def test_core_ruleset_matches_the_organization_modifier_table():
    rules = wb.core_ruleset()
    problems = []
    for name, (ev_mod, stamina_mod) in ref.ORG_TABLE.items():
        org = rules.organizations[name]
        if org.ev_modifier * 1000 != ev_mod or org.stamina_modifier * 1000 != stamina_mod:
            problems.append(name)
    assert sorted(rules.organizations) == sorted(ref.ORG_TABLE)
    assert problems == []
    assert (rules.organizations["leader"].role_stamina_modifier, rules.organizations["leader"].role_damage_modifier) == ref.LEADER_ROW
    assert (rules.organizations["solo"].role_stamina_modifier, rules.organizations["solo"].role_damage_modifier) == ref.SOLO_ROW
    assert (rules.organizations["elite"].role_stamina_modifier, rules.organizations["elite"].role_damage_modifier) == ref.ELITE_ROW


def test_tier_modifiers_are_exact_decimals():
    # "Tier 1 = 0.6, Tier 2 = 1.1, Tier 3 = 1.4", read without binary floats.
    tiers = wb.core_ruleset().tiers
    assert (tiers.tier1, tiers.tier2, tiers.tier3) == (Decimal("0.6"), Decimal("1.1"), Decimal("1.4"))


def test_every_role_and_organization_has_the_rules_description():
    text = (DATA_DIR / "rules" / "monster-basics.txt").read_text()
    rules = wb.core_ruleset()
    descriptions = [r.description for r in rules.roles.values()] + [
        o.description for o in rules.organizations.values()
    ]
    assert [d for d in descriptions if d not in text] == []
    assert all(len(d) > 40 for d in descriptions)


def test_a_changed_copy_compares_with_the_core():
    # "a user can load a copy with, say, a solo Stamina modifier of 4 and compare"
    changed = wb.core_ruleset().updated({"organizations": {"solo": {"stamina_modifier": 4}}})
    core_solo = wb.build_monster(1, "solo")
    changed_solo = wb.build_monster(1, "solo", ruleset=changed)
    assert core_solo.stamina == 200  # (10 + 30) × 5
    assert changed_solo.stamina == 160  # (10 + 30) × 4
    assert changed_solo.ev == core_solo.ev
    assert wb.core_ruleset().organizations["solo"].stamina_modifier == 5  # the core is untouched


def test_a_copied_file_loads(tmp_path):
    text = CORE_RULESET_PATH.read_text().replace('name = "core"', 'name = "tough solos"')
    text = text.replace("ev_modifier = 6\nstamina_modifier = 5", "ev_modifier = 6\nstamina_modifier = 4")
    path = tmp_path / "tough.toml"
    path.write_text(text)
    rules = wb.load_ruleset(path)
    assert rules.name == "tough solos"
    assert wb.build_monster(2, "solo", ruleset=rules).stamina == (20 + 30) * 4


def test_every_bad_entry_is_reported_at_once():
    data = tomllib.loads(CORE_RULESET_PATH.read_text(), parse_float=Decimal)
    data["roles"]["brute"]["stamina_modifier"] = "thirty"
    data["organizations"]["solo"]["ev_modifier"] = -6
    data["tiers"]["tier2"] = 0
    del data["organizations"]["elite"]["expected_targets"]
    with pytest.raises(wb.RulesetError) as caught:
        ruleset_from_dict(data, source="broken.toml")
    problems = "\n".join(caught.value.problems)
    assert len(caught.value.problems) == 4
    assert "roles.brute.stamina_modifier" in problems
    assert "organizations.solo.ev_modifier" in problems
    assert "tiers.tier2" in problems
    assert "organizations.elite.expected_targets" in problems
    assert caught.value.code == "invalid-ruleset"


def test_inconsistent_tables_are_refused():
    data = tomllib.loads(CORE_RULESET_PATH.read_text(), parse_float=Decimal)
    data["echelons"][0]["first_level"] = 2
    data["target_factors"] = [t for t in data["target_factors"] if t["offset"] != 0]
    with pytest.raises(wb.RulesetError) as caught:
        ruleset_from_dict(data)
    problems = " ".join(caught.value.problems)
    assert "echelon" in problems and "offset 0" in problems


@pytest.mark.parametrize(
    "content, reason",
    [
        ("name = ", "not valid TOML"),  # broken syntax
        ('name = "x"', "formulas"),      # a foreign file: most tables missing
    ],
)
def test_a_corrupt_file_names_the_file_and_the_reason(tmp_path, content, reason):
    path = tmp_path / "mine.toml"
    path.write_text(content)
    with pytest.raises(wb.RulesetError) as caught:
        wb.load_ruleset(path)
    assert "mine.toml" in str(caught.value)
    assert reason in str(caught.value)


def test_a_missing_file_is_reported(tmp_path):
    with pytest.raises(wb.RulesetError, match="cannot read"):
        wb.load_ruleset(tmp_path / "nope.toml")
