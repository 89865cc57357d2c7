"""Where an app page's later visit spends its time, in the browser: a timeline and a CPU profile.

`bench_pages.py` says how long a page takes to be usable; this says where that time goes, for the goal "every
page usable < 2 s from the second visit on". It starts `workbench app` on a free port, opens one page
several times in one headless Chromium (each visit in a new tab, 8 s apart so the server's pool is full again),
and prints for each visit, in ms from the navigation's start:

- the page's own events: DOMContentLoaded, load (Voilà's app starts then);
- the kernel's websocket: opened, its first message, and each large message (the kernel's answer with every
  widget's state is the first);
- the first widget drawn, the page's tool (`.wb-page`), the first chart drawn (plotly's `.main-svg`);
- the main thread's long tasks (over 50 ms) with their length;
- plotly's widget bundle: when its fetch ended and how long it took.

Then the CPU profile of the last visit, self time by script and by function: what the main thread did.

Run: .venv/bin/python benchmarks/bench_page_timeline.py [page] [visits]   (default calibration.ipynb, 3)
"""

from __future__ import annotations

import collections
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app_server import OFFLINE, launch_chromium, running_app
from bench_pages import READY
from playwright.sync_api import sync_playwright

PROBE = """
(() => {
  const marks = window.__marks = [];
  const now = () => performance.now();
  const seen = new Set();
  const parts = {"first widget drawn": ".jp-OutputArea-output .jupyter-widgets", "the page's tool": ".wb-page",
                 "first chart drawn": ".js-plotly-plot .main-svg"};
  new MutationObserver(() => {
    for (const [name, selector] of Object.entries(parts)) {
      if (!seen.has(name) && document.querySelector(selector)) { seen.add(name); marks.push([name, now()]); }
    }
  }).observe(document, {subtree: true, childList: true});
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      marks.push(["websocket made", now()]);
      this.addEventListener("open", () => marks.push(["websocket open", now()]));
      let count = 0;
      this.addEventListener("message", event => {
        const size = event.data.byteLength ?? event.data.length;
        if (++count === 1) marks.push(["websocket's first message", now()]);
        if (size > 20000) marks.push([`websocket message of ${Math.round(size / 1000)} kB`, now()]);
      });
    }
  };
  document.addEventListener("DOMContentLoaded", () => marks.push(["DOMContentLoaded", now()]));
  window.addEventListener("load", () => marks.push(["load (Voilà's app starts)", now()]));
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      if (entry.name.includes("plotly-widget")) {
        marks.push([`plotly's bundle fetched (${entry.duration.toFixed(0)} ms)`, entry.startTime + entry.duration]);
      }
    }
  }).observe({type: "resource", buffered: true});
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) marks.push([`long task ${entry.duration.toFixed(0)} ms`, entry.startTime]);
  }).observe({type: "longtask", buffered: true});
})();
"""


def self_times(profile: dict[str, Any]) -> tuple[collections.Counter[str], collections.Counter[str]]:
    """A CPU profile's self time (ms) by script file and by function (name, file, line)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    by_script: collections.Counter[str] = collections.Counter()
    by_function: collections.Counter[str] = collections.Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[sample]["callFrame"]
        script = frame["url"].split("/")[-1].split("?")[0] or "(the browser itself)"
        by_script[script] += delta / 1000
        by_function[f"{frame['functionName'] or '(top level)'} in {script}:{frame['lineNumber'] + 1}"] += delta / 1000
    return by_script, by_function


def main(page_file: str = "calibration.ipynb", visits: int = 3) -> None:
    token = secrets.token_hex(24)
    with tempfile.TemporaryDirectory(prefix="bench-timeline-") as scratch, \
            running_app(Path(scratch), token) as (_server, url), sync_playwright() as playwright:
        browser = launch_chromium(playwright, OFFLINE)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.add_init_script(PROBE)
        profile: dict[str, Any] = {}
        for visit in range(1, visits + 1):
            time.sleep(8)  # the pool refills after each visit
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            for command in ("Profiler.enable", "Profiler.start"):
                cdp.send(command)
            started = time.perf_counter()
            page.goto(f"{url}/voila/render/{page_file}?token={token}", wait_until="commit", timeout=300_000)
            page.wait_for_selector(READY, timeout=300_000)
            usable = time.perf_counter() - started
            profile = cdp.send("Profiler.stop")["profile"]
            page.wait_for_timeout(300)  # the long task that drew the chart is reported a moment later
            print(f"visit {visit} of {page_file}: usable {usable:.2f} s")
            for name, at in sorted(page.evaluate("window.__marks"), key=lambda mark: mark[1]):
                print(f"  {at:7.0f} ms  {name}")
            page.goto("about:blank")
            page.close()
        browser.close()
    by_script, by_function = self_times(profile)
    print(f"CPU profile of visit {visits}, self time by script (ms):")
    for script, ms in by_script.most_common(10):
        print(f"  {ms:7.1f}  {script}")
    print("by function (ms):")
    for function, ms in by_function.most_common(12):
        print(f"  {ms:7.1f}  {function}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "calibration.ipynb", int(sys.argv[2]) if len(sys.argv) > 2 else 3)
