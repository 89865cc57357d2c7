"""The day's chart: the Victories on arrival as bars, each encounter's band and difficulty as markers, the
respites as lines between the encounters; the Director's text escaped; an empty day says what to do."""

from __future__ import annotations

import workbench as wb
from workbench.charts.adventure import (
    BAND_TRACE,
    DIFFICULTY_TRACE,
    RESPITE_TRACE,
    VICTORIES_TRACE,
    adventure_figure,
    encounter_label,
)
from workbench.encounter.adventure import plan

PARTY = wb.make_party(heroes=5, level=3)  # ES 50, one hero 10
DIFFICULTIES = ["trivial", "easy", "standard", "hard", "extreme"]


def _encounter(name: str, brutes: int) -> wb.Encounter:
    return wb.Encounter(name=name, party=PARTY).adding(f"{brutes} x level 3 platoon brute")


def _traces(figure) -> dict:
    return {trace.name: trace for trace in figure.data}


def test_bars_markers_and_respites_follow_the_plan():
    # 70 EV at ES 50 is hard (up to ES + 3 heroes = 80): 2 Victories; 50 EV met with 2 Victories (ES 60) is
    # easy; after the respite, 70 EV at ES 50 again
    day = wb.Adventure(party=PARTY, encounters=(_encounter("Bridge", 7), _encounter("Ford", 5),
                                                _encounter("Gate", 7)), respites=(2,))
    traces = _traces(adventure_figure(plan(day)))
    assert list(traces[VICTORIES_TRACE].x) == [1, 2, 3]
    assert list(traces[VICTORIES_TRACE].y) == [0, 2, 0]
    assert [DIFFICULTIES[int(y)] for y in traces[BAND_TRACE].y] == ["hard", "easy", "hard"]
    assert [DIFFICULTIES[int(y)] for y in traces[DIFFICULTY_TRACE].y] == ["hard", "easy", "hard"]
    assert traces[BAND_TRACE].yaxis == "y2"
    # one line at 2.5, between the second encounter and the third
    assert [x for x in traces[RESPITE_TRACE].x if x is not None] == [2.5, 2.5]


def test_an_objective_moves_the_difficulty_apart_from_the_band():
    # Destroy the Thing! without extra defenses is one category easier: hard EV, standard difficulty
    thing = _encounter("Vault", 7).model_copy(update={"objectives": (wb.choose_objective("destroy_the_thing"),)})
    traces = _traces(adventure_figure(plan(wb.Adventure(party=PARTY, encounters=(thing,)))))
    assert DIFFICULTIES[int(traces[BAND_TRACE].y[0])] == "hard"
    assert DIFFICULTIES[int(traces[DIFFICULTY_TRACE].y[0])] == "standard"
    assert RESPITE_TRACE not in traces


def test_names_are_escaped_and_cut_to_fit():
    hostile = _encounter("<b>Camp</b> %{x} by the very long river", 7)
    figure = adventure_figure(plan(wb.Adventure(party=PARTY, encounters=(hostile,))))
    (label,) = figure.layout.xaxis.ticktext
    assert "<b>" not in label and "&lt;b&gt;" in label and label.startswith("1. ") and label.endswith("…")
    row = plan(wb.Adventure(party=PARTY, encounters=(_encounter("", 7),))).encounters[0]
    assert encounter_label(row) == "1. Encounter 1"
    odd = plan(wb.Adventure(party=PARTY, encounters=(_encounter("%{y}", 7),))).encounters[0]
    assert "%{" not in encounter_label(odd)


def test_an_empty_day_is_a_chart_that_says_what_to_do():
    figure = adventure_figure(plan(wb.Adventure(party=PARTY)))
    assert list(_traces(figure)[VICTORIES_TRACE].y) == []
    assert "No encounters yet" in figure.layout.annotations[0].text
