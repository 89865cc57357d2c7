"""A book-layout stat block copied from a PDF, and Forge Steel's monster page copied from a browser, read
whole (`wb.parse_stat_block_text`, the copy mended by workbench/formats/pdf_text.py): what `pdftotext
-layout` gives (the name beside its level, the header grid's labels under their values, an ability's columns
side by side), what a PDF viewer's copy gives (each box on its own lines, a column after the other, a tier's
label apart from its words, words hyphenated at a line's end) and Forge Steel's page (labels over values,
"M +3" boxes, keywords as tags over the level line): the same Monster as the JSON written here by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

import workbench as wb
from workbench.formats.pdf_text import mended_pdf_text
from workbench.formats.stat_block import parse_whole_stat_block

PASTED = Path(__file__).parent / "data" / "pasted"

TOLL_STAFF = {
    "type": "feature", "feature_type": "ability", "name": "Toll Staff", "ability_type": "Signature Ability",
    "keywords": ["Melee", "Strike", "Weapon"], "usage": "Main action", "distance": "Melee 2",
    "target": "Two creatures or objects",
    "effects": [{"roll": "Power Roll + 3", "tier1": "7 damage; push 1", "tier2": "10 damage; push 2",
                 "tier3": "13 damage; push 3; M < 2 prone"},
                {"name": "Effect", "effect": "The tollkeeper demands a coin; a target who pays one is not pushed."}]}
PAY_THE_TOLL = {
    "type": "feature", "feature_type": "ability", "name": "Pay the Toll", "cost": "2 Malice", "keywords": ["Ranged"],
    "usage": "Maneuver", "distance": "Ranged 5", "target": "One creature",
    "effects": [{"name": "Effect", "effect": "The target loses 1d6 Stamina unless they give the tollkeeper an item."}]}
BOG_WARDEN = {
    "type": "feature", "feature_type": "trait", "name": "Bog Warden",
    "effects": [{"effect": "The tollkeeper has an edge on tests to notice creatures moving through water."}]}
TOLLKEEPER_JSON = {
    "type": "statblock", "name": "Bog Tollkeeper", "level": 3, "roles": ["Elite Defender"],
    "ancestry": ["Humanoid", "Reedfolk"], "ev": "20", "stamina": "60", "speed": 5, "movement": "Swim", "size": "1L",
    "stability": 2, "free_strike": 4, "weaknesses": ["Fire 3"],
    "might": 3, "agility": 0, "reason": -1, "intuition": 1, "presence": 1,
    "features": [TOLL_STAFF, PAY_THE_TOLL, BOG_WARDEN],
}


def read(name: str) -> wb.Monster:
    return wb.parse_stat_block_text((PASTED / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["pdftotext-layout.txt", "pdf-viewer-copy.txt"])
def test_a_pdf_copy_gives_the_blocks_json(name):
    pasted = read(name)
    assert pasted.kept_as_text == ()
    assert pasted == parse_whole_stat_block(TOLLKEEPER_JSON, "json")


def test_forge_steels_page_copy_gives_the_blocks_json():
    pasted = read("forge-steel-page-copy.txt")
    assert pasted.kept_as_text == ()
    features = {**TOLLKEEPER_JSON, "features": [BOG_WARDEN, TOLL_STAFF]}
    assert pasted == parse_whole_stat_block(features, "json")


def test_text_in_the_books_lines_comes_back_as_it_was():
    text = ("Fen Lurker\nLevel 2 Platoon Ambusher\nEV 8\nBeast\nStamina 30    Speed 6    Size 1L    Stability 1\n"
            "Free Strike 3\nMight +2   Agility +1   Reason -1   Intuition 0   Presence -2\n")
    assert mended_pdf_text(text) == text


def test_a_grid_of_labels_under_values_becomes_the_books_lines():
    text = "X\nLevel 1 Solo Brute\n  1L   5   60\n Size  Speed  Stamina\nImmunity: —\n"
    assert mended_pdf_text(text).split("\n") == ["X", "Level 1 Solo Brute", "Size 1L", "Speed 5", "Stamina 60",
                                                 "Immunity: —", ""]
