"""Starting and stopping the Voilà servers of the browser tests (`workbench app`, each started as a Director starts it)."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from workbench.server.app import HOST

SERVER_START_TIMEOUT = 180  # seconds: importing jupyter_server + voila on a loaded machine
PAGE_TIMEOUT = 240_000  # ms: the notebook runs before the page arrives
# ms from a page's load to its app drawn (its widgets from the kernel, its charts): seconds, a minute on a busy
# machine; a page that takes longer has stopped, and `open_app` reloads it once
READY_TIMEOUT = 120_000


def wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    """Wait until the server listens on `port` (not a GET: a GET of a page runs its notebook)."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{' '.join(map(str, process.args))} exited with {process.returncode}:\n"
                        f"{log.read_text()[-3000:]}")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.settimeout(0.5)
            if probe.connect_ex((HOST, port)) == 0:
                return
        time.sleep(0.2)
    pytest.fail(f"Voilà did not listen on {HOST}:{port} within {SERVER_START_TIMEOUT} s:\n{log.read_text()[-3000:]}")


RUNNING: list[subprocess.Popen] = []  # the servers started by `running_server` and not stopped yet


def stop_soon() -> None:
    """Ask every running server to stop (SIGTERM) without waiting: `running_server` waits for it at its end.

    After a worker's last browser test its servers have nothing more to serve, yet they would go on refilling
    preheated kernels, and shut their kernels down only at the session's end, while the worker's other tests
    wait for the CPU.
    """
    for process in RUNNING:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)


def stop(process: subprocess.Popen) -> None:
    """SIGTERM (Voilà shuts its kernels down, then exits), then SIGKILL if it has not exited in 30 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def running_server(command: list[str], port: int, log: Path, env: dict[str, str]) -> Iterator[str]:
    """Start `command` (a server that will listen on `port`) with its output in `log`; yield its base URL once
    it listens; stop it after."""
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    RUNNING.append(process)
    try:
        wait_for_port(port, process, log)
        yield f"http://{HOST}:{port}"
    finally:
        stop(process)
        RUNNING.remove(process)
