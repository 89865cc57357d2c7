"""Developer text never reaches the Director: no "null" hover on a label, no "overwrite=True", no format ids,
the JSON folded under "Advanced", and no "Unnamed monster" on the block."""

from __future__ import annotations

import html

import pytest
from widget_tree import drawn

from workbench.apps import pages
from workbench.apps.builder import monster_builder
from workbench.apps.encounter import encounter_app
from workbench.monster.library import load_library


def unlabelled_hovers(root) -> list:
    """Labelled controls whose hover text would reach the browser as "null"."""
    return [w for w in drawn(root) if isinstance(getattr(w, "description", None), str) and w.description.strip()
            and getattr(w, "tooltip", "") is None]


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))


def test_no_builder_label_hovers_null(tmp_path):
    app = monster_builder(folder=tmp_path)
    for section in app.sections.values():  # every section and tab opened, as the Director may
        section.selected_index = 0
    for index in range(len(app.tabs.titles)):
        app.tabs.selected_index = index
    labelled = [w for w in drawn(app) if getattr(w, "description", "")]
    assert len(labelled) > 40  # the builder's labels, as counted on the page
    assert unlabelled_hovers(app) == []
    app.rows["traits"].shortcut.value = "Pack Tactics: more damage beside an ally"
    assert unlabelled_hovers(app) == []  # a row added later too


@pytest.mark.parametrize("page", ["monster_page", "encounter_page", "solos_page", "homebrew_page",
                                  "calibration_page", "fight_page"])
def test_no_page_label_hovers_null(page):
    assert unlabelled_hovers(getattr(pages, page)()) == []


def test_the_json_is_folded_under_advanced(tmp_path):
    app = monster_builder(folder=tmp_path)
    app.tabs.selected_index = app.tabs.titles.index("Export")
    advanced = next(w for w in drawn(app) if "wb-export-advanced" in getattr(w, "_dom_classes", ()))
    assert advanced.selected_index is None  # closed until asked for
    assert app.export.json in drawn(advanced)
    assert "null" in app.export.json.value  # the JSON is there for programs...
    export_tab = app.panels.panel(app.tabs.selected_index)
    shown = [w for w in export_tab.children if w is not advanced]
    assert all(app.export.json not in drawn(w) for w in shown)  # ...and only under Advanced


def test_a_taken_encounter_name_is_refused_in_plain_words(tmp_path):
    app = encounter_app(files_folder=tmp_path)
    app.controls["spec"].value = "2 × level 3 platoon brute"
    app.controls["add_spec"].click()
    app.controls["path"].value = "gate.json"
    app.controls["save"].click()
    app.controls["save"].click()
    message = html.unescape(app.controls["file_message"].value)
    assert "exists already" in message and "Replace a file of that name" in message
    assert "overwrite=True" not in message and "got '" not in message


def test_a_published_file_in_the_library_is_named_without_format_ids(tmp_path):
    (tmp_path / "goblin.json").write_text('{"name": "Goblin", "level": 1}', encoding="utf-8")
    reason = dict(load_library(tmp_path).problems)["goblin.json"]
    assert "drawsteel-workbench/" not in reason and '"format"' not in reason
    assert "Open a file" in reason


def test_an_unnamed_monster_is_a_new_monster(tmp_path):
    app = monster_builder(folder=tmp_path)
    assert "Unnamed monster" not in app.stat_block.value
    assert "New monster" in app.stat_block.value
