"""The Director's workspace: one file every app page reads, written atomically, and the fight's pieces from it."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.encounter.encounter import creature_from_monster, parse_spec
from workbench.io.home import library_folder, user_folder
from workbench.workspace.fight_setup import encounter_monsters, encounter_squads, malice_party, squad_captains
from workbench.workspace.folder import folder_stamp, workspace_path
from workbench.workspace.state import (
    Workspace,
    default_workspace,
    load_workspace,
    remember_encounter,
    save_workspace,
    update_workspace,
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    return tmp_path / "desk"


def _rat(count_feature: int = 3) -> wb.Monster:
    gnaw = wb.Trait(name="Gnaw", text="the rats swarm one target", cost=count_feature)
    return wb.build_monster(2, "minion", "brute").model_copy(update={"name": "Rat", "malice_features": (gnaw,)})


def test_folders_follow_the_home_variable(home, monkeypatch):
    assert user_folder() == home
    assert library_folder() == home / "monsters"
    assert workspace_path() == home / "workspace.json"
    monkeypatch.delenv("WORKBENCH_HOME")
    assert user_folder().name == "drawsteel-workbench"


def test_no_file_gives_four_level_one_heroes_and_nothing_is_written(home):
    ws = load_workspace()
    assert ws.encounter.party.levels == (1, 1, 1, 1) and ws.encounter.creatures == ()
    assert not home.exists()


def test_saved_and_loaded_with_the_monsters_the_encounter_names():
    rat = _rat()
    orc = wb.build_monster(2, "platoon", "brute").model_copy(update={"name": "Orc"})
    ws = default_workspace()
    encounter = ws.encounter.adding(creature_from_monster(rat, 8), parse_spec("1 × level 2 leader: Boss"))
    ws = remember_encounter(ws, encounter, [rat, orc])
    assert [m.name for m in ws.monsters] == ["Rat"]  # the orc is not in the encounter: not kept
    path = save_workspace(ws)
    assert load_workspace(path) == ws
    assert not list(path.parent.glob(".workspace.*"))  # no temporary file left behind


def test_a_foreign_file_is_refused_by_name_and_kept(home):
    home.mkdir()
    workspace_path().write_text('{"format": "something else"}')
    with pytest.raises(wb.InvalidInput) as refused:
        load_workspace()
    assert refused.value.field == "workspace" and "not a workbench workspace" in refused.value.reason
    assert workspace_path().read_text() == '{"format": "something else"}'


def test_the_fight_pieces_come_from_the_encounter():
    rat = _rat()
    ws = default_workspace()
    ws = remember_encounter(ws, ws.encounter.adding(creature_from_monster(rat, 12),
                                                     parse_spec("1 × level 2 leader: Boss")), [rat])
    monsters = encounter_monsters(ws)
    assert [(m.name, n) for m, n in monsters] == [("Rat", 12), ("Boss", 1)]
    assert monsters[0][0].malice_features[0].name == "Gnaw"       # the monster's own Malice feature
    assert monsters[1][0].ev == wb.build_monster(2, "leader").ev  # rebuilt from its stat block
    squads = encounter_squads(ws)
    # "squads of up to eight creatures": twelve rats as two even squads, each pool 6 × Stamina
    assert [(s.name, s.size, s.pool) for s in squads] == [
        ("Rat (squad 1)", 6, 6 * rat.stamina), ("Rat (squad 2)", 6, 6 * rat.stamina)]
    assert [c.name for c in squad_captains(monsters)] == ["Boss"]


def test_malice_counts_heroes_not_retainers_and_rounds_victories_down():
    party = wb.Encounter.model_fields["party"].annotation  # Party
    ws = Workspace(encounter=wb.Encounter(party=party.model_validate(
        {"members": [{"level": 2}] * 4 + [{"level": 2, "kind": "retainer"}], "victories": "5/2"})))
    assert malice_party(ws) == (4, 2)


def test_the_folder_stamp_changes_with_any_saved_file(home):
    assert folder_stamp() == ()  # no folder yet
    save_workspace(default_workspace())
    first = folder_stamp()
    assert [name for name, _size, _ns in first] == ["workspace.json"]
    assert folder_stamp() == first  # nothing changed, nothing read
    (library_folder()).mkdir(parents=True)
    (library_folder() / "rat.json").write_text("{}")
    second = folder_stamp()
    assert [name for name, _size, _ns in second] == ["monsters/rat.json", "workspace.json"]
    (library_folder() / "rat.json").write_text('{"a": 1}')
    assert folder_stamp() != second


# ---------------------------------------------------------------- two pages at once, a damaged file


def _added(workspace: Workspace, level: int) -> Workspace:
    return workspace.model_copy(update={"encounter": workspace.encounter.adding(f"level {level} platoon brute")})


def _add_forty(path: str, level: int, how: str, barrier) -> None:
    """One page's process: add forty creatures, one change at a time, as another process does the same."""
    from workbench.io.writing import FileChanged

    barrier.wait(timeout=60)
    for _ in range(40):
        if how == "update":
            update_workspace(lambda ws: _added(ws, level), path)
            continue
        while True:  # load, change, save; a save refused because the other saved first is done again
            try:
                save_workspace(_added(load_workspace(path), level), path)
                break
            except FileChanged:
                continue


@pytest.mark.timeout(240)
@pytest.mark.parametrize("how", ["update", "load-change-save"])
def test_two_processes_adding_forty_creatures_each_leave_eighty(home, how):
    import multiprocessing

    path = home / "workspace.json"
    save_workspace(default_workspace(), path)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    pages = [context.Process(target=_add_forty, args=(str(path), level, how, barrier)) for level in (2, 3)]
    for page in pages:
        page.start()
    for page in pages:
        page.join(timeout=200)
        assert page.exitcode == 0
    encounter = load_workspace(path).encounter
    assert encounter.creature_count == 80
    assert sorted({c.level for c in encounter.creatures}) == [2, 3]
    assert [p.name for p in home.iterdir() if p.name.endswith(".tmp")] == []


def test_a_save_over_another_pages_update_is_refused_and_changes_nothing(home):
    from workbench.io.writing import FileChanged

    save_workspace(default_workspace())
    first, second = load_workspace(), load_workspace()
    save_workspace(_added(second, 2))
    before = workspace_path().read_bytes()
    with pytest.raises(FileChanged, match="workspace.json: it changed since it was read"):
        save_workspace(_added(first, 3))
    assert workspace_path().read_bytes() == before
    kept = _added(second, 2)
    assert load_workspace() == kept
    again = load_workspace()
    for level in (4, 5):  # a workspace saved stands for the file as saved: its next save goes through
        again = _added(again, level)
        save_workspace(again)
    assert load_workspace().encounter.creature_count == 3


@pytest.mark.parametrize("damage", [b"{not json", b'{"format": "something else"}', b"\xff\xfe", b""])
def test_after_a_damaged_file_the_first_edit_does_not_replace_it(home, damage):
    home.mkdir()
    workspace_path().write_bytes(damage)
    with pytest.raises(wb.InvalidInput):
        load_workspace()
    fresh = default_workspace()  # what a page uses instead ("a new workspace is used; the file is kept")
    with pytest.raises(wb.WorkbenchError, match="kept"):
        save_workspace(_added(fresh, 2))
    with pytest.raises(wb.InvalidInput):
        update_workspace(lambda ws: _added(ws, 2))
    assert workspace_path().read_bytes() == damage


def test_the_encounter_page_says_it_could_not_keep_an_edit_over_a_damaged_file(home):
    from workbench.apps.pages import encounter_page

    home.mkdir()
    workspace_path().write_text("{damaged")
    page = encounter_page()
    status = next(c for c in page.children if "wb-workspace-status" in c._dom_classes)
    editor = _editor(page)
    editor.controls["heroes"].value = 6
    assert "Could not keep the encounter" in status.value and "kept" in status.value
    assert workspace_path().read_text() == "{damaged"


def test_the_lock_and_unfinished_saves_are_no_part_of_the_folder_stamp(home):
    save_workspace(default_workspace())
    (home / ".workspace.json.123-abcdef01.tmp").write_text("half")
    assert [name for name, _size, _ns in folder_stamp()] == ["workspace.json"]


def test_two_encounter_pages_open_at_once_never_lose_the_first_ones_edit(home):
    from workbench.apps.pages import encounter_page

    def status(page):
        return next(c for c in page.children if "wb-workspace-status" in c._dom_classes)

    first, second = encounter_page(), encounter_page()
    _editor(first).controls["heroes"].value = 6
    assert "Kept" in status(first).value
    _editor(second).controls["heroes"].value = 3
    assert "Could not keep the encounter" in status(second).value and "changed since it was read" in status(second).value
    assert load_workspace().encounter.party.size == 6
    _editor(first).controls["heroes"].value = 7  # the first page goes on saving its own edits
    assert "Kept" in status(first).value and load_workspace().encounter.party.size == 7


def test_a_workspace_read_from_the_file_equals_and_hashes_as_the_same_contents(home):
    saved = default_workspace()
    save_workspace(saved)
    loaded = load_workspace()
    assert loaded == saved and hash(loaded) == hash(saved) and len({loaded, saved}) == 1


def _editor(page):
    """The encounter editor on its page (the stylesheet comes after it)."""
    return next(child for child in page.children if hasattr(child, "controls"))
