"""Where a builder key's time goes with the Scaling chart shown: the kernel's answer, the stat block, plotly's redraw.

`bench_browser.py` times a Level key to the page settled; with the chart tab open the chart's redraw is the last
change, and the goal (p95 < 40 ms) is not met there. This script splits that time, in the page
(performance.now(), from the keydown), for the same monster (a leader with 8 abilities added by mouse) at a
person's pace:
- *kernel reached*: the first websocket message after the key (the kernel's "busy" as it takes the change);
- *stat block*: the first DOM change at which the stat block shows the new level;
- *chart message handled*: when the page calls `Plotly.update` with the kernel's change of the chart;
- *redraw in the flow*: how long that call runs (plotly.js redraws a figure whose data changed whole, on the
  page's main thread, laying out the page the stat block's change left dirty as it measures its text);
- *settled*: the last DOM change (the chart's, each key here).

Then the very same `Plotly.update` calls, recorded as the keys made them, are replayed on the same chart with
the page otherwise quiet (a frame and 50 ms between calls): *the same redraw alone*. That is plotly.js's own
cost, the floor under any change that goes through `Plotly.update`.

Run: .venv/bin/python benchmarks/bench_chart_breakdown.py [keys]   (default 30)
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

from app_server import launch_chromium, running_app  # scripts beside this one
from bench_browser import APP, open_builder, quiet, report, run
from playwright.sync_api import sync_playwright
from timing import load_average

# Before the page's own scripts: every websocket message's arrival is logged (the kernel's messages).
ARRIVALS = """
(() => {
  window.__arrivals = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => window.__arrivals.push(performance.now()));
    }
  };
})();
"""

# Once the chart is drawn: each Plotly.update is logged with its start, its end and its arguments (copied as
# sent: plain data, typed arrays as arrays).
HOOK = """
() => {
  window.__updates = [];
  const update = Plotly.update;
  const copy = value => JSON.parse(JSON.stringify(value, (k, v) => ArrayBuffer.isView(v) ? Array.from(v) : v));
  Plotly.update = function (gd, data, layout, traces) {
    const start = performance.now();
    const args = [copy(data), copy(layout), traces];
    const done = update.call(this, gd, data, layout, traces);
    window.__updates.push({start, end: performance.now(), args});
    return done;
  };
  window.__update = update;
}
"""

# The recorded calls again, on the same chart, each after a frame and 50 ms of quiet: milliseconds each.
REPLAY = """
async (chart) => {
  const el = document.querySelector(chart);
  const frame = () => new Promise(done => requestAnimationFrame(() => setTimeout(done, 50)));
  const spent = [];
  for (const {args} of window.__updates) {
    await frame();
    const start = performance.now();
    await window.__update(el, ...args);
    spent.push(performance.now() - start);
  }
  return spent;
}
"""


def breakdown(log: dict[str, Any]) -> dict[str, list[float]]:
    """Per key: the times above, each from the key's keydown (keys whose chart was never updated are left out)."""
    keys, arrivals, updates, changes = log["keys"], log["arrivals"], log["updates"], log["changes"]
    out: dict[str, list[float]] = {name: [] for name in ("reached", "block", "handled", "redraw", "settled")}
    for k, start in enumerate(keys):
        end = keys[k + 1] if k + 1 < len(keys) else float("inf")
        mine = [u for u in updates if start <= u["start"] < end]
        heard = [t for t in arrivals if start <= t < end]
        shown = [t for t, level, _ in changes if start <= t < end and level is not None]
        moved = [t for t, _, _ in changes if start <= t < end]
        if not (mine and heard and shown):
            continue
        out["reached"].append(heard[0] - start)
        out["block"].append(shown[0] - start)
        out["handled"].append(mine[-1]["start"] - start)
        out["redraw"].append(mine[-1]["end"] - mine[-1]["start"])
        out["settled"].append(max(moved) - start)
    return out


def main(keys: int = 30) -> None:
    print(f"{os.cpu_count()} cores, load average {load_average()}")
    token = secrets.token_hex(24)
    with tempfile.TemporaryDirectory(prefix="bench-breakdown-") as scratch, \
            running_app(Path(scratch), token) as (_server, url), sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(ARRIVALS)
        open_builder(page, url, token)
        page.locator(f'{APP} .lm-TabBar-tab:has(.lm-TabBar-tabLabel:text-is("Scaling chart"))').first.click()
        page.wait_for_selector(f"{APP} .wb-scaling-chart .main-svg", timeout=60_000)
        quiet(page, 800)
        page.evaluate(HOOK)
        page.evaluate("() => { window.__arrivals = []; }")
        run(page, [], keys, None)
        log = page.evaluate("() => ({keys: __log.keys, changes: __log.changes, arrivals: __arrivals, "
                            "updates: __updates.map(u => ({start: u.start, end: u.end}))})")
        alone = page.evaluate(REPLAY, f"{APP} .wb-scaling-chart.js-plotly-plot")
        browser.close()
    parts = breakdown(log)
    print(f"-- a person's pace, Scaling chart tab, 8 abilities; load {load_average()}")
    report("key -> kernel reached (first message back)", parts["reached"])
    report("key -> stat block shows the level", parts["block"])
    report("key -> chart message handled (Plotly.update)", parts["handled"])
    report("Plotly.update in the flow", parts["redraw"])
    report("the same Plotly.update alone, page quiet", alone)
    report("key -> page settled (last DOM change)", parts["settled"])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
