"""notebooks/06_homebrew_rules.ipynb in Voilà: the Exploitable Weakness app and the swarm simulator.

Expected values: `weakness_wound` and `simulate_swarms` (seeded) in this process; the rules behind them are
tested in tests/test_homebrew_rule.py and the swarm tests.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from workbench.homebrew.rule import shipped_rules
from workbench.homebrew.swarm import SwarmScenario, simulate_swarms
from workbench.homebrew.weakness import OUTCOME_LABELS, grips, weakness_wound
from workbench.render.swarm import decimal_text

NOTEBOOK = "06_homebrew_rules.ipynb"
WEAKNESS = ".wb-test-weakness"  # the weakness app's VBox, tagged by this test (found by its wound view)
SWARM = ".wb-test-swarm"  # the swarm app's VBox, tagged by this test (found by its result view)


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, ".wb-swarm-result")
    for css, found_by in ((WEAKNESS, ".wb-weakness"), (SWARM, ".wb-swarm-result")):
        page.page.locator(f".jp-OutputArea-output > .widget-vbox:has({found_by})").first.evaluate(
            "(e, c) => e.classList.add(c)", css[1:])
    page.screenshot("weakness-opened", WEAKNESS)
    page.screenshot("swarm-opened", SWARM)
    yield page
    page.screenshot("weakness-after-tests", WEAKNESS)
    page.screenshot("swarm-after-tests", SWARM)
    page.close()


def test_weakness_pickers_by_mouse(app):
    rule = shipped_rules()["exploitable-weakness"]
    tag = app.text_box("Tag", WEAKNESS).input_value()
    filled = rule.fill({"tag": tag})
    ladders = rule.fill(partial=True).escalation.ladders
    for grip in grips(filled):
        for outcome in ("hit", "partial_critical"):
            app.pick("Grip", ladders[grip].label, WEAKNESS)
            app.pick("Outcome", OUTCOME_LABELS[outcome], WEAKNESS)
            wound = weakness_wound(filled, grip, outcome, True, False)
            shown = "not given" if wound.value is None else str(wound.value)
            app.page.locator(f'{WEAKNESS} .wb-weakness[data-wound="{shown}"] code',
                             has_text=wound.working).wait_for()
    app.checkbox("Another escalation source already applied", WEAKNESS).click()
    wound = weakness_wound(filled, grip, outcome, True, True)
    app.page.locator(f"{WEAKNESS} .wb-weakness code", has_text=wound.working).wait_for()
    app.screenshot("weakness", WEAKNESS)


def test_swarm_slider_by_keyboard_reruns_the_seeded_fights(app):
    base = SwarmScenario.from_rule(shipped_rules()["generic-swarm"].fill())  # the app starts here
    swarms = app.slider_value("Swarms", SWARM)
    assert swarms == base.swarms
    app.press_slider("Swarms", "ArrowRight", 1, SWARM)
    runs = app.slider_value("Fights", SWARM)
    seed = int(app.text_box("Seed", SWARM).input_value())
    expected = simulate_swarms(replace(base, swarms=swarms + 1), random.Random(seed), runs=runs)
    mean = decimal_text(expected.mean_rounds)
    app.page.locator(f'{SWARM} .wb-swarm-result[data-mean-rounds="{mean}"][data-runs="{runs}"]').wait_for()
    assert app.page.locator(f"{SWARM} .wb-mean-rounds").inner_text() == mean
    assert app.page.locator(f"{SWARM} .wb-mean-reforms").inner_text() == decimal_text(expected.mean_reforms)
    app.screenshot("swarm", SWARM)


def test_no_console_errors(app):
    assert app.console_errors == []
