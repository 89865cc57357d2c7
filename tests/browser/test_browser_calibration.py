"""notebooks/07_calibration.ipynb in Voilà: the calibration explorer (formula curves, published points, fit).

Expected: `calibrate` / `fit_report` over the sample bestiary in this process, and the formula curves
from `build_monster` (tests/test_calibration.py checks these against the published stat blocks).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError

import workbench as wb
from workbench.calibration.fit import Variant, calibrate, fit_report
from workbench.charts.calibration import LABELS
from workbench.formats.bestiary import sample_bestiary
from workbench.render.calibration import LABELS as TABLE_LABELS
from workbench.render.calibration import figure_text

NOTEBOOK = "07_calibration.ipynb"
APP = ".wb-test-calibration"  # the app's VBox, tagged by this test (found by its "fit" report)


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, ".widget-vbox .workbench-fit")
    page.page.locator(".jp-OutputArea-output > .widget-vbox:has(.workbench-fit)").first.evaluate(
        "e => e.classList.add('wb-test-calibration')")
    page.page.locator(f"{APP} .js-plotly-plot").wait_for()
    page.screenshot("opened", APP)
    yield page
    page.screenshot("after-tests", APP)
    page.close()


def variant(extra_stamina: bool = False) -> Variant:
    """The app's variant: the core ruleset's own options, with or without extra Stamina."""
    options = wb.core_ruleset().options
    return Variant(halved_damage_rounding=options.halved_damage_rounding,
                   minion_strike_adds_characteristic=options.minion_strike_adds_characteristic,
                   extra_stamina=extra_stamina)


def expected_rows(chosen, variant: Variant) -> list[list[str]]:
    report = fit_report(calibrate(chosen, variant.ruleset(wb.core_ruleset()), variant.extra_stamina))
    rows = []
    for quantity, fit in report["all"].items():
        f = fit.as_dict()
        rows.append([TABLE_LABELS[quantity], str(f["count"]), figure_text(f["exact_rate"], True),
                     figure_text(f["mean_abs_error"]), figure_text(f["median_abs_error"]),
                     figure_text(f["mean_residual"])])
    return rows


def shown_rows(app) -> list[list[str]]:
    return app.page.locator(f"{APP} .workbench-fit table").first.evaluate(
        "t => Array.from(t.querySelectorAll('tr')).slice(1).map(r => Array.from(r.cells).map(c => c.textContent.trim()))")


def wait_for_rows(app, rows) -> None:
    try:
        _wait_for_rows(app, rows)
    except TimeoutError:
        raise AssertionError(f"the fit table shows {shown_rows(app)!r}, not {rows!r}") from None


def _wait_for_rows(app, rows) -> None:
    app.page.wait_for_function(
        """([root, want]) => {
            const t = document.querySelector(root + ' .workbench-fit table');
            if (!t) return false;
            const got = Array.from(t.querySelectorAll('tr')).slice(1)
                .map(r => Array.from(r.cells).map(c => c.textContent.trim()));
            return JSON.stringify(got) === JSON.stringify(want);
        }""",
        arg=[APP, rows],
    )


def test_organization_by_mouse_and_variant_checkbox(app):
    monsters = sample_bestiary().monsters
    elites = [m for m in monsters if m.organization == "elite"]
    app.pick("Organization", "Elite", APP)
    rows = expected_rows(elites, variant())
    wait_for_rows(app, rows)
    assert shown_rows(app) == rows
    title = app.page.locator(f"{APP} .workbench-fit > b").first.inner_text()
    assert title.startswith(f"Fit of {len(elites)} published monster(s)")
    app.checkbox("Extra Stamina for every non-minion", APP).click()
    rows = expected_rows(elites, variant(extra_stamina=True))
    wait_for_rows(app, rows)
    assert shown_rows(app) == rows
    app.screenshot("elites-extra-stamina", APP)


def test_chart_shows_the_formula_curves_of_the_picked_organization(app):
    app.pick("Number", LABELS["ev"], APP)
    organization = app.dropdown("Organization", APP).evaluate("s => s.value").lower()  # shown capitalized
    chosen = [m for m in sample_bestiary().monsters if organization == "all" or m.organization == organization]
    top = max([m.level for m in chosen] + [10])
    pairs = sorted({(m.organization, m.role) for m in chosen}, key=lambda p: (p[0], p[1] or ""))
    want = sorted((f"formula {org}", [wb.build_monster(level, org, role).ev for level in range(1, top + 1)])
                  for org, role in pairs)
    app.wait_for_plot(APP, """(traces, want) => {
        const got = traces.filter(t => (t.name || '').startsWith('formula '))
                          .map(t => [t.name, t.y]).sort();
        return JSON.stringify(got.map(g => JSON.stringify(g)).sort()) ===
               JSON.stringify(want.map(w => JSON.stringify(w)).sort());
    }""", [list(w) for w in want])


def test_no_console_errors(app):
    assert app.console_errors == []
