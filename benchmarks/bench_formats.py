"""How fast the workbench writes and reads other tools' files and prints (goals):
- export of the 49 sample monsters to each JSON format (Forge Steel, Foundry, Steel Compendium): < 0.5 s in all;
- one PDF card, the browser warm: < 2 s; the 49-monster PDF: < 10 s.
Also the import of what was exported, a PNG card, and the browser's cold start, for the record.

CPU time is shown beside wall time for the pure-Python parts: on the shared 2-core machine the wall time
measures the queue as much as the code. Printing happens in Chromium (another process), so only wall time
means anything there.

Run: .venv/bin/python benchmarks/bench_formats.py
"""

from __future__ import annotations

import json
import time

from timing import report, timed

import workbench as wb
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.reader import read_monsters

FILES = sorted(SAMPLE_DIR.rglob("*.json"))
JSON_FORMATS = ("forge-steel", "foundry", "steel-compendium")


def cpu_and_wall(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    monsters = [wb.read_stat_block(p) for p in FILES]
    print(f"{len(monsters)} sample monsters")

    total_wall = total_cpu = 0.0
    for fmt in JSON_FORMATS:
        wb.export_monster(monsters[0], fmt)  # warm the code paths once
        best = min(cpu_and_wall(lambda fmt=fmt: [wb.export_monster(m, fmt) for m in monsters]) for _ in range(5))
        total_wall, total_cpu = total_wall + best[0], total_cpu + best[1]
        print(f"export 49 to {fmt:<18} best of 5: wall {best[0] * 1000:7.1f} ms   cpu {best[1] * 1000:7.1f} ms")
    print(f"export 49 to all three JSON formats: wall {total_wall * 1000:7.1f} ms   cpu {total_cpu * 1000:7.1f} ms "
          "(goal < 500 ms)")

    for fmt in JSON_FORMATS:
        files = [json.loads(wb.export_monster(m, fmt)) for m in monsters]
        best = min(cpu_and_wall(lambda files=files, fmt=fmt: [read_monsters(f, fmt) for f in files]) for _ in range(5))
        print(f"import 49 from {fmt:<16} best of 5: wall {best[0] * 1000:7.1f} ms   cpu {best[1] * 1000:7.1f} ms")

    start = time.perf_counter()
    wb.export_monster(monsters[0], "pdf")
    print(f"first PDF card (browser cold start){'':<18} {(time.perf_counter() - start) * 1000:8.1f} ms")
    report("one PDF card, warm", timed(lambda: wb.export_monster(monsters[0], "pdf"), 10))
    report("one PNG card (200 dpi), warm", timed(lambda: wb.export_monster(monsters[0], "png"), 10))
    report("49-monster PDF (A4, one page each)", timed(lambda: wb.export_monsters(monsters, "pdf"), 3))


if __name__ == "__main__":
    main()
