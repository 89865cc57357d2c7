"""An instant solo beside a built solo: EV and Stamina, damage by tier, and how far apart they drift by level.

Data in (`SoloComparison`s from `workbench.monster.solo`), figure out; nothing here displays itself. The figure has a
fixed set of traces, so `update_solo_figure` can change a displayed `go.FigureWidget` in place.

Traces: 0 instant EV/Stamina bars, 1 built EV/Stamina bars, 2 instant damage bars, 3 built damage bars,
4.. one line per compared number: the built solo's value over the instant solo's, in percent, per level.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from workbench.errors import InvalidInput
from workbench.monster.solo import ComparisonRow, SoloComparison

__all__ = ["DRIFT_QUANTITIES", "solo_figure", "solo_figure_parts", "update_solo_figure"]

INSTANT_COLOUR = "#b5452b"
BUILT_COLOUR = "#3a6ea5"
SIZE_QUANTITIES = ("EV", "Stamina")
DAMAGE_QUANTITIES = ("Damage, tier 1", "Damage, tier 2", "Damage, tier 3")
DRIFT_QUANTITIES = ("EV", "Stamina", "Free strike", "Damage, tier 1", "Damage, tier 2", "Damage, tier 3")
DRIFT_COLOURS = ("#7f7f7f", "#2ca02c", "#9467bd", "#ff7f0e", "#d62728", "#8c564b")


def _row(comparison: SoloComparison, quantity: str) -> ComparisonRow:
    for row in comparison.rows:
        if row.quantity == quantity:
            return row
    raise InvalidInput("quantity", quantity, "one of " + ", ".join(r.quantity for r in comparison.rows))


def _percent(instant: int, built: int) -> float:
    """How much more (or less) the built solo has, in percent of the instant solo's value (for plotting)."""
    if instant == 0:
        return 0.0
    return float(Fraction(built - instant, instant) * 100)


def solo_figure_parts(comparison: SoloComparison, drift: Sequence[SoloComparison]) -> dict[str, Any]:
    """Everything the figure shows, as plain lists (shared by the build and the in-place update)."""
    instant, built = comparison.instant, comparison.built
    kind = " ".join(p.capitalize() for p in (instant.organization, instant.role) if p)
    size = [_row(comparison, q) for q in SIZE_QUANTITIES]
    damage = [_row(comparison, q) for q in DAMAGE_QUANTITIES]
    levels = [c.source.level for c in drift]
    lines = []
    for quantity in DRIFT_QUANTITIES:
        rows = [_row(c, quantity) for c in drift]
        lines.append({
            "name": quantity,
            "x": levels,
            "y": [_percent(r.instant, r.built) for r in rows],
            "text": [f"instant {r.instant}, built {r.built}" for r in rows],
        })
    return {
        "instant_name": f"Instant solo (level {instant.level} {kind})",
        "built_name": f"Built solo (level {built.level})",
        "size_x": [r.quantity for r in size],
        "size_instant": [r.instant for r in size],
        "size_built": [r.built for r in size],
        "damage_x": ["Tier 1", "Tier 2", "Tier 3"],
        "damage_instant": [r.instant for r in damage],
        "damage_built": [r.built for r in damage],
        "lines": lines,
        "title": f"Level {instant.level} {kind} as an instant solo, beside a solo built from the formulas",
        "drift_title": f"{kind} vs built solo, levels {levels[0]}–{levels[-1]}" if levels else "",
    }


def solo_figure(comparison: SoloComparison, drift: Sequence[SoloComparison]) -> go.Figure:
    """Left: EV and Stamina; middle: signature strike damage by tier; right: built over instant by level (%)."""
    parts = solo_figure_parts(comparison, drift)
    fig = make_subplots(
        rows=1, cols=3, column_widths=[0.28, 0.28, 0.44], horizontal_spacing=0.1,  # room for the % axis title
        subplot_titles=("EV and Stamina", "Signature strike damage", parts["drift_title"]),
    )
    for name, key, colour in (
        (parts["instant_name"], "instant", INSTANT_COLOUR),
        (parts["built_name"], "built", BUILT_COLOUR),
    ):
        fig.add_trace(go.Bar(name=name, x=parts["size_x"], y=parts[f"size_{key}"], marker_color=colour,
                             legendgroup=key, text=parts[f"size_{key}"], textposition="auto"), row=1, col=1)
    for name, key, colour in (
        (parts["instant_name"], "instant", INSTANT_COLOUR),
        (parts["built_name"], "built", BUILT_COLOUR),
    ):
        fig.add_trace(go.Bar(name=name, x=parts["damage_x"], y=parts[f"damage_{key}"], marker_color=colour,
                             legendgroup=key, showlegend=False, text=parts[f"damage_{key}"],
                             textposition="auto"), row=1, col=2)
    for line, colour in zip(parts["lines"], DRIFT_COLOURS, strict=True):
        fig.add_trace(go.Scatter(name=line["name"], x=line["x"], y=line["y"], text=line["text"],
                                 mode="lines+markers", line={"color": colour},
                                 hovertemplate="level %{x}: %{y:+.1f}%<br>%{text}<extra>%{fullData.name}</extra>"),
                      row=1, col=3)
    fig.update_layout(title=parts["title"], barmode="group", height=460, margin={"t": 80, "b": 40, "l": 50, "r": 20},
                      legend={"orientation": "h", "y": -0.18})
    fig.update_xaxes(title_text="level", dtick=1, row=1, col=3)
    fig.update_yaxes(title_text="built over instant, %", title_standoff=4, row=1, col=3)
    return fig


def update_solo_figure(fig: go.Figure, comparison: SoloComparison, drift: Sequence[SoloComparison]) -> None:
    """Change `fig` (from `solo_figure`, possibly a displayed FigureWidget) in place to new comparisons."""
    parts = solo_figure_parts(comparison, drift)
    with fig.batch_update():
        for index, key in ((0, "instant"), (1, "built")):
            fig.data[index].update(name=parts[f"{key}_name"], y=parts[f"size_{key}"], text=parts[f"size_{key}"])
            fig.data[index + 2].update(name=parts[f"{key}_name"], y=parts[f"damage_{key}"],
                                       text=parts[f"damage_{key}"])
        for trace, line in zip(fig.data[4:], parts["lines"], strict=True):
            trace.update(x=line["x"], y=line["y"], text=line["text"])
        fig.layout.title.text = parts["title"]
        fig.layout.annotations[2].text = parts["drift_title"]
