"""How long the solos work takes: one instant solo, one comparison, and the app's redraw after a control change.

Run: .venv/bin/python benchmarks/bench_solos.py
The app figure is in-process only (set a control from Python -> table, stat blocks and figure updated);
the browser round trip is measured elsewhere.
"""

from __future__ import annotations

import statistics
import time

import workbench as wb
from workbench.apps.solos import solos_app
from workbench.monster.solo import solo_drift


def timed(fn, repeat: int) -> list[float]:
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - start)
    return times


def report(label: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[max(0, int(len(times) * 0.95) - 1)]
    print(f"{label:<52} median {statistics.median(times) * 1000:8.2f} ms   p95 {p95 * 1000:8.2f} ms")


def main() -> None:
    leader = wb.build_monster(5, "leader")
    report("instant_solo(level 5 leader)", timed(lambda i: wb.instant_solo(leader), 2000))
    report("compare_solos(level 5 leader)", timed(lambda i: wb.compare_solos(leader), 500))
    report("solo_drift(elite brute, levels 1-10)", timed(lambda i: solo_drift("elite", "brute"), 100))
    start = time.perf_counter()
    app = solos_app()
    # the first go.FigureWidget of a process loads plotly's widget bundle (seconds, once per kernel)
    print(f"{'solos_app() first in the process':<52} {(time.perf_counter() - start) * 1000:8.2f} ms")
    report("solos_app() again", timed(lambda i: solos_app(), 5))
    report("app: level slider change -> everything redrawn",
           timed(lambda i: setattr(app.level, "value", 1 + i % 20), 100))
    report("app: organization leader <-> elite -> redrawn",
           timed(lambda i: setattr(app.organization, "value", ("elite", "leader")[i % 2]), 50))


if __name__ == "__main__":
    main()
