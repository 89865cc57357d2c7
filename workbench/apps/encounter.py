"""The encounter editor: a party, the creatures bought for it as rows, the book's guidelines checked live, and
the pace of the fight.

`EncounterEditor` composes panels that each own their controls (the party, the creature rows, the bestiary
browser, the suggestions, the shortcuts, the groups, the objectives, the pace, the files) and hears them all
through one handler, `_changed`: a control's new value or a button's click is an action, which becomes one
call of the library (`workbench.encounter.editing` for counts, stars and groups, `suggest_groups`,
`suggest_encounters`, `parse_spec`, the files); then the same view (`encounter_view`) is shown. A refusal
shows why and changes nothing. Creatures come from the bestiary browser ("Add to encounter"), from monsters
passed in or loaded from the homebrew library, or from a typed spec (a shortcut); "Suggest" fills the editor
with a proposal that keeps every guideline.

The tab in view (Guidelines) is made with the editor; the other tabs' panels (the objectives, the pace) and the
shortcuts (folded away) are made when the Director first opens them (`workbench.apps.lazy_panels`): the editor
opens with the widgets it shows, and the browser draws no more.

A page keeps the encounter by hearing `edits`, the count of the changes the editor has made (any of its panels').

The returned widget carries `controls` (its controls by name, for scripts and tests: asking for a control of a
panel not made yet makes it) and `state()` (the current Encounter).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import traitlets

from workbench.apps.actions import Action, Actions
from workbench.apps.bestiary import BestiaryBrowser
from workbench.apps.chart_slot import ChartSlot
from workbench.apps.encounter_files import FilesPanel
from workbench.apps.encounter_groups import GroupsPanel
from workbench.apps.encounter_objectives import ObjectivesPanel
from workbench.apps.encounter_pace import PacePanel
from workbench.apps.encounter_party import PartyPanel
from workbench.apps.encounter_rows import CreatureRows
from workbench.apps.encounter_shortcuts import ShortcutsPanel
from workbench.apps.encounter_suggest import ANY, SuggestPanel
from workbench.apps.encounter_view import (
    AttackView,
    EncounterView,
    RowView,
    encounter_view,
    hero_staminas,
    party_from_controls,
)
from workbench.apps.lazy_panels import LazyControls, LazyPanels
from workbench.apps.message import refusal_html
from workbench.apps.quiet import Quiet
from workbench.apps.share_panel import encounter_share
from workbench.encounter.editing import SPLIT, assign_group, count_step, set_star, step_count
from workbench.encounter.encounter import Creature, Encounter, creature_from_monster
from workbench.encounter.groups import suggest_groups
from workbench.encounter.party import make_party
from workbench.encounter.suggest import creature_from_stat_block
from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.bestiary import Bestiary, PublishedMonster, sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.model import Monster
from workbench.monster.library import load_library
from workbench.render.escape import Markup
from workbench.render.message import error_html
from workbench.rules.encounter_tables import DIFFICULTIES, encounter_rules

__all__ = ["SHORTCUTS", "AttackView", "EncounterEditor", "EncounterView", "RowView", "encounter_app", "encounter_view",
           "hero_staminas", "party_from_controls"]

FILE_ACTIONS = ("save", "load", "open")  # their words show under the file box
UNDO_DEPTH = 50  # changes to the creatures Undo can take back
# the widths below which the creature rows and the bestiary would be cramped: with room for both side by side
# (a window 1280 px wide or more) the bestiary sits beside the rows, else under them
ROWS_WIDTH = "780px"
BESTIARY_WIDTH = "440px"
PANES = ("summary", "checks", "groups", "quick", "respite", "creatures")  # the view's words the editor shows
OBJECTIVE_TAB, PACE_TAB = 2, 4  # the tabs whose panels are made when first opened
SHORTCUTS = "Shortcuts: a typed spec, your own monsters, dynamic terrain, initiative groups typed"


class EncounterEditor(widgets.VBox):
    """The editor's widget. `controls` names every control; `state()` is the Encounter shown; `edits` counts the
    changes handled (a page observes it to keep the encounter)."""

    edits = traitlets.Int(0)  # the kernel's own: not sent to the browser

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
        self.monsters = list(monsters)
        self._first_from = ""  # after the Monster list's first name: where it comes from (`offer`)
        self.library: list[Monster] = []  # the homebrew library's monsters, once loaded: suggestions use them too
        party = encounter.party if encounter is not None else make_party(heroes=heroes, level=level,
                                                                          victories=victories)
        self.encounter = encounter or Encounter(party=party)
        difficulty = self.encounter.aim or difficulty  # a saved encounter says what it aimed for
        self.bestiary = bestiary if bestiary is not None else sample_bestiary()
        # a published stat block's (shelf, file) -> the block whole, read once
        self.whole: dict[tuple[str, str], Monster | None] = {}
        # the rows a suggestion keeps (by stat block): those the Director added by hand start locked
        self.locked: set[tuple[Any, ...]] = {c.stat_block for c in self.encounter.creatures}
        self.history: list[tuple[Encounter, frozenset[tuple[Any, ...]]]] = []  # for Undo, the latest last
        self._quiet = Quiet()  # raised while the editor writes its own controls
        self.actions = Actions(self._changed, self._quiet)
        self.party = PartyPanel(party, difficulty, self.actions, self._quiet)
        self.library_folder = library_folder
        # the panels made when first opened (None till then)
        self._objectives: ObjectivesPanel | None = None
        self._pace: PacePanel | None = None
        self._shortcuts: ShortcutsPanel | None = None
        self.suggester = SuggestPanel(self.bestiary.monsters, self.actions, self._quiet)
        self.groups = GroupsPanel(self.actions, self._quiet)
        self.files = FilesPanel(files_folder, self.actions, self._quiet)
        self.undo = self.actions.click(widgets.Button(description="Undo", icon="undo", disabled=True,
                                                      tooltip="take the last change to the creatures back"),
                                       ("undo",))
        self.message = widgets.HTML(_dom_classes=("wb-encounter-message",))
        self.browser = BestiaryBrowser(self.bestiary, on_add=self._add_stat_block, on_load=self._use_bestiary,
                                       on_open=open_in_builder)
        first = self._view()
        self.shown = first  # the view last shown: a panel made later starts from it
        self.plot = ChartSlot(first.figure, "wb-budget-chart")
        # made with the first view's words and their classes: the browser is sent each once, as it is
        classes = {"summary": ("wb-encounter-summary",), "checks": ("wb-checks",)}
        self.panes = {name: widgets.HTML(getattr(first, name), _dom_classes=classes.get(name, ())) for name in PANES}
        self.rows = CreatureRows(self.actions, self._quiet)
        self._show(first, chart=False)  # the slot already shows its chart
        self.tabs = LazyPanels(widgets.Tab, [
            ("Guidelines", lambda: widgets.VBox([self.panes["checks"], self.panes["respite"]])),
            ("Initiative groups", lambda: self.panes["groups"]),
            ("Objective", self._make_objectives),
            ("Quick method", lambda: self.panes["quick"]),
            ("Pace of the fight", self._make_pace),
        ])
        self.more = LazyPanels(widgets.Accordion, [(SHORTCUTS, self._make_shortcuts)], selected=None,
                               css_class="wb-encounter-shortcuts")
        super().__init__(self._layout(), _dom_classes=("wb-encounter-app",))
        self.controls = self._controls()

    # ---------------------------------------------------------------- the one handler

    def _changed(self, action: Action) -> None:
        """Every control's new value and every click: one library call, then the view. A refusal says why, beside
        the controls it is about (Save, Load and Open's under the file box; the others' at the top)."""
        said, other = ((self.files.said, self.message) if action[0] in FILE_ACTIONS
                       else (self.message, self.files.said))
        other.value = ""
        try:
            result = self._do(action)
            view = self._view(result if isinstance(result, Encounter) else None)
        except (WorkbenchError, OSError) as exc:
            said.value = refusal_html(exc) if isinstance(exc, WorkbenchError) else error_html(str(exc))
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
        self.undo.disabled = not self.history
        if self._objectives is not None:
            self._objectives.show(self.encounter)
        said.value = (Markup('<span class="wb-ok" data-tone="ok">{}</span>').format(result)
                      if isinstance(result, str) else "")
        self._show(view)
        self.rows.show_locks(self.encounter.creatures, self.locked)
        self.edits += 1

    def _do(self, action: Action) -> Encounter | str | None:
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
            "apply_groups": lambda: self.groups.groups(e),
            "add_spec": lambda: e.adding(self.shortcuts.spec_creature()),
            "add_monster": lambda: e.adding(self.shortcuts.monster_creature()),
            "add_stat_block": lambda: self._adding_stat_block(*args),
            "add_terrain": lambda: e.adding(self.shortcuts.terrain()),
            "load_library": self._load_library,
            "suggest_encounter": self._suggest,
            "add_objective": lambda: self.objectives.adding(e),
            "attack": lambda: self._mark_attack(e, args[0], args[1]),
            "edit_objective": lambda: self.objectives.editing_one(e, args[0]),
            "remove_objective": lambda: self.objectives.removing(e, args[0]),
            "save": self._save,
            "load": lambda: self._loaded(self.files.loading()),
            "open": lambda: self._loaded(self.files.opening()),
            "opened": lambda: self._loaded(args[0]),
            "undo": self._undo,
            "lock": lambda: self._lock(args[0]),
        }
        return calls[name]()

    # ---------------------------------------------------------------- what the actions call

    def _from_controls(self, e: Encounter) -> Encounter:
        party = self.party.party()
        if self._pace is not None:
            hero_staminas(self._pace.stamina.value, party.size)  # refused here, beside its box, before any change
        o = self._objectives
        if o is None:  # not opened: the objectives stay as they are
            return e.model_copy(update={"party": party, "aim": self.party.difficulty.value})
        objectives, editing = o.chosen(e)
        changed = e.model_copy(update={"party": party, "objectives": objectives,
                                       "objective_mode": o.objective_mode(), "aim": self.party.difficulty.value})
        o.editing = editing
        return changed

    def _mark_attack(self, e: Encounter, key: tuple[Any, ...], ability: str) -> Encounter:
        """The ability a kind of creature uses each turn in the pace ("" : its signature), kept on the
        creature so the encounter file saves it."""
        return e.model_copy(update={"creatures": tuple(
            c.model_copy(update={"attack": ability}) if c.stat_block == key else c for c in e.creatures)})

    def _add_stat_block(self, stat_block: PublishedMonster, count: int) -> None:
        """The bestiary browser's "Add to encounter", passed through the one handler like any click."""
        if not self._quiet:
            self._changed(("add_stat_block", stat_block, count))

    def _use_bestiary(self, bestiary: Bestiary) -> None:
        """The folder the browser loaded becomes the bestiary that suggestions come from (and its keywords)."""
        self.bestiary = bestiary
        self.suggester.forget()
        self.suggester.set_keywords([*self.bestiary.monsters, *self.library], ANY)

    def _adding_stat_block(self, stat_block: PublishedMonster, count: int) -> Encounter:
        """More of an entry already bought, or a new entry."""
        creature = self._whole_creature(creature_from_stat_block(stat_block, count), stat_block)
        e = self.encounter
        same = [i for i, c in enumerate(e.creatures) if c.stat_block == creature.stat_block]
        if same:
            return step_count(e, same[0], count // count_step(creature))
        return e.adding(creature)

    def _load_library(self) -> str:
        contents = load_library(self.shortcuts.folder.value.strip() or None)
        found, problems = contents.named_monsters(), contents.problem_lines()
        self.monsters = self.monsters + found
        self.library = self.library + found
        self.suggester.forget()
        self.suggester.set_keywords([*self.bestiary.monsters, *self.library], self.suggester.keyword.value)
        self.shortcuts.set_monsters(self.monsters, self._first_from)
        note = f"{len(found)} monster(s) loaded from the library"
        return note + (f"; skipped: {', '.join(problems)}" if problems else "")

    def _suggest(self) -> Encounter:
        """The next suggestion, keeping the locked rows as they are; its published creatures carry their
        stat blocks whole."""
        e = self.encounter
        kept = tuple(c for c in e.creatures if c.stat_block in self.locked)
        # the bestiary and the Director's own library ("A bestiary is ... and the homebrew library")
        pool: list[PublishedMonster | Monster] = [*self.bestiary.monsters, *self.library]
        chosen = self.suggester.suggestion(e, self.party.difficulty.value, kept, pool)
        creatures = []
        for creature in chosen.creatures:
            block = next((b for b in self.bestiary.monsters
                          if b.name == creature.name and b.level == creature.level), None)
            creatures.append(creature if block is None or creature in kept else self._whole_creature(creature, block))
        return e.model_copy(update={"creatures": tuple(creatures), "groups": chosen.encounter.groups})

    def _save(self) -> str:
        """Save the encounter; saved under a name, it is known by it from now on."""
        said = self.files.saving(self.state())
        self.encounter = self.files.named(self.encounter)
        return said

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

    def _lock(self, index: int) -> Encounter:
        key = self.encounter.creatures[index].stat_block
        self.locked ^= {key}
        return self.encounter

    def _undo(self) -> Encounter:
        if not self.history:
            raise InvalidInput("undo", "", "a change to take back (there is none left)")
        before, locked = self.history.pop()
        self.locked = set(locked)
        self.party.show(before)
        return before

    def _loaded(self, loaded: Encounter) -> Encounter:
        """A saved encounter opened: its party in the controls, its rows locked, its first objective edited."""
        self.party.show(loaded)
        self.locked = {c.stat_block for c in loaded.creatures}
        if self._objectives is not None:
            self._objectives.editing = 0
        return loaded

    # ---------------------------------------------------------------- showing

    def _view(self, encounter: Encounter | None = None, lenient: bool = False) -> EncounterView:
        """The view of `encounter` (the current one by default); `lenient` shows it without the pace when the
        Stamina box holds what was just refused (the refusal is on the page, the rest stays as it was)."""
        e = encounter or self.encounter
        pace = self._pace
        staminas = pace.staminas(e.party.size, lenient) if pace is not None else ()
        marked = {c.stat_block: c.attack for c in e.creatures if c.attack}
        return encounter_view(e, self.party.difficulty.value, staminas, pace.damage.value if pace is not None else 0,
                              abilities=marked)

    def _show(self, view: EncounterView, chart: bool = True) -> None:
        self.shown = view
        if chart:
            self.plot.show(view.figure)
        for name, pane in self.panes.items():
            pane.value = getattr(view, name)
        self.party.budget.value = view.budget
        if self._objectives is not None:
            self._objectives.said.value = view.objectives
        if self._pace is not None:
            self._pace.show(view)
        self.groups.show(self.encounter)
        self.rows.show(view, self.encounter.creatures, self.locked)

    # ---------------------------------------------------------------- the panels made when first opened

    @property
    def objectives(self) -> ObjectivesPanel:
        """The Objective tab's panel (made now if it was not yet)."""
        self.tabs.panel(OBJECTIVE_TAB)
        assert self._objectives is not None
        return self._objectives

    @property
    def pace(self) -> PacePanel:
        """The Pace of the fight tab's panel (made now if it was not yet)."""
        self.tabs.panel(PACE_TAB)
        assert self._pace is not None
        return self._pace

    @property
    def shortcuts(self) -> ShortcutsPanel:
        """The shortcuts' panel (made now if it was not yet)."""
        self.more.panel(0)
        assert self._shortcuts is not None
        return self._shortcuts

    def _make_objectives(self) -> widgets.Widget:
        self._objectives = ObjectivesPanel(self.rules, self.encounter, self.actions, self._quiet)
        self._objectives.show(self.encounter)
        self._objectives.said.value = self.shown.objectives
        return self._objectives

    def _make_pace(self) -> widgets.Widget:
        self._pace = PacePanel(self.actions)
        self._pace.show(self.shown)
        return self._pace

    def _make_shortcuts(self) -> widgets.Widget:
        s = self._shortcuts = ShortcutsPanel(self.library_folder, self.actions)
        s.set_monsters(self.monsters, self._first_from)
        wrap = widgets.Layout(flex_flow="row wrap")
        return widgets.VBox([
            widgets.HBox([s.spec, s.add_spec, s.star], layout=wrap),
            widgets.HBox([s.monster, s.count, s.add_monster], layout=wrap),
            widgets.HBox([s.folder, s.load_library], layout=wrap),
            widgets.HBox([s.terrain_name, s.terrain_ev, s.terrain_level, s.add_terrain], layout=wrap),
            widgets.HBox(list(self.groups.typed()), layout=wrap),
            self.panes["creatures"],
        ])

    # ---------------------------------------------------------------- layout

    def _layout(self) -> list[widgets.Widget]:
        wrap = widgets.Layout(flex_flow="row wrap")
        g = self.groups
        editor_box = widgets.VBox([
            widgets.HTML("<b>The encounter</b>"),
            widgets.HBox([self.suggester.keyword, self.suggester.suggest, self.undo], layout=wrap),
            self.rows,
            widgets.HBox([g.suggest, g.clear], layout=wrap),
            *self.files.lines(),  # Save under the creatures it saves, in the first screen at 1024 px
        ], layout=widgets.Layout(flex=f"1 1 {ROWS_WIDTH}", min_width="0"))
        browser = widgets.VBox([widgets.HTML("<b>The bestiary</b>"), self.browser],
                               layout={"flex": f"1 1 {BESTIARY_WIDTH}", "min_width": "0"},
                               _dom_classes=("wb-encounter-bestiary",))
        self.browser.rows.layout.max_width = "100%"  # the list narrows with the column rather than overflow it
        # the bestiary beside the creatures it adds to when the window has room for both (about 1400 px), under
        # them when not; the chart and the checks after
        side = widgets.HBox([editor_box, browser], layout={"flex_flow": "row wrap", "align_items": "flex-start",
                                                           "grid_gap": "0 24px"}, _dom_classes=("wb-encounter-side",))
        return [self.party, self.message, self.panes["summary"], side, self.plot, self.tabs.fold, self.more.fold,
                encounter_share(self)]

    def _controls(self) -> LazyControls:
        p, g, f = self.party, self.groups, self.files
        ready = {
            "heroes": p.heroes, "level": p.level, "mixed": p.mixed, "retainers": p.retainers,
            "allies": p.allies, "victories": p.victories, "difficulty": p.difficulty,
            "suggest": g.suggest, "clear_groups": g.clear,
            "keyword": self.suggester.keyword, "suggest_encounter": self.suggester.suggest, "path": f.path,
            "overwrite": f.overwrite, "save": f.save, "saved": f.saved, "open": f.open, "undo": self.undo,
            "load": f.load, "message": self.message, "plot": self.plot,
            "rows": self.rows, "browser": self.browser, **self.panes,
            "budget": p.budget, "file_message": f.said,
        }

        def objectives() -> tuple[Any, ...]:
            o = self.objectives
            return o.objective, o.conditions, o.bonus, o.add_choice, o.add, o.mode, o.rows, o.said

        def pace() -> tuple[Any, ...]:
            a = self.pace
            return a.stamina, a.damage, a.plot, a.abilities, a.said

        def shortcuts() -> tuple[Any, ...]:
            s = self.shortcuts
            return (s.spec, s.add_spec, s.monster, s.count, s.star, s.add_monster, s.folder, s.load_library,
                    s.terrain_name, s.terrain_ev, s.terrain_level, s.add_terrain, *g.typed())

        return LazyControls(ready, [
            (("objective", "conditions", "bonus", "add_objective_choice", "add_objective", "objective_mode",
              "objective_rows", "objectives"), objectives),
            (("hero_stamina", "party_damage", "pace_plot", "abilities", "pace"), pace),
            (("spec", "add_spec", "monster", "count", "star", "add_monster", "folder", "load_library",
              "terrain_name", "terrain_ev", "terrain_level", "add_terrain", "groups_text", "apply_groups"), shortcuts),
        ])

    def use_library(self, monsters: Sequence[Monster]) -> None:
        """Suggestions choose from `monsters` too (the Director's own, beside the stat blocks), and offer their
        keywords."""
        self.library = list(monsters)
        self.suggester.forget()
        self.suggester.set_keywords([*self.bestiary.monsters, *self.library], ANY)

    def offer(self, monsters: Sequence[Monster], first_from: str = "") -> None:
        """The Monster list holds `monsters` from now on, the first picked; `first_from` follows the first one's
        name in the list, saying where it comes from (the builder, say)."""
        self.monsters = list(monsters)
        self._first_from = first_from
        if self._shortcuts is not None:
            self._shortcuts.set_monsters(self.monsters, first_from)

    def open_encounter(self, encounter: Encounter) -> None:
        """Open an encounter (a share code's) as a saved file opens: its party, its rows locked, undo kept."""
        self._changed(("opened", encounter))

    def state(self) -> Encounter:
        """The encounter shown, with the difficulty aimed for."""
        if self.encounter.aim != self.party.difficulty.value:
            self.encounter = self.encounter.model_copy(update={"aim": self.party.difficulty.value})
        return self.encounter

    def row_buttons(self, index: int) -> dict[str, widgets.Widget]:
        """Row `index`'s controls by name (for scripts and tests): minus, plus, star, group, remove, lock."""
        return self.rows.buttons(index)


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
