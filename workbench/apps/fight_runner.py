"""The fight runner: a `Fight` at the table, by mouse and keyboard.

The turn order as a strip; the acting group's creatures with their Stamina bars and stat blocks beside it;
damage and healing typed per creature (area damage on a squad with how many minions are in the area); dead,
fled and conditions; a squad's captain; reinforcements as a new group; Malice spent on the fight's features; villain actions offered when
the rules allow them and refused with the rules' words when not; the objective's counters; undo; the end
with its Victories; and what the players may see. Every click calls one `Fight` method and the fight is saved
after it (`Fight.save`), so the page resumes where it stopped. Glue only: the rules live in
`workbench.fight.fight`.

The returned widget carries `controls` (a dict of its controls, for scripts and tests) and `fight`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.fight_saving import FightSaving
from workbench.apps.message import button_action, refusal_html
from workbench.errors import InvalidInput
from workbench.fight.fight import Fight
from workbench.fight.pace import Pace, fight_pace
from workbench.fight.setup import COUNTERS
from workbench.fight.state import CONDITION_ENDS
from workbench.render.escape import escape_html
from workbench.render.fight import (
    acting_html,
    fight_log_html,
    malice_line_html,
    objectives_html,
    pace_beside_html,
    player_view_html,
    result_html,
    turn_strip_html,
    unit_html,
)

__all__ = ["COMMON_CONDITIONS", "fight_runner"]

# the conditions of Draw Steel, offered in the condition box (any other label can be typed)
COMMON_CONDITIONS = ("bleeding", "dazed", "frightened", "grabbed", "prone", "restrained", "slowed", "taunted",
                     "weakened")


def _villain_options(fight: Fight) -> list[tuple[str, tuple[str, int]]]:
    """Each leader's or solo's villain actions by number, with the name its stat block gives each."""
    out = []
    for name in (u.name for u in fight.units if u.villain):
        own = fight.villain_action_names(name)
        for n in (1, 2, 3):
            called = own[n - 1] if n <= len(own) else ""
            out.append((f"{name}: villain action {n}" + (f" ({called})" if called else ""), (name, n)))
    return out


def _counter_options(fight: Fight) -> list[tuple[str, tuple[str, str]]]:
    return [(f"{p.name}: {label}", (p.key, key)) for p in fight.state.objectives
            for key, label in COUNTERS.get(p.key, ())]


LABELS = {
    "round": "Next round", "end_round": "End round", "turn": "Start turn", "end_turn": "End turn",
    "undo": "Undo", "damage": "Damage", "area": "Area damage", "heal": "Heal", "dies": "Dies",
    "flees": "Flees", "condition": "Add condition", "end_condition": "End condition",
    "captain": "Attach captain", "spend": "Spend Malice", "villain": "Use villain action", "plus": "+1",
    "minus": "−1", "met": "Objective met", "failed": "Objective failed", "end": "End the fight",
    "reinforce": "Reinforce",
}


class _Runner:
    """The runner's controls and views; each button calls one `Fight` method, then saves and redraws."""

    def __init__(self, fight: Fight, path: Path | None, saving: FightSaving | None = None) -> None:
        self.fight, self.path = fight, path
        self.saving = saving
        names = [u.name for u in fight.units]
        foes = [u.name for u in fight.units if u.kind != "hero"]
        wide = {"description_width": "initial"}
        self.squads = [u.name for u in fight.units if u.kind == "squad"]
        self.captains = [u.name for u in fight.units if u.kind == "creature"]
        self.c: dict[str, Any] = {
            "actor": widgets.Dropdown(options=[(a.label, a.key) for a in fight.actors], description="Who acts"),
            "target": widgets.Dropdown(options=names, value=foes[0] if foes else names[0], description="Creature"),
            "amount": widgets.BoundedIntText(value=5, min=0, max=999, description="Amount",
                                             layout={"width": "14em"}),
            "in_area": widgets.BoundedIntText(value=1, min=1, max=8, description="Minions in the area",
                                              style=wide, layout={"width": "17em"}),
            "condition": widgets.Combobox(options=COMMON_CONDITIONS, placeholder="dazed, slowed, ...",
                                          description="Condition"),
            "ends": widgets.Dropdown(options=CONDITION_ENDS, description="Ends"),
            "squad": widgets.Dropdown(options=self.squads, description="Squad"),
            "captain": widgets.Dropdown(options=self.captains, description="Captain"),
            "feature": widgets.Dropdown(options=[(f"{f.name} ({f.cost})", f.name) for f in fight.features],
                                        description="Feature"),
            "malice": widgets.BoundedIntText(value=fight.features[0].cost or 0, min=0, max=999,
                                             description="Malice", layout={"width": "14em"}),
            "spender": widgets.Dropdown(options=foes, description="By"),
            "villain": widgets.Dropdown(options=_villain_options(fight), description="Villain"),
            "counter": widgets.Dropdown(options=_counter_options(fight), description="Counter", style=wide),
            "shown": widgets.Checkbox(value=True, description="Show Malice to the players"),
            "stat_block": widgets.Dropdown(options=fight.stat_block_names, description="Stat block"),
            "count": widgets.BoundedIntText(value=1, min=1, max=100, description="How many",
                                            layout={"width": "14em"}),
            "hero_stamina": widgets.BoundedIntText(value=0, min=0, max=999, description="Each hero's Stamina",
                                                   style=wide, layout={"width": "19em"}),
            "party_damage": widgets.BoundedIntText(value=0, min=0, max=9999, description="Party damage a round",
                                                   style=wide, layout={"width": "19em"}),
            "buttons": {key: widgets.Button(description=text, layout={"width": "auto"})
                        for key, text in LABELS.items()},
        }
        self.pace: Pace | None = None
        for key in ("strip", "acting", "roster", "malice_line", "villain_note", "objectives", "result", "log",
                    "players", "refusal", "saved", "pace"):
            self.c[key] = widgets.HTML().add_class(f"wb-fight-{key.replace('_', '-')}")
        handlers = self._handlers()
        for key, handler in handlers.items():
            self.c["buttons"][key].on_click(self._act(handler))
        self.c["feature"].observe(self._cost, names="value")
        for key in ("villain", "shown", "target"):
            self.c[key].observe(self.show, names="value")
        for key in ("hero_stamina", "party_damage"):
            self.c[key].observe(self._forecast, names="value")
        self.show()

    def _handlers(self) -> dict[str, Callable[[], Any]]:
        f, c = self.fight, self.c
        return {
            "round": f.start_round, "end_round": f.end_round,
            "turn": lambda: f.start_turn(c["actor"].value), "end_turn": f.end_turn, "undo": f.undo,
            "damage": lambda: f.damage(c["target"].value, c["amount"].value),
            "area": lambda: f.damage(c["target"].value, c["amount"].value, in_area=c["in_area"].value),
            "heal": lambda: f.heal(c["target"].value, c["amount"].value),
            "dies": lambda: f.dies(c["target"].value), "flees": lambda: f.flees(c["target"].value),
            "condition": lambda: f.add_condition(c["target"].value, c["condition"].value, c["ends"].value),
            "end_condition": lambda: f.end_condition(c["target"].value, c["condition"].value),
            "captain": lambda: f.attach_captain(c["squad"].value, c["captain"].value),
            "spend": lambda: f.spend(c["feature"].value, c["malice"].value, c["spender"].value or None),
            "villain": self._villain, "plus": lambda: self._count(1), "minus": lambda: self._count(-1),
            "met": lambda: self._settle(True), "failed": lambda: self._settle(False), "end": f.end,
            "reinforce": lambda: f.reinforce(c["stat_block"].value, c["count"].value),
        }

    def _villain(self) -> None:
        if self.c["villain"].value is None:
            raise InvalidInput("villain_action", None, "a leader's or solo's villain action",
                               "no creature in this fight has villain actions")
        self.fight.villain_action(*self.c["villain"].value)

    def _count(self, change: int) -> None:
        chosen = self.c["counter"].value
        if chosen is None:
            raise InvalidInput("objective", None, "an objective with a counter", "this fight has none to count")
        self.fight.count(chosen[0], chosen[1], change)

    def _settle(self, met: bool) -> None:
        open_ones = [p.key for p in self.fight.state.objectives if p.status == "open"]
        if not open_ones:
            raise InvalidInput("objective", None, "an objective still open", "no objective is open")
        chosen = self.c["counter"].value
        self.fight.settle(chosen[0] if chosen and chosen[0] in open_ones else open_ones[0], met)

    def _forecast(self, _change: object = None) -> None:
        """The pace of the fight for the heroes' Stamina and damage the Director gives (none until both are)."""
        stamina, damage = self.c["hero_stamina"].value, self.c["party_damage"].value
        heroes = sum(1 for u in self.fight.units if u.kind == "hero")
        self.pace = None
        if stamina and damage:
            self.pace = fight_pace(self.fight.stat_blocks, [stamina] * heroes, damage,
                                   victories=int(self.fight.victories))
        self.show()

    def _cost(self, _change: object = None) -> None:
        chosen = next((f for f in self.fight.features if f.name == self.c["feature"].value), None)
        if chosen is not None:
            self.c["malice"].value = chosen.cost or 0

    def _act(self, action: Callable[[], Any]) -> Callable[[object], None]:
        """A button's click handler (`apps.message.button_action`): the action, then the fight saved."""

        def and_keep() -> None:
            action()
            self.keep()

        return button_action(self.c["refusal"], self.show)(and_keep)

    def keep(self) -> None:
        if self.saving is not None:
            self.saving.save(self.fight)

    def villain_offer(self) -> str:
        options = self.c["villain"].options
        if self.fight.ended:
            return ""
        offered = [label for label, (name, n) in options if self.fight.villain_action_allowed(name, n) is None]
        if offered:
            return "<div>Villain actions allowed now: " + ", ".join(escape_html(o) for o in offered) + "</div>"
        if self.c["villain"].value is None:
            return ""
        why = self.fight.villain_action_allowed(*self.c["villain"].value)
        return f"<div>No villain action now. {refusal_html(why)}</div>" if why else ""

    def show(self, _change: object = None) -> None:
        f, c = self.fight, self.c
        c["strip"].value = turn_strip_html(f)
        c["acting"].value = acting_html(f)
        c["roster"].value = "".join(unit_html(u) for u in f.units)
        c["malice_line"].value = malice_line_html(f)
        c["villain_note"].value = self.villain_offer()
        c["objectives"].value = objectives_html(f)
        c["result"].value = result_html(f.result(), f.ended)
        c["log"].value = fight_log_html(f)
        c["players"].value = player_view_html(f, c["shown"].value)
        c["pace"].value = (pace_beside_html(self.pace, f) if self.pace is not None else
                           "<i>Give each hero's Stamina and the party's damage a round to see the forecast.</i>")
        self._follow_units()
        if f.state.turn is not None:
            c["actor"].value = f.state.turn
        unit = f.state.unit(c["target"].value)
        c["in_area"].max = unit.squad.alive if unit.squad is not None and unit.squad.alive else 1
        c["buttons"]["undo"].disabled = not f.can_undo

    def _follow_units(self) -> None:
        """The pickers of creatures and groups follow the fight (reinforcements join, undo takes them away)."""
        f, c = self.fight, self.c
        actors = tuple((a.label, a.key) for a in f.actors)
        if tuple(c["actor"].options) != actors:
            c["actor"].options = actors
        names = tuple(u.name for u in f.units)
        if tuple(c["target"].options) != names:
            kept = c["target"].value if c["target"].value in names else names[-1]
            c["target"].options = names
            c["target"].value = kept
            squads = tuple(u.name for u in f.units if u.kind == "squad")
            c["squad"].options = squads
            c["captain"].options = tuple(u.name for u in f.units if u.kind == "creature")
            c["spender"].options = tuple(u.name for u in f.units if u.kind != "hero")

    def layout(self) -> widgets.VBox:
        c, b = self.c, self.c["buttons"]
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")

        def row(*children: widgets.Widget) -> widgets.HBox:
            return widgets.HBox(list(children), layout=wrap)

        nothing = widgets.HTML()
        objectives = bool(self.fight.state.objectives)
        turn_box = widgets.VBox([
            row(b["round"], c["actor"], b["turn"], b["end_turn"], b["end_round"], b["undo"], b["end"]),
            c["refusal"], self.saving.box if self.saving is not None else c["saved"], c["strip"],
        ])
        table = widgets.HBox([
            widgets.VBox([c["acting"]], layout={"flex": "1 1 55%", "min_width": "320px"}),
            widgets.VBox([widgets.HTML("<b>Everyone</b>"), c["roster"]],
                         layout={"flex": "1 1 40%", "min_width": "280px"}),
        ], layout=wrap)
        hits = widgets.VBox([
            row(c["target"], c["amount"], b["damage"], b["heal"], c["in_area"], b["area"], b["dies"], b["flees"]),
            row(c["condition"], c["ends"], b["condition"], b["end_condition"]),
            row(c["squad"], c["captain"], b["captain"]) if self.squads and self.captains else nothing,
            row(c["stat_block"], c["count"], b["reinforce"]),
        ])
        director = widgets.VBox([
            c["malice_line"], row(c["feature"], c["malice"], c["spender"], b["spend"]),
            row(c["villain"], b["villain"]) if c["villain"].options else nothing, c["villain_note"],
            widgets.HTML("<b>Objective</b>"), c["objectives"],
            row(c["counter"], b["plus"], b["minus"]) if c["counter"].options else nothing,
            row(b["met"], b["failed"]) if objectives else nothing,
        ])
        players = widgets.VBox([c["shown"], widgets.HTML("<b>The players see:</b>"), c["players"]])
        pace = widgets.VBox([widgets.HTML("<b>The forecast beside the fight</b>"),
                             row(c["hero_stamina"], c["party_damage"]), c["pace"]])
        return widgets.VBox([turn_box, table, hits, director, c["result"], pace, c["log"], players])


def fight_runner(fight: Fight, save_path: str | Path | None = None) -> widgets.VBox:
    """The runner for `fight`; after every change the fight is written to `save_path` (when given), kept like a
    document (`apps.fight_saving`): a file another page saved meanwhile is never overwritten unasked."""
    path = Path(save_path) if save_path is not None else None
    app = widgets.VBox()
    app.add_class("wb-fight-runner")

    def start(current: Fight) -> None:
        runner = _Runner(current, path, saving)
        app.children = runner.layout().children
        app.controls, app.fight, app.refresh, app.saving = runner.c, current, runner.show, saving

    saving = FightSaving(path, start) if path is not None else None
    start(fight)
    return app
