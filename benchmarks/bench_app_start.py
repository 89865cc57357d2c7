"""`workbench app` started and stopped as a Director does: when it prints the address (and whether the server
accepts a connection then), and how soon Ctrl-C stops it and every kernel it started.

Each round starts `workbench app` in a scratch HOME, notes when the address line appears and tries a connection at
once, waits until the workbench page's preheated kernel is ready, asks for the page once over plain HTTP (a
visitor's kernel: the preheated one, and its refill), then sends SIGINT to the server's process group (what
Ctrl-C in a terminal does) and times until the server and all its descendants have exited.

Goals (the issue's): the address printed only once the server accepts it; Ctrl-C stops it and its kernels
within 2 s. Never a timed assertion in the tests (tests/browser/test_browser_server_edges.py checks that both
happen).

Run: .venv/bin/python benchmarks/bench_app_start.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil
from app_server import POOL_FILLED
from timing import load_average

from workbench.server.app import HOST, TOKEN_ENV, free_port, new_token

ADDRESS_LINE = "workbench app: the Draw Steel workbench at "


def all_stopped(processes: list[psutil.Process], timeout: float) -> float:
    """The moment (monotonic) every process of `processes` has exited: gone, or a zombie (its code has ended; only
    its parent's bookkeeping is left, which `psutil.wait_procs` counts as running until someone reaps it)."""
    deadline = time.monotonic() + timeout
    running = list(processes)
    while running and time.monotonic() < deadline:
        still = []
        for process in running:
            try:
                if process.status() != psutil.STATUS_ZOMBIE:
                    still.append(process)
            except psutil.NoSuchProcess:
                pass
        running = still
        if running:
            time.sleep(0.01)
    return time.monotonic()


def one_round(scratch: Path) -> tuple[float, bool, float, int]:
    """(seconds to the address line, accepted then, seconds from SIGINT to every process gone, processes)."""
    port, token = free_port(), new_token()
    log = scratch / "server.log"
    env = dict(os.environ, HOME=str(scratch), **{TOKEN_ENV: token})
    env.pop("WORKBENCH_HOME", None)
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, "-m", "workbench.cli", "app", "--port", str(port)], stdout=out,
                                  stderr=subprocess.STDOUT, env=env, start_new_session=True)
    started = time.monotonic()
    printed, accepted = -1.0, False
    try:
        while time.monotonic() - started < 180:
            text = log.read_text()
            if printed < 0 and ADDRESS_LINE in text:
                printed = time.monotonic() - started
                with socket.socket() as probe:
                    accepted = probe.connect_ex((HOST, port)) == 0
            if POOL_FILLED.search(text):
                break
            time.sleep(0.02)
        urllib.request.urlopen(f"http://{HOST}:{port}/voila/render/workbench.ipynb?token={token}", timeout=180).read()
        time.sleep(3)  # the refill under way
        processes = [psutil.Process(server.pid), *psutil.Process(server.pid).children(recursive=True)]
        stopping = time.monotonic()
        os.killpg(server.pid, signal.SIGINT)
        stopped = all_stopped(processes, timeout=60)
        return printed, accepted, stopped - stopping, len(processes)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    rounds = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as scratch:
            rounds.append(one_round(Path(scratch)))
    print(f"load average after: {load_average()}")
    for printed, accepted, stopped, processes in rounds:
        print(f"address printed at {printed:.2f} s, {'accepted' if accepted else 'REFUSED'} then; Ctrl-C stopped "
              f"{processes} processes in {stopped:.2f} s")
    print(f"Ctrl-C to every process gone: median {statistics.median(r[2] for r in rounds):.2f} s, "
          f"max {max(r[2] for r in rounds):.2f} s; accepted when printed: {sum(r[1] for r in rounds)} of {len(rounds)}")


if __name__ == "__main__":
    main()
