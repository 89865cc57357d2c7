"""The encounter editor's initiative groups controls: "Suggest groups", "Clear groups", and the groups typed
as text ("1×2, 2×4; 1×2; 3") with "Apply groups".

The panel owns the controls; the editor's handler makes the library calls they stand for (`groups(e)` reads
the typed text), and `show` writes the encounter's groups into the text box without the editor hearing it. The
typed form sits among the editor's shortcuts, made when they are first opened (`typed()`).
"""

from __future__ import annotations

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.quiet import Quiet
from workbench.encounter.encounter import Encounter
from workbench.encounter.groups import format_groups, parse_groups

__all__ = ["GroupsPanel"]


class GroupsPanel:
    """The groups' buttons (`suggest`, `clear`, beside the rows) and their typed form (`typed()`: the text box
    and Apply)."""

    def __init__(self, actions: Actions, quiet: Quiet) -> None:
        self.actions = actions
        self.quiet = quiet
        self.suggest = widgets.Button(description="Suggest groups")
        self.clear = widgets.Button(description="Clear groups")
        for name, button in (("suggest_groups", self.suggest), ("clear_groups", self.clear)):
            actions.click(button, (name,))
        self._typed: tuple[widgets.Text, widgets.Button] | None = None
        self._shown = ""  # the encounter's groups as text, for the box once it is made

    def typed(self) -> tuple[widgets.Text, widgets.Button]:
        """The text box and Apply, made the first time they are asked for."""
        if self._typed is None:
            text = widgets.Text(value=self._shown, description="Groups",
                                placeholder="1×2, 2×4; 1×2; 3  (entry×count; groups split by ;)",
                                layout={"width": "460px"})
            self._typed = (text, self.actions.click(widgets.Button(description="Apply groups"), ("apply_groups",)))
        return self._typed

    def groups(self, e: Encounter) -> Encounter:
        """`e` with the groups as typed."""
        return e.model_copy(update={"groups": parse_groups(self.typed()[0].value, e)})

    def show(self, encounter: Encounter) -> None:
        self._shown = format_groups(encounter.groups)
        if self._typed is not None:
            with self.quiet:
                self._typed[0].value = self._shown
