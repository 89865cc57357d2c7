"""The Export panel (workbench/apps/export.py): the download link holds the file itself and reads back equal;
a changed monster takes old links away; a refusal is shown in words; user text is escaped."""

from __future__ import annotations

import base64
import json
import re

import pytest

import workbench as wb
from workbench.apps.export import LABELS, ExportPanel, card_preview_html, download_html, file_name
from workbench.export.exporter import FORMATS
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.reader import read_monsters
from workbench.render.escape import stylesheet_text

WEREWOLF = next(SAMPLE_DIR.rglob("Werewolf.json"))


def _payload(link: str) -> bytes:
    href = re.search(r'href="data:[^;]+;base64,([^"]+)"', link)
    assert href
    return base64.b64decode(href.group(1))


@pytest.mark.parametrize("fmt", ["forge-steel", "foundry", "steel-compendium"])
def test_the_downloaded_file_reads_back_equal(fmt):
    monster = wb.read_stat_block(WEREWOLF)
    link = download_html(monster, fmt)
    assert f'download="{file_name(monster, fmt)}"' in link
    (back,) = read_monsters(json.loads(_payload(link)), "download")
    assert back == monster


def test_every_format_has_a_link_and_printed_ones_are_binary():
    monster = wb.build_monster(level=3, organization="elite", role="hexer").model_copy(update={"name": "Hag"})
    for fmt in FORMATS:
        link = download_html(monster, fmt)
        assert f'data-format="{fmt}"' in link
    assert _payload(download_html(monster, "pdf")).startswith(b"%PDF")
    assert _payload(download_html(monster, "png")).startswith(b"\x89PNG")
    assert 'src="data:image/png;base64,' in card_preview_html(monster)


def test_names_are_escaped_in_the_link_and_safe_as_file_names():
    monster = wb.build_monster(level=1, organization="horde", role="brute").model_copy(
        update={"name": '<script>"x"</script> Rat'})
    link = download_html(monster, "markdown")
    assert "<script>" not in link and file_name(monster, "markdown") == "scriptxscript Rat.md"


def test_the_panel_makes_a_link_on_request_and_drops_it_when_the_monster_changes():
    first = wb.build_monster(level=2, organization="platoon", role="defender").model_copy(update={"name": "Guard"})
    panel = ExportPanel()
    panel.controls["make"].click()
    assert "wb-refusal" in panel.link.value  # no monster yet: said in words
    panel.show(first)
    panel.controls["format"].value = "foundry"
    panel.controls["make"].click()
    assert 'download="Guard (Foundry).json"' in panel.link.value
    panel.show(first)
    assert panel.link.value != ""  # the same monster keeps its link
    panel.show(first.model_copy(update={"stamina": 99}))
    assert panel.link.value == ""  # a changed one does not
    panel.controls["make"].click()
    panel.controls["format"].value = "markdown"
    assert panel.link.value == ""  # another format: make the file again


# ---------------------------------------------------------------- what the builder shows is what it exports


def _shown_numbers(block: str) -> dict:
    """The numbers the builder's block shows, read from its HTML as a Director reads them."""
    highest = re.search(r'<td class="wb-highest" data-characteristic="(\w+)">'
                        r'<span class="wb-highest-value">\+(\d+)</span>', block)
    assert highest
    return {
        "characteristic": highest.group(1), "value": int(highest.group(2)),
        "bonus": int(re.search(r"Power Roll \+ (\d+)", block).group(1)),
        "damage": [int(d) for d in re.findall(r'class="wb-damage-tier\d">(\d+)<', block)],
        "potency": [int(p) for p in re.findall(r'class="wb-potency-tier\d">(-?\d+)<', block)],
        "letter": re.search(r"(\w) &lt; <span class=\"wb-potency-tier1\">", block).group(1),
        "stamina": int(re.search(r'data-stamina="(\d+)"', block).group(1)),
        "free_strike": int(re.search(r'data-free-strike="(\d+)"', block).group(1)),
        "ev": int(re.search(r'data-ev="(\d+)"', block).group(1)),
    }


@pytest.mark.parametrize("characteristic, strike", [("agility", True), ("presence", False)])
def test_a_builder_monster_exported_to_forge_steel_carries_every_number_the_block_shows(characteristic, strike):
    from workbench.apps.builder import MonsterBuilder

    builder = MonsterBuilder()
    c = builder.controls
    c["organization"].value, c["role"].value, c["level"].value = "elite", "brute", 4
    c["name"].value, c["signature_name"].value = "Bridge Ogre", "Club Sweep"
    c["signature_text"].value = "The target is pushed 2."
    c["characteristic"].value, c["strike"].value = characteristic, strike
    builder.tabs.selected_index = builder.tabs.titles.index("Export")
    shown = _shown_numbers(builder.stat_block.value)
    assert shown["characteristic"] == characteristic
    panel = builder.export.files
    panel.controls["format"].value = "forge-steel"
    panel.controls["make"].click()
    data = json.loads(_payload(panel.link.value))
    # Forge Steel's own fields (what Forge Steel shows), not the workbench record
    values = {e["characteristic"]: e["value"] for e in data["characteristics"]}
    assert values[characteristic.capitalize()] == shown["value"]
    assert (data["stamina"], data["freeStrikeDamage"], data["encounterValue"]) == (
        shown["stamina"], shown["free_strike"], shown["ev"])
    (feature,) = [f for f in data["features"] if f["type"] == "Ability"]
    ability = feature["data"]["ability"]
    assert (ability["name"], ability["cost"]) == ("Club Sweep", "signature")
    assert ("Strike" in ability["keywords"]) is strike
    roll = next(s["roll"] for s in ability["sections"] if s["type"] == "roll")
    assert roll["characteristic"] == [characteristic.capitalize()] and roll["bonus"] == shown["bonus"]
    assert [roll[f"tier{n}"] for n in (1, 2, 3)] == [
        f"{d} damage; {shown['letter']} < {p}" for d, p in zip(shown["damage"], shown["potency"], strict=True)]
    assert {"type": "text", "text": "The target is pushed 2."} in ability["sections"]
    # and read back through the workbench: the same numbers
    (back,) = read_monsters(data, "Bridge Ogre.ds-monster")
    assert back.characteristics[characteristic] == shown["value"]
    assert [t.damage for t in back.abilities[0].power_roll.tiers] == shown["damage"]


def test_the_panel_drops_its_file_when_the_highest_characteristic_changes():
    def guard(characteristic: str) -> wb.Monster:
        return wb.build_monster(level=2, organization="platoon", role="defender",
                                characteristic=characteristic).model_copy(update={"name": "Guard"})

    panel = ExportPanel()
    panel.show(guard("might"))
    panel.controls["make"].click()
    assert panel.link.value
    panel.show(guard("reason"))
    assert panel.link.value == "" and panel.monster.characteristics.reason == guard("might").highest_characteristic


def test_each_format_downloads_under_its_own_name_from_a_button():
    monster = wb.build_monster(2, "platoon", "brute").model_copy(update={"name": "Guard"})
    names = [file_name(monster, fmt) for fmt in LABELS]
    assert len(set(names)) == len(names)
    link = download_html(monster, "steel-compendium")
    assert 'download="Guard (Steel Compendium).json"' in link
    assert 'class="wb-download"' in link  # drawn as a button, not as plain text: the stylesheet's a.wb-download
    assert "a.wb-download{display:inline-block" in stylesheet_text() and "background:" in stylesheet_text()
