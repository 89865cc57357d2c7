"""The fight runner: one `Fight` at the table, by mouse and keyboard, on one board.

The turn order as a strip (a hero's or group's place in it moved by the Director); the acting group's
creatures with their Stamina bars and their own stat blocks beside it; damage with its type (the stat block's
weakness and immunity apply), area damage on a squad with how many minions are in the area, healing,
temporary Stamina and a hero's Stamina kept by the runner; dead, fled, a minion dying outright, and
conditions with how they end; a squad's captain and every squad as it stands; creatures held back before the
first round and brought in as reinforcements in the round the Director chooses, or new ones of the
encounter's stat blocks; Malice spent on the fight's features and the stat blocks' own Malice abilities, by
a creature acting now, with the Malice ahead; villain actions offered when the rules allow them; End Effect
offered at the end of the turn of a creature that has it; the objective's counters and the Director's choices
the text offers (Diminish Numbers' condition, Destroy the Thing!'s things and how many must go, a timed
objective's rounds), with the difficulty and Victories they give and the reading behind them; one undo;
the end, by the rules or by the Director's judgement (surrender, retreat) with its Victories; and what the
players see. Every control calls one `Fight` method and the fight is saved after it (`Fight.save`), so the
page resumes where it stopped. Glue only: the rules live in `workbench.fight`.

The returned widget carries `controls` (a dict of its controls, for scripts and tests) and `fight`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.fight_saving import FightSaving
from workbench.apps.message import refusal_html
from workbench.encounter.objective import DIMINISH_CONDITIONS
from workbench.errors import InvalidInput
from workbench.fight.fight import Fight
from workbench.fight.pace import Pace, fight_pace
from workbench.fight.setup import COUNTERS
from workbench.fight.state import CONDITION_ENDS
from workbench.model import DAMAGE_TYPES
from workbench.render.escape import escape
from workbench.render.fight import (
    acting_html,
    fight_log_html,
    malice_forecast_html,
    malice_line_html,
    objectives_html,
    pace_beside_html,
    player_view_html,
    result_html,
    squads_html,
    stakes_html,
    turn_strip_html,
    unit_html,
)
from workbench.rules.limits import MAX_COUNT, MAX_ROUNDS

__all__ = ["COMMON_CONDITIONS", "DIMINISH_LABELS", "END_CHOICES", "NOT_CHOSEN", "fight_runner"]

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


def _picker_width(options: list[tuple[str, Any]]) -> str:
    """A picker wide enough for its longest label (a villain action's own name can be long) and its
    description."""
    longest = max((len(label) for label, _ in options), default=0)
    return f"{min(60, max(24, round(0.6 * longest) + 9))}em"


def _counter_options(fight: Fight) -> list[tuple[str, tuple[str, str]]]:
    return [(f"{p.name}: {label}", (p.key, key)) for p in fight.state.objectives
            for key, label in COUNTERS.get(p.key, ())]


# how the Director ends the fight: the words in the log and whether the heroes won (None: by the rules)
END_CHOICES: dict[str, tuple[str, bool | None]] = {
    "The foes surrender": ("the foes surrender", True),
    "The foes retreat": ("the foes retreat", True),
    "The heroes retreat": ("the heroes retreat", False),
    "As it stands (by the rules)": ("the Director ended the fight", None),
}

LABELS = {
    "round": "Next round", "end_round": "End round", "turn": "Start turn", "end_turn": "End turn",
    "undo": "Undo", "damage": "Damage", "area": "Area damage", "heal": "Heal", "dies": "Dies",
    "flees": "Flees", "condition": "Add condition", "end_condition": "End condition",
    "captain": "Attach captain", "spend": "Spend Malice", "villain": "Use villain action", "plus": "+1",
    "minus": "−1", "met": "Objective met", "failed": "Objective failed", "end": "End the fight",
    "reinforce": "Reinforce", "temporary": "Temporary Stamina", "set_stamina": "Hero's Stamina",
    "minion_dies": "A minion dies", "hold_back": "Hold back", "bring_in": "Bring in", "move": "Move",
    "end_effect": "End Effect",
}

# Diminish Numbers' choice on the page: none chosen (the rules' own reading) or one the fight accepts, each
# in a few words (the objective's line beside it quotes the condition whole)
NOT_CHOSEN = "Not chosen: half the foes at the start, or the solo's own"
DIMINISH_LABELS = {
    "minion_groups": "Two or more minion groups: no non-minion foe left",
    "horde": "Mostly horde: the heroes outnumber their foes",
    "platoon": "Mostly platoon: the heroes outnumber their foes 2 to 1",
    "half": "Half or less of the foes at the start remain",
    "solo": "The solo at a quarter of its Stamina, villain actions used",
}


def _diminish_options(fight: Fight) -> list[tuple[str, str]]:
    """The conditions the fight accepts now, and the one chosen (still shown once the fight has ended)."""
    keys = list(fight.diminish_conditions())
    chosen = _choice(fight)
    if chosen and chosen not in keys:
        keys.append(chosen)
    return [(NOT_CHOSEN, "")] + [(DIMINISH_LABELS.get(k, DIMINISH_CONDITIONS[k]), k) for k in keys]


def _choice(fight: Fight) -> str:
    """Diminish Numbers' chosen condition, "" for none (a picker's None is no option at all)."""
    return next((p.choice or "" for p in fight.state.objectives if p.key == "diminish_numbers"), "")


def _things(fight: Fight) -> tuple[int, int]:
    """Destroy the Thing!'s (things, to destroy) as the fight holds them (two, both, until the Director says)."""
    p = next((p for p in fight.state.objectives if p.key == "destroy_the_thing"), None)
    if p is None:
        return 2, 2
    things = max(2, p.things or p.target or 2)
    return things, min(things, p.target or things)


def _multiple_things(fight: Fight) -> bool:
    """The encounter's Destroy the Thing! has several things ("In a multiple-thing setup"): the page asks
    how many and how many must go."""
    return any(o.key == "destroy_the_thing" and o.conditions.get("multiple") for o in fight.encounter.objectives)


class _Runner:
    """The runner's controls and views; each button calls one `Fight` method, then saves and redraws."""

    def __init__(self, fight: Fight, path: Path | None, saving: FightSaving | None = None) -> None:
        self.fight, self.path = fight, path
        self.saving = saving
        names = [u.name for u in fight.units]
        foes = [u.name for u in fight.units if u.kind != "hero"]
        wide = {"description_width": "initial"}
        self.squads = [u.name for u in fight.units if u.kind == "squad"]
        villains = _villain_options(fight)
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
            "villain": widgets.Dropdown(options=villains, description="Villain",
                                        layout={"width": _picker_width(villains)}),
            "counter": widgets.Dropdown(options=_counter_options(fight), description="Counter", style=wide),
            "shown": widgets.Checkbox(value=True, description="Show Malice to the players"),
            "stat_block": widgets.Dropdown(options=fight.stat_block_names, description="Stat block"),
            "count": widgets.BoundedIntText(value=1, min=1, max=100, description="How many",
                                            layout={"width": "14em"}),
            "hero_stamina": widgets.BoundedIntText(value=0, min=0, max=999, description="Each hero's Stamina",
                                                   style=wide, layout={"width": "19em"}),
            "party_damage": widgets.BoundedIntText(value=0, min=0, max=9999, description="Party damage a round",
                                                   style=wide, layout={"width": "19em"}),
            "damage_type": widgets.Dropdown(options=[("untyped", ""), *((t, t) for t in DAMAGE_TYPES)],
                                            description="Type", layout={"width": "14em"}),
            "place": widgets.BoundedIntText(value=1, min=1, max=max(1, len(fight.actors)),
                                            description="to place", style=wide, layout={"width": "10em"}),
            "end_how": widgets.Dropdown(options=list(END_CHOICES), description="How", style=wide),
            "end_victories": widgets.BoundedIntText(value=fight.victories_for_success, min=0, max=99,
                                                    description="Victories each", style=wide,
                                                    layout={"width": "12em"}),
            "end_effect_on": widgets.Dropdown(options=[], description="Effect to end", style=wide),
            "diminish": widgets.Dropdown(options=_diminish_options(fight), value=_choice(fight),
                                         description="Diminish Numbers ends", style=wide,
                                         layout={"width": "36em"}),
            "things": widgets.BoundedIntText(value=_things(fight)[0], min=2, max=MAX_COUNT, description="Things",
                                             style=wide, layout={"width": "10em"}),
            "needed": widgets.BoundedIntText(value=_things(fight)[1], min=1, max=_things(fight)[0],
                                             description="To destroy", style=wide, layout={"width": "11em"}),
            "durations": {p.key: widgets.BoundedIntText(value=p.duration, min=1, max=MAX_ROUNDS,
                                                        description=f"{p.name}: rounds", style=wide,
                                                        layout={"width": "18em"})
                          for p in fight.state.objectives if p.duration is not None},
            "buttons": {key: widgets.Button(description=text, layout={"width": "auto"})
                        for key, text in LABELS.items()},
        }
        self.pace: Pace | None = None
        self.on_change: Callable[[Fight], None] | None = None
        # told when another fight takes the board (this one with other durations)
        self.on_swap: Callable[[Fight], None] | None = None
        self._syncing = False
        for key in ("strip", "acting", "roster", "malice_line", "villain_note", "objectives", "result", "log",
                    "players", "refusal", "saved", "pace", "forecast", "squads", "end_effect", "stakes"):
            self.c[key] = widgets.HTML().add_class(f"wb-fight-{key.replace('_', '-')}")
        self.c["end_effect_row"] = widgets.HBox(
            [self.c["end_effect"], self.c["end_effect_on"], self.c["buttons"]["end_effect"]],
            layout={"display": "none", "flex_flow": "row wrap", "align_items": "center"})
        self.c["end_effect_row"].add_class("wb-fight-end-effect-row")
        handlers = self._handlers()
        for key, handler in handlers.items():
            self.c["buttons"][key].on_click(self._act(handler))
        self.c["feature"].observe(self._cost, names="value")
        for key in ("villain", "target"):
            self.c[key].observe(self.show, names="value")
        self.c["shown"].observe(self._shown, names="value")
        self.c["end_how"].observe(self._end_how, names="value")
        for key in ("hero_stamina", "party_damage"):
            self.c[key].observe(self._forecast, names="value")
        self.c["diminish"].observe(self._diminish, names="value")
        for key in ("things", "needed"):
            self.c[key].observe(self._set_things, names="value")
        for key, box in self.c["durations"].items():
            box.observe(self._duration(key), names="value")
        self.show()

    def _handlers(self) -> dict[str, Callable[[], Any]]:
        """Each button's action, on the fight the board holds when it is clicked."""
        c = self.c

        def fight() -> Fight:  # the fight on the board now (a duration set puts another in its place)
            return self.fight

        return {
            "round": lambda: fight().start_round(), "end_round": lambda: fight().end_round(),
            "turn": lambda: fight().start_turn(c["actor"].value), "end_turn": lambda: fight().end_turn(),
            "undo": lambda: fight().undo(),
            "damage": lambda: fight().damage(c["target"].value, c["amount"].value,
                                             damage_type=c["damage_type"].value or None),
            "area": lambda: fight().damage(c["target"].value, c["amount"].value, in_area=c["in_area"].value,
                                           damage_type=c["damage_type"].value or None),
            "heal": lambda: fight().heal(c["target"].value, c["amount"].value),
            "dies": lambda: fight().dies(c["target"].value), "flees": lambda: fight().flees(c["target"].value),
            "condition": lambda: fight().add_condition(c["target"].value, c["condition"].value, c["ends"].value),
            "end_condition": lambda: fight().end_condition(c["target"].value, c["condition"].value),
            "captain": lambda: fight().attach_captain(c["squad"].value, c["captain"].value),
            "spend": lambda: fight().spend(c["feature"].value, c["malice"].value, c["spender"].value or None),
            "villain": self._villain, "plus": lambda: self._count(1), "minus": lambda: self._count(-1),
            "met": lambda: self._settle(True), "failed": lambda: self._settle(False), "end": self._end,
            "reinforce": lambda: fight().reinforce(c["stat_block"].value, c["count"].value),
            "temporary": lambda: fight().temporary(c["target"].value, c["amount"].value),
            "set_stamina": lambda: fight().set_stamina(c["target"].value, c["amount"].value),
            "minion_dies": lambda: fight().minion_dies(c["target"].value),
            "hold_back": lambda: fight().hold_back(c["target"].value),
            "bring_in": lambda: fight().bring_in(c["target"].value),
            "move": lambda: fight().move_turn(c["actor"].value, c["place"].value),
            "end_effect": self._end_effect,
        }

    def _end_effect(self) -> None:
        offer = self.fight.end_effect_offer()
        if offer is None:
            raise InvalidInput("end_effect", None, "End Effect at the end of the turn of a creature that has it",
                               "no creature with End Effect has just ended its turn with a save-ends effect")
        self.fight.end_effect(offer[0], self.c["end_effect_on"].value)

    def _diminish(self, _change: object = None) -> None:
        """Diminish Numbers' condition, the Director's choice: an event of the fight (saved, undone)."""
        if self._syncing or self.c["diminish"].value == _choice(self.fight):
            return
        self._act(lambda: self.fight.choose("diminish_numbers", self.c["diminish"].value or None))(None)

    def _set_things(self, _change: object = None) -> None:
        """Destroy the Thing!'s things and how many must go: an event of the fight (saved, undone)."""
        c = self.c
        c["needed"].max = c["things"].value
        if self._syncing or (c["things"].value, c["needed"].value) == _things(self.fight):
            return
        self._act(lambda: self.fight.set_things("destroy_the_thing", c["things"].value, c["needed"].value))(None)

    def _duration(self, key: str) -> Callable[[object], None]:
        """The rounds the Director sets for a timed objective: the fight played again with that duration
        (`Fight.with_durations`) takes the board, its difficulty and Victories with it; saved and told like
        an action. The same encounter, so every control stays as it is."""

        def handler(_change: object = None) -> None:
            if self._syncing:
                return
            timed = self.c["durations"]
            now = {k: v for k, v in self.fight.durations.items() if k in timed}
            wanted = {**now, key: timed[key].value}
            if wanted == now:
                return
            try:
                fight = self.fight.with_durations(wanted)
            except InvalidInput as exc:
                self.c["refusal"].value = refusal_html(exc)
                self.show()
                return
            self.fight = fight
            if self.on_swap is not None:
                self.on_swap(fight)
            self._end_how()  # the Victories the Director's end offers follow the difficulty
            self._act(lambda: None)(None)

        return handler

    def _end(self) -> None:
        reason, victorious = END_CHOICES[self.c["end_how"].value]
        if victorious is None:
            self.fight.end(reason)
        else:
            self.fight.end(reason, victorious, self.c["end_victories"].value if victorious else 0)

    def _end_how(self, _change: object = None) -> None:
        success = END_CHOICES[self.c["end_how"].value][1]
        self.c["end_victories"].disabled = not success
        self.c["end_victories"].value = self.fight.victories_for_success if success else 0

    def _shown(self, _change: object = None) -> None:
        """The players' view shows the Malice or not: an event of the fight (saved, undone like the rest)."""
        if self._syncing or self.c["shown"].value == self.fight.state.malice_shown:
            return
        self._act(lambda: self.fight.show_malice(bool(self.c["shown"].value)))(None)

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
        self._follow_spender()

    def _follow_spender(self) -> None:
        """Who pays: a creature acting on the open turn, and one whose stat block has the chosen ability (the
        rules refuse any other); the Director's pick is kept while it fits."""
        f, c = self.fight, self.c
        state = f.state
        pool = state.acting if state.turn is not None else tuple(c["spender"].options)
        candidates = [n for n in pool if n in c["spender"].options and f.unit(n).kind != "hero" and f.unit(n).active]
        if not candidates:
            return
        wanted = str(c["feature"].value).casefold()

        def has(name: str) -> bool:
            monster = f.monster(name)
            return monster is not None and any(a.malice and a.name.casefold() == wanted for a in monster.abilities)

        owners = [n for n in candidates if has(n)]
        if c["spender"].value not in (owners or candidates):
            c["spender"].value = (owners or candidates)[0]

    def _act(self, action: Callable[[], Any]) -> Callable[[object], None]:
        """A click handler: the action, the board redrawn, then the fight saved and `on_change` told; a
        refusal changes nothing and is said beside the buttons (`apps.message.refusal_html`)."""

        def handler(_button: object = None) -> None:
            try:
                action()
            except InvalidInput as exc:
                self.c["refusal"].value = refusal_html(exc)
                self.show()
                return
            self.c["refusal"].value = ""
            self.show()  # the board first: the Director sees the change while the file is written
            self.keep()
            if self.on_change is not None:
                self.on_change(self.fight)

        return handler

    def keep(self) -> None:
        if self.saving is not None:
            self.saving.save(self.fight)

    def villain_offer(self) -> str:
        options = self.c["villain"].options
        if self.fight.ended:
            return ""
        offered = [label for label, (name, n) in options if self.fight.villain_action_allowed(name, n) is None]
        if offered:
            return "<div>Villain actions allowed now: " + ", ".join(escape(o) for o in offered) + "</div>"
        if self.c["villain"].value is None:
            return ""
        why = self.fight.villain_action_allowed(*self.c["villain"].value)
        if why is None:
            return ""
        return f'<div class="wb-note">No villain action now: {escape(why.reason or why.accepts)}.</div>'


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
        c["players"].value = player_view_html(f)
        c["forecast"].value = malice_forecast_html(f)
        c["squads"].value = squads_html(f) if any(u.squad is not None for u in f.units) else ""
        c["stakes"].value = stakes_html(f)
        self._syncing = True
        try:
            c["shown"].value = f.state.malice_shown
            self._follow_choices()
        finally:
            self._syncing = False
        c["pace"].value = (pace_beside_html(self.pace, f) if self.pace is not None else
                           "<i>Give each hero's Stamina and the party's damage a round to see the forecast.</i>")
        self._follow_units()
        self._follow_spender()
        if f.state.turn is not None:
            c["actor"].value = f.state.turn
        unit = f.state.unit(c["target"].value)
        c["in_area"].max = unit.squad.alive if unit.squad is not None and unit.squad.alive else 1
        c["buttons"]["undo"].disabled = not f.can_undo
        c["buttons"]["end"].disabled = f.ended

    def _follow_choices(self) -> None:
        """The Director's choices as the fight holds them (after an undo too), and End Effect when on offer."""
        f, c = self.fight, self.c
        options = tuple(_diminish_options(f))
        if tuple(c["diminish"].options) != options:
            c["diminish"].options = options
        c["diminish"].value = _choice(f)
        things, needed = _things(f)
        c["things"].value = things
        c["needed"].max = things
        c["needed"].value = needed
        spans = {p.key: p.duration for p in f.state.objectives}
        for key, box in c["durations"].items():
            box.value = spans.get(key) or box.value  # a duration refused goes back to the fight's
        for box in (c["diminish"], c["things"], c["needed"], *c["durations"].values()):
            box.disabled = f.ended  # an ended fight's Victories are written: undo to go back into it
        offer = f.end_effect_offer()
        if offer is None:
            c["end_effect"].value = ""
            c["end_effect_row"].layout.display = "none"
            return
        name, damage, saves = offer
        if tuple(c["end_effect_on"].options) != saves:
            c["end_effect_on"].options = saves
        if c["end_effect_on"].value not in saves:
            c["end_effect_on"].value = saves[0]
        c["end_effect"].value = (f"<b>End Effect</b>: {escape(name)} can take {damage} damage to end one effect on "
                                 "them that can be ended by a saving throw (this damage can't be reduced).")
        c["end_effect_row"].layout.display = "flex"

    def _follow_units(self) -> None:
        """The pickers of creatures and groups follow the fight (reinforcements join, undo takes them away)."""
        f, c = self.fight, self.c
        actors = tuple((a.label, a.key) for a in f.actors)
        if tuple(c["actor"].options) != actors:
            kept = c["actor"].value
            c["actor"].options = actors
            if kept in dict(actors).values():
                c["actor"].value = kept
            c["place"].max = max(1, len(actors))
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

        def section(title: str, *children: widgets.Widget) -> widgets.VBox:
            return widgets.VBox([widgets.HTML(f"<b>{title}</b>"), *children])

        nothing = widgets.HTML()
        objectives = bool(self.fight.state.objectives)
        turn_box = widgets.VBox([
            row(b["round"], c["actor"], b["turn"], b["end_turn"], b["end_round"], b["undo"]),
            c["end_effect_row"], c["refusal"], self.saving.box if self.saving is not None else c["saved"], c["strip"],
        ])
        table = widgets.HBox([
            widgets.VBox([c["acting"]], layout={"flex": "1 1 55%", "min_width": "320px"}),
            widgets.VBox([widgets.HTML("<b>Everyone</b>"), c["roster"]],
                         layout={"flex": "1 1 40%", "min_width": "280px"}),
        ], layout=wrap)
        hits = section(
            "Stamina and conditions",
            row(c["target"], c["amount"], c["damage_type"], b["damage"], c["in_area"], b["area"]),
            row(b["heal"], b["temporary"], b["set_stamina"], b["dies"], b["flees"],
                b["minion_dies"] if self.squads else nothing),
            row(c["condition"], c["ends"], b["condition"], b["end_condition"]),
        )
        squads = section("Squads", row(c["squad"], c["captain"], b["captain"]) if self.squads and self.captains
                         else nothing, c["squads"]) if self.squads else nothing
        order = section(
            "Turn order and reinforcements",
            row(widgets.HTML("Move the one in <i>Who acts</i>"), c["place"], b["move"]),
            row(widgets.HTML("The one in <i>Creature</i>:"), b["hold_back"], b["bring_in"]),
            row(c["stat_block"], c["count"], b["reinforce"]),
        )
        director = section(
            "Malice and villain actions",
            c["malice_line"], c["forecast"], row(c["feature"], c["malice"], c["spender"], b["spend"]),
            row(c["villain"], b["villain"]) if c["villain"].options else nothing, c["villain_note"],
        )
        keys = {p.key for p in self.fight.state.objectives}
        objective = section(
            "Objective", c["stakes"], c["objectives"],
            row(*c["durations"].values()) if c["durations"] else nothing,
            row(c["diminish"]) if "diminish_numbers" in keys else nothing,
            row(c["things"], c["needed"]) if _multiple_things(self.fight) else nothing,
            row(c["counter"], b["plus"], b["minus"]) if c["counter"].options else nothing,
            row(b["met"], b["failed"]) if objectives else nothing,
        )
        ending = section("The end", row(c["end_how"], c["end_victories"], b["end"]), c["result"])
        players = section("The players see", c["shown"], c["players"])
        pace = section("The forecast beside the fight", row(c["hero_stamina"], c["party_damage"]), c["pace"])
        return widgets.VBox([turn_box, table, hits, squads, order, director, objective, ending, players, pace,
                             c["log"]])


def fight_runner(fight: Fight, save_path: str | Path | None = None,
                 on_change: Callable[[Fight], None] | None = None) -> widgets.VBox:
    """The runner for `fight`; after every change the fight is written to `save_path` (when given), kept like a
    document (`apps.fight_saving`: a file another page saved meanwhile is never overwritten unasked), and
    `on_change` is told (the fight page carries the Victories of an ended fight with it)."""
    path = Path(save_path) if save_path is not None else None
    app = widgets.VBox()
    app.add_class("wb-fight-runner")

    def start(current: Fight) -> None:
        runner = _Runner(current, path, saving)
        runner.on_change = on_change
        runner.on_swap = lambda swapped: setattr(app, "fight", swapped)
        app.children = runner.layout().children
        app.controls, app.fight, app.refresh, app.saving = runner.c, current, runner.show, saving

    saving = FightSaving(path, start) if path is not None else None
    start(fight)
    return app
