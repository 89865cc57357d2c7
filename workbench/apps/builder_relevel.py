"""The monster builder's "Move to another level" tab ("Adjusting Monster Levels"): the monster moved to a
chosen level, old -> new with the working, in delta or formula mode; "Use this level" moves the builder's
level slider there and "Save a copy at level N" saves the moved monster beside the original.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from workbench.apps.builder_library import LibraryPanel
from workbench.apps.message import refusal_text, shown_path
from workbench.apps.quiet import Quiet
from workbench.errors import WorkbenchError
from workbench.homebrew.rule import HomebrewRule
from workbench.model import Monster
from workbench.monster.library import suggest_name
from workbench.monster.relevel import relevel
from workbench.render.message import error_html, ok_html
from workbench.render.relevel import MODE_WORDS, relevel_html
from workbench.rules.lore import Lore

__all__ = ["RelevelPanel"]


class RelevelPanel(widgets.VBox):
    """The level and mode pickers (`level`, `mode`), the buttons (`use`, `save_copy`), `note` and `view`.

    `controls` are the builder's (its level slider and epic box); `current()` is the monster it shows;
    `redraw()` draws this tab again when a picker changes."""

    def __init__(self, top_level: int, controls: dict[str, widgets.Widget], library: LibraryPanel,
                 current: Callable[[], Monster | None], redraw: Callable[[], None], quiet: Quiet) -> None:
        self.controls = controls
        self.library = library
        self.current = current
        self.redraw = redraw
        self.quiet = quiet
        self.level = widgets.Dropdown(options=list(range(1, top_level + 1)), value=2,
                                      description="Move to level", style={"description_width": "8em"})
        self.mode = widgets.ToggleButtons(options=[(MODE_WORDS["delta"], "delta"), (MODE_WORDS["formula"], "formula")],
                                          value="delta", style={"button_width": "auto"})
        self.view = widgets.HTML().add_class("wb-relevel-view")
        for control in (self.level, self.mode):
            control.observe(self._changed, names="value")
        self.use = widgets.Button(description="Use this level", icon="check",
                                  layout=widgets.Layout(width="auto")).add_class("wb-use-level")
        self.save_copy = widgets.Button(description="Save a copy at level 2", icon="save",
                                        layout=widgets.Layout(width="auto")).add_class("wb-save-at-level")
        self.note = widgets.HTML().add_class("wb-relevel-note")
        self.use.on_click(self._use_clicked)
        self.save_copy.on_click(self._save_copy_clicked)
        wrap = widgets.Layout(flex_flow="row wrap")
        super().__init__([widgets.HBox([self.level, self.mode], layout=wrap),
                          widgets.HBox([self.use, self.save_copy], layout=wrap), self.note, self.view])

    def draw(self, monster: Monster, modules: dict[str, HomebrewRule], lore: Lore) -> None:
        """The monster moved to the chosen level (the levels offered follow the builder's epic box)."""
        levels = list(range(1, self.controls["level"].max + 1))
        if list(self.level.options) != levels:  # epic levels ticked or unticked
            with self.quiet:
                self.level.options = levels
                self.level.value = min(self.level.value or 2, levels[-1])
        try:
            self.view.value = relevel_html(monster, self.level.value, self.mode.value,
                                           {"modules": modules, "lore": lore})
        except WorkbenchError as exc:
            self.view.value = error_html(refusal_text(exc), css="wb-error", tag="div")

    def _changed(self, _change: Any = None) -> None:
        self.save_copy.description = f"Save a copy at level {self.level.value}"
        if not self.quiet:
            self.redraw()

    def _use_clicked(self, _: Any = None) -> None:
        """The monster moved to the chosen level: the level slider goes there (abilities keep their changes)."""
        level = self.level.value
        if level > self.controls["level"].max:
            self.controls["epic"].value = True
        self.controls["level"].value = level
        self.note.value = ok_html(f"Now at level {level}.", tag="div")

    def _save_copy_clicked(self, _: Any = None) -> None:
        """A copy of the monster moved to the chosen level, saved in the library beside the original."""
        monster = self.current()
        if monster is None:
            return
        library = self.library
        level = self.level.value
        moved = library.act("Not moved", relevel, monster, level, self.mode.value)
        if moved is None:
            self.note.value = library.note.value
            return
        base = library.file_name.value.strip() or suggest_name(monster.name) or "monster"
        name = f"{base} level {level}"
        path = library.save(moved, name, "tick “Replace a file of that name” in the Homebrew library tab to replace it")
        if path is not None:
            library.say(f"Saved a copy at level {level} as {shown_path(path)}")
        self.note.value = library.note.value
