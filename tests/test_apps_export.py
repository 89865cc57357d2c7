"""The Export panel (workbench/apps/export.py): the download link holds the file itself and reads back equal;
a changed monster takes old links away; a refusal is shown in words; user text is escaped."""

from __future__ import annotations

import base64
import json
import re

import pytest

import workbench as wb
from workbench.apps.export import ExportPanel, card_preview_html, download_html, file_name
from workbench.export.exporter import FORMATS
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.reader import read_monsters

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
    assert 'download="Guard.json"' in panel.link.value
    panel.show(first)
    assert panel.link.value != ""  # the same monster keeps its link
    panel.show(first.model_copy(update={"stamina": 99}))
    assert panel.link.value == ""  # a changed one does not
    panel.controls["make"].click()
    panel.controls["format"].value = "markdown"
    assert panel.link.value == ""  # another format: make the file again
