"""Whether a process runs, as the saves, the site folders and the forked kernels ask it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from workbench.io.process import process_alive


def test_this_process_and_a_running_child_are_alive_and_a_reaped_one_is_not():
    assert process_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert process_alive(child.pid)
    finally:
        child.communicate(b"")
    assert not process_alive(child.pid)  # exited and reaped: no process has that id now


def test_a_process_of_another_user_is_alive():
    assert process_alive(1)  # init: root's (signalling it is refused unless we are root, and it still runs)


@pytest.mark.parametrize("pid", [0, -1, "minus this process", 2**31, 10**30, True])
def test_an_id_no_process_can_have_is_no_process_rather_than_an_error(pid):
    # -pid would signal the process group whose id this process's is; named, so every worker collects one id
    assert process_alive(-os.getpid() if pid == "minus this process" else pid) is False
