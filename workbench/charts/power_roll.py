"""Expected damage per use across levels (tables.power_roll), as a plotly figure: data in, figure out."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from workbench.charts.theme import WHITE

__all__ = ["expected_damage_figure"]


def expected_damage_figure(formula: pd.DataFrame, published: pd.DataFrame, title: str) -> go.Figure:
    """The formula's signature strike per level (with the edge/bane band) and the published signatures."""
    figure = go.Figure(layout={"template": WHITE})
    figure.add_trace(go.Scatter(x=formula.level, y=formula.with_edge, mode="lines", line={"width": 0},
                                name="with an edge", showlegend=False, hoverinfo="skip"))
    figure.add_trace(go.Scatter(x=formula.level, y=formula.with_bane, mode="lines", line={"width": 0},
                                fill="tonexty", fillcolor="rgba(90,62,43,0.15)", name="edge … bane"))
    figure.add_trace(go.Scatter(x=formula.level, y=formula.expected, mode="lines+markers", name="formula",
                                line={"color": "#5a3e2b"}))
    if len(published):
        figure.add_trace(go.Scatter(x=published.level, y=published.expected, mode="markers+text",
                                    text=published.name, textposition="top center", name="published",
                                    marker={"color": "#b5651d", "size": 9}))
    figure.update_layout(title=title, xaxis_title="level", yaxis_title="expected damage per use",
                         height=360, margin={"l": 50, "r": 20, "t": 50, "b": 40})
    return figure
