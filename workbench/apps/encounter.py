"""The encounter editor: a party, the creatures bought for it as rows, the book's guidelines checked live, and
the pace of the fight.

`encounter_view` is pure: an `Encounter`, the difficulty aimed for and the heroes' numbers for the pace in;
the chart, every HTML panel, the rows (creature, count, EV, star, group) and the pace chart out.
`EncounterEditor` owns the controls and one observer, `_changed`: a control's new value or a button's click
becomes one call of the library (`workbench.encounter.editing` for counts, stars and groups, `suggest_groups`,
`suggest_encounters`, `parse_spec`, the files), then the same view is shown. A refusal shows why and changes
nothing. Creatures come from the bestiary browser ("Add to encounter"), from monsters passed in or loaded from
the homebrew library, or from a typed spec (a shortcut); "Suggest" fills the editor with a proposal that keeps
every guideline.

The returned widget carries `controls` (a dict of its controls, for scripts and tests) and `state()` (the
current Encounter).
"""

from __future__ import annotations

import html
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.bestiary import BestiaryBrowser
from workbench.apps.chart_slot import ChartSlot
from workbench.apps.message import refusal_html, shown_path
from workbench.charts.encounter import budget_figure
from workbench.charts.pace import pace_figure
from workbench.encounter.editing import NO_GROUP, SPLIT, assign_group, count_step, group_of, set_star, step_count
from workbench.encounter.encounter import Creature, Encounter, TerrainObject, creature_from_monster, parse_spec
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.groups import format_groups, parse_groups, suggest_groups
from workbench.encounter.objective import ChosenObjective, check_objective_mode, choose_objective
from workbench.encounter.party import Party, make_party, parse_victories
from workbench.encounter.quick_method import quick_plan
from workbench.encounter.report import report
from workbench.encounter.respite import respite_check
from workbench.encounter.suggest import Suggestion, creature_from_stat_block, suggest_encounters
from workbench.errors import InvalidInput, WorkbenchError
from workbench.fight.pace import attack_choices, fight_pace, foe_attack
from workbench.formats.bestiary import Bestiary, PublishedMonster, sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.model import Monster
from workbench.monster.library import load_library
from workbench.numbers import format_number
from workbench.render.encounter import (
    budget_html,
    checks_html,
    creatures_html,
    groups_html,
    objectives_html,
    quick_html,
    respite_html,
    summary_html,
)
from workbench.render.message import error_html
from workbench.rules.encounter_tables import DIFFICULTIES, encounter_rules
from workbench.workspace.bestiary_filter import all_keywords

__all__ = ["AttackView", "EncounterEditor", "EncounterView", "RowView", "encounter_app", "encounter_view", "party_from_controls",
           "hero_staminas"]

ANY = "any"
SUGGESTIONS = 10
UNDO_DEPTH = 50  # changes to the creatures Undo can take back
LOCK_WORDS = {True: "kept", False: "keep"}
# the widths below which the creature rows and the bestiary would be cramped: with room for both side by side
# (a window 1280 px wide or more) the bestiary sits beside the rows, else under them
ROW_LABEL_WIDTH = "240px"
ROWS_WIDTH = "780px"
BESTIARY_WIDTH = "440px"
PACE_PROMPT = ("Enter the heroes' Stamina and the damage they deal in a round to see the pace of the fight "
               "(the workbench invents no hero numbers).")


@dataclass(frozen=True)
class RowView:
    """One bought entry as the editor shows it."""

    label: str
    kind: str
    count: int
    cost: str
    star: bool
    group: int  # from 1; NO_GROUP or SPLIT


@dataclass(frozen=True)
class AttackView:
    """One kind of stat block in the pace of the fight: the ability it uses each turn and the others it could."""

    key: tuple[Any, ...]  # the creature's stat block key
    label: str
    signature: str  # what it uses unless the Director marks another
    others: tuple[str, ...]
    chosen: str  # "" for the signature


@dataclass(frozen=True)
class EncounterView:
    """Everything the app shows for one encounter and difficulty."""

    figure: go.Figure
    summary: str
    budget: str
    creatures: str
    checks: str
    groups: str
    objectives: str
    quick: str
    rows: tuple[RowView, ...] = ()
    terrain: tuple[str, ...] = ()
    group_count: int = 0
    pace_figure: go.Figure | None = None
    pace: str = ""
    attacks: tuple[AttackView, ...] = ()
    respite: str = ""


def _levels(field: str, text: str) -> list[int]:
    accepts = "levels separated by commas or spaces, e.g. 3, 3, 4"
    items = text.replace(",", " ").split()
    # plain ASCII digits, a few of them (isdigit() takes "５" and "²"; int() of 5,000 digits raises)
    if not all(item.isascii() and item.isdigit() and len(item) <= 6 for item in items):
        raise InvalidInput(field, text, accepts)
    return [int(item) for item in items]


def party_from_controls(
    heroes: int, level: int, mixed: str, retainers: str, victories: str, allies: str = ""
) -> Party:
    """A Party from the app's controls: `mixed` levels (if any) replace heroes × level."""
    average = parse_victories(victories.strip() or "0")  # a short plain number: "1e100000000" never parsed
    extra = _levels("retainers", retainers)
    friends = _levels("allies", allies)
    if mixed.strip():
        return make_party(_levels("levels", mixed), victories=average, retainers=extra, allies=friends)
    return make_party(heroes=heroes, level=level, victories=average, retainers=extra, allies=friends)


def hero_staminas(text: str, heroes: int) -> tuple[int, ...]:
    """The heroes' Stamina as typed: one number per hero, or one number for all of them; blank is none."""
    numbers = _levels("hero_stamina", text) if text.strip() else []
    if len(numbers) == 1:
        numbers = numbers * heroes
    if numbers and (len(numbers) != heroes or min(numbers) < 1):
        raise InvalidInput("hero_stamina", text, f"one Stamina for every hero ({heroes}), or one for all")
    return tuple(numbers)


def _kind(c: Creature) -> str:
    return " ".join(part for part in (f"level {c.level}", c.organization, c.role or "") if part)


def _attacks(encounter: Encounter, stat_block: Callable[[Creature], Any],
             marked: Mapping[tuple[Any, ...], str]) -> tuple[AttackView, ...]:
    """Each kind of stat block once, with the abilities its whole stat block offers beside its signature."""
    seen: dict[tuple[Any, ...], AttackView] = {}
    for c in encounter.creatures:
        if c.stat_block in seen:
            continue
        block = stat_block(c)
        signature = foe_attack(block).ability
        others = tuple(name for name in attack_choices(block) if name != signature)
        seen[c.stat_block] = AttackView(key=c.stat_block, label=c.label, signature=signature, others=others,
                                        chosen=marked.get(c.stat_block, ""))
    return tuple(seen.values())


def _pace(encounter: Encounter, staminas: Sequence[int], damage: int,
          stat_block: Callable[[Creature], Any], marked: Mapping[tuple[Any, ...], str]) -> tuple[go.Figure | None, str]:
    if not encounter.creatures:
        return None, "<i>Buy some creatures to see the pace of the fight.</i>"
    if not staminas or not damage:
        return None, f"<i>{html.escape(PACE_PROMPT)}</i>"
    foes = [(stat_block(c), c.count, marked.get(c.stat_block) or None) for c in encounter.creatures]
    victories = int(encounter.party.victories)
    pace = fight_pace(foes, staminas, damage, victories=victories)
    each = "".join(
        f'<li class="wb-pace-foe">{html.escape(f"{a.name} × {a.count}: {a.ability}, ")}'
        f"{float(a.per_turn):.1f} expected damage a turn{' (two turns a round)' if a.turns > 1 else ''}</li>"
        for a in pace.foes
    )
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in pace.sentences())
    return pace_figure(pace), f'<ul class="wb-pace-lines">{lines}</ul><ul class="wb-pace-foes">{each}</ul>'


def _own_block(c: Creature) -> Monster:
    """The stat block the creature carries."""
    return c.monster


def encounter_view(
    encounter: Encounter,
    difficulty: str,
    hero_stamina: Sequence[int] = (),
    party_damage: int = 0,
    stat_block: Callable[[Creature], Any] = _own_block,
    abilities: Mapping[tuple[Any, ...], str] | None = None,
) -> EncounterView:
    """The chart and every panel for `encounter` aiming at `difficulty`; the pace once the heroes' Stamina and
    damage per round are given (`stat_block` finds each creature's stat block; the one it carries by default;
    `abilities` marks, by a creature's stat block key, the ability it uses each turn instead of its
    signature)."""
    marked = abilities or {}
    r = report(encounter)
    plan = quick_plan(encounter.party, difficulty, encounter.creatures)
    # The heroes' Victories are those since their last respite (a respite turns them into experience); an
    # average is rounded down, the reading the Malice schedule uses for the same number.
    respite = respite_check([r], since_respite=math.floor(encounter.party.victories))
    rows = tuple(
        RowView(label=c.label, kind=_kind(c), count=c.count, cost=format_number(c.cost()), star=c.star,
                group=group_of(encounter, i))
        for i, c in enumerate(encounter.creatures)
    )
    terrain = tuple(f"{t.name} (dynamic terrain, EV {t.ev}" + (f", level {t.level})" if t.level else ")")
                    for t in encounter.terrain)
    figure, pace = _pace(encounter, hero_stamina, party_damage, stat_block, marked)
    return EncounterView(
        figure=budget_figure(r.budget, r.total_ev, difficulty),
        summary=summary_html(r, encounter.name),
        budget=budget_html(r.budget),
        creatures=creatures_html(encounter),
        checks=checks_html(r),
        groups=groups_html(encounter, r.budget.hero_strength),
        objectives=objectives_html(encounter),
        quick=quick_html(plan, r.band),
        rows=rows,
        terrain=terrain,
        group_count=len(encounter.groups),
        pace_figure=figure,
        pace=pace,
        attacks=_attacks(encounter, stat_block, marked),
        respite=respite_html(respite),
    )


def _levels_of(p: Party, kind: str) -> str:
    return ", ".join(str(m.level) for m in p.members if m.kind == kind)


class EncounterEditor(widgets.VBox):
    """The editor's widget. `controls` names every control; `state()` is the Encounter shown."""

    def __init__(
        self,
        monsters: Sequence[Monster] = (),
        heroes: int = 5,
        level: int = 3,
        victories: int = 0,
        difficulty: str = "standard",
        encounter: Encounter | None = None,
        library_folder: str | Path | None = None,
        bestiary: Bestiary | None = None,
        files_folder: str | Path | None = None,
        open_in_builder: Callable[[Bestiary, PublishedMonster], str] | None = None,
    ) -> None:
        self.rules = encounter_rules()
        self.files_folder = files_folder
        self.monsters = list(monsters)
        self.library: list[Monster] = []  # the homebrew library's monsters, once loaded: suggestions use them too
        party = encounter.party if encounter is not None else make_party(heroes=heroes, level=level,
                                                                          victories=victories)
        self.encounter = encounter or Encounter(party=party)
        difficulty = self.encounter.aim or difficulty  # a saved encounter says what it aimed for
        # Which chosen objective the Objective dropdown, its conditions and its bonus box edit; "Add objective"
        # chooses another, a row's Edit picks it, Remove drops it. The others are kept as they are.
        self.editing = 0
        self._objective_shown: tuple[Any, ...] = ()
        self._conditions_for: tuple[int, str] = (-1, "")
        self.bestiary = bestiary if bestiary is not None else sample_bestiary()
        # a published stat block's (shelf, file) -> the block whole, read once
        self.whole: dict[tuple[str, str], Monster | None] = {}
        self.suggestions: tuple[Suggestion, ...] = ()
        self.suggestion_key: tuple[Any, ...] = ()
        self.next_suggestion = 0
        self._actions: dict[int, tuple[Any, ...]] = {}
        self._busy = False
        # the rows a suggestion keeps (by stat block): those the Director added by hand start locked
        self.locked: set[tuple[Any, ...]] = {c.stat_block for c in self.encounter.creatures}
        self.history: list[tuple[Encounter, frozenset[tuple[Any, ...]]]] = []  # for Undo, the latest last
        self._build_controls(party, difficulty, library_folder)
        self.browser = BestiaryBrowser(self.bestiary, on_add=self._add_stat_block, on_load=self._use_bestiary,
                                       on_open=open_in_builder)
        first = self._view()
        self.plot = ChartSlot(first.figure, "wb-budget-chart")
        self.pace_plot = ChartSlot(first.pace_figure, "wb-pace-chart", placeholder=widgets.HTML())
        self.panes = {name: widgets.HTML(getattr(first, name)) for name in
                      ("summary", "budget", "creatures", "checks", "groups", "objectives", "quick", "pace",
                       "respite")}
        self.panes["summary"].add_class("wb-encounter-summary")
        self.panes["checks"].add_class("wb-checks")
        self.panes["pace"].add_class("wb-pace")
        self.rows_box = widgets.VBox()
        self.rows_box.add_class("wb-encounter-rows")
        self.attack_box = widgets.VBox()
        self.attack_box.add_class("wb-pace-abilities")
        self._sync_objectives()
        self._show(first)
        self._wire()
        super().__init__(self._layout())
        self.add_class("wb-encounter-app")
        self.controls = self._controls()

    # ---------------------------------------------------------------- controls

    def _build_controls(self, party: Party, difficulty: str, library_folder: str | Path | None) -> None:
        hero_levels = [m.level for m in party.members if m.kind == "hero"]
        uniform = len(set(hero_levels)) == 1
        wide = {"description_width": "initial"}
        self.heroes_c = widgets.IntSlider(value=len(hero_levels) if uniform else 5, min=1, max=10,
                                          description="Heroes")
        self.level_c = widgets.IntSlider(value=hero_levels[0] if uniform else 3, min=1, max=10, description="Level")
        self.mixed_c = widgets.Text(value="" if uniform else ", ".join(map(str, hero_levels)),
                                    description="Mixed levels", placeholder="e.g. 3, 3, 4 (replaces heroes × level)",
                                    style=wide)
        self.retainers_c = widgets.Text(value=_levels_of(party, "retainer"), description="Retainers",
                                        placeholder="their levels, e.g. 3", style=wide)
        self.allies_c = widgets.Text(value=_levels_of(party, "ally"), description="Allied NPCs",
                                     placeholder="their levels, e.g. 4", style=wide)
        self.victories_c = widgets.Text(value=format_number(party.victories), description="Victories",
                                        placeholder="average per hero", style=wide)
        self.difficulty_c = widgets.Dropdown(options=list(DIFFICULTIES), value=difficulty, description="Aim for")
        self.objective_c = widgets.Dropdown(
            options=[("No objective: defeat the foes", "")] + [(o.name, k) for k, o in self.rules.objectives.items()],
            value=self.encounter.objectives[0].key if self.encounter.objectives else "", description="Objective",
            style=wide,
        )
        self.condition_box = widgets.VBox()
        self.add_objective_c = widgets.Dropdown(options=[(o.name, k) for k, o in self.rules.objectives.items()],
                                                description="Another objective", style=wide)
        self.add_objective_b = widgets.Button(description="Add objective")
        self.objective_rows = widgets.VBox()
        self.objective_rows.add_class("wb-objective-rows")
        said = self.rules.objective_rules
        self.mode_c = widgets.RadioButtons(
            options=[("all objectives together (combined)", "combined"),
                     ("the best one of these alternatives", "alternative")],
            value=self.encounter.objective_mode, description="Earn Victories for", style=wide,
            layout={"width": "auto"},
        )
        self.mode_c.add_class("wb-objective-mode-choice")
        self.mode_box = widgets.VBox([self.mode_c, widgets.HTML(
            f"<small><b>Combined:</b> <i>{html.escape(said.combined_rule)}</i><br>"
            f"<b>Alternative:</b> <i>{html.escape(said.alternative_rule)}</i></small>")])
        self.condition_c: dict[str, widgets.Widget] = {}
        self.bonus_c = widgets.Checkbox(
            value=bool(self.encounter.objectives and self.encounter.objectives[0].bonus),
            description="Bonus outcome met", indent=False,
        )
        self.keyword_c = widgets.Dropdown(options=[("any keyword", ANY)] + [(k, k) for k in
                                                                             all_keywords(self.bestiary.monsters)],
                                          value=ANY, description="Suggest from", style=wide)
        self.suggest_encounter_b = widgets.Button(description="Suggest an encounter", button_style="primary")
        self.spec_c = widgets.Text(description="Spec", placeholder="2 × level 3 platoon brute", layout={"width": "360px"})
        self.add_spec_b = widgets.Button(description="Add spec")
        self.star_c = widgets.Checkbox(value=False, description="Star of the show", indent=False)
        self.monster_c = widgets.Dropdown(options=[], description="Monster", layout={"width": "360px"})
        self.count_c = widgets.BoundedIntText(value=1, min=1, max=99, description="Count", layout={"width": "160px"})
        self.add_monster_b = widgets.Button(description="Add monster")
        self.folder_c = widgets.Text(value=str(library_folder or ""), description="Library",
                                     placeholder="folder (blank: the workspace's monsters)")
        self.load_library_b = widgets.Button(description="Load library")
        self.terrain_name_c = widgets.Text(description="Terrain", placeholder="e.g. collapsing pillar")
        self.terrain_ev_c = widgets.BoundedIntText(value=2, min=0, max=999, description="EV", layout={"width": "160px"})
        self.terrain_level_c = widgets.Text(description="Level", placeholder="its level, e.g. 3",
                                            layout={"width": "180px"})
        self.add_terrain_b = widgets.Button(description="Add terrain")
        self.suggest_b = widgets.Button(description="Suggest groups")
        self.clear_groups_b = widgets.Button(description="Clear groups")
        self.groups_c = widgets.Text(description="Groups", placeholder="1×2, 2×4; 1×2; 3  (entry×count; groups split by ;)",
                                     layout={"width": "460px"})
        self.apply_groups_b = widgets.Button(description="Apply groups")
        self.stamina_c = widgets.Text(description="Heroes' Stamina", placeholder="each hero's, e.g. 45, 40, 42, 38, 50",
                                      style=wide, layout={"width": "420px"})
        self.damage_c = widgets.BoundedIntText(value=0, min=0, max=9999, description="Heroes' damage a round",
                                               style=wide, layout={"width": "260px"})
        self.path_c = widgets.Text(description="File", placeholder="gate.json" if self.files_folder is not None
                                   else "encounters/gate.json")
        self.overwrite_c = widgets.Checkbox(value=False, description="Replace a file of that name", indent=False)
        self.save_b = widgets.Button(description="Save")
        self.load_b = widgets.Button(description="Load")
        # the encounters saved in the files folder, to open with a click
        self.saved_c = widgets.Dropdown(options=self._saved_files(), value=None, description="Saved encounters",
                                        style=wide, layout={"width": "auto"})
        self.open_b = widgets.Button(description="Open")
        self.where_c = widgets.HTML(self._where_words()).add_class("wb-encounter-files-where")
        self.path_c.observe(lambda change: setattr(self.where_c, "value", self._where_words()), names="value")
        self.undo_b = widgets.Button(description="Undo", icon="undo", disabled=True,
                                     tooltip="take the last change to the creatures back")
        self.message = widgets.HTML()
        self.message.add_class("wb-encounter-message")
        self._set_monsters(self.monsters)

    def _set_monsters(self, items: Sequence[Monster]) -> None:
        self.monster_c.options = [(m.name or _kind(creature_from_monster(m)), m) for m in items]
        self.monster_c.index = 0 if items else None

    def _build_conditions(self) -> None:
        for control in self.condition_c.values():
            control.unobserve(self._changed, names="value")
        self.condition_c.clear()
        if self.objective_c.value:
            chosen = self.encounter.objectives
            edited = chosen[self.editing] if self.editing < len(chosen) else None
            current = edited if edited is not None and edited.key == self.objective_c.value else {
                o.key: o for o in chosen}.get(self.objective_c.value)
            for cond in self.rules.objectives[self.objective_c.value].conditions:
                had = current.conditions.get(cond.key, 0) if current else 0
                if cond.kind == "flag":
                    control = widgets.Checkbox(value=bool(had), description=cond.label, indent=False,
                                               layout={"width": "auto"})
                else:
                    control = widgets.BoundedIntText(value=had, min=0, max=20, description=cond.label,
                                                     style={"description_width": "initial"})
                control.observe(self._changed, names="value")
                self.condition_c[cond.key] = control
        self._conditions_for = (self.editing, self.objective_c.value)
        self.condition_box.children = tuple(self.condition_c.values()) + ((self.bonus_c,) if self.objective_c.value else ())

    def _wire(self) -> None:
        for control in (self.heroes_c, self.level_c, self.mixed_c, self.retainers_c, self.allies_c,
                        self.victories_c, self.difficulty_c, self.objective_c, self.bonus_c, self.stamina_c,
                        self.damage_c, self.mode_c):
            control.observe(self._changed, names="value")
        for name, button in (
            ("suggest_encounter", self.suggest_encounter_b), ("add_spec", self.add_spec_b),
            ("add_monster", self.add_monster_b), ("load_library", self.load_library_b),
            ("add_terrain", self.add_terrain_b), ("suggest_groups", self.suggest_b),
            ("clear_groups", self.clear_groups_b), ("apply_groups", self.apply_groups_b), ("save", self.save_b),
            ("load", self.load_b), ("add_objective", self.add_objective_b), ("open", self.open_b),
            ("undo", self.undo_b),
        ):
            self._actions[id(button)] = (name,)
            button.on_click(self._changed)

    # ---------------------------------------------------------------- the one observer

    def _changed(self, change: Any) -> None:
        """Every control's new value and every click: one library call, then the view. A refusal says why."""
        if self._busy:
            return
        if isinstance(change, widgets.Button):
            action = self._actions.get(id(change))
        else:
            action = self._actions.get(id(change["owner"]), ("controls",))
            if action[0] in ("group", "attack"):
                action = (action[0], action[1], change["new"])
        if action is None:
            return
        try:
            result = self._do(action)
            view = self._view(result if isinstance(result, Encounter) else None)
        except (WorkbenchError, OSError) as exc:
            self.message.value = refusal_html(exc) if isinstance(exc, WorkbenchError) else error_html(str(exc))
            self._show(self._view(lenient=True))
            return
        if isinstance(result, Encounter):
            if action[0] not in ("controls", "undo", "load", "open") and result.creatures != self.encounter.creatures:
                self.history.append((self.encounter, frozenset(self.locked)))
                del self.history[:-UNDO_DEPTH]
            if action[0] in ("add_monster", "add_spec", "add_stat_block"):
                self.locked |= {c.stat_block for c in result.creatures} - {
                    c.stat_block for c in self.encounter.creatures}
            self.encounter = result
        self.undo_b.disabled = not self.history
        self._sync_objectives()
        self.message.value = (f'<span class="wb-ok" style="color:#264">{html.escape(result)}</span>'
                              if isinstance(result, str) else "")
        self._show(view)
        self._show_locks()

    def _do(self, action: tuple[Any, ...]) -> Encounter | str | None:
        """Which library call an action is (the handler's only decision)."""
        name, *args = action
        e = self.encounter
        calls: dict[str, Callable[[], Encounter | str | None]] = {
            "controls": lambda: self._from_controls(e),
            "plus": lambda: step_count(e, args[0], 1),
            "minus": lambda: step_count(e, args[0], -1),
            "remove": lambda: e.without_creature(args[0]),
            "remove_terrain": lambda: e.without_terrain(args[0]),
            "star": lambda: set_star(e, args[0], not e.creatures[args[0]].star),
            "group": lambda: assign_group(e, args[0], args[1]) if args[1] != SPLIT else e,
            "suggest_groups": lambda: e.model_copy(update={"groups": suggest_groups(e)}),
            "clear_groups": lambda: e.model_copy(update={"groups": ()}),
            "apply_groups": lambda: e.model_copy(update={"groups": parse_groups(self.groups_c.value, e)}),
            "add_spec": lambda: e.adding(parse_spec(self.spec_c.value).model_copy(update={"star": self.star_c.value})),
            "add_monster": self._add_monster,
            "add_stat_block": lambda: self._adding_stat_block(*args),
            "add_terrain": lambda: e.adding(TerrainObject(name=self._terrain_name(), ev=self.terrain_ev_c.value,
                                                          level=self._terrain_level())),
            "load_library": self._load_library,
            "suggest_encounter": self._suggest,
            "add_objective": lambda: self._add_objective(e),
            "attack": lambda: self._mark_attack(e, args[0], args[1]),
            "edit_objective": lambda: self._edit_objective(e, args[0]),
            "remove_objective": lambda: self._remove_objective(e, args[0]),
            "save": self._save,
            "load": self._load,
            "open": self._open,
            "undo": self._undo,
            "lock": lambda: self._lock(args[0]),
        }
        return calls[name]()

    # ---------------------------------------------------------------- what the actions call

    def _from_controls(self, e: Encounter) -> Encounter:
        party = party_from_controls(self.heroes_c.value, self.level_c.value, self.mixed_c.value,
                                    self.retainers_c.value, self.victories_c.value, self.allies_c.value)
        hero_staminas(self.stamina_c.value, party.size)  # refused here, beside its box, before anything changes
        if tuple(self.condition_c) != tuple(
            c.key for c in (self.rules.objectives[self.objective_c.value].conditions if self.objective_c.value else ())
        ):
            self._build_conditions()
        objectives, editing = self._objectives(e)
        changed = e.model_copy(update={"party": party, "objectives": objectives,
                                       "objective_mode": check_objective_mode(self.mode_c.value),
                                       "aim": self.difficulty_c.value})
        self.editing = editing
        return changed

    def _objectives(self, e: Encounter) -> tuple[tuple[ChosenObjective, ...], int]:
        """The chosen objectives with the edited one as the controls say (blank: dropped), and where it now is.
        Each objective once: picking one already chosen merges the two."""
        chosen = list(e.objectives)
        at = min(self.editing, len(chosen))
        key = self.objective_c.value
        if not key:
            return tuple(chosen[:at] + chosen[at + 1:]), 0
        values = {k: c.value for k, c in self.condition_c.items()}
        edited = choose_objective(key, bonus=self.bonus_c.value, **values)
        before = [o for o in chosen[:at] if o.key != key]
        after = [o for o in chosen[at + 1:] if o.key != key]
        return tuple(before + [edited] + after), len(before)

    def _add_objective(self, e: Encounter) -> Encounter:
        """Another objective, then edited by the controls (one already chosen is only picked for editing)."""
        key = self.add_objective_c.value
        keys = [o.key for o in e.objectives]
        if key in keys:
            self.editing = keys.index(key)
            return e
        self.editing = len(keys)
        return e.model_copy(update={"objectives": e.objectives + (choose_objective(key),)})

    def _mark_attack(self, e: Encounter, key: tuple[Any, ...], ability: str) -> Encounter:
        """The ability a kind of creature uses each turn in the pace ("" : its signature), kept on the
        creature so the encounter file saves it."""
        return e.model_copy(update={"creatures": tuple(
            c.model_copy(update={"attack": ability}) if c.stat_block == key else c for c in e.creatures)})

    def _edit_objective(self, e: Encounter, index: int) -> Encounter:
        self.editing = index
        return e

    def _remove_objective(self, e: Encounter, index: int) -> Encounter:
        if index <= self.editing:
            self.editing = max(self.editing - 1, 0)
        return e.model_copy(update={"objectives": e.objectives[:index] + e.objectives[index + 1:]})

    def _sync_objectives(self) -> None:
        """The objective controls as the encounter says: the edited objective in the dropdown with its
        conditions and bonus, a row per objective once there are two, and the combined/alternative choice."""
        chosen = self.encounter.objectives
        self.editing = min(self.editing, max(len(chosen) - 1, 0))
        edited = chosen[self.editing] if chosen else None
        shown = (self.editing, chosen)
        if shown == self._objective_shown:
            return
        self._objective_shown = shown
        self._busy = True
        try:
            self.objective_c.value = edited.key if edited else ""
            self.bonus_c.value = bool(edited and edited.bonus)
            self.mode_c.value = self.encounter.objective_mode
            if self._conditions_for != (self.editing, self.objective_c.value):  # not while a box is ticked
                self._build_conditions()
        finally:
            self._busy = False
        for row in self.objective_rows.children:
            for child in getattr(row, "children", ()):
                self._actions.pop(id(child), None)
            row.close()
        rows = []
        for i, o in enumerate(chosen if len(chosen) > 1 else ()):
            name = html.escape(self.rules.objectives[o.key].name)
            line = widgets.HBox([
                widgets.HTML(f"<b>{name}</b> <small>(editing)</small>" if i == self.editing else name,
                             layout={"width": "260px"}),
                self._button("Edit", ("edit_objective", i), "edit this objective's conditions", "wb-objective-edit"),
                self._button("Remove", ("remove_objective", i), "remove this objective", "wb-objective-remove"),
            ])
            line.add_class("wb-objective-row")
            rows.append(line)
        self.objective_rows.children = tuple(rows)
        self.mode_box.layout.display = "" if len(chosen) > 1 else "none"

    def _terrain_level(self) -> int | None:
        """The object's level as typed (blank: not given, and "Use only objects of the heroes' level or
        lower" cannot be checked for it)."""
        text = self.terrain_level_c.value.strip()
        if not text:
            return None
        if not (text.isascii() and text.isdigit() and len(text) <= 3 and int(text) >= 1):
            raise InvalidInput("terrain_level", self.terrain_level_c.value, "one level from 1 upwards, or blank")
        return int(text)

    def _terrain_name(self) -> str:
        if not self.terrain_name_c.value.strip():
            raise InvalidInput("terrain", self.terrain_name_c.value, "a name for the dynamic terrain object")
        return str(self.terrain_name_c.value.strip())

    def _add_monster(self) -> Encounter:
        monster = self.monster_c.value
        if monster is None:
            raise InvalidInput("monster", "", "a monster from the list (pass some in, or load the library)")
        return self.encounter.adding(creature_from_monster(monster, self.count_c.value, star=self.star_c.value))

    def _add_stat_block(self, stat_block: PublishedMonster, count: int) -> None:
        """The bestiary browser's "Add to encounter", passed through the one observer like any click."""
        stand_in = self._click_of(("add_stat_block", stat_block, count))
        self._changed(stand_in)
        self._actions.pop(id(stand_in), None)
        stand_in.close()

    def _use_bestiary(self, bestiary: Bestiary) -> None:
        """The folder the browser loaded becomes the bestiary that suggestions come from (and its keywords)."""
        self.bestiary = bestiary
        self.suggestion_key = ()
        self._set_keywords(ANY)

    def _set_keywords(self, keep: str) -> None:
        """The keyword picker offers the keywords of the bestiary and the loaded library; `keep` stays chosen
        when it is still offered."""
        keywords = all_keywords([*self.bestiary.monsters, *self.library])
        self._busy = True
        try:
            self.keyword_c.options = [("any keyword", ANY)] + [(k, k) for k in keywords]
            self.keyword_c.value = keep if keep in keywords else ANY
        finally:
            self._busy = False

    def _adding_stat_block(self, stat_block: PublishedMonster, count: int) -> Encounter:
        """More of an entry already bought, or a new entry."""
        creature = self._whole_creature(creature_from_stat_block(stat_block, count), stat_block)
        e = self.encounter
        same = [i for i, c in enumerate(e.creatures) if c.stat_block == creature.stat_block]
        if same:
            return step_count(e, same[0], count // count_step(creature))
        return e.adding(creature)

    def _load_library(self) -> str:
        contents = load_library(self.folder_c.value.strip() or None)
        found, problems = contents.named_monsters(), contents.problem_lines()
        self.monsters = self.monsters + found
        self.library = self.library + found
        self.suggestion_key = ()
        self._set_keywords(self.keyword_c.value)
        self._set_monsters(self.monsters)
        note = f"{len(found)} monster(s) loaded from the library"
        return note + (f"; skipped: {', '.join(problems)}" if problems else "")

    def _suggest(self) -> Encounter:
        """The next of ten suggestions for this party, difficulty and keyword (asked again when they change),
        keeping the locked rows as they are and filling the rest of the band."""
        e = self.encounter
        keywords = () if self.keyword_c.value == ANY else (self.keyword_c.value,)
        kept = tuple(c for c in e.creatures if c.stat_block in self.locked)
        key = (e.party, self.difficulty_c.value, keywords, kept)
        # the bestiary and the Director's own library ("A bestiary is ... and the homebrew library")
        pool: list[PublishedMonster | Monster] = [*self.bestiary.monsters, *self.library]
        if key != self.suggestion_key:
            self.suggestions = suggest_encounters(e.party, self.difficulty_c.value, pool, keywords,
                                                  count=SUGGESTIONS, rng=random.Random(len(pool)), keep=kept,
                                                  quick_levels=True)
            self.suggestion_key, self.next_suggestion = key, 0
        chosen = self.suggestions[self.next_suggestion % len(self.suggestions)]
        self.next_suggestion += 1
        creatures = []
        for creature in chosen.creatures:
            block = next((b for b in self.bestiary.monsters
                          if b.name == creature.name and b.level == creature.level), None)
            creatures.append(creature if block is None or creature in kept else self._whole_creature(creature, block))
        return e.model_copy(update={"creatures": tuple(creatures), "groups": chosen.encounter.groups})

    def _whole_creature(self, creature: Creature, block: PublishedMonster) -> Creature:
        """The creature a published stat block's header stands in for, carrying the block whole (read once);
        the header's when the file does not read whole."""
        key = (block.shelf, block.file)
        if key not in self.whole:
            self.whole[key] = whole_stat_block(self.bestiary, block)
        whole = self.whole[key]
        if whole is None:
            return creature
        return creature_from_monster(whole, creature.count, creature.star).model_copy(update={"attack": creature.attack})

    def _save(self) -> str:
        if not self.path_c.value.strip():
            raise InvalidInput("file", self.path_c.value, "a file name ending in .json")
        # with `files_folder` (a page's: the Director's workspace) the box names a file in it, a relative name
        # taken there; a file outside it, in the shipped data or of another kind (a monster) is refused
        try:
            saved = save_encounter(self.state(), self.path_c.value.strip(), overwrite=self.overwrite_c.value,
                                   inside=self.files_folder)
        except InvalidInput as exc:
            if exc.field == "file" and exc.reason == "the file exists":  # the library's advice is for scripts
                raise InvalidInput("file", self.path_c.value.strip(),
                                   f"a new name, or tick “{self.overwrite_c.description}” to replace it",
                                   "a file of that name exists already") from None
            raise
        self._list_saved(saved)
        return f"Saved to {shown_path(saved.absolute())}"

    def _saved_files(self) -> list[tuple[str, str]]:
        """The encounter files in the files folder (name, path), newest first; none without a files folder."""
        if self.files_folder is None:
            return []
        folder = Path(self.files_folder).expanduser()
        try:
            files = sorted((p for p in folder.glob("*.json") if p.is_file()),
                           key=lambda p: p.stat().st_mtime_ns, reverse=True)
        except OSError:
            return []
        return [(p.stem, str(p)) for p in files]

    def _list_saved(self, chosen: Path | None = None) -> None:
        options = self._saved_files()
        self._busy = True
        try:
            self.saved_c.options = options
            self.saved_c.value = str(chosen) if chosen is not None and str(chosen) in dict(options).values() else None
        finally:
            self._busy = False

    def _where_words(self) -> str:
        """Where encounters are saved and, once a name is typed, the file Save will write: the Director sees the
        whole path before saving, and the line changes only when the kernel has the typed name."""
        if self.files_folder is None:
            return ""
        folder = Path(self.files_folder).expanduser().absolute()
        words = (f'<small>Encounters are saved in <b class="wb-files-folder">{html.escape(shown_path(folder))}</b>; '
                 "a name alone saves there.")
        typed = self.path_c.value.strip()
        if typed:
            target = Path(typed).expanduser()
            target = target if target.is_absolute() else folder / target
            words += f' Save writes <b class="wb-save-target">{html.escape(shown_path(target))}</b>.'
        return words + "</small>"

    def _open(self) -> Encounter:
        if not self.saved_c.value:
            raise InvalidInput("saved encounter", "", "an encounter picked in the Saved encounters list")
        self.path_c.value = Path(self.saved_c.value).name
        return self._load()

    def _lock(self, index: int) -> Encounter:
        key = self.encounter.creatures[index].stat_block
        self.locked ^= {key}
        return self.encounter

    def _undo(self) -> Encounter:
        if not self.history:
            raise InvalidInput("undo", "", "a change to take back (there is none left)")
        before, locked = self.history.pop()
        self.locked = set(locked)
        self._put_party(before)
        return before

    def _load(self) -> Encounter:
        typed = Path(self.path_c.value.strip()).expanduser()
        if self.files_folder is not None and not typed.is_absolute():
            typed = Path(self.files_folder).expanduser() / typed
        loaded = load_encounter(typed)
        self._put_party(loaded)
        self.locked = {c.stat_block for c in loaded.creatures}
        self.editing = 0
        return loaded

    def _put_party(self, loaded: Encounter) -> None:
        """The party controls show `loaded`'s party (without reacting to themselves)."""
        hero = [m.level for m in loaded.party.members if m.kind == "hero"]
        self._busy = True
        try:
            self.heroes_c.value = len(hero)
            if len(set(hero)) == 1:
                self.level_c.value, self.mixed_c.value = hero[0], ""
            else:
                self.mixed_c.value = ", ".join(map(str, hero))
            self.retainers_c.value = _levels_of(loaded.party, "retainer")
            self.allies_c.value = _levels_of(loaded.party, "ally")
            self.victories_c.value = format_number(loaded.party.victories)
            if loaded.aim:
                self.difficulty_c.value = loaded.aim
        finally:
            self._busy = False

    # ---------------------------------------------------------------- showing

    def _stat_block(self, creature: Creature) -> Any:
        """The creature's stat block: the whole one it carries."""
        return creature.monster

    def _view(self, encounter: Encounter | None = None, lenient: bool = False) -> EncounterView:
        """The view of `encounter` (the current one by default); `lenient` shows it without the pace when the
        Stamina box holds what was just refused (the refusal is on the page, the rest stays as it was)."""
        e = encounter or self.encounter
        try:
            staminas = hero_staminas(self.stamina_c.value, e.party.size)
        except InvalidInput:
            if not lenient:
                raise
            staminas = ()
        marked = {c.stat_block: c.attack for c in e.creatures if c.attack}
        return encounter_view(e, self.difficulty_c.value, staminas, self.damage_c.value, self._stat_block, marked)

    def _show(self, view: EncounterView) -> None:
        self.plot.show(view.figure)
        if view.pace_figure is not None:
            self.pace_plot.show(view.pace_figure)
        elif self.pace_plot.figure is not None:
            self.pace_plot.children = (widgets.HTML(),)
        for name, pane in getattr(self, "panes", {}).items():
            pane.value = getattr(view, name)
        self._busy = True
        try:
            self.groups_c.value = format_groups(self.encounter.groups)
        finally:
            self._busy = False
        if hasattr(self, "rows_box"):
            self._show_rows(view)
        if hasattr(self, "attack_box"):
            self._show_attacks(view)

    def _show_attacks(self, view: EncounterView) -> None:
        """A picker per kind of creature whose whole stat block has another damaging ability (rebuilt only when
        the kinds or their choices change; a pick just moves the numbers)."""
        choosing = tuple(a for a in view.attacks if a.others)
        shape = tuple((a.key, a.label, a.signature, a.others) for a in choosing)
        if shape != getattr(self, "_attacks_shown", None):
            self._attacks_shown = shape
            for old in self.attack_box.children:
                self._actions.pop(id(old), None)
                old.close()
            pickers = []
            for a in choosing:
                picker = widgets.Dropdown(
                    options=[(f"{a.signature} (signature)", "")] + [(name, name) for name in a.others],
                    value=a.chosen if a.chosen in a.others else "", description=f"{a.label} uses",
                    style={"description_width": "initial"}, layout={"width": "auto"},
                )
                self._actions[id(picker)] = ("attack", a.key)
                picker.observe(self._changed, names="value")
                pickers.append(picker)
            self.attack_box.children = tuple(pickers)

    def _button(self, label: str, action: tuple[Any, ...], tip: str, css: str) -> widgets.Button:
        button = widgets.Button(description=label, tooltip=tip, layout={"width": "auto"})
        button.add_class(css)
        self._actions[id(button)] = action
        button.on_click(self._changed)
        return button

    def _show_rows(self, view: EncounterView) -> None:
        """Show the rows, rebuilding only those that changed: the unchanged creature rows at the top are kept
        (adding a creature builds one row, not all of them; a party change builds none)."""
        old = getattr(self, "_rows_shown", ((), (), -1))
        if (view.rows, view.terrain, view.group_count) == old:
            return
        keep = 0
        if view.group_count == old[2]:
            while keep < min(len(view.rows), len(old[0])) and view.rows[keep] == old[0][keep]:
                keep += 1
        self._rows_shown = (view.rows, view.terrain, view.group_count)
        kept = list(self.rows_box.children[:keep]) if old[0] else []
        for row in self.rows_box.children[len(kept):]:
            for child in getattr(row, "children", ()):
                self._actions.pop(id(child), None)
            row.close()
        rows = kept + [self._row(i, r, view.group_count) for i, r in enumerate(view.rows) if i >= len(kept)]
        for i, label in enumerate(view.terrain):
            rows.append(widgets.HBox([
                widgets.HTML(html.escape(label), layout={"width": ROW_LABEL_WIDTH}),
                self._button("Remove", ("remove_terrain", i), "remove this object", "wb-row-remove"),
            ]))
        if not rows:
            rows.append(widgets.HTML("<i>No creatures yet: add some from the bestiary, or ask for a "
                                     "suggestion.</i>"))
        self.rows_box.children = tuple(rows)
        self._show_locks()

    def _show_locks(self) -> None:
        """Each creature row's lock as `locked` has it (rows kept from before included)."""
        self._busy = True
        try:
            for creature, row in zip(self.encounter.creatures, self.rows_box.children, strict=False):
                kids: tuple[Any, ...] = tuple(getattr(row, "children", ()))
                if len(kids) > 8:
                    on = creature.stat_block in self.locked
                    kids[8].value, kids[8].description = on, LOCK_WORDS[on]
        finally:
            self._busy = False

    def _row(self, i: int, r: RowView, group_count: int) -> widgets.HBox:
        """One creature row: name, − count +, its EV, the star toggle, its group and Remove."""
        options = [("no group", NO_GROUP)] + [(f"group {n}", n) for n in range(1, group_count + 1)]
        options.append((f"new group {group_count + 1}", group_count + 1))
        star = widgets.ToggleButton(value=r.star, description="★ star" if r.star else "☆ star",
                                    tooltip="star of the show", layout={"width": "auto"})
        star.add_class("wb-row-star")
        self._actions[id(star)] = ("star", i)
        star.observe(self._changed, names="value")
        lock = widgets.ToggleButton(value=False, description=LOCK_WORDS[False], icon="lock", layout={"width": "auto"},
                                    tooltip="a locked row stays when you ask for a suggestion")
        lock.add_class("wb-row-lock")
        self._actions[id(lock)] = ("lock", i)
        lock.observe(self._changed, names="value")
        group = widgets.Dropdown(
            options=options + ([("split between groups", SPLIT)] if r.group == SPLIT else []),
            value=r.group, layout={"width": "170px"},
        )
        group.add_class("wb-row-group")
        self._actions[id(group)] = ("group", i)
        group.observe(self._changed, names="value")
        line = widgets.HBox([
            widgets.HTML(f'<span class="wb-row-label"><b>{html.escape(r.label)}</b> '
                         f"<small>{html.escape(r.kind)}</small></span>", layout={"width": ROW_LABEL_WIDTH}),
            self._button("−", ("minus", i), "fewer (minions by four)", "wb-row-minus"),
            widgets.HTML(f'<b class="wb-row-count" data-count="{r.count}">{r.count}</b>'),
            self._button("+", ("plus", i), "more (minions by four)", "wb-row-plus"),
            widgets.HTML(f'<span class="wb-row-ev">EV {html.escape(r.cost)}</span>', layout={"width": "80px"}),
            star,
            group,
            self._button("Remove", ("remove", i), "remove this entry", "wb-row-remove"),
            lock,
        ])
        line.add_class("wb-encounter-row")
        return line

    def _click_of(self, action: tuple[Any, ...]) -> widgets.Button:
        """A stand-in button for the bestiary's "Add", so every edit goes through the one observer."""
        button = widgets.Button()
        self._actions[id(button)] = action
        return button

    # ---------------------------------------------------------------- layout

    def _layout(self) -> list[widgets.Widget]:
        wrap = widgets.Layout(flex_flow="row wrap")
        party_box = widgets.VBox([
            widgets.HTML("<b>The party</b>"),
            widgets.HBox([self.heroes_c, self.level_c, self.difficulty_c], layout=wrap),
            widgets.HBox([self.mixed_c, self.retainers_c, self.allies_c, self.victories_c], layout=wrap),
            self.panes["budget"],
        ])
        editor_box = widgets.VBox([
            widgets.HTML("<b>The encounter</b>"),
            widgets.HBox([self.keyword_c, self.suggest_encounter_b, self.undo_b], layout=wrap),
            self.rows_box,
            widgets.HBox([self.suggest_b, self.clear_groups_b], layout=wrap),
        ])
        shortcuts = widgets.VBox([
            widgets.HBox([self.spec_c, self.add_spec_b, self.star_c], layout=wrap),
            widgets.HBox([self.monster_c, self.count_c, self.add_monster_b], layout=wrap),
            widgets.HBox([self.folder_c, self.load_library_b], layout=wrap),
            widgets.HBox([self.terrain_name_c, self.terrain_ev_c, self.terrain_level_c, self.add_terrain_b],
                         layout=wrap),
            widgets.HBox([self.groups_c, self.apply_groups_b], layout=wrap),
            self.panes["creatures"],
        ])
        more = widgets.VBox([widgets.HTML("<b>Shortcuts</b>: a typed spec, your own monsters, dynamic terrain, "
                                          "initiative groups typed"), shortcuts])
        pace_box = widgets.VBox([
            widgets.HBox([self.stamina_c, self.damage_c], layout=wrap),
            self.attack_box,
            self.panes["pace"],
            self.pace_plot,
        ])
        tabs = widgets.Tab(children=[
            widgets.VBox([self.panes["checks"], self.panes["respite"]]), self.panes["groups"],
            widgets.VBox([self.objective_c, self.condition_box, self.objective_rows,
                          widgets.HBox([self.add_objective_c, self.add_objective_b], layout=wrap),
                          self.mode_box, self.panes["objectives"]]),
            self.panes["quick"], pace_box,
        ])
        for i, title in enumerate(("Guidelines", "Initiative groups", "Objective", "Quick method",
                                   "Pace of the fight")):
            tabs.set_title(i, title)
        browser = widgets.VBox([widgets.HTML("<b>The bestiary</b>"), self.browser],
                               layout={"flex": f"1 1 {BESTIARY_WIDTH}", "min_width": "0"})
        browser.add_class("wb-encounter-bestiary")
        self.browser.rows.layout.max_width = "100%"  # the list narrows with the column rather than overflow it
        editor_box.layout = widgets.Layout(flex=f"1 1 {ROWS_WIDTH}", min_width="0")
        # the bestiary beside the creatures it adds to when the window has room for both (about 1400 px), under
        # them when not; the chart and the checks after
        side = widgets.HBox([editor_box, browser], layout={"flex_flow": "row wrap", "align_items": "flex-start",
                                                           "grid_gap": "0 24px"})
        side.add_class("wb-encounter-side")
        return [
            party_box, self.message, self.panes["summary"], side, self.plot, tabs, more,
            widgets.HBox([self.path_c, self.overwrite_c, self.save_b, self.load_b], layout=wrap),
            widgets.HBox([self.saved_c, self.open_b], layout=wrap), self.where_c,
        ]

    def _controls(self) -> dict[str, Any]:
        return {
            "heroes": self.heroes_c, "level": self.level_c, "mixed": self.mixed_c, "retainers": self.retainers_c,
            "allies": self.allies_c, "victories": self.victories_c, "difficulty": self.difficulty_c,
            "objective": self.objective_c, "conditions": self.condition_c, "bonus": self.bonus_c,
            "add_objective_choice": self.add_objective_c, "add_objective": self.add_objective_b,
            "objective_mode": self.mode_c, "objective_rows": self.objective_rows,
            "spec": self.spec_c, "add_spec": self.add_spec_b, "monster": self.monster_c, "count": self.count_c,
            "star": self.star_c, "add_monster": self.add_monster_b, "folder": self.folder_c,
            "load_library": self.load_library_b, "terrain_name": self.terrain_name_c,
            "terrain_ev": self.terrain_ev_c, "terrain_level": self.terrain_level_c, "add_terrain": self.add_terrain_b, "suggest": self.suggest_b,
            "clear_groups": self.clear_groups_b, "groups_text": self.groups_c, "apply_groups": self.apply_groups_b,
            "keyword": self.keyword_c, "suggest_encounter": self.suggest_encounter_b, "hero_stamina": self.stamina_c,
            "party_damage": self.damage_c, "path": self.path_c, "overwrite": self.overwrite_c, "save": self.save_b,
            "saved": self.saved_c, "open": self.open_b, "undo": self.undo_b,
            "load": self.load_b, "message": self.message, "plot": self.plot, "pace_plot": self.pace_plot,
            "rows": self.rows_box, "browser": self.browser, "abilities": self.attack_box, **self.panes,
        }

    def state(self) -> Encounter:
        """The encounter shown, with the difficulty aimed for."""
        if self.encounter.aim != self.difficulty_c.value:
            self.encounter = self.encounter.model_copy(update={"aim": self.difficulty_c.value})
        return self.encounter

    def row_buttons(self, index: int) -> dict[str, widgets.Widget]:
        """Row `index`'s controls by name (for scripts and tests): minus, plus, star, group, remove."""
        row = self.rows_box.children[index]
        kids = row.children
        return {"minus": kids[1], "plus": kids[3], "star": kids[5], "group": kids[6], "remove": kids[7],
                "lock": kids[8]}


def encounter_app(
    monsters: Sequence[Monster] = (),
    heroes: int = 5,
    level: int = 3,
    victories: int = 0,
    difficulty: str = "standard",
    encounter: Encounter | None = None,
    library_folder: str | Path | None = None,
    bestiary: Bestiary | None = None,
    files_folder: str | Path | None = None,
    open_in_builder: Callable[[Bestiary, PublishedMonster], str] | None = None,
) -> EncounterEditor:
    """The party and encounter editor with the bestiary, live guidelines, groups, objectives, the quick method
    and the pace of the fight. `monsters` (from the builder, say) fill the Monster list; `encounter` starts
    the editor with an existing encounter (its party replaces the controls' values); `bestiary` is the shipped
    sample unless given; `files_folder`: the folder its File box saves in and loads from (a page's is the
    Director's workspace: a file outside it is refused); `open_in_builder(bestiary, stat_block)`, when given,
    is the bestiary's "Open in the builder" (it returns the words to show)."""
    if difficulty not in DIFFICULTIES:
        raise InvalidInput("difficulty", difficulty, "one of " + ", ".join(DIFFICULTIES))
    return EncounterEditor(monsters, heroes, level, victories, difficulty, encounter, library_folder, bestiary,
                           files_folder, open_in_builder)
