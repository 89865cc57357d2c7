"""Every lesson and app page served both ways, by `workbench app` and by plain `voila` (no workbench template,
token or guard): its console and page errors, and its time to drawn, in headless Chromium.

`make test` opens the six app pages and lessons 00-07 through `workbench app` and fails on any console or page
error (lesson 08, with no widget and no chart, runs under nbval only); under plain `voila` it opens one lesson
with both kinds of chart (`tests/browser/test_browser_plain_voila.py`), since each page there runs its notebook
in a fresh kernel (seconds of CPU a page). This script opens all 15 both ways, for the goal "0 page errors
in every app page served both ways". A page counts as drawn when its notebook
has run (Voilà's rendered cells are in), every plotly chart on it has its SVG and its element count has held
for 2 s; it then has 1 s more for late errors (plotly's renderers did their work after drawing). Under plain
`voila` the requests Voilà's own template makes to a CDN for icon fonts are answered empty (this machine has no
other network); through `workbench app` nothing is answered for the page, so a request to another host fails
and counts as an error.

Prints one line a page and exits 1 if any page had an error or never drew.

Run: .venv/bin/python benchmarks/check_page_errors.py
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app_server import launch_chromium, listening, running_app  # a script beside this one
from playwright.sync_api import sync_playwright

from workbench.server.app import HOST, free_port

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "workbench" / "pages").glob("*.ipynb"))
# Drawn: the rendered cells are in, every chart has its SVG, and the page's element count has held for 2 s (the
# widgets render after the cells, their charts after them).
DRAWN = """() => {
  const cells = document.querySelector('#rendered_cells');
  const plots = cells ? Array.from(cells.querySelectorAll('.js-plotly-plot, .plotly-graph-div')) : [];
  const state = window.__drawn = window.__drawn || {count: -1, since: performance.now()};
  const count = document.getElementsByTagName('*').length;
  if (!cells || !plots.every(p => p.querySelector('.main-svg')) || count !== state.count) {
    state.count = count; state.since = performance.now(); return false;
  }
  return performance.now() - state.since > 2000;
}"""


def serve(page: Path, logs: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Plain `voila page` on a free port, its HOME and log in `logs`; returns it and its URL once it listens."""
    port = free_port()
    home, log = logs / f"{page.stem}-home", logs / f"{page.stem}.log"
    home.mkdir()
    with log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "voila", str(page), "--no-browser", f"--port={port}",
                                   f"--Voila.ip={HOST}"], stdout=out, stderr=subprocess.STDOUT,
                                  env=dict(os.environ, HOME=str(home)))
    return server, listening(server, port, log, f"voila {page.name}") + "/"


def check(browser: Any, url: str, fonts_from_cdn: bool = False) -> tuple[str, list[str]]:
    """One page: how long it took to draw, with how many charts, and its errors."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    context.on("weberror", lambda e: errors.append(f"page error: {e.error}"))
    page = context.new_page()
    if fonts_from_cdn:  # plain Voilà's template: answered empty
        page.route(re.compile(rf"^https?://(?!{re.escape(HOST)}[:/])"),
                   lambda route: route.fulfill(status=200, body=""))
    started = time.monotonic()
    try:
        page.goto(url, timeout=300_000)
        page.wait_for_function(DRAWN, timeout=300_000, polling=100)
        charts = page.locator("#rendered_cells .js-plotly-plot, #rendered_cells .plotly-graph-div").count()
        drawn = f"drawn in {time.monotonic() - started - 2:5.1f} s, {charts} chart(s)"
        tracebacks = page.locator("#rendered_cells").inner_text().count("Traceback")
        if tracebacks:
            errors.append(f"{tracebacks} traceback(s) in the page")
        page.wait_for_timeout(1000)
    except Exception as exc:  # reported, and the next page still checked
        drawn = f"never drawn ({type(exc).__name__})"
        errors.append(str(exc).splitlines()[0])
    finally:
        context.close()
    return drawn, errors


def report(way: str, notebook: Path, drawn: str, errors: list[str]) -> None:
    print(f"{way:<14} {str(notebook.relative_to(ROOT)):<42} {drawn}, {len(errors)} error(s)", flush=True)
    for error in errors:
        print(f"    {error[:300]}")


def main() -> int:
    failed = 0
    logs = Path(tempfile.mkdtemp(prefix="check-page-errors-"))
    token = secrets.token_hex(24)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        (logs / "home").mkdir()
        with running_app(logs / "home", token, logs / "workbench-app.log") as (_server, url):
            for notebook in PAGES:
                drawn, errors = check(browser, f"{url}/voila/render/{notebook.name}?token={token}")
                failed += bool(errors)
                report("workbench app", notebook, drawn, errors)
        for notebook in PAGES:
            server, url = serve(notebook, logs)
            try:
                drawn, errors = check(browser, url, fonts_from_cdn=True)
            finally:
                server.terminate()
                server.wait(30)
            failed += bool(errors)
            report("plain voila", notebook, drawn, errors)
        browser.close()
    print(f"{len(PAGES)} pages both ways, {failed} with an error or never drawn; servers' logs in {logs}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
