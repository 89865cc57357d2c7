"""Every app page that lists monsters offers the workspace's bestiaries and library together, each bestiary with its
attribution: the encounter page's picker and Monster list, the builder's closest published monsters, and the
calibration page."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from widget_tree import inner

import workbench as wb
from workbench.apps import pages
from workbench.apps.bestiary_add import BestiaryAdder
from workbench.formats.bestiary import SAMPLE_DIR, read_stat_block_file
from workbench.io.home import library_folder, user_folder
from workbench.monster.library import save_monster
from workbench.workspace import migration
from workbench.workspace.added_bestiary import add_bestiary
from workbench.workspace.folder import bestiaries_folder

EXTRA = "Extra monsters, written by the workbench tests for them alone."
FORGE = "Forge monsters, made by the workbench tests as a Forge Steel group."
TWIN = "Mirror Twin"


def first_stat_block() -> Path:
    return sorted(SAMPLE_DIR.rglob("*.json"))[0]


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    """A workspace holding: a Steel Compendium bestiary (a sample stat block renamed), a Forge Steel one, a
    library monster, and one in an old library folder."""
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(migration, "OLD_CHECKOUT_FOLDER", tmp_path / "checkout-homebrew")
    extra = tmp_path / "extra"
    extra.mkdir()
    data = json.loads(first_stat_block().read_text(encoding="utf-8"))
    data["name"] = TWIN
    (extra / "twin.json").write_text(json.dumps(data), encoding="utf-8")
    add_bestiary(extra, bestiaries_folder(), name="Extra", attribution=EXTRA)
    forge = tmp_path / "forge"
    forge.mkdir()
    ogre = wb.build_monster(level=3, organization="elite", role="brute").model_copy(
        update={"name": "Forge Ogre", "keywords": ("Giant",)})
    (forge / "ogres.ds-monster-group").write_text(str(wb.export_monsters([ogre], "forge-steel")), encoding="utf-8")
    add_bestiary(forge, bestiaries_folder(), name="Forge", attribution=FORGE)
    homebrew = wb.build_monster(level=2, organization="elite", role="brute").model_copy(update={"name": "Home Ogre"})
    save_monster(homebrew, folder=library_folder())
    old = wb.build_monster(level=4, organization="leader").model_copy(update={"name": "Lesson Boss"})
    save_monster(old, folder=tmp_path / "checkout-homebrew")


def test_the_encounter_picker_lists_the_workspace_bestiaries_with_their_attribution():
    page = pages.encounter_page()
    editor = inner(page, "wb-encounter-app")
    browser = editor.browser
    names = [m.name for m in browser.bestiary.monsters]
    assert TWIN in names and len(names) == 50 and "Forge Ogre" not in names
    labels = [label for label, _ in browser.rows.options]
    assert any(label.startswith(TWIN) and label.endswith("· Extra") for label in labels)
    assert f"Extra (1 monsters): {EXTRA}" in browser.counts.value
    assert "Published sample (Steel Compendium) (49 monsters)" in browser.counts.value
    # the Monster list: the library, the Forge Steel bestiary and the old folder's monster, with where they are from
    listed = {m.name for _, m in editor.controls["monster"].options}
    assert {"Home Ogre", "Forge Ogre", "Lesson Boss"} <= listed and TWIN not in listed
    note = next(c.value for c in page.children if "in the Monster list" in getattr(c, "value", ""))
    assert "1 saved monster from" in note and f"Forge (1 monsters): {FORGE}" in note
    assert "Lesson Boss" not in note and "checkout-homebrew" in note  # the old folder's shelf, by its path
    # suggestions choose from the same monsters: the stat blocks and the Monster list's
    assert {"Home Ogre", "Forge Ogre", "Lesson Boss"} <= {m.name for m in editor.library}
    assert editor.bestiary is browser.bestiary


def test_a_bestiary_stat_block_opens_in_the_builder_from_its_kept_file():
    page = pages.encounter_page()
    browser = inner(page, "wb-encounter-app").browser
    browser.search.value = TWIN
    browser.rows.value = browser.rows.options[0][1]
    assert browser.picked is not None and browser.picked.name == TWIN
    browser.open_builder.click()
    assert "ready in the builder" in browser.message.value
    handed = json.loads((user_folder() / pages.HANDOFF).read_text(encoding="utf-8"))
    assert Path(handed["file"]).is_relative_to(bestiaries_folder() / "Extra")
    assert read_stat_block_file(handed["file"]).name == TWIN


def test_the_builder_compares_with_the_added_bestiaries_and_says_whence():
    twin = read_stat_block_file(first_stat_block())
    page = pages.monster_page()
    builder = inner(page, "wb-builder")
    builder.controls["organization"].value = twin.organization
    if twin.role is not None:
        builder.controls["role"].value = twin.role
    builder.controls["level"].value = twin.level
    closest = builder.stat_block.value.split('<div class="wb-closest-published">', 1)[1]
    assert f"<td>{TWIN}</td>" in closest and f"<td>{twin.name}</td>" in closest
    assert "<th class='wb-left'>From</th>" in closest and "<td class='wb-shelf'>Extra</td>" in closest
    assert f"Extra: {EXTRA}" in closest and "Published sample (Steel Compendium): The Steel Compendium" in closest


def test_the_calibration_page_compares_every_published_stat_block_at_hand():
    page = pages.calibration_page()
    sources = inner(page, "wb-calibration-sources")
    assert f"Extra (1 monsters): {EXTRA}" in sources.value
    assert "Published sample (Steel Compendium) (49 monsters)" in sources.value
    assert "Forge" not in sources.value  # a Forge Steel file is no published stat block to calibrate with
    text = " ".join(getattr(w, "value", "") for w in _walk(page) if isinstance(getattr(w, "value", None), str))
    assert "compared with 50 published monsters" in text


def _walk(root):
    stack = [root]
    while stack:
        w = stack.pop()
        yield w
        stack.extend(getattr(w, "children", ()))


def test_suggestions_choose_from_a_forge_steel_bestiary_too():
    """Only the Forge Steel bestiary's ogre is a Giant: asking for Giants suggests it."""
    editor = inner(pages.encounter_page(), "wb-encounter-app")
    c = editor.controls
    assert "Giant" in [value for _, value in c["keyword"].options]
    c["heroes"].value, c["level"].value, c["difficulty"].value = 2, 3, "standard"  # a budget one elite fits
    c["keyword"].value = "Giant"
    c["suggest_encounter"].click()
    assert {x.name for x in editor.state().creatures} == {"Forge Ogre"}


def test_a_forge_steel_bestiary_added_on_the_page_is_suggested_at_once(tmp_path):
    editor = inner(pages.encounter_page(), "wb-encounter-app")
    giants = tmp_path / "giants"
    giants.mkdir()
    troll = wb.build_monster(level=3, organization="elite", role="brute").model_copy(
        update={"name": "Hill Troll", "keywords": ("Troll",)})
    (giants / "trolls.ds-monster-group").write_text(str(wb.export_monsters([troll], "forge-steel")), encoding="utf-8")
    inner(editor, "wb-bestiary-adder-fold").selected_index = 0  # opened, as a Director opens it
    adder = next(w for w in _walk(editor) if isinstance(w, BestiaryAdder))
    adder.source.value = str(giants)
    adder.add.click()
    adder.wait(60)  # the adding runs in a thread of its own
    assert ("Of its 1 monsters: 0 Steel Compendium stat blocks in the bestiary picker; 1 of other tools' formats"
            in html.unescape(adder.message.value))
    c = editor.controls
    c["heroes"].value, c["level"].value, c["difficulty"].value = 2, 3, "standard"
    c["keyword"].value = "Troll"
    c["suggest_encounter"].click()
    assert {x.name for x in editor.state().creatures} == {"Hill Troll"}
