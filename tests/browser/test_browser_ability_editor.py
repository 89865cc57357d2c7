"""notebooks/01_monster_builder.ipynb in Voilà: a homebrew monster with 6 abilities built by mouse and
keyboard alone in headless Chromium (issue 13). Expected numbers come from `ability_damage` in this process."""

from __future__ import annotations

import pytest

import workbench as wb

NOTEBOOK = "01_monster_builder.ipynb"
APP = ".wb-ability-editor"
ABILITIES = f"{APP} .wb-ability-view .wb-stat-block .wb-ability"
TEMPLATES = ("A signature strike", "A 2-target strike", "An area ability", "A Malice ability", "A signature strike",
             "An area ability")


@pytest.fixture(scope="module")
def app(open_app):
    page = open_app(NOTEBOOK, f"{APP} .wb-ability-view .wb-stat-block")
    yield page
    page.screenshot("ability-editor-after-tests", APP)
    page.close()


def test_six_abilities_by_mouse_and_keyboard(app):
    for count, template in enumerate(TEMPLATES, start=1):
        app.pick("New", template, APP)
        app.button("Add", APP).click()
        app.page.wait_for_function("([css, n]) => document.querySelectorAll(css).length === n", arg=[ABILITIES, count])
    # the notebook's brute is a level 5 elite brute: its signature strike is the formula's at 2 targets
    first = app.page.locator(ABILITIES).first
    damage = [first.locator(f".wb-tier{t}").get_attribute("data-damage") for t in (1, 2, 3)]
    assert damage == [str(d) for d in wb.ability_damage(5, "elite", "brute", targets=2).as_tuple()]
    app.fill("Name", "Crushing Blow", APP)  # the sixth, still selected
    app.page.wait_for_selector(f'{ABILITIES} .wb-ability-name:has-text("Crushing Blow")')
    app.button("Up", APP).click()
    app.page.wait_for_function(
        "(css) => document.querySelectorAll(css)[4].textContent.includes('Crushing Blow')", arg=ABILITIES)
    app.button("Remove", APP).click()
    app.page.wait_for_function("(css) => document.querySelectorAll(css).length === 5", arg=ABILITIES)
    app.screenshot("ability-editor-built", APP)
    assert app.console_errors == []  # ALLOWED_ERRORS set apart
