"""A kernel forked from the zygote stops when the zygote is gone, and the next kernel gets a new zygote.

A module of its own: killing the zygote stops every kernel forked from it, so the kernels test_kernel_zygote.py
shares between its tests must not be alive in this process then (pytest finishes a module's shared fixtures
before the next module starts, whatever order the modules run in).
"""

from __future__ import annotations

import os
import signal

from test_kernel_zygote import Kernels, ask, forks, gone

from workbench.server import kernel_zygote


@forks
def test_a_kernel_stops_when_its_zygote_is_gone_and_the_next_one_gets_a_new_zygote(tmp_path):
    started = Kernels()
    try:
        kernels = [started.start(tmp_path) for _ in range(2)]
        # each kernel's own parent: a zygote forked after a source file changed is a new process (see
        # test_after_the_code_changes_a_new_zygote_forks...), so the pid is asked of the kernels themselves
        zygotes = {int(ask(client, "__import__('os').getppid()")) for _, client in kernels}
        assert kernel_zygote._ZYGOTE.pid in zygotes and os.getpid() not in zygotes
        for zygote in zygotes:
            os.kill(zygote, signal.SIGKILL)
        for manager, _ in kernels:
            assert gone(manager.provisioner.pid), "the kernel outlived its zygote (it watches it as its parent)"
        _, client = started.start(tmp_path)
        assert kernel_zygote._ZYGOTE.pid not in (None, *zygotes)
        assert int(ask(client, "__import__('os').getppid()")) == kernel_zygote._ZYGOTE.pid
    finally:
        started.stop()
