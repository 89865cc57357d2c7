"""The encounter page in Voilà, by mouse: five level 3 heroes, creatures from the sample bestiary, + and the
star on a row, a suggested encounter, and the pace of the fight drawn.

Expected numbers come from the library in this process (`wb.encounter_report`, `wb.suggest_encounters`,
`wb.fight_pace`), each tested against the rules in tests/test_encounter.py, test_suggest.py, test_pace.py.
"""

from __future__ import annotations

import shutil

import pytest

import workbench as wb
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.workspace.bestiary_filter import BestiaryQuery, browse

PAGE = "encounter.ipynb"
APP = ".wb-encounter-app"
BESTIARY = ".wb-bestiary-app"


@pytest.fixture(scope="module")
def app(open_app, workbench_home):
    # A Director opening the encounter page on a fresh desk: the pages' journey, earlier in the run, left its
    # encounter in the shared workspace, which the page would open with.
    (workbench_home / "workspace.json").unlink(missing_ok=True)
    page = open_app(PAGE, f"{APP} .wb-encounter-summary .wb-ev-total")
    page.screenshot("opened", APP)
    yield page
    page.screenshot("after-tests", APP)
    page.close()


def option_index(select, name: str) -> int:
    """The index of the list's row for `name` (ipywidgets shows a Select's spaces as no-break spaces)."""
    texts = select.evaluate("s => Array.from(s.options).map(o => o.text.replace(/\\u00a0/g, ' '))")
    return next(i for i, text in enumerate(texts) if text.startswith(name + " "))


def ev_shown(app) -> str:
    return app.page.locator(f"{APP} .wb-encounter-summary .wb-ev-total").first.get_attribute("data-ev")


def test_five_level_3_heroes_by_keyboard_and_mouse(app):
    app.slide_to("Heroes", 5, APP)
    app.slide_to("Level", 3, APP)
    app.pick("Aim for", "hard", APP)
    # "a group of five 3rd-level heroes has an ES of 50"
    app.page.wait_for_selector(f'{APP} .wb-budget[data-encounter-strength="50"]', state="attached")


def test_creatures_from_the_bestiary_by_mouse(app):
    app.pick("Keyword", "Goblin", BESTIARY)
    goblins = len(browse(wb.sample_bestiary().monsters, BestiaryQuery(keywords=("Goblin",))))
    app.page.wait_for_selector(f'{BESTIARY} .wb-bestiary-count:text-is("{goblins} of 49 stat blocks")')
    rows = app.page.locator(f"{BESTIARY} .wb-bestiary-rows select").first
    app.page.wait_for_selector(f'{BESTIARY} .wb-bestiary-rows option:has-text("Goblin Warrior")', state="attached")
    rows.select_option(index=option_index(rows, "Goblin Warrior"))
    app.page.wait_for_selector(f'{BESTIARY} .wb-bestiary-stat-block :text("Spear Charge")')
    app.button("Add to encounter", BESTIARY).click()
    app.page.wait_for_selector(f'{APP} .wb-encounter-row :text("Goblin Warrior")')
    rows.select_option(index=option_index(rows, "Goblin Runner"))
    app.page.wait_for_selector(f'{BESTIARY} .wb-bestiary-stat-block :text("Goblin Runner")')
    app.button("Add to encounter", BESTIARY).click()  # four minions at a time
    app.button("Add to encounter", BESTIARY).click()
    app.page.wait_for_selector(f'{APP} .wb-encounter-row:has-text("Goblin Runner") .wb-row-count[data-count="8"]')
    # a second goblin warrior with the row's + button
    app.page.locator(f'{APP} .wb-encounter-row:has-text("Goblin Warrior") .wb-row-plus').first.click()
    app.page.wait_for_selector(f'{APP} .wb-encounter-row:has-text("Goblin Warrior") .wb-row-count[data-count="2"]')
    bestiary = wb.sample_bestiary()
    expected = wb.Encounter(party=wb.make_party(heroes=5, level=3), creatures=(
        wb.creature_from_stat_block(bestiary.named("Goblin Warrior"), 2),
        wb.creature_from_stat_block(bestiary.named("Goblin Runner"), 8),
    ))
    total = wb.encounter_report(expected).total_ev
    assert total == 2 * 3 + 2 * 3  # two warriors at 3, two sets of four runners at 3 a set
    app.page.wait_for_selector(f'{APP} .wb-ev-total[data-ev="{total}"]')
    app.screenshot("bought", APP)


def test_guidelines_in_words(app):
    checks = app.page.locator(f"{APP} .wb-checks").first
    app.tab("Guidelines", APP).click()
    text = checks.inner_text()
    assert "Kept:" in text or "Broken:" in text
    assert "Party of 3 or fewer heroes" not in text  # five heroes: the small-party advice does not apply


def test_suggest_fills_the_editor(app):
    before = ev_shown(app)
    app.button("Suggest an encounter", APP).click()
    app.page.wait_for_function(
        "([sel, before]) => { const e = document.querySelector(sel); return e && e.dataset.ev !== before; }",
        arg=[f"{APP} .wb-encounter-summary .wb-ev-total", before],
    )
    ev = int(ev_shown(app))
    assert 61 <= ev <= 80  # hard for five level 3 heroes: above 50 + 10, at most 50 + 3 × 10
    assert app.page.locator(f'{APP} .wb-broken-count[data-broken="0"]').count() == 1
    # the rows are new widgets the browser draws after the summary's numbers, and the editor may draw them twice
    # (a count taken right after the wait once saw 0, between two drawings): at least two rows, twice in a row
    app.page.wait_for_function(
        "sel => { const n = document.querySelectorAll(sel).length; const seen = window.wbRowsSeen || 0;"
        " window.wbRowsSeen = n >= 2 ? seen + 1 : 0; return window.wbRowsSeen >= 2; }",
        arg=f"{APP} .wb-encounter-row", polling=100)
    app.screenshot("suggested", APP)


def test_the_pace_chart(app):
    app.tab("Pace of the fight", APP).click()
    app.fill("Heroes' Stamina", "45, 40, 42, 38, 50", APP)
    box = app.page.locator(f"{APP} .widget-inline-hbox:has(> label:text-is(\"Heroes' damage a round\")) input").first
    box.click()
    box.fill("80")
    box.press("Tab")
    # the chart's widget is shown with the pace in words beside it (its traces are the unit tests' business:
    # plotly's widget can miss anywidget's 2 s start-up on a loaded machine, see apps.chart_slot)
    app.page.wait_for_selector(f"{APP} .wb-pace-chart", state="attached")
    app.page.wait_for_selector(f"{APP} .wb-pace-lines")
    lines = app.page.locator(f"{APP} .wb-pace-lines").first.inner_text()
    assert "The foes are defeated after" in lines or "The foes are not defeated" in lines
    app.screenshot("pace", APP)


def test_the_pace_uses_the_ability_marked_by_mouse(app):
    # "each creature's expected damage per turn (its signature ability, or the ability the Director marks)"
    rows = app.page.locator(f"{BESTIARY} .wb-bestiary-rows select").first
    rows.select_option(index=option_index(rows, "Goblin Warrior"))
    app.page.wait_for_selector(f'{BESTIARY} .wb-bestiary-stat-block :text("Bury the Point")')
    app.button("Add to encounter", BESTIARY).click()
    app.tab("Pace of the fight", APP).click()
    app.page.wait_for_selector(f'{APP} .wb-pace-foe:has-text("Goblin Warrior × ")')
    app.pick("Goblin Warrior uses", "Bury the Point", APP)
    app.page.wait_for_selector(f'{APP} .wb-pace-foe:has-text("Goblin Warrior × "):has-text("Bury the Point")')
    # Bury the Point: Power Roll + 2, 5 / 6 / 7 damage: (36 × 5 + 43 × 6 + 21 × 7) / 100 = 5.85 a turn
    line = app.page.locator(f'{APP} .wb-pace-foe:has-text("Goblin Warrior × ")').first.inner_text()
    assert f"{float(wb.tier_odds(2)[0] * 5 + wb.tier_odds(2)[1] * 6 + wb.tier_odds(2)[2] * 7):.1f}" in line
    app.screenshot("pace-marked", APP)


def test_a_bestiary_folder_loaded_by_mouse_names_the_files_it_could_not_read(app, tmp_path):
    # "files that fail are listed by name": the sample's kobolds and one broken file, typed as a folder
    shutil.copytree(SAMPLE_DIR / "Kobolds", tmp_path / "Kobolds")
    (tmp_path / "Kobolds" / "half a kobold.json").write_text('{"name": "Kobold Tiro", ')
    kobolds = len(list((SAMPLE_DIR / "Kobolds").rglob("*.json")))
    app.fill("Bestiary folder", str(tmp_path), BESTIARY)
    app.button("Load bestiary", BESTIARY).click()
    app.page.wait_for_selector(f'{BESTIARY} .wb-bestiary-count:text-is("{kobolds} of {kobolds} stat blocks; '
                               f'1 file(s) not read (listed below)")')
    failed = app.page.locator(f"{BESTIARY} .wb-bestiary-failed-file").all_inner_texts()
    assert failed == ["Kobolds/half a kobold.json"]
    app.screenshot("bestiary-folder", APP)


def test_no_reprs_and_no_console_errors(app):
    text = app.page.locator(APP).first.inner_text()
    for bad in ("None", "NaN", "<NA>", "Traceback", "Creature("):
        assert bad not in text
    assert app.console_errors == []
