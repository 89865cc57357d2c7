"""How long reading the 49 sample stat blocks whole takes (goal < 100 ms), and where it goes:
the safe JSON read, the parts (abilities, tiers, ...), the formula monster each block starts from. Also the
re-levelling of all 49 by one level, and the header-only read the calibration does, for comparison.

CPU time is reported beside wall time: on the shared 2-core machine (load average often above 10) the
wall time measures the queue more than the code. "cold" empties the reader's cache of formula monsters
first (one per level × organization × role), as in a fresh process.

Run: .venv/bin/python benchmarks/bench_stat_blocks.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from timing import report, timed

from workbench.formats import stat_block
from workbench.formats.bestiary import SAMPLE_DIR, sample_bestiary
from workbench.formats.stat_block import parse_whole_stat_block, read_stat_block
from workbench.io.reading import read_json

FILES = sorted(SAMPLE_DIR.rglob("*.json"))


def cpu(label: str, fn: Callable[[], object], repeat: int = 20) -> None:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    print(f"{label:<52} CPU median {statistics.median(times) * 1000:8.3f} ms   min {min(times) * 1000:8.3f} ms")


def read_all() -> list[object]:
    return [read_stat_block(f) for f in FILES]


def read_all_cold() -> list[object]:
    stat_block._FORMULAS.clear()
    return read_all()


def main() -> None:
    print(f"{len(FILES)} stat blocks from {SAMPLE_DIR}")
    read_all()
    cpu("read 49 stat blocks whole, cold (goal < 100 ms)", read_all_cold)
    cpu("read 49 stat blocks whole, warm", read_all)
    report("read 49 stat blocks whole, cold (wall)", timed(read_all_cold, 30))
    report("  the safe JSON read alone", timed(lambda: [read_json(f) for f in FILES], 30))
    data = [(read_json(f), f.name) for f in FILES]
    report("  the parts from decoded JSON", timed(lambda: [parse_whole_stat_block(d, n) for d, n in data], 30))
    report("header-only read (calibration, for comparison)", timed(sample_bestiary, 30))
    try:
        from workbench.monster.relevel import relevel
    except ImportError:
        return
    monsters = [read_stat_block(f) for f in FILES]
    report("relevel 49 monsters one level up (delta)", timed(lambda: [relevel(m, m.level + 1) for m in monsters], 20))


if __name__ == "__main__":
    main()
