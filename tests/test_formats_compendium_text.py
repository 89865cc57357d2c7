"""The Steel Compendium's published Markdown stat block, and what a browser copies of it rendered as a page,
read whole (`wb.parse_stat_block_text` through workbench/formats/compendium_text.py): the same Monster as
the block's JSON written here by hand. The samples are our own monsters in the published shapes
(tests/data/pasted/): with and without the YAML front matter, the page's copy with its tabs and with all of
the header on one line, a retainer's advancement sections and a solo's Malice Features section."""

from __future__ import annotations

from pathlib import Path

import pytest

import workbench as wb
from workbench.formats.stat_block import parse_whole_stat_block

PASTED = Path(__file__).parent / "data" / "pasted"

REEDWRACK_JSON = {
    "type": "statblock", "name": "Reedwrack Raider", "level": 1, "roles": ["Minion Harrier"],
    "ancestry": ["Humanoid", "Reedfolk"], "ev": "3 for four minions", "stamina": "4", "speed": 7,
    "movement": "Swim", "size": "1M", "stability": 0, "free_strike": 1, "weaknesses": ["Fire 2"],
    "with_captain": "+2 bonus to Stamina", "might": 1, "agility": 2, "reason": -1, "intuition": 0, "presence": 0,
    "features": [
        {"type": "feature", "feature_type": "ability", "name": "Reed Hook", "ability_type": "Signature Ability",
         "keywords": ["Melee", "Strike", "Weapon"], "usage": "Main action", "distance": "Melee 1",
         "target": "One creature or object per minion",
         "effects": [{"roll": "Power Roll + 2", "tier1": "1 damage", "tier2": "2 damage; pull 1",
                      "tier3": "3 damage; pull 2"},
                     {"name": "Effect", "effect": "A target pulled into water is wet until the end of their next turn."}]},
        {"type": "feature", "feature_type": "ability", "name": "Slip Away", "cost": "1 Malice", "keywords": ["-"],
         "usage": "Free triggered action", "distance": "Self", "target": "Self",
         "trigger": "An enemy moves adjacent to the raider.",
         "effects": [{"name": "Effect", "effect": "The raider shifts 2 squares."}]},
        {"type": "feature", "feature_type": "trait", "name": "Marsh Born",
         "effects": [{"effect": "The raider ignores difficult terrain made of mud or water."}]},
    ],
}


def read(name: str) -> wb.Monster:
    return wb.parse_stat_block_text((PASTED / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["compendium-minion.md", "web-copy-minion.txt", "web-copy-one-line.txt"])
def test_the_published_markdown_and_its_page_copies_give_the_blocks_json(name):
    pasted = read(name)
    assert pasted == parse_whole_stat_block(REEDWRACK_JSON, "json")
    assert pasted.kept_as_text == ()
    assert (pasted.free_strike, pasted.with_captain, pasted.keywords) == (1, "+2 bonus to Stamina",
                                                                         ("Humanoid", "Reedfolk"))


def test_the_front_matter_is_not_needed():
    text = (PASTED / "compendium-minion.md").read_text(encoding="utf-8")
    body = text[text.index("###### "):]
    assert wb.parse_stat_block_text(body) == read("compendium-minion.md")


def test_a_retainers_advancements_are_kept_and_a_malice_section_gives_malice_features():
    monster = read("compendium-retainer-and-malice.md")
    assert (monster.level, monster.role, monster.stamina, monster.free_strike) == (3, "harrier", 40, 4)
    assert monster.keywords == ("Beast", "Swamp") and [str(m) for m in monster.immunities] == ["Poison 3"]
    assert monster.movement is not None and monster.movement.modes == ("climb", "swim")
    assert [a.name for a in monster.abilities] == ["Mire Bite", "Stink Cloud"]
    # a test's tiers stay under the paragraph that calls for it
    stink = monster.abilities[1]
    assert [str(t) for t in stink.effects_before[0].tiers or ()] == ["Weakened (save ends)", "Weakened (EoT)",
                                                                    "No effect"]
    assert [(t.name, t.cost) for t in monster.malice_features] == [("Churn the Water", 3)]
    kept = {(k.where, k.part): k.text for k in monster.kept_as_text}
    assert kept[("the stat block", "organization")] == "Harrier Retainer"
    assert kept[("Level 4 Retainer Advancement Ability", "feature")].startswith("Drag to the Depths (Encounter)")
    assert kept[("Mirefang Malice (Malice Features)", "line")].startswith("At the start of a mirefang's turn")


def test_a_tier_with_no_paragraph_to_belong_to_is_kept_as_text():
    text = (PASTED / "compendium-minion.md").read_text(encoding="utf-8").replace(
        "> The raider ignores", "> - **17+:** a stray tier\n>\n> The raider ignores")
    monster = wb.parse_stat_block_text(text)
    assert [(k.where, k.part, k.text) for k in monster.kept_as_text] == [
        ("feature 'Marsh Born'", "tier", "17+: a stray tier")]
    assert monster.traits[0].text == "The raider ignores difficult terrain made of mud or water."
