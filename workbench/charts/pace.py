"""The pace of a fight as two curves over rounds: the heroes' Stamina left and the foes' Stamina left, with
the moment the first hero is expected to be dying, and the assumptions written under the chart. Data in,
figure out; nothing here displays itself."""

from __future__ import annotations

import textwrap
from typing import SupportsFloat

import plotly.graph_objects as go

from workbench.fight.pace import Pace

__all__ = ["pace_figure", "HEROES_COLOUR", "FOES_COLOUR", "FOCUS_COLOUR"]

HEROES_COLOUR = "#2b83ba"
FOES_COLOUR = "#d7191c"
FOCUS_COLOUR = "#7fa8c9"


def _moment(value: SupportsFloat) -> str:
    return f"{float(value):.1f}"


def pace_figure(pace: Pace, title: str = "Pace of the fight") -> go.Figure:
    """Heroes' Stamina left (and the focused hero's) and the foes' Stamina left at the end of each round."""
    rounds = [0] + [r.round for r in pace.rounds]
    heroes = [float(sum(pace.hero_stamina))] + [float(r.heroes_left) for r in pace.rounds]
    focus = [float(min(pace.hero_stamina))] + [float(r.focused_hero_left) for r in pace.rounds]
    foes = [float(pace.foe_stamina)] + [float(r.foes_left) for r in pace.rounds]
    figure = go.Figure()
    figure.add_trace(go.Scatter(
        x=rounds, y=heroes, name="Heroes' Stamina left", mode="lines+markers", line={"color": HEROES_COLOUR},
        hovertemplate="End of round %{x}: %{y:.0f} Stamina left to the heroes<extra></extra>",
    ))
    figure.add_trace(go.Scatter(
        x=rounds, y=focus, name="The focused hero's Stamina", mode="lines", line={"color": FOCUS_COLOUR, "dash": "dot"},
        hovertemplate="End of round %{x}: %{y:.0f} Stamina left to the focused hero<extra></extra>",
    ))
    figure.add_trace(go.Scatter(
        x=rounds, y=foes, name="Foes' Stamina left", mode="lines+markers", line={"color": FOES_COLOUR},
        hovertemplate="End of round %{x}: %{y:.0f} Stamina left to the foes<extra></extra>",
    ))
    top = max(heroes[0], foes[0])
    for moment, label, colour in (
        (pace.first_dying, "first hero dying", HEROES_COLOUR),
        (pace.foes_defeated, "foes defeated", FOES_COLOUR),
    ):
        if moment is not None:
            figure.add_trace(go.Scatter(
                x=[float(moment)] * 2, y=[0, top], mode="lines", name=f"{label.capitalize()} ({_moment(moment)} rounds)",
                line={"color": colour, "dash": "dash", "width": 1},
                hovertemplate=f"{label.capitalize()}: {_moment(moment)} rounds<extra></extra>",
            ))
    notes = "<br>".join(
        "<br>".join(textwrap.wrap(f"• {text}", 120)) for text in pace.assumptions
    )
    grid = {"gridcolor": "#e5e5e5", "zerolinecolor": "#cccccc"}
    # The assumptions start half the plot's height below it: in a narrow page the legend wraps to three or
    # four rows, which ran over their first lines when they started a third of the height below.
    figure.update_layout(
        title=title, xaxis={"title": "Round", "dtick": 1, **grid},
        yaxis={"title": "Stamina left", "rangemode": "tozero", **grid},
        legend={"orientation": "h", "y": -0.18}, margin={"t": 50, "b": 380},
        height=690, plot_bgcolor="white", paper_bgcolor="white",
        annotations=[{
            "text": "Assumptions:<br>" + notes, "xref": "paper", "yref": "paper", "x": 0, "y": -0.5,
            "showarrow": False, "align": "left", "xanchor": "left", "yanchor": "top", "font": {"size": 11},
        }],
    )
    return figure
