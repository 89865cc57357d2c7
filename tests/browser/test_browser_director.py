"""A new Director's tasks on the app pages, by mouse and keyboard, no typed syntax, at 1024 px:

- build and save a monster, then save a copy of it at another level, with Save and Export in view;
- open a published Steel Compendium monster in the builder from the encounter tool's bestiary, and re-level it;
- build an encounter with a locked own monster plus a suggestion and save it; the app is stopped and started
  again on the same workbench folder (a real restart: the server this module started, on its port), and the
  encounter is opened again from the picker; the bestiary sits under the encounter at 1024 px, beside it at 1440;
- run a fight of that encounter: damage to the own monster to winded, Malice, the end of a round;
- an instant solo: a leader, then an elite of a role, at a level, beside the solo built from the formulas (the
  solos tool of the builder's workbench page);
- print the monster: the Export tab's card preview is the table copy, without the builder's notes.

At each step the test asserts what a Director would check on the page. The numbers a Director reads (Stamina,
winded, Malice, a solo's EV and Stamina) are worked out here from the rules' words; the rest come from the
library in this process. With WORKBENCH_TEST_SHOTS=1, pictures of each step go to test-artifacts/director-*.png.
"""

from __future__ import annotations

import math
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from kept_file import kept_file
from page_errors import PageErrors
from playwright.sync_api import expect
from test_browser_pages import LAYOUT_PROBLEMS
from voila_page import AppPage
from voila_server import PAGE_TIMEOUT, RUNNING, stop, wait_for_port

import workbench as wb
from workbench.apps.encounter import SHORTCUTS
from workbench.monster.library import save_monster
from workbench.server.app import HOST, TOKEN_ENV, free_port
from workbench.server.site import WORKBENCH_PAGE

BUILDER = ".wb-builder"
ENCOUNTER = ".wb-encounter-app"
RUNNER = ".wb-fight-runner"
READY_BUILDER = "#rendered_cells .wb-page .wb-builder .wb-explain-view .wb-explain"
READY_ENCOUNTER = "#rendered_cells .wb-page .wb-encounter-app .wb-encounter-summary .wb-ev-total"
WIDTH = 1024
NAME = "Grisk the Unbowed"
OWN = "Vask the Locked"  # the own monster of the encounter task, saved by the test (tasks run in any order)

NARROW_TEXT_BOXES = """() => [...document.querySelectorAll(
    '.wb-builder :is(.widget-text, .widget-textarea) :is(input, textarea)')]
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .filter(e => e.getBoundingClientRect().width < 60)
  .map(e => `${Math.round(e.getBoundingClientRect().width)} px: ${(e.closest('.widget-inline-hbox') || e)
    .textContent.trim().slice(0, 40)}`)"""
# where an element is, from the top of the page's scrolling panel (Voilà scrolls inside its own panel)
TOP_IN_PAGE = """e => { let top = e.getBoundingClientRect().top;
  for (let a = e.parentElement; a; a = a.parentElement) top += a.scrollTop; return top; }"""


def opened(browser, url: str, token: str, artifacts_dir: Path, page_errors: PageErrors, tool: str,
           ready: str, until_ready: Callable[[AppPage, str, Path], None], server_log: Path) -> AppPage:
    """The workbench page with `tool` in view, once `ready` (conftest's `until_ready`)."""
    context = browser.new_context(viewport={"width": WIDTH, "height": 900})
    app = AppPage(context.new_page(), f"director-{tool}", artifacts_dir, page_errors)
    app.page.goto(f"{url}/voila/render/{WORKBENCH_PAGE}?token={token}#tool={tool}", timeout=PAGE_TIMEOUT)
    until_ready(app, ready, server_log)
    return app


def type_into(box, text: str) -> None:
    box.click()
    box.press("Control+a")
    box.type(text)
    box.press("Tab")


# ---------------------------------------------------------------- the rules' numbers a Director checks

# Monster Basics, "Role and Damage Modifier Table" (role modifier; a leader's and a solo's are their own row,
# an elite adds +0 to its role's) and "Organization Modifier Table" (EV, Stamina); "Encounter Value and
# Stamina": EV = ((2 x Level) + 4) x Organization Modifier, Stamina = ((10 x Level) + Role Modifier) x
# Organization Modifier, each rounded up
ROLE_MODIFIER = {"ambusher": 20, "artillery": 10, "brute": 30, "controller": 10, "defender": 30, "harrier": 20,
                 "hexer": 10, "mount": 20, "support": 20, "leader": 30, "solo": 30}
EV_MODIFIER = {"elite": 2, "leader": 2, "solo": 6}
STAMINA_MODIFIER = {"elite": 2, "leader": 2, "solo": 5}


def rules_ev(level: int, organization: str) -> int:
    return math.ceil(Fraction(2 * level + 4) * EV_MODIFIER[organization])


def rules_stamina(level: int, organization: str, role: str | None = None) -> int:
    return math.ceil(Fraction(10 * level + ROLE_MODIFIER[role or organization]) * STAMINA_MODIFIER[organization])


def instant_solo_numbers(level: int, organization: str, role: str | None = None) -> tuple[int, int]:
    """Instant Solo Creature: "Multiply their EV by 3." "Multiply their Stamina by 2.5." (rounded up)."""
    return (3 * rules_ev(level, organization),
            math.ceil(Fraction(5, 2) * rules_stamina(level, organization, role)))


def malice_at_round(heroes: int, victories: int, rounds: int) -> int:
    """Malice after `rounds` rounds with nothing spent. Earning Malice: "At the start of combat, you gain Malice
    equal to the average number of Victories per hero. Then at the start of each combat round, you gain Malice
    equal to the number of heroes in the battle, plus the combat round number." """
    return victories + sum(heroes + r for r in range(1, rounds + 1))


# ---------------------------------------------------------------- the app stopped and started again


def loading(browser, url: str, token: str, artifacts_dir: Path, page_errors: PageErrors, tool: str) -> AppPage:
    """The workbench page asked for with `tool` in view and left loading (its notebook runs in the server
    meanwhile): `OwnApp.page` waits for it.

    Not `goto`, which waits at least for the server's answer to begin, and Voilà begins it once the page's
    kernel has started: the page is sent to the address as a click on a link would, and the test goes on."""
    context = browser.new_context(viewport={"width": WIDTH, "height": 900})
    app = AppPage(context.new_page(), f"director-app-{tool}", artifacts_dir, page_errors)
    app.page.evaluate("url => { setTimeout(() => { location.href = url; }, 0); }",
                      f"{url}/voila/render/{WORKBENCH_PAGE}?token={token}#tool={tool}")
    return app


class OwnApp:
    """`workbench app --no-preheat` on the session's workbench folder, started by this module so that it can stop
    it and start it again on the same port: a Director's restart. Without preheated kernels it listens in about
    a second.

    Each start names the tool the tests will want first from it; its workbench page is asked for as soon as it
    listens (`ahead`, before each test), so that its notebook runs while the tests that need none of it go on;
    the other tools are brought into view on that page by its bar (`page`)."""

    def __init__(self, workbench_home: Path, token: str, artifacts_dir: Path,
                 ask: Callable[[str, str], AppPage]) -> None:
        self.port = free_port()
        self.env = dict(os.environ, HOME=str(workbench_home.parent), WORKBENCH_HOME=str(workbench_home),
                        **{TOKEN_ENV: token})
        self.artifacts_dir = artifacts_dir
        self._ask = ask
        self.starts = 0
        self.process: subprocess.Popen | None = None
        self.log = artifacts_dir / "voila-server-director.log"
        self.wanted = ""
        self.pages: dict[str, AppPage] = {}

    def launch(self, wanted: str) -> None:
        """Start the server, whose workbench page the tests will open with the tool `wanted` in view."""
        self.starts += 1
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.log = self.artifacts_dir / f"voila-server-director-{self.starts}-{worker}.log"
        command = [sys.executable, "-m", "workbench.cli", "app", "--port", str(self.port), "--no-preheat"]
        with self.log.open("w") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                                            start_new_session=True)
        RUNNING.append(self.process)  # told to stop with the session's servers, should this module not stop it
        self.wanted, self.pages = wanted, {}

    def _listening(self) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            return probe.connect_ex((HOST, self.port)) == 0

    def ahead(self) -> None:
        """Ask for the wanted pages if the server listens now (never waits)."""
        if self.process is not None and not self.pages and self._listening():
            self._ask_all()

    def _ask_all(self) -> None:
        assert self.process is not None, "the server is not running"
        wait_for_port(self.port, self.process, self.log)
        url = f"http://{HOST}:{self.port}"
        self.pages = {WORKBENCH_PAGE: self._ask(url, self.wanted)}

    def page(self, tool: str, selector: str) -> AppPage:
        """This start's workbench page with `tool` in view (brought there by its bar), once `selector` is
        shown on it."""
        if not self.pages:
            self._ask_all()
        app = self.pages[WORKBENCH_PAGE]
        app.page.wait_for_selector(".wb-tool-bar", timeout=PAGE_TIMEOUT)
        if app.js("() => location.hash") != f"#tool={tool}":
            app.page.click(f".wb-tool-bar a[data-tool='{tool}']")
        app.page.wait_for_selector(selector, state="visible", timeout=PAGE_TIMEOUT)
        return app

    def stop(self) -> None:
        """Close this start's pages, then stop the server (its kernels shut down, it exits)."""
        for app in self.pages.values():
            app.close()
        self.pages = {}
        if self.process is not None:
            stop(self.process)
            RUNNING.remove(self.process)
            self.process = None


@dataclass
class Built:
    """The encounter the Director built and saved, and the app started again after it."""

    saved: wb.Encounter
    app: OwnApp

    @property
    def encounter(self) -> AppPage:
        return self.app.page("encounter", READY_ENCOUNTER)

    @property
    def fight(self) -> AppPage:
        return self.app.page("fight", f"{RUNNER} .wb-fight-strip")

    @property
    def builder(self) -> AppPage:
        return self.app.page("monster", READY_BUILDER)


OWN_APPS: list[OwnApp] = []  # this module's app while it runs


@pytest.fixture(scope="session", autouse=True)
def _own_app_launched(browser, app_token, artifacts_dir, page_errors, workbench_home):
    """The app this module stops and starts again, started as the first of this module's fixtures (session-scoped
    ones come first, and autouse ones first among them): it starts beside the app pages' server (`voila_url`),
    and its encounter page loads (`ahead`) while the first tests run. The Director's own monster of the encounter
    task is saved before, for that page's Monster list. `own_app` stops it at the module's end."""
    own_monster = wb.build_monster(3, "elite", "brute").model_copy(update={"name": OWN})
    save_monster(own_monster, OWN, workbench_home / "monsters", overwrite=True)
    app = OwnApp(workbench_home, app_token, artifacts_dir,
                 lambda url, name: loading(browser, url, app_token, artifacts_dir, page_errors, name))
    app.launch("encounter")
    try:
        yield app
    finally:
        app.stop()


@pytest.fixture(scope="module", autouse=True)
def own_app(_own_app_launched, workbench_home):
    """The module's app, asked for its pages before each test (`_pages_ahead`) and stopped at the module's end;
    the pages' shared encounter (the workspace) is put back after, for the other modules."""
    app = _own_app_launched
    with kept_file(workbench_home / "workspace.json"):
        OWN_APPS.append(app)
        try:
            yield app
        finally:
            OWN_APPS.remove(app)
            app.stop()


@pytest.fixture(autouse=True)
def _pages_ahead() -> None:
    for app in OWN_APPS:
        app.ahead()


@pytest.fixture(scope="module")
def built(own_app, workbench_home):
    """The encounter task up to the restart: a locked own monster plus a suggestion, saved by name; then the app
    stopped and started again on the same workbench folder and port, its workbench page asked for."""
    saved = _build_and_save(own_app.page("encounter", READY_ENCOUNTER), workbench_home)
    own_app.stop()
    own_app.launch("encounter")
    return Built(saved, own_app)


def _build_and_save(app: AppPage, workbench_home: Path) -> wb.Encounter:
    page = app.page
    app.slide_to("Heroes", 4, ENCOUNTER)
    app.slide_to("Level", 3, ENCOUNTER)
    app.pick("Aim for", "hard", ENCOUNTER)
    app.open_section(SHORTCUTS, ENCOUNTER)  # the Monster list is among the shortcuts
    own = page.locator(f"{ENCOUNTER} .widget-dropdown:has(> label:text-is('Monster')) option", has_text=OWN).first
    own.wait_for(state="attached")
    app.pick("Monster", own.inner_text(), ENCOUNTER)
    app.button("Add monster", ENCOUNTER).click()
    row = page.locator(f"{ENCOUNTER} .wb-encounter-row:has-text('{OWN}')")
    row.wait_for()
    assert "kept" in row.locator(".wb-row-lock").inner_text()
    app.button("Suggest an encounter", ENCOUNTER).click()
    page.locator(f"{ENCOUNTER} .wb-encounter-row >> nth=1").wait_for()
    assert page.locator(f"{ENCOUNTER} .wb-encounter-row:has-text('{OWN}')").count() == 1
    assert page.locator(f"{ENCOUNTER} .wb-encounter-row").count() >= 2
    file_box = app.text_box("File", ENCOUNTER)
    type_into(file_box, "grisk-ambush.json")
    # the page names the file Save will write once the name reached the kernel: a click before that would
    # overtake the typed name, which the browser holds back while the kernel is busy
    expect(page.locator(f"{ENCOUNTER} .wb-save-target")).to_contain_text("encounters/grisk-ambush.json",
                                                                          timeout=60_000)
    app.button("Save", ENCOUNTER).click()
    said = page.locator(f"{ENCOUNTER} .wb-encounter-files-said")  # beside Save
    expect(said).to_contain_text("Saved to", timeout=60_000)  # on a refusal: shows what the page said
    assert "encounters/grisk-ambush.json" in said.inner_text()
    saved = wb.load_encounter(workbench_home / "encounters" / "grisk-ambush.json")
    assert OWN in {c.name for c in saved.creatures}
    expect(page.locator(f"{ENCOUNTER} .wb-encounter-row")).to_have_count(len(saved.creatures), timeout=30_000)
    app.screenshot("saved", ENCOUNTER)
    return saved


@pytest.fixture(scope="module")
def monster_page(browser, voila_url, app_token, artifacts_dir, page_errors, until_ready, server_log):
    app = opened(browser, voila_url, app_token, artifacts_dir, page_errors, "monster", READY_BUILDER, until_ready,
                 server_log)
    yield app
    app.close()


def test_save_and_export_are_in_view_and_no_text_box_is_narrow(monster_page):
    app, page = monster_page, monster_page.page
    sections = ("Text", "Abilities", "Traits", "Malice features", "Villain actions", "Homebrew rules")
    for title in sections:
        app.open_section(title, BUILDER)
    # every section open and drawn (two frames after the last one opened)
    expect(page.locator(f"{BUILDER} .jupyter-widget-Collapse-open").nth(len(sections) - 1)).to_be_attached()
    app.js("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    for text in ("Save", "Export"):
        button = app.button(text, f"{BUILDER} .wb-block-actions")
        assert button.evaluate(TOP_IN_PAGE) + button.bounding_box()["height"] <= 900, text
    assert app.js(NARROW_TEXT_BOXES) == []
    app.screenshot("builder-open", BUILDER)


def test_an_encounter_with_a_locked_own_monster_and_a_suggestion_is_saved(built):
    # the file the page said it saved holds what the page showed (`_build_and_save` checked the page's words)
    saved = built.saved
    assert (saved.party.size, saved.party.average_level, saved.aim) == (4, 3, "hard")
    mine = [c for c in saved.creatures if c.name == OWN]
    assert len(mine) == 1 and mine[0].level == 3 and len(saved.creatures) >= 2


def test_build_and_save_a_monster_then_a_copy_at_another_level(monster_page):
    app, page = monster_page, monster_page.page
    app.pick("Organization", "Elite", BUILDER)
    app.pick("Role", "Brute", BUILDER)
    app.slide_to("Level", 3, BUILDER)
    elite = wb.build_monster(3, "elite", "brute")
    page.locator(f'{BUILDER} .wb-stat-block[data-ev="{elite.ev}"]').wait_for()
    app.open_section("Text", BUILDER)
    type_into(app.text_box("Name", BUILDER), NAME)
    type_into(app.text_box("Immunities", BUILDER), "Fire 5")
    page.locator(f"{BUILDER} .wb-stat-block-view:has-text('Fire 5')").wait_for()
    app.button("Save", f"{BUILDER} .wb-block-actions").click()
    saved = page.locator(f"{BUILDER} .wb-block-note:has-text('Saved as')")
    saved.wait_for()
    assert "Grisk" in saved.inner_text()
    app.tab("Move to another level", BUILDER).click()
    app.pick("Move to level", "5", BUILDER)
    app.button("Save a copy at level 5", BUILDER).click()
    copy = page.locator(f"{BUILDER} .wb-relevel-note:has-text('Saved a copy at level 5')")
    copy.wait_for()
    assert "level 5" in copy.inner_text()
    # the monster on the page stayed at level 3
    assert page.locator(f"{BUILDER} .wb-stat-block .wb-level").first.inner_text() == "3"
    app.screenshot("monster-saved", BUILDER)


def test_the_printed_card_is_the_table_copy(monster_page):
    app, page = monster_page, monster_page.page
    app.button("Export", f"{BUILDER} .wb-block-actions").click()
    app.button("Preview card", BUILDER).click()
    card = page.locator(f"{BUILDER} img, {BUILDER} .wb-card-preview").first
    card.wait_for(timeout=PAGE_TIMEOUT)
    # the JSON is folded away under "Advanced"
    assert page.locator(f"{BUILDER} .wb-export-advanced .jupyter-widget-Collapse-open").count() == 0
    app.screenshot("export", BUILDER)


ROW_PROBLEMS = """() => {
  const problems = [];
  for (const row of document.querySelectorAll('.wb-builder .wb-row')) {
    const width = row.getBoundingClientRect().width;
    if (!width) continue;
    for (const label of row.querySelectorAll('.widget-label')) {
      if (label.getBoundingClientRect().width && label.scrollWidth > label.clientWidth + 1)
        problems.push(`label cut: ${label.textContent.trim()}`);
    }
    for (const box of row.querySelectorAll('input, select')) {
      const w = box.getBoundingClientRect().width;
      if (w && w < 60) problems.push(`${Math.round(w)} px box: ${box.closest('.widget-inline-hbox')?.textContent.trim()}`);
    }
    for (const area of row.querySelectorAll('textarea')) {
      const w = area.getBoundingClientRect().width;
      if (w && w < 0.6 * width) problems.push(`text area ${Math.round(w)} of ${Math.round(width)} px`);
    }
  }
  return problems;
}"""


def test_a_homebrew_rule_and_a_trait_at_1024_px(monster_page):
    app, page = monster_page, monster_page.page
    page.set_viewport_size({"width": WIDTH, "height": 900})
    app.open_section("Homebrew rules", BUILDER)
    app.button("Add a homebrew rule", BUILDER).click()
    rule_row = page.locator(f"{BUILDER} .wb-rule-rows .wb-row").first
    rule_row.wait_for()
    choices = rule_row.locator("select").first.evaluate("s => [...s.options].map(o => o.text)")
    controls = rule_row.locator("input, select, textarea")  # found again each time: the row may be drawn anew
    before = controls.count()
    rule_row.locator("select").first.select_option(label=choices[-1])  # a module with parameters of its own
    expect(controls.nth(before)).to_be_attached()  # its parameters' boxes have come
    app.open_section("Traits", BUILDER)
    app.button("Add a trait", BUILDER).click()
    trait = page.locator(f"{BUILDER} .wb-trait-rows .wb-row").first
    trait.wait_for()
    type_into(trait.locator("input").first, "Pack Tactics")
    type_into(trait.locator("textarea").first, "Deals 2 extra damage while an ally is adjacent to the target.")
    page.locator(f"{BUILDER} .wb-stat-block-view:has-text('Pack Tactics')").wait_for()
    assert app.js(ROW_PROBLEMS) == []
    app.screenshot("rows-1024", BUILDER)


READY_SOLOS = "#rendered_cells .wb-tool-view-solos .wb-stat-block[data-ev]"
SOLOS = "#rendered_cells .wb-tool-view-solos"


def test_an_instant_solo_by_mouse_and_keyboard(monster_page):
    """On the builder's workbench page, the solos tool brought into view by its bar (the builder back after)."""
    app = monster_page
    app.page.click(".wb-tool-bar a[data-tool='solos']")
    app.page.wait_for_selector(READY_SOLOS, state="visible", timeout=PAGE_TIMEOUT)
    try:
        blocks = app.page.locator(f"{SOLOS} .wb-stat-block")

        def shows(level: int, organization: str, role: str | None) -> None:
            """The instant solo first, then the solo the formulas build at its level (a solo has no role)."""
            for block, (ev, stamina) in ((blocks.nth(0), instant_solo_numbers(level, organization, role)),
                                         (blocks.nth(1), (rules_ev(level, "solo"), rules_stamina(level, "solo")))):
                for attribute, value in (("data-level", level), ("data-ev", ev), ("data-stamina", stamina)):
                    expect(block).to_have_attribute(attribute, str(value))
                assert [block.locator(css).first.inner_text().strip() for css in (".wb-level", ".wb-ev", ".wb-stamina")
                        ] == [str(level), str(ev), str(stamina)]
            instant = blocks.nth(0).inner_text()
            for words in ("Solo Turns", "End Effect", "Solo Action"):  # what the rules give an instant solo
                assert words in instant, words

        start = app.slider_value("Level", SOLOS)
        level = 6 if start != 6 else 7
        app.slide_to("Level", level, SOLOS)
        shows(level, "leader", None)
        app.toggle("elite", SOLOS).click()
        app.pick("Role", "Hexer", SOLOS)
        shows(level, "elite", "hexer")
        app.press_slider("Level", "ArrowLeft", 2, SOLOS)
        shows(level - 2, "elite", "hexer")
        app.screenshot("elite-hexer", SOLOS)
    finally:
        app.page.click(".wb-tool-bar a[data-tool='monster']")  # the builder in view, on whichever tab it was
        app.page.wait_for_selector(f"#rendered_cells .wb-tool-view-monster {BUILDER}", state="visible",
                                   timeout=PAGE_TIMEOUT)


def test_a_published_monster_opens_in_the_builder_and_is_relevelled(built):
    encounter = built.encounter  # the workbench page already open (the bestiary is the same on every visit)
    page = encounter.page
    rows = page.locator(f"{ENCOUNTER} .wb-bestiary-rows select")
    everything = rows.evaluate("s => s.options.length")
    # the name pasted into the search box, so the list is narrowed once (typed key by key, every key re-lists
    # it, and a pick made before the last list arrives is lost): the first shorter list is the search's
    encounter.fill("Search", "Bugbear Channeler", ENCOUNTER)
    page.wait_for_function("([s, all]) => s.options.length < all", arg=[rows.element_handle(), everything])
    rows.select_option(label=rows.locator("option", has_text="Bugbear Channeler").first.inner_text())
    page.locator(f"{ENCOUNTER} .wb-bestiary-stat-block:has-text('Bugbear Channeler')").first.wait_for()
    encounter.button("Open in the builder", ENCOUNTER).click()
    page.wait_for_function("() => location.hash === '#tool=monster'")  # the builder in view, on the same page
    builder = built.builder
    page.locator(f"{BUILDER} .wb-stat-block-view .wb-name:has-text('Bugbear Channeler')").wait_for()
    builder.tab("Move to another level", BUILDER).click()
    builder.pick("Move to level", "4", BUILDER)
    builder.button("Use this level", BUILDER).click()
    page.locator(f"{BUILDER} .wb-stat-block .wb-level:text-is('4')").first.wait_for()
    assert "Bugbear Channeler" in page.locator(f"{BUILDER} .wb-stat-block .wb-name").first.inner_text()
    builder.screenshot("published-relevelled", BUILDER)


# where the encounter's creature rows and the bestiary are, as boxes (left, top, right, bottom)
SIDE_BY_SIDE = """() => [...document.querySelectorAll('.wb-encounter-side > *')].map(e => {
  const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""


def test_an_encounter_with_a_locked_own_monster_survives_a_restart(built):
    assert built.app.starts == 2  # the page comes from the app started again, the one it was saved on stopped
    app, page = built.encounter, built.encounter.page
    app.pick("Saved encounters", "grisk-ambush", ENCOUNTER)
    app.button("Open", ENCOUNTER).click()
    page.locator(f"{ENCOUNTER} .wb-encounter-row:has-text('{OWN}')").wait_for()
    expect(page.locator(f"{ENCOUNTER} .wb-encounter-row")).to_have_count(len(built.saved.creatures), timeout=30_000)
    for creature in built.saved.creatures:
        page.locator(f"{ENCOUNTER} .wb-encounter-row:has-text('{creature.name}')").first.wait_for()
    app.screenshot("reopened-1024", ENCOUNTER)
    # the bestiary under the creatures at 1024 px, beside them at 1440 px
    (rows, bestiary) = app.js(SIDE_BY_SIDE)
    assert bestiary[1] >= rows[3] - 1 and bestiary[0] == rows[0], (rows, bestiary)
    page.set_viewport_size({"width": 1440, "height": 900})
    try:
        page.wait_for_function(f"() => ({SIDE_BY_SIDE})()[1][0] > ({SIDE_BY_SIDE})()[0][0]")
        (rows, bestiary) = app.js(SIDE_BY_SIDE)
        assert bestiary[0] >= rows[2] and bestiary[1] == rows[1], (rows, bestiary)
        assert app.js(LAYOUT_PROBLEMS) == []
        app.screenshot("reopened-1440", ENCOUNTER)
    finally:
        page.set_viewport_size({"width": WIDTH, "height": 900})


def test_a_fight_of_the_encounter_the_director_built(built):
    """Malice as the rules give it, a blow to the Director's own monster down to winded, the end of a round."""
    app = built.fight
    page = app.page
    heroes, level = 4, 3  # the party the encounter task set, no Victories
    roster = page.locator(f"{RUNNER} .wb-fight-roster")
    for creature in built.saved.creatures:
        assert creature.name in roster.inner_text()
    own = page.locator(f'{RUNNER} .wb-fight-roster .wb-unit[data-unit="{OWN}"]')
    stamina = rules_stamina(level, "elite", "brute")  # the own monster: a level 3 elite brute
    assert f"{stamina} / {stamina}" in own.inner_text()

    app.button("Next round", RUNNER).click()
    malice = page.locator(f"{RUNNER} .wb-fight-malice-line")
    malice.filter(has_text=re.compile(rf"Malice: {malice_at_round(heroes, 0, 1)}\b")).wait_for()
    app.pick("Who acts", "Hero 1", RUNNER)
    app.button("Start turn", RUNNER).click()
    app.pick("Creature", OWN, RUNNER)
    # winded: at half its Stamina or less; a blow that leaves one more than half is not enough
    app.fill("Amount", str(stamina - stamina // 2 - 1), RUNNER)
    app.button("Damage", RUNNER).click()
    own.filter(has_text=f"{stamina // 2 + 1} / {stamina}").wait_for()
    assert "winded" not in own.inner_text()
    app.fill("Amount", "1", RUNNER)
    app.button("Damage", RUNNER).click()
    own.filter(has_text=f"{stamina // 2} / {stamina}").wait_for()
    assert "winded" in own.inner_text()
    # the players see the word, never the numbers
    players = page.locator(f"{RUNNER} .wb-fight-players")
    players.filter(has_text=f"{OWN}: winded").wait_for()
    assert f"{stamina // 2} / {stamina}" not in players.inner_text()
    app.button("End turn", RUNNER).click()
    app.button("End round", RUNNER).click()
    page.locator(f"{RUNNER} .wb-fight-strip:has-text('Round 1 (ended)')").wait_for()
    app.button("Next round", RUNNER).click()
    page.locator(f"{RUNNER} .wb-fight-strip:has-text('Round 2')").wait_for()
    malice.filter(has_text=re.compile(rf"Malice: {malice_at_round(heroes, 0, 2)}\b")).wait_for()
    assert page.locator(f"{RUNNER} .wb-refusal").count() == 0  # nothing was refused on the way
    app.screenshot("round-2", RUNNER)
