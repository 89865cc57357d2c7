"""The bestiary browser: filters, sorting, the stat block whole, "Add to encounter" by fours."""

from __future__ import annotations

import shutil

import pytest

import workbench.apps.bestiary as bestiary_module
from workbench.apps.bestiary import bestiary_app, bestiary_view
from workbench.apps.encounter import encounter_app
from workbench.formats.bestiary import SAMPLE_DIR, sample_bestiary
from workbench.workspace.bestiary_filter import BestiaryQuery, all_keywords, browse

SAMPLE = sample_bestiary()


@pytest.mark.parametrize(
    ("query", "names"),
    [
        # the three solos of the sample
        (BestiaryQuery(organizations=("solo",)), {"Werewolf", "Medusa", "Manticore"}),
        # kobold minions: Princeps, Sagittarion, Tiro, Veles
        (BestiaryQuery(keywords=("kobold",), organizations=("minion",)),
         {"Kobold Princeps", "Kobold Sagittarion", "Kobold Tiro", "Kobold Veles"}),
        # levels 6 to 8: the two level 6 hobgoblins platoons, the level 6 leader and the level 8 minion
        (BestiaryQuery(levels=(6, 8)),
         {"Hobgoblin Bloodlord", "Hobgoblin Grandguard", "Hobgoblin Redglare", "Bugbear Knightmare"}),
        # text search over names and keywords, every word must match
        (BestiaryQuery(text="goblin sniper"), {"Goblin Sniper"}),
        # EV 70 or more: the manticore (72) and the medusa (84)
        (BestiaryQuery(evs=(70, 100)), {"Manticore", "Medusa"}),
    ],
)
def test_filters(query, names):
    assert {m.name for m in browse(SAMPLE.monsters, query)} == names


def test_sort_by_any_column():
    by_ev = browse(SAMPLE.monsters, BestiaryQuery(sort="ev", descending=True))
    assert [m.name for m in by_ev[:2]] == ["Medusa", "Manticore"]
    by_name = browse(SAMPLE.monsters, BestiaryQuery(sort="name"))
    assert [m.name for m in by_name] == sorted((m.name for m in SAMPLE.monsters), key=str.lower)
    assert "Goblin" in all_keywords(SAMPLE.monsters) and "Undead" not in all_keywords(SAMPLE.monsters)


def test_the_view_counts_and_shows_the_whole_stat_block():
    picked = [m.name for m in SAMPLE.monsters].index("Goblin Warrior")
    view = bestiary_view(SAMPLE, BestiaryQuery(keywords=("goblin",)), picked)
    assert "of 49 stat blocks" in view.counts
    # every feature of the file: the signature ability, the Malice ability and the trait
    for words in ("Spear Charge", "Bury the Point", "Crafty", "Power Roll + 2"):
        assert words in view.stat_block
    assert "None" not in view.stat_block


def test_the_app_adds_minions_by_fours():
    added = []
    app = bestiary_app(on_add=lambda m, n: added.append((m.name, n)))
    app.search.value = "spinecleaver"
    app.rows.value = app.rows.options[0][1]
    assert app.count.value == 4 and app.count.step == 4
    app.add.click()
    assert added == [("Goblin Spinecleaver", 4)]
    app.search.value = "werewolf"
    app.rows.value = app.rows.options[0][1]
    assert app.count.step == 1


def test_a_stat_block_name_is_escaped():
    hostile = SAMPLE.monsters[0].model_copy(update={"name": "<img src=x onerror=alert(1)>"})
    from workbench.render.bestiary import published_stat_block_html, row_label

    assert "<img" not in published_stat_block_html(hostile) and "&lt;img" in published_stat_block_html(hostile)
    assert row_label(hostile).startswith("<img")  # a Select option is text, not HTML


def _folder(tmp_path):
    """The sample's kobolds, and two files that are not stat blocks (one with a name meant to run as HTML)."""
    shutil.copytree(SAMPLE_DIR / "Kobolds", tmp_path / "Kobolds")
    (tmp_path / "<img src=x onerror=alert(1)>.json").write_text("{")
    (tmp_path / "notes.json").write_text("[1, 2]")
    return tmp_path


def test_loading_a_folder_draws_the_bar_past_its_threshold_and_lists_failed_files_by_name(tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    files = len(list(folder.rglob("*.json")))
    monkeypatch.setattr(bestiary_module, "PROGRESS_AFTER", 0)  # any load is "past the threshold"
    loaded = []
    app = bestiary_app(on_load=loaded.append)
    assert app.progress.layout.display == "none"  # nothing loading: no bar
    app.folder.value = str(folder)
    app.load.click()
    assert app.progress.layout.display != "none"
    assert (app.progress.value, app.progress.max) == (files, files)
    assert app.progress.description == f"{files} of {files} files"
    kobolds = len(list((SAMPLE_DIR / "Kobolds").rglob("*.json")))
    assert len(app.bestiary) == kobolds and loaded == [app.bestiary]
    assert f"of {kobolds} stat blocks" in app.counts.value
    listed = app.counts.value  # the count, and under it the files not read
    assert "notes.json" in listed and "&lt;img src=x onerror=alert(1)&gt;.json" in listed and "<img" not in listed
    assert {label.split(" — ")[0] for label, _ in app.rows.options} == {m.name for m in app.bestiary.monsters}
    assert all(o == "any" or o == "Kobold" or o in {k for m in app.bestiary.monsters for k in m.keywords}
               for o in app.keyword.options)


def test_a_quick_load_draws_no_bar_and_a_missing_folder_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(bestiary_module, "PROGRESS_AFTER", 10**9)  # never past it
    app = bestiary_app()
    app.folder.value = str(_folder(tmp_path))
    app.load.click()
    assert app.progress.layout.display == "none" and len(app.bestiary) > 0
    before = app.bestiary
    app.folder.value = str(tmp_path / "nowhere")
    app.load.click()
    assert "no such file or folder" in app.message.value.lower() and app.bestiary is before


def test_the_editor_suggests_from_the_folder_the_browser_loaded(tmp_path):
    editor = encounter_app()
    editor.controls["level"].value = 1  # the kobolds' level: the suggester keeps to the quick method's levels
    browser = editor.controls["browser"]
    browser.folder.value = str(_folder(tmp_path))
    browser.load.click()
    assert editor.bestiary is browser.bestiary
    kinds = {m.name for m in browser.bestiary.monsters}
    editor.controls["suggest_encounter"].click()
    assert editor.state().creatures and {c.name for c in editor.state().creatures} <= kinds
