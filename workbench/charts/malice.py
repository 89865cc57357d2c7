"""Malice by round: the gain as bars, the running total as a line, and (optionally) a plan's Malice left
after spending and the features' costs as guide lines. Data in, figure out; nothing here displays itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import plotly.graph_objects as go

from workbench.fight.malice_plan import SpendingPlan
from workbench.fight.malice_schedule import MaliceRound
from workbench.markup import escape
from workbench.model import Trait

__all__ = ["malice_figure", "GAIN_COLOUR", "TOTAL_COLOUR", "LEFT_COLOUR"]

GAIN_COLOUR = "#9aa7b4"
TOTAL_COLOUR = "#b5452b"
LEFT_COLOUR = "#1f77b4"
COST_COLOUR = "#7f7f7f"


def malice_figure(
    schedule: Sequence[MaliceRound],
    plan: SpendingPlan | None = None,
    features: Iterable[Trait] = (),
    title: str = "Malice by round",
) -> go.Figure:
    """Gain per round (bars) and the running total if nothing is spent (line); with a `plan`, the Malice
    on hand after each round's spending; each of `features` as a dotted line at its cost (feature names are
    user text: escaped, since plotly reads a few HTML tags in names and hover text)."""
    rounds = [r.round for r in schedule]
    figure = go.Figure()
    figure.add_trace(go.Bar(
        x=rounds, y=[r.gain for r in schedule], name="Gained this round", marker_color=GAIN_COLOUR,
        hovertemplate="Round %{x}: +%{y}<extra></extra>",
    ))
    figure.add_trace(go.Scatter(
        x=rounds, y=[r.total for r in schedule], name="Running total (nothing spent)",
        mode="lines+markers", line={"color": TOTAL_COLOUR},
        hovertemplate="Round %{x}: %{y} in all<extra></extra>",
    ))
    if plan is not None:
        figure.add_trace(go.Scatter(
            x=[r.round for r in plan.rounds], y=[r.left for r in plan.rounds], name="Left after the plan's spending",
            mode="lines+markers", line={"color": LEFT_COLOUR, "dash": "dash"},
            hovertemplate="Round %{x}: %{y} left<extra></extra>",
        ))
    # Costs as two-point line traces, not `add_hline` shapes: plotly builds a shape and its annotation slowly.
    span = [min(rounds, default=1) - 0.5, max(rounds, default=1) + 0.5]
    for feature in features:
        if feature.cost is None:
            continue
        name = str(escape(feature.name)).replace("%{", "%&#123;")
        figure.add_trace(go.Scatter(
            x=span, y=[feature.cost, feature.cost], mode="lines", name=f"Costs {feature.cost}: {name}",
            line={"color": COST_COLOUR, "dash": "dot", "width": 1}, legendgroup="costs",
            hovertemplate=f"{name}: {feature.cost} Malice<extra></extra>",
        ))
    # A white background set directly: applying a named template is slow, and felt on every slider move.
    grid = {"gridcolor": "#e5e5e5", "zerolinecolor": "#cccccc"}
    figure.update_layout(
        title=title, xaxis={"title": "Round", "dtick": 1, **grid},
        yaxis={"title": "Malice", "rangemode": "tozero", **grid},
        legend={"orientation": "h", "y": -0.2}, margin={"t": 50, "b": 40},
        plot_bgcolor="white", paper_bgcolor="white",
    )
    return figure
