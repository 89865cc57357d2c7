"""The app pages without a browser: the encounter page keeps its encounter in the workspace, the fight page
runs it (squads and Malice from it), the monster page saves where the encounter page looks."""

from __future__ import annotations

import pytest
from widget_tree import inner

import workbench as wb
from workbench.apps import pages
from workbench.apps.revealer import Revealer
from workbench.io.home import library_folder
from workbench.monster.library import save_monster
from workbench.workspace.state import load_workspace


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))


def test_monster_page_saves_in_the_library_folder_and_says_where():
    page = pages.monster_page()
    builder = inner(page, "wb-builder")
    assert builder.library.folder.value == str(library_folder())
    where = page.children[1].value  # under the workspace bar
    assert "~/" in where or str(library_folder()) in where


def test_export_on_the_monster_page_brings_its_tab_into_view_as_on_the_workbench_page():
    page = pages.monster_page()
    sent = []
    revealer = inner(page, Revealer)
    revealer.send = sent.append  # what the page's browser side is asked to do
    builder = inner(page, "wb-builder")
    builder.export_top.click()
    assert builder.tabs.titles[builder.tabs.selected_index] == "Export"
    assert sent == [{"reveal": ".wb-builder-tabs"}] and "wb-builder-tabs" in builder.tabs._dom_classes


def test_encounter_page_keeps_the_encounter_and_the_fight_page_runs_it():
    gnaw = wb.Trait(name="Gnaw", text="the pack bites", cost=3)
    rats = wb.build_monster(2, "minion", "brute").model_copy(update={"name": "Rat Pack", "malice_features": (gnaw,)})
    save_monster(rats, "Rat Pack", library_folder())
    page = pages.encounter_page()
    c = inner(page, "wb-encounter-app").controls
    c["level"].value = 2
    c["monster"].value = next(m for _, m in c["monster"].options if m.name == "Rat Pack")
    c["count"].value = 8
    c["add_monster"].click()
    kept = load_workspace()
    assert kept.encounter.party.levels == (2, 2, 2, 2)
    assert [(x.name, x.count) for x in kept.encounter.creatures] == [("Rat Pack", 8)]
    fight = inner(pages.fight_page(), "wb-fight").fight
    squads = [u.squad for u in fight.units if u.squad is not None]
    assert sum(s.size for s in squads) == 8 and sum(s.pool for s in squads) == 8 * rats.stamina
    features = [f.name for f in fight.features]
    assert "Gnaw" in features and "Solo Action" not in features  # the monster's own feature; no solo here
    assert (fight.state.malice.heroes, fight.state.malice.victories) == (4, 0)


def test_a_broken_workspace_file_is_named_and_a_fresh_one_used(tmp_path):
    path = library_folder().parent / "workspace.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ not json")
    page = pages.fight_page()
    note = page.children[1].value  # under the workspace bar
    assert "Not valid JSON" in note and "Allowed: a workspace file written by the workbench." in note
    assert "A new workspace is used; the file is kept." in note
    assert path.read_text() == "{ not json"  # kept as it was


def test_the_encounter_page_offers_a_saved_monster_with_its_characteristic():
    """Built with Agility as its highest characteristic: the encounter page's list and its "Load library"
    button both offer the monster with Agility at the highest value, as its block shows it."""
    ogre = wb.build_monster(level=4, organization="elite", role="brute", characteristic="agility").model_copy(
        update={"name": "Bridge Ogre"})
    save_monster(ogre, "Bridge Ogre", library_folder())
    app = inner(pages.encounter_page(), "wb-encounter-app")
    offered = [m for _, m in app.controls["monster"].options if m.name == "Bridge Ogre"]
    app.controls["folder"].value = str(library_folder())
    app.controls["load_library"].click()
    offered += [m for m in app.monsters if m.name == "Bridge Ogre"][1:]
    assert len(offered) == 2
    for monster in offered:
        values = monster.model_dump()["characteristics"]
        assert values["agility"] == ogre.highest_characteristic  # its block: "Agility +N"
        assert values["might"] is None  # not the Might the bare formula monster would show
