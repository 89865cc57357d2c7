"""The adventure planner driven in Python: encounters added from the saved folder, moved, removed, respites
added and taken away, the day's table following each change, and the packet's PDF link."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from rules_reference import budget_band

import workbench as wb
from workbench.apps.adventure import AdventureApp, adventure_app
from workbench.encounter.files import save_encounter

PARTY = wb.make_party(heroes=5, level=3)


def _encounter(name: str, brutes: int) -> wb.Encounter:
    return wb.Encounter(name=name, party=PARTY).adding(f"{brutes} x level 3 platoon brute")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, brutes in (("Bridge", 7), ("Mill", 8), ("Camp <b>night</b>", 10)):
        save_encounter(_encounter(name, brutes), tmp_path / f"{name.split()[0]}.json")
    return tmp_path


def _add(app: AdventureApp, stem: str) -> None:
    app.controls["saved"].value = dict(app.controls["saved"].options)[stem]
    app.controls["add"].click()


def _cells(app: AdventureApp, cls: str) -> list[str]:
    return re.findall(rf'class="{cls}"[^>]*>([^<]*)<', app.day.value)


def test_saved_encounters_are_offered_and_added_in_order(folder):
    app = adventure_app(folder=folder)
    assert [name for name, _path in app.controls["saved"].options] == ["Bridge", "Camp", "Mill"]
    assert app.adventure is None and "No encounters yet" in app.day.value
    for stem in ("Bridge", "Mill", "Camp"):
        _add(app, stem)
    assert app.adventure is not None
    assert [e.name for e in app.adventure.encounters] == ["Bridge", "Mill", "Camp <b>night</b>"]
    assert len(app.rows) == 3 and app.refusal.value == ""
    # 70 EV is hard for ES 50 (2 Victories); 80 at ES 60 is hard (2 more); the camp is met with 4
    assert _cells(app, "wb-arrival") == ["0 Victories", "2 Victories", "4 Victories"]
    assert _cells(app, "wb-strength") == ["50", "60", "70"]
    assert _cells(app, "wb-malice-start") == ["0", "2", "4"]
    # the Director's text is escaped in the rows and in the table
    assert "<b>night</b>" not in app.day.value and "&lt;b&gt;night" in app.day.value
    assert "&lt;b&gt;night" in app.rows_box.children[2].children[0].children[0].value


def test_rows_move_and_remove_and_the_ends_cannot_move_out(folder):
    app = adventure_app(folder=folder)
    for stem in ("Bridge", "Mill", "Camp"):
        _add(app, stem)
    assert app.rows[0]["up"].disabled and app.rows[2]["down"].disabled
    assert not app.rows[1]["up"].disabled and not app.rows[1]["down"].disabled
    app.rows[2]["up"].click()
    assert [e.name for e in app.adventure.encounters] == ["Bridge", "Camp <b>night</b>", "Mill"]
    app.rows[0]["down"].click()
    assert [e.name for e in app.adventure.encounters] == ["Camp <b>night</b>", "Bridge", "Mill"]
    app.rows[1]["remove"].click()
    assert [e.name for e in app.adventure.encounters] == ["Camp <b>night</b>", "Mill"]
    assert len(app.rows_box.children) == 2
    # 100 EV at ES 50 is extreme (2 Victories): the mill is met with 2
    assert _cells(app, "wb-arrival") == ["0 Victories", "2 Victories"]


def test_a_respite_after_a_row_resets_the_victories_and_can_be_taken_away(folder):
    app = adventure_app(folder=folder)
    for stem in ("Bridge", "Mill", "Camp"):
        _add(app, stem)
    app.rows[1]["respite"].click()
    assert app.adventure.respites == (2,)
    assert app.rows[1]["respite"].description == "Remove the respite after"
    assert "wb-respite-row" in app.day.value
    assert _cells(app, "wb-arrival") == ["0 Victories", "2 Victories", "0 Victories"]
    assert _cells(app, "wb-malice-start") == ["0", "2", "0"]
    app.rows[1]["respite"].click()
    assert app.adventure.respites == ()
    assert app.rows[1]["respite"].description == "Add a respite after"
    assert _cells(app, "wb-arrival")[2] == "4 Victories"


def test_adding_with_nothing_picked_or_a_broken_file_is_refused_in_words(folder):
    app = adventure_app(folder=folder)
    app.controls["add"].click()
    assert "Saved encounters list" in app.refusal.value and app.adventure is None
    (folder / "Broken.json").write_text("{not json", encoding="utf-8")
    app.controls["refresh"].click()
    _add(app, "Broken")
    assert app.refusal.value and app.adventure is None
    assert "Traceback" not in app.refusal.value
    _add(app, "Bridge")
    assert app.refusal.value == "" and len(app.adventure.encounters) == 1


def test_an_adventure_given_is_shown_and_the_packet_downloads_as_a_pdf(folder):
    adventure = wb.Adventure(name="North road", party=PARTY).adding(_encounter("Bridge", 7))
    app = adventure_app(adventure, folder=folder)
    assert _cells(app, "wb-strength") == ["50"]
    app.controls["print"].click()
    link = app.link.value
    assert 'download="North road packet.pdf"' in link
    payload = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1))
    assert payload.startswith(b"%PDF")
    # a change takes the packet of the older day away
    app.rows[0]["respite"].click()
    assert app.link.value == ""


def test_printing_an_empty_day_says_what_to_do(folder):
    app = adventure_app(folder=folder)
    app.controls["print"].click()
    assert "No encounters yet" in app.link.value


# ---------------------------------------------------------------- the page's controls

def _strength(heroes: int, level: int, victories: int) -> int:
    """"a baseline of 4, to which you add 2 for each level", summed over the heroes, plus one hero "for every 2
    Victories the heroes have earned on average"."""
    return (4 + 2 * level) * (heroes + victories // 2)


def _row_values(app: AdventureApp, cls: str) -> list[str]:
    return [re.search(rf'class="{cls}" data-value="([^"]*)"', row.children[1].value).group(1)
            for row in app.rows_box.children]


@pytest.fixture
def ford(folder: Path) -> Path:
    save_encounter(_encounter("Ford", 5), folder / "Ford.json")
    return folder


def test_an_objective_changes_the_next_encounters_arrival_victories_andbudget_band(ford):
    app = adventure_app(folder=ford, adventures=ford / "adventures")
    for stem in ("Bridge", "Ford"):
        _add(app, stem)
    ev = {"Bridge": 7 * 10, "Ford": 5 * 10}  # level 3 platoon creatures cost 10 EV each (the EV formula)
    hero = 4 + 2 * 3
    assert budget_band(ev["Bridge"], _strength(5, 3, 0), hero) == "hard"
    # a hard encounter is "typically worth 2 Victories": the ford is met with 2
    assert _row_values(app, "wb-row-arrival") == ["0", "2"]
    assert _row_values(app, "wb-row-band") == ["hard", budget_band(ev["Ford"], _strength(5, 3, 2), hero)] == ["hard", "easy"]
    picker = app.rows[0]["objective"]
    assert picker.value == "" and ("Hold Them Off", "hold_them_off") in picker.options
    # Hold Them Off: "Each hero earns 1 Victory if the success condition is met" below extreme
    picker.value = "hold_them_off"
    assert app.adventure.encounters[0].objectives[0].key == "hold_them_off"
    assert _row_values(app, "wb-row-arrival") == ["0", "1"]
    assert _row_values(app, "wb-row-band")[1] == budget_band(ev["Ford"], _strength(5, 3, 1), hero) == "standard"
    assert app.rows[0]["objective"].value == "hold_them_off"  # the redrawn row shows the choice
    app.rows[0]["objective"].value = ""
    assert app.adventure.encounters[0].objectives == () and _row_values(app, "wb-row-arrival") == ["0", "2"]


def test_an_encounter_saved_with_several_objectives_keeps_them_until_one_is_picked(folder):
    both = _encounter("Gate", 7).model_copy(update={"objectives": (
        wb.choose_objective("diminish_numbers"), wb.choose_objective("hold_them_off"))})
    app = adventure_app(wb.Adventure(party=PARTY, encounters=(both,)), folder=folder, adventures=folder / "a")
    picker = app.rows[0]["objective"]
    assert picker.value == "as saved" and picker.options[-1][0] == "Diminish Numbers + Hold Them Off (as saved)"
    picker.value = "escort"
    assert [o.key for o in app.adventure.encounters[0].objectives] == ["escort"]


def test_the_party_sliders_follow_the_first_encounter_and_then_change_the_party(folder):
    app = adventure_app(folder=folder, adventures=folder / "a")
    assert (app.controls["heroes"].value, app.controls["level"].value) == (4, 1)
    _add(app, "Bridge")
    assert (app.controls["heroes"].value, app.controls["level"].value, app.controls["carried"].value) == (5, 3, 0)
    app.controls["heroes"].value = 4
    assert app.adventure.party.size == 4 and _cells(app, "wb-strength") == [str(_strength(4, 3, 0))]
    app.controls["carried"].value = 3
    assert _cells(app, "wb-arrival") == ["3 Victories"] and _cells(app, "wb-strength") == [str(_strength(4, 3, 3))]
    assert _cells(app, "wb-malice-start") == ["3"]  # "Malice equal to the average number of Victories per hero"


def test_a_party_the_sliders_cannot_show_is_said_in_words(folder):
    mixed = wb.make_party([3, 3, 4], retainers=[2])
    app = adventure_app(wb.Adventure(party=mixed, encounters=(_encounter("Bridge", 7),)), folder=folder,
                        adventures=folder / "a")
    assert "hero of level 4" in app.party_note.value and "retainer of level 2" in app.party_note.value
    app.controls["level"].value = 5
    assert app.party_note.value == "" and app.adventure.party.levels == (5, 5, 5)


def test_save_says_the_full_path_refuses_a_taken_name_and_open_brings_the_day_back(folder):
    adventures = folder / "adventures"
    app = adventure_app(folder=folder, adventures=adventures)
    app.controls["save"].click()
    assert "add one first" in app.refusal.value
    for stem in ("Bridge", "Camp"):
        _add(app, stem)
    app.rows[0]["respite"].click()
    app.controls["name"].value = "North <road>"
    app.controls["save"].click()
    (saved,) = adventures.glob("*.json")
    assert app.refusal.value == "" and str(saved.absolute()) in app.saved_note.value
    assert wb.Adventure.load(saved) == app.adventure and app.adventure.name == "North <road>"
    assert app.controls["adventures"].value == str(saved)
    app.controls["save"].click()
    assert "exists already" in app.refusal.value and "Replace a file of that name" in app.refusal.value
    app.controls["overwrite"].value = True
    app.controls["save"].click()
    assert app.refusal.value == ""

    other = adventure_app(folder=folder, adventures=adventures)
    other.controls["open"].click()
    assert "Saved adventures list" in other.refusal.value
    other.controls["adventures"].value = str(saved)
    other.controls["open"].click()
    assert other.adventure == app.adventure and other.controls["name"].value == "North <road>"
    assert _cells(other, "wb-arrival") == _cells(app, "wb-arrival") == ["0 Victories", "0 Victories"]


def test_the_chart_follows_the_day(folder):
    app = adventure_app(folder=folder, adventures=folder / "a")
    assert [t.name for t in app.chart.figure.data][:1] == ["Victories on arrival"]
    for stem in ("Bridge", "Mill"):
        _add(app, stem)
    bars = app.chart.figure.data[0]
    assert list(bars.y) == [0, 2]  # a hard encounter first: 2 Victories on arrival at the second
    app.rows[0]["respite"].click()
    assert list(app.chart.figure.data[0].y) == [0, 0] and app.chart.figure.data[-1].name == "Respite"


def test_the_packet_file_name_is_the_adventures():
    from workbench.apps.adventure import packet_name

    assert packet_name(wb.Adventure(name="North road", party=PARTY)) == "North road packet.pdf"
    assert packet_name(wb.Adventure(party=PARTY)) == "adventure packet.pdf"


def test_a_respite_is_marked_under_the_row_it_follows(folder):
    app = adventure_app(folder=folder, adventures=folder / "a")
    for stem in ("Bridge", "Mill"):
        _add(app, stem)
    app.rows[0]["respite"].click()
    first, second = app.rows_box.children
    assert "Respite" in first.children[-1].value and len(second.children) == 2


@pytest.mark.parametrize("field, kwargs", [("adventure", {"adventure": "day"}), ("party", {"party": {"level": 3}})])
def test_what_is_no_adventure_or_party_is_refused_by_name(folder, field, kwargs):
    from workbench.errors import InvalidInput

    with pytest.raises(InvalidInput) as caught:
        adventure_app(folder=folder, adventures=folder / "a", **kwargs)
    assert caught.value.field == field


def test_an_encounter_saved_without_a_name_is_planned_under_its_files_name(tmp_path):
    save_encounter(wb.Encounter(party=PARTY).adding("7 x level 3 platoon brute"), tmp_path / "gate-ambush.json")
    app = adventure_app(folder=tmp_path)
    _add(app, "gate-ambush")
    assert app.adventure is not None and app.adventure.encounters[0].name == "gate-ambush"
    assert "gate-ambush" in app.day.value and "Encounter 1" not in app.day.value
