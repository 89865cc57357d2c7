"""notebooks/02_scaling_formulas.ipynb in Voilà: the scaling explorer's curves, grid and what-if editor.

Every expected number is `build_monster`'s (with `Ruleset.updated` for the what-if copy), computed here.

The explorer's two charts are `ChartSlot`s: anywidget 0.11 gives a widget model 2 s to initialize
(`AbortSignal.timeout(2000)` in its runtime), a model that missed it ("[anywidget] Failed to initialize
model." in the console) never applies an update, and a fresh FigureWidget per change does not depend on one
model having made it (`workbench app`'s template also gives a model a minute).
"""

from __future__ import annotations

import pytest

import workbench as wb

NOTEBOOK = "02_scaling_formulas.ipynb"
APP = ".wb-explorer"
CURVES = f"{APP} .wb-curves-chart"
WHATIF = f"{APP} .wb-whatif-chart"


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, f"{CURVES}.js-plotly-plot")
    page.screenshot("opened", APP)
    yield page
    page.screenshot("after-tests", APP)
    page.close()


def test_the_live_charts_run_on_plotly_js_cartesian_build(app):
    """`workbench app` serves plotly.js's cartesian build with the workbench's view of a FigureWidget
    (server.site.plotly_bundle), not plotly's widget bundle: the page's plotly knows the cartesian traces and no
    others, and it drew the curves chart (a FigureWidget)."""
    # run by the page's head as a classic script (Chromium keeps its compiled code between visits), not imported
    assert app.js("() => Array.from(document.querySelectorAll('script[data-workbench-charts]'))"
                  ".map(s => [s.defer, s.type, new URL(s.src).pathname.startsWith('/voila/static/plotly-cartesian-')])"
                  ) == [[True, "", True]]
    assert app.js("() => typeof window.workbenchFigureView.render") == "function"
    traces = set(app.js("() => Object.keys(window.Plotly.PlotSchema.get().traces)"))
    assert {"bar", "box", "scatter"} <= traces
    assert not {"scatter3d", "scattergl", "choropleth", "sunburst"} & traces, sorted(traces)
    assert app.plot_data(CURVES)


def picked(app, label: str) -> list[str]:
    return app.page.locator(f'{APP} .widget-select-multiple:has(> label.widget-label:text-is("{label}")) '
                            "select").evaluate("s => Array.from(s.selectedOptions).map(o => o.value)")


def expected_curves(app, quantity: str, low: int, high: int, ruleset=None) -> dict[str, list[int]]:
    curves = {}
    for organization in picked(app, "Organizations"):
        roles = picked(app, "Roles") if wb.core_ruleset().organizations[organization].needs_role else [None]
        for role in roles:
            name = f"{organization} {role}" if role else organization
            curves[name] = [getattr(wb.build_monster(level, organization, role, ruleset=ruleset), quantity)
                            for level in range(low, high + 1)]
    return curves


def wait_for_curves(app, root: str, curves: dict[str, list[int]]) -> dict[str, list]:
    """Wait until the plot draws exactly these named curves (y values), then return them as drawn.

    The published monsters' points ("published <organization>", ticked by default) are not curves: left out.
    """
    app.wait_for_plot(root, """(traces, want) => {
        const lines = traces.filter(t => !String(t.name).startsWith('published'));
        const drawn = Object.fromEntries(lines.map(t => [t.name, t.y]));
        return Object.keys(want).length === lines.length &&
               Object.entries(want).every(([name, y]) => JSON.stringify(drawn[name]) === JSON.stringify(y));
    }""", curves)
    return {t["name"]: t["y"] for t in app.plot_data(root) if not str(t["name"]).startswith("published")}


def test_level_range_by_keyboard_and_number_by_mouse(app):
    low, high = 1, app.page.locator(f"{APP} .widget-slider .noUi-handle-upper").first.evaluate(
        "h => +h.getAttribute('aria-valuenow')")
    stamina = expected_curves(app, "stamina", low, high)
    assert wait_for_curves(app, CURVES, stamina) == stamina
    upper = app.page.locator(f'{APP} .widget-slider:has(> label.widget-label:text-is("Levels")) .noUi-handle-upper')
    upper.focus()
    upper.press("ArrowRight")
    upper.press("ArrowRight")
    stamina = expected_curves(app, "stamina", low, high + 2)
    assert wait_for_curves(app, CURVES, stamina) == stamina
    app.pick("Number", "EV", APP)
    ev = expected_curves(app, "ev", low, high + 2)
    assert wait_for_curves(app, CURVES, ev) == ev
    app.screenshot("ev-curves", APP)


def test_adding_a_role_with_a_ctrl_click(app):
    option = app.page.locator(f'{APP} .widget-select-multiple:has(> label.widget-label:text-is("Roles")) '
                              'select option[value="hexer"]')
    option.click(modifiers=["Control"])
    assert "hexer" in picked(app, "Roles")
    high = app.page.locator(f"{APP} .widget-slider .noUi-handle-upper").first.evaluate(
        "h => +h.getAttribute('aria-valuenow')")
    quantity = app.dropdown("Number", APP).evaluate("s => s.value")
    column = {"EV": "ev", "Stamina": "stamina"}[quantity]
    curves = expected_curves(app, column, 1, high)
    assert "platoon hexer" in curves
    assert wait_for_curves(app, CURVES, curves) == curves


def test_whole_grid_table_matches_the_formulas(app):
    app.open_section("The whole grid (sort by any column)", APP)
    table = app.page.locator(f"{APP} .wb-grid-table table")
    table.wait_for()
    rows = table.evaluate("""t => {
        const heads = Array.from(t.querySelectorAll('thead th')).map(th => th.textContent.trim());
        return Array.from(t.querySelectorAll('tbody tr')).map(tr =>
            Object.fromEntries(Array.from(tr.children).map((td, i) => [heads[i], td.textContent.trim()])));
    }""")
    assert rows, "the grid shows no rows"
    wrong = []
    for row in rows:
        role = None if row["role"] in ("—", "", "None") else row["role"]
        monster = wb.build_monster(int(row["level"]), row["organization"], role)
        for column in ("ev", "stamina", "free_strike"):
            if row[column] != str(getattr(monster, column)):
                wrong.append((row["level"], row["organization"], role, column, row[column]))
    assert wrong == []
    app.screenshot("grid", APP)


def test_what_if_a_brute_had_more_stamina(app):
    app.pick("Number", "Stamina", APP)
    section = f'{APP} .jupyter-widget-Collapse:has(> .jupyter-widget-Collapse-header span:text-is("roles: brute"))'
    app.page.locator(f"{section} > .jupyter-widget-Collapse-header").click()
    core = wb.core_ruleset()
    raised = core.roles["brute"].stamina_modifier + 5
    app.fill("stamina modifier", str(raised), section)
    variant = core.updated({"roles": {"brute": {"stamina_modifier": raised}}})
    high = app.page.locator(f"{APP} .widget-slider .noUi-handle-upper").first.evaluate(
        "h => +h.getAttribute('aria-valuenow')")
    new = expected_curves(app, "stamina", 1, high, ruleset=variant)
    name = f"platoon brute ({variant.name})"
    app.wait_for_plot(WHATIF, "(t, a) => t.some(x => x.name === a[0] && JSON.stringify(x.y) === "
                      "JSON.stringify(a[1]))", [name, new["platoon brute"]])
    drawn = [t for t in app.plot_data(WHATIF) if t["name"] == name]
    assert drawn[-1]["y"] == new["platoon brute"]
    # the rules as loaded stay drawn beside it (the dashed "(core)" curve)
    old = expected_curves(app, "stamina", 1, high)
    assert [t["y"] for t in app.plot_data(WHATIF) if t["name"] == f"platoon brute ({core.name})"] == [
        old["platoon brute"]
    ]
    app.page.locator(f"{APP} .wb-differences table").wait_for()
    app.screenshot("what-if", APP)


def test_no_console_errors(app):
    assert app.console_errors == []
