"""The rules' words kept as data: general keywords, free strikes, the Noncombatant stat block."""

from __future__ import annotations

import json

import pytest

from workbench import RulesetError
from workbench.rules.lore import LORE_PATH, core_lore, load_lore

# "General Keywords" in Monster Basics, in the book's order.
GENERAL_KEYWORDS = (
    "Abyssal", "Accursed", "Animal", "Beast", "Construct", "Dragon", "Elemental", "Fey", "Giant",
    "Horror", "Humanoid", "Infernal", "Ooze", "Plant", "Soulless", "Swarm", "Undead",
)


def test_every_general_keyword_in_order():
    assert core_lore().keyword_names() == GENERAL_KEYWORDS


@pytest.mark.parametrize(
    "keyword, opening",
    [
        # "Creatures with the Abyssal keyword, such as demons and gnolls, ..."
        ("Abyssal", "Creatures with the Abyssal keyword, such as demons and gnolls"),
        # "Undead creatures, such as ghosts and zombies, are the reanimated flesh ..."
        ("undead", "Undead creatures, such as ghosts and zombies"),
        # "The Animal keyword is an easy one!"
        ("ANIMAL", "The Animal keyword is an easy one!"),
    ],
)
def test_keyword_meanings_are_the_rules_words(keyword, opening):
    assert core_lore().meaning(keyword).startswith(opening)


def test_unknown_keyword_has_no_meaning():
    assert core_lore().meaning("Goblin") is None


def test_no_empty_or_duplicate_keywords():
    lore = core_lore()
    problems = [k.name for k in lore.general_keywords if not k.meaning.strip()]
    names = [k.name for k in lore.general_keywords]
    problems += [n for n in set(names) if names.count(n) > 1]
    assert problems == []


def test_free_strike_rules():
    rules = core_lore().free_strikes
    # "A melee free strike with a distance of melee 1 or the melee distance of the creature's signature ability"
    assert rules.melee_minimum_distance == 1
    # "A ranged free strike with a distance of 5 or the ranged distance of the creature's signature ability"
    assert rules.ranged_minimum_distance == 5
    # "has the Strike keyword, as well as the Magic, Psionic, or Weapon keywords if those keywords are found"
    assert rules.keyword == "Strike"
    assert rules.inherited_keywords == ("Magic", "Psionic", "Weapon")
    assert rules.melee.startswith("A melee free strike")


def test_noncombatant_stat_block():
    # "1S-2 Size  5 Speed  8 Stamina  0 Stability  1 Free Strike", "0 Might 0 Agility ..."
    block = core_lore().noncombatant
    expected = {"Size": "1S-2", "Speed": "5", "Stamina": "8", "Stability": "0", "Free Strike": "1",
                "Might": "0", "Agility": "0", "Reason": "0", "Intuition": "0", "Presence": "0"}
    assert {label: block.value(label) for label in expected} == expected
    assert block.keywords == "Human or Animal"
    assert (block.level, block.ev) == ("-", "-")
    assert block.size_note == "The noncombatant can be size 1S, 1M, 1L, or 2."
    with pytest.raises(KeyError):
        block.value("Malice")


def test_bad_lore_file_reports_every_problem(tmp_path):
    data = json.loads(LORE_PATH.read_text(encoding="utf-8"))
    data["general_keywords"] = []
    del data["noncombatant"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_lore(path)
    assert len(caught.value.problems) == 2


def test_unreadable_lore_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RulesetError, match="not valid JSON"):
        load_lore(path)


def test_lore_file_is_the_rules_text_as_extracted():
    # The data must be a copy of data/rules/monster-basics.txt, not a retyping: re-extract and compare.
    import importlib.util

    root = LORE_PATH.parents[2]
    spec = importlib.util.spec_from_file_location("extract_lore", root / "data" / "lore" / "extract.py")
    extract = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extract)
    text = (root / "data" / "rules" / "monster-basics.txt").read_text(encoding="utf-8")
    assert extract.lore_data(text) == json.loads(LORE_PATH.read_text(encoding="utf-8"))
    for keyword in core_lore().general_keywords:
        assert f"\n{keyword.name}\n\n{keyword.meaning}\n" in text
