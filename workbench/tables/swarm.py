"""Swarm simulations as DataFrames: the tuning grid (N × M × disruption) and the rounds distribution."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import pandas as pd

from workbench.errors import InvalidInput
from workbench.homebrew.swarm import SimulationResult, SwarmScenario, simulate_swarms

__all__ = ["distribution_table", "tuning_table"]

TUNING_COLUMNS = (
    "disperse_value", "reform_threshold", "disruption_chance", "mean_rounds", "share_cleared",
    "mean_reforms", "runs",
)


def _values(field: str, values: Iterable[Any]) -> tuple[Any, ...]:
    values = tuple(values)
    if not values:
        raise InvalidInput(field, values, "at least one value")
    return values


def tuning_table(
    n_values: Iterable[int] = (2, 3, 4, 5),
    m_values: Iterable[int] = (3, 4, 6, 8),
    disruption_values: Iterable[Any] = ("0", "1/4", "1/2"),
    base: SwarmScenario | None = None,
    runs: int = 300,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Rounds until gone for good (mean over cleared fights), share cleared and reforms for every N × M ×
    disruption chance; the other numbers from `base`. Every cell uses `random.Random(seed)` afresh, so the
    cells differ only by their N, M and disruption (common random numbers)."""
    base = base or SwarmScenario()
    grid = [
        (n, m, d)
        for d in _values("disruption_values", disruption_values)
        for n in _values("n_values", n_values)
        for m in _values("m_values", m_values)
    ]
    rows = []
    for index, (n, m, d) in enumerate(grid, start=1):
        scenario = replace(base, disperse_value=n, reform_threshold=m, disruption_chance=d)
        result = simulate_swarms(scenario, random.Random(seed), runs=runs)
        rows.append((
            n, m, float(scenario.disruption_chance),
            None if result.mean_rounds is None else float(result.mean_rounds),
            float(result.share_cleared), float(result.mean_reforms), result.runs,
        ))
        if progress is not None:
            progress(index, len(grid))
    return pd.DataFrame(rows, columns=list(TUNING_COLUMNS))


def distribution_table(result: SimulationResult) -> pd.DataFrame:
    """How many fights ended in each round; `rounds` is missing (NA) for fights not cleared in time."""
    counts = result.distribution()
    frame = pd.DataFrame({"rounds": list(counts), "fights": list(counts.values())})
    frame["rounds"] = frame["rounds"].astype("Int64")
    frame["share"] = frame["fights"] / result.runs
    return frame
