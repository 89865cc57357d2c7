"""Figures of the calibration: published monsters as points over the formula curves, predicted against
printed, residuals per number, and the rule variants' fit. Data in, figure out; nothing displays itself.

`published_traces` is the piece other charts reuse (the scaling explorer adds it over its curves): one
marker trace per organization, hover showing the monster's name and its printed number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import plotly.graph_objects as go

from workbench.calibration.fit import (
    DAMAGE_QUANTITIES,
    QUANTITIES,
    QUANTITY_LABELS,
    MonsterCalibration,
    VariantFit,
)
from workbench.charts.theme import WHITE
from workbench.errors import InvalidInput
from workbench.formats.bestiary import PublishedMonster
from workbench.markup import Markup, escape
from workbench.rules.ruleset import Ruleset, core_ruleset
from workbench.tables.calibration import comparison_table, variant_table
from workbench.tables.stats import stat_table

__all__ = [
    "LABELS",
    "ORGANIZATION_COLOURS",
    "published_traces",
    "add_published_points",
    "formula_curves_figure",
    "predicted_vs_printed_figure",
    "residual_figure",
    "variant_figure",
]

LABELS = {**QUANTITY_LABELS, "ev": "EV (a minion's: four minions)"}
ORGANIZATION_COLOURS = {
    "minion": "#8c8c8c",
    "horde": "#2a9d8f",
    "platoon": "#457b9d",
    "elite": "#e9c46a",
    "leader": "#f4a261",
    "solo": "#e76f51",
}


def _check_quantity(quantity: str) -> str:
    if quantity not in QUANTITIES:
        raise InvalidInput("quantity", quantity, "one of " + ", ".join(QUANTITIES))
    return quantity


def _kind(organization: str, role: str | None) -> str:
    return " ".join(part.capitalize() for part in (organization, role) if isinstance(part, str) and part)


def _printed(monster: PublishedMonster, quantity: str) -> int | None:
    """The number a stat block prints for `quantity` (None: its signature ability prints no damage)."""
    if quantity in DAMAGE_QUANTITIES:
        damage = monster.signature.damage if monster.signature else None
        return None if damage is None else damage[DAMAGE_QUANTITIES.index(quantity)]
    headline = {
        "ev": monster.ev,
        "stamina": monster.stamina,
        "free_strike": monster.free_strike,
        "highest_characteristic": monster.highest_characteristic,
    }
    return headline[quantity]


def published_traces(
    monsters: Iterable[PublishedMonster],
    quantity: str = "stamina",
    organizations: Sequence[str] | None = None,
    roles: Sequence[str | None] | None = None,
    pairs: Iterable[tuple[str, str | None]] | None = None,
) -> list[go.Scatter]:
    """Published monsters as marker traces (one per organization) at (level, printed `quantity`).

    Hover shows the name, "Level 5 Platoon Harrier" and the printed number. `organizations` / `roles`
    keep only matching monsters, `pairs` only those whose (organization, role) is listed (None keeps all).
    """
    _check_quantity(quantity)
    wanted = None if pairs is None else set(pairs)
    # Plain Python, not a frame: the scaling explorer calls this on every change of its controls.
    groups: dict[str, list[tuple[PublishedMonster, int]]] = {}
    for m in monsters:
        if wanted is not None and (m.organization, m.role) not in wanted:
            continue
        if (organizations is not None and m.organization not in organizations) or (
            roles is not None and m.role not in roles
        ):
            continue
        value = _printed(m, quantity)
        if value is not None:
            groups.setdefault(m.organization, []).append((m, value))
    traces = []
    for organization, group in groups.items():
        hover = [
            str(Markup("<b>{}</b><br>Level {} {}<br>{}: {}").format(
                m.name, m.level, _kind(m.organization, m.role), LABELS[quantity], value))
            for m, value in group
        ]
        traces.append(
            go.Scatter(
                x=[m.level for m, _ in group],
                y=[value for _, value in group],
                mode="markers",
                name=f"published {organization}",
                legendgroup=f"published {organization}",
                marker={"size": 10, "color": ORGANIZATION_COLOURS.get(organization, "#333"),
                        "line": {"width": 1, "color": "#222"}, "symbol": "diamond"},
                text=[str(escape(m.name)) for m, _ in group],
                hovertext=hover,
                hoverinfo="text",
            )
        )
    return traces


def add_published_points(
    figure: go.Figure,
    monsters: Iterable[PublishedMonster],
    quantity: str,
    pairs: Iterable[tuple[str, str | None]] | None = None,
) -> go.Figure:
    """Add the published monsters' points to any curves figure (level on x, `quantity` on y), in place.

    For a number the stat blocks don't print (a non-strike tier, a potency) nothing is added. Returns the
    figure. This is how the scaling explorer shows the book's monsters over its curves.
    """
    if quantity in QUANTITIES:
        figure.add_traces(published_traces(monsters, quantity, pairs=pairs))
    return figure


def formula_curves_figure(
    monsters: Iterable[PublishedMonster],
    quantity: str = "stamina",
    ruleset: Ruleset | None = None,
    levels: Sequence[int] | None = None,
    organization: str | None = None,
) -> go.Figure:
    """The formula's `quantity` by level for every organization × role the published monsters use (lines),
    with the published monsters as points over them (hover: name).

    Damage curves are the signature strike at the expected target count; the points are as printed, so an
    ability with another target count sits off its curve by design.
    """
    _check_quantity(quantity)
    rules = ruleset or core_ruleset()
    monsters = [m for m in monsters if organization is None or m.organization == organization]
    top = max([m.level for m in monsters] + [10])
    levels = list(levels) if levels is not None else list(range(1, top + 1))
    table = stat_table(levels=levels, ruleset=rules)
    pairs = sorted({(m.organization, m.role) for m in monsters}, key=lambda p: (list(rules.organizations).index(p[0]), p[1] or ""))
    figure = go.Figure(layout={"template": WHITE})
    shown: set[str] = set()
    for org, role in pairs:
        rows = table[(table["organization"] == org) & (table["role"].isna() if role is None else table["role"] == role)]
        figure.add_trace(
            go.Scatter(
                x=list(rows["level"]),
                y=[int(v) for v in rows[quantity]],
                mode="lines",
                name=f"formula {org}",
                legendgroup=f"formula {org}",
                showlegend=org not in shown,
                line={"color": ORGANIZATION_COLOURS.get(org, "#333"), "width": 1.5},
                opacity=0.6,
                hovertext=[f"formula: Level {lv} {_kind(org, role)}<br>{LABELS[quantity]}: {v}"
                           for lv, v in zip(rows["level"], rows[quantity], strict=False)],
                hoverinfo="text",
            )
        )
        shown.add(org)
    for trace in published_traces(monsters, quantity):
        figure.add_trace(trace)
    figure.update_layout(
        title=str(Markup("{}: the formulas ({}) and the published monsters").format(LABELS[quantity], rules.name)),
        xaxis_title="Level",
        yaxis_title=LABELS[quantity],
        legend={"groupclick": "togglegroup"},
    )
    return figure


def predicted_vs_printed_figure(results: Iterable[MonsterCalibration], quantity: str = "stamina") -> go.Figure:
    """Each published monster at (printed, predicted) with the line where they agree; hover: name."""
    _check_quantity(quantity)
    frame = comparison_table(results)
    frame = frame[frame["quantity"] == quantity]
    figure = go.Figure(layout={"template": WHITE})
    if len(frame):
        low = int(min(frame["predicted"].min(), frame["printed"].min()))
        high = int(max(frame["predicted"].max(), frame["printed"].max()))
        figure.add_trace(go.Scatter(x=[low, high], y=[low, high], mode="lines", name="predicted = printed",
                                    line={"color": "#999", "dash": "dash"}, hoverinfo="skip"))
    for organization, group in frame.groupby("organization", sort=False):
        figure.add_trace(
            go.Scatter(
                x=list(group["printed"]), y=list(group["predicted"]), mode="markers", name=str(organization),
                marker={"size": 9, "color": ORGANIZATION_COLOURS.get(str(organization), "#333")},
                text=[str(escape(n)) for n in group["name"]],
                hovertext=[str(Markup("<b>{}</b><br>printed {}, formula {} (residual {:+d})").format(n, a, b, b - a))
                           for n, a, b in zip(group["name"], group["printed"], group["predicted"], strict=False)],
                hoverinfo="text",
            )
        )
    figure.update_layout(title=f"{LABELS[quantity]}: formula against the book", xaxis_title="printed",
                         yaxis_title="formula")
    return figure


def residual_figure(results: Iterable[MonsterCalibration], quantities: Sequence[str] = QUANTITIES) -> go.Figure:
    """Residuals (formula − printed) per number, one box per organization; hover: name. Above 0: the
    formula gives more than the book."""
    frame = comparison_table(results)
    frame = frame[frame["quantity"].isin(list(quantities))]
    figure = go.Figure(layout={"template": WHITE})
    for organization, group in frame.groupby("organization", sort=False):
        figure.add_trace(
            go.Box(
                x=[LABELS[q] for q in group["quantity"]], y=list(group["residual"]), name=str(organization),
                boxpoints="all", jitter=0.4, pointpos=0,
                marker={"color": ORGANIZATION_COLOURS.get(str(organization), "#333"), "size": 6},
                text=[str(escape(n)) for n in group["name"]], hoverinfo="text+y",
            )
        )
    figure.add_hline(y=0, line={"color": "#999", "dash": "dash"})
    figure.update_layout(boxmode="group", title="Formula − printed, per number and organization",
                         yaxis_title="residual (formula − printed)")
    return figure


def variant_figure(fits: Sequence[VariantFit]) -> go.Figure:
    """Total absolute error of every rule variant (lower fits better), the as-written one marked."""
    frame = variant_table(fits)
    labels = [
        f"{'round ' + r}, {'minion +char' if m else 'minion no char'}, {'extra Stamina' if e else 'no extra'}"
        + (" (as written)" if w else "")
        for r, m, e, w in zip(frame["halved_damage_rounding"], frame["minion_strike_adds_characteristic"],
                              frame["extra_stamina"], frame["as_written"], strict=False)
    ]
    colours = ["#e76f51" if b else ("#457b9d" if w else "#a8dadc") for b, w in zip(frame["best"], frame["as_written"], strict=False)]
    figure = go.Figure(
        layout={"template": WHITE},
        data=go.Bar(x=list(frame["total_abs_error"]), y=labels, orientation="h", marker={"color": colours},
                    hovertext=[f"{e} exact of {c}" for e, c in zip(frame["exact_matches"], frame["compared"], strict=False)],
                    hoverinfo="text+x")
    )
    figure.update_layout(title="Rule variants: total |formula − printed| over every compared number",
                         xaxis_title="total absolute error (lower fits better)",
                         yaxis={"autorange": "reversed"}, margin={"l": 360})
    return figure
