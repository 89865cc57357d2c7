"""What the browser benchmarks share: a `workbench app` server of their own in a scratch home, stopped after,
a wait until it has settled, and the nearest-rank percentile their reports use.

Each benchmark measures one thing in the page; starting and stopping the server the same way keeps their
figures comparable (same environment, same token handling, same start-up wait).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

from workbench.export.printout import chromium_launch_options
from workbench.server.app import HOST, TOKEN_ENV, free_port
from workbench.server.switches import DEVICES, OFF_VARIABLE

START_S = 180
POOL_FILLED = re.compile(r"Kernel pool of (\S+) is filled")  # what the server logs after each preheat
# ... and when a visit takes the preheated kernel (a visit before the pool is ready gets a kernel of its own)
POOL_TAKEN = re.compile(r"Using pre-heated kernel: \S+ for (\S+)")
# No other host resolves (Voilà's template asks a CDN for fonts); unlike request routing, the HTTP cache stays on.
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def chromium_options(*extra_args: str) -> dict[str, Any]:
    """How the printer and the browser tests launch Chromium (`chromium_launch_options`: Debian's headless shell
    or chromium where there is one, else Playwright's), with `extra_args` besides its own."""
    options = chromium_launch_options()
    return {**options, "args": [*options["args"], *extra_args]}


def launch_chromium(playwright: Any, *extra_args: str) -> Any:
    """That Chromium, launched (`chromium_options`)."""
    return playwright.chromium.launch(**chromium_options(*extra_args))


def settle(server: subprocess.Popen[bytes], ready: Callable[[], bool], quiet_s: float = 3.0,
           limit_s: float = 300.0) -> float:
    """Wait until `ready()` and the server and all its descendants (the zygote, the kernels) have used under
    10 % of a core for `quiet_s`, or `limit_s` has passed; returns the seconds waited."""
    started = time.monotonic()
    root = psutil.Process(server.pid)
    while time.monotonic() - started < limit_s:
        processes = [root, *root.children(recursive=True)]
        before = sum(sum(p.cpu_times()[:2]) for p in processes if p.is_running())
        time.sleep(quiet_s)
        after = sum(sum(p.cpu_times()[:2]) for p in processes if p.is_running())
        if ready() and after - before < 0.1 * quiet_s:
            break
    return time.monotonic() - started


def add_off_option(parser: Any) -> None:
    """`--off NAME` (repeatable): serve with that speed device of the server turned off (`switches.DEVICES`)."""
    parser.add_argument("--off", action="append", default=[], choices=DEVICES, metavar="DEVICE",
                        help=f"serve with this speed device turned off: {', '.join(DEVICES)} (repeatable)")


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (p95 of 40 samples is the 38th smallest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@contextmanager
def running_app(scratch: Path, token: str, log: Path | None = None,
                options: Sequence[str] = (), off: Sequence[str] = ()) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`workbench app [options]` with `scratch` as its home (Jupyter's folders in it, no WORKBENCH_HOME from
    outside), the speed devices `off` turned off, its output in `log` (or discarded); yields the server and its
    URL once it listens, stops it after."""
    env = dict(os.environ, HOME=str(scratch), JUPYTER_CONFIG_DIR=str(scratch / "config"),
               JUPYTER_DATA_DIR=str(scratch / "data"), JUPYTER_RUNTIME_DIR=str(scratch / "runtime"),
               IPYTHONDIR=str(scratch / "ipython"), JUPYTER_PLATFORM_DIRS="1",
               **{TOKEN_ENV: token, OFF_VARIABLE: ",".join(off)})
    env.pop("WORKBENCH_HOME", None)
    port = free_port()
    with (log.open("w") if log else open(os.devnull, "w")) as out:
        server = subprocess.Popen([sys.executable, "-m", "workbench.cli", "app", "--port", str(port), *options],
                                  stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        yield server, listening(server, port, log)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def listening(server: subprocess.Popen[bytes], port: int, log: Path | None, name: str = "workbench app") -> str:
    """The server's URL once it accepts connections on `port`; exits with its log's tail if it stops first."""
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            tail = f":\n{log.read_text()[-2000:]}" if log else ""
            raise SystemExit(f"{name} exited with {server.returncode}{tail}")
        with socket.socket() as probe:
            if probe.connect_ex((HOST, port)) == 0:
                return f"http://{HOST}:{port}"
        time.sleep(0.1)
    raise SystemExit(f"{name} did not start within {START_S} s")
