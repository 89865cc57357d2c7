"""Browser tests: one Voilà server (started by `workbench app`) and one headless Chromium per session.

Every test module opens its notebook once (a page load runs the whole notebook in a new kernel, 10-50 s on
a busy 2-core machine) and drives that page like a person: keyboard on sliders, mouse on pickers and
buttons. Requests to other hosts (Voilà's template asks a CDN for icon fonts) are answered with an empty
stylesheet, so the tests never need the network and a console error always means a fault of ours.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from voila_page import AppPage

from workbench.cli.app import HOST, TOKEN_ENV, free_port

SERVER_START_TIMEOUT = 180  # seconds: importing jupyter_server + voila on a loaded machine
PAGE_TIMEOUT = 240_000  # ms: the notebook runs before the page arrives
# The server asks for a token, as a Director's does; the tests choose it (`workbench app` honours $WORKBENCH_APP_TOKEN).
APP_TOKEN = secrets.token_hex(24)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/browser/ carries the `browser` mark (so `-m "not browser"` leaves it out)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)


def _wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"`workbench app` exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.settimeout(0.5)
            if probe.connect_ex((HOST, port)) == 0:
                return
        time.sleep(0.2)
    pytest.fail(f"Voilà did not listen on {HOST}:{port} within {SERVER_START_TIMEOUT} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def workbench_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test server's Director's workbench folder (workspace, saved monsters): a fresh one per run, inside
    the server's home folder as a Director's is, so the pages show it as ~/drawsteel-workbench wherever the
    checkout lies (a checkout under /tmp would otherwise put a temporary-looking path on the pages)."""
    return tmp_path_factory.mktemp("voila-home") / "drawsteel-workbench"


@pytest.fixture(scope="session")
def voila_url(artifacts_dir: Path, workbench_home: Path) -> Iterator[str]:
    """Base URL of a Voilà server started the way a Director starts it: `workbench app --port P`."""
    port = free_port()
    log = artifacts_dir / "voila-server.log"
    env = dict(os.environ, HOME=str(workbench_home.parent), WORKBENCH_HOME=str(workbench_home),
               **{TOKEN_ENV: APP_TOKEN})
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "workbench.cli", "app", "--port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
    try:
        _wait_for_port(port, process, log)
        yield f"http://{HOST}:{port}"
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # Voilà shuts its kernels down, then exits
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


@pytest.fixture(scope="session")
def app_token() -> str:
    """The token the test server asks for (in a URL: `?token=...`)."""
    return APP_TOKEN


@pytest.fixture(scope="session")
def browser(chromium_launch_kwargs: dict) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(**chromium_launch_kwargs)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def open_app(browser, voila_url: str, artifacts_dir: Path) -> Iterator:
    """`open_app(notebook, ready_selector)` -> an `AppPage` with the notebook rendered and its app ready."""
    pages: list[AppPage] = []

    def open_(notebook: str, ready: str) -> AppPage:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        app = AppPage(page, notebook, artifacts_dir)
        page.route(re.compile(rf"^https?://(?!{re.escape(HOST)}[:/])"), app.answer_offline)
        page.goto(f"{voila_url}/voila/render/{notebook}?token={APP_TOKEN}", timeout=PAGE_TIMEOUT)
        page.wait_for_selector(ready, timeout=PAGE_TIMEOUT)
        pages.append(app)
        return app

    yield open_
    for app in pages:
        app.close()
