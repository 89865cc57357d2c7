"""Kernels forked from a zygote: a process that has already imported what every kernel of the workbench imports.

Why: a kernel started the usual way (`python -m ipykernel_launcher -f <file>`) spends most of its start, before
it runs a cell, importing ipykernel and what an app page needs (the workbench, pandas, pydantic, ipywidgets,
plotly). `workbench app` starts one for every page a Director opens (and one more to preheat the page's next
visit), and the test suite dozens. The zygote pays for those imports once; each kernel is then a fork of it that
reads its connection file and starts (`benchmarks/bench_kernel_start.py` compares the two).

What is imported ahead (`PRELOADED`) is what an app page's kernel imports from other projects: ipykernel,
numpy, pandas, pydantic's model machinery, ipywidgets, anywidget, plotly's figures and websockets. Two of them look,
while they are imported, at where they run: ipywidgets registers its comm targets if IPython is running, and
plotly.io picks its default renderer by what is running. The workbench's own modules are imported ahead too
(`OWN_PRELOADED`, nearly all of them), and `workbench` registers how a Monster
shows itself in IPython when it is imported in one. Each forked kernel tells these again once its IPython is up
(`_where_it_runs`), so a kernel's answers are a launched kernel's. A kernel gets the workbench's code as it is on
disk when the kernel starts: when a file of the package has changed since the zygote started (`source_stamp`),
the next kernel comes from a new zygote, and the old one stays until the kernels forked from it have stopped.

`ZygoteProvisioner` is a jupyter_client kernel provisioner (entry point `workbench-zygote`): `workbench app`
names it for Voilà's kernels and the test suite for nbval's. A kernel command that is not
`<this python> -m ipykernel_launcher ...`, a platform without fork (Windows) or macOS (where forking a
process that has loaded system frameworks is unsafe), and a zygote that cannot start all fall back to
`LocalProvisioner`'s own launch: the kernel is then slower to start, never different.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # run as the zygote: its folder (workbench/server) must not shadow any module name
    del sys.path[0]

import asyncio
import atexit
import gc
import importlib
import json
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

from workbench.io.process import process_alive

__all__ = ["ONE_THREAD", "OWN_PRELOADED", "PRELOADED", "ZygoteProvisioner", "forkable", "launched", "source_stamp"]

# Other projects' modules: a zygote that cannot import one does not start (kernels then start the usual way).
PRELOADED = ("ipykernel.kernelapp", "numpy", "pandas", "pydantic", "pydantic._internal._model_construction",
             "nbformat", "jsonschema", "ipywidgets", "anywidget", "plotly.graph_objects", "plotly.subplots",
             "plotly.basewidget", "websockets.sync.client")
# The workbench's: a module that fails to import (code being edited) is left for the kernel to import, and fail, itself.
OWN_PRELOADED = ("workbench", "workbench.apps.pages", "workbench.server.kernel_start", "workbench.server.charts",
                 "workbench.server.visit")
PACKAGE = Path(__file__).resolve().parent.parent  # workbench/: its files' stamp says when its code changed
LAUNCHER = ["-m", "ipykernel_launcher"]
KERNEL_START = "workbench.server.kernel_start"  # what a launched kernel runs instead (kernel_start.LAUNCHER)
REPLY_S = 120  # the zygote's imports on a busy machine; a fork answers in milliseconds
# The zygote's environment on top of the server's: numpy's BLAS loads single-threaded, so the zygote holds one
# thread when it forks. A fork copies only the thread that calls it: a BLAS pool running beside it would be half
# there in the kernel (Python 3.12+ warns of the deadlock it risks); OpenBLAS stops its pool before a fork, an
# OpenMP runtime does not. A kernel's numpy work is a page's small tables, and the kernels share the machine's
# cores, so they keep the one thread; each kernel gets the server's environment back when it starts.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


# A kernel builds and drops thousands of widgets, figures and models, nearly all freed by their reference counts:
# its youngest generation is collected every 50,000 allocations instead of 700: less of its CPU goes to the
# collector, for at most a few megabytes of cyclic garbage kept a while longer.
KERNEL_GC_THRESHOLDS = (50_000, 20, 20)


def forkable(cmd: list[str], platform: str = sys.platform) -> bool:
    """True if the kernel command is this Python's `-m ipykernel_launcher ...` on a platform where forking is safe."""
    return (
        hasattr(os, "fork") and platform.startswith("linux") and len(cmd) > 3 and cmd[1:3] == LAUNCHER
        and os.path.realpath(cmd[0]) == os.path.realpath(sys.executable)
    )


def launched(cmd: list[str]) -> list[str]:
    """The command of a kernel launched the usual way: this Python's IPython kernel runs `kernel_start` in place of
    `ipykernel_launcher` (the server's start-up work, as a forked kernel does it); any other kernel as it is."""
    if len(cmd) > 3 and cmd[1:3] == LAUNCHER and os.path.realpath(cmd[0]) == os.path.realpath(sys.executable):
        return [cmd[0], "-m", KERNEL_START, *cmd[3:]]
    return cmd


class ForkedKernel:
    """What `LocalProvisioner` asks of its `Popen`, for a kernel that is the zygote's child rather than ours.

    The zygote reaps its children, so a kernel that has exited is gone from the process table: `poll` asks
    the system whether the process still exists. Its exit status stays with the zygote (reported as 0)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            if not process_alive(self.pid):
                self.returncode = 0
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
            time.sleep(0.05)
        return code

    def send_signal(self, signum: int) -> None:
        """As `Popen.send_signal`: nothing for a process that has exited."""
        if self.poll() is None:
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:
                self.returncode = 0

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ZygoteUnavailable(RuntimeError):
    """The zygote could not start or answer: the kernel is started the usual way."""


def source_stamp(package: Path = PACKAGE) -> tuple[tuple[str, int, int], ...]:
    """Every file of the workbench package (but its bytecode caches) with its size and modification time: the
    code a zygote imported, which a new kernel must see as it is on disk."""
    stamp = []
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                info = os.stat(path)
            except OSError:  # gone while we looked: the next look sees the change
                continue
            stamp.append((path, info.st_mtime_ns, info.st_size))
    return tuple(stamp)


class _Generation:
    """One zygote process, the server's channel to it and the kernels forked from it."""

    def __init__(self, process: subprocess.Popen[bytes], channel: socket.socket) -> None:
        self.process = process
        self.channel = channel
        self.replies = channel.makefile("rb")
        self.kernels: list[int] = []

    def serving(self) -> bool:
        """True while any kernel forked from it runs."""
        return any(ForkedKernel(pid).poll() is None for pid in self.kernels)

    def close(self) -> None:
        """Close the channel: the zygote reads its end, exits (its kernels with it), and is waited for."""
        self.replies.close()
        self.channel.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class _Zygote:
    """The server's end: starts the zygote on first use (again if it has died, or if the workbench's code has
    changed on disk since it started: the old one is kept until its kernels have stopped) and asks it for
    kernels."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: _Generation | None = None
        self._stamp: tuple[tuple[str, int, int], ...] = ()  # the workbench's files when the current one started
        self._retired: list[_Generation] = []  # started before the code changed: closed once their kernels stop
        self._failed: str | None = None  # why the zygote could not start: not tried again in this process

    @property
    def pid(self) -> int | None:
        return None if self._current is None else self._current.process.pid

    def fork(self, cmd: list[str], cwd: str, env: dict[str, str]) -> int:
        with self._lock:
            if self._failed is not None:
                raise ZygoteUnavailable(self._failed)
            stamp = source_stamp()
            if self._current is not None and self._current.process.poll() is None and stamp != self._stamp:
                self._retired.append(self._current)
                self._current = None
            if self._current is None or self._current.process.poll() is not None:
                self._start(stamp)
            assert self._current is not None
            try:
                self._current.channel.sendall(
                    json.dumps({"argv": cmd[3:], "cwd": cwd, "env": env}).encode() + b"\n")
                reply = self._reply()
            except (OSError, ValueError) as error:
                raise ZygoteUnavailable(f"the kernel zygote did not answer: {error}") from error
            if "pid" not in reply:
                raise ZygoteUnavailable(f"the kernel zygote did not fork: {reply.get('error', reply)}")
            self._current.kernels.append(int(reply["pid"]))
            for idle in [old for old in self._retired if not old.serving()]:
                self._retired.remove(idle)
                idle.close()
            return int(reply["pid"])

    def _start(self, stamp: tuple[tuple[str, int, int], ...]) -> None:
        if self._current is not None:  # it has died
            self._current.close()
            self._current = None
        ours, theirs = socket.socketpair()
        ours.settimeout(REPLY_S)
        try:
            process = subprocess.Popen(
                [sys.executable, __file__, str(theirs.fileno())], pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL, env={**os.environ, **ONE_THREAD})
        finally:
            theirs.close()
        self._current, self._stamp = _Generation(process, ours), stamp
        try:
            ready = self._reply()
        except (OSError, ValueError) as error:
            ready = {"error": str(error)}
        if not ready.get("ready"):
            process.kill()
            self._failed = f"the kernel zygote did not start: {ready.get('error', ready)}"
            raise ZygoteUnavailable(self._failed)

    def close(self) -> None:
        """Close every zygote (at the server's exit): each exits, and its kernels with it."""
        for generation in [*self._retired, *([self._current] if self._current is not None else [])]:
            generation.close()
        self._retired, self._current = [], None

    def _reply(self) -> dict[str, Any]:
        assert self._current is not None
        line = self._current.replies.readline()
        if not line:
            raise ValueError("the zygote exited")
        reply: dict[str, Any] = json.loads(line)
        return reply


_ZYGOTE = _Zygote()
atexit.register(_ZYGOTE.close)


class ZygoteProvisioner(LocalProvisioner):
    """`LocalProvisioner`, except that an IPython kernel of this Python is forked from the zygote."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        if not forkable(cmd):
            return await super().launch_kernel(launched(cmd), **kwargs)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        env = dict(kwargs.get("env") or os.environ)
        try:
            pid = await asyncio.to_thread(_ZYGOTE.fork, cmd, cwd, env)  # blocking I/O, off the server's loop
        except ZygoteUnavailable as error:
            self.log.warning("%s; starting the kernel the usual way", error)
            return await super().launch_kernel(launched(cmd), **kwargs)
        self.process = ForkedKernel(pid)  # type: ignore[assignment]  # what LocalProvisioner uses of a Popen
        self.pid = self.pgid = pid  # the kernel leads a session of its own, as a launched kernel does
        self.cwd = cwd
        connection: KernelConnectionInfo = self.connection_info
        return connection


# ---------------------------------------------------------------- the zygote (a process of its own)

def _reap(signum: int, frame: object) -> None:
    """Collect every child that has exited, so that `ForkedKernel.poll` sees it gone."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def _become_kernel(request: dict[str, Any]) -> None:
    """In the forked child: become what `python -m ipykernel_launcher <argv>` in `cwd` with `env` would be."""
    os.setsid()  # its own session and process group: the server interrupts and stops the group
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path.insert(0, os.getcwd())  # as `python -m` puts it
    # ipykernel read $JPY_PARENT_PID when the zygote imported it: the kernel watches the zygote instead, which
    # exits when the server does (so a kernel never outlives its server)
    sys.argv = ["ipykernel_launcher", *request["argv"], f"--IPKernelApp.parent_handle={os.getppid()}"]
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()  # what `kernelapp.launch_new_instance()` does, with `_where_it_runs` before start
    app.initialize()  # type: ignore[no-untyped-call]  # ipykernel leaves it untyped
    _where_it_runs()
    app.start()  # type: ignore[no-untyped-call]


def _where_it_runs() -> None:
    """In a forked kernel whose IPython is up: what the zygote imported that looks at where it runs, as it is
    imported, does so again. ipywidgets registers its comm targets and the workbench its display of a Monster
    (their imports do when IPython runs); plotly.io's renderers are made again (their import picks the default
    renderer by what runs: the zygote runs no IPython); then the server's start-up work in a kernel Voilà started
    (`kernel_start`)."""
    modules = sys.modules
    if "ipywidgets" in modules:
        modules["ipywidgets"].register_comm_target()
    if "workbench" in modules:
        modules["workbench"]._register_notebook_display()
    if "plotly.io._renderers" in modules:
        importlib.reload(modules["plotly.io._renderers"])
    importlib.import_module(KERNEL_START).start()


def _serve(fd: int) -> None:
    """Import `PRELOADED`, then fork a kernel for each request line until the server closes the channel."""
    channel = socket.socket(fileno=fd)
    requests = channel.makefile("rb")
    try:
        for module in PRELOADED:
            importlib.import_module(module)
    except Exception as error:  # reported to the server, which then starts kernels the usual way
        channel.sendall(json.dumps({"error": f"{type(error).__name__}: {error}"}).encode() + b"\n")
        return
    for module in OWN_PRELOADED:
        try:
            importlib.import_module(module)
        except Exception:  # the kernel imports it itself, and shows its error there
            continue
    signal.signal(signal.SIGCHLD, _reap)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the server's terminal: the server stops us (EOF)
    gc.freeze()  # what is loaded stays shared with the kernels: their collections never touch (copy) it
    gc.set_threshold(*KERNEL_GC_THRESHOLDS)
    channel.sendall(b'{"ready": true}\n')
    for line in requests:  # until EOF: the server has exited
        request = json.loads(line)
        try:
            pid = os.fork()
        except OSError as error:
            channel.sendall(json.dumps({"error": str(error)}).encode() + b"\n")
            continue
        if pid == 0:
            requests.close()
            channel.close()
            _become_kernel(request)
            sys.exit(0)
        channel.sendall(json.dumps({"pid": pid}).encode() + b"\n")


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
