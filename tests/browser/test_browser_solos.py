"""notebooks/03_solos.ipynb in Voilà: a leader or elite as an instant solo beside a built solo.

Expected numbers: `compare_solos(build_monster(...))` in this process ("Instant Solo Creature": EV × 3,
Stamina × 2.5, tested against the rules text in tests/test_solo.py).
"""

from __future__ import annotations

import pytest

import workbench as wb

NOTEBOOK = "03_solos.ipynb"
APP = ".wb-test-solos"  # the app's VBox, tagged by this test (found by its "Adapt a" picker)


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, '.widget-toggle-buttons:has(> label.widget-label:text-is("Adapt a"))')
    page.page.locator('.jp-OutputArea-output > .widget-vbox:has(.widget-toggle-buttons > '
                      'label.widget-label:text-is("Adapt a"))').first.evaluate(
        "e => e.classList.add('wb-test-solos')")
    page.page.locator(f"{APP} .js-plotly-plot").wait_for()
    page.screenshot("opened", APP)
    yield page
    page.screenshot("after-tests", APP)
    page.close()


def shown(app) -> list[tuple[str, str, str]]:
    """(level, EV, Stamina) of each stat block shown, instant solo first, as a person reads them."""
    blocks = app.page.locator(f"{APP} .wb-stat-block")
    return [tuple(blocks.nth(i).locator(css).first.inner_text().strip()
                  for css in (".wb-level", ".wb-ev", ".wb-stamina")) for i in range(blocks.count())]


def expect_comparison(app, comparison) -> None:
    instant, built = comparison.instant, comparison.built
    app.page.wait_for_selector(f'{APP} .wb-stat-block[data-ev="{instant.ev}"][data-stamina="{instant.stamina}"]'
                               f'[data-level="{instant.level}"]')
    assert shown(app) == [(str(m.level), str(m.ev), str(m.stamina)) for m in (instant, built)]
    # chart traces 0 and 1: the instant and the built solo's EV and Stamina bars
    app.wait_for_plot(APP, "(t, a) => JSON.stringify([t[0].y, t[1].y]) === JSON.stringify(a)",
                      [[instant.ev, instant.stamina], [built.ev, built.stamina]])


def test_leader_level_by_keyboard(app):
    start = app.slider_value("Level", APP)
    app.press_slider("Level", "ArrowRight", 2, APP)
    comparison = wb.compare_solos(wb.build_monster(start + 2, "leader"))
    # "Instant Solo Creature": the leader's EV × 3 and Stamina × 2.5
    leader = wb.build_monster(start + 2, "leader")
    assert comparison.instant.ev == leader.ev * 3
    expect_comparison(app, comparison)


def test_elite_and_role_by_mouse(app):
    app.toggle("elite", APP).click()
    app.pick("Role", "Hexer", APP)
    level = app.slider_value("Level", APP)
    expect_comparison(app, wb.compare_solos(wb.build_monster(level, "elite", "hexer")))
    app.checkbox("Extra Stamina", APP).click()
    expect_comparison(app, wb.compare_solos(wb.build_monster(level, "elite", "hexer", extra_stamina=True)))
    app.screenshot("elite-hexer", APP)


def test_a_model_that_arrives_after_the_widget_managers_wait_is_found(app):
    """The widget manager's get_model waits 2 s for a missing model, then shows "model not found" for good: a page
    whose kernel sent every widget's state later than that (a busy machine) lost the model. Here a model leaves
    the manager, is asked for, and comes back 3 s later, after the manager's own wait (or, on a page too busy to
    have ended it, within it): either way it is found."""
    outcome = app.js("""async () => {
      const manager = window.jupyterapp.widgetManager;
      const id = Object.keys(manager._models)[0];
      const registered = manager._models[id];  // the manager keeps a promise of each model
      const model = await registered;
      delete manager._models[id];
      const asked = manager.get_model(id).then(found => found === model ? "found" : "another model",
                                               error => "not found: " + error.message);
      await new Promise(resolve => setTimeout(resolve, 3000));
      manager._models[id] = registered;
      return await asked;
    }""")
    assert outcome == "found"


def test_no_console_errors(app):
    assert app.console_errors == []
