"""Encounter files: saved and loaded, a failed write leaving the old file whole, corrupt, foreign and
hand-edited files refused by name, and a stat block's own EV kept."""

from __future__ import annotations

import errno
import json
import os

import pytest
from encounter_setups import encounter

from workbench.encounter.encounter import Encounter, TerrainObject, creature_from_monster
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.groups import suggest_groups
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput
from workbench.monster.formulas import build_monster


def test_save_and_load_round_trip(tmp_path):
    e = encounter("2 × level 3 platoon brute", "8 x level 2 minion harrier: goblins").adding(
        TerrainObject(name="<b>lava</b>", ev=2)
    )
    e = e.model_copy(
        update={"name": "Gate", "objectives": (choose_objective("escort", delicate_ward=True),), "groups": suggest_groups(e)}
    )
    path = save_encounter(e, tmp_path / "gate.json")
    assert load_encounter(path) == e
    with pytest.raises(InvalidInput) as caught:
        save_encounter(e, path)
    assert "exists" in str(caught.value)
    save_encounter(e.model_copy(update={"name": "Gate 2"}), path, overwrite=True)
    assert load_encounter(path).name == "Gate 2"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    e = encounter("level 3 platoon brute")
    path = save_encounter(e, tmp_path / "a.json")
    before = path.read_bytes()

    def crash(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(InvalidInput, match="a.json.*the disk is full"):
        save_encounter(e.model_copy(update={"name": "new"}), path, overwrite=True)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name not in (".workbench.lock", ".workbench.journal")] == ["a.json"]  # no temp file


@pytest.mark.parametrize(
    "content, reason",
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"name": "a monster"}), "format"),
        (json.dumps({"format": "drawsteel-workbench/encounter", "version": 99, "encounter": {}}), "version"),
        (json.dumps({"format": "drawsteel-workbench/encounter", "version": 1, "encounter": {"party": {}}}), "party"),
    ],
)
def test_corrupt_and_foreign_files_are_refused_by_name(tmp_path, content, reason):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InvalidInput) as caught:
        load_encounter(path)
    assert caught.value.code == "invalid-file"
    assert "bad.json" in str(caught.value) and reason in str(caught.value)


def _saved_then_changed(tmp_path, change):
    e = encounter("2 × level 3 platoon brute").model_copy(
        update={"objectives": (choose_objective("escort", delicate_ward=True),)}
    )
    path = save_encounter(e, tmp_path / "edited.json")
    data = json.loads(path.read_text())
    change(data["encounter"])
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "change, reason",
    [
        # average Victories below zero would lower the encounter strength
        (lambda e: e["party"].update(victories="-3"), "party.victories"),
        # a stat block the formulas cannot build
        (lambda e: e["creatures"][0].update(organization="dragon"), "organization"),
        (lambda e: e["creatures"][0].update(role="wizard"), "role"),
        # objectives: an unknown one, a condition it does not have, a flag that is not 0 or 1
        (lambda e: e["objectives"][0].update(key="win"), "objective"),
        (lambda e: e["objectives"][0].update(conditions={"hidden": 1}), "condition"),
        (lambda e: e["objectives"][0].update(conditions={"delicate_ward": 2}), "delicate_ward"),
        # a group naming a creature that is not in the file
        (lambda e: e.update(groups=[{"members": [[5, 1]]}]), "groups"),
    ],
)
def test_hand_edited_files_are_refused_by_name_with_the_reason(tmp_path, change, reason):
    path = _saved_then_changed(tmp_path, change)
    with pytest.raises(InvalidInput) as caught:
        load_encounter(path)
    assert caught.value.code == "invalid-file"
    assert "edited.json" in str(caught.value) and reason in str(caught.value)


def test_every_problem_of_a_hand_edited_file_is_reported_at_once(tmp_path):
    def two_problems(e):
        e["party"]["victories"] = "-1"
        e["creatures"][0]["role"] = "wizard"

    with pytest.raises(InvalidInput) as caught:
        load_encounter(_saved_then_changed(tmp_path, two_problems))
    assert "party.victories" in str(caught.value) and "wizard" in str(caught.value)


def test_a_stat_block_with_an_ev_of_its_own_reopens_from_the_saved_encounter(tmp_path):
    """Nothing saved is lost: an imported or homebrew block whose EV departs from the formulas is marked when
    it joins the encounter, so the file reopens with its EV; an unmarked EV edited by hand is still refused."""
    own = build_monster(3, "platoon", "brute").model_copy(update={"name": "Bog Brute", "ev": 13})
    formula = build_monster(3, "platoon", "brute")
    assert formula.ev != 13  # the formulas give another EV, so 13 is the block's own
    encounter = Encounter(party=make_party(heroes=4, level=3))
    encounter = encounter.model_copy(update={"creatures": (creature_from_monster(own, 2), creature_from_monster(formula))})
    assert [c.own_ev for c in encounter.creatures] == [True, False]
    path = save_encounter(encounter, tmp_path / "bog.json")
    assert load_encounter(path).creatures == encounter.creatures
    data = json.loads(path.read_text(encoding="utf-8"))
    data["encounter"]["creatures"][1]["ev"] = 13  # the formula block, hand-edited
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"creatures\.1\.ev: the file says 13"):
        load_encounter(path)


def test_a_saved_encounter_keeps_its_library_monster_when_the_library_file_changes(tmp_path):
    """The file embeds each creature's monster: the library monster it was added as, with the Director's
    edits, opens the same after its library file is changed or removed (or on a machine without it)."""
    from workbench.monster.library import delete_monster, load_monster, save_monster

    library = tmp_path / "monsters"
    stalker = build_monster(5, "elite", "harrier").model_copy(update={"name": "Ridge Stalker", "keywords": ("Beast",)})
    save_monster(stalker, folder=library)
    added = load_monster("Ridge Stalker", library).model_copy(update={"stamina": stalker.stamina + 7})
    path = save_encounter(Encounter(party=make_party(heroes=4, level=5)).adding(creature_from_monster(added)),
                          tmp_path / "ridge.json")
    save_monster(stalker.model_copy(update={"stamina": 1, "keywords": ("Changed",)}), folder=library, overwrite=True)
    assert load_encounter(path).creatures[0].monster == added
    delete_monster("Ridge Stalker", library)
    assert load_encounter(path).creatures[0].monster == added
