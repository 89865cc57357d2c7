"""What the builder shows is what every view shows (workbench/monster/shown.py): a monster saved from the builder
with its characteristic and strike choices looks the same in the builder's block, its export, its printed card,
`workbench show`, the workspace's monster list (the encounter and fight pages, the adventure packet) and the
pace of a fight. Each view is read as a Director reads it: the highest characteristic and its value, the
signature ability's name, roll bonus, letter, damage and potency per tier, its text."""

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
from workbench.errors import InvalidInput
from workbench.export.exporter import export_monster
from workbench.fight.pace import foe_attack
from workbench.formats.reader import read_monsters
from workbench.monster.library import load_entry, save_monster
from workbench.monster.shown import entry_as_shown, monster_as_shown, shown_characteristic, shown_strike
from workbench.render.adventure import adventure_html
from workbench.render.stat_block import stat_block_html, stat_block_markdown
from workbench.render.table_copy import table_copy_html
from workbench.workspace.shelf import LIBRARY_SHELF, gather_bestiary

CHOICES = [("agility", True), ("presence", False), ("might", False)]
_TIER = re.compile(r"(≤11|12–16|17\+):? (\d+) damage;? ([MARIP]) < (-?\d+)")


def ogre() -> wb.Monster:
    return wb.build_monster(level=4, organization="elite", role="brute").model_copy(update={
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


def builder_shows(monster: wb.Monster, characteristic: str, strike: bool) -> dict:
    """The builder's own block: the bare monster with the Director's choices beside it."""
    return read_html(stat_block_html(monster, characteristic=characteristic, strike=strike, style=False))


@pytest.fixture
def saved(tmp_path):
    def save(characteristic: str, strike: bool):
        folder = tmp_path / f"{characteristic}-{strike}"
        save_monster(ogre(), folder=folder, characteristic=characteristic, strike=strike)
        return folder

    return save


def _expected(characteristic: str, strike: bool) -> dict:
    shown = builder_shows(ogre(), characteristic, strike)
    assert shown["highest"] == characteristic and shown["letter"] == {characteristic[0].upper()}
    return shown


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_the_exported_monster_drawn_without_choices_shows_what_the_builder_showed(characteristic, strike):
    expected = _expected(characteristic, strike)
    shown = monster_as_shown(ogre(), characteristic, strike)
    assert read_html(stat_block_html(shown, style=False)) == expected
    assert read_markdown(stat_block_markdown(shown)) == read_markdown(
        stat_block_markdown(ogre(), characteristic=characteristic, strike=strike))
    assert read_markdown(stat_block_markdown(shown))["highest"] == characteristic


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_the_printed_card_of_the_export_prints_the_one_characteristic_chosen(characteristic, strike):
    expected = _expected(characteristic, strike)
    card = read_html(table_copy_html(monster_as_shown(ogre(), characteristic, strike)))
    assert card["characteristics"] == {characteristic: f"+{ogre().highest_characteristic}"}
    assert {k: card[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")} == {
        k: expected[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")}
    assert card == read_html(table_copy_html(ogre(), characteristic=characteristic, strike=strike))


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_the_workspace_lists_a_saved_monster_as_the_builder_showed_it(saved, characteristic, strike):
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
def test_workbench_show_shows_a_saved_monster_as_the_builder_showed_it(saved, characteristic, strike):
    folder = saved(characteristic, strike)
    result = run_cli("show", str(folder / "Bridge Ogre.json"))
    assert result.returncode == 0, result.stderr
    assert read_markdown(result.stdout) == read_markdown(
        stat_block_markdown(ogre(), characteristic=characteristic, strike=strike))
    data = json.loads(run_cli("show", "--json", str(folder / "Bridge Ogre.json")).stdout)
    expected = _expected(characteristic, strike)
    assert data["characteristics"][characteristic] == int(expected["characteristics"][characteristic])
    (ability,) = data["abilities"]
    assert [ability["power_roll"][f"tier{n}"]["damage"] for n in (1, 2, 3)] == expected["damage"]
    assert ("Strike" in ability["keywords"]) is strike


@pytest.mark.parametrize(("characteristic", "strike"), CHOICES)
def test_every_export_file_reads_back_to_the_block_the_builder_showed(saved, characteristic, strike):
    entry = load_entry("Bridge Ogre", saved(characteristic, strike))
    expected = _expected(characteristic, strike)
    for fmt in ("forge-steel", "foundry", "steel-compendium"):
        (back,) = read_monsters(json.loads(export_monster(entry_as_shown(entry), fmt)), f"ogre.{fmt}")
        got = read_html(stat_block_html(back, style=False))
        assert {k: got[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")} == {
            k: expected[k] for k in ("bonus", "letter", "damage", "potency", "name", "text")}, fmt
        assert back.characteristics[characteristic] == ogre().highest_characteristic


def test_the_choices_read_back_from_a_monster():
    bare = ogre()
    assert (shown_characteristic(bare), shown_strike(bare)) == ("might", True)  # as the builder starts
    for characteristic, strike in CHOICES:
        shown = monster_as_shown(bare, characteristic, strike)
        assert (shown_characteristic(shown), shown_strike(shown)) == (characteristic, strike)
    # a value the Director set below the highest is no choice of the highest
    lower = bare.model_copy(update={"characteristics": bare.characteristics.model_copy(update={"agility": 1})})
    assert shown_characteristic(lower) == "might"


def test_an_entry_without_a_name_is_shown_under_its_library_name(tmp_path):
    save_monster(ogre().model_copy(update={"name": ""}), name="Troll", folder=tmp_path, characteristic="reason")
    shown = entry_as_shown(load_entry("Troll", tmp_path))
    assert shown.name == "Troll" and shown.characteristics.reason == ogre().highest_characteristic
    with pytest.raises(InvalidInput) as caught:
        entry_as_shown(ogre())
    assert caught.value.field == "entry"
