"""Two pages on one fight, driven without a browser: the second page's save never replaces what the first
saved; it says so above the runner and offers to reload the saved fight or keep both. A save that fails for
any reason (a folder in the way, a fight too large to reopen) is said on the page too."""

from __future__ import annotations

import json

from workbench.apps.fight_runner import fight_runner
from workbench.apps.fight_saving import second_file
from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.party import make_party
from workbench.fight.fight import Fight, load_fight
from workbench.io.writing import FileChanged
from workbench.monster.formulas import build_monster

BRUTE = build_monster(3, "platoon", "brute").model_copy(update={"name": "Orc raider"})


def encounter() -> Encounter:
    return Encounter(party=make_party(heroes=4, level=3)).adding(creature_from_monster(BRUTE, 2))


def page(path):
    """A page opened on the fight file as the fight page opens it: resumed when there, else a new fight."""
    fight = load_fight(path) if path.exists() else Fight(encounter())
    if not path.exists():
        fight.kept_in(path)
    return fight_runner(fight, path)


def click(app, name):
    app.controls["buttons"][name].click()


def events_on_disk(path):
    return len(json.loads(path.read_text())["events"])


def test_the_second_pages_save_is_refused_and_said_with_reload_and_keep_both(tmp_path):
    path = tmp_path / "fight.json"
    first, second = page(path), page(path)  # both opened before either saved
    click(first, "round")
    click(first, "round")
    assert events_on_disk(path) == 2 and first.saving.status.value == ""
    click(second, "round")
    assert events_on_disk(path) == 2  # the first page's two events are not replaced by the second's one
    assert "changed since this page opened it" in second.saving.status.value
    assert second.saving.choices.layout.display == "flex"
    second.saving.reload_button.click()
    assert second.fight.round == first.fight.round == 2 and "Reloaded" in second.saving.status.value
    click(second, "round")  # now it goes on from the saved fight, and saves
    assert events_on_disk(path) == 3 and second.saving.status.value == ""


def test_keep_both_saves_this_pages_fight_beside_the_other(tmp_path):
    path = tmp_path / "fight.json"
    first, second = page(path), page(path)
    click(first, "round")
    click(second, "round")
    click(second, "round")
    assert "changed since" in second.saving.status.value
    second.saving.keep_both_button.click()
    copy = tmp_path / "fight (2).json"
    assert events_on_disk(path) == 1 and events_on_disk(copy) == 2
    assert "fight (2).json" in second.saving.status.value and second.saving.choices.layout.display == "none"
    click(second, "round")  # its later saves go to its own file
    assert events_on_disk(copy) == 3 and events_on_disk(path) == 1


def test_a_failed_save_is_shown_on_the_page(tmp_path):
    path = tmp_path / "fight.json"
    path.mkdir()  # a folder where the file goes
    app = fight_runner(Fight(encounter()), path)
    click(app, "round")
    assert "Not saved" in app.saving.status.value and "folder" in app.saving.status.value
    assert app.fight.round == 1  # the fight goes on on the page


def test_a_fight_too_large_to_reopen_is_said_not_saved(tmp_path, monkeypatch):
    monkeypatch.setattr("workbench.fight.fight.MAX_FILE_BYTES", 100)
    app = fight_runner(Fight(encounter()), tmp_path / "fight.json")
    click(app, "round")
    assert "Not saved" in app.saving.status.value and not (tmp_path / "fight.json").exists()


def test_the_library_refuses_a_save_over_a_changed_file(tmp_path):
    path = tmp_path / "fight.json"
    one = Fight(encounter())
    one.save(path)
    other = load_fight(path)
    one.start_round()
    one.save(path)
    other.start_round()
    other.start_round()
    try:
        other.save(path)
    except FileChanged as exc:
        assert "changed since it was read" in str(exc)
    else:
        raise AssertionError("a save over a changed file was not refused")
    assert load_fight(path).round == 1
    fresh = Fight(encounter())
    fresh.save(path)  # a fight never tied to the file replaces it, as before
    assert load_fight(path).round == 0


def test_second_file_names_are_free(tmp_path):
    path = tmp_path / "fight.json"
    assert second_file(path) == tmp_path / "fight (2).json"
    (tmp_path / "fight (2).json").write_text("{}")
    assert second_file(path) == tmp_path / "fight (3).json"
