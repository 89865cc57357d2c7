"""How long the builder takes, in-process, from a control's value change to a re-rendered stat block and chart.

Each measured change sets one widget value (level, organization, role, extra Stamina, targets, strike,
chart quantity, name — in a fixed cycle) and stops the clock when the observer has returned, i.e. when the
stat block HTML, the working, the exports and the FigureWidget's traces have all been updated in Python
(the browser's own drawing is not included; see NOTES-JUPYTER.md for that path).

    .venv/bin/python benchmarks/bench_builder.py [changes]

Prints the median and p95 in milliseconds, overall and per kind of change.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time

from workbench.apps.builder import monster_builder


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main(changes: int = 100) -> None:
    started = time.perf_counter()
    app = monster_builder(folder=tempfile.mkdtemp(prefix="bench-homebrew-"))
    print(f"builder created in {(time.perf_counter() - started) * 1000:.0f} ms "
          "(imports, the first stat grid and the FigureWidget included)")
    c = app.controls
    cycle = [
        ("level", lambda i: 1 + i % 10),
        ("organization", lambda i: ("platoon", "elite", "horde", "solo", "minion", "leader")[i % 6]),
        ("role", lambda i: ("brute", "hexer", "defender", "artillery")[i % 4]),
        ("extra_stamina", lambda i: bool(i % 2)),
        ("targets", lambda i: c["targets"].options[i % len(c["targets"].options)][1]),
        ("strike", lambda i: bool(i % 2)),
        ("quantity", lambda i: ("ev", "stamina", "damage_tier2", "free_strike")[i % 4]),
        ("name", lambda i: f"Monster {i}"),
    ]
    # warm up: the extra-Stamina table and first renders
    for name, value in cycle:
        if not c[name].disabled:
            c[name].value = value(1)
    timings: dict[str, list[float]] = {name: [] for name, _ in cycle}
    all_times: list[float] = []
    i = 0
    turns = {name: 0 for name, _ in cycle}
    while len(all_times) < changes:
        name, value = cycle[i % len(cycle)]
        i += 1
        turns[name] += 1
        target = value(turns[name])
        if c[name].disabled or c[name].value == target:
            continue
        before = app.stat_block.value, app.figure.layout.title.text, tuple(app.figure.data[1].y)
        t0 = time.perf_counter()
        c[name].value = target
        elapsed = (time.perf_counter() - t0) * 1000
        assert app.status.value == "", app.status.value
        changed = (app.stat_block.value, app.figure.layout.title.text, tuple(app.figure.data[1].y)) != before
        assert changed, f"{name} changed nothing"
        timings[name].append(elapsed)
        all_times.append(elapsed)
    print(f"{len(all_times)} changes: median {statistics.median(all_times):.1f} ms, "
          f"p95 {percentile(all_times, 0.95):.1f} ms, max {max(all_times):.1f} ms")
    for name, values in timings.items():
        if values:
            print(f"  {name:14} n={len(values):3}  median {statistics.median(values):6.1f} ms  "
                  f"p95 {percentile(values, 0.95):6.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
