"""The encounter editor's party panel: heroes and their level (or mixed levels), retainers, allied NPCs,
Victories and the difficulty aimed for, with the budget they make.

The panel owns its controls; their new values reach the editor's one handler as the "controls" action, and
`party()` reads them into a Party (a box it cannot read is refused by name). `show` writes a loaded
encounter's party back into them without the editor hearing its own writes.
"""

from __future__ import annotations

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.encounter_view import party_from_controls
from workbench.apps.quiet import Quiet
from workbench.encounter.encounter import Encounter
from workbench.encounter.party import Party
from workbench.numbers import format_number
from workbench.rules.encounter_tables import DIFFICULTIES

__all__ = ["PartyPanel", "levels_of"]


def levels_of(p: Party, kind: str) -> str:
    """The levels of the party's members of one kind (retainers, allies) as the boxes show them."""
    return ", ".join(str(m.level) for m in p.members if m.kind == kind)


class PartyPanel(widgets.VBox):
    """The party's controls and the budget they make (`budget`, filled by the editor's view)."""

    def __init__(self, party: Party, difficulty: str, actions: Actions, quiet: Quiet) -> None:
        self.quiet = quiet
        hero_levels = [m.level for m in party.members if m.kind == "hero"]
        uniform = len(set(hero_levels)) == 1
        wide = {"description_width": "initial"}
        self.heroes = widgets.IntSlider(value=len(hero_levels) if uniform else 5, min=1, max=10,
                                        description="Heroes")
        self.level = widgets.IntSlider(value=hero_levels[0] if uniform else 3, min=1, max=10, description="Level")
        self.mixed = widgets.Text(value="" if uniform else ", ".join(map(str, hero_levels)),
                                  description="Mixed levels", placeholder="e.g. 3, 3, 4 (replaces heroes × level)",
                                  style=wide)
        self.retainers = widgets.Text(value=levels_of(party, "retainer"), description="Retainers",
                                      placeholder="their levels, e.g. 3", style=wide)
        self.allies = widgets.Text(value=levels_of(party, "ally"), description="Allied NPCs",
                                   placeholder="their levels, e.g. 4", style=wide)
        self.victories = widgets.Text(value=format_number(party.victories), description="Victories",
                                      placeholder="average per hero", style=wide)
        self.difficulty = widgets.Dropdown(options=list(DIFFICULTIES), value=difficulty, description="Aim for")
        self.budget = widgets.HTML()
        for control in (self.heroes, self.level, self.mixed, self.retainers, self.allies, self.victories,
                        self.difficulty):
            actions.observe(control)
        wrap = widgets.Layout(flex_flow="row wrap")
        super().__init__([
            widgets.HTML("<b>The party</b>"),
            widgets.HBox([self.heroes, self.level, self.difficulty], layout=wrap),
            widgets.HBox([self.mixed, self.retainers, self.allies, self.victories], layout=wrap),
            self.budget,
        ])

    def party(self) -> Party:
        """The party as the controls say."""
        return party_from_controls(self.heroes.value, self.level.value, self.mixed.value, self.retainers.value,
                                   self.victories.value, self.allies.value)

    def show(self, loaded: Encounter) -> None:
        """The controls show `loaded`'s party and the difficulty it aimed for (without reacting to themselves)."""
        hero = [m.level for m in loaded.party.members if m.kind == "hero"]
        with self.quiet:
            self.heroes.value = len(hero)
            if len(set(hero)) == 1:
                self.level.value, self.mixed.value = hero[0], ""
            else:
                self.mixed.value = ", ".join(map(str, hero))
            self.retainers.value = levels_of(loaded.party, "retainer")
            self.allies.value = levels_of(loaded.party, "ally")
            self.victories.value = format_number(loaded.party.victories)
            if loaded.aim:
                self.difficulty.value = loaded.aim
