"""notebooks/04_encounter_budget.ipynb in Voilà: the party and encounter editor with its live budget.

Expected numbers: `wb.budget`, `wb.make_party` and `wb.encounter_report` in this process (tested against
the rules' worked examples in tests/test_party.py and tests/test_encounter.py).
"""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.apps.encounter import SHORTCUTS

NOTEBOOK = "04_encounter_budget.ipynb"
APP = ".wb-encounter-app"
CHIEF = wb.build_monster(4, "leader").model_copy(update={"name": "Bandit chief"})  # the notebook's monster


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, f"{APP} .wb-encounter-summary .wb-ev-total")
    page.screenshot("opened", APP)
    yield page
    page.screenshot("after-tests", APP)
    page.close()


def party(app):
    return wb.make_party(heroes=app.slider_value("Heroes", APP), level=app.slider_value("Level", APP))


def expect_budget(app, budget) -> None:
    app.page.wait_for_selector(f'{APP} .wb-budget[data-encounter-strength="{budget.encounter_strength}"]'
                               f'[data-hero-strength="{budget.hero_strength}"]')
    text = app.page.locator(f"{APP} .wb-budget b").first.inner_text()
    assert text == f"Encounter strength {budget.encounter_strength}"


def test_party_sliders_by_keyboard(app):
    heroes, level = app.slider_value("Heroes", APP), app.slider_value("Level", APP)
    app.press_slider("Heroes", "ArrowLeft", 1, APP)
    expect_budget(app, wb.budget(wb.make_party(heroes=heroes - 1, level=level)))
    app.press_slider("Level", "ArrowRight", 1, APP)
    # "a 3rd-level hero has an encounter strength of 10 (4 + 2 + 2 + 2)": one level up adds 2 a hero
    expect_budget(app, wb.budget(wb.make_party(heroes=heroes - 1, level=level + 1)))
    app.slide_to("Heroes", 5, APP)
    app.slide_to("Level", 3, APP)
    five_thirds = wb.budget(wb.make_party(heroes=5, level=3))
    assert five_thirds.encounter_strength == 50  # "a group of five 3rd-level heroes has an ES of 50"
    expect_budget(app, five_thirds)


def test_buying_creatures_by_typing_and_clicking(app):
    spec = "4 × level 3 platoon brute"
    app.open_section(SHORTCUTS, APP)
    app.fill("Spec", spec, APP)
    app.button("Add spec", APP).click()
    report = wb.encounter_report(wb.Encounter(party=party(app)).adding(spec))
    app.page.wait_for_selector(f'{APP} .wb-ev-total[data-ev="{report.total_ev}"]')
    app.pick("Monster", app.dropdown("Monster", APP).evaluate("s => s.options[0].text"), APP)
    app.button("Add monster", APP).click()
    report = wb.encounter_report(wb.Encounter(party=party(app)).adding(spec, CHIEF))
    # 4 brutes at (2 × 3 + 4) × 1 = 10 each and a level 4 leader at (2 × 4 + 4) × 2 = 24
    assert report.total_ev == 40 + 24
    total = app.page.locator(f'{APP} .wb-ev-total[data-ev="{report.total_ev}"]')
    total.wait_for()
    assert total.inner_text() == str(report.total_ev)
    assert app.page.locator(f"{APP} .wb-encounter-summary .wb-band").first.inner_text() == report.band
    app.screenshot("bought", APP)


def test_combined_or_alternative_objectives_by_mouse(app):
    # "If an encounter has multiple alternative objectives, you reward the heroes for the objective they
    # completed the most successfully": the editor's choice moves the Victories shown.
    app.tab("Objective", APP).click()
    app.pick("Objective", "Destroy the Thing!", APP)
    app.pick("Another objective", "Hold Them Off", APP)
    app.button("Add objective", APP).click()
    app.page.locator(f"{APP} .wb-objective-row").nth(1).wait_for()
    creatures = wb.Encounter(party=party(app)).adding("4 × level 3 platoon brute", CHIEF)
    chosen = (wb.choose_objective("destroy_the_thing"), wb.choose_objective("hold_them_off"))
    gate = creatures.model_copy(update={"objectives": chosen})
    combined = wb.encounter_report(gate)
    alternative = wb.encounter_report(gate.model_copy(update={"objective_mode": "alternative"}))
    assert combined.victories > alternative.victories  # each one's Victories, against the best one's
    app.page.wait_for_selector(f'{APP} .wb-victories[data-victories="{combined.victories}"]')
    app.page.locator(f'{APP} label:has-text("the best one of these alternatives")').click()
    app.page.wait_for_selector(f'{APP} .wb-victories[data-victories="{alternative.victories}"]')
    app.page.wait_for_selector(f'{APP} .wb-objective-mode[data-mode="alternative"]')
    app.screenshot("alternative-objectives", APP)


def test_no_console_errors(app):
    assert app.console_errors == []
