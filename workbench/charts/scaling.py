"""How a number scales: one monster's curve across levels beside its level's other roles or organizations,
and the explorer's curves (with a ruleset variant's curves dashed beside the old ones).

Data in (a `stat_table` frame), figure out; nothing here displays itself. The builder's figure has a fixed
set of traces so `update_scaling_figure` can change it in place (a `go.FigureWidget` after display).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from workbench.charts.theme import WHITE
from workbench.errors import InvalidInput
from workbench.tables.scaling import QUANTITIES, curve, label, neighbours

__all__ = [
    "scaling_figure",
    "update_scaling_figure",
    "keep_widget_state",
    "curves_figure",
    "THIS_COLOUR",
    "OTHER_COLOUR",
]

THIS_COLOUR = "#b5452b"
OTHER_COLOUR = "#9aa7b4"
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
)


def _quantity_label(quantity: str) -> str:
    if quantity not in QUANTITIES:
        raise InvalidInput("quantity", quantity, "one of " + ", ".join(QUANTITIES))
    return QUANTITIES[quantity]


def _parts(
    table: pd.DataFrame,
    level: int,
    organization: str,
    role: str | None,
    quantity: str,
    compare: str,
) -> dict[str, Any]:
    """Everything the figure shows, as plain lists (shared by the build and the in-place update)."""
    name = _quantity_label(quantity)
    line = curve(table, organization, role, quantity)
    levels, values = line["level"].to_numpy(), line["value"].to_numpy()
    at = levels == level
    bars = neighbours(table, level, organization, role, quantity, compare)
    return {
        "line_x": levels.tolist(),
        "line_y": values.tolist(),
        "line_name": label(organization, role),
        "mark_x": levels[at].tolist(),
        "mark_y": values[at].tolist(),
        "bar_x": bars["label"].tolist(),
        "bar_y": bars["value"].tolist(),
        "bar_colour": [THIS_COLOUR if this else OTHER_COLOUR for this in bars["this"]],
        "title": f"{name}: level {level} {label(organization, role)}",
        "left_title": f"{name} by level",
        "right_title": f"Level {level}: other {'roles' if compare == 'role' else 'organizations'}",
        "y_title": name,
    }


def scaling_figure(
    table: pd.DataFrame,
    level: int,
    organization: str,
    role: str | None,
    quantity: str = "stamina",
    compare: str = "role",
) -> go.Figure:
    """Left: the number across the table's levels with this monster marked; right: the same level's others.

    Traces (fixed, for in-place updates): 0 the curve, 1 this monster's marker, 2 the comparison bars.
    """
    p = _parts(table, level, organization, role, quantity, compare)
    fig = make_subplots(
        rows=1, cols=2, column_widths=[0.58, 0.42], horizontal_spacing=0.1,
        subplot_titles=(p["left_title"], p["right_title"]),
    )
    fig.add_trace(
        go.Scatter(x=p["line_x"], y=p["line_y"], mode="lines+markers", name=p["line_name"],
                   line={"color": THIS_COLOUR}, marker={"size": 5}),
        row=1, col=1,
    )
    fig.add_trace(
        go.Scatter(x=p["mark_x"], y=p["mark_y"], mode="markers+text", name="this monster",
                   text=[str(v) for v in p["mark_y"]], textposition="top center",
                   marker={"size": 14, "color": THIS_COLOUR, "symbol": "diamond",
                           "line": {"width": 2, "color": "white"}}),
        row=1, col=1,
    )
    fig.add_trace(
        go.Bar(x=p["bar_x"], y=p["bar_y"], marker={"color": p["bar_colour"]}, name="same level",
               text=p["bar_y"], textposition="outside"),
        row=1, col=2,
    )
    fig.update_layout(
        title={"text": p["title"]}, showlegend=False, height=380, margin={"t": 70, "b": 90, "l": 50, "r": 20},
        template=WHITE,
    )
    fig.update_xaxes(title_text="level", dtick=1, row=1, col=1)
    fig.update_yaxes(title_text=p["y_title"], rangemode="tozero", row=1, col=1)
    fig.update_yaxes(rangemode="tozero", row=1, col=2)
    fig.update_xaxes(tickangle=-40, row=1, col=2)
    return fig


def keep_widget_state(fig: go.Figure) -> go.Figure:
    """After changing a FigureWidget in place, store its whole state in the synced traits too.

    plotly 7.1's FigureWidget sends in-place changes as messages and keeps its synced state as it was when
    built; a browser view that starts after those messages (a slow page load, a cell re-displayed) draws
    the stale state. A FigureWidget stores it when it is displayed, in `_repr_mimebundle_` (IPython's display
    protocol, the one way plotly offers without its private attributes); the bundle itself is not wanted.
    No-op for a Figure, whose `_repr_mimebundle_` would render it.
    """
    if isinstance(fig, go.FigureWidget):
        fig._repr_mimebundle_()
    return fig


def update_scaling_figure(
    fig: go.Figure,
    table: pd.DataFrame,
    level: int,
    organization: str,
    role: str | None,
    quantity: str = "stamina",
    compare: str = "role",
) -> go.Figure:
    """Change a `scaling_figure` (or a FigureWidget made from one) in place to show another monster."""
    p = _parts(table, level, organization, role, quantity, compare)
    with fig.batch_update():
        fig.data[0].update(x=p["line_x"], y=p["line_y"], name=p["line_name"])
        fig.data[1].update(x=p["mark_x"], y=p["mark_y"], text=[str(v) for v in p["mark_y"]])
        fig.data[2].update(x=p["bar_x"], y=p["bar_y"], text=p["bar_y"], marker={"color": p["bar_colour"]})
        fig.layout.title.text = p["title"]
        fig.layout.annotations[0].text = p["left_title"]
        fig.layout.annotations[1].text = p["right_title"]
        fig.layout.yaxis.title.text = p["y_title"]
    return keep_widget_state(fig)


def curves_figure(
    table: pd.DataFrame,
    quantity: str,
    pairs: Iterable[tuple[str, str | None]],
    old_table: pd.DataFrame | None = None,
    ruleset_names: tuple[str, str] = ("old", "new"),
    template: go.layout.Template | None = WHITE,
) -> go.Figure:
    """One line per (organization, role) across levels; with `old_table`, the old lines dashed beside.

    Trace names are "<organization role>" (and "<organization role> (<old name>)" for the old lines).
    `template=None` skips the styling template (`theme.WHITE`, which takes time to apply): for figures whose traces are
    copied into a FigureWidget that already has one.
    """
    name = _quantity_label(quantity)
    fig = go.Figure(layout={"template": template if template is not None else {}})
    for index, (organization, role) in enumerate(pairs):
        colour = PALETTE[index % len(PALETTE)]
        line = curve(table, organization, role, quantity)
        tag = label(organization, role)
        if old_table is not None:
            before = curve(old_table, organization, role, quantity)
            fig.add_trace(go.Scatter(
                x=before["level"].tolist(), y=before["value"].tolist(), mode="lines",
                name=f"{tag} ({ruleset_names[0]})", legendgroup=tag,
                line={"color": colour, "dash": "dash", "width": 1.5},
            ))
            tag_new = f"{tag} ({ruleset_names[1]})"
        else:
            tag_new = tag
        fig.add_trace(go.Scatter(
            x=line["level"].tolist(), y=line["value"].tolist(), mode="lines+markers", name=tag_new,
            legendgroup=tag, line={"color": colour}, marker={"size": 4},
        ))
    fig.update_layout(
        title={"text": f"{name} by level"}, xaxis_title="level", yaxis_title=name, height=420,
        margin={"t": 50, "l": 50, "r": 20, "b": 40},
    )
    fig.update_xaxes(dtick=1)
    return fig
