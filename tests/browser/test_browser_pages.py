"""The workbench page of `workbench app`, as a Director meets it: a journey by mouse and keyboard, then every other
tool at 1024 and 1440 px with its text and layout checked.

The journey: landing page → the workbench page → build a level 2 minion brute and save it → an encounter for four
level 2 heroes with eight of it → the fight, where that squad takes damage and Malice runs for two rounds
(Malicious Strike refused in round 2 with the rule's reason). Links are followed by their titles (the landing
page's, then the workbench page's bar), controls moved by mouse and keys. Expected numbers come from the library
in this process (`build_monster`, `SquadTracker`, `MaliceTracker`), never typed in.

Every tool is checked at 1024 and 1440 px (pictured at each with WORKBENCH_TEST_SHOTS=1:
test-artifacts/page-<name>-<width>.png), its time to usable recorded in test-artifacts/page-times.json: the
journey's three tools as the journey arrives on them, the other tools brought into view on a workbench page of
their own, and the fight's player view (a page of its own, for a second screen) opened on its own.
The text check fails on what a Director must never read (`NaN`, `None`, `<NA>`, `got '`, a temporary path, a
Python tuple or list, `Traceback`, a code name such as `free_strike` or `compare_solos()`); the layout check on a label cut with an ellipsis, an input too narrow for
a number, a chart wider than its place, a chart's title, legend or axis title cut off, a legend that scrolls,
or an axis title drawn over a plotting area.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from page_errors import PageErrors
from test_browser_workbench import READY as TOOL_READY
from test_browser_workbench import view as tool_view
from voila_page import SHOTS, AppPage
from voila_server import PAGE_TIMEOUT

import workbench as wb
from workbench.apps.encounter import SHORTCUTS
from workbench.apps.shell import tools
from workbench.apps.tools import IN_BUILDER
from workbench.fight.malice_features import basic_malice_features
from workbench.fight.malice_tracker import MaliceTracker
from workbench.fight.squad import SquadTracker, make_squad
from workbench.server.site import PAGE_ORDER, WORKBENCH_PAGE, pages

# a page that is no tool of the workbench page (the fight's player view) is ready once it shows the fight
READY = "#rendered_cells .wb-page .wb-players"
MONSTER_NAME = "Rat Pack"
DEADLINES_PASSED = """() => new Promise(done => {
  const model = AbortSignal.timeout(2000), other = AbortSignal.timeout(100), fired = [];
  // Voilà's widget manager's deadline for its control comm (told apart by its message), and another 4 s timer
  setTimeout(() => fired.push("Control comm did not respond in time"), 4000);
  setTimeout(() => fired.push("another 4000 ms timer"), 4000);
  setTimeout(() => done({"2000 ms": model.aborted, "100 ms": other.aborted, fired}), 4500);
})"""
WIDTHS = (1024, 1440)
JOURNEY_PAGES = ("monster", "encounter", "fight")  # checked at both widths as the journey arrives on them
ONE_PAGE = ("workbench",)  # every tool on one page: test_browser_workbench.py
# the tools the journey does not use, brought into view on one workbench page
OTHER_TOOLS = tuple(t.key for t in tools() if t.key in PAGE_ORDER and t.key not in JOURNEY_PAGES)
OWN_PAGES = tuple(name for name in PAGE_ORDER if name not in JOURNEY_PAGES + ONE_PAGE + OTHER_TOOLS)  # no tool's
TITLES = {p.file.removesuffix(".ipynb"): p.title for p in pages()}
TOOL_TITLES = {t.key: t.title for t in tools()}

FORBIDDEN_TEXT = {
    "NaN": re.compile(r"\bNaN\b"),
    "None": re.compile(r"\bNone\b"),
    "<NA>": re.compile(r"<NA>"),
    "got '": re.compile(r"got '"),
    "a temporary path": re.compile(r"/tmp/|/var/folders/|pytest-of-|\\Temp\\"),
    "a Python tuple or list": re.compile(r"\(\s*'[^']*',\s*\)|\(\s*'[^']*',\s*'|\[\s*\(|\[\s*'[^']*'\s*[,\]]|\{\s*'[^']*'\s*:"),
    "Traceback": re.compile(r"Traceback"),
    "a code name": re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b\w+\(\)|\bwb\.\w+"),
}

LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
                       getComputedStyle(e).visibility !== 'hidden'; };
  const words = e => (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 50);
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  // the part of the page an element can be seen in: the window, narrowed by every ancestor that clips
  const room = e => {
    let r = {left: 0, right: document.documentElement.clientWidth};
    for (let a = e.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible') { const b = a.getBoundingClientRect();
        r = {left: Math.max(r.left, b.left), right: Math.min(r.right, b.right)}; }
    }
    return r;
  };
  const cut = '.widget-label, .widget-label-basic span, .lm-TabBar-tabLabel, .widget-toggle-buttons button, ' +
              'button.jupyter-button, .widget-dropdown select';
  for (const e of document.querySelectorAll(`#rendered_cells :is(${cut})`)) {
    if (!shown(e)) continue;
    if (e.tagName === 'SELECT') {
      const text = e.selectedOptions[0] ? e.selectedOptions[0].text : '';
      const probe = document.createElement('span'); probe.style.font = getComputedStyle(e).font;
      probe.style.position = 'absolute'; probe.style.whiteSpace = 'pre'; probe.textContent = text;
      document.body.appendChild(probe); const need = probe.getBoundingClientRect().width; probe.remove();
      if (need > e.clientWidth - 20) problems.push(`picker too narrow for "${text.slice(0, 40)}"`);
    } else if (e.scrollWidth > e.clientWidth + 1) problems.push(`label cut: "${words(e)}"`);
  }
  for (const e of document.querySelectorAll('#rendered_cells :is(.widget-text, .widget-textarea) :is(input, textarea)')) {
    if (shown(e) && e.getBoundingClientRect().width < 56)
      problems.push(`input ${Math.round(e.getBoundingClientRect().width)} px wide: "${words(e.closest('.widget-inline-hbox') || e)}"`);
  }
  for (const plot of document.querySelectorAll('#rendered_cells .js-plotly-plot')) {
    if (!shown(plot)) continue;
    const svg = plot.querySelector('.main-svg').getBoundingClientRect();
    const where = room(plot);
    const title = words(plot.querySelector('.gtitle') || plot);
    if (svg.right > where.right + 1 || svg.left < where.left - 1)
      problems.push(`chart "${title}" wider than its place (${Math.round(svg.right - where.right)} px cut)`);
    const texts = plot.querySelectorAll('.infolayer .gtitle, .infolayer .annotation-text-g, ' +
                                        '.infolayer g[class^="g-x"], .infolayer g[class^="g-y"], .legend');
    for (const t of texts) {
      const r = t.getBoundingClientRect();
      if (r.width && !inside(r, svg)) problems.push(`chart "${title}": "${words(t)}" cut off`);
    }
    for (const bar of plot.querySelectorAll('.legend .scrollbar')) {
      const r = bar.getBoundingClientRect(); if (r.height > 0) problems.push(`chart "${title}": its legend scrolls`);
    }
    const areas = [...plot.querySelectorAll('.draglayer .nsewdrag')].map(e => e.getBoundingClientRect());
    for (const t of plot.querySelectorAll('.infolayer g[class^="g-x"] text, .infolayer g[class^="g-y"] text')) {
      const r = t.getBoundingClientRect();
      if (r.width && areas.some(a => overlap(r, a))) problems.push(`chart "${title}": axis title "${words(t)}" over the plot`);
    }
  }
  return problems;
}"""


def visible_text_problems(text: str) -> list[str]:
    """What a Director must never read, each with the line it is on."""
    found = []
    for what, pattern in FORBIDDEN_TEXT.items():
        for match in pattern.finditer(text):
            end = text.find("\n", match.end())
            line = text[text.rfind("\n", 0, match.start()) + 1: end if end >= 0 else len(text)]
            found.append(f"{what}: {line.strip()[:140]!r}")
    return found


def test_the_text_check_can_fail():
    sample = ("Pool NaN\nrole None\n81 <NA>\nname: got 'x'\nsaved to /tmp/homebrew-vyt_oca0\n"
              "('Escort: delicate',)\n[('bandit toughs', 1)]\n{'Goblin': 1}\nTraceback (most recent call last)\n"
              "free_strike 4\ncall malice_app() or wb.compare_solos")
    assert {problem.split(":")[0] for problem in visible_text_problems(sample)} == set(FORBIDDEN_TEXT)
    assert visible_text_problems("None of the heroes (2, 3) fell; 4 × Goblin [level 2]") == [
        "None: 'None of the heroes (2, 3) fell; 4 × Goblin [level 2]'"]  # capital None is refused even in prose


def whole_page(app: AppPage, file: str) -> Path | None:
    """A PNG of the whole page, top to bottom (the window made as tall as the page for the shot), when pictures
    are asked for (`voila_page.SHOTS`)."""
    if not SHOTS:
        return None
    size = app.page.viewport_size
    height = app.js("() => Math.max(document.documentElement.scrollHeight, "
                    "document.querySelector('#rendered_cells')?.scrollHeight || 0)")
    app.page.set_viewport_size({"width": size["width"], "height": height + 20})
    try:
        path = app.artifacts_dir / file
        app.page.screenshot(path=str(path), full_page=True)
    finally:
        app.page.set_viewport_size(size)
    return path


def watched(browser, voila_url: str, artifacts_dir: Path, page_errors: PageErrors, name: str,
            width: int) -> AppPage:
    """A page of its own, offline but for the server (conftest.OFFLINE); any console or page error fails the
    test (conftest.py)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    return AppPage(context.new_page(), name, artifacts_dir, page_errors)


def type_into(box, text: str) -> None:
    """Click a text box, select what is there, type `text`, then Tab away (the box sends its value)."""
    box.click()
    box.press("Control+a")
    box.type(text)
    box.press("Tab")


def follow(app: AppPage, title: str, tool: str) -> float:
    """Click the link titled `title` (the landing page's list or the workbench page's bar); seconds to `tool`
    usable."""
    started = time.monotonic()
    app.page.locator(f'a:text-is("{title}")').first.click()
    app.page.wait_for_selector(f"{tool_view(tool)} {TOOL_READY[tool]}", state="visible", timeout=PAGE_TIMEOUT)
    return time.monotonic() - started


@pytest.fixture(scope="module")
def page_times(artifacts_dir):
    times: dict[str, float] = {}
    yield times
    path = artifacts_dir / "page-times.json"
    path.write_text(json.dumps({name: round(seconds, 1) for name, seconds in times.items()}, indent=1) + "\n")


def reads_well_and_fits(app: AppPage, name: str) -> None:
    """At each width: a screenshot of the whole page, then the text and layout checks."""
    for width in WIDTHS:
        app.page.set_viewport_size({"width": width, "height": 900})
        app.settled()  # widgets and charts follow the window's new width
        whole_page(app, f"page-{name}-{width}.png")
        reads_well(app, f"{name} at {width} px")
        assert app.js(LAYOUT_PROBLEMS) == [], f"{name} at {width} px"


def reads_well(app: AppPage, where: str) -> None:
    """The text check alone (the journey's pages once it has used them: saved, bought, damaged, spent)."""
    assert visible_text_problems(app.page.locator("#rendered_cells").inner_text()) == [], where


def arrive(app: AppPage, name: str, page_times: dict[str, float]) -> None:
    """Follow the link to the page `name`, then check it as it opens at both widths (`reads_well_and_fits`)."""
    page_times[name] = follow(app, TITLES[name], name)
    assert app.page.title() == f"{TITLES[name]} · Draw Steel workbench"
    reads_well_and_fits(app, name)


def test_journey_monster_to_encounter_to_fight(browser, voila_url, app_token, artifacts_dir, page_errors,
                                               page_times):
    app = watched(browser, voila_url, artifacts_dir, page_errors, "journey", WIDTHS[0])
    page = app.page
    try:
        page.goto(f"{voila_url}/?token={app_token}", timeout=PAGE_TIMEOUT)  # the landing page: every page listed
        assert page.title() == "Draw Steel workbench"
        app.screenshot("1-landing")
        follow(app, TITLES["workbench"], "monster")

        # ---- build a level 2 minion brute, name it, save it
        arrive(app, "monster", page_times)
        # anywidget gives a chart's widget model 2 s to start, Voilà's widget manager gives the kernel 4 s to send
        # every widget's state; the pages' template gives them a minute and two (on a busy machine a missed
        # deadline left a chart, or a lesson's app, undrawn): 4.5 s on, neither has passed, other timers keep theirs
        assert app.js(DEADLINES_PASSED) == {"2000 ms": False, "100 ms": True, "fired": ["another 4000 ms timer"]}
        builder = f"{tool_view('monster')} .wb-builder"
        # the builder opens on its working; its chart, a tab away, reads well and fits as well
        page.set_viewport_size({"width": WIDTHS[0], "height": 900})
        app.tab("Scaling chart", builder).click()
        page.wait_for_selector(f"{builder} .wb-scaling-chart .main-svg", timeout=PAGE_TIMEOUT)
        reads_well_and_fits(app, "monster-chart")
        app.press_slider("Level", "ArrowRight", 1, builder)
        app.pick("Organization", "Minion", builder)
        app.pick("Role", "Brute", builder)
        minion = wb.build_monster(2, "minion", "brute")
        page.locator(f'{builder} .wb-stat-block[data-ev="{minion.ev}"]').wait_for()
        app.open_section("Text", builder)
        type_into(app.text_box("Name", builder), MONSTER_NAME)
        page.locator(f"{builder} .wb-stat-block-view:has-text('{MONSTER_NAME}')").wait_for()
        app.tab("Homebrew library", builder).click()
        app.button("Save", builder).click()
        page.locator(f"{builder} .wb-library .wb-ok:has-text('Saved')").wait_for()
        app.screenshot("2-monster-saved")
        reads_well(app, "monster, saved")

        # ---- an encounter for four level 2 heroes with eight of it
        arrive(app, "encounter", page_times)
        encounter = tool_view("encounter")
        assert app.slider_value("Heroes", encounter) == 4
        app.slide_to("Level", 2, encounter)
        app.open_section(SHORTCUTS, encounter)  # the Monster list is among the shortcuts
        app.pick("Monster", MONSTER_NAME + IN_BUILDER, encounter)  # the monster just built (and saved)
        # the row of the Monster picker: the editor has other Count boxes (its creature rows)
        row = f'{encounter} .widget-hbox:has(> .widget-dropdown > label.widget-label:text-is("Monster"))'
        type_into(app.text_box("Count", row), "8")
        app.button("Add monster", row).click()
        page.locator(f"{encounter} .wb-workspace-status:has-text('the fight runs this encounter')").wait_for()
        page.locator(f"{encounter} .widget-html-content:has-text('{MONSTER_NAME}')").first.wait_for()
        app.screenshot("3-encounter")
        reads_well(app, "encounter, bought")

        # ---- the fight: the squad and Malice come from that encounter
        arrive(app, "fight", page_times)
        summary = page.locator(".wb-fight-summary").inner_text()
        assert "4 heroes of level 2" in summary and f"8 × {MONSTER_NAME}" in summary, summary
        runner = ".wb-fight-runner"  # one board: one Malice, the squads and the turns of one fight
        malice_line = page.locator(f"{runner} .wb-fight-malice-line")
        strike = next(f for f in basic_malice_features() if f.name == "Malicious Strike")
        expected = MaliceTracker(4, 0)
        app.button("Next round", runner).click()
        expected.start_round()
        malice_line.filter(has_text=f"Malice: {expected.malice} ").wait_for()
        # the squad of this journey's monster (other browser tests may have left other creatures in the workspace)
        names = [n.replace("\xa0", " ") for n in app.dropdown("Creature", runner).locator("option").all_text_contents()]
        squad = next(n for n in names if n.startswith(MONSTER_NAME))  # its first squad (the fight splits eight)
        row = page.locator(f'{runner} .wb-fight-roster .wb-unit[data-unit="{squad}"]')
        size = int(re.search(r"(\d+) of (\d+) standing", row.inner_text()).group(2))
        expected_squad = SquadTracker(make_squad(minion.model_copy(update={"name": squad}), size))
        app.pick("Creature", squad, runner)
        for amount in (3, 4):
            app.fill("Amount", str(amount), runner)
            app.button("Damage", runner).click()
            expected_squad.damage(amount)
            row.filter(has_text=f"{expected_squad.squad.pool} / ").wait_for()
            assert f"{expected_squad.squad.alive} of {size} standing" in row.inner_text()
        app.pick("Feature", f"{strike.name} ({strike.cost})", runner)
        app.pick("By", squad, runner)
        app.button("Spend Malice", runner).click()
        expected.spend(strike, strike.cost, minion)
        malice_line.filter(has_text=f"Malice: {expected.malice} ").wait_for()
        app.button("Next round", runner).click()
        expected.start_round()
        malice_line.filter(has_text=f"Malice: {expected.malice} ").wait_for()
        app.button("Spend Malice", runner).click()  # Malicious Strike again, the next round: refused
        refusal = page.locator(f"{runner} .wb-refusal")
        refusal.wait_for()
        assert "can't be used two rounds in a row" in refusal.inner_text()
        assert f"Malice: {expected.malice} " in malice_line.inner_text()
        app.screenshot("4-fight")
        reads_well(app, "fight, two rounds on")
        assert app.console_errors == []
    finally:
        app.close()


def test_the_journey_and_the_other_pages_cover_every_page():
    assert sorted(JOURNEY_PAGES + ONE_PAGE + OTHER_TOOLS + OWN_PAGES) == sorted(PAGE_ORDER)
    assert OWN_PAGES == ("players",)  # the fight's player view, for a second screen


def test_every_other_tool_reads_well_and_fits_at_1024_and_1440(browser, voila_url, app_token, artifacts_dir,
                                                               page_errors, page_times):
    """The tools the journey does not use, each brought into view on the workbench page by its bar."""
    app = watched(browser, voila_url, artifacts_dir, page_errors, "page-workbench", WIDTHS[0])
    try:
        app.page.goto(f"{voila_url}/voila/render/{WORKBENCH_PAGE}?token={app_token}", timeout=PAGE_TIMEOUT)
        app.page.wait_for_selector(f"{tool_view('monster')} {TOOL_READY['monster']}", timeout=PAGE_TIMEOUT)
        assert spinner_motion(app) == ("rotation", "steps(8)")  # the template's rule wins over Voilà's
        for name in OTHER_TOOLS:
            started = time.monotonic()
            app.page.click(f".wb-tool-bar a[data-tool='{name}']")
            app.page.wait_for_selector(f"{tool_view(name)} {TOOL_READY[name]}", state="visible")
            page_times[name] = time.monotonic() - started
            assert app.page.title() == f"{TOOL_TITLES[name]} · Draw Steel workbench"
            reads_well_and_fits(app, name)
        app.page.emulate_media(reduced_motion="reduce")
        assert spinner_motion(app)[0] == "none"
        assert app.console_errors == []
    finally:
        app.close()


@pytest.mark.parametrize("name", OWN_PAGES)
def test_every_page_of_its_own_reads_well_and_fits_at_1024_and_1440(browser, voila_url, app_token, artifacts_dir,
                                                                    page_errors, page_times, name):
    app = watched(browser, voila_url, artifacts_dir, page_errors, f"page-{name}", WIDTHS[0])
    try:
        started = time.monotonic()
        app.page.goto(f"{voila_url}/voila/render/{name}.ipynb?token={app_token}", timeout=PAGE_TIMEOUT)
        app.page.wait_for_selector(READY, timeout=PAGE_TIMEOUT)
        page_times[name] = time.monotonic() - started
        assert app.page.title() == f"{TITLES[name]} · Draw Steel workbench"
        reads_well_and_fits(app, name)
        assert app.console_errors == []
    finally:
        app.close()


def spinner_motion(app: AppPage) -> tuple[str, str]:
    """The loading spinner's animation as the page's styles give it (Voilà removes the spinner once the page is
    ready: this asks with a new element of its class)."""
    name, timing = app.js("() => { const e = document.createElement('div'); e.className = 'spinner';"
                          " document.body.appendChild(e); const s = getComputedStyle(e);"
                          " const motion = [s.animationName, s.animationTimingFunction]; e.remove(); return motion; }")
    return name, timing
