"""Swarm simulation figures: the "Rule of Thumb for Tuning" made visible, and one scenario's distribution.

Data in (frames from `workbench.tables.swarm`), figure out; nothing here displays itself. An app wraps a
finished figure in `go.FigureWidget`: built whole first, since every change to a widget's figure is a message
to the browser.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

__all__ = ["distribution_figure", "tuning_figure", "uncleared_note"]

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


def _percent(value: float) -> str:
    return f"{round(value * 100)}%"


def tuning_figure(frame: pd.DataFrame) -> go.Figure:
    """Top row: rounds until the swarms are gone for good against N, one line per M, one panel per
    disruption chance. Bottom row: reforms per fight on the same axes."""
    chances = sorted(frame["disruption_chance"].unique())
    ms = sorted(frame["reform_threshold"].unique())
    fig = make_subplots(
        rows=2, cols=len(chances), shared_xaxes=True, shared_yaxes="rows", vertical_spacing=0.1,
        subplot_titles=[f"disruption {_percent(c)}" for c in chances] + [""] * len(chances),
    )
    for col, chance in enumerate(chances, start=1):
        for i, m in enumerate(ms):
            part = frame[(frame["disruption_chance"] == chance) & (frame["reform_threshold"] == m)]
            part = part.sort_values("disperse_value")
            colour = PALETTE[i % len(PALETTE)]
            for row, column in ((1, "mean_rounds"), (2, "mean_reforms")):
                fig.add_trace(
                    go.Scatter(
                        x=part["disperse_value"], y=part[column], mode="lines+markers",
                        name=f"M = {m}", legendgroup=f"M = {m}", showlegend=(col == 1 and row == 1),
                        line={"color": colour},
                        customdata=part[["share_cleared"]],
                        hovertemplate=(
                            f"N = %{{x}}, M = {m}, disruption {_percent(chance)}<br>"
                            + ("rounds to gone %{y:.2f}" if row == 1 else "reforms %{y:.2f}")
                            + "<br>cleared %{customdata[0]:.0%}<extra></extra>"
                        ),
                    ),
                    row=row, col=col,
                )
        fig.update_xaxes(title_text="Disperse Value N", dtick=1, row=2, col=col)
    fig.update_yaxes(title_text="rounds until gone", row=1, col=1)
    fig.update_yaxes(title_text="reforms per fight", row=2, col=1)
    fig.update_layout(
        title="Tuning a swarm: lower N clears sooner, lower M reforms more, disruption stops reforms",
        height=580, legend_title_text="Reform Threshold", margin={"t": 80, "b": 100},
    )
    note = uncleared_note(frame)
    if note:
        fig.add_annotation(text=note, xref="paper", yref="paper", x=0, y=-0.16, xanchor="left", yanchor="top",
                           showarrow=False, align="left", font={"size": 12, "color": "#8a1c1c"})
    return fig


def uncleared_note(frame: pd.DataFrame, most: int = 4) -> str:
    """Which cells had fights the swarms outlasted ("" if none). Their rounds are the mean of the cleared
    fights only, and a cell with no cleared fight has no point on the top row: this says so."""
    part = frame[frame["share_cleared"] < 1].sort_values(["disruption_chance", "disperse_value", "reform_threshold"])
    if part.empty:
        return ""
    cells = [
        f"N = {r.disperse_value}, M = {r.reform_threshold}, disruption {_percent(r.disruption_chance)}:"
        f" {_percent(r.share_cleared)} cleared"
        for r in part.itertuples()
    ]
    shown = "; ".join(cells[:most]) + (f"; and {len(cells) - most} more (hover)" if len(cells) > most else "")
    return f"Not every fight cleared (rounds average the cleared ones only): {shown}"


def distribution_figure(frame: pd.DataFrame, title: str = "Rounds until the swarms are gone for good") -> go.Figure:
    """Bars: how many fights ended in each round (a frame from `distribution_table`); fights not cleared
    in time are one grey bar at the right."""
    cleared = frame[frame["rounds"].notna()]
    left = frame[frame["rounds"].isna()]
    fig = go.Figure(
        go.Bar(x=[str(int(r)) for r in cleared["rounds"]], y=cleared["fights"], name="cleared",
               marker_color=PALETTE[0], hovertemplate="round %{x}: %{y} fights<extra></extra>")
    )
    if len(left):
        fig.add_trace(go.Bar(x=["not cleared"], y=left["fights"], name="not cleared", marker_color="#9aa7b4",
                             hovertemplate="not cleared: %{y} fights<extra></extra>"))
    fig.update_layout(
        title=title, xaxis_title="round", yaxis_title="fights", height=320, showlegend=False,
        margin={"t": 50}, xaxis={"type": "category"},
    )
    return fig
