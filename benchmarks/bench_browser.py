"""From a Level slider key press in a real browser to the builder page settled (its last DOM change), in ms.

Starts `workbench app` (Voilà) on a free port with a known token, opens the monster page
(`workbench/pages/monster.ipynb`) in headless Chromium, adds 8 abilities through the builder's Abilities section
by mouse (a leader with 8 abilities), then moves the Level slider the way a person does: the handle
focused, one ArrowRight or ArrowLeft press per change (up to the top level, then back down).

What is timed, in the page (performance.now(), from the keydown):
- *block*: the first DOM change at which the stat block shows the new level;
- *settled*: the last DOM change anywhere in the builder caused by that key (the slider's own handle and
  readout excluded: they move at once, in the browser). At a person's pace each key waits for 400 ms of
  quiet; at 175 ms between keys, a key's last change is the last one before the next key, or the block's
  change if that came later;
- *frames*: websocket messages from the kernel per key, and their bytes (every widget update is one).

Four runs: at a person's pace (the page settles before the next key) and at 175 ms between keys, with the
working tab open (an HTML view drawn with the block: the tab the builder opens on) and with the Scaling chart
tab open (plotly redraws its figure on every change, and that redraw is the page's last change). Goal (issues
13 and 18): settled p95 < 40 ms, both paces.

Run: .venv/bin/python benchmarks/bench_browser.py [changes] [--tab TITLE] [--off DEVICE]   (default 40 a run;
DEVICE: `switches.DEVICES`)
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from app_server import add_off_option, launch_chromium, percentile, running_app
from playwright.sync_api import Page, sync_playwright
from timing import load_average

NOTEBOOK = "monster.ipynb"
APP = ".wb-builder"
ABILITIES = int(os.environ.get("BENCH_ABILITIES", "8"))  # 0 to measure a builder without the Abilities section

# Installed once in the page: every DOM change in the builder outside the Level slider is logged with its time
# and the level the stat block shows then; a keydown on the handle is logged too.
PROBE = """
({app}) => {
  const root = document.querySelector(app);
  const slider = Array.from(root.querySelectorAll('.widget-slider'))
    .find(s => s.querySelector('label.widget-label').textContent.trim() === 'Level');
  const handle = slider.querySelector('.noUi-handle');
  const blockLevel = () => { const b = root.querySelector('.wb-stat-block-view .wb-stat-block');
                             return b ? +b.dataset.level : null; };
  const log = window.__log = {keys: [], changes: []};
  handle.addEventListener('keydown', () => log.keys.push(performance.now()), true);
  new MutationObserver(records => {
    if (records.every(r => slider.contains(r.target))) return;
    const where = r => { const e = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const part = e && e.closest('.wb-scaling-chart, .wb-stat-block-view, .wb-ability-form, .wb-rows, .lm-TabBar, .jupyter-widget-Collapse');
      return part ? part.className.split(' ').filter(c => c.startsWith('wb-') || c.startsWith('lm-') || c.startsWith('jupyter-widget-C')).join('.') : (e ? e.className : '?'); };
    log.changes.push([performance.now(), blockLevel(), where(records[records.length - 1])]);
  }).observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""


# (the tab open below the block, the pace, the milliseconds between keys or None to wait for quiet)
RUNS = (
    ("How was this computed", "a person's pace (quiet before each key)", None),
    ("How was this computed", "175 ms between keys", 175),
    ("Scaling chart", "a person's pace (quiet before each key)", None),
    ("Scaling chart", "175 ms between keys", 175),
)



def report(label: str, values: list[float], unit: str = "ms") -> None:
    print(f"{label:<44} median {statistics.median(values):7.1f} {unit}   p95 {percentile(values, 0.95):7.1f} {unit}"
          f"   max {max(values):7.1f}   (n={len(values)})")



def add_abilities(page: Page) -> None:
    """The Abilities section opened and 8 abilities added by mouse, as a Director does."""
    if not ABILITIES:
        return
    header = page.locator(f'{APP} .jupyter-widget-Collapse-header:has(span:text-is("Abilities"))').first
    header.click()
    form = f"{APP} .wb-ability-form"
    picker = page.locator(f"{form} .widget-dropdown select").first
    for number in range(ABILITIES):
        picker.select_option(index=number % 5)
        page.locator(f'{form} button.jupyter-button:text-is("Add")').first.click()
        page.wait_for_function("([css, n]) => document.querySelectorAll(css).length === n",
                               arg=[f"{APP} .wb-stat-block-view .wb-ability", number + 1])
    header.click()  # folded away again: the numbers are what a slider move changes


def open_builder(page: Page, url: str, token: str) -> float:
    """The monster page opened on its working tab (as it opens), 8 abilities added by mouse and the probe in;
    returns the seconds from the request to the page ready."""
    opened = time.perf_counter()
    page.goto(f"{url}/voila/render/{NOTEBOOK}?token={token}", timeout=300_000)
    page.wait_for_selector(f"{APP} .wb-stat-block", timeout=300_000)
    page.wait_for_selector(f"{APP} .wb-explain-view .wb-explain", timeout=300_000)  # the tab it opens on
    ready = time.perf_counter() - opened
    add_abilities(page)
    page.evaluate(PROBE, {"app": APP})
    return ready


def run(page: Page, frames: list[tuple[float, int]], changes: int, gap_ms: int | None) -> dict[str, list[float]]:
    """`changes` key presses, each after the page is quiet (gap None) or `gap_ms` after the last."""
    handle = page.locator(
        f'{APP} .widget-slider:has(> label.widget-label:text-is("Level")) .noUi-handle').first
    handle.focus()
    low, high = (int(float(handle.get_attribute(a) or 0)) for a in ("aria-valuemin", "aria-valuemax"))
    level = int(float(handle.get_attribute("aria-valuenow") or 1))
    page.evaluate("() => { window.__log.keys = []; window.__log.changes = []; }")
    frames.clear()
    targets, step = [], 1
    for _ in range(changes):
        if not low <= level + step <= high:
            step = -step
        level += step
        targets.append(level)
        handle.press("ArrowRight" if step > 0 else "ArrowLeft")
        if gap_ms is None:
            page.wait_for_function("t => { const b = document.querySelector("
                                   f"'{APP} .wb-stat-block-view .wb-stat-block'); return b && +b.dataset.level === t; }}",
                                   arg=level, timeout=60_000)
            quiet(page, 400)
        else:
            page.wait_for_timeout(gap_ms)
    quiet(page, 600)
    log = page.evaluate("() => window.__log")
    origin = page.evaluate("() => performance.timeOrigin")
    keys, changes_log = log["keys"], log["changes"]
    result: dict[str, list[float]] = {"block": [], "settled": [], "frames": [], "kilobytes": []}
    for k, (start, target) in enumerate(zip(keys, targets, strict=True)):
        end = keys[k + 1] if k + 1 < len(keys) else float("inf")
        shown = next((t for t, lvl, _ in changes_log if t >= start and lvl == target), None)
        if shown is None:
            continue  # overtaken by the next key before it showed (counted as missing below)
        last = max([t for t, _, _ in changes_log if start <= t < end] + [shown])
        result["block"].append(shown - start)
        result["settled"].append(last - start)
        in_window = [size for at, size in frames if start <= at - origin < min(end, last + 1)]
        result["frames"].append(float(len(in_window)))
        result["kilobytes"].append(sum(in_window) / 1024)
    lasts: dict[str, int] = {}
    for k, start in enumerate(keys):
        end = keys[k + 1] if k + 1 < len(keys) else float("inf")
        inside = [c for c in changes_log if start <= c[0] < end]
        if inside:
            lasts[inside[-1][2]] = lasts.get(inside[-1][2], 0) + 1
    print("  where each key's last DOM change was:", ", ".join(f"{w} ×{n}" for w, n in sorted(lasts.items(), key=lambda x: -x[1])))
    missing = len(targets) - len(result["block"])
    if missing:
        print(f"  {missing} of {len(targets)} keys were overtaken by the next before their level showed")
    return result


def quiet(page: Page, ms: int) -> None:
    """Wait until no DOM change was logged for `ms` milliseconds."""
    page.wait_for_function(
        "ms => { const c = window.__log.changes; return !c.length || performance.now() - c[c.length - 1][0] > ms; }",
        arg=ms, timeout=60_000, polling=50)


def main(changes: int = 40, off: tuple[str, ...] = (), tabs: tuple[str, ...] = ()) -> None:
    print(f"{os.cpu_count()} cores, load average {load_average()}; off: {', '.join(off) or 'none'}")
    token = secrets.token_hex(24)
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as scratch:
        started = time.perf_counter()
        with running_app(Path(scratch), token, off=off) as (_server, url):
            print(f"Voilà listening after {time.perf_counter() - started:.1f} s")
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(url)
                           else r.fulfill(status=200, body=""))
                frames: list[tuple[float, int]] = []

                def watch(ws: Any) -> None:
                    def received(payload: Any) -> None:
                        frames.append((time.time() * 1000, len(payload)))
                    ws.on("framereceived", received)

                page.on("websocket", watch)
                print(f"page ready {open_builder(page, url, token):.1f} s after the request")
                for tab, label, gap in RUNS:
                    if tabs and tab not in tabs:
                        continue
                    page.locator(f'{APP} .lm-TabBar-tab:has(.lm-TabBar-tabLabel:text-is("{tab}"))').first.click()
                    quiet(page, 600)
                    print(f"-- {label}, {ABILITIES} abilities, tab open: {tab}; load "
                          f"{load_average()}")
                    result = run(page, frames, changes, gap)
                    report("key -> stat block shows the level", result["block"])
                    report("key -> page settled (last DOM change)", result["settled"])
                    report("websocket messages from the kernel a key", result["frames"], "msg")
                    report("kilobytes from the kernel a key", result["kilobytes"], "KB")
                    print(f"goal settled p95 < 40 ms: {'met' if percentile(result['settled'], 0.95) < 40 else 'NOT met'}")
                browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("changes", type=int, nargs="?", default=40, help="changes a run (default 40)")
    parser.add_argument("--tab", action="append", default=[], help="only the runs with this tab open (repeatable)")
    add_off_option(parser)
    args = parser.parse_args()
    main(args.changes, tuple(args.off), tuple(args.tab))
