"""The Director's workspace: one file every app page reads, written atomically, and the fight's pieces from it."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.encounter.encounter import creature_from_monster, parse_spec
from workbench.workspace import (
    Workspace,
    default_workspace,
    encounter_monsters,
    encounter_squads,
    folder_stamp,
    library_folder,
    load_workspace,
    malice_party,
    remember_encounter,
    save_workspace,
    squad_captains,
    user_folder,
    workspace_path,
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
