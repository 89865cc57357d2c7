"""Homebrew rule apps: the weakness escalation calculator and the swarm simulator (with a progress bar).

Glue only: the weakness app wires its controls, through one observer, to `weakness.weakness_wound` and the
renderers; the swarm app runs `swarm.simulate_swarms` (when a slider is released) and `tables.swarm.tuning_table`
(on a button), reporting progress on a bar. Choices and defaults come from the module's data file (the
Legendary readings, N and M), never typed twice. Each app carries `controls` for scripts and tests.
"""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as widgets

from workbench.apps.chart_slot import figure_widget
from workbench.apps.message import refusal_html
from workbench.apps.rows import number_or_text
from workbench.charts.swarm import distribution_figure, tuning_figure
from workbench.errors import InvalidInput
from workbench.homebrew.rule import HomebrewRule, shipped_rules
from workbench.homebrew.swarm import SwarmScenario, simulate_swarms
from workbench.homebrew.weakness import (
    OUTCOME_LABELS,
    OUTCOMES,
    grips,
    ladders,
    own_value_parameters,
    weakness_cases,
    weakness_wound,
)
from workbench.render.escape import Markup
from workbench.render.homebrew_rule import STYLE as RULE_STYLE
from workbench.render.homebrew_rule import weakness_table_html, wound_html
from workbench.render.message import error_html
from workbench.render.swarm import simulation_html
from workbench.tables.swarm import distribution_table, tuning_table

__all__ = ["swarm_app", "weakness_app"]

_WIDE = {"description_width": "initial"}
_LABEL = {"description_width": "26em"}  # the own-value boxes: long labels, a box wide enough for a number
_AUTO = {"width": "auto"}  # a checkbox as wide as its label (the default cut long labels off)


def _refusal(exc: Exception) -> str:
    return error_html(str(exc))


def weakness_app(rule: HomebrewRule | None = None, tag: str = "silver") -> widgets.VBox:
    """Pick a grip, an outcome, whether the source has the tag and whether another source already
    escalated the hit; see the wound, its working and every case (Exploitable Weakness by default)."""
    rule = rule if rule is not None else shipped_rules()["exploitable-weakness"]
    preview = rule.fill(partial=True)
    grip_names = grips(preview)
    by_grip = ladders(preview)
    c: dict[str, Any] = {
        "tag": widgets.Text(value=tag, description="Tag"),
        "grip": widgets.Dropdown(options=[(by_grip[g].label, g) for g in grip_names], value=grip_names[0],
                                 description="Grip"),
        "outcome": widgets.Dropdown(options=[(OUTCOME_LABELS[o], o) for o in OUTCOMES], value="hit",
                                    description="Outcome"),
        "matches_tag": widgets.Checkbox(value=True, description="Source has the matching tag", indent=False,
                                        layout=_AUTO),
        "other_source": widgets.Checkbox(value=False, description="Another escalation source already applied",
                                         indent=False, layout=_AUTO),
    }
    names = {p.name for p in rule.parameters}
    own = own_value_parameters(rule)
    for name in own:
        c[name] = widgets.Text(value="", placeholder="a number", description=rule.parameter(name).label,
                               style=_LABEL, layout={"width": "34em"})
    if "legendary_reading" in names:
        p = rule.parameter("legendary_reading")
        c["legendary_reading"] = widgets.Dropdown(options=list(p.choices), value=p.default,
                                                  description=p.label, style=_LABEL, layout={"width": "44em"})
    if "tag" not in names:  # a module without a tag parameter (the swarm: area and zone attacks)
        c["tag"].layout.display = "none"
    name = widgets.HTML()
    wound = widgets.HTML()
    table = widgets.HTML()

    def update(_change: Any = None) -> None:
        values: dict[str, Any] = {n: number_or_text(c[n].value) for n in own}
        if "tag" in names:
            values["tag"] = c["tag"].value
        if "legendary_reading" in c:
            values["legendary_reading"] = c["legendary_reading"].value
        try:
            filled = rule.fill({k: v for k, v in values.items() if v is not None})
            result = weakness_wound(filled, c["grip"].value, c["outcome"].value, c["matches_tag"].value,
                                    c["other_source"].value)
        except InvalidInput as exc:
            wound.value = refusal_html(exc, {p.name: p.label for p in rule.parameters})
            table.value = ""  # its numbers were for the values before this refusal
            return
        name.value = Markup("<h4>{}</h4>").format(filled.name)
        wound.value = wound_html(result)
        table.value = weakness_table_html(weakness_cases(filled), style=False)

    for control in c.values():
        control.observe(update, names="value")
    update()
    app = widgets.VBox([
        widgets.HTML(RULE_STYLE),  # once: not again with the table at each change (and the wound is styled alone)
        name,
        widgets.HBox([c["tag"], c["grip"], c["outcome"]], layout={"flex_flow": "row wrap"}),
        widgets.HBox([c["matches_tag"], c["other_source"]], layout={"flex_flow": "row wrap", "grid_gap": "0 2em"}),
        wound,
        widgets.HTML("<b>Your system's unescalated wounds</b> (the source gives only the baselines)"),
        widgets.VBox([c[n] for n in own] + ([c["legendary_reading"]] if "legendary_reading" in c else [])),
        table,
    ])
    app.controls = {**c, "name": name, "wound": wound, "table": table}
    return app


def swarm_app(rule: HomebrewRule | None = None, runs: int = 500, seed: int = 1) -> widgets.VBox:
    """Sliders for N, M, the disruption chance and the fight; releasing a slider runs `runs` seeded fights
    and shows rounds until the swarms are gone for good. "Tuning chart" runs the N × M × disruption grid."""
    rule = rule if rule is not None else shipped_rules()["generic-swarm"]
    n_param, m_param = rule.parameter("disperse_value"), rule.parameter("reform_threshold")
    base = SwarmScenario.from_rule(rule.fill())

    def int_slider(description: str, value: int, low: int, high: int) -> widgets.IntSlider:
        return widgets.IntSlider(value=value, min=low, max=max(high, value), description=description,
                                 continuous_update=False, style=_WIDE)

    def chance_slider(description: str, value: Any) -> widgets.FloatSlider:
        return widgets.FloatSlider(value=float(value), min=0, max=1, step=0.05, description=description,
                                   continuous_update=False, readout_format=".0%", style=_WIDE)

    c: dict[str, Any] = {
        "disperse_value": int_slider(n_param.label, base.disperse_value, n_param.minimum or 1, 10),
        "reform_threshold": int_slider(m_param.label, base.reform_threshold, m_param.minimum or 1, 12),
        "disruption_chance": chance_slider("Disruption chance", base.disruption_chance),
        "area_hit_chance": chance_slider("Area attack hits", base.area_hit_chance),
        "swarms": int_slider("Swarms", base.swarms, 1, 6),
        "kills_per_round": int_slider("Individuals killed a round", base.kills_per_round, 0, 6),
        "area_hits_to_break": int_slider("Area hits to break a swarm", base.area_hits_to_break, 1, 5),
        "runs": widgets.IntSlider(value=runs, min=100, max=max(5000, runs), step=100, description="Fights",
                                  continuous_update=False),
        "seed": widgets.IntText(value=seed, description="Seed"),
    }
    tune = widgets.Button(description="Tuning chart", tooltip="rounds to gone over N × M × disruption")
    progress = widgets.IntProgress(value=0, min=0, max=1, description="Progress")
    result_view = widgets.HTML()
    figure_box = widgets.VBox()
    tuning_box = widgets.VBox()

    def scenario() -> SwarmScenario:
        values = {k: c[k].value for k in ("disperse_value", "reform_threshold", "swarms", "kills_per_round",
                                          "area_hits_to_break")}
        # the sliders move in steps of 0.05: round away the binary float noise before keeping it exactly
        values.update({k: round(c[k].value, 2) for k in ("disruption_chance", "area_hit_chance")})
        return SwarmScenario(**values)

    def report(done: int, total: int) -> None:
        progress.max = total
        progress.value = done

    def run(_change: Any = None) -> None:
        try:
            s = scenario()
            result = simulate_swarms(s, random.Random(c["seed"].value), runs=c["runs"].value, progress=report)
        except InvalidInput as exc:
            result_view.value = refusal_html(exc)
            return
        result_view.value = simulation_html(result)
        figure_box.children = (figure_widget(distribution_figure(distribution_table(result))),)

    def tuning(_button: Any = None) -> None:
        try:
            s = scenario()
            frame = tuning_table(base=s, runs=max(100, c["runs"].value // 5), seed=c["seed"].value,
                                 progress=report)
        except InvalidInput as exc:
            result_view.value = refusal_html(exc)
            return
        tuning_box.children = (figure_widget(tuning_figure(frame)),)

    for _name, control in c.items():
        control.observe(run, names="value")
    tune.on_click(tuning)
    run()
    app = widgets.VBox([
        widgets.HBox([c["disperse_value"], c["reform_threshold"], c["disruption_chance"]]),
        widgets.HBox([c["area_hit_chance"], c["swarms"], c["kills_per_round"]]),
        widgets.HBox([c["area_hits_to_break"], c["runs"], c["seed"]]),
        widgets.HBox([tune, progress]),
        result_view,
        figure_box,
        tuning_box,
    ])
    app.controls = {**c, "tune": tune, "progress": progress, "result": result_view, "figure": figure_box,
                    "tuning": tuning_box}
    return app
