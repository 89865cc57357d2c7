"""The homebrew apps without a browser: controls in, the pure functions' results out, refusals shown."""

from __future__ import annotations

import random
import re

import plotly.graph_objects as go
import pytest

from workbench.apps.homebrew import swarm_app, weakness_app
from workbench.homebrew.rule import shipped_rules
from workbench.homebrew.swarm import SwarmScenario, simulate_swarms
from workbench.server.page_renderer import BUNDLE_VARIABLE


def _wound(app) -> str:
    return re.search(r'data-wound="([^"]*)"', app.controls["wound"].value).group(1)


@pytest.fixture
def weakness():
    """An app of its own for each test: the tests set its controls."""
    return weakness_app()


@pytest.mark.parametrize(
    "grip, outcome, matches, other, wound",
    [
        ("one_handed", "hit", True, False, "2"),  # "One-handed baseline (1) becomes 2": first value
        ("one_handed", "legendary", True, False, "6"),  # last value of 2 -> 3 -> 6, nothing beyond it
        ("two_handed", "partial_critical", True, False, "4"),  # second value of 3 -> 4 -> 8
        ("two_handed", "hit", False, False, "2"),  # no escalation: the two-handed baseline (2)
        ("two_handed", "hit", True, True, "3"),  # two sources: escalated once, still 3
        ("one_handed", "partial_critical", False, False, "not given"),  # the homebrewer's own number, unset
    ],
)
def test_the_weakness_app_shows_the_wound(weakness, grip, outcome, matches, other, wound):
    c = weakness.controls
    c["grip"].value, c["outcome"].value = grip, outcome
    c["matches_tag"].value, c["other_source"].value = matches, other
    assert _wound(weakness) == wound


def test_the_weakness_app_names_the_trait_with_its_tag_escaped():
    app = weakness_app()
    app.controls["tag"].value = "<b>Silver</b>"
    assert "Exploitable Weakness (&lt;b&gt;Silver&lt;/b&gt;)" in app.controls["name"].value
    assert "<b>Silver</b>" not in app.controls["name"].value


def test_the_weakness_app_takes_the_homebrewers_own_value():
    app = weakness_app()
    c = app.controls
    c["grip"].value, c["outcome"].value, c["matches_tag"].value = "two_handed", "legendary", False
    c["two_handed_legendary"].value = "7"  # a value of the homebrewer's own system, chosen here
    assert _wound(app) == "7"


def test_the_other_legendary_reading_is_offered_from_the_module_data():
    app = weakness_app()
    c = app.controls
    assert tuple(c["legendary_reading"].options) == shipped_rules()["exploitable-weakness"].parameter(
        "legendary_reading").choices
    c["outcome"].value, c["two_handed_legendary"].value, c["grip"].value = "legendary", "9", "two_handed"
    c["legendary_reading"].value = "unescalated"
    assert _wound(app) == "9"


@pytest.mark.parametrize("typed", ["lots", "--5", "５"])
def test_the_weakness_app_refuses_a_bad_value_and_keeps_the_controls(typed):
    app = weakness_app()
    app.controls["one_handed_legendary"].value = typed
    assert "wb-refusal" in app.controls["wound"].value and "Unescalated one-handed Legendary wound takes" in app.controls["wound"].value
    assert app.controls["one_handed_legendary"].value == typed
    assert app.controls["table"].value == ""  # no table of numbers left over from the last good values
    app.controls["one_handed_legendary"].value = "5"
    assert app.controls["table"].value.count("<tr>") == 25


def test_the_weakness_app_table_has_every_case():
    app = weakness_app()
    assert app.controls["table"].value.count("<tr>") == 1 + 24  # header + 2 grips × 3 outcomes × 2 × 2


def test_the_weakness_app_works_for_the_swarm_module_too():
    app = weakness_app(shipped_rules()["generic-swarm"])
    c = app.controls
    c["grip"].value, c["outcome"].value = "two_handed", "legendary"
    assert _wound(app) == "8"  # "Two-handed baseline (2) becomes 3, then follows 3 -> 4 -> 8"


@pytest.fixture
def swarm():
    """An app of its own for each test: one test checks the controls' starting values, others move them."""
    return swarm_app(runs=200, seed=7)


def test_the_swarm_app_starts_from_the_module_baselines(swarm):
    # "N = 3", "M = 6" (Default baseline)
    assert (swarm.controls["disperse_value"].value, swarm.controls["reform_threshold"].value) == (3, 6)


def test_the_swarm_app_shows_the_seeded_simulation(swarm):
    c = swarm.controls
    c["disperse_value"].value = 2
    c["disruption_chance"].value = 0.3
    expected = simulate_swarms(SwarmScenario(disperse_value=2, disruption_chance="0.3"), random.Random(7), runs=200)
    shown = re.search(r'data-mean-rounds="([^"]*)"', c["result"].value).group(1)
    assert abs(float(shown) - float(expected.mean_rounds)) < 0.005
    assert c["progress"].value == c["progress"].max == 200
    (figure,) = c["figure"].children
    assert isinstance(figure, go.FigureWidget)
    assert sum(figure.data[0].y) + sum(t.y[0] for t in figure.data[1:]) == 200


def test_the_tuning_button_draws_the_grid(swarm):
    swarm.controls["tune"].click()
    (figure,) = swarm.controls["tuning"].children
    # default grid: 4 M values × 3 disruption panels × 2 rows (rounds, reforms)
    assert len(figure.data) == 4 * 3 * 2


def test_under_workbench_app_the_swarm_charts_import_the_servers_plotly(monkeypatch):
    """Not plotly's ~5 MB widget bundle in every new chart (the lesson's swarm app built its charts outside a
    ChartSlot, and each carried it to the browser)."""
    from workbench.apps import serving
    from workbench.server.charts import ServedCharts

    monkeypatch.setenv(BUNDLE_VARIABLE, "voila/static/plotly-widget-9.js?v=9")
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    monkeypatch.setitem(serving._INSTALLED, "charts", ServedCharts())  # as the server's kernels do at start
    app = swarm_app(runs=100, seed=3)
    app.controls["tune"].click()
    for box in ("figure", "tuning"):
        (figure,) = app.controls[box].children
        assert '"/base/voila/static/plotly-widget-9.js?v=9"' in figure._esm and len(figure._esm) < 1000, box


def test_without_kills_no_fight_is_cleared():
    # nobody kills dispersed individuals: the swarms can never be gone for good
    app = swarm_app(runs=100)
    app.controls["kills_per_round"].value = 0
    assert "0 of 100 fights cleared" in app.controls["result"].value


def test_the_builder_attaches_modules_and_shows_them_on_the_block(tmp_path):
    from workbench.apps.builder import monster_builder

    builder = monster_builder(folder=tmp_path)
    box = builder.controls["homebrew_rules"]
    box.value = "exploitable-weakness: tag=Silver\ngeneric-swarm: disperse_value=4, reform_threshold=5"
    assert [a.rule for a in builder.monster.homebrew_rules] == ["exploitable-weakness", "generic-swarm"]
    assert "Exploitable Weakness (Silver)" in builder.stat_block.value
    assert "Swarm (N = 4, M = 5)" in builder.stat_block.value
    box.value = "generic-swarm: disperse_value=0"  # N is a whole number from 1
    # refused beside the box, the parameter named as its field is labelled; the last good block stays
    assert "Disperse Value (N) takes a whole number from 1" in builder.rows["homebrew_rules"].shortcut_note.value
    assert "Swarm (N = 4, M = 5)" in builder.stat_block.value


def test_the_builder_puts_a_monsters_modules_back_into_the_box(tmp_path):
    import workbench as wb
    from workbench.apps.builder import monster_builder
    from workbench.homebrew.attach import attach_rule

    werewolf = attach_rule(wb.build_monster(1, "solo"), shipped_rules()["exploitable-weakness"], {"tag": "Silver"})
    builder = monster_builder(folder=tmp_path)
    builder.show(werewolf)
    assert builder.monster.homebrew_rules == werewolf.homebrew_rules


def test_every_control_combination_shows_the_functions_wound():
    from itertools import product

    from workbench.homebrew.weakness import weakness_wound

    app = weakness_app()
    c = app.controls
    c["one_handed_partial_critical"].value = "5"  # a homebrewer's own value, so no case is "not given"
    rule = shipped_rules()["exploitable-weakness"].fill({"tag": "silver", "one_handed_partial_critical": 5})
    for grip, outcome, matches, other in product(
        ("one_handed", "two_handed"), ("hit", "partial_critical", "legendary"), (False, True), (False, True)
    ):
        c["grip"].value, c["outcome"].value = grip, outcome
        c["matches_tag"].value, c["other_source"].value = matches, other
        expected = weakness_wound(rule, grip, outcome, matches, other).value
        assert _wound(app) == ("not given" if expected is None else str(expected))


def test_the_tag_box_is_hidden_for_a_module_without_a_tag():
    assert weakness_app(shipped_rules()["generic-swarm"]).controls["tag"].layout.display == "none"
    assert weakness_app().controls["tag"].layout.display != "none"
