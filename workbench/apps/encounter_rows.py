"""The encounter editor's creature list: a row per creature bought (name, − count +, its EV, the star
toggle, its group, Remove and the lock that keeps it through a suggestion) and one per dynamic terrain object.

Each `CreatureRow` names its controls. Redrawing keeps the unchanged rows at the top (adding a creature
builds one row, not all of them; a party change builds none); a row dropped is forgotten by the editor's
handler, so a script still holding its buttons changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Any

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.encounter_view import EncounterView, RowView
from workbench.apps.quiet import Quiet
from workbench.encounter.editing import NO_GROUP, SPLIT
from workbench.encounter.encounter import Creature
from workbench.render.escape import Markup, escape

__all__ = ["LOCK_WORDS", "ROW_LABEL_WIDTH", "CreatureRow", "CreatureRows"]

LOCK_WORDS = {True: "kept", False: "keep"}
# the width below which a creature row's name would be cramped
ROW_LABEL_WIDTH = "240px"
EMPTY = "<i>No creatures yet: add some from the bestiary, or ask for a suggestion.</i>"


class CreatureRow(widgets.HBox):
    """One creature row: name, − count +, its EV, the star toggle, its group, Remove and the lock."""

    def __init__(self, i: int, r: RowView, group_count: int, actions: Actions) -> None:
        options = [("no group", NO_GROUP)] + [(f"group {n}", n) for n in range(1, group_count + 1)]
        options.append((f"new group {group_count + 1}", group_count + 1))
        self.label = widgets.HTML(Markup('<span class="wb-row-label"><b>{}</b> <small>{}</small></span>').format(
            r.label, r.kind), layout={"width": ROW_LABEL_WIDTH})
        self.minus = actions.button("−", ("minus", i), "fewer (minions by four)", "wb-row-minus")
        self.count = widgets.HTML(Markup('<b class="wb-row-count" data-count="{}">{}</b>').format(r.count, r.count))
        self.plus = actions.button("+", ("plus", i), "more (minions by four)", "wb-row-plus")
        self.ev = widgets.HTML(Markup('<span class="wb-row-ev">EV {}</span>').format(r.cost), layout={"width": "80px"})
        self.star = widgets.ToggleButton(value=r.star, description="★ star" if r.star else "☆ star",
                                         tooltip="star of the show", layout={"width": "auto"},
                                         _dom_classes=("wb-row-star",))
        actions.observe(self.star, ("star", i))
        self.group = widgets.Dropdown(
            options=options + ([("split between groups", SPLIT)] if r.group == SPLIT else []),
            value=r.group, layout={"width": "170px"}, _dom_classes=("wb-row-group",),
        )
        actions.observe(self.group, ("group", i), with_value=True)
        self.remove = actions.button("Remove", ("remove", i), "remove this entry", "wb-row-remove")
        self.lock = widgets.ToggleButton(value=False, description=LOCK_WORDS[False], icon="lock",
                                         layout={"width": "auto"},
                                         tooltip="a locked row stays when you ask for a suggestion",
                                         _dom_classes=("wb-row-lock",))
        actions.observe(self.lock, ("lock", i))
        super().__init__([self.label, self.minus, self.count, self.plus, self.ev, self.star, self.group,
                          self.remove, self.lock], _dom_classes=("wb-encounter-row",))

    def buttons(self) -> dict[str, widgets.Widget]:
        """The row's controls by name: minus, plus, star, group, remove, lock."""
        return {"minus": self.minus, "plus": self.plus, "star": self.star, "group": self.group,
                "remove": self.remove, "lock": self.lock}


class CreatureRows(widgets.VBox):
    """The rows of the creatures and terrain bought (the `rows` control)."""

    def __init__(self, actions: Actions, quiet: Quiet) -> None:
        self.actions = actions
        self.quiet = quiet
        self.creature_rows: list[CreatureRow] = []
        self.lines: tuple[widgets.Widget, ...] = ()  # the rows shown, terrain's and the empty line's too
        self._shown: tuple[tuple[RowView, ...], tuple[str, ...], int] = ((), (), -1)
        super().__init__(_dom_classes=("wb-encounter-rows",))

    def show(self, view: EncounterView, creatures: Sequence[Creature], locked: Set[tuple[Any, ...]]) -> None:
        """Show the rows, rebuilding only those that changed."""
        old = self._shown
        if (view.rows, view.terrain, view.group_count) == old:
            return
        keep = 0
        if view.group_count == old[2]:
            while keep < min(len(view.rows), len(old[0])) and view.rows[keep] == old[0][keep]:
                keep += 1
        self._shown = (view.rows, view.terrain, view.group_count)
        kept = self.creature_rows[:keep] if old[0] else []
        for row in self.lines[len(kept):]:
            self.actions.forget(row)
            row.close()
        self.creature_rows = kept + [CreatureRow(i, r, view.group_count, self.actions)
                                     for i, r in enumerate(view.rows) if i >= len(kept)]
        rows: list[widgets.Widget] = list(self.creature_rows)
        for i, label in enumerate(view.terrain):
            rows.append(widgets.HBox([
                widgets.HTML(escape(label), layout={"width": ROW_LABEL_WIDTH}),
                self.actions.button("Remove", ("remove_terrain", i), "remove this object", "wb-row-remove"),
            ]))
        if not rows:
            rows.append(widgets.HTML(EMPTY))
        self.lines = self.children = tuple(rows)
        self.show_locks(creatures, locked)

    def show_locks(self, creatures: Sequence[Creature], locked: Set[tuple[Any, ...]]) -> None:
        """Each creature row's lock as `locked` has it (rows kept from before included)."""
        with self.quiet:
            for creature, row in zip(creatures, self.creature_rows, strict=False):
                on = creature.stat_block in locked
                row.lock.value, row.lock.description = on, LOCK_WORDS[on]

    def buttons(self, index: int) -> dict[str, widgets.Widget]:
        """Row `index`'s controls by name."""
        return self.creature_rows[index].buttons()
