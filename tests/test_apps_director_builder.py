"""The builder as a Director uses it, without a browser: open a published stat block, set the whole block
(characteristics, movement, immunities, weaknesses), Save and Export beside the block, and move to another
level for good or as a saved copy."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from workbench.apps.builder import monster_builder
from workbench.formats.bestiary import sample_bestiary
from workbench.monster.library import list_monsters, load_entry

SAMPLE = sample_bestiary()


def published_file(name: str) -> Path:
    root = Path(SAMPLE.source)
    folder = root if root.is_dir() else root.parent
    block = next(m for m in SAMPLE.monsters if m.name == name)
    return folder / block.file


@pytest.fixture
def app(tmp_path):
    return monster_builder(folder=tmp_path / "monsters")


def plain(app) -> str:
    return html.unescape(app.stat_block.value)


def test_a_steel_compendium_file_opens_in_the_builder(app):
    path = published_file("Bugbear Channeler")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "format" not in data  # a published file, not one the workbench wrote
    shown = app.open_file(path)
    assert shown is not None and shown.name == "Bugbear Channeler"
    c = app.controls
    assert c["name"].value == "Bugbear Channeler"
    assert c["level"].value == data["level"]
    assert c["organization"].value == "elite"
    # its five characteristics are in their boxes, as printed
    assert c["score_reason"].value == f"{data['reason']:+d}"
    assert c["score_might"].value == f"{data['might']:+d}"
    assert "Bugbear Channeler" in plain(app)
    assert "Opened Bugbear Channeler" in app.library_note.value


def test_a_file_no_reader_knows_is_refused_in_words(app, tmp_path):
    odd = tmp_path / "notes.json"
    odd.write_text('{"shopping": ["eggs"]}', encoding="utf-8")
    assert app.open_file(odd) is None
    note = html.unescape(app.library_note.value)
    assert "Not opened" in note
    assert "Traceback" not in note and "None" not in note and "top level" not in note
    assert "is not a stat block the workbench reads" in note
    assert app.open_file("") is None
    assert "Type the path" in app.library_note.value


def test_a_saved_monster_opens_from_its_path_too(app, tmp_path):
    app.controls["name"].value = "Grisk"
    app.save_top.click()
    saved = tmp_path / "monsters" / "Grisk.json"
    assert saved.is_file()
    other = monster_builder(folder=tmp_path / "elsewhere")
    assert other.open_file(saved).name == "Grisk"


def test_the_other_characteristics_are_set_and_a_changed_highest_is_marked(app):
    c = app.controls
    c["characteristic"].value = "agility"
    c["score_might"].value = "+1"
    c["score_reason"].value = "-1"
    block = plain(app)
    assert 'data-characteristic="might">+1<' in block
    assert 'data-characteristic="reason">−1<' in block
    assert "wb-departs" not in block  # the highest is still the formulas'
    c["score_agility"].value = "+4"  # a level 1 platoon's formula highest is 1 + echelon 1 = 2
    block = plain(app)
    assert "wb-departs" in block and "the formulas give +2" in block
    assert app.monster.characteristics.agility == 4


def test_a_bad_characteristic_is_refused_beside_the_block_by_name(app):
    app.controls["score_presence"].value = "lots"
    status = html.unescape(app.status.value)
    assert "presence" in status.lower() and "whole number" in status


def test_movement_immunities_and_weaknesses_reach_the_block(app):
    c = app.controls
    c["speed"].value = "6"
    c["movement"].value = ("fly", "hover")
    c["immunities"].value = "Fire 5, Poison 3"
    c["weaknesses"].value = "Holy 5"
    block = plain(app)
    assert "6 (fly, hover)" in block
    assert "Immunity</b> Fire 5, Poison 3" in block
    assert "Weakness</b> Holy 5" in block
    c["weaknesses"].value = "Holy"
    assert "weaknesses" in html.unescape(app.status.value).lower()


def test_the_whole_block_survives_a_save_and_a_load(app, tmp_path):
    c = app.controls
    c["name"].value = "Ash Wyrmling"
    c["movement"].value = ("fly",)
    c["immunities"].value = "Fire 5"
    c["score_intuition"].value = "+1"
    app.save_top.click()
    entry = load_entry("Ash Wyrmling", tmp_path / "monsters")
    assert [str(m) for m in entry.monster.immunities] == ["Fire 5"]
    assert entry.monster.movement is not None and entry.monster.movement.modes == ("fly",)
    assert entry.monster.characteristics.intuition == 1


def test_save_and_export_sit_beside_the_block(app, tmp_path):
    right = app.children[1].children[1]
    assert app.block_actions in right.children and right.children[0] is app.block_actions
    app.controls["name"].value = "Gate Warden"
    app.save_top.click()
    assert "Gate Warden" in list_monsters(tmp_path / "monsters")
    assert str(tmp_path / "monsters") in html.unescape(app.block_note.value) or "Gate Warden.json" in app.block_note.value
    app.export_top.click()
    assert app.tabs.titles[app.tabs.selected_index] == "Export"


def test_use_this_level_moves_the_monster(app):
    app.tabs.selected_index = app.tabs.titles.index("Move to another level")
    app.relevel_level.value = 4
    assert app.save_at_level.description == "Save a copy at level 4"
    app.use_level.click()
    assert app.controls["level"].value == 4
    assert app.monster.level == 4


def test_save_a_copy_at_another_level(app, tmp_path):
    app.controls["name"].value = "Gate Warden"
    app.tabs.selected_index = app.tabs.titles.index("Move to another level")
    app.relevel_level.value = 3
    app.save_at_level.click()
    assert app.monster.level == 1  # the monster being built stays where it was
    names = list_monsters(tmp_path / "monsters")
    assert "gate-warden level 3" in [n.lower() for n in names] or any("level 3" in n for n in names)
    copy = next(n for n in names if "level 3" in n)
    assert load_entry(copy, tmp_path / "monsters").monster.level == 3
    assert "Saved a copy at level 3" in app.relevel_note.value


def test_save_without_a_name_asks_for_one(app, tmp_path):
    app.save_top.click()
    note = html.unescape(app.block_note.value)
    assert "Give the monster a name first" in note and "“”" not in note
    assert list_monsters(tmp_path / "monsters") == []
