"""The preheated workbench page: its kernel ran the page's notebook before the visit, yet every visitor gets a
page of their own, the Director's folder as it is at the visit, and the preheat's own websocket keeps the
server's Host and Origin checks. A page left shuts its kernel down (no kernel a visit stays behind).

The test server is the session's `workbench app` (tests/browser/conftest.py); its log
(test-artifacts/voila-server-pages-<worker>.log) says when Voilà has refilled a page's pool after a visit, so the visits
below are made with a kernel that was preheated before what the test changed.
"""

from __future__ import annotations

import base64
import http.client
import os
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from kept_file import kept_file
from test_browser_workbench import READY as TOOL_READY
from test_browser_workbench import view as tool_view

from workbench.server.site import WORKBENCH_PAGE

PAGE = WORKBENCH_PAGE  # the one page `workbench app` preheats
LEVEL = ('#rendered_cells .wb-tool-view:not([style*="none"]) '
         '.widget-slider:has(> label.widget-label:text-is("Level")) .noUi-handle')
REFILL_TIMEOUT = 240  # s: a refill starts a kernel and runs the page's notebook on a busy machine


def _filled(log: Path) -> int:
    return log.read_text().count(f"Kernel pool of {PAGE} is filled")


def _wait_for_pool(log: Path, at_least: int) -> int:
    deadline = time.monotonic() + REFILL_TIMEOUT
    while _filled(log) < at_least:
        if time.monotonic() > deadline:
            pytest.fail(f"{PAGE}'s preheated kernel was not ready within {REFILL_TIMEOUT} s")
        time.sleep(0.5)
    return _filled(log)


def _visit(browser, voila_url, app_token, tool="monster"):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/{PAGE}?token={app_token}#tool={tool}", timeout=240_000)
    page.wait_for_selector(f"{tool_view(tool)} {TOOL_READY[tool]}", state="visible", timeout=240_000)
    return context, page


def _level(page) -> int:
    return int(float(page.locator(LEVEL).first.get_attribute("aria-valuenow")))


def test_a_second_visitor_gets_a_page_of_their_own(browser, voila_url, app_token, server_log):
    filled = _wait_for_pool(server_log, 1)
    first, page = _visit(browser, voila_url, app_token)
    try:
        opened = _level(page)
        handle = page.locator(LEVEL).first
        handle.focus()
        handle.press("ArrowRight")
        handle.press("ArrowRight")
        deadline = time.monotonic() + 60
        while _level(page) != opened + 2 and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        _wait_for_pool(server_log, filled + 1)  # the next kernel is preheated while the first visitor works
        second, other = _visit(browser, voila_url, app_token)
        try:
            assert _level(other) == opened  # not the first visitor's level
            assert _level(page) == opened + 2
        finally:
            second.close()
    finally:
        first.close()


def test_a_page_preheated_before_the_workspace_changed_shows_the_change(browser, voila_url, app_token, server_log,
                                                                        workbench_home):
    """The solos tool opens at the party's level; the party is changed (as another tab's encounter tool does)
    after the page's kernel was preheated: the visitor's solos still show the new level."""
    from workbench.encounter.encounter import Encounter
    from workbench.encounter.party import make_party
    from workbench.workspace.state import Workspace, load_workspace, save_workspace

    _wait_for_pool(server_log, _filled(server_log) or 1)
    with kept_file(workbench_home / "workspace.json") as path:  # the test server's Director's workspace
        level = 8 if round(load_workspace(path).encounter.party.average_level) != 8 else 9
        save_workspace(Workspace(encounter=Encounter(party=make_party(heroes=4, level=level))), path)
        context, page = _visit(browser, voila_url, app_token, "solos")
        try:
            assert _level(page) == level
        finally:
            context.close()


def test_a_page_left_shuts_its_kernel_down_and_the_shutdown_keeps_its_xsrf_check(browser, voila_url, app_token,
                                                                                server_log):
    """Voilà's page posts a shutdown beacon as it unloads; the server used to refuse it (no `_xsrf` cookie), and
    every visit's kernel stayed running until culled 15 idle minutes later. (Playwright's interception,
    `page.route`, would drop a request made while the page unloads, the beacon too: no page is routed.)"""
    context, page = _visit(browser, voila_url, app_token)
    try:
        kernel = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
        shut = f"Kernel shutdown: {kernel}"
        refused = context.request.post(f"{voila_url}/voila/api/shutdown/{kernel}", form={})  # the cookies, no _xsrf
        assert refused.status == 403
        page.goto("about:blank")
        deadline = time.monotonic() + 60
        while shut not in server_log.read_text():
            assert time.monotonic() < deadline, f"the page's kernel {kernel} was still running 60 s after it was left"
            time.sleep(0.2)
    finally:
        context.close()


def _upgrade(voila_url: str, headers: dict[str, str]) -> int:
    address = urlparse(voila_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.request("GET", "/voila/query/00000000-0000-4000-8000-000000000000", headers={
        "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": key,
        **headers})
    status = connection.getresponse().status
    connection.close()
    return status


def test_the_preheat_request_socket_needs_the_token_this_host_and_this_origin(voila_url, app_token):
    """/voila/query/<kernel> hands a preheated kernel its visitor's request (the token in its query string):
    Voilà leaves it open to anyone; the server asks for what the kernel's own connection sends."""
    port = urlparse(voila_url).port
    own = {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}", "Authorization": f"token {app_token}"}
    assert _upgrade(voila_url, {**own, "Host": f"evil.example:{port}"}) == 403
    assert _upgrade(voila_url, {**own, "Origin": "http://evil.example"}) == 403
    assert _upgrade(voila_url, {key: value for key, value in own.items() if key != "Origin"}) == 403
    assert _upgrade(voila_url, {key: value for key, value in own.items() if key != "Authorization"}) == 403
    assert _upgrade(voila_url, {**own, "Authorization": "token " + "0" * 48}) == 403
    assert _upgrade(voila_url, own) == 101  # the control: a kernel's own connection
