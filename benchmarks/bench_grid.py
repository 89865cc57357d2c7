"""How long the full stat grid takes, cold and cached, against building Monster objects one by one.

Run: .venv/bin/python benchmarks/bench_grid.py
"""

from __future__ import annotations

import subprocess
import sys

from timing import report, timed

import workbench as wb
from workbench.tables.stats import _rows, combinations


def main() -> None:
    levels = range(1, 21)
    rows = len(list(levels)) * len(combinations(wb.core_ruleset()))

    def cold() -> None:
        _rows.cache_clear()
        wb.stat_table(levels)

    def one_by_one() -> None:
        for level in levels:
            for organization, role in combinations(wb.core_ruleset()):
                wb.build_monster(level, organization, role)

    wb.stat_table(levels)  # warm pandas
    print(f"grid: levels 1-20 x {len(combinations(wb.core_ruleset()))} organization/role pairs = {rows} rows")
    report("stat_table, cold (computes every row)", timed(cold, 20))
    report("stat_table, cached (a slider move)", timed(lambda: wb.stat_table(levels), 50))
    report(f"build_monster x {rows}, one by one", timed(one_by_one, 20))
    one = timed(lambda: wb.build_monster(5, "elite", "brute"), 2000)
    report("build_monster, one monster", one)

    code = "import time; t = time.perf_counter(); import workbench; print(time.perf_counter() - t)"
    imports = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
               for _ in range(5)]
    report("import workbench (fresh interpreter)", imports)


if __name__ == "__main__":
    main()
