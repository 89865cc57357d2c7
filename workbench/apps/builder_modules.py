"""The monster builder's homebrew rules section: the rule modules attached to the monster as rows, and the
*Module folder* box whose modules load beside the shipped ones (`data/rules-homebrew/`).

A bad file in the folder is named with what is wrong in it, under the box, and the shipped modules stay
loaded; the folder is read again when a file in it changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.builder_controls import note
from workbench.apps.rows import RuleRows
from workbench.errors import RulesetError
from workbench.homebrew.rule import HomebrewRule, load_rules, shipped_rules
from workbench.render.message import error_html

__all__ = ["ModulesPanel"]


class ModulesPanel(widgets.VBox):
    """The rule rows (`rows`), the folder box (`folder`, one of the builder's controls) and `note`; `modules`
    are those loaded."""

    def __init__(self, folder: widgets.Text, rows: RuleRows) -> None:
        self.folder = folder
        self.rows = rows
        self.modules: dict[str, HomebrewRule] = dict(rows.modules)
        self._key: Any = None
        self.note = widgets.HTML().add_class("wb-modules-note")
        super().__init__([rows, folder, self.note])

    def load(self) -> None:
        """The shipped modules and those in the Module folder box (read again when a file there changes)."""
        text = self.folder.value.strip()
        folder = Path(text).expanduser() if text else None
        try:
            files = tuple((p.name, p.stat().st_mtime_ns) for p in sorted(folder.iterdir())) if folder else ()
        except OSError:
            files = None
        key = (text, files)
        if key == self._key:
            return
        self._key = key
        self.modules = dict(shipped_rules())
        self._read(folder)
        self.rows.set_modules(self.modules)

    def _read(self, folder: Path | None) -> None:
        if folder is None:
            self.note.value = note("Modules: the shipped ones (" + ", ".join(self.modules) + ").")
            return
        try:
            own = load_rules(folder)
        except RulesetError as exc:
            self.note.value = error_html(
                f"Could not load the modules in {folder}; the shipped ones are loaded:",
                css="wb-error", tag="div", items=exc.problems, small=True,
            )
            return
        replaced = [i for i in own if i in self.modules]
        self.modules.update(own)
        self.note.value = note(
            f"Modules from {folder}: " + (", ".join(own) or "none (no .toml or .json module files)")
            + (f" (yours replace the shipped {', '.join(replaced)})" if replaced else "") + "."
        )
