"""Time to usable of every app page of `workbench app`, first and second visit, and the app's memory.

Starts `workbench app` on a free port (a scratch HOME, so a fresh Director's folder), then in headless
Chromium (the printer's: Debian's headless shell when present):

1. first visits: each page in the landing page's order, opened as soon as the server listens (the server's
   kernels, preheated ones included, are still starting then: what a Director meets right after the start);
2. the memory (PSS and RSS of the server, its kernel zygote and every kernel) once the server has settled: with preheated
   kernels, when every page's pool is full again;
3. second visits: each page opened again, each after the server settled.

"Usable" is the moment the page's tool and its chart are drawn (the monster page opens on its working, no
chart: the stat block's working drawn): the selector the browser tests wait for (`READY`). All visits are
made in one browser (a Director's: its HTTP cache is kept, so no request is intercepted; other hosts fail to
resolve), each in a new tab with the token in the URL, left for about:blank and closed after the visit. With
`--profile` the browser keeps a profile on disk, as a Director's does (the HTTP cache and V8's cache of compiled
scripts on disk); without it, a fresh context keeps them in memory.

Goal: every page usable < 2 s from the second visit on. Never a timed assertion in the tests.

Run: .venv/bin/python benchmarks/bench_pages.py [--visits N] [--profile] [--no-preheat] [--off DEVICE]
(N second visits per page, default 1; DEVICE a speed device of the server to turn off, `switches.DEVICES`)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import app_server
import psutil
from app_server import OFFLINE, POOL_FILLED, POOL_TAKEN, add_off_option, chromium_options, launch_chromium, running_app
from playwright.sync_api import sync_playwright
from timing import load_average

from workbench.server.app import PREHEAT_OPTION, new_token
from workbench.server.site import pages

READY = ("#rendered_cells .wb-page .js-plotly-plot .main-svg, "
         "#rendered_cells .wb-page .wb-builder .wb-explain-view .wb-explain")
TIMEOUT_MS = 300_000



def memory(server: subprocess.Popen) -> tuple[float, float, int]:
    """MiB of the server and all its descendants (the kernel zygote, kernels): resident (RSS, pages shared by
    several processes counted in each) and proportional (PSS, a shared page split between its processes: the
    forked kernels share what the zygote imported); and how many kernels."""
    root = psutil.Process(server.pid)
    processes = [root, *root.children(recursive=True)]
    rss = pss = 0
    kernels = 0
    for process in processes:
        try:
            info = process.memory_full_info()
            rss, pss = rss + info.rss, pss + info.pss
            forked = "kernel_zygote" in " ".join(process.parent().cmdline())
            kernels += forked or "ipykernel" in " ".join(process.cmdline())
        except psutil.NoSuchProcess:
            pass
    return rss / 2**20, pss / 2**20, kernels


def settle(server: subprocess.Popen, log: Path, preheated: set[str]) -> float:
    """Wait until every preheated page's pool is full (the server logs it after each refill) and the server
    and its kernels are quiet (`app_server.settle`); returns the seconds waited."""
    def filled() -> bool:
        text = log.read_text()
        logged, taken = POOL_FILLED.findall(text), POOL_TAKEN.findall(text)
        return all(logged.count(p) >= taken.count(p) + 1 for p in preheated)

    return app_server.settle(server, filled)


def visit(context, url: str, token: str, page_file: str) -> tuple[float, float]:
    """Seconds from the request to the page's first HTML (DOMContentLoaded) and to usable."""
    page = context.new_page()
    started = time.perf_counter()
    page.goto(f"{url}/voila/render/{page_file}?token={token}", timeout=TIMEOUT_MS, wait_until="domcontentloaded")
    html = time.perf_counter() - started
    page.wait_for_selector(READY, timeout=TIMEOUT_MS)
    usable = time.perf_counter() - started
    page.goto("about:blank")
    page.close()
    return html, usable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=1, help="second visits per page (default 1)")
    parser.add_argument("--profile", action="store_true",
                        help="a browser profile on disk, as a Director's browser has (its HTTP cache and V8's "
                             "compiled-code cache kept on disk), instead of a fresh in-memory context")
    parser.add_argument("--no-preheat", action="store_true",
                        help="serve with `workbench app --no-preheat` (a kernel starts at each visit)")
    add_off_option(parser)
    args = parser.parse_args()
    files = [p.file for p in pages()]
    token = new_token()
    print(f"{os.cpu_count()} cores, load average {load_average()} at the start; off: {', '.join(args.off) or 'none'}")
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as scratch:
        log = Path(scratch) / "voila.log"
        started = time.perf_counter()
        with running_app(Path(scratch), token, log, ["--no-preheat"] if args.no_preheat else [],
                         args.off) as (server, url):
            print(f"server listening after {time.perf_counter() - started:.1f} s")
            time.sleep(0.5)  # `workbench app` replaces itself with the server (execve): read its command line then
            command = " ".join(psutil.Process(server.pid).cmdline())
            preheated = {f for f in files if f"{PREHEAT_OPTION}{f}" in command.split()}
            print(f"preheated pages: {', '.join(sorted(preheated)) or 'none'}")
            with sync_playwright() as playwright:
                if args.profile:
                    context = browser = playwright.chromium.launch_persistent_context(
                        str(Path(scratch) / "browser-profile"), **chromium_options(OFFLINE),
                        viewport={"width": 1400, "height": 1000})
                else:
                    browser = launch_chromium(playwright, OFFLINE)
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                first = {}
                for file in files:
                    first[file] = visit(context, url, token, file)
                    print(f"  first visit  {file:<20} HTML {first[file][0]:5.1f} s   usable {first[file][1]:5.1f} s"
                          f"   (load {load_average()})", flush=True)
                waited = settle(server, log, preheated)
                rss, pss, kernels = memory(server)
                print(f"settled after {waited:.0f} s: memory {pss:.0f} MiB PSS, {rss:.0f} MiB RSS (server + {kernels} kernels), "
                      f"load {load_average()}")
                second: dict[str, list[float]] = {f: [] for f in files}
                for _ in range(args.visits):
                    for file in files:
                        settle(server, log, preheated)
                        html, usable = visit(context, url, token, file)
                        second[file].append(usable)
                        print(f"  second visit {file:<20} HTML {html:5.1f} s   usable {usable:5.1f} s"
                              f"   (load {load_average()})", flush=True)
                settle(server, log, preheated)
                rss, pss, kernels = memory(server)
                print(f"after the visits, settled: memory {pss:.0f} MiB PSS, {rss:.0f} MiB RSS (server + {kernels} kernels)")
                browser.close()
    print()
    print(f"{'page':<20} {'first visit':>12} {'second visit (median)':>22}")
    for file in files:
        print(f"{file:<20} {first[file][1]:>10.1f} s {statistics.median(second[file]):>20.1f} s")
    worst = max(max(v) for v in second.values())
    print(f"goal: every page usable < 2 s from the second visit on: {'met' if worst < 2 else 'NOT met'} "
          f"(slowest second visit {worst:.1f} s); load average {load_average()} at the end")


if __name__ == "__main__":
    main()
