"""Kernels forked from the zygote (workbench/server/kernel_zygote.py) behave as kernels launched the usual way.

Each test starts real kernels through jupyter_client's `KernelManager` with the `workbench-zygote` provisioner,
found by its entry point as `workbench app` and nbval find it, and asks the kernel about itself.
"""

from __future__ import annotations

import ast
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from jupyter_client.manager import KernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from workbench.server import kernel_zygote
from workbench.server.app import KERNEL_PROVISIONER, kernel_provisioner_arguments, voila_command
from workbench.server.kernel_zygote import (
    OWN_PRELOADED,
    PRELOADED,
    ZygoteProvisioner,
    forkable,
    launched,
    source_stamp,
)
from workbench.server.page_renderer import PAGE_RENDERER

# The tests that start kernels from the zygote: it forks on Linux only (the machine CI runs on, where none of
# them is skipped); elsewhere every kernel starts the usual way, which the other tests here check anywhere. The
# platform decides, not `forkable` itself: a `forkable` broken on Linux fails these tests instead of skipping them.
forks = pytest.mark.skipif(not sys.platform.startswith("linux"),
                           reason="the zygote forks on Linux only; elsewhere kernels start the usual way")


class Kernels:
    """Kernels started for a test through `KernelManager`, each shut down (and its client closed) after it."""

    def __init__(self) -> None:
        self.started: list[tuple[KernelManager, Any]] = []

    def start(self, cwd: Path, provisioner: str = KERNEL_PROVISIONER, manager: KernelManager | None = None,
              **env: str) -> tuple[KernelManager, Any]:
        factory = KernelProvisionerFactory.instance()
        kept, factory.default_provisioner_name = factory.default_provisioner_name, provisioner
        try:
            manager = manager or KernelManager()
            manager.start_kernel(cwd=str(cwd), env={**os.environ, **env})
        finally:
            factory.default_provisioner_name = kept
        client = manager.client()
        self.started.append((manager, client))
        client.start_channels()
        client.wait_for_ready(timeout=120)
        return manager, client

    def stop(self) -> None:
        for manager, client in self.started:
            client.stop_channels()
            if manager.has_kernel:
                manager.shutdown_kernel(now=True)


@pytest.fixture()
def kernels() -> Iterator[Kernels]:
    started = Kernels()
    try:
        yield started
    finally:
        started.stop()


def ask(client, expression: str) -> str:
    """The text the kernel prints for `print(<expression>)`."""
    out: list[str] = []
    reply = client.execute_interactive(f"print({expression})", timeout=60,
                                       output_hook=lambda m: out.append(m["content"].get("text", "")))
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(out).strip()


def reply_to(get: Any, request: str, kind: str) -> dict[str, Any]:
    """The message of `kind` that answers `request` on a channel (`get`: its client's get_*_msg). Others are passed
    over: `wait_for_ready` may have asked for the kernel's info more than once on a busy machine, and the answers
    it did not read wait on the shell channel."""
    while True:
        message = get(timeout=60)
        if message["parent_header"].get("msg_id") == request and message["msg_type"] == kind:
            return dict(message)


def gone(pid: int, within: float = 30.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not psutil.pid_exists(pid):
            return True
        time.sleep(0.1)
    return False


def test_the_provisioner_workbench_app_names_is_found_by_its_entry_point():
    factory = KernelProvisionerFactory.instance()
    assert factory._check_availability(KERNEL_PROVISIONER)
    assert factory.provisioners[KERNEL_PROVISIONER].load() is ZygoteProvisioner
    assert f"--KernelProvisionerFactory.default_provisioner_name={KERNEL_PROVISIONER}" in voila_command(Path("."), 1)


def test_without_the_entry_point_workbench_app_starts_kernels_the_usual_way(monkeypatch):
    """A checkout installed before the zygote existed: naming an unknown provisioner would stop every kernel."""
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: ())
    assert kernel_provisioner_arguments() == []
    assert not any("KernelProvisionerFactory" in part for part in voila_command(Path("."), 1))


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Two kernels forked from the zygote, and one the provisioner launches the usual way (`python -m ipykernel`
    is not the zygote's command), shared by the tests that only ask them questions."""
    folder = tmp_path_factory.mktemp("kernels")
    started = Kernels()
    try:
        forked_a = started.start(folder, WORKBENCH_PROBE="asked for")
        forked_b = started.start(folder)
        launched = KernelManager()
        launched.format_kernel_cmd = lambda extra_arguments=None: [  # type: ignore[method-assign]
            sys.executable, "-m", "ipykernel", "-f", launched.connection_file]
        yield {"folder": folder, "a": forked_a, "b": forked_b, "launched": started.start(folder, manager=launched)}
    finally:
        started.stop()


@forks
def test_a_kernel_is_the_zygotes_child_with_its_own_folder_environment_and_path(three):
    manager, client = three["a"]
    assert isinstance(manager.provisioner, ZygoteProvisioner)
    assert int(ask(client, "__import__('os').getppid()")) == kernel_zygote._ZYGOTE.pid != os.getpid()
    assert ask(client, "__import__('os').getcwd()") == str(three["folder"])
    assert ask(client, "__import__('sys').path[0]") == str(three["folder"])  # as `python -m` puts it
    assert ask(client, "__import__('os').environ['WORKBENCH_PROBE']") == "asked for"
    # imported ahead by the zygote: already loaded before the notebook imports them
    loaded = ask(client, f"[m in __import__('sys').modules for m in {[*PRELOADED, *OWN_PRELOADED]!r}]")
    assert loaded == str([True] * (len(PRELOADED) + len(OWN_PRELOADED)))
    # its collector as the zygote set it (a launched kernel keeps Python's own)
    assert ask(client, "__import__('gc').get_threshold()") == str(kernel_zygote.KERNEL_GC_THRESHOLDS)
    assert ask(three["launched"][1], "__import__('gc').get_threshold()") != str(kernel_zygote.KERNEL_GC_THRESHOLDS)


@forks
def test_the_zygote_forks_with_one_thread_and_its_kernels_get_the_servers_environment(tmp_path, monkeypatch):
    """numpy loaded, the zygote is still one thread (a thread beside a fork is what Python 3.12+ warns of);
    a kernel's environment is the one it was started with, without the zygote's thread limits."""
    for name in kernel_zygote.ONE_THREAD:
        monkeypatch.delenv(name, raising=False)
    zygote = kernel_zygote._Zygote()  # its own, not yet forked from: its threads as its imports left them
    try:
        zygote._start(source_stamp())
        assert psutil.Process(zygote.pid).num_threads() == 1
        monkeypatch.setattr(kernel_zygote, "_ZYGOTE", zygote)
        kernels = Kernels()
        try:
            _, client = kernels.start(tmp_path)
            assert ask(client, f"[__import__('os').environ.get(n) for n in {sorted(kernel_zygote.ONE_THREAD)!r}]") \
                == str([None] * len(kernel_zygote.ONE_THREAD))
        finally:
            kernels.stop()
    finally:
        zygote.close()


@forks
def test_another_kernel_command_is_launched_the_usual_way(three):
    manager, client = three["launched"]
    assert isinstance(manager.provisioner, ZygoteProvisioner)
    assert int(ask(client, "__import__('os').getppid()")) == os.getpid()


@forks
def test_widgets_plotly_and_the_workbench_see_the_kernel_they_are_imported_in(three):
    """They look for a running IPython when imported: a forked kernel and a launched one give the same answers."""
    probe = ("(__import__('ipywidgets'), sorted(get_ipython().kernel.comm_manager.targets), "
             "__import__('plotly.io', fromlist=['renderers']).renderers.default, "
             "get_ipython().display_formatter.formatters['text/html'].lookup_by_type("
             "__import__('workbench').Monster).__name__)[1:]")
    answer = ask(three["b"][1], probe)
    assert "'jupyter.widget.control'" in answer and "plotly_mimetype" in answer and "stat_block_html" in answer, \
        answer
    assert ask(three["launched"][1], probe) == answer


SERVED = ("(__import__('plotly.io', fromlist=['renderers']).renderers.default, "
          "type(__import__('workbench.apps.serving', fromlist=['chart_maker']).chart_maker()).__name__)")


@pytest.mark.parametrize("forked", [pytest.param(True, marks=forks), False], ids=["forked", "launched"])
def test_a_kernel_voila_starts_gets_the_servers_start_up_work(kernels, tmp_path, monkeypatch, forked):
    """Forked or launched the usual way, a kernel the server started builds its pages and draws its charts the
    server's way (`kernel_start`); one the test suite starts, outside Voilà, keeps plotly's and the apps' own."""
    if not forked:
        monkeypatch.setattr(kernel_zygote, "forkable", lambda cmd: False)
    _, client = kernels.start(tmp_path, VOILA_KERNEL_ID="kernel-1", VOILA_BASE_URL="/")
    assert ask(client, SERVED) == repr((PAGE_RENDERER, "ServedCharts"))
    _, plain = kernels.start(tmp_path)
    renderer, maker = ast.literal_eval(ask(plain, SERVED))
    assert renderer != PAGE_RENDERER and maker == "ChartMaker"


def test_a_launched_kernel_runs_the_servers_start_in_place_of_ipykernels_launcher():
    command = [sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"]
    assert launched(command) == [sys.executable, "-m", "workbench.server.kernel_start", "-f", "k.json"]
    assert launched(["/other/python", "-m", "ipykernel_launcher", "-f", "k.json"])[2] == "ipykernel_launcher"


def test_the_stamp_of_the_workbenchs_files_changes_with_any_of_them_but_not_with_bytecode(tmp_path):
    (tmp_path / "apps" / "__pycache__").mkdir(parents=True)
    (tmp_path / "apps" / "builder.py").write_text("LEVEL = 1\n")
    (tmp_path / "data.json").write_text("{}")
    first = source_stamp(tmp_path)
    assert [Path(path).name for path, _, _ in first] == ["data.json", "builder.py"]
    (tmp_path / "apps" / "__pycache__" / "builder.cpython-311.pyc").write_bytes(b"compiled")
    assert source_stamp(tmp_path) == first
    (tmp_path / "apps" / "builder.py").write_text("LEVEL = 10\n")  # one byte longer
    assert source_stamp(tmp_path) != first
    second = source_stamp(tmp_path)
    os.utime(tmp_path / "data.json", ns=(0, 0))  # same size, another time
    assert source_stamp(tmp_path) != second
    assert source_stamp(kernel_zygote.PACKAGE)[0][0].startswith(str(Path(kernel_zygote.__file__).parents[1]))


@forks
def test_after_the_code_changes_a_new_zygote_forks_and_the_old_one_stays_while_its_kernels_run(
        kernels, tmp_path, monkeypatch):
    """A kernel gets the workbench as it is on disk: the zygote that imported the old code forks no more, and
    the pages still open on it keep their kernels until they stop."""
    zygote = kernel_zygote._Zygote()  # its own: the module's shared kernels stay on theirs
    monkeypatch.setattr(kernel_zygote, "_ZYGOTE", zygote)
    try:
        before, _ = kernels.start(tmp_path)
        old = zygote.pid
        stamp = source_stamp()
        monkeypatch.setattr(kernel_zygote, "source_stamp", lambda: (*stamp, ("edited.py", 1, 1)))
        after, client = kernels.start(tmp_path)
        new = zygote.pid
        assert new not in (None, old) and int(ask(client, "__import__('os').getppid()")) == new
        assert psutil.pid_exists(old) and before.is_alive()  # the page open on the old code keeps its kernel
        _, unchanged = kernels.start(tmp_path)  # no further change: the same new zygote
        assert int(ask(unchanged, "__import__('os').getppid()")) == new
        before.shutdown_kernel(now=True)
        assert psutil.pid_exists(old)  # closed at the next fork
        kernels.start(tmp_path)
        assert gone(old)
        assert after.is_alive()
    finally:
        kernels.stop()
        zygote.close()


@forks
def test_two_kernels_are_two_processes_with_their_own_state(three):
    first, second = three["a"][1], three["b"][1]
    first.execute_interactive("shared = 'first'", timeout=60)
    assert ask(second, "'shared' in globals()") == "False"
    assert ask(first, "__import__('os').getpid()") != ask(second, "__import__('os').getpid()")
    assert ask(first, "__import__('random').random()") != ask(second, "__import__('random').random()")


@forks
def test_a_zygote_that_cannot_start_leaves_kernels_to_start_the_usual_way(kernels, tmp_path, monkeypatch):
    broken = kernel_zygote._Zygote()
    monkeypatch.setattr(kernel_zygote, "__file__", str(tmp_path / "no-such-zygote.py"))  # python cannot run it
    monkeypatch.setattr(kernel_zygote, "_ZYGOTE", broken)
    manager, client = kernels.start(tmp_path)
    assert isinstance(manager.provisioner, ZygoteProvisioner)
    assert int(ask(client, "__import__('os').getppid()")) == os.getpid()  # launched by us, not forked
    started = time.monotonic()
    with pytest.raises(kernel_zygote.ZygoteUnavailable, match="did not start"):
        broken.fork([sys.executable, "-m", "ipykernel_launcher", "-f", "x.json"], str(tmp_path), dict(os.environ))
    assert time.monotonic() - started < 1  # not tried again in this process
    broken.close()


@forks
def test_interrupt_shutdown_and_restart(kernels, tmp_path):
    manager, client = kernels.start(tmp_path)
    sleeping = client.execute("import time; print('asleep', flush=True); time.sleep(120)")
    # interrupted in the cell's own code: an interrupt while IPython is still setting the cell up can be lost
    while "asleep" not in reply_to(client.get_iopub_msg, sleeping, "stream")["content"]["text"]:
        pass
    started = time.monotonic()
    manager.interrupt_kernel()
    reply = reply_to(client.get_shell_msg, sleeping, "execute_reply")
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
    assert time.monotonic() - started < 60
    first = manager.provisioner.pid
    manager.restart_kernel(now=True)
    assert gone(first)
    client.wait_for_ready(timeout=120)
    assert manager.provisioner.pid != first and int(ask(client, "__import__('os').getpid()")) == manager.provisioner.pid
    pid = manager.provisioner.pid
    manager.shutdown_kernel(now=False)
    assert gone(pid)
    assert not manager.is_alive()


@pytest.mark.parametrize(("cmd", "platform", "expected"), [
    ([sys.executable, "-m", "ipykernel_launcher", "-f", "c.json"], "linux", True),
    ([sys.executable, "-m", "ipykernel_launcher", "-f", "c.json"], "darwin", False),
    ([sys.executable, "-m", "ipykernel_launcher", "-f", "c.json"], "win32", False),
    (["/usr/bin/python2", "-m", "ipykernel_launcher", "-f", "c.json"], "linux", False),
    ([sys.executable, "-m", "ipykernel", "-f", "c.json"], "linux", False),
    ([sys.executable, "-m", "ipykernel_launcher"], "linux", False),
])
def test_only_this_pythons_ipykernel_launcher_is_forked(cmd, platform, expected):
    assert forkable(cmd, platform) is expected
