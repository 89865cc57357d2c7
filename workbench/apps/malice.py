"""The Malice planner and tracker: two tabs for the Director.

Planner: sliders for heroes, Victories and rounds, deaths as "ROUND:COUNT", and how often to use each
feature; one observer wires them to `planner_view` (a pure function) and shows the chart, the schedule and
the plan with the cost advice. Tracker: buttons that call one `MaliceTracker` method each (gain at the
start of a round, a hero dies, spend, undo, end the encounter, start a new one) and a checkbox for whether
the players see the Malice. Until its first round starts, the tracker follows the planner's heroes and
Victories (one party on the page, not two). Refusals show beside the buttons, in words (`apps.message`):
the rule's reason first; nothing changes. Solo Action is offered only when a solo is among the monsters.
Glue only: every rule lives in the `workbench.fight.malice_*` modules.

The returned widget carries `controls` (a dict of its controls, for scripts and tests) and `tracker`.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.chart_slot import ChartSlot
from workbench.apps.message import button_action, refusal_html
from workbench.charts.malice import malice_figure
from workbench.errors import InvalidInput
from workbench.fight.deaths import parse_deaths
from workbench.fight.malice_features import encounter_features
from workbench.fight.malice_plan import affordable_rounds, spending_plan
from workbench.fight.malice_schedule import malice_schedule
from workbench.fight.malice_tracker import MaliceTracker
from workbench.model import Monster, Trait
from workbench.monster.formulas import build_monster
from workbench.monster.solo import solo_action
from workbench.render.escape import Markup
from workbench.render.malice import plan_html, player_view_html, schedule_html, tracker_html

__all__ = ["malice_app", "planner_view", "default_monsters"]


def _queue(features: Sequence[Trait], uses: dict[str, int]) -> list[Trait]:
    """The features to buy, taking turns: first use of each in list order, then second uses, and so on."""
    most = max(uses.values(), default=0)
    return [f for turn in range(most) for f in features if uses.get(f.name, 0) > turn]


def planner_view(
    heroes: int,
    victories: int,
    rounds: int,
    deaths: str,
    uses: dict[str, int],
    features: Sequence[Trait],
) -> tuple[go.Figure, str]:
    """The chart and the HTML (schedule, plan, advice) for one setting of the planner's controls."""
    schedule = malice_schedule(heroes, victories, rounds, parse_deaths(deaths))
    chosen = [f for f in features if uses.get(f.name, 0) > 0]
    plan = spending_plan(schedule, _queue(features, uses))
    figure = malice_figure(schedule, plan, chosen)
    body = Markup("{}<h4>Spending plan</h4>{}").format(schedule_html(schedule),
                                                       plan_html(plan, affordable_rounds(schedule, chosen)))
    return figure, body


def default_monsters() -> tuple[Monster, ...]:
    """One platoon monster per echelon (levels 1, 4, 7, 10), named by level and highest characteristic,
    for Malicious Strike's extra damage when no monsters are given."""
    out = []
    for level in (1, 4, 7, 10):
        m = build_monster(level, "platoon", "brute")
        out.append(m.model_copy(update={"name": f"Level {level} monster (+{m.highest_characteristic})"}))
    return tuple(out)


def _solo_features(monsters: Sequence[Monster]) -> tuple[Trait, ...]:
    """Solo Action, when a solo is in the fight (an instant solo carries it among its own features)."""
    return (solo_action(),) if any(m.organization == "solo" for m in monsters) else ()


def malice_app(
    heroes: int = 5,
    victories: int = 3,
    rounds: int = 5,
    features: Sequence[Trait] | None = None,
    monsters: Sequence[Monster] | None = None,
) -> widgets.Tab:
    """Planner and tracker tabs. `monsters` (who makes a Malicious Strike) default to one per echelon;
    `features` default to the basic ones, the monsters' own Malice features and, with a solo, Solo Action."""
    monsters = tuple(monsters) if monsters is not None else default_monsters()
    if features is None:
        features = encounter_features(monsters, _solo_features(monsters))
    features = tuple(features)

    # ---- planner
    heroes_c = widgets.IntSlider(value=heroes, min=1, max=10, description="Heroes")
    victories_c = widgets.IntSlider(value=victories, min=0, max=20, description="Victories")
    rounds_c = widgets.IntSlider(value=rounds, min=1, max=12, description="Rounds")
    deaths_c = widgets.Text(value="", description="Deaths", placeholder="ROUND:COUNT, e.g. 3:1")
    # a box wide enough for its number, its label beside it (a long label squeezed the box to ~40 px)
    uses_c = {
        f.name: widgets.BoundedIntText(value=1, min=0, max=6, layout={"width": "4.5em"})
        for f in features
    }
    uses_rows = [widgets.HBox([widgets.Label(f"{f.name} ({f.cost})"), uses_c[f.name]],
                              layout={"margin": "0 1.5em 0 0"}) for f in features]
    message = widgets.HTML()

    def current() -> tuple[go.Figure, str]:
        uses = {name: c.value for name, c in uses_c.items()}
        return planner_view(heroes_c.value, victories_c.value, rounds_c.value, deaths_c.value, uses, features)

    figure, body = current()
    plot = ChartSlot(figure)  # a fresh FigureWidget per change (see apps.chart_slot)
    report = widgets.HTML(body)

    def refresh(_change: object = None) -> None:
        try:
            new_figure, new_body = current()
        except InvalidInput as exc:
            message.value = refusal_html(exc)
            return
        message.value = ""
        plot.show(new_figure)
        report.value = new_body

    for control in (heroes_c, victories_c, rounds_c, deaths_c, *uses_c.values()):
        control.observe(refresh, names="value")
    wrap = widgets.Layout(flex_flow="row wrap")
    planner = widgets.VBox([
        widgets.HBox([heroes_c, victories_c, rounds_c], layout=wrap),
        widgets.HBox([deaths_c, message]),
        widgets.HTML("<b>How often to use each feature</b>"),
        widgets.HBox(uses_rows, layout=wrap),
        plot,
        report,
    ])

    # ---- tracker
    tracker = MaliceTracker(heroes, victories)
    shown = widgets.Checkbox(value=True, description="Show Malice to the players")
    feature_c = widgets.Dropdown(options=[(f"{f.name} ({f.cost})", f) for f in features], description="Feature")
    amount_c = widgets.BoundedIntText(value=features[0].cost or 0, min=0, max=99, description="Malice")
    monster_c = widgets.Dropdown(options=[(m.name or f"Level {m.level}", m) for m in monsters],
                                 description="Monster")
    buttons = {
        name: widgets.Button(description=label)
        for name, label in (
            ("round", "Start next round"), ("dies", "A hero dies"), ("spend", "Spend"),
            ("undo", "Undo"), ("end", "End encounter"), ("new", "New encounter"),
        )
    }
    director = widgets.HTML(tracker_html(tracker.state))
    players = widgets.HTML(player_view_html(tracker.state, shown.value))
    refusal = widgets.HTML()

    def show(_change: object = None) -> None:
        director.value = tracker_html(tracker.state)
        players.value = player_view_html(tracker.state, shown.value)

    act = button_action(refusal, show)  # one button -> one tracker method

    def new_encounter() -> None:
        nonlocal tracker
        tracker = MaliceTracker(heroes_c.value, victories_c.value)
        app.tracker = tracker

    def follow_planner(_change: object = None) -> None:
        """Before its first round the tracker is set up from the planner's heroes and Victories."""
        if tracker.round == 0 and not tracker.can_undo:
            new_encounter()
            show()

    buttons["round"].on_click(act(lambda: tracker.start_round()))
    buttons["dies"].on_click(act(lambda: tracker.hero_dies()))
    buttons["spend"].on_click(act(lambda: tracker.spend(feature_c.value, amount_c.value, monster_c.value)))
    buttons["undo"].on_click(act(lambda: tracker.undo()))
    buttons["end"].on_click(act(lambda: tracker.end_encounter()))
    buttons["new"].on_click(act(new_encounter))
    feature_c.observe(lambda change: setattr(amount_c, "value", change["new"].cost or 0), names="value")
    shown.observe(show, names="value")
    heroes_c.observe(follow_planner, names="value")
    victories_c.observe(follow_planner, names="value")
    tracker_box = widgets.VBox([
        widgets.HBox([buttons["round"], buttons["dies"], buttons["undo"], buttons["end"], buttons["new"]],
                     layout=wrap),
        widgets.HBox([feature_c, amount_c, monster_c, buttons["spend"]], layout=wrap),
        refusal,
        director,
        shown,
        widgets.HTML("<b>The players see:</b>"),
        players,
    ])

    app = widgets.Tab(children=[planner, tracker_box])
    app.set_title(0, "Planner")
    app.set_title(1, "Tracker")
    app.controls = {
        "heroes": heroes_c, "victories": victories_c, "rounds": rounds_c, "deaths": deaths_c,
        "uses": uses_c, "plot": plot, "report": report, "message": message,
        "shown": shown, "feature": feature_c, "amount": amount_c, "monster": monster_c,
        "buttons": buttons, "director": director, "players": players, "refusal": refusal,
    }
    app.tracker = tracker
    return app
