"""What one preheated page kernel of `workbench app` costs before anybody visits: its CPU and its memory.

Starts `workbench app` (a scratch HOME), waits until every app page's kernel pool is filled and the server and
its kernels are quiet, then reads each kernel (a child of the kernel zygote): the CPU it used to start, run its
page's notebook and begin waiting for its visit, and its PSS (a page shared with the zygote or another kernel
counted in part). `workbench app` keeps one such kernel per page and starts another after each visit; the test
suite's page server starts ~15.

Run: .venv/bin/python benchmarks/bench_preheated_kernels.py [RUNS]   (RUNS servers in turn, default 1)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
from app_server import POOL_FILLED, running_app, settle

from workbench.server.app import new_token
from workbench.server.site import pages


def settled(server: subprocess.Popen[bytes], log: Path, pools: int) -> list[psutil.Process]:
    """The zygote's kernels, once `pools` pools are filled and the server is quiet (`app_server.settle`)."""
    def filled() -> bool:
        return len(POOL_FILLED.findall(log.read_text())) >= pools

    settle(server, filled)
    if not filled():
        raise SystemExit("the pools were not filled within the wait")
    root = psutil.Process(server.pid)
    return [p for p in root.children(recursive=True) if "kernel_zygote" in " ".join(p.parent().cmdline())]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    cpu, pss = [], []
    for run in range(runs):
        with tempfile.TemporaryDirectory(prefix="bench-preheat-") as scratch:
            log = Path(scratch) / "voila.log"
            with running_app(Path(scratch), new_token(), log) as (server, _):
                kernels = settled(server, log, len(pages()))
                run_cpu = [sum(k.cpu_times()[:2]) for k in kernels]
                run_pss = [k.memory_full_info().pss / 2**20 for k in kernels]
        print(f"run {run + 1}: {len(kernels)} preheated kernels, CPU " + " ".join(f"{c:.2f}" for c in run_cpu)
              + " s, PSS " + " ".join(f"{m:.0f}" for m in run_pss) + " MiB", flush=True)
        cpu += run_cpu
        pss += run_pss
    print(f"per preheated kernel: CPU median {statistics.median(cpu):.2f} s ({min(cpu):.2f}-{max(cpu):.2f}), "
          f"PSS median {statistics.median(pss):.0f} MiB ({min(pss):.0f}-{max(pss):.0f})")


if __name__ == "__main__":
    main()
