"""The adventure planner driven in Python: encounters added from the saved folder, moved, removed, respites
added and taken away, the day's table following each change, and the packet's PDF link."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

import workbench as wb
from workbench.apps.adventure import AdventureApp, adventure_app
from workbench.encounter.encounter import save_encounter

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
    assert "&lt;b&gt;night" in app.rows_box.children[2].children[0].value


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
    assert "Saved list" in app.refusal.value and app.adventure is None
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
