"""The builder as a Director uses it, without a browser: open a published stat block, set the whole block
(characteristics, movement, immunities, weaknesses), Save and Export beside the block, and move to another
level for good or as a saved copy."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

import pytest
import rules_reference as ref

from workbench.apps.builder import monster_builder
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.forge_steel import read_forge_steel
from workbench.formats.reader import import_monster
from workbench.monster.formulas import build_monster
from workbench.monster.library import list_monsters, load_entry, save_monster

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
    assert "Opened Bugbear Channeler" in app.library.note.value


def test_a_file_no_reader_knows_is_refused_in_words(app, tmp_path):
    odd = tmp_path / "notes.json"
    odd.write_text('{"shopping": ["eggs"]}', encoding="utf-8")
    assert app.open_file(odd) is None
    note = html.unescape(app.library.note.value)
    assert "Not opened" in note
    assert "Traceback" not in note and "None" not in note and "top level" not in note
    assert "is not a stat block the workbench reads" in note
    assert app.open_file("") is None
    assert "Type the path" in app.library.note.value


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
    app.relevel.level.value = 4
    assert app.relevel.save_copy.description == "Save a copy at level 4"
    app.relevel.use.click()
    assert app.controls["level"].value == 4
    assert app.monster.level == 4


def test_save_a_copy_at_another_level(app, tmp_path):
    app.controls["name"].value = "Gate Warden"
    app.tabs.selected_index = app.tabs.titles.index("Move to another level")
    app.relevel.level.value = 3
    app.relevel.save_copy.click()
    assert app.monster.level == 1  # the monster being built stays where it was
    names = list_monsters(tmp_path / "monsters")
    assert "gate-warden level 3" in [n.lower() for n in names] or any("level 3" in n for n in names)
    copy = next(n for n in names if "level 3" in n)
    assert load_entry(copy, tmp_path / "monsters").monster.level == 3
    assert "Saved a copy at level 3" in app.relevel.note.value


def test_save_without_a_name_asks_for_one(app, tmp_path):
    app.save_top.click()
    note = html.unescape(app.block_note.value)
    assert "Give the monster a name first" in note and "“”" not in note
    assert list_monsters(tmp_path / "monsters") == []


# ---------------------------------------------------------------- a published monster kept as printed

# a level 1 minion brute printed with size 2, stability 4, speed 5, Stamina 7 (the formulas give 5), free
# strike 3 (the formulas give 2), EV 3, immunity Poison 2, weakness Sonic 3, With Captain, one signature ability
HAULER = Path(__file__).parent / "data" / "real_shapes" / "sc-minion-with-captain.json"
PRINTED = {"size": "2", "stability": 4, "speed": 5, "stamina": 7, "free_strike": 3, "ev": 3,
           "keywords": ("Giant", "Cragkin"), "immunities": ["Poison 2"], "weaknesses": ["Sonic 3"],
           "with_captain": "+1 bonus to speed", "abilities": ["Boulder Swing"], "traits": ["Shoulder Through"]}


def printed_values(monster) -> dict[str, object]:
    return {"size": str(monster.size_class), "stability": monster.stability_value,
            "speed": monster.movement.speed if monster.movement else None, "stamina": monster.stamina,
            "free_strike": monster.free_strike, "ev": monster.ev, "keywords": monster.keywords,
            "immunities": [str(m) for m in monster.immunities], "weaknesses": [str(m) for m in monster.weaknesses],
            "with_captain": monster.with_captain, "abilities": [a.name for a in monster.abilities],
            "traits": [t.name for t in monster.traits]}


def departures(app) -> dict[str, tuple[int, int]]:
    """The numbers listed under the block as departing: quantity -> (formula, shown)."""
    found = re.findall(r'data-quantity="([^"]+)" data-formula="(\d+)">[^<]*? (\d+):', plain(app))
    return {quantity: (int(formula), int(value)) for quantity, formula, value in found}


@pytest.fixture
def hauler(app):
    assert app.open_file(HAULER) is not None
    return app


def test_a_published_monster_keeps_every_printed_value(hauler):
    assert hauler.printed is not None
    assert printed_values(hauler.monster) == PRINTED
    block = plain(hauler)
    assert "<th>Size</th><th>Speed</th><th>Stamina</th><th>Stability</th><th>Free Strike</th>" in block
    assert re.search(r"<td>2</td><td>5</td><td><span class=\"wb-stamina\">7</span></td><td>4</td>", block)
    assert "With Captain</b> +1 bonus to speed" in block and "Weakness</b> Sonic 3" in block
    assert "Giant, Cragkin" in block and "Boulder Swing" in block
    assert departures(hauler) == {"Stamina": (ref.stamina(1, "minion", "brute"), 7),
                                  "Free strike": (ref.free_strike(1, "minion", "brute"), 3)}
    assert "wb-use-formulas" in hauler.use_formulas._dom_classes and hauler.use_formulas.layout.display == ""


def test_the_saved_file_and_the_exports_carry_the_printed_values(hauler, tmp_path):
    hauler.save_top.click()
    saved = load_entry("Cragback Hauler", tmp_path / "monsters").monster
    assert printed_values(saved) == PRINTED
    hauler.export_top.click()
    panel = hauler.export.files
    panel.controls["format"].value = "forge-steel"
    panel.controls["make"].click()
    encoded = re.search(r'href="data:[^;]*;base64,([^"]+)"', panel.link.value)
    assert encoded is not None
    (forge,) = read_forge_steel(json.loads(base64.b64decode(encoded.group(1))), "Cragback Hauler.ds-monster")
    assert printed_values(forge) == PRINTED
    markdown = hauler.export.markdown.value
    assert "| 2 | 5 | 7 | 4 | 3 |" in markdown and "*Giant, Cragkin*" in markdown
    assert "**Immunity** Poison 2" in markdown and "**Weakness** Sonic 3" in markdown
    assert "**With Captain** \\+1 bonus to speed" in markdown and "**Boulder Swing**" in markdown


def test_the_level_slider_moves_a_printed_monster_keeping_its_departures(hauler):
    opened = hauler.monster
    hauler.controls["level"].value = 4
    moved = hauler.monster
    # delta mode: new = printed + formula at level 4 - formula at level 1
    stamina = 7 + ref.stamina(4, "minion", "brute") - ref.stamina(1, "minion", "brute")
    free_strike = 3 + ref.free_strike(4, "minion", "brute") - ref.free_strike(1, "minion", "brute")
    assert (moved.level, moved.stamina, moved.free_strike, moved.ev) == (4, stamina, free_strike, ref.ev(4, "minion"))
    tier1 = opened.abilities[0].power_roll.tier1.damage
    assert moved.abilities[0].power_roll.tier1.damage == (
        tier1 + ref.damage(4, "minion", "brute", 1, 1) - ref.damage(1, "minion", "brute", 1, 1))
    step = ref.highest_characteristic(4, "minion") - ref.highest_characteristic(1, "minion")
    assert moved.characteristics.might == 2 + step
    assert hauler.controls["score_might"].value == f"{2 + step:+d}"  # the box shows the moved number
    assert {k: v for k, v in printed_values(moved).items() if k not in ("stamina", "free_strike", "ev")} == {
        k: v for k, v in PRINTED.items() if k not in ("stamina", "free_strike", "ev")}
    assert departures(hauler) == {"Stamina": (ref.stamina(4, "minion", "brute"), stamina),
                                  "Free strike": (ref.free_strike(4, "minion", "brute"), free_strike)}
    hauler.controls["level"].value = 1  # and back: the printed monster exactly
    assert hauler.monster.model_dump(exclude={"relevelled_from"}) == opened.model_dump(exclude={"relevelled_from"})


def test_a_changed_box_changes_its_part_alone_and_moves_with_the_level(hauler):
    c = hauler.controls
    c["stability"].value = "5"
    c["size"].value = "1L"
    c["other_keywords"].value = "Cragkin, Hauler"
    assert (hauler.monster.stability_value, str(hauler.monster.size_class)) == (5, "1L")
    assert hauler.monster.keywords == ("Giant", "Cragkin", "Hauler")
    assert (hauler.monster.stamina, hauler.monster.free_strike, hauler.monster.with_captain) == (
        7, 3, "+1 bonus to speed")
    c["level"].value = 4
    step = ref.highest_characteristic(4, "minion") - ref.highest_characteristic(1, "minion")
    c["score_agility"].value = "+3"  # typed at level 4: the design's agility is 3 - step at level 1
    c["level"].value = 1
    assert hauler.monster.characteristics.agility == 3 - step
    assert (hauler.monster.stability_value, str(hauler.monster.size_class)) == (5, "1L")


def test_a_new_organization_keeps_the_printed_numbers_and_compares_them_anew(hauler):
    hauler.controls["organization"].value = "platoon"
    hauler.controls["role"].value = "brute"
    monster = hauler.monster
    assert (monster.organization, monster.stamina, monster.free_strike) == ("platoon", 7, 3)
    assert [a.power_roll.damage for a in monster.abilities] == [(3, 5, 6)]  # the printed tiers
    assert departures(hauler)["Stamina"] == (ref.stamina(1, "platoon", "brute"), 7)


def test_use_the_formulas_numbers_makes_it_a_formula_monster(hauler):
    hauler.use_formulas.click()
    assert hauler.printed is None and hauler.use_formulas.layout.display == "none"
    assert hauler.monster.stamina == ref.stamina(1, "minion", "brute")
    assert "wb-printed" not in hauler.stat_block.value


def test_a_library_entry_of_printed_numbers_is_kept_and_a_formula_one_is_not(app, tmp_path):
    folder = tmp_path / "monsters"
    save_monster(import_monster(HAULER), folder=folder)
    save_monster(build_monster(2, "minion", "brute").model_copy(update={"name": "Plain Minion"}), folder=folder)
    app.library.buttons["refresh"].click()
    app.library.saved.value = "Cragback Hauler"
    app.library.buttons["load"].click()
    assert app.printed is not None and printed_values(app.monster) == PRINTED
    app.library.saved.value = "Plain Minion"
    app.library.buttons["load"].click()
    assert app.printed is None and "wb-printed" not in app.stat_block.value
    app.controls["level"].value = 3
    assert app.monster.stamina == ref.stamina(3, "minion", "brute")
