"""Malice features: the book's text kept verbatim, Malicious Strike's range, the cost advice."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from malice_setups import BIG

import workbench as wb
from workbench.errors import InvalidInput, RulesetError
from workbench.fight.malice_features import (
    basic_malice_features,
    cost_advice,
    encounter_features,
    malicious_strike_extra_damage,
    malicious_strike_range,
)
from workbench.model import Trait
from workbench.monster.solo import solo_action
from workbench.rules.feature_book import MALICE_FEATURES_PATH, feature_book, load_feature_book
from workbench.rules.ruleset import DATA_DIR

RULES = DATA_DIR / "rules"  # the rules text shipped with the project


def _rules_text() -> str:
    """Both rules files, with whitespace collapsed (the text wraps differently in each)."""
    if not RULES.is_dir():
        pytest.fail(f"rules text not found at {RULES}")
    text = " ".join(p.read_text(encoding="utf-8") for p in sorted(RULES.glob("*.txt")))
    return re.sub(r"\s+", " ", text)


def _all_text_entries() -> list[tuple[str, str]]:
    book = feature_book()
    entries = [(f"basic_malice.{f.name}", f.text) for f in book.basic_malice.features]
    entries += [("basic_malice.intro", book.basic_malice.intro), ("basic_malice.timing", book.basic_malice.timing)]
    entries += [(f"instant_solo.{t.name}", t.text) for t in book.instant_solo.traits]
    entries += [("instant_solo.intro", book.instant_solo.intro)]
    entries += [("instant_solo.malice_feature", book.instant_solo.malice_feature.text)]
    entries += [(f"villain_actions.rules.{i}", r) for i, r in enumerate(book.villain_actions.rules)]
    entries += [(f"villain_actions.{s.key}", s.text) for s in book.villain_actions.slots]
    entries += [("advice", book.advice.text)]
    return entries


def test_every_text_is_the_books_words_verbatim():
    rules = _rules_text()
    missing = [where for where, text in _all_text_entries() if re.sub(r"\s+", " ", text) not in rules]
    assert missing == []


def test_section_names_exist_in_the_rules():
    book = feature_book()
    rules = _rules_text()
    sections = [
        book.basic_malice.section,
        book.instant_solo.section,
        book.villain_actions.section,
        book.advice.section,
    ]
    assert [s for s in sections if s not in rules] == []


def test_basic_features_names_and_costs():
    # malice.txt: "Brutal Effectiveness (3 Malice)", "Malicious Strike (5+ Malice)"
    assert [(t.name, t.cost) for t in basic_malice_features()] == [
        ("Brutal Effectiveness", 3),
        ("Malicious Strike", 5),
    ]
    labels = [f.cost_label for f in feature_book().basic_malice.features]
    assert labels == ["3 Malice", "5+ Malice"]


def test_solo_action():
    # monster-basics.txt: "Solo Action (5 Malice)"
    feature = solo_action()
    assert isinstance(feature, Trait)
    assert (feature.name, feature.cost) == ("Solo Action", 5)
    assert feature.text.startswith("The creature takes an additional main action on their turn.")


def test_advice_bands_are_the_books():
    # "a feature costing 2 to 3 Malice, a feature costing 5 Malice, and a feature costing 7 to 10 Malice"
    bands = [(b.low, b.high) for b in feature_book().advice.bands]
    assert bands == [(2, 3), (5, 5), (7, 10)]


# ---------------------------------------------------------------- Malicious Strike


@pytest.mark.parametrize(
    ("level", "organization", "role", "expected"),
    [
        # level 1 platoon: highest characteristic 1 + echelon 1 = 2 -> 2 to 6
        (1, "platoon", "brute", (2, 6)),
        # level 5 leader: 1 + echelon 2 + 1 = 4 -> 4 to 12
        (5, "leader", None, (4, 12)),
        # level 10 solo: 1 + 4 + 1 = 6, capped at 5 -> 5 to 15
        (10, "solo", None, (5, 15)),
        # level 7 elite: 1 + 3 = 4 -> 4 to 12
        (7, "elite", "hexer", (4, 12)),
    ],
)
def test_malicious_strike_range(level, organization, role, expected):
    monster = wb.build_monster(level, organization, role)
    assert malicious_strike_range(monster) == expected


@pytest.mark.parametrize(
    ("malice", "expected"),
    [
        (5, 4),  # 5 Malice: extra damage equal to the highest characteristic (4 for a level 5 leader)
        (6, 5),  # "increases by 1 for each additional Malice spent"
        (13, 12),  # 5 + 8 Malice reaches 3 × 4 = 12
        (14, 12),  # "to a maximum of three times the monster's highest characteristic"
    ],
)
def test_malicious_strike_extra_damage(malice, expected):
    leader = wb.build_monster(5, "leader")
    assert malicious_strike_extra_damage(leader, malice) == expected


@given(
    level=st.integers(1, 20),
    organization=st.sampled_from(["leader", "solo", "platoon"]),
    malice=st.integers(5, 60),
)
def test_malicious_strike_extra_damage_stays_in_range(level, organization, malice):
    role = "brute" if organization == "platoon" else None
    monster = wb.build_monster(level, organization, role)
    low, high = malicious_strike_range(monster)
    extra = malicious_strike_extra_damage(monster, malice)
    assert low <= extra <= high
    assert extra == min(monster.highest_characteristic + malice - 5, 3 * monster.highest_characteristic)


@pytest.mark.parametrize("malice", [4, 0, -1, 5.0, True, "5"])
def test_malicious_strike_refuses_less_than_five(malice):
    with pytest.raises(InvalidInput) as info:
        malicious_strike_extra_damage(wb.build_monster(1, "leader"), malice)
    assert info.value.code == "invalid-malice"


def test_malicious_strike_range_needs_a_monster():
    with pytest.raises(InvalidInput) as info:
        malicious_strike_range("a dragon")
    assert info.value.code == "invalid-monster"


# ---------------------------------------------------------------- the advice


@pytest.mark.parametrize(
    ("costs", "missing"),
    [
        ([3, 5, 7], []),  # the book's pick: one of each band
        ([2, 5, 10], []),  # band edges 2 and 10 count
        ([5, 7], ["2 to 3"]),  # no cheap feature
        ([3, 7], ["5"]),  # no 5 Malice feature
        ([3, 5], ["7 to 10"]),  # no big feature
        ([4, 6, 11], ["2 to 3", "5", "7 to 10"]),  # costs between and beyond the bands match none
        ([], ["2 to 3", "5", "7 to 10"]),  # nothing prepared
    ],
)
def test_cost_advice_bands(costs, missing):
    hints = cost_advice(costs)
    assert len(hints) == len(missing)
    for hint, label in zip(hints, missing, strict=True):
        assert f"costing {label} Malice" in hint


def test_cost_advice_accepts_features():
    features = [*basic_malice_features(), Trait(name="Earthquake", text="...", cost=7)]
    # Brutal Effectiveness 3, Malicious Strike 5, a 7: covered
    assert cost_advice(features) == []


@pytest.mark.parametrize(
    ("count", "monster_types", "too_many"),
    [
        (3, 1, False),  # "only three Malice features for any given encounter"
        (4, 1, True),  # four with one monster type is more than the advice
        (4, 2, False),  # "or four if ... multiple monster types or bands"
        (5, 2, True),
    ],
)
def test_cost_advice_counts(count, monster_types, too_many):
    costs = [3, 5, 7, 8, 9][:count]
    hints = cost_advice(costs, monster_types=monster_types)
    assert any("features prepared" in h for h in hints) is too_many


@pytest.mark.parametrize("bad", [[3, -1], [3, 2.5], ["5"], [Trait(name="x", text="y")], "357", 5])
def test_cost_advice_refuses_bad_costs(bad):
    with pytest.raises(InvalidInput) as info:
        cost_advice(bad)
    assert info.value.code == "invalid-costs"


def test_cost_advice_refuses_bad_monster_types():
    with pytest.raises(InvalidInput) as info:
        cost_advice([3, 5, 7], monster_types=0)
    assert info.value.code == "invalid-monster-types"


# ---------------------------------------------------------------- the features of an encounter


def test_basic_features_come_from_the_feature_data():
    # "Brutal Effectiveness (3 Malice)", "Malicious Strike (5+ Malice)", "Solo Action (5 Malice)"
    costs = {f.name: f.cost for f in (*basic_malice_features(), solo_action())}
    assert costs == {"Brutal Effectiveness": 3, "Malicious Strike": 5, "Solo Action": 5}


def test_encounter_features_are_the_basic_ones_then_each_monsters_own_once():
    # "All monsters have access to the following Malice features, in addition to any "[Creature] Malice"
    #  features they might have." An instant solo gains "Solo Action (5 Malice)".
    drums = Trait(name="War Drums", text="a band feature", cost=7)
    band = wb.build_monster(level=2, organization="platoon", role="brute").model_copy(
        update={"name": "Orc", "malice_features": (drums,)})
    solo = wb.instant_solo(wb.build_monster(level=2, organization="leader"))
    twice = band.model_copy(update={"name": "Orc 2"})  # the same band feature again: listed once
    found = encounter_features([band, solo, twice], extra=[BIG])
    assert [(f.name, f.cost) for f in found] == [
        ("Brutal Effectiveness", 3), ("Malicious Strike", 5), ("War Drums", 7), ("Solo Action", 5),
        ("Goblin Mode", 7),
    ]
    assert [f.name for f in encounter_features()] == ["Brutal Effectiveness", "Malicious Strike"]
    with pytest.raises(wb.InvalidInput) as caught:
        encounter_features(["Orc"])
    assert caught.value.field == "monsters"


# ---------------------------------------------------------------- the data file


def test_shipped_file_loads():
    assert load_feature_book(MALICE_FEATURES_PATH) == feature_book()


def test_bad_file_reports_every_problem(tmp_path):
    text = MALICE_FEATURES_PATH.read_text(encoding="utf-8")
    text = text.replace("ev_multiplier = 3 ", "ev_multiplier = -3 ", 1)
    text = text.replace('key = "opener"', 'key = ""', 1)
    text = text.replace("base_cost = 5 ", 'base_cost = "five" ', 1)
    bad = tmp_path / "malice.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_feature_book(bad)
    problems = " ".join(info.value.problems)
    assert len(info.value.problems) == 3
    assert "ev_multiplier" in problems and "slots.0.key" in problems and "base_cost" in problems


def test_inconsistent_file_is_refused(tmp_path):
    text = MALICE_FEATURES_PATH.read_text(encoding="utf-8")
    text = text.replace("count = 3 ", "count = 4 ", 1).replace("low = 5 ", "low = 1 ", 1)
    bad = tmp_path / "malice.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_feature_book(bad)
    message = str(info.value)
    assert "count must equal" in message and "must not overlap" in message


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot read"),  # no file
        ("[basic_malice\n", "not valid TOML"),
    ],
)
def test_unreadable_file(tmp_path, content, expected):
    path = tmp_path / "x.toml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(RulesetError, match=expected):
        load_feature_book(path)
