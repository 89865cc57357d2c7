"""Two browser pages on one fight: the second page's save does not replace the first's; it says so above the
runner, and "Reload the saved fight" carries on from what the first page saved."""

from __future__ import annotations

import json

from kept_file import kept_file
from voila_page import AppPage

import workbench as wb
from workbench.apps.fight import fight_file
from workbench.encounter.encounter import creature_from_monster
from workbench.workspace.state import Workspace, remember_encounter, save_workspace

RUNNER = ".wb-fight-runner"
TROLL = wb.build_monster(4, "platoon", "brute").model_copy(update={"name": "Bridge troll"})


def test_two_pages_on_one_fight_lose_nothing(browser, lesson_url, app_token, artifacts_dir, page_errors,
                                             workbench_home):
    encounter = wb.Encounter(party=wb.make_party(heroes=3, level=4)).adding(creature_from_monster(TROLL, 1))
    encounter = encounter.model_copy(update={"name": "Under the bridge"})
    workspace = remember_encounter(Workspace(encounter=encounter), encounter, [TROLL])
    with kept_file(workbench_home / "workspace.json") as path:
        save_workspace(workspace, path)
        fight = fight_file(workspace, workbench_home / "fights")
        fight.unlink(missing_ok=True)
        url = f"{lesson_url}/voila/render/fight.ipynb?token={app_token}"
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        first, second = (AppPage(context.new_page(), f"fight-{n}", artifacts_dir, page_errors) for n in (1, 2))
        try:
            for app in (first, second):  # both open the fight before either saves
                app.page.goto(url, timeout=180_000)
            for app in (first, second):
                app.page.wait_for_selector(f"{RUNNER} .wb-fight-strip", timeout=180_000)
            first.button("Next round", RUNNER).click()
            first.page.locator(f"{RUNNER} .wb-fight-strip:has-text('Round 1')").wait_for()
            first.button("Next round", RUNNER).click()
            first.page.locator(f"{RUNNER} .wb-fight-strip:has-text('Round 2')").wait_for()
            second.button("Next round", RUNNER).click()
            second.page.locator(f"{RUNNER} .wb-fight-saved:has-text('changed since this page opened it')").wait_for()
            assert len(json.loads(fight.read_text())["events"]) == 2  # the first page's rounds are kept
            second.button("Reload the saved fight", RUNNER).click()
            second.page.locator(f"{RUNNER} .wb-fight-strip:has-text('Round 2')").wait_for()
            reloaded = second.page.locator(f"{RUNNER} .wb-fight-saved:has-text('Reloaded the fight saved in')")
            reloaded.wait_for()
            second.button("Next round", RUNNER).click()
            second.page.locator(f"{RUNNER} .wb-fight-strip:has-text('Round 3')").wait_for()
            # said until the next save: the board is drawn before the file is written
            reloaded.wait_for(state="detached")
            assert len(json.loads(fight.read_text())["events"]) == 3
        finally:
            first.close()
            second.close()
            fight.unlink(missing_ok=True)
