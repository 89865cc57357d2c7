"""The budget bands as coloured ranges of EV, the encounter's EV as a marker, and what is left to spend
before the total leaves the chosen difficulty. Data in, figure out; nothing here displays itself."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from workbench.encounter.party import Budget
from workbench.numbers import format_number

__all__ = ["budget_figure", "BAND_COLOURS", "EV_COLOUR", "LEFT_COLOUR"]

BAND_COLOURS = {
    "trivial": "#d9d9d9",
    "easy": "#a6d96a",
    "standard": "#66bd63",
    "hard": "#fdae61",
    "extreme": "#d7191c",
}
EV_COLOUR = "#1f1f1f"
LEFT_COLOUR = "#2b83ba"


def budget_figure(
    b: Budget,
    ev: Fraction | int | None = None,
    difficulty: str | None = None,
    title: str = "Encounter budget",
) -> go.Figure:
    """Each band as a horizontal bar over the whole EV totals it holds (extreme drawn to a little past the
    hard band or the encounter's EV); `ev` as a marker; for `difficulty`, a bar from the EV to the band's
    top (what is left to spend) or a note that the EV is past it.

    Styled by hand rather than with a plotly template: applying "plotly_white" costs more than everything
    else the editor recomputes on a change."""
    hard_top = b.band("hard").max or 0
    end = max(hard_top + max(int(b.hero_strength), 1) * 2, int(Fraction(ev or 0)) + 5)
    traces: list[dict[str, Any]] = []
    for band in b.bands:
        if band.empty:
            continue
        top = band.max if band.max is not None else end
        width = top - band.min + 1
        span = f"{band.min}–{band.max}" if band.max is not None else f"{band.min} or more"
        traces.append(dict(
            type="bar", y=["budget"], x=[width], base=[band.min], orientation="h", name=band.name.capitalize(),
            marker_color=BAND_COLOURS.get(band.name, "#999"), text=[band.name], textposition="inside",
            insidetextanchor="middle",
            hovertemplate=f"{band.name.capitalize()}: EV {span} ({band.victories} Victories)<extra></extra>",
        ))
    annotations = []
    if difficulty is not None:
        target = b.band(difficulty)
        shown = Fraction(ev or 0)
        if target.max is None:
            note = f"{difficulty}: no upper end (at least {target.min})"
        else:
            left = target.max - shown
            if left >= 0:
                traces.append(dict(
                    type="bar", y=["to spend"], x=[float(left) if left else 0.0001], base=[float(shown)],
                    orientation="h", name=f"Left for {difficulty}", marker_color=LEFT_COLOUR, opacity=0.6,
                    hovertemplate=f"{format_number(left)} EV left before leaving {difficulty}<extra></extra>",
                ))
            note = (
                f"{format_number(left)} EV left to spend for {difficulty}"
                if left >= 0
                else f"{format_number(-left)} EV over {difficulty}"
            )
        if shown < target.min:
            note += f" (needs at least {target.min}: {format_number(target.min - shown)} more)"
        annotations.append(
            {"text": note, "xref": "paper", "yref": "paper", "x": 0, "y": 1.12, "showarrow": False,
             "xanchor": "left"}
        )
    if ev is not None:
        value = float(Fraction(ev))
        traces.append(dict(
            type="scatter", x=[value, value], y=["budget", "to spend"] if difficulty else ["budget", "budget"],
            mode="markers+lines", name=f"Encounter EV {format_number(Fraction(ev))}",
            marker={"symbol": "diamond", "size": 14, "color": EV_COLOUR}, line={"color": EV_COLOUR},
            hovertemplate=f"Encounter EV {format_number(Fraction(ev))}<extra></extra>",
        ))
    layout = dict(
        title=title, barmode="overlay", xaxis={"title": "EV", "range": [0, end], "rangemode": "tozero", "gridcolor": "#eee"},
        yaxis={"categoryorder": "array", "categoryarray": ["to spend", "budget"]},
        legend={"orientation": "h", "y": -0.35}, margin={"t": 70, "b": 40, "l": 70}, height=300,
        plot_bgcolor="white", paper_bgcolor="white", annotations=annotations,
    )
    return go.Figure(data=traces, layout=layout)
