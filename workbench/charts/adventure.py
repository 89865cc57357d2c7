"""The day at a glance: the Victories the heroes hold as they arrive at each encounter, and the difficulty each
encounter has then, with the respites marked between them. Data in, figure out; nothing here displays itself.

Why both on one chart: Victories raise the encounter strength, so the same encounter falls in an easier band
the later it is met; a Director sees the Victories climb (bars) and the bands drift (markers) together, and
where a respite sets the Victories back to 0. The numbers are the plan's (`encounter.adventure.plan`).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from workbench.charts.encounter import BAND_COLOURS
from workbench.encounter.adventure import AdventurePlan, EncounterPlan
from workbench.markup import escape
from workbench.numbers import format_number
from workbench.rules.encounter_tables import DIFFICULTIES

__all__ = [
    "ARRIVAL_COLOUR",
    "BAND_TRACE",
    "DIFFICULTY_TRACE",
    "RESPITE_TRACE",
    "VICTORIES_TRACE",
    "adventure_figure",
    "encounter_label",
]

ARRIVAL_COLOUR = "#9aa7b4"
DIFFICULTY_COLOUR = "#1f1f1f"
RESPITE_COLOUR = "#2b83ba"
VICTORIES_TRACE = "Victories on arrival"
BAND_TRACE = "Band of its EV"
DIFFICULTY_TRACE = "Difficulty with its objective"
RESPITE_TRACE = "Respite"
LABEL_LENGTH = 18  # characters of an encounter's name under its bar


def _safe(text: str) -> str:
    """User text as plotly shows it: escaped (plotly reads a few HTML tags) and no hover template field."""
    return str(escape(text)).replace("%{", "%&#123;")


def encounter_label(row: EncounterPlan) -> str:
    """The encounter's number and its name (cut to fit under its bar), escaped."""
    name = row.name.strip() or f"Encounter {row.index + 1}"
    if len(name) > LABEL_LENGTH:
        name = name[: LABEL_LENGTH - 1].rstrip() + "…"
    return f"{row.index + 1}. {_safe(name)}"


def _victories(value: Any) -> str:
    return f"{format_number(value)} {'Victory' if value == 1 else 'Victories'}"


def adventure_figure(found: AdventurePlan, title: str = "Victories and difficulty through the day") -> go.Figure:
    """Bars: the Victories on arrival at each encounter (left axis). Markers on the right axis: the band the
    encounter's EV falls in at those Victories, and its difficulty once its objectives are counted. A dotted
    line where a respite falls (between two encounters, or before the first)."""
    rows = found.encounters
    xs = [row.index + 1 for row in rows]
    arrival = [float(row.arrival_victories) for row in rows]
    top = max([6.0, *(float(row.since_respite) for row in rows)]) + 1
    traces: list[dict[str, Any]] = [
        dict(
            type="bar", x=xs, y=arrival, name=VICTORIES_TRACE, marker_color=ARRIVAL_COLOUR,
            text=[format_number(row.arrival_victories) for row in rows], textposition="outside",
            customdata=[[_victories(row.arrival_victories), format_number(row.encounter_strength)] for row in rows],
            hovertemplate="Arrive with %{customdata[0]}: encounter strength %{customdata[1]}<extra></extra>",
        ),
        dict(
            type="scatter", x=xs, y=[DIFFICULTIES.index(row.band) for row in rows], yaxis="y2", name=BAND_TRACE,
            mode="markers", marker={"size": 16, "symbol": "square",
                                    "color": [BAND_COLOURS.get(row.band, "#999") for row in rows],
                                    "line": {"color": DIFFICULTY_COLOUR, "width": 1}},
            customdata=[[row.band, format_number(row.total_ev)] for row in rows],
            hovertemplate="EV %{customdata[1]}: %{customdata[0]}<extra></extra>",
        ),
        dict(
            type="scatter", x=xs, y=[DIFFICULTIES.index(row.difficulty) for row in rows], yaxis="y2",
            name=DIFFICULTY_TRACE, mode="lines+markers",
            line={"color": DIFFICULTY_COLOUR, "dash": "dot", "width": 1},
            marker={"size": 7, "color": DIFFICULTY_COLOUR},
            customdata=[[row.difficulty, _victories(row.victories)] for row in rows],
            hovertemplate="%{customdata[0]}, worth %{customdata[1]}<extra></extra>",
        ),
    ]
    respites = sorted(found.adventure.respites)
    if respites:
        line_x: list[float | None] = []
        line_y: list[float | None] = []
        for position in respites:
            line_x += [position + 0.5, position + 0.5, None]
            line_y += [0, top, None]
        traces.append(dict(
            type="scatter", x=line_x, y=line_y, name=RESPITE_TRACE, mode="lines",
            line={"color": RESPITE_COLOUR, "dash": "dash", "width": 2},
            hovertemplate="Respite: Victories back to 0<extra></extra>",
        ))
    annotations = [] if rows else [{
        "text": "No encounters yet: add one saved on the encounter page", "xref": "paper", "yref": "paper",
        "x": 0.5, "y": 0.5, "showarrow": False,
    }]
    grid = {"gridcolor": "#e5e5e5", "zerolinecolor": "#cccccc"}
    ends = [*xs, *(p + 0.5 for p in respites)]
    layout = dict(
        title=title, barmode="overlay", annotations=annotations,
        xaxis={"title": "Encounter, in the order met", "tickmode": "array", "tickvals": xs,
               "ticktext": [encounter_label(row) for row in rows],
               "range": [min(ends, default=1) - 0.6, max(ends, default=1) + 0.6], **grid},
        yaxis={"title": "Victories on arrival", "range": [0, top], "dtick": 1, **grid},
        yaxis2={"title": "Difficulty", "overlaying": "y", "side": "right", "tickmode": "array",
                "tickvals": list(range(len(DIFFICULTIES))), "ticktext": list(DIFFICULTIES),
                "range": [-0.5, len(DIFFICULTIES) - 0.5], "showgrid": False},
        legend={"orientation": "h", "y": -0.3}, margin={"t": 50, "b": 40, "l": 60, "r": 80}, height=380,
        plot_bgcolor="white", paper_bgcolor="white",
    )
    return go.Figure(data=traces, layout=layout)
