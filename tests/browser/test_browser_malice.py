"""notebooks/05_malice_and_minions.ipynb in Voilà: the Malice planner and tracker, and the squad tracker.

Expected numbers: `malice_schedule`, `MaliceTracker` and `SquadTracker` in this process (tested against
the book's examples in tests/test_malice.py and tests/test_squad.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from workbench.apps.squad import default_squad
from workbench.fight.malice_schedule import malice_schedule
from workbench.fight.malice_tracker import MaliceTracker
from workbench.fight.squad import SquadTracker
from workbench.server.site import plotly_bundle

NOTEBOOK = "05_malice_and_minions.ipynb"
MALICE = ".wb-test-malice"  # the planner/tracker Tab, tagged by this test (found by its "Planner" tab)
SQUAD = ".wb-test-squad"  # the squad tracker's VBox, tagged by this test (found by "Apply damage")


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, '.lm-TabBar-tabLabel:text-is("Planner")')
    page.page.locator('.jp-OutputArea-output > .widget-tab:has(.lm-TabBar-tabLabel:text-is("Planner"))').first \
        .evaluate("e => e.classList.add('wb-test-malice')")
    page.page.locator('.jp-OutputArea-output > .widget-vbox:has(button:text-is("Apply damage"))').first \
        .evaluate("e => e.classList.add('wb-test-squad')")
    page.page.locator(f"{MALICE} .js-plotly-plot").wait_for()
    page.screenshot("opened", MALICE)
    yield page
    page.screenshot("malice-after-tests", MALICE)
    page.screenshot("squad-after-tests", SQUAD)
    page.close()


def gains_drawn(app, schedule) -> None:
    want = [r.gain for r in schedule]
    app.wait_for_plot(MALICE, "(t, a) => t.some(x => x.name === 'Gained this round' && "
                      "JSON.stringify(x.y) === JSON.stringify(a))", want)
    totals = [t["y"] for t in app.plot_data(MALICE) if t["name"] == "Running total (nothing spent)"]
    assert totals == [[r.total for r in schedule]]


def test_planner_sliders_and_deaths(app):
    heroes, victories, rounds = (app.slider_value(n, MALICE) for n in ("Heroes", "Victories", "Rounds"))
    schedule = malice_schedule(heroes, victories, rounds)
    if (heroes, victories, rounds) == (5, 3, 5):
        # "Five heroes with three Victories each: 9, 7, 8, 9, 10 (totals 9, 16, 24, 33, 43)"
        assert [r.gain for r in schedule] == [9, 7, 8, 9, 10]
    gains_drawn(app, schedule)
    app.press_slider("Rounds", "ArrowRight", 2, MALICE)
    app.press_slider("Heroes", "ArrowLeft", 1, MALICE)
    gains_drawn(app, malice_schedule(heroes - 1, victories, rounds + 2))
    app.fill("Deaths", "3:1", MALICE)
    gains_drawn(app, malice_schedule(heroes - 1, victories, rounds + 2, deaths={3: 1}))
    app.screenshot("planner", MALICE)


def test_tracker_buttons_by_mouse(app):
    app.tab("Tracker", MALICE).click()
    heroes, victories = app.slider_value("Heroes", MALICE), app.slider_value("Victories", MALICE)
    app.button("New encounter", MALICE).click()
    expected = MaliceTracker(heroes, victories)
    director = app.page.locator(f"{MALICE} .widget-html-content:has-text('heroes generating')").first
    players = app.page.locator(f"{MALICE} .widget-html-content:has-text('Malice'):not(:has-text('generating'))")
    for press in ("Start next round", "Start next round", "A hero dies", "Start next round"):
        app.button(press, MALICE).click()
        {"Start next round": expected.start_round, "A hero dies": expected.hero_dies}[press]()
        state = expected.state
        director.filter(has_text=re.compile(
            rf"^{state.malice} Malice — round {state.round} — {state.living} of {state.heroes} heroes")).wait_for()
    # The players' view is a widget of its own, updated in the kernel's next message: wait for it too.
    expect(players.last).to_have_text(f"{expected.state.malice} Malice")
    app.checkbox("Show Malice to the players", MALICE).click()
    players.filter(has_text="hidden by the Director").last.wait_for()
    app.screenshot("tracker", MALICE)


def test_squad_damage_and_undo(app):
    expected = SquadTracker(default_squad())
    view = app.page.locator(f"{SQUAD} .widget-html-content:has-text('standing')").first
    app.fill("Damage", "12", SQUAD)
    app.button("Apply damage", SQUAD).click()
    expected.damage(12)
    squad = expected.squad
    view.filter(has_text=f"Pool {squad.pool} of ").wait_for()
    assert f"{squad.alive} of {default_squad().alive} standing" in view.inner_text()
    app.toggle("Area", SQUAD).click()
    app.fill("In the area", "3", SQUAD)
    app.fill("Damage", "4", SQUAD)
    app.button("Apply damage", SQUAD).click()
    expected.damage(4, in_area=3)
    view.filter(has_text=f"Pool {expected.squad.pool} of ").wait_for()
    assert f"{expected.squad.alive} of {default_squad().alive} standing" in view.inner_text()
    app.button("Undo", SQUAD).click()
    expected.undo()
    view.filter(has_text=f"Pool {expected.squad.pool} of ").wait_for()
    app.screenshot("squad", SQUAD)


def test_no_console_errors(app):
    assert app.console_errors == []


def test_the_lessons_static_chart_is_drawn_by_the_servers_plotly_not_an_embedded_copy(app):
    """Under `workbench app` a lesson's static figure imports the server's plotly bundle (the one the
    page head preloads), so the page carries no inline copy of plotly.js (4.6 MB before)."""
    schedule = malice_schedule(heroes=5, victories=3, rounds=5)  # the lesson's own planning example
    static = app.page.locator('.jp-OutputArea-output div[id^="wb-figure-"]').first  # server.page_renderer's
    static.locator(".main-svg").first.wait_for()
    assert static.evaluate("(e, a) => JSON.stringify(e.data.find(t => t.type === 'bar').y) === JSON.stringify(a)",
                           [r.gain for r in schedule]) is True
    inline = app.js("() => Array.from(document.scripts).filter(s => !s.src)"
                    ".reduce((n, s) => n + s.textContent.length, 0)")
    assert inline < 1_000_000, f"{inline} characters of inline script"
    served = plotly_bundle()
    assert served is not None
    assert app.js("name => performance.getEntriesByType('resource').filter(e => e.name.includes(name)).length",
                  f"/voila/static/{served.served_name}") >= 1
