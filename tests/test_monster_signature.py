"""A formula monster holds its signature ability and characteristic (workbench/monster/signature.py): built
with a characteristic and strike choice, it looks the same in its block, its Markdown, its printed card,
`workbench show`, the workspace's monster list (the encounter and fight pages, the adventure packet), the
pace of a fight and every export read back. Each view is read as a Director reads it: the highest
characteristic and its value, the signature ability's name, roll bonus, letter, damage and potency per tier,
its text; what it must show is worked out from the monster's numbers, not from a view."""

from __future__ import annotations

import html
import json
import re

import pytest
from cli_process import run_cli

import workbench as wb
from workbench.encounter.adventure import Adventure, plan
from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.party import make_party
from workbench.export.exporter import export_monster
from workbench.fight.pace import foe_attack
from workbench.formats.reader import read_monsters
from workbench.monster.library import load_entry, save_monster
from workbench.monster.signature import signature_ability, signature_choices, with_signature
from workbench.render.adventure import adventure_html
from workbench.render.stat_block import stat_block_html, stat_block_markdown
from workbench.render.table_copy import table_copy_html
from workbench.workspace.shelf import LIBRARY_SHELF, gather_bestiary

CHOICES = [("agility", True), ("presence", False), ("might", False)]
_TIER = re.compile(r"(≤11|12–16|17\+):? (\d+) damage;? ([MARIP]) < (-?\d+)")


def ogre(characteristic: str = "might", strike: bool = True, level: int = 4) -> wb.Monster:
    return wb.build_monster(level=level, organization="elite", role="brute", characteristic=characteristic,
                            strike=strike).model_copy(update={
        "name": "Bridge Ogre", "signature_name": "Club Sweep", "signature_text": "The target is pushed 2."})


def _text(block: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", block)).split())


def read_html(block: str) -> dict:
    """The numbers an HTML block shows: the marked highest characteristic (or, on the printed card, the one
    characteristic printed), every other characteristic printed, and the signature ability."""
    cells = dict(re.findall(r'<td[^>]*data-characteristic="(\w+)"[^>]*>(?:<span[^>]*>)?([+−]\d+|—)<', block))
    marked = re.findall(r'<td class="wb-highest" data-characteristic="(\w+)"', block)
    printed = {name: value for name, value in cells.items() if value != "—"}
    return _signature(_text(block), marked[0] if marked else None, printed)


def read_markdown(text: str) -> dict:
    head, values = re.search(r"\| Might \| Agility \| Reason \| Intuition \| Presence \|\n\|[-|]+\|\n\|(.*)\|",
                             text).group(0, 1)
    cells = dict(zip(("might", "agility", "reason", "intuition", "presence"),
                     (v.strip() for v in values.split("|")), strict=True))
    marked = [name for name, value in cells.items() if value.startswith("**")]
    printed = {name: value.strip("*") for name, value in cells.items() if value != "—"}
    return _signature(" ".join(html.unescape(text.replace("*", "")).split()), marked[0] if marked else None, printed)


def _signature(text: str, marked: str | None, printed: dict) -> dict:
    tiers = _TIER.findall(text)
    assert len(tiers) == 3, text
    return {
        "highest": marked,
        "characteristics": printed,
        "name": "Club Sweep" if "Club Sweep" in text else None,
        "bonus": int(re.search(r"Power Roll \+ (\d+)", text).group(1)),
        "letter": {t[2] for t in tiers},
        "damage": [int(t[1]) for t in tiers],
        "potency": [int(t[3]) for t in tiers],
        "text": "The target is pushed 2." in text,
    }


def _expected(characteristic: str, strike: bool) -> dict:
    """What every view must show, from the formulas' numbers: the chosen characteristic at the highest value,
    the signature ability's bonus, letter, damage (with the characteristic for a strike) and potencies."""
    numbers = ogre()
    damage = numbers.damage if strike else numbers.non_strike_damage
    return {
        "highest": characteristic,
        "characteristics": {characteristic: f"+{numbers.highest_characteristic}"},
        "name": "Club Sweep",
        "bonus": numbers.highest_characteristic,
        "letter": {characteristic[0].upper()},
        "damage": list(damage.as_tuple()),
        "potency": list(numbers.potency.as_tuple()),
        "text": True,
    }


@pytest.fixture
def saved(tmp_path):
    def save(characteristic: str, strike: bool):
        folder = tmp_path / f"{characteristic}-{strike}"
        save_monster(ogre(characteristic, strike), folder=folder)
        return folder

    return save


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_the_block_and_its_markdown_show_the_monsters_choices(characteristic, strike):
    monster = ogre(characteristic, strike)
    assert read_html(stat_block_html(monster, style=False)) == _expected(characteristic, strike)
    assert read_markdown(stat_block_markdown(monster)) == _expected(characteristic, strike)


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_the_printed_card_prints_the_one_characteristic_chosen(characteristic, strike):
    card = read_html(table_copy_html(ogre(characteristic, strike)))
    expected = _expected(characteristic, strike)
    assert card["characteristics"] == expected["characteristics"]
    assert {k: card[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")} == {
        k: expected[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")}


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_the_workspace_lists_a_saved_monster_with_its_block(saved, characteristic, strike):
    """The monster list the encounter page, the fight page and the adventure packet draw from."""
    folder = saved(characteristic, strike)
    listed = gather_bestiary(None, folder, sample=False)
    (monster,) = [e.monster for e in listed.entries if e.shelf == LIBRARY_SHELF]
    expected = _expected(characteristic, strike)
    assert read_html(stat_block_html(monster, style=False)) == expected  # the fight's and the encounter's block
    party = make_party(heroes=4, level=4)
    day = Adventure(name="Bridge", party=party,
                    encounters=(Encounter(party=party).adding(creature_from_monster(monster, 2)),))
    card = re.search(r'<div class="wb-card">(.*?)</div></section>', adventure_html(plan(day), [monster]), re.S)
    assert read_html(card.group(1)) == expected  # the packet's card
    assert list(foe_attack(monster).tiers) == expected["damage"]  # the pace of the fight uses the same roll
    assert foe_attack(monster).bonus == expected["bonus"]


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_workbench_show_shows_a_saved_monster_with_its_block(saved, characteristic, strike):
    folder = saved(characteristic, strike)
    result = run_cli("show", str(folder / "Bridge Ogre.json"))
    assert result.returncode == 0, result.stderr
    expected = _expected(characteristic, strike)
    assert read_markdown(result.stdout) == expected
    data = json.loads(run_cli("show", "--json", str(folder / "Bridge Ogre.json")).stdout)
    assert data["characteristics"][characteristic] == ogre().highest_characteristic
    (ability,) = data["abilities"]
    assert [ability["power_roll"][f"tier{n}"]["damage"] for n in (1, 2, 3)] == expected["damage"]
    assert ("Strike" in ability["keywords"]) is strike


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_every_export_file_of_a_saved_monster_reads_back_to_its_block(saved, characteristic, strike):
    entry = load_entry("Bridge Ogre", saved(characteristic, strike))
    expected = _expected(characteristic, strike)
    for fmt in ("forge-steel", "foundry", "steel-compendium"):
        (back,) = read_monsters(json.loads(export_monster(entry.monster, fmt)), f"ogre.{fmt}")
        got = read_html(stat_block_html(back, style=False))
        assert {k: got[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")} == {
            k: expected[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")}, fmt
        assert back.characteristics[characteristic] == ogre().highest_characteristic


def test_the_choices_read_back_from_a_monster():
    for characteristic, strike in CHOICES:
        assert signature_choices(ogre(characteristic, strike)) == (characteristic, strike)
    # a monster with abilities of its own, or none, is no formula monster
    edited = ogre().model_copy(update={"abilities": (ogre().abilities[0].model_copy(update={"name": "Club"}),)})
    assert signature_choices(edited) is None
    assert signature_choices(ogre().model_copy(update={"abilities": ()})) is None


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_a_copy_with_new_numbers_or_words_carries_its_ability_anew(characteristic, strike):
    monster = ogre(characteristic, strike)
    for changed, level in ((wb.relevel(monster, 9), 9), (wb.relevel(monster, 2, "formula"), 2)):
        assert changed.abilities == (signature_ability(changed, characteristic, strike),)
        assert read_html(stat_block_html(changed, style=False))["damage"] == list(
            (ogre(level=level).damage if strike else ogre(level=level).non_strike_damage).as_tuple())
        assert changed.characteristics[characteristic] == ogre(level=level).highest_characteristic
    worded = monster.model_copy(update={"name": "Troll", "signature_name": "Maul", "signature_text": "Prone."})
    (ability,) = worded.abilities
    assert (ability.name, ability.effects_after[0].text) == ("Maul", "Prone.")
    solo = wb.instant_solo(monster)
    assert solo.abilities == monster.abilities  # EV and Stamina change, not the ability's numbers


def test_a_monster_without_choices_written_in_gets_them_where_it_has_none():
    bare = ogre().model_copy(update={"abilities": (), "characteristics": wb.Characteristics(agility=1)})
    whole = with_signature(bare, "presence", False)
    assert whole.characteristics == wb.Characteristics(agility=1, presence=bare.highest_characteristic)
    assert signature_choices(whole) == ("presence", False)
    five = wb.Characteristics(might=2, agility=1, reason=0, intuition=0, presence=-1)
    published = ogre().model_copy(update={"characteristics": five})
    assert with_signature(published, "agility", False) == published  # abilities and all five of its own: kept
