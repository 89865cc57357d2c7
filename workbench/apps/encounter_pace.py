"""The encounter editor's pace of the fight: the heroes' Stamina and damage a round typed in, a picker per
kind of creature whose whole stat block has another damaging ability, the pace in words and its chart.

The panel owns its controls and shows the pace part of an `EncounterView`; the workbench invents no hero
numbers, so the pace waits for the Director's.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.chart_slot import ChartSlot
from workbench.apps.encounter_view import EncounterView, hero_staminas
from workbench.errors import InvalidInput

__all__ = ["PacePanel"]


class PacePanel(widgets.VBox):
    """Stamina and damage (`stamina`, `damage`), the ability pickers (`abilities`), the words (`said`) and the
    chart (`plot`)."""

    def __init__(self, actions: Actions) -> None:
        self.actions = actions
        wide = {"description_width": "initial"}
        self.stamina = widgets.Text(description="Heroes' Stamina", placeholder="each hero's, e.g. 45, 40, 42, 38, 50",
                                    style=wide, layout={"width": "420px"})
        self.damage = widgets.BoundedIntText(value=0, min=0, max=9999, description="Heroes' damage a round",
                                             style=wide, layout={"width": "260px"})
        for control in (self.stamina, self.damage):
            actions.observe(control)
        self.abilities = widgets.VBox()
        self.abilities.add_class("wb-pace-abilities")
        self.said = widgets.HTML()
        self.said.add_class("wb-pace")
        self.plot = ChartSlot(None, "wb-pace-chart", placeholder=widgets.HTML())
        self._attacks_shown: tuple[Any, ...] | None = None
        super().__init__([widgets.HBox([self.stamina, self.damage], layout=widgets.Layout(flex_flow="row wrap")),
                          self.abilities, self.said, self.plot])

    def staminas(self, heroes: int, lenient: bool = False) -> tuple[int, ...]:
        """The heroes' Stamina as typed; `lenient`: none when the box holds what was just refused."""
        try:
            return hero_staminas(self.stamina.value, heroes)
        except InvalidInput:
            if not lenient:
                raise
            return ()

    def show(self, view: EncounterView) -> None:
        if view.pace_figure is not None:
            self.plot.show(view.pace_figure)
        elif self.plot.figure is not None:
            self.plot.children = (widgets.HTML(),)
        self.said.value = view.pace
        self._show_attacks(view)

    def _show_attacks(self, view: EncounterView) -> None:
        """A picker per kind of creature whose whole stat block has another damaging ability (rebuilt only when
        the kinds or their choices change; a pick just moves the numbers)."""
        choosing = tuple(a for a in view.attacks if a.others)
        shape = tuple((a.key, a.label, a.signature, a.others) for a in choosing)
        if shape == self._attacks_shown:
            return
        self._attacks_shown = shape
        for old in self.abilities.children:
            self.actions.forget(old)
            old.close()
        pickers = []
        for a in choosing:
            picker = widgets.Dropdown(
                options=[(f"{a.signature} (signature)", "")] + [(name, name) for name in a.others],
                value=a.chosen if a.chosen in a.others else "", description=f"{a.label} uses",
                style={"description_width": "initial"}, layout={"width": "auto"},
            )
            self.actions.observe(picker, ("attack", a.key), with_value=True)
            pickers.append(picker)
        self.abilities.children = tuple(pickers)
