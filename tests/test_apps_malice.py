"""The Malice planner and tracker app, driven without a browser: controls in, HTML and figure out."""

from __future__ import annotations

import html
import re

import pytest

import workbench as wb
from workbench.apps.malice import malice_app, planner_view
from workbench.cli import main
from workbench.model import Trait


@pytest.fixture
def app():
    """A planner of its own for each test: the tests change its controls."""
    return malice_app(heroes=5, victories=3, rounds=5)


def test_planner_shows_the_book_example(app):
    c = app.controls
    # The running-total trace: 9, 16, 24, 33, 43 (the book's 9, 7, 8, 9, ... added by hand).
    totals = [t for t in c["plot"].figure.data if t.name.startswith("Running total")][0]
    assert list(totals.y) == [9, 16, 24, 33, 43]
    assert "3 + 5 + 1" in c["report"].value


def test_planner_deaths_change_the_gains(app):
    c = app.controls
    c["deaths"].value = "2:1"
    gains = [t for t in c["plot"].figure.data if t.name == "Gained this round"][0]
    assert list(gains.y) == [9, 6, 7, 8, 9]        # 3+5+1, then 4 living heroes + round
    c["deaths"].value = "two"                      # refused: the message says what is accepted
    assert "ROUND:COUNT" in c["message"].value
    assert list([t for t in c["plot"].figure.data if t.name == "Gained this round"][0].y) == [9, 6, 7, 8, 9]
    c["deaths"].value = ""
    assert c["message"].value == ""


def test_planner_view_advice_when_a_band_is_missing():
    features = (Trait(name="Brutal Effectiveness", text="", cost=3), Trait(name="Solo Action", text="", cost=5))
    _, body = planner_view(5, 3, 3, "", {"Brutal Effectiveness": 1, "Solo Action": 1}, features)
    assert "7 to 10" in html.unescape(body)


@pytest.mark.parametrize("deaths", ["²:1", "５:1", "1:", "a:b", "0:1", "3:1;4:1"])
def test_a_refused_death_reads_as_the_command_line_says_it(app, deaths, capsys):
    """The planner and `workbench malice --deaths` read ROUND:COUNT with one parser: the same texts are refused
    with the same words (the page leaves out the value's repr, the command line starts with it)."""
    c = app.controls
    c["deaths"].value = "2:1"
    report = c["report"].value
    c["deaths"].value = deaths                      # no exception out of the observer: a refusal beside the box
    shown = html.unescape(c["message"].value)
    assert c["report"].value == report             # nothing changes
    with pytest.raises(SystemExit) as exited:
        main(["malice", "--heroes", "5", "--victories", "3", "--rounds", "5", "--deaths", deaths])
    assert exited.value.code == 2
    line = capsys.readouterr().err.strip()
    assert "\n" not in line and "\n" not in shown
    assert line.startswith(f"workbench malice: error: argument --deaths: got {deaths!r}; accepts ")
    cli_accepts = line.split("; accepts ", 1)[1]
    assert re.fullmatch(r'<span class="wb-refusal"[^>]*>.*</span>', c["message"].value)
    assert re.sub("<[^>]+>", "", shown) == f"Deaths takes {cli_accepts}."
    assert "ROUND:COUNT in digits 0-9" in cli_accepts


def test_tracker_gain_spend_refusal_undo_and_player_view():
    app = malice_app(heroes=5, victories=3)
    c, b = app.controls, app.controls["buttons"]
    b["round"].click()
    assert app.tracker.malice == 9
    assert "9 Malice" in c["players"].value
    c["shown"].value = False                                  # the Director hides it
    assert "9" not in c["players"].value and "hidden" in c["players"].value
    strike = [f for _, f in c["feature"].options if f.name == "Malicious Strike"][0]
    c["feature"].value = strike
    assert c["amount"].value == 5
    b["spend"].click()
    assert app.tracker.malice == 4
    b["round"].click()                                        # 4 + 7 = 11
    b["spend"].click()                                        # two rounds in a row: refused
    assert "two rounds in a row" in html.unescape(c["refusal"].value)
    assert app.tracker.malice == 11
    b["undo"].click()                                         # back to round 1, 4 Malice
    assert (app.tracker.round, app.tracker.malice) == (1, 4)
    b["end"].click()
    assert app.tracker.malice == 0 and "unused Malice lost" in c["director"].value
    b["new"].click()
    assert (app.tracker.round, app.tracker.malice) == (0, 0)


def test_user_text_is_escaped_in_the_app():
    evil = Trait(name="<script>x</script>", text="", cost=3)
    app = malice_app(features=[evil])
    assert "<script>" not in app.controls["report"].value
    app.controls["buttons"]["round"].click()
    app.controls["buttons"]["spend"].click()
    assert "<script>" not in app.controls["director"].value


def test_chart_feature_lines_are_escaped_and_at_their_costs():
    from workbench.charts.malice import malice_figure
    from workbench.fight.malice_schedule import malice_schedule

    evil = Trait(name="<a href='x'>War</a>", text="", cost=7)
    figure = malice_figure(malice_schedule(5, 3, 3), features=[evil])
    line = [t for t in figure.data if t.name.startswith("Costs 7")][0]
    assert list(line.y) == [7, 7]
    assert "<a" not in line.name and "<a" not in line.hovertemplate


def test_the_monsters_own_malice_features_are_planned_and_spent():
    # "... in addition to any "[Creature] Malice" features they might have": a custom 7-cost feature on the
    # monster given to the app appears in the planner and the tracker beside the basic ones.
    drums = Trait(name="War Drums", text="a band feature", cost=7)
    orc = wb.build_monster(level=2, organization="platoon", role="brute").model_copy(
        update={"name": "Orc", "malice_features": (drums,)})
    app = malice_app(heroes=5, victories=3, monsters=[orc])
    c = app.controls
    assert "War Drums" in c["uses"]
    # no solo among the monsters: no Solo Action offered
    assert [f.name for _, f in c["feature"].options] == ["Brutal Effectiveness", "Malicious Strike", "War Drums"]
    c["feature"].value = drums
    c["buttons"]["round"].click()                  # 3 + 5 + 1 = 9
    c["buttons"]["spend"].click()
    assert app.tracker.malice == 9 - 7


def test_solo_action_only_with_a_solo():
    solo = wb.build_monster(level=2, organization="solo").model_copy(update={"name": "Dragon"})
    app = malice_app(heroes=4, victories=0, monsters=[solo])
    assert "Solo Action" in [f.name for _, f in app.controls["feature"].options]


def test_tracker_follows_the_planners_party_until_its_first_round():
    app = malice_app(heroes=5, victories=3)
    c = app.controls
    c["heroes"].value, c["victories"].value = 4, 0
    assert (app.tracker.state.heroes, app.tracker.state.victories) == (4, 0)
    c["buttons"]["round"].click()                    # 0 + 4 + 1
    assert app.tracker.malice == 5
    c["heroes"].value = 6                            # a started fight keeps its party
    assert app.tracker.state.heroes == 4


def test_a_strike_blocked_by_the_rule_says_so_in_the_plan():
    from workbench.fight.malice_features import basic_malice_features

    strike = [f for f in basic_malice_features() if f.name == "Malicious Strike"][0]
    _, body = planner_view(5, 3, 2, "", {"Malicious Strike": 2}, (strike,))  # 9 then 16 Malice: enough twice
    assert "Malicious Strike can't be used two rounds in a row" in html.unescape(body)
