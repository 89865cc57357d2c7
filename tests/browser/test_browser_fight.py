"""The fight page's runner in a browser: a whole fight by mouse, the page reloaded mid-fight and the fight
carried on, to the Victories at the end.

The fight: a level 3 party against a leader with villain actions, a squad of eight minions with a captain and
two platoon creatures, with a Hold Them Off objective (written into the server's workspace before the page
opens, as the encounter page would). Expected numbers come from a `Fight` in this process given the same
actions, never typed in.
"""

from __future__ import annotations

import pytest
from test_browser_pages import LAYOUT_PROBLEMS, visible_text_problems
from voila_page import AppPage

import workbench as wb
from workbench.encounter.encounter import InitiativeGroup, creature_from_monster
from workbench.workspace.state import Workspace, remember_encounter, save_workspace

RUNNER = ".wb-fight-runner"
BOSS = wb.build_monster(3, "leader").model_copy(update={"name": "Goblin boss"})
MINION = wb.build_monster(3, "minion", "brute").model_copy(update={"name": "Goblin spinecleaver"})
ORC = wb.build_monster(3, "platoon", "brute").model_copy(update={"name": "Orc raider"})


def encounter() -> wb.Encounter:
    enc = wb.Encounter(party=wb.make_party(heroes=4, level=3))
    for monster, count in ((BOSS, 1), (MINION, 8), (ORC, 2)):
        enc = enc.adding(creature_from_monster(monster, count))
    groups = (InitiativeGroup(members=((0, 1),)), InitiativeGroup(members=((1, 8),)),
              InitiativeGroup(members=((2, 2),)))
    return enc.model_copy(update={"name": "Goblin ambush", "groups": groups,
                                  "objectives": (wb.choose_objective("hold_them_off"),)})


@pytest.fixture
def fight_page(browser, lesson_url, app_token, artifacts_dir, page_errors, workbench_home):
    """The fight page on the workspace holding this test's encounter; the workspace file is put back after."""
    path = workbench_home / "workspace.json"
    before = path.read_bytes() if path.exists() else None
    save_workspace(remember_encounter(Workspace(encounter=encounter()), encounter(), [BOSS, MINION, ORC]), path)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    app = AppPage(context.new_page(), "fight-runner", artifacts_dir, page_errors)
    url = f"{lesson_url}/voila/render/fight.ipynb?token={app_token}"
    try:
        yield app, url
    finally:
        app.close()
        if before is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(before)


def open_runner(app: AppPage, url: str) -> None:
    app.page.goto(url, timeout=180_000)
    app.page.wait_for_selector(f"{RUNNER} .wb-fight-strip", timeout=180_000)


def strip_has(app: AppPage, text: str) -> None:
    app.page.locator(f"{RUNNER} .wb-fight-strip:has-text('{text}')").wait_for()


def test_a_whole_fight_by_mouse_with_a_reload_in_the_middle(fight_page):
    app, url = fight_page
    open_runner(app, url)
    expected = wb.Fight(encounter(), [BOSS, MINION, ORC])
    page = app.page

    def click(text: str) -> None:
        app.button(text, RUNNER).click()

    # ---- round 1: Malice, the captain, a hero's hit on the squad, a villain action and a refused second one
    click("Next round")
    expected.start_round()
    page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('Malice: {expected.malice}')").wait_for()
    app.pick("Squad", "Goblin spinecleaver", RUNNER)
    app.pick("Captain", "Goblin boss", RUNNER)
    click("Attach captain")
    expected.attach_captain("Goblin spinecleaver", "Goblin boss")
    app.pick("Who acts", "Hero 1", RUNNER)
    click("Start turn")
    expected.start_turn("hero:Hero 1")
    strip_has(app, "Round 1")
    app.pick("Creature", "Goblin spinecleaver", RUNNER)
    amount = 2 * MINION.stamina
    app.fill("Amount", str(amount), RUNNER)
    click("Damage")
    expected.damage("Goblin spinecleaver", amount)
    alive = expected.unit("Goblin spinecleaver").squad.alive
    page.locator(f"{RUNNER} .wb-fight-roster:has-text('{alive} of 8 standing')").wait_for()
    click("End turn")
    expected.end_turn()
    page.locator(f"{RUNNER} .wb-fight-villain-note:has-text('allowed now')").wait_for()
    app.pick("Villain", "Goblin boss: villain action 1", RUNNER)
    click("Use villain action")
    expected.villain_action("Goblin boss", 1)
    page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('Goblin boss 1 (round 1)')").wait_for()
    app.pick("Villain", "Goblin boss: villain action 2", RUNNER)
    click("Use villain action")
    refusal = page.locator(f"{RUNNER} .wb-refusal").first
    refusal.wait_for()
    assert "no more than one villain action can be used per round" in refusal.inner_text()
    app.pick("Who acts", "Group 3", RUNNER)
    click("Start turn")
    expected.start_turn("group:3")
    page.locator(f"{RUNNER} .wb-fight-acting .wb-stat-block").first.wait_for()
    app.pick("Creature", "Orc raider 1", RUNNER)
    app.fill("Amount", "9", RUNNER)
    click("Damage")
    expected.damage("Orc raider 1", 9)
    click("End turn")
    expected.end_turn()
    app.screenshot("round-1", RUNNER)

    # ---- the page reloaded mid-fight: the same fight, carried on
    page.reload()
    page.wait_for_selector(f"{RUNNER} .wb-fight-strip", timeout=180_000)
    strip_has(app, "Round 1")
    orc = expected.unit("Orc raider 1")
    page.locator(f"{RUNNER} .wb-fight-roster:has-text('{orc.current} / {orc.maximum}')").wait_for()
    assert f"{alive} of 8 standing" in page.locator(f"{RUNNER} .wb-fight-roster").inner_text()

    # ---- rounds 2 and 3, one creature through, the end with its Victories
    click("Next round")
    expected.start_round()
    page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('Malice: {expected.malice}')").wait_for()
    app.pick("Counter", "Hold Them Off: creatures through", RUNNER)
    click("+1")
    expected.count("hold_them_off", "through")
    page.locator(f"{RUNNER} .wb-fight-objectives:has-text('creatures through: 1')").wait_for()
    click("Next round")
    expected.start_round()
    strip_has(app, "Round 3")
    click("End round")
    expected.end_round()
    result = expected.result()
    assert expected.ended and result.success
    shown = page.locator(f"{RUNNER} .wb-fight-result")
    shown.filter(has_text=f"Each hero earns {result.victories} Victor").wait_for()
    app.screenshot("ended", RUNNER)
    for width in (1024, 1440):  # what a Director reads, and nothing cut, at both widths
        page.set_viewport_size({"width": width, "height": 900})
        app.settled()
        assert visible_text_problems(page.locator("#rendered_cells").inner_text()) == [], width
        assert app.js(LAYOUT_PROBLEMS) == [], width
    assert app.console_errors == []
