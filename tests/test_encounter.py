"""The encounter: typed specs, total EV with minions by fours, and the data file's quotes checked against the
rules text."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from encounter_setups import encounter

from workbench.encounter.encounter import TerrainObject, creature_from_monster, parse_spec
from workbench.encounter.report import report
from workbench.errors import InvalidInput, RulesetError
from workbench.monster.formulas import build_monster
from workbench.rules.encounter_tables import encounter_rules, load_encounter_rules
from workbench.rules.ruleset import DATA_DIR

RULES = DATA_DIR / "rules" / "monster-basics.txt"  # the rules text, copied into the repository


# ---------------------------------------------------------------- specs and EV


# EV = ceil((2 x level + 4) x organization modifier), computed by hand per row.
@pytest.mark.parametrize(
    "spec, count, level, organization, role, ev, cost",
    [
        ("2 × level 3 platoon brute", 2, 3, "platoon", "brute", 10, 20),  # (6 + 4) x 1 = 10, two of them
        ("8 x level 2 minion harrier", 8, 2, "minion", "harrier", 4, 8),  # (4 + 4) x 0.5 = 4 per four
        ("level 4 leader", 1, 4, "leader", None, 24, 24),  # (8 + 4) x 2 = 24
        ("1 x LEVEL 5 Solo", 1, 5, "solo", None, 84, 84),  # (10 + 4) x 6 = 84
        ("3*lvl 1 horde hexer", 3, 1, "horde", "hexer", 3, 9),  # (2 + 4) x 0.5 = 3 each
        ("6 x level 2 minion harrier", 6, 2, "minion", "harrier", 4, 6),  # 6 minions: 4 x 6 / 4 = 6
        ("2 x level 1 elite defender: gate guards", 2, 1, "elite", "defender", 12, 24),  # (2 + 4) x 2
    ],
)
def test_typed_specs(spec, count, level, organization, role, ev, cost):
    c = parse_spec(spec)
    assert (c.count, c.level, c.organization, c.role, c.ev) == (count, level, organization, role, ev)
    assert c.cost() == cost


def test_spec_name_is_kept():
    assert parse_spec("2 x level 1 elite defender: gate guards").name == "gate guards"


@pytest.mark.parametrize(
    "spec, why",
    [
        ("two brutes", "not in that form"),  # no level
        ("2 x level 3 platoon", "needs a role"),  # platoon without a role
        ("2 x level 3 leader brute", "has no creature role"),  # leaders take no role
        ("2 x level 3 platoon wizard", "role"),  # unknown role
        ("2 x level 3 mob brute", "organization"),  # unknown organization
        ("2 x level 0 platoon brute", "level"),  # level 0
        ("0 x level 1 platoon brute", "at least 1"),  # nobody
        ("", "not in that form"),  # empty
    ],
)
def test_bad_specs_are_refused_clearly(spec, why):
    with pytest.raises(InvalidInput) as caught:
        parse_spec(spec)
    assert caught.value.code == "invalid-spec"
    assert why in str(caught.value)
    assert "2 × level 3 platoon brute" in str(caught.value)  # says what it accepts


def test_a_monster_from_the_builder_becomes_creatures():
    m = build_monster(5, "elite", "brute").model_copy(update={"name": "Ogre"})
    c = creature_from_monster(m, count=2)
    assert (c.name, c.ev, c.count, c.cost()) == ("Ogre", 28, 2, 56)  # (10 + 4) x 2 = 28 each


def test_total_ev_counts_minions_by_fours_and_terrain_at_the_given_ev():
    e = encounter("2 × level 3 platoon brute", "8 x level 2 minion harrier", "level 4 leader").adding(
        TerrainObject(name="collapsing pillar", ev=3)
    )
    # 20 + 8 x 4 / 4 + 24 = 52 for creatures, + 3 terrain
    assert e.creature_ev == 52 and e.terrain_ev == 3 and e.total_ev == 55
    r = report(e)
    assert r.total_ev == 55 and r.band == "standard"  # ES 50 <= 55 <= 60
    assert r.victories == 1


def test_minions_not_in_fours_cost_their_share():
    e = encounter("5 x level 2 minion harrier")  # 4 x 5 / 4 = 5
    assert e.total_ev == 5
    e = encounter("3 x level 1 minion harrier")  # level 1 minion EV (2 + 4) x 0.5 = 3; 3 x 3 / 4
    assert e.total_ev == Fraction(9, 4)


# ---------------------------------------------------------------- data


def test_every_quoted_rule_is_in_the_rules_text_verbatim():
    assert RULES.exists(), f"the rules text is expected at {RULES}"
    text = " ".join(RULES.read_text().split())
    r = encounter_rules()
    quotes: list[tuple[str, str]] = []
    quotes += [(f"bands.{b.name}.rule", b.rule) for b in r.bands]
    quotes += [(f"bands.{b.name}.victories_rule", b.victories_rule) for b in r.bands]
    quotes += [(f"guidelines.{k}", quote) for k, t in r.guidelines.text.items() for quote in t.quotes]
    quotes += [(f"quick.slots.{k}", v.rule) for k, v in r.quick.slots.items()]
    quotes += [(f"quick.difficulty.{k}", v.rule) for k, v in r.quick.difficulty.items()]
    quotes += [("quick.terrain_rule", r.quick.terrain_rule), ("quick.rule_victories", r.quick.rule_victories)]
    o = r.objective_rules
    for name in ("thing_rule", "sturdy_rule", "ward_rule", "escort_reinforcement_rule", "hold_reinforcement_rule", "combined_rule"):
        quotes.append((f"objective_rules.{name}", getattr(o, name)))
    for key, obj in r.objectives.items():
        for field in ("difficulty_modifier", "success", "victories_text", "failure"):
            quotes.append((f"objectives.{key}.{field}", getattr(obj, field)))
    missing = [where for where, quote in quotes if " ".join(quote.split()) not in text]
    assert missing == []
    sections = [k for k, t in r.guidelines.text.items() if t.section not in text]
    assert sections == []


def test_a_broken_rules_file_reports_every_problem(tmp_path):
    source = (Path(__file__).resolve().parents[1] / "data" / "encounters.toml").read_text()
    broken_text = source.replace("creatures_per_hero = 8", "creatures_per_hero = 0").replace(
        "stat_blocks = 6", "stat_blocks = -1"
    )
    path = tmp_path / "encounters.toml"
    path.write_text(broken_text)
    with pytest.raises(RulesetError) as caught:
        load_encounter_rules(path)
    assert len(caught.value.problems) >= 2
