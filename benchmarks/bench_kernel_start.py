"""What a kernel costs to start, launched the usual way and forked from the zygote (workbench.server.kernel_zygote).

For each way, N kernels one after another, as `workbench app` and nbval start them (jupyter_client's
`KernelManager`, the provisioner chosen by name): the wall time from `start_kernel` to the kernel answering,
and the kernel process's CPU until then; then the same once it has run an app page's imports
(`workbench.apps.pages`, `workbench.server.visit`), which every page's notebook does first. The zygote's own start
(its imports, paid once per server) is timed apart.

Run: .venv/bin/python benchmarks/bench_kernel_start.py [N]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import psutil
from jupyter_client.manager import KernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from workbench.server import kernel_zygote
from workbench.server.app import KERNEL_PROVISIONER

PAGE_IMPORTS = "import workbench.apps.pages, workbench.server.visit"


def cpu_seconds(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def one_kernel() -> tuple[float, float, float]:
    """(seconds to ready, kernel CPU to ready, kernel CPU once the page's imports have run)."""
    manager = KernelManager()
    started = time.perf_counter()
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        ready = time.perf_counter() - started
        pid = manager.provisioner.pid
        at_ready = cpu_seconds(pid)
        client.execute_interactive(PAGE_IMPORTS, timeout=120)
        return ready, at_ready, cpu_seconds(pid)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    factory = KernelProvisionerFactory.instance()
    print(f"{runs} kernels each way, load {os.getloadavg()[0]:.1f}")
    for name in ("local-provisioner", KERNEL_PROVISIONER):
        factory.default_provisioner_name = name
        if name == KERNEL_PROVISIONER:
            started = time.perf_counter()
            one_kernel()  # starts the zygote: its imports, once per server
            print(f"  the zygote's start and its first kernel: {time.perf_counter() - started:.2f} s")
        rows = [one_kernel() for _ in range(runs)]
        ready, cpu, page = (statistics.median(column) for column in zip(*rows, strict=True))
        print(f"{name:18s} ready median {ready:.2f} s (max {max(r[0] for r in rows):.2f}); kernel CPU to ready "
              f"{cpu:.2f} s, with the page's imports {page:.2f} s")
    kernel_zygote._ZYGOTE.close()
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
