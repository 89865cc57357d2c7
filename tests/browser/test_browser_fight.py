"""The fight page in a browser: a whole fight by mouse on one board, the page reloaded mid-fight and the fight
carried on, ended by the Director, and its Victories read back on the encounter page.

The fight: four level 1 heroes against the sample bestiary's Goblin Monarch (a leader with villain actions
and a Malice ability of its own, Get in Here!) and eight Goblin Spinecleavers with a fire weakness, the
Monarch their captain (written into the server's workspace before the page opens, as the encounter page
would). Expected numbers come from a `Fight` in this process given the same actions, never typed in.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from kept_file import kept_file
from test_browser_pages import LAYOUT_PROBLEMS, visible_text_problems
from voila_page import AppPage

import workbench as wb
from workbench.apps.fight import fight_file
from workbench.encounter.encounter import InitiativeGroup, creature_from_monster
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.model import DamageModifier
from workbench.numbers import format_number
from workbench.workspace.state import Workspace, remember_encounter, save_workspace

RUNNER = ".wb-fight-runner"
SAMPLE = sample_bestiary()
BOSS = whole_stat_block(SAMPLE, SAMPLE.named("Goblin Monarch"))
MINION = whole_stat_block(SAMPLE, SAMPLE.named("Goblin Spinecleaver"))
assert BOSS is not None and MINION is not None
MINION = MINION.model_copy(update={"weaknesses": (DamageModifier(type="fire", value=5),)})


def encounter() -> wb.Encounter:
    enc = wb.Encounter(party=wb.make_party(heroes=4, level=1))
    for monster, count in ((BOSS, 1), (MINION, 8)):
        enc = enc.adding(creature_from_monster(monster, count))
    groups = (InitiativeGroup(members=((0, 1),)), InitiativeGroup(members=((1, 8),)))
    return enc.model_copy(update={"name": "Goblin ambush", "groups": groups})


@pytest.fixture
def fight_page(browser, lesson_url, app_token, artifacts_dir, page_errors, workbench_home):
    """The fight page on the workspace holding this test's encounter; the workspace file is put back after."""
    with kept_file(workbench_home / "workspace.json") as path:
        save_workspace(remember_encounter(Workspace(encounter=encounter()), encounter(), [BOSS, MINION]), path)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        app = AppPage(context.new_page(), "fight-runner", artifacts_dir, page_errors)
        url = f"{lesson_url}/voila/render/fight.ipynb?token={app_token}"
        try:
            yield app, url, f"{lesson_url}/voila/render/encounter.ipynb?token={app_token}"
        finally:
            app.close()


def open_runner(app: AppPage, url: str) -> None:
    app.page.goto(url, timeout=180_000)
    app.page.wait_for_selector(f"{RUNNER} .wb-fight-strip", timeout=180_000)


def strip_has(app: AppPage, text: str) -> None:
    app.page.locator(f"{RUNNER} .wb-fight-strip:has-text('{text}')").wait_for()


def saved(folder: Path, fight: wb.Fight) -> None:
    """Wait until the page has written every event of `fight` to its file (it draws the board first, then
    saves): a reload before that would reopen the fight as it was one action earlier."""
    path = fight_file(Workspace(encounter=encounter()), folder)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if path.is_file() and len(json.loads(path.read_text())["events"]) == len(fight.events):
            return
        time.sleep(0.1)
    pytest.fail(f"the page did not save the fight's {len(fight.events)} events to {path.name} within 60 s")


def test_a_whole_fight_by_mouse_with_a_reload_and_its_victories_on_the_encounter_page(fight_page, workbench_home):
    app, url, encounter_url = fight_page
    open_runner(app, url)
    expected = wb.Fight(encounter(), [BOSS, MINION])
    page = app.page
    boss, squad = "Goblin Monarch", "Goblin Spinecleaver"
    assert {u.name for u in expected.units} >= {boss, squad}

    def click(text: str) -> None:
        app.button(text, RUNNER).click()

    # ---- round 1: Malice, the captain, a fire blast on the squad, a villain action, Malice spent
    click("Next round")
    expected.start_round()
    page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('Malice: {expected.malice}')").wait_for()
    app.pick("Squad", squad, RUNNER)
    app.pick("Captain", boss, RUNNER)
    click("Attach captain")
    expected.attach_captain(squad, boss)
    app.pick("Who acts", "Hero 1", RUNNER)
    click("Start turn")
    expected.start_turn("hero:Hero 1")
    app.pick("Creature", squad, RUNNER)
    app.fill("Amount", "6", RUNNER)
    app.pick("Type", "fire", RUNNER)
    app.fill("Minions in the area", "3", RUNNER)
    click("Area damage")
    expected.damage(squad, 6, in_area=3, damage_type="fire")
    pool = expected.unit(squad).squad.pool
    page.locator(f"{RUNNER} .wb-fight-squads:has-text('Pool {pool} of')").wait_for()
    alive = expected.unit(squad).squad.alive
    assert f"{alive} of 8 standing" in page.locator(f"{RUNNER} .wb-fight-roster").inner_text()
    click("End turn")
    expected.end_turn()
    page.locator(f"{RUNNER} .wb-fight-villain-note:has-text('allowed now')").wait_for()
    app.pick("Villain", f"{boss}: villain action 1 ({expected.villain_actions_of(boss)[1]})", RUNNER)  # by name
    click("Use villain action")
    expected.villain_action(boss, 1)
    page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('{boss} 1 (round 1)')").wait_for()
    assert page.locator(f"{RUNNER} .wb-refusal").count() == 0  # no red refusal after a success
    app.pick("Who acts", "Group 1", RUNNER)
    click("Start turn")
    expected.start_turn("group:1")
    page.locator(f"{RUNNER} .wb-fight-acting .wb-stat-block:has-text('Goblin Monarch')").first.wait_for()
    feature = expected.features[0]
    app.pick("Feature", f"{feature.name} ({feature.cost})", RUNNER)
    app.pick("By", boss, RUNNER)
    click("Spend Malice")
    expected.spend(feature.name, feature.cost, boss)
    page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('Malice: {expected.malice}')").wait_for()
    own = next(a for a in BOSS.abilities if a.malice)  # the Monarch's own Malice ability, paid at its turn
    app.pick("Feature", f"{own.name} ({own.malice})", RUNNER)
    click("Spend Malice")
    expected.spend(own.name, own.malice, boss)
    page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('Malice: {expected.malice}')").wait_for()
    assert f"{own.name}: spend {own.malice}" in page.locator(f"{RUNNER} ol.wb-fight-log").inner_text()
    click("End turn")
    expected.end_turn()
    app.screenshot("round-1", RUNNER)

    # ---- the page reloaded mid-fight, once its last action is saved: the same fight, carried on
    saved(workbench_home / "fights", expected)
    page.reload()
    page.wait_for_selector(f"{RUNNER} .wb-fight-strip", timeout=180_000)
    strip_has(app, "Round 1")
    page.locator(f"{RUNNER} .wb-fight-roster:has-text('{alive} of 8 standing')").wait_for()
    assert f"Malice: {expected.malice}" in page.locator(f"{RUNNER} .wb-fight-malice-line").inner_text()

    # ---- the foes surrender in round 2: the Victories the Director gives, written where the pages read them
    click("Next round")
    expected.start_round()
    strip_has(app, "Round 2")
    app.pick("How", "The foes surrender", RUNNER)
    earned = expected.victories_for_success
    click("End the fight")
    expected.end("the foes surrender", True, earned)
    result = expected.result()
    assert result.success and result.victories == earned
    page.locator(f"{RUNNER} .wb-fight-result").filter(has_text=f"Each hero earns {earned} Victor").wait_for()
    page.locator(".wb-fight-carried:has-text('written')").wait_for()
    app.screenshot("ended", RUNNER)
    for width in (1024, 1440):  # what a Director reads, and nothing cut, at both widths
        page.set_viewport_size({"width": width, "height": 900})
        app.settled()
        assert visible_text_problems(page.locator("#rendered_cells").inner_text()) == [], width
        assert app.js(LAYOUT_PROBLEMS) == [], width
    assert app.console_errors == []

    page.goto(encounter_url, timeout=180_000)
    page.wait_for_selector(".wb-page", timeout=180_000)
    assert app.text_box("Victories", ".wb-page").input_value() == format_number(result.victories_after)
