"""The calibration explorer: pick a number, an organization and the rule variants, and see the formula curves
with the published monsters over them and the fit underneath. Glue only: one observer wires the controls to
`calibration_view`, a pure function of its inputs; each change shows the new figure in a `ChartSlot` (a fresh
FigureWidget: one changed in place can stay stuck in the browser, see `apps.chart_slot`).

`closest_published_widget` is the piece for the monster builder: an HTML widget listing the three published
monsters closest to the monster being built (update it with `closest_published_html`).
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.chart_slot import ChartSlot
from workbench.calibration.fit import QUANTITIES, Variant, calibrate, fit_report
from workbench.charts.calibration import LABELS, formula_curves_figure
from workbench.formats.bestiary import Bestiary, PublishedMonster, sample_bestiary
from workbench.model import Monster
from workbench.render.calibration import (
    attribution_lines_html,
    closest_published_html,
    director_summary_html,
    fit_report_html,
)
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = ["calibration_app", "calibration_view", "closest_published_widget"]

ALL = "all"


def calibration_view(
    monsters: Sequence[PublishedMonster],
    quantity: str,
    organization: str,
    variant: Variant,
    base: Ruleset,
) -> tuple[go.Figure, str]:
    """The figure and the fit report (HTML) for one choice of the controls."""
    chosen = [m for m in monsters if organization == ALL or m.organization == organization]
    rules = variant.ruleset(base)
    figure = formula_curves_figure(chosen, quantity, ruleset=rules)
    results = calibrate(chosen, rules, variant.extra_stamina)
    title = f"Fit of {len(chosen)} published monster(s), {variant.label}"
    report = fit_report(results)
    # a legend below the curves, in rows: beside them it scrolled (and was cut) at 1024-1280 px
    figure.update_layout(legend={"orientation": "h", "y": -0.22, "x": 0, "yanchor": "top"},
                         height=560, margin={"b": 40})
    return figure, director_summary_html(report, len(chosen), variant.label) + fit_report_html(report, title=title)


def calibration_app(
    monsters: Sequence[PublishedMonster] | None = None, ruleset: Ruleset | None = None, *,
    bestiary: Bestiary | None = None,
) -> widgets.VBox:
    """The calibration explorer as a widget (the sample bestiary and the core ruleset by default). Given a
    `bestiary` (the workspace's: the sample and the bestiaries added), its monsters are compared and the
    attribution of each of its bestiaries is shown beside the fit."""
    if monsters is None:
        monsters = bestiary.monsters if bestiary is not None else sample_bestiary().monsters
    monsters = tuple(monsters)
    sources = widgets.HTML(attribution_lines_html(bestiary.attribution_lines() if bestiary is not None else ()))
    sources.add_class("wb-calibration-sources")
    base = ruleset or core_ruleset()
    organizations = [o for o in base.organizations if any(m.organization == o for m in monsters)]
    wide, auto = {"description_width": "initial"}, widgets.Layout(width="auto")
    quantity = widgets.Dropdown(options=[(LABELS[q], q) for q in QUANTITIES], value="stamina",
                                description="Number", style=wide)
    organization = widgets.Dropdown(options=[("All", ALL), *((o.capitalize(), o) for o in organizations)],
                                    value=ALL, description="Organization", style=wide)
    round_down = widgets.Checkbox(value=base.options.halved_damage_rounding == "down", indent=False, layout=auto,
                                  description="Round halved horde/minion damage down")
    minion_characteristic = widgets.Checkbox(value=base.options.minion_strike_adds_characteristic, indent=False,
                                             description="Minion strikes add the characteristic", layout=auto)
    extra = widgets.Checkbox(value=False, description="Extra Stamina for every non-minion", indent=False,
                             layout=auto)
    controls = (quantity, organization, round_down, minion_characteristic, extra)

    def current() -> tuple[go.Figure, str]:
        variant = Variant(
            halved_damage_rounding="down" if round_down.value else "up",
            minion_strike_adds_characteristic=minion_characteristic.value,
            extra_stamina=extra.value,
        )
        return calibration_view(monsters, quantity.value, organization.value, variant, base)

    figure, html = current()
    plot = ChartSlot(figure)
    report = widgets.HTML(html)

    def refresh(_change: object = None) -> None:
        new_figure, new_html = current()
        plot.show(new_figure)
        report.value = new_html

    for control in controls:
        control.observe(refresh, names="value")
    wrap = widgets.Layout(flex_flow="row wrap", grid_gap="0 1.5em")
    return widgets.VBox([
        widgets.HBox([quantity, organization], layout=wrap),
        widgets.HBox([round_down, minion_characteristic, extra], layout=wrap),
        report,  # the summary for a Director first, then the fit by number; the curves under them
        plot,
        sources,  # where the compared monsters come from
    ])


def closest_published_widget(
    monster: Monster, monsters: Sequence[PublishedMonster] | None = None, count: int = 3, *,
    bestiary: Bestiary | None = None,
) -> widgets.HTML:
    """An HTML widget with the `count` published monsters closest to `monster` (for the builder); from
    `bestiary` (with its bestiaries' attribution) when given, else `monsters`, else the sample."""
    if monsters is None:
        monsters = bestiary.monsters if bestiary is not None else sample_bestiary().monsters
    shelves = bestiary.shelves if bestiary is not None else ()
    return widgets.HTML(closest_published_html(monster, tuple(monsters), count, shelves))
