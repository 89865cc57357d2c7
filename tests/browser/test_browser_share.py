"""A share code in a browser: an encounter built on the workbench page's encounter tool is shared (its code shown,
copied, and its link), then opened by its link on another visit, in the encounter tool, working in a fresh
workspace, and fought in that page's fight tool.

The link's code travels in the address's fragment: the page's script hands it to the kernel, which opens it in
the tool of its kind, and takes it off the address (the tool in view stays named there). Expected numbers come from the code itself, read in this process (`wb.open_code`), and a `Fight`
given the same encounter, never typed in.
"""

from __future__ import annotations

import secrets

import pytest
from voila_page import AppPage
from voila_server import PAGE_TIMEOUT

import workbench as wb
from workbench.apps.encounter import SHORTCUTS
from workbench.server.site import WORKBENCH_PAGE
from workbench.workspace.state import load_workspace

ENCOUNTER = ".wb-encounter-app"
SHARE = f"{ENCOUNTER} .wb-share"
RUNNER = ".wb-fight-runner"
READY_ENCOUNTER = f"#rendered_cells .wb-page {ENCOUNTER} .wb-encounter-summary .wb-ev-total"
TAG = secrets.token_hex(3)
RAIDERS = f"Share raiders {TAG}"


class Visits:
    """Pages of the app pages' server, and the server's workspace file as it was before the test (put back after:
    the first visit changes it)."""

    def __init__(self, browser, url: str, token: str, artifacts_dir, page_errors, workspace_file) -> None:
        self.browser, self.url, self.token = browser, url, token
        self.artifacts_dir, self.page_errors = artifacts_dir, page_errors
        self.workspace_file = workspace_file
        self.before = workspace_file.read_bytes() if workspace_file.exists() else None
        self.opened: list[AppPage] = []

    def open(self, fragment: str, ready: str) -> AppPage:
        """The workbench page with the address's `fragment` (`#tool=...`, a share link's), once `ready` shows."""
        context = self.browser.new_context(viewport={"width": 1400, "height": 1000})
        app = AppPage(context.new_page(), f"share-{len(self.opened)}", self.artifacts_dir, self.page_errors)
        self.opened.append(app)
        app.page.goto(f"{self.url}/voila/render/{WORKBENCH_PAGE}?token={self.token}{fragment}", timeout=PAGE_TIMEOUT)
        app.page.wait_for_selector(ready, state="visible", timeout=PAGE_TIMEOUT)
        return app

    def forget(self) -> None:
        """The server's workspace as it was before the test: the encounter is no longer in it."""
        if self.before is None:
            self.workspace_file.unlink(missing_ok=True)
        else:
            self.workspace_file.write_bytes(self.before)


@pytest.fixture
def visits(browser, voila_url, app_token, artifacts_dir, page_errors, workbench_home):
    visits = Visits(browser, voila_url, app_token, artifacts_dir, page_errors, workbench_home / "workspace.json")
    try:
        yield visits
    finally:
        for app in visits.opened:
            app.close()
        visits.forget()


def fresh_workspace(app: AppPage, folder: str) -> None:
    """The page's own workspace bar: work in another folder (the page is built again from it)."""
    app.fill("Open another workspace", folder)
    app.button("Open workspace").click()
    app.page.locator(".wb-workspace-bar:has-text('every tool now works in it')").wait_for(timeout=PAGE_TIMEOUT)


def opened_here(app: AppPage) -> None:
    """The code opened in the encounter tool, in view, and the code taken off the address (the tool left)."""
    app.page.locator(f"{SHARE} .wb-share-note:has-text('Opened')").wait_for()
    app.page.locator(f"{ENCOUNTER} .wb-encounter-rows:has-text('{RAIDERS}')").wait_for()
    app.page.locator(".wb-workspace-status:has-text('Kept')").wait_for()
    app.page.wait_for_selector(READY_ENCOUNTER, state="visible")
    assert app.page.evaluate("location.hash") == "#tool=encounter"


def test_an_encounter_shared_on_one_visit_is_opened_by_its_link_in_a_fresh_workspace_and_fought(visits, tmp_path):
    # ---- the Director who built it: the code in a read-only box, copied, and the link beside it
    first = visits.open("#tool=encounter", READY_ENCOUNTER)
    first.open_section(SHORTCUTS, ENCOUNTER)
    first.fill("Spec", f"3 × level 2 platoon brute: {RAIDERS}", ENCOUNTER)
    first.button("Add spec", ENCOUNTER).click()
    first.page.locator(f"{ENCOUNTER} .wb-encounter-rows:has-text('{RAIDERS}')").wait_for()
    first.button("Share", SHARE).click()
    box = first.page.locator(f"{SHARE} textarea.wb-share-code")
    box.wait_for()
    code = box.input_value()
    assert box.get_attribute("readonly") is not None and code.startswith("DSW1E.")
    first.button("Copy", SHARE).click()
    first.page.locator(f"{SHARE} button.wb-share-copy:text-is('Copied')").wait_for()
    link = first.page.locator(f"{SHARE} a.wb-share-link").get_attribute("href")
    assert link == f"{WORKBENCH_PAGE}#tool=encounter&code={code}"
    shared = wb.open_code(code)
    assert RAIDERS in [c.name for c in shared.creatures]
    visits.forget()  # the other Director's workbench has never seen it

    # ---- another visit opens the link (on the builder first, as a bare link would): the encounter tool opens it
    fragment = link.removeprefix(WORKBENCH_PAGE)
    second = visits.open(fragment.replace("tool=encounter&", ""), f"#rendered_cells .wb-page {ENCOUNTER}")
    opened_here(second)
    assert load_workspace(visits.workspace_file).encounter == shared

    # ---- in a fresh workspace, a link followed on the open page changes only its fragment
    desk = tmp_path / "other desk"
    fresh_workspace(second, str(desk))
    second.page.locator(f"{ENCOUNTER} .wb-encounter-rows:has-text('{RAIDERS}')").wait_for(state="detached")
    second.page.evaluate("fragment => { location.hash = fragment; }", fragment)
    opened_here(second)
    assert load_workspace(desk / "workspace.json").encounter == shared

    # ---- the fight tool of that page runs it
    second.page.click(".wb-tool-bar a[data-tool='fight']")
    second.page.locator(f".wb-fight-summary:has-text('3 × {RAIDERS}')").wait_for(timeout=PAGE_TIMEOUT)
    expected = wb.Fight(shared)
    expected.start_round()
    second.button("Next round", RUNNER).click()
    second.page.locator(f"{RUNNER} .wb-fight-malice-line:has-text('Malice: {expected.malice}')").wait_for()
