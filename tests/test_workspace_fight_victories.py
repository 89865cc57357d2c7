"""A fight's Victories carried into the workspace's party and the adventure it was opened from
(`workbench.workspace.fight_victories`)."""

from __future__ import annotations

from fractions import Fraction

from workbench.encounter.adventure import adventure_of, load_adventure
from workbench.encounter.encounter import Encounter
from workbench.encounter.party import make_party
from workbench.workspace.fight_victories import adventure_plan, carry_victories, open_from_adventure
from workbench.workspace.state import load_workspace, remember_encounter


def day():
    party = make_party(heroes=4, level=2, victories=1)
    return adventure_of([Encounter(name=n, party=party).adding("4 x level 2 platoon brute") for n in "ab"])


def test_an_encounter_opened_from_an_adventure_arrives_with_its_victories(tmp_path):
    path = day().save(tmp_path / "day.json")
    workspace = open_from_adventure(path, 1, path=tmp_path / "workspace.json")
    arrival = day().plan().encounters[1].arrival_victories
    assert workspace.encounter.party.victories == arrival and workspace.adventure is not None
    assert adventure_plan(workspace) == day().plan()
    changed = remember_encounter(workspace, workspace.encounter.adding("1 x level 2 elite brute"))
    assert changed.adventure is None  # another encounter is no longer the adventure's


def test_carrying_sets_the_victories_once_and_an_undone_end_takes_them_back(tmp_path):
    path = day().save(tmp_path / "day.json")
    where = tmp_path / "workspace.json"
    open_from_adventure(path, 0, path=where)
    for _ in range(2):  # the same end carried twice: written once
        said = carry_victories(Fraction(3), 2, where)
        assert load_workspace(where).encounter.party.victories == 3 and load_adventure(path).earned == ((0, 2),)
    assert "the adventure" in said
    carry_victories(Fraction(1), None, where)
    assert load_workspace(where).encounter.party.victories == 1 and load_adventure(path).earned == ()


def test_without_an_adventure_only_the_party_holds_them(tmp_path):
    where = tmp_path / "workspace.json"
    assert "adventure" not in carry_victories(Fraction(2), 2, where)
    assert load_workspace(where).encounter.party.victories == 2
