"""A solo's fight in a browser, opened from an adventure: "Fight it" on the adventure page, the sample
bestiary's Werewolf (a published solo: Solo Turns and End Effect printed in its "Solo Monster" trait, no Solo
Action) taking its two turns, End Effect offered at the end of its turn, the fight ended by the Director, and
the Victories read back on the adventure page, which stays open in its own tab.

Expected numbers come from a `Fight` in this process given the same actions, never typed in.
"""

from __future__ import annotations

import secrets

import pytest
from kept_file import kept_file
from test_browser_pages import LAYOUT_PROBLEMS
from voila_page import AppPage

import workbench as wb
from workbench.encounter.adventure import Adventure, save_adventure
from workbench.encounter.encounter import creature_from_monster
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.numbers import format_number

RUNNER = ".wb-fight-runner"
ADVENTURE = ".wb-adventure"
SAMPLE = sample_bestiary()
WEREWOLF = whole_stat_block(SAMPLE, SAMPLE.named("Werewolf"))
assert WEREWOLF is not None
DAY = f"Moonlit day {secrets.token_hex(3)}"  # the browser tests share one workspace: this run's name only


def day() -> Adventure:
    party = wb.make_party(heroes=4, level=1)
    hunt = wb.Encounter(name="The werewolf's den", party=party).adding(creature_from_monster(WEREWOLF, 1))
    after = wb.Encounter(name="The road home", party=party).adding(wb.build_monster(1, "platoon", "brute"), count=4)
    return Adventure(name=DAY, party=party, encounters=(hunt, after))


@pytest.fixture
def pages(browser, lesson_url, app_token, artifacts_dir, page_errors, workbench_home):
    """The adventure page and the fight page, each in its own tab of one browser context; the adventure's file
    is taken away and the workspace file put back after."""
    with kept_file(workbench_home / "workspace.json"):
        saved = save_adventure(day(), workbench_home / "adventures" / f"{DAY}.json")
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        planner = AppPage(context.new_page(), "fight-solo-adventure", artifacts_dir, page_errors)
        runner = AppPage(context.new_page(), "fight-solo", artifacts_dir, page_errors)
        urls = {name: f"{lesson_url}/voila/render/{name}.ipynb?token={app_token}" for name in ("adventure", "fight")}
        try:
            yield planner, runner, urls
        finally:
            runner.close()
            planner.close()
            saved.unlink(missing_ok=True)


def test_a_solos_fight_from_an_adventure_by_mouse_and_its_victories_on_the_adventure_page(pages):
    planner, app, urls = pages
    planner.page.goto(urls["adventure"], timeout=180_000)
    planner.page.wait_for_selector(f"{ADVENTURE} .wb-adventure-chart", timeout=180_000)
    planner.pick("Saved adventures", DAY, ADVENTURE)
    planner.button("Open", ADVENTURE).click()
    planner.page.locator(f"{ADVENTURE} .wb-adventure-row-1").wait_for()
    planner.button("Fight it", f"{ADVENTURE} .wb-adventure-row-1").click()
    planner.page.locator(f"{ADVENTURE} .wb-adventure-saved:has-text('run the fight')").wait_for()

    page = app.page
    page.goto(urls["fight"], timeout=180_000)
    page.wait_for_selector(f"{RUNNER} .wb-fight-strip", timeout=180_000)
    page.locator(".wb-fight-adventure:has-text('Encounter 1 of the adventure')").wait_for()
    encounter, arrival = day().arrival(0)
    expected = wb.Fight(encounter, [WEREWOLF.model_copy(update={"name": "Werewolf"})], arrival)
    solo = "Werewolf"

    def click(text: str) -> None:
        app.button(text, RUNNER).click()

    def turn(actor: str) -> None:
        app.pick("Who acts", actor, RUNNER)
        click("Start turn")
        page.locator(f"{RUNNER} .wb-fight-strip .wb-acting:has-text('{actor}')").wait_for()

    features = app.dropdown("Feature", RUNNER).inner_text().replace("\xa0", " ")
    assert "Malicious Strike" in features and "Solo Action" not in features  # the Werewolf prints none

    # ---- the solo's first turn: a save-ends effect, and End Effect offered when its turn ends
    click("Next round")
    expected.start_round()
    page.locator(f"{RUNNER} .wb-fight-strip:has-text('Group 1 ×2')").wait_for()  # two turns this round
    turn("Group 1")
    expected.start_turn("Group 1")
    app.pick("Creature", solo, RUNNER)
    app.fill("Condition", "dazed", RUNNER)
    app.pick("Ends", "save ends", RUNNER)
    click("Add condition")
    expected.add_condition(solo, "dazed", "save ends")
    page.locator(f"{RUNNER} .wb-fight-roster:has-text('dazed (save ends)')").wait_for()
    offer = page.locator(f"{RUNNER} .wb-fight-end-effect-row")
    assert not offer.is_visible()  # during its turn: not yet
    click("End turn")
    expected.end_turn()
    _name, damage, _saves = expected.end_effect_offer() or ("", 0, ())
    offer.filter(has_text=f"{solo} can take {damage} damage").wait_for()
    page.set_viewport_size({"width": 1024, "height": 900})  # the offer and its picker, nothing cut
    app.settled()
    assert app.js(LAYOUT_PROBLEMS) == []
    click("End Effect")
    expected.end_effect(solo, "dazed")
    stamina = expected.unit(solo)
    page.locator(f"{RUNNER} .wb-fight-roster:has-text('{stamina.current} / {stamina.maximum}')").wait_for()
    assert "dazed" not in page.locator(f"{RUNNER} .wb-fight-roster").inner_text()
    offer.wait_for(state="hidden")

    # ---- a hero's turn between, then the solo's second turn; a third is refused with the rule's words
    turn("Hero 1")
    expected.start_turn("Hero 1")
    click("End turn")
    expected.end_turn()
    turn("Group 1")
    expected.start_turn("Group 1")
    page.locator(f"{RUNNER} ol.wb-fight-log:has-text('turn 2 of 2')").wait_for()
    click("End turn")
    expected.end_turn()
    app.pick("Who acts", "Group 1", RUNNER)
    click("Start turn")
    page.locator(f"{RUNNER} .wb-refusal:has-text('two turns')").wait_for()

    # ---- the Director ends it: the Victories written into the adventure
    app.pick("How", "The foes surrender", RUNNER)
    earned = expected.victories_for_success
    click("End the fight")
    expected.end("the foes surrender", True, earned)
    result = expected.result()
    assert result.success and result.victories == earned
    page.locator(".wb-fight-carried:has-text('written')").filter(has_text=DAY).wait_for()
    assert app.console_errors == []

    # ---- the adventure page, open in its tab all along, reads its file again
    planner.page.bring_to_front()
    planner.button("Open", ADVENTURE).click()
    row = planner.page.locator(f"{ADVENTURE} .wb-adventure-row-1 .wb-row-fought")
    row.filter(has_text=f"{format_number(earned)} Victor").wait_for()
    following = planner.page.locator(f"{ADVENTURE} .wb-adventure-row-2 .wb-row-arrival")
    assert following.get_attribute("data-value") == format_number(result.victories_after)
    assert planner.console_errors == []
