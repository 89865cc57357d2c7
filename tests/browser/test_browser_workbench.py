"""The workbench page as a Director uses it: every tool through the bar and back through the browser's Back, each
keeping its work, a monster built, added to an encounter and fought, the fight's Victories on the encounter view
at once, and a reload on a tool reopening it with the encounter as it was kept.

The page is opened at the address `workbench app` prints, on a workspace of four level 1 heroes and no creatures
(written before the page opens; the one before is put back after). Expected numbers come from the library in
this process (`build_monster`, `Fight`), never typed in.
"""

from __future__ import annotations

import pytest
from kept_file import kept_file
from playwright.sync_api import expect
from voila_page import AppPage
from voila_server import PAGE_TIMEOUT

import workbench as wb
from workbench.apps.encounter import SHORTCUTS
from workbench.apps.shell import tools
from workbench.apps.tools import IN_BUILDER
from workbench.encounter.encounter import creature_from_monster
from workbench.fight.fight import Fight
from workbench.numbers import format_number
from workbench.server.site import WORKBENCH_PAGE
from workbench.workspace.state import default_workspace, save_workspace

NAME = "Bone Gnawer"  # a name no other browser test saves (the Monster list tells two of one name apart)
ROLE = "ambusher"  # the builder's first role, with its first organization (platoon)
TITLES = {tool.key: tool.title for tool in tools()}
# Each tool usable: its own output drawn in its view
READY = {
    "monster": ".wb-builder .wb-explain-view .wb-explain",
    "solos": ".js-plotly-plot .main-svg",
    "encounter": ".wb-encounter-summary .wb-ev-total",
    "adventure": ".wb-adventure-chart .main-svg",
    "fight": ".wb-fight",
    "homebrew": ".wb-swarm-result",
    "calibration": ".js-plotly-plot .main-svg",
    "lessons": ".wb-tool-head",
}


# The class of every tool view shown is `shown`: the one in view, and no other.
ONLY_VIEW = """shown => [...document.querySelectorAll('.wb-tool-view')].filter(v => v.offsetParent !== null)
  .map(v => [...v.classList].find(c => c.startsWith('wb-tool-view-'))).join() === shown"""


def view(key: str) -> str:
    return f"#rendered_cells .wb-tool-view-{key}"


@pytest.fixture
def workbench(browser, voila_url, app_token, artifacts_dir, page_errors, workbench_home):
    """The workbench page on a fresh workspace; the workspace file is put back after."""
    with kept_file(workbench_home / "workspace.json") as path:
        path.unlink(missing_ok=True)
        save_workspace(default_workspace(), path)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        app = AppPage(context.new_page(), "workbench", artifacts_dir, page_errors)
        try:
            yield app, f"{voila_url}/voila/render/{WORKBENCH_PAGE}?token={app_token}"
        finally:
            app.close()


def in_view(app: AppPage, key: str) -> None:
    """Tool `key` is usable, the only view shown, named by the address and the page's title."""
    app.page.wait_for_selector(f"{view(key)} {READY[key]}", state="visible")
    app.page.wait_for_function(ONLY_VIEW, arg=f"wb-tool-view-{key}")  # the one left hidden as the kernel says
    app.page.wait_for_function("key => location.hash === '#tool=' + key", arg=key)
    assert app.page.title() == f"{TITLES[key]} · Draw Steel workbench"
    assert app.page.locator(".wb-tool-bar a[aria-current='page']").inner_text() == TITLES[key]


def go(app: AppPage, key: str) -> None:
    app.page.click(f".wb-tool-bar a[data-tool='{key}']")
    in_view(app, key)


def test_every_tool_keeps_its_work_and_a_monster_goes_from_the_builder_to_the_fight(workbench):
    app, url = workbench
    page = app.page
    page.goto(url, timeout=PAGE_TIMEOUT)
    page.wait_for_selector(f"{view('monster')} {READY['monster']}", timeout=PAGE_TIMEOUT)
    in_view(app, "monster")

    # ---- the builder: a level 2 monster named Rat Pack
    builder = view("monster")
    app.open_section("Text", builder)
    app.fill("Name", NAME, builder)
    app.press_slider("Level", "ArrowRight", 1, builder)
    rat = wb.build_monster(2, "platoon", ROLE).model_copy(update={"name": NAME})
    page.locator(f"{builder} .wb-stat-block[data-ev='{rat.ev}']:has-text('{NAME}')").wait_for()
    # Export, above the block, opens its tab far below it and brings it into view
    tabs = page.locator(f"{builder} .wb-builder-tabs")
    assert tabs.evaluate("e => e.getBoundingClientRect().top > window.innerHeight")  # below the fold until then
    app.button("Export", f"{builder} .wb-block-actions").click()
    expect(tabs).to_be_in_viewport()
    app.tab("How was this computed", builder).click()  # the working again, as the builder opens

    # ---- every tool by the bar; the encounter adds the builder's monster, the solos' level moves
    go(app, "solos")
    app.press_slider("Level", "ArrowRight", 2, view("solos"))
    solo_level = app.slider_value("Level", view("solos"))
    go(app, "encounter")
    encounter = view("encounter")
    app.open_section(SHORTCUTS, encounter)  # the Monster list is among the shortcuts
    picked = app.dropdown("Monster", encounter).evaluate("s => s.selectedOptions[0].text").replace("\xa0", " ")
    assert picked == NAME + IN_BUILDER
    row = f'{encounter} .widget-hbox:has(> .widget-dropdown > label.widget-label:text-is("Monster"))'
    app.fill("Count", "3", row)
    app.button("Add monster", row).click()
    page.locator(f"{encounter} .wb-workspace-status:has-text('Kept')").wait_for()
    rows = page.locator(f"{encounter} .wb-encounter-rows")
    rows.filter(has_text=NAME).wait_for()
    for key in ("adventure", "fight", "homebrew", "calibration", "lessons"):
        go(app, key)

    # ---- Back goes to the tool before, each as it was
    for key in ("calibration", "homebrew", "fight", "adventure", "encounter"):
        page.go_back()
        in_view(app, key)
    assert NAME in rows.inner_text()
    go(app, "solos")
    assert app.slider_value("Level", view("solos")) == solo_level
    go(app, "monster")
    assert app.text_box("Name", builder).input_value() == NAME
    assert app.slider_value("Level", builder) == 2

    # ---- the fight of that encounter, ended by the Director, its Victories the party's at once
    enc = wb.Encounter(party=wb.make_party(heroes=4, level=1)).adding(creature_from_monster(rat, 3))
    expected = Fight(enc, (rat,))
    go(app, "fight")
    fight = view("fight")
    page.locator(f"{fight} .wb-fight-summary:has-text('3 × {NAME}')").wait_for()
    app.button("Next round", fight).click()
    expected.start_round()
    page.locator(f"{fight} .wb-fight-strip:has-text('Round 1')").wait_for()
    app.pick("How", "The foes surrender", fight)
    app.button("End the fight", fight).click()
    expected.end("the foes surrender", True, expected.victories_for_success)
    earned = format_number(expected.result().victories_after)
    assert expected.ended and expected.result().victories_after > 0
    page.locator(f"{fight} .wb-fight-carried:has-text('written')").wait_for()
    go(app, "encounter")
    expect(app.text_box("Victories", encounter)).to_have_value(earned)  # no reload

    # ---- a reload on a tool opens it again, the encounter as it was kept
    page.reload(timeout=PAGE_TIMEOUT)
    page.wait_for_selector(f"{encounter} {READY['encounter']}", state="visible", timeout=PAGE_TIMEOUT)
    in_view(app, "encounter")
    assert app.text_box("Victories", encounter).input_value() == earned
    page.locator(f"{encounter} .wb-encounter-rows").filter(has_text=NAME).wait_for()
    assert app.console_errors == []
