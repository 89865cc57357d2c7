"""The `workbench app` server's own CPU per page it renders (the HTML a visit receives), apart from the kernels.

Starts `workbench app` (a scratch HOME), waits until every app page's kernel pool is filled and the server is
quiet, then fetches each app page and each lesson over HTTP, ROUNDS times, as a browser's first request does
(the page's HTML, streamed while its notebook runs; no browser, so no widget traffic), and reads the server
process's CPU around each fetch. A visit to a preheated page takes its kernel and the server starts the next
one: that refill's rendering, in the background, is counted with the visit that caused it, after waiting for
the server to be quiet again.

Run: .venv/bin/python benchmarks/bench_server_render.py [ROUNDS]   (default 2)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

import psutil
from app_server import running_app, settle
from bench_preheated_kernels import settled

from workbench.server.app import new_token
from workbench.server.site import lessons, pages

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"  # the lessons `workbench app` serves from a checkout


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    token = new_token()
    with tempfile.TemporaryDirectory(prefix="bench-render-") as scratch:
        log = Path(scratch) / "voila.log"
        with running_app(Path(scratch), token, log) as (server, url):
            process = psutil.Process(server.pid)
            settled(server, log, len(pages()))
            files = [page.file for page in (*pages(), *lessons(NOTEBOOKS))]
            spent: dict[str, list[float]] = {name: [] for name in files}
            for _ in range(rounds):
                for name in files:
                    before = sum(process.cpu_times()[:2])
                    with urllib.request.urlopen(f"{url}/voila/render/{name}?token={token}", timeout=300) as page:
                        page.read()
                    settle(server, lambda: True, quiet_s=2.0)
                    spent[name].append(sum(process.cpu_times()[:2]) - before)
    for name, seconds in spent.items():
        print(f"  {name:<40} server CPU " + " ".join(f"{s:.2f}" for s in seconds) + " s")
    every = [s for seconds in spent.values() for s in seconds]
    print(f"per page served: median {statistics.median(every):.2f} s of the server's CPU "
          f"({min(every):.2f}-{max(every):.2f}), {len(every)} pages")


if __name__ == "__main__":
    main()
