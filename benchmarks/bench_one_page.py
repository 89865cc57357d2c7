"""The workbench page as a Director uses it: from its address to the first tool usable, to each other tool the first
time and after, the builder's Level key to the block settled, and the server's memory with every tool opened.

Starts `workbench app` on a free port (a scratch HOME: a fresh Director's folder), waits until it has settled
(the workbench page's preheated kernel ready, unless `--no-preheat`), then in headless Chromium (the printer's,
with a profile on disk as a Director's browser has), for each round:

1. opens the address `workbench app` prints (`/voila/render/workbench.ipynb?token=...`) in a new tab and times it
   to the first tool usable: the builder's working drawn (`READY["monster"]`);
2. clicks each other tool on the bar, in the bar's order, and times the click to that tool usable (its own
   selector in `READY`): the first time, the tool is built in the kernel;
3. goes through every tool again by the bar, `--switches` times over: each a tool already built, shown again;
4. takes the server's memory (PSS and RSS of the server, its kernel zygote and every kernel, `bench_pages.memory`)
   with this one visitor and every tool opened, and counts the widgets each tool's view has drawn (its elements of
   class `jupyter-widgets`: what the browser built for the tool as it opened; first round only);
5. on the builder, presses the Level slider's right arrow `--keys` times, 175 ms apart (a person's pace), and
   times each key to the stat block settled: the first change of the block's EV and no change of the page's
   tool views for 20 ms after it (bench_browser.py measures the same on the builder page).

Goals (the issue's): first tool usable < 2 s; another tool the first time < 700 ms, after that p95 < 200 ms; the
server with one visitor and every tool opened < 400 MB PSS; the Level key to the block settled p95 < 40 ms.
Never a timed assertion in the tests.

Run: .venv/bin/python benchmarks/bench_one_page.py [--rounds N] [--switches N] [--keys N] [--no-preheat]
     [--off DEVICE]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import app_server
from app_server import POOL_FILLED, POOL_TAKEN, add_off_option, chromium_options, percentile, running_app
from bench_pages import memory
from playwright.sync_api import sync_playwright
from timing import load_average

from workbench.apps.shell import tools
from workbench.server.app import new_token
from workbench.server.site import WORKBENCH_PAGE

VIEW = "#rendered_cells .wb-shell .wb-tool-view-{key}"
# Each tool usable: its main output drawn, in its view (a selector matches only when that view is shown).
READY = {
    "monster": ".wb-builder .wb-explain-view .wb-explain",
    "solos": ".js-plotly-plot .main-svg",
    "encounter": ".wb-encounter-summary .wb-ev-total",
    "adventure": ".wb-adventure-chart .main-svg",
    "fight": ".wb-fight",
    "homebrew": ".wb-swarm-result",
    "calibration": ".js-plotly-plot .main-svg",
    "lessons": ".wb-tool-head",
}
TIMEOUT_MS = 300_000
KEY_GAP_S = 0.175
# The builder's block settled: the EV shown changed, then nothing in the tool views changed for QUIET_MS.
SETTLED = """([before, quiet]) => { window.workbenchSettled = new Promise(done => {
  const started = performance.now();
  const block = () => document.querySelector('.wb-tool-view-monster .wb-stat-block');
  let changed = null, last = started;
  const views = document.querySelector('.wb-tool-stage');
  const watcher = new MutationObserver(() => { last = performance.now();
    if (changed === null && block() && block().dataset.ev !== before) changed = last; });
  watcher.observe(views, {subtree: true, childList: true, characterData: true, attributes: true});
  const look = () => {
    const now = performance.now();
    if (changed !== null && now - last >= quiet) { watcher.disconnect(); done(last - started); }
    else if (now - started > 5000) { watcher.disconnect(); done(-1); }
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}); }"""
QUIET_MS = 20


def usable(page, key: str) -> None:
    page.wait_for_selector(f"{VIEW.format(key=key)} {READY[key]}", state="visible", timeout=TIMEOUT_MS)


def switch(page, key: str) -> float:
    """Seconds from a click on the bar's `key` to that tool usable."""
    started = time.perf_counter()
    page.click(f".wb-tool-bar a[data-tool='{key}']")
    usable(page, key)
    return time.perf_counter() - started


def level_keys(page, keys: int) -> list[float]:
    """Milliseconds from each Level key to the builder's block settled (`SETTLED`)."""
    handle = page.locator(".wb-tool-view-monster .widget-slider .noUi-handle").first
    handle.focus()
    times = []
    for _ in range(keys):
        before = page.eval_on_selector(".wb-tool-view-monster .wb-stat-block", "e => e.dataset.ev")
        if float(handle.get_attribute("aria-valuenow") or 0) >= float(handle.get_attribute("aria-valuemax") or 10):
            page.keyboard.press("Home")
            page.wait_for_timeout(500)
            before = page.eval_on_selector(".wb-tool-view-monster .wb-stat-block", "e => e.dataset.ev")
        page.evaluate(SETTLED, [before, QUIET_MS])  # watching from now on, before the key
        page.keyboard.press("ArrowRight")
        took = page.evaluate("() => window.workbenchSettled")
        if took >= 0:
            times.append(took)

        time.sleep(KEY_GAP_S)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="visits of the page, each through every tool")
    parser.add_argument("--switches", type=int, default=3, help="times through the tools already built, a round")
    parser.add_argument("--keys", type=int, default=40, help="Level keys on the builder (first round)")
    parser.add_argument("--no-preheat", action="store_true", help="serve with `workbench app --no-preheat`")
    add_off_option(parser)
    args = parser.parse_args()
    keys = [tool.key for tool in tools()]
    token = new_token()
    firsts: list[float] = []
    first_time: dict[str, list[float]] = {key: [] for key in keys[1:]}
    again: list[float] = []
    typed: list[float] = []
    mem = None
    drawn: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "server.log"
        options = ["--no-preheat"] if args.no_preheat else []
        with running_app(Path(scratch), token, log, options, args.off) as (server, url), \
                sync_playwright() as playwright:
            def ready() -> bool:
                text = log.read_text()
                taken = POOL_TAKEN.findall(text).count(WORKBENCH_PAGE)
                return args.no_preheat or POOL_FILLED.findall(text).count(WORKBENCH_PAGE) >= taken + 1

            profile = playwright.chromium.launch_persistent_context(Path(scratch) / "chromium",
                                                                     **chromium_options(app_server.OFFLINE))
            print(f"server settled in {app_server.settle(server, ready):.1f} s; load {load_average()}")
            for round_ in range(args.rounds):
                page = profile.new_page()
                page.set_viewport_size({"width": 1400, "height": 1000})
                started = time.perf_counter()
                page.goto(f"{url}/voila/render/{WORKBENCH_PAGE}?token={token}", timeout=TIMEOUT_MS,
                          wait_until="commit")
                usable(page, "monster")
                firsts.append(time.perf_counter() - started)
                for key in keys[1:]:
                    first_time[key].append(switch(page, key))
                for _ in range(args.switches):
                    for key in keys:
                        again.append(switch(page, key))
                if round_ == 0:
                    app_server.settle(server, lambda: True, quiet_s=2.0)
                    mem = memory(server)
                    drawn = {key: page.locator(f"{VIEW.format(key=key)} .jupyter-widgets").count() for key in keys}
                    switch(page, "monster")
                    typed = level_keys(page, args.keys)
                page.goto("about:blank")
                page.close()
                app_server.settle(server, ready)
            profile.close()
    print(f"load average after: {load_average()}")
    first_drawn = f" ({drawn[keys[0]]} widgets drawn)" if keys[0] in drawn else ""
    print(f"address -> first tool usable: {', '.join(f'{s:.2f}' for s in firsts)} s "
          f"(median {statistics.median(firsts):.2f} s){first_drawn}")
    for key, seconds in first_time.items():
        widgets = f" ({drawn[key]} widgets drawn)" if key in drawn else ""
        print(f"  {key:12} first time: {', '.join(f'{1000 * s:.0f}' for s in seconds)} ms{widgets}")
    every_first = [s for seconds in first_time.values() for s in seconds]
    print(f"another tool, first time: median {1000 * statistics.median(every_first):.0f} ms, "
          f"max {1000 * max(every_first):.0f} ms")
    if again:
        print(f"another tool, again ({len(again)}): median {1000 * statistics.median(again):.0f} ms, "
              f"p95 {1000 * percentile(again, 0.95):.0f} ms")
    if mem is not None:
        rss, pss, kernels = mem
        print(f"server, one visitor, every tool opened: {pss:.0f} MiB PSS ({rss:.0f} MiB RSS), {kernels} kernels")
    if typed:
        print(f"builder Level key -> block settled ({len(typed)}): median {statistics.median(typed):.0f} ms, "
              f"p95 {percentile(typed, 0.95):.0f} ms")


if __name__ == "__main__":
    main()
