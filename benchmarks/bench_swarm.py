"""How fast the swarm simulation runs, and what the homebrew apps cost per interaction (in-process).

    .venv/bin/python benchmarks/bench_swarm.py [runs]

Prints: fights per second for a few scenarios (one `simulate_swarms` call of `runs` fights each, seeded),
the tuning grid's time (4 N × 4 M × 3 disruption chances, 200 fights a cell), loading the shipped rule
modules, the weakness table, and the weakness app's control change → re-rendered wound and table (median
and p95 in ms). The browser's own drawing is not included.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from workbench.homebrew.rule import load_rules, shipped_rules
from workbench.homebrew.swarm import SwarmScenario, simulate_swarms
from workbench.homebrew.weakness import weakness_cases


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main(runs: int = 2000) -> None:
    scenarios = {
        "defaults (3 swarms, N 3, M 6)": SwarmScenario(),
        "quick clear (N 2, hits always)": SwarmScenario(disperse_value=2, area_hit_chance=1),
        "reforming (N 5, M 3, no disruption)": SwarmScenario(disperse_value=5, reform_threshold=3,
                                                              disruption_chance=0),
    }
    for name, scenario in scenarios.items():
        seconds = timed(lambda scenario=scenario: simulate_swarms(scenario, random.Random(1), runs=runs))
        print(f"simulate_swarms {name}: {runs} fights in {seconds * 1000:.0f} ms = {runs / seconds:,.0f} fights/s")

    from workbench.tables.swarm import tuning_table

    seconds = timed(lambda: tuning_table(runs=200))
    print(f"tuning_table 4 × 4 × 3 cells × 200 fights: {seconds * 1000:.0f} ms")

    seconds = timed(lambda: [load_rules() for _ in range(20)]) / 20
    print(f"load_rules (2 shipped modules, validated): {seconds * 1000:.1f} ms")
    silver = shipped_rules()["exploitable-weakness"].fill({"tag": "silver"})
    seconds = timed(lambda: [weakness_cases(silver) for _ in range(100)]) / 100
    print(f"weakness_cases (24 cases): {seconds * 1000:.2f} ms")

    from workbench.apps.homebrew import weakness_app

    app = weakness_app()
    c = app.controls
    cycle = [
        ("grip", lambda i: ("one_handed", "two_handed")[i % 2]),
        ("outcome", lambda i: ("hit", "partial_critical", "legendary")[i % 3]),
        ("matches_tag", lambda i: bool(i % 2)),
        ("other_source", lambda i: bool(i % 3 == 0)),
    ]
    times = []
    for i in range(200):
        name, value = cycle[i % len(cycle)]
        new = value(i // len(cycle))  # each control takes its values in turn
        if c[name].value == new:
            continue
        times.append(timed(lambda name=name, new=new: setattr(c[name], "value", new)) * 1000)
    print(f"weakness app, control change -> wound + table: median {statistics.median(times):.1f} ms, "
          f"p95 {percentile(times, 0.95):.1f} ms ({len(times)} changes)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
