"""The squad tracker for the table: apply damage to a minion squad (one target, or an area with how many
minions are in it, with a weakness or immunity), see who drops, undo; attach a captain, let the captain
fall, start the next round (when a new captain may join), call the last stand. Each button calls one
`SquadTracker` method; a refusal shows why and changes nothing. Glue only: every rule (who may be a captain,
one per squad, a new one only from the next round, the With Captain bonus) lives in `workbench.fight.squad`.

The returned widget carries `controls` (a dict of its controls, for scripts and tests) and `tracker`.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from workbench.apps.message import button_action
from workbench.fight.squad import Squad, SquadTracker, make_squad
from workbench.model import Monster
from workbench.monster.formulas import build_monster
from workbench.render.squad import squad_html

__all__ = ["default_captains", "default_squad", "squad_app"]

SINGLE, AREA = "One target", "Area"


def default_squad() -> Squad:
    """Eight level 1 minion brutes, the numbers of the book's goblin spinecleavers (Stamina 5, free strike 2)."""
    minion = build_monster(1, "minion", "brute").model_copy(update={"name": "Goblin spinecleavers"})
    return make_squad(minion, 8, with_captain="+1 damage bonus to strikes")


def default_captains() -> tuple[Monster, ...]:
    """Two creatures who could captain the default squad: a level 1 leader and a level 1 elite brute (names
    invented for the table; any non-minion, non-mount creature with a name will do)."""
    return (
        build_monster(1, "leader").model_copy(update={"name": "Goblin boss"}),
        build_monster(1, "elite", "brute").model_copy(update={"name": "Bugbear"}),
    )


def squad_app(squad: Squad | None = None, captains: Sequence[Monster] | None = None) -> widgets.VBox:
    """A tracker for one squad (eight spinecleavers by default); `captains` are the creatures the Director
    can attach as its captain (a leader and an elite by default)."""
    tracker = SquadTracker(squad if squad is not None else default_squad())
    captains = tuple(captains) if captains is not None else default_captains()
    amount = widgets.BoundedIntText(value=5, min=0, max=999, description="Damage")
    mode = widgets.ToggleButtons(options=[SINGLE, AREA], value=SINGLE, description="Source")
    in_area = widgets.BoundedIntText(value=1, min=1, max=8, description="In the area",
                                     style={"description_width": "initial"})
    weakness = widgets.BoundedIntText(value=0, min=0, max=99, description="Weakness")
    immunity = widgets.BoundedIntText(value=0, min=0, max=99, description="Immunity")
    captain = widgets.Dropdown(
        options=[(c.name or f"Level {c.level} {c.organization}", c) for c in captains], description="Captain"
    )
    buttons = {
        name: widgets.Button(description=label)
        for name, label in (
            ("apply", "Apply damage"), ("undo", "Undo"), ("round", "Start next round"),
            ("attach", "Attach captain"), ("falls", "Captain falls"), ("last", "Last stand"),
        )
    }
    view = widgets.HTML(squad_html(tracker.squad))
    refusal = widgets.HTML()

    def show() -> None:
        view.value = squad_html(tracker.squad, tracker.last_hit)
        in_area.max = max(1, tracker.squad.alive)
        in_area.disabled = mode.value != AREA

    act = button_action(refusal, show)

    def apply() -> None:
        area = in_area.value if mode.value == AREA else None
        tracker.damage(amount.value, in_area=area, weakness=weakness.value, immunity=immunity.value)

    buttons["apply"].on_click(act(apply))
    buttons["undo"].on_click(act(tracker.undo))
    buttons["round"].on_click(act(tracker.start_round))
    buttons["attach"].on_click(act(lambda: tracker.attach_captain(captain.value)))
    buttons["attach"].disabled = not captains
    buttons["falls"].on_click(act(tracker.captain_falls))
    buttons["last"].on_click(act(tracker.last_stand))
    mode.observe(lambda _change: show(), names="value")
    show()
    wrap = widgets.Layout(flex_flow="row wrap")
    app = widgets.VBox([
        widgets.HBox([amount, mode], layout=wrap),
        widgets.HBox([in_area, weakness, immunity], layout=wrap),
        widgets.HBox([buttons[name] for name in ("apply", "undo", "round", "last")], layout=wrap),
        widgets.HBox([captain, buttons["attach"], buttons["falls"]], layout=wrap),
        refusal,
        view,
    ])
    app.controls = {
        "amount": amount, "mode": mode, "in_area": in_area, "weakness": weakness, "immunity": immunity,
        "captain": captain, "buttons": buttons, "view": view, "refusal": refusal,
    }
    app.tracker = tracker
    return app
