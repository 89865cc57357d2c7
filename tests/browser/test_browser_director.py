"""A new Director's tasks on the app pages, by mouse and keyboard, no typed syntax, at 1024 px:

- build and save a monster, then save a copy of it at another level, with Save and Export in view;
- open a published Steel Compendium monster in the builder from the encounter page's bestiary, and re-level it;
- build an encounter with a locked own monster plus a suggestion, save it, and open it again from the picker
  on the other server of the session (another process with the same workbench folder: a restart);
- print the monster: the Export tab's card preview is the table copy, without the builder's notes.

At each step the test asserts what a Director would check on the page. Expected numbers come from the library
in this process. Screenshots go to test-artifacts/director-*.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from page_errors import PageErrors
from playwright.sync_api import expect
from voila_page import AppPage
from voila_server import PAGE_TIMEOUT

import workbench as wb
from workbench.monster.library import save_monster

BUILDER = ".wb-builder"
ENCOUNTER = ".wb-encounter-app"
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


def opened(browser, url: str, token: str, artifacts_dir: Path, page_errors: PageErrors, name: str,
           ready: str) -> AppPage:
    context = browser.new_context(viewport={"width": WIDTH, "height": 900})
    app = AppPage(context.new_page(), f"director-{name}", artifacts_dir, page_errors)
    app.page.goto(f"{url}/voila/render/{name}.ipynb?token={token}", timeout=PAGE_TIMEOUT)
    app.page.wait_for_selector(ready, timeout=PAGE_TIMEOUT)
    return app


def type_into(box, text: str) -> None:
    box.click()
    box.press("Control+a")
    box.type(text)
    box.press("Tab")


@pytest.fixture(scope="module")
def monster_page(browser, voila_url, app_token, artifacts_dir, page_errors):
    app = opened(browser, voila_url, app_token, artifacts_dir, page_errors, "monster", READY_BUILDER)
    yield app
    app.close()


def test_save_and_export_are_in_view_and_no_text_box_is_narrow(monster_page):
    app, page = monster_page, monster_page.page
    for title in ("Text", "Abilities", "Traits", "Malice features", "Villain actions", "Homebrew rules"):
        app.open_section(title, BUILDER)
    page.wait_for_timeout(500)
    for text in ("Save", "Export"):
        button = app.button(text, f"{BUILDER} .wb-block-actions")
        assert button.evaluate(TOP_IN_PAGE) + button.bounding_box()["height"] <= 900, text
    assert app.js(NARROW_TEXT_BOXES) == []
    app.screenshot("builder-open", BUILDER)


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


def test_a_published_monster_opens_in_the_builder_and_is_relevelled(browser, voila_url, app_token,
                                                                     artifacts_dir, page_errors):
    encounter = opened(browser, voila_url, app_token, artifacts_dir, page_errors, "encounter", READY_ENCOUNTER)
    try:
        page = encounter.page
        rows = page.locator(f"{ENCOUNTER} .wb-bestiary-rows select")
        everything = rows.evaluate("s => s.options.length")
        type_into(encounter.text_box("Search", ENCOUNTER), "Bugbear Channeler")
        # the whole search has narrowed the list: every key re-lists it, and a pick made before the last list
        # arrives is lost, so wait for a shorter list that has stayed the same for a second
        rows.evaluate("(s, all) => new Promise(done => { let last = '', since = Date.now(); const check = () => {"
                      " const now = Array.from(s.options, o => o.text).join('|');"
                      " if (now !== last) { last = now; since = Date.now(); }"
                      " if (s.options.length < all && Date.now() - since >= 1000) done(); else setTimeout(check, 100);"
                      " }; check(); })", everything)
        rows.select_option(label=rows.locator("option", has_text="Bugbear Channeler").first.inner_text())
        page.locator(f"{ENCOUNTER} .wb-bestiary-stat-block:has-text('Bugbear Channeler')").first.wait_for()
        encounter.button("Open in the builder", ENCOUNTER).click()
        link = page.locator(f"{ENCOUNTER} a.wb-open-builder-link")
        link.wait_for()
        encounter.screenshot("handed-over", ENCOUNTER)
    finally:
        encounter.close()
    builder = opened(browser, voila_url, app_token, artifacts_dir, page_errors, "monster", READY_BUILDER)
    try:
        page = builder.page
        page.locator(f"{BUILDER} .wb-stat-block-view .wb-name:has-text('Bugbear Channeler')").wait_for()
        builder.tab("Move to another level", BUILDER).click()
        builder.pick("Move to level", "4", BUILDER)
        builder.button("Use this level", BUILDER).click()
        page.locator(f"{BUILDER} .wb-stat-block .wb-level:text-is('4')").first.wait_for()
        assert "Bugbear Channeler" in page.locator(f"{BUILDER} .wb-stat-block .wb-name").first.inner_text()
        builder.screenshot("published-relevelled", BUILDER)
    finally:
        builder.close()


def test_an_encounter_with_a_locked_own_monster_survives_a_restart(browser, voila_url, lesson_url, app_token,
                                                                    artifacts_dir, page_errors, workbench_home):
    own_monster = wb.build_monster(3, "elite", "brute").model_copy(update={"name": OWN})
    save_monster(own_monster, OWN, workbench_home / "monsters", overwrite=True)
    shared = workbench_home / "workspace.json"  # the pages' shared encounter, put back for the other modules
    before = shared.read_bytes() if shared.exists() else None
    try:
        _locked_own_monster_survives_a_restart(browser, voila_url, lesson_url, app_token, artifacts_dir, page_errors,
                                               workbench_home)
    finally:
        if before is None:
            shared.unlink(missing_ok=True)
        else:
            shared.write_bytes(before)


def _locked_own_monster_survives_a_restart(browser, voila_url, lesson_url, app_token, artifacts_dir, page_errors,
                                           workbench_home):
    app = opened(browser, voila_url, app_token, artifacts_dir, page_errors, "encounter", READY_ENCOUNTER)
    try:
        page = app.page
        app.slide_to("Heroes", 4, ENCOUNTER)
        app.slide_to("Level", 3, ENCOUNTER)
        app.pick("Aim for", "hard", ENCOUNTER)
        own = page.locator(f"{ENCOUNTER} .widget-dropdown:has(> label:text-is('Monster')) option",
                           has_text=OWN).first
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
        type_into(app.text_box("File", ENCOUNTER), "grisk-ambush.json")
        app.button("Save", ENCOUNTER).click()
        said = page.locator(f"{ENCOUNTER} .wb-encounter-message:has-text('Saved to')")
        said.wait_for()
        assert "encounters/grisk-ambush.json" in said.inner_text()
        saved = wb.load_encounter(workbench_home / "encounters" / "grisk-ambush.json")
        assert OWN in {c.name for c in saved.creatures}
        expect(page.locator(f"{ENCOUNTER} .wb-encounter-row")).to_have_count(len(saved.creatures), timeout=30_000)
        app.screenshot("encounter-saved", ENCOUNTER)
    finally:
        app.close()
    # the other server of the session: another process, the same workbench folder
    again = opened(browser, lesson_url, app_token, artifacts_dir, page_errors, "encounter", READY_ENCOUNTER)
    try:
        page = again.page
        again.pick("Saved encounters", "grisk-ambush", ENCOUNTER)
        again.button("Open", ENCOUNTER).click()
        page.locator(f"{ENCOUNTER} .wb-encounter-row:has-text('{OWN}')").wait_for()
        expect(page.locator(f"{ENCOUNTER} .wb-encounter-row")).to_have_count(len(saved.creatures), timeout=30_000)
        again.screenshot("encounter-reopened", ENCOUNTER)
    finally:
        again.close()


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
    rule_row.locator("select").first.select_option(label=choices[-1])  # a module with parameters of its own
    page.wait_for_timeout(500)
    app.open_section("Traits", BUILDER)
    app.button("Add a trait", BUILDER).click()
    trait = page.locator(f"{BUILDER} .wb-trait-rows .wb-row").first
    trait.wait_for()
    type_into(trait.locator("input").first, "Pack Tactics")
    type_into(trait.locator("textarea").first, "Deals 2 extra damage while an ally is adjacent to the target.")
    page.locator(f"{BUILDER} .wb-stat-block-view:has-text('Pack Tactics')").wait_for()
    assert app.js(ROW_PROBLEMS) == []
    app.screenshot("rows-1024", BUILDER)
