"""Shared timing helpers for the benchmark scripts: run a callable repeatedly, print median and p95."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    """Seconds taken by each of `repeat` calls of `fn`."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * fraction) - 1)]


def report(label: str, times: list[float], width: int = 52) -> None:
    """One line: the label, then median and p95 in milliseconds."""
    print(f"{label:<{width}} median {statistics.median(times) * 1000:8.3f} ms   "
          f"p95 {percentile(times, 0.95) * 1000:8.3f} ms")


def load_average() -> str:
    """The machine's 1, 5 and 15 minute load averages, as each report prints them beside its figures."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
