"""The encounter page's "Add a bestiary" by mouse: a link to an archive made here and served from a local HTTP
server in a thread (never the internet) fills the picker, each row naming its bestiary and its attribution shown
under the count. The bestiary is removed afterwards, so the other tests see the workspace as it was."""

from __future__ import annotations

import functools
import http.server
import io
import json
import shutil
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from voila_page import AppPage
from voila_server import PAGE_TIMEOUT

from workbench.formats.bestiary import SAMPLE_DIR
from workbench.server.site import WORKBENCH_PAGE

ENCOUNTER = ".wb-encounter-app"
READY = "#rendered_cells .wb-page .wb-encounter-app .wb-encounter-summary .wb-ev-total"

NAME = "browser-beasts"
LICENCE = "Browser beasts, made by the workbench tests and free for any use."
SIZE = 6


def archive() -> bytes:
    """A .tar.gz of SIZE sample stat blocks renamed ("Served Beast N"), one broken file and a LICENSE."""
    members = {}
    for number, path in enumerate(sorted(SAMPLE_DIR.rglob("*.json"))[:SIZE]):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["name"] = f"Served Beast {number}"
        members[f"beasts/{number}.json"] = json.dumps(data).encode("utf-8")
    members["beasts/broken.json"] = b'{"type": "statblock", "name": '
    members["LICENSE"] = (LICENCE + "\n").encode("utf-8")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def served(tmp_path) -> Iterator[str]:
    (tmp_path / f"{NAME}.tar.gz").write_bytes(archive())
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{NAME}.tar.gz"
    finally:
        server.shutdown()
        server.server_close()


def test_a_bestiary_added_from_a_link_fills_the_picker_with_its_attribution(
    browser, voila_url, app_token, artifacts_dir, page_errors, workbench_home: Path, served: str, until_ready,
    server_log
):
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    app = AppPage(context.new_page(), "bestiary-add", artifacts_dir, page_errors)
    app.page.goto(f"{voila_url}/voila/render/{WORKBENCH_PAGE}?token={app_token}#tool=encounter",
                  timeout=PAGE_TIMEOUT)
    until_ready(app, READY, server_log)
    try:
        page = app.page
        app.accordion("Add a bestiary (a folder, .zip, .tar.gz or link)", ENCOUNTER).click()
        app.fill("Folder or URL", served, ENCOUNTER)
        app.button("Add the bestiary", ENCOUNTER).click()
        said = page.locator(f"{ENCOUNTER} .wb-add-bestiary-message:has-text('Added {NAME}')")
        said.wait_for()
        assert f"Added {NAME}: {SIZE} monsters" in said.inner_text()
        assert "beasts/broken.json" in said.inner_text()  # the failing file, named
        bar = page.locator(f"{ENCOUNTER} .wb-add-bestiary-progress")
        assert bar.is_visible() and f"Reading {SIZE + 1} of {SIZE + 1} files" in bar.inner_text()
        # the picker's attribution line is there from the start (the sample's): wait for the new bestiary's
        attribution = page.locator(f"{ENCOUNTER} .wb-bestiary-attribution")
        expect(attribution).to_contain_text(f"{NAME} ({SIZE} monsters): {LICENCE}", timeout=30_000)
        rows = page.locator(f"{ENCOUNTER} .wb-bestiary-rows option", has_text=f"· {NAME}")
        expect(rows).to_have_count(SIZE, timeout=30_000)
        app.screenshot("bestiary-added", ENCOUNTER)
    finally:
        app.close()
        shutil.rmtree(workbench_home / "bestiaries" / NAME, ignore_errors=True)
