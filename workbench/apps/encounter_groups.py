"""The encounter editor's initiative groups controls: "Suggest groups", "Clear groups", and the groups typed
as text ("1×2, 2×4; 1×2; 3") with "Apply groups".

The panel owns the controls; the editor's handler makes the library calls they stand for (`groups(e)` reads
the typed text), and `show` writes the encounter's groups into the text box without the editor hearing it.
"""

from __future__ import annotations

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.quiet import Quiet
from workbench.encounter.encounter import Encounter
from workbench.encounter.groups import format_groups, parse_groups

__all__ = ["GroupsPanel"]


class GroupsPanel:
    """The groups' buttons (`suggest`, `clear`, beside the rows) and their typed form (`text`, `apply`)."""

    def __init__(self, actions: Actions, quiet: Quiet) -> None:
        self.quiet = quiet
        self.suggest = widgets.Button(description="Suggest groups")
        self.clear = widgets.Button(description="Clear groups")
        self.text = widgets.Text(description="Groups",
                                 placeholder="1×2, 2×4; 1×2; 3  (entry×count; groups split by ;)",
                                 layout={"width": "460px"})
        self.apply = widgets.Button(description="Apply groups")
        for name, button in (("suggest_groups", self.suggest), ("clear_groups", self.clear),
                             ("apply_groups", self.apply)):
            actions.click(button, (name,))

    def groups(self, e: Encounter) -> Encounter:
        """`e` with the groups as typed."""
        return e.model_copy(update={"groups": parse_groups(self.text.value, e)})

    def show(self, encounter: Encounter) -> None:
        with self.quiet:
            self.text.value = format_groups(encounter.groups)
