"""The encounter editor's objectives panel: the objective edited with its conditions and bonus, a row per
chosen objective once there are two (Edit, Remove), "Add objective", and whether they count together or as
alternatives.

The panel owns its controls and which chosen objective they edit (`editing`); the editor's handler asks it
for the objectives as the controls say and for the library calls its buttons stand for.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.quiet import Quiet
from workbench.encounter.encounter import Encounter
from workbench.encounter.objective import ChosenObjective, check_objective_mode, choose_objective
from workbench.render.escape import Markup, escape
from workbench.rules.encounter_tables import EncounterRules

__all__ = ["ObjectivesPanel"]


class ObjectivesPanel(widgets.VBox):
    """The objective controls and `said`, the objectives as the view describes them."""

    def __init__(self, rules: EncounterRules, encounter: Encounter, actions: Actions, quiet: Quiet) -> None:
        self.rules = rules
        self.actions = actions
        self.quiet = quiet
        # Which chosen objective the Objective dropdown, its conditions and its bonus box edit; "Add objective"
        # chooses another, a row's Edit picks it, Remove drops it. The others are kept as they are.
        self.editing = 0
        self._shown: tuple[Any, ...] = ()
        self._conditions_for: tuple[int, str] = (-1, "")
        wide = {"description_width": "initial"}
        self.objective = widgets.Dropdown(
            options=[("No objective: defeat the foes", "")] + [(o.name, k) for k, o in rules.objectives.items()],
            value=encounter.objectives[0].key if encounter.objectives else "", description="Objective",
            style=wide,
        )
        self.condition_box = widgets.VBox()
        self.add_choice = widgets.Dropdown(options=[(o.name, k) for k, o in rules.objectives.items()],
                                           description="Another objective", style=wide)
        self.add = widgets.Button(description="Add objective")
        self.rows = widgets.VBox()
        self.rows.add_class("wb-objective-rows")
        said = rules.objective_rules
        self.mode = widgets.RadioButtons(
            options=[("all objectives together (combined)", "combined"),
                     ("the best one of these alternatives", "alternative")],
            value=encounter.objective_mode, description="Earn Victories for", style=wide,
            layout={"width": "auto"},
        )
        self.mode.add_class("wb-objective-mode-choice")
        self.mode_box = widgets.VBox([self.mode, widgets.HTML(
            Markup("<small><b>Combined:</b> <i>{}</i><br><b>Alternative:</b> <i>{}</i></small>").format(
                said.combined_rule, said.alternative_rule))])
        self.conditions: dict[str, widgets.Widget] = {}
        self.bonus = widgets.Checkbox(
            value=bool(encounter.objectives and encounter.objectives[0].bonus),
            description="Bonus outcome met", indent=False,
        )
        self.said = widgets.HTML()
        for control in (self.objective, self.bonus, self.mode):
            actions.observe(control)
        actions.click(self.add, ("add_objective",))
        super().__init__([self.objective, self.condition_box, self.rows,
                          widgets.HBox([self.add_choice, self.add], layout=widgets.Layout(flex_flow="row wrap")),
                          self.mode_box, self.said])

    def _build_conditions(self, encounter: Encounter) -> None:
        for control in self.conditions.values():
            self.actions.ignore(control)
        self.conditions.clear()
        if self.objective.value:
            chosen = encounter.objectives
            edited = chosen[self.editing] if self.editing < len(chosen) else None
            current = edited if edited is not None and edited.key == self.objective.value else {
                o.key: o for o in chosen}.get(self.objective.value)
            for cond in self.rules.objectives[self.objective.value].conditions:
                had = current.conditions.get(cond.key, 0) if current else 0
                if cond.kind == "flag":
                    control = widgets.Checkbox(value=bool(had), description=cond.label, indent=False,
                                               layout={"width": "auto"})
                else:
                    control = widgets.BoundedIntText(value=had, min=0, max=20, description=cond.label,
                                                     style={"description_width": "initial"})
                self.actions.observe(control)
                self.conditions[cond.key] = control
        self._conditions_for = (self.editing, self.objective.value)
        self.condition_box.children = tuple(self.conditions.values()) + ((self.bonus,) if self.objective.value
                                                                          else ())

    def chosen(self, e: Encounter) -> tuple[tuple[ChosenObjective, ...], int]:
        """The chosen objectives with the edited one as the controls say (blank: dropped), and where it now is.
        Each objective once: picking one already chosen merges the two."""
        key = self.objective.value
        if tuple(self.conditions) != tuple(c.key for c in (self.rules.objectives[key].conditions if key else ())):
            self._build_conditions(e)
        chosen = list(e.objectives)
        at = min(self.editing, len(chosen))
        if not key:
            return tuple(chosen[:at] + chosen[at + 1:]), 0
        values = {k: c.value for k, c in self.conditions.items()}
        edited = choose_objective(key, bonus=self.bonus.value, **values)
        before = [o for o in chosen[:at] if o.key != key]
        after = [o for o in chosen[at + 1:] if o.key != key]
        return tuple(before + [edited] + after), len(before)

    def objective_mode(self) -> str:
        return check_objective_mode(self.mode.value)

    def adding(self, e: Encounter) -> Encounter:
        """Another objective, then edited by the controls (one already chosen is only picked for editing)."""
        key = self.add_choice.value
        keys = [o.key for o in e.objectives]
        if key in keys:
            self.editing = keys.index(key)
            return e
        self.editing = len(keys)
        return e.model_copy(update={"objectives": e.objectives + (choose_objective(key),)})

    def editing_one(self, e: Encounter, index: int) -> Encounter:
        self.editing = index
        return e

    def removing(self, e: Encounter, index: int) -> Encounter:
        if index <= self.editing:
            self.editing = max(self.editing - 1, 0)
        return e.model_copy(update={"objectives": e.objectives[:index] + e.objectives[index + 1:]})

    def show(self, encounter: Encounter) -> None:
        """The objective controls as the encounter says: the edited objective in the dropdown with its
        conditions and bonus, a row per objective once there are two, and the combined/alternative choice."""
        chosen = encounter.objectives
        self.editing = min(self.editing, max(len(chosen) - 1, 0))
        edited = chosen[self.editing] if chosen else None
        shown = (self.editing, chosen)
        if shown == self._shown:
            return
        self._shown = shown
        with self.quiet:
            self.objective.value = edited.key if edited else ""
            self.bonus.value = bool(edited and edited.bonus)
            self.mode.value = encounter.objective_mode
            if self._conditions_for != (self.editing, self.objective.value):  # not while a box is ticked
                self._build_conditions(encounter)
        for row in self.rows.children:
            self.actions.forget(row)
            row.close()
        rows = []
        for i, o in enumerate(chosen if len(chosen) > 1 else ()):
            name = escape(self.rules.objectives[o.key].name)
            line = widgets.HBox([
                widgets.HTML(Markup("<b>{}</b> <small>(editing)</small>").format(name) if i == self.editing else name,
                             layout={"width": "260px"}),
                self.actions.button("Edit", ("edit_objective", i), "edit this objective's conditions",
                                    "wb-objective-edit"),
                self.actions.button("Remove", ("remove_objective", i), "remove this objective",
                                    "wb-objective-remove"),
            ])
            line.add_class("wb-objective-row")
            rows.append(line)
        self.rows.children = tuple(rows)
        self.mode_box.layout.display = "" if len(chosen) > 1 else "none"
