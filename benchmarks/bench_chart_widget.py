"""Kernel time to make the FigureWidget of a finished chart: plotly's own way against `server.charts.heard_widget`.

Run: .venv/bin/python benchmarks/bench_chart_widget.py
Every new chart on a page is a new FigureWidget (at the page's first run, which preheating pays, and per change
on the pages whose slots show a fresh chart: explorer, calibration, malice, and the others until the browser
answers). plotly checks the whole figure again when it makes the widget; `figure_widget` takes the properties
the figure's own building checked.
"""

from __future__ import annotations

import statistics

from timing import timed

import workbench as wb
from workbench import stat_table
from workbench.charts.encounter import budget_figure
from workbench.charts.scaling import curves_figure, scaling_figure
from workbench.charts.solo import solo_figure
from workbench.encounter.party import budget, make_party
from workbench.monster.solo import solo_drift
from workbench.server.charts import HeardFigure
from workbench.server.charts import heard_widget as figure_widget


def figures() -> dict[str, object]:
    table = stat_table(range(1, 11))
    pairs = [("platoon", role) for role in ("brute", "harrier", "hexer", "controller")]
    return {
        "builder's scaling chart (3 traces, subplots)": scaling_figure(table, 4, "platoon", "brute"),
        "explorer's curves (8 traces)": curves_figure(table, "stamina", pairs + [("elite", "brute")] * 4),
        "encounter budget (bars and a marker)": budget_figure(budget(make_party(heroes=4, level=2)), 8, "hard"),
        "solo comparison (10 traces, 3 subplots)": solo_figure(wb.compare_solos(wb.build_monster(5, "leader")),
                                                               solo_drift("leader", None)),
    }


def main() -> None:
    for label, figure in figures().items():
        own = timed(lambda figure=figure: HeardFigure(figure).close(), 30)
        fast = timed(lambda figure=figure: figure_widget(figure).close(), 30)
        print(f"{label:<46} plotly's way median {statistics.median(own) * 1000:6.1f} ms   "
              f"figure_widget median {statistics.median(fast) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
