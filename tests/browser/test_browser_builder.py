"""notebooks/01_monster_builder.ipynb in Voilà: the builder driven by keyboard and mouse in headless Chromium.

Expected numbers come from `build_monster` in this process (the library is tested against the rules text
elsewhere); what these tests prove is that the page a Director sees shows exactly those numbers after
each move, that a save lands in the library listing, and that typed text is never run as HTML.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

import workbench as wb
from workbench.monster.library import list_monsters, load_monster

NOTEBOOK = "01_monster_builder.ipynb"
APP = ".wb-builder"
BLOCK = f"{APP} .wb-stat-block-view .wb-stat-block"
CHART = f"{APP} .wb-scaling-chart"
XSS_NAME = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, BLOCK)
    page.screenshot("opened", APP)
    yield page
    page.screenshot("after-tests", APP)
    page.close()


def shown(app) -> dict[str, str]:
    """The numbers as a person reads them in the stat block."""
    get = lambda css: app.page.locator(f"{BLOCK} {css}").first.inner_text().strip()  # noqa: E731
    return {
        "level": get(".wb-level"),
        "ev": get(".wb-ev"),
        "stamina": get(".wb-stamina"),
        "free_strike": get(".wb-free-strike"),
        "damage": "/".join(get(f".wb-damage-tier{n}") for n in (1, 2, 3)),
        "potency": "/".join(get(f".wb-potency-tier{n}") for n in (1, 2, 3)),
    }


def expected(monster: wb.Monster) -> dict[str, str]:
    return {
        "level": str(monster.level),
        "ev": str(monster.ev),
        "stamina": str(monster.stamina),
        "free_strike": str(monster.free_strike),
        "damage": "/".join(str(v) for v in monster.damage.as_tuple()),
        "potency": "/".join(str(v) for v in monster.potency.as_tuple()),
    }


def wait_for_block(app, monster: wb.Monster) -> None:
    """Wait until the stat block is the one for `monster` (its level, organization and role)."""
    role = f'[data-role="{monster.role}"]' if monster.role else ""
    app.page.wait_for_selector(
        f'{BLOCK}[data-level="{monster.level}"][data-organization="{monster.organization}"]{role}'
        f'[data-stamina="{monster.stamina}"]'
    )


def test_level_slider_by_keyboard_updates_the_stat_block(app):
    app.open_section("Level, organization, role", APP)
    organization = app.dropdown("Organization", APP).evaluate("s => s.value").lower()
    role = app.dropdown("Role", APP).evaluate("s => s.value").lower()
    start = app.slider_value("Level", APP)
    app.press_slider("Level", "ArrowRight", 4, APP)
    monster = wb.build_monster(start + 4, organization, role)
    wait_for_block(app, monster)
    assert app.slider_value("Level", APP) == start + 4
    assert shown(app) == expected(monster)


def test_pickers_and_checkbox_by_mouse(app):
    app.open_section("Level, organization, role", APP)
    app.slide_to("Level", 5, APP)
    app.pick("Organization", "Elite", APP)
    app.pick("Role", "Brute", APP)
    brute = wb.build_monster(5, "elite", "brute")
    wait_for_block(app, brute)
    # "EV 28 ... Stamina 160 ... 10/16/19": the level 5 elite brute of 01_monster_builder's asserts
    assert shown(app) == expected(brute)
    app.checkbox("Extra Stamina", APP).click()
    tougher = wb.build_monster(5, "elite", "brute", extra_stamina=True)
    wait_for_block(app, tougher)
    assert shown(app) == expected(tougher)
    app.checkbox("Extra Stamina", APP).click()
    wait_for_block(app, brute)
    app.screenshot("elite-brute", APP)


def test_chart_follows_the_monster(app):
    app.open_section("Level, organization, role", APP)
    app.slide_to("Level", 3, APP)
    app.pick("Organization", "Leader", APP)  # a leader has no role: the role picker is disabled
    leader = wb.build_monster(3, "leader")
    wait_for_block(app, leader)
    assert shown(app) == expected(leader)
    expect(app.dropdown("Role", APP)).to_be_disabled()
    levels = range(1, app.slider_handle("Level", APP).evaluate("h => +h.getAttribute('aria-valuemax')") + 1)
    curve = [wb.build_monster(level, "leader").stamina for level in levels]
    app.tab("Scaling chart", APP).click()
    # trace 0: Stamina across the levels; trace 1: this monster's marker
    app.wait_for_plot(CHART, "(t, a) => t.length > 1 && JSON.stringify(t[1].y) === JSON.stringify(a)",
                      [leader.stamina])
    traces = app.plot_data(CHART)
    assert traces[0]["x"] == list(levels)
    assert traces[0]["y"] == curve
    assert (traces[1]["x"], traces[1]["y"]) == ([3], [leader.stamina])


def test_save_and_find_it_in_the_library(app, tmp_path: Path):
    folder = tmp_path / "homebrew"
    app.open_section("Level, organization, role", APP)
    app.pick("Organization", "Platoon", APP)
    app.pick("Role", "Harrier", APP)
    app.slide_to("Level", 5, APP)
    goblin = wb.build_monster(5, "platoon", "harrier")
    wait_for_block(app, goblin)
    app.open_section("Text", APP)
    app.fill("Name", "Goblin Sneak", APP)
    expect(app.page.locator(f"{BLOCK} .wb-name")).to_have_text("Goblin Sneak")
    app.tab("Homebrew library", APP).click()
    app.fill("Folder", str(folder), APP)
    app.button("Refresh", APP).click()
    expect(app.text_box("Save as", APP)).to_have_value("Goblin Sneak")
    app.button("Save", APP).click()
    library = f"{APP} .wb-library"
    expect(app.page.locator(f"{library} .wb-ok")).to_contain_text("Saved")
    listing = app.page.locator(f"{library} .widget-select select option")
    expect(listing).to_have_text(["Goblin Sneak"])
    app.screenshot("library", library)
    # on disk, in the folder typed into the app, with the numbers shown
    assert list(list_monsters(folder)) == ["Goblin Sneak"]
    saved = load_monster("Goblin Sneak", folder)
    assert (saved.level, saved.organization, saved.role, saved.stamina) == (5, "platoon", "harrier",
                                                                             goblin.stamina)


def test_a_name_with_markup_shows_as_text_and_never_runs(app):
    app.open_section("Text", APP)
    app.fill("Name", XSS_NAME, APP)
    name = app.page.locator(f"{BLOCK} .wb-name")
    expect(name).to_have_text(XSS_NAME)
    assert app.page.locator(f"{APP} img[src='x']").count() == 0
    assert app.page.locator(f"{APP} script:text-is('window.pwned=1')").count() == 0
    # saving it under its own name is refused (a file name takes letters, digits, spaces ...): the
    # refusal quotes the name, and must show it as text too
    app.tab("Homebrew library", APP).click()
    app.fill("Save as", XSS_NAME, APP)
    app.button("Save", APP).click()
    expect(app.page.locator(f"{APP} .wb-library .wb-error")).to_contain_text("<script>")
    app.page.wait_for_timeout(500)  # give an injected onerror handler every chance to run
    assert app.js("() => typeof window.pwned") == "undefined"
    app.screenshot("markup-name", APP)


def test_no_console_errors(app):
    assert app.console_errors == []
