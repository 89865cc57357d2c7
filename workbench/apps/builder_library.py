"""The monster builder's homebrew library tab: the folder, Save as (with "Replace a file of that name"), the
saved monsters to load, rename or delete, and "Open a file" for any stat block file the importer reads.

`LibraryPanel` owns these controls and is the one way into the library (`save`) for every button that saves.
Each refusal is said in words beside the buttons (and beside the block's own Save), never as a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import ipywidgets as widgets

from workbench.apps.message import refusal_text, shown_path
from workbench.errors import WorkbenchError
from workbench.formats.reader import ImportRefused, import_monster
from workbench.io.home import library_folder
from workbench.io.problem import os_reason
from workbench.model import Monster
from workbench.monster.library import (
    NameTaken,
    delete_monster,
    list_monsters,
    load_entry,
    load_library,
    rename_monster,
    save_monster,
    suggest_name,
)
from workbench.render.message import error_html, ok_html
from workbench.rules.ruleset import Ruleset

__all__ = ["REPLACE_OR_RENAME", "LibraryPanel", "refusal"]

T = TypeVar("T")  # what an action passed to LibraryPanel.act returns
# What the library says of a name it already holds, before the way to another name
REPLACE_OR_RENAME = "tick “Replace a file of that name” to replace it, or "


def refusal(exc: WorkbenchError | OSError) -> str:
    """A library refusal in words: the rule's reason, or what the file system said (never a repr)."""
    if isinstance(exc, OSError):
        return f"the file system refused ({os_reason(exc)})."
    return refusal_text(exc, {"name": "A file name", "new_name": "A new name"})


class LibraryPanel(widgets.VBox):
    """The library's controls; `show(monster)` puts what it loads or opens into the builder, `current()` is
    the monster the builder shows, and `echo` repeats what the panel says beside the block's own buttons."""

    def __init__(self, folder: str | Path | None, rules: Ruleset, show: Callable[[Monster], None],
                 current: Callable[[], Monster | None], echo: widgets.HTML) -> None:
        self.rules = rules
        self.show = show
        self.current = current
        self.echo = echo
        self.auto_name: str | None = None  # the file name the builder suggested (replaced while untouched)
        self.folder = widgets.Text(value=str(folder or library_folder()), description="Folder",
                                   layout=widgets.Layout(width="36em"))
        self.file_name = widgets.Text(value="", placeholder="the monster's name", description="Save as")
        self.overwrite = widgets.Checkbox(value=False, description="Replace a file of that name", indent=False)
        self.saved = widgets.Select(options=[], rows=8, description="Saved")
        self.new_name = widgets.Text(value="", description="Rename to")
        self.confirm_delete = widgets.Checkbox(value=False, description="Yes, delete it", indent=False)
        self.note = widgets.HTML()
        # any stat block file the importer reads (Steel Compendium, Forge Steel, Foundry) or a saved monster
        self.open_path = widgets.Text(value="", description="Open a file", style={"description_width": "initial"},
                                      placeholder="a stat block file: Steel Compendium, Forge Steel, Foundry or "
                                                  "a saved monster", layout=widgets.Layout(width="36em"),
                                      continuous_update=False)
        self.open_button = widgets.Button(description="Open", icon="folder-open")
        self.open_button.on_click(lambda _: self.open_file(self.open_path.value))
        self.buttons = {
            name: widgets.Button(description=name.capitalize())
            for name in ("save", "refresh", "load", "rename", "delete")
        }
        for name, clicked in (("save", self.save_clicked), ("refresh", self._refresh_clicked),
                              ("load", self._load_clicked), ("rename", self._rename_clicked),
                              ("delete", self._delete_clicked)):
            self.buttons[name].on_click(clicked)
        b = self.buttons
        super().__init__([
            widgets.HBox([self.folder, b["refresh"]]),
            widgets.HBox([self.open_path, self.open_button], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.file_name, self.overwrite, b["save"]]),
            self.note,  # beside the buttons it answers
            widgets.HBox([self.saved, widgets.VBox([
                b["load"], widgets.HBox([self.new_name, b["rename"]]),
                widgets.HBox([self.confirm_delete, b["delete"]]),
            ])]),
        ])
        self.add_class("wb-library")

    def say(self, text: str, error: bool = False) -> None:
        self.note.value = error_html(text, css="wb-error", tag="div") if error else ok_html(text, tag="div")
        self.echo.value = self.note.value  # said beside the button pressed, too

    def suggest(self, name: str) -> None:
        """Save as suggests the monster's name while the Director has not typed one of their own."""
        if not self.file_name.value.strip() or self.auto_name == self.file_name.value:
            self.file_name.value = self.auto_name = suggest_name(name)

    def open_file(self, path: str | Path) -> Monster | None:
        """Show the monster of a stat block file in the builder: anything the importer reads (a Steel
        Compendium stat block, a Forge Steel monster, a Foundry actor) or a monster saved by the workbench.
        A file neither reads is refused in words beside the buttons; returns the monster shown, or None."""
        text = str(path).strip()
        if not text:
            self.say("Type the path of a stat block file first.", error=True)
            return None
        file = Path(text).expanduser()
        try:
            entry = load_entry(file.stem, file.parent, self.rules) if file.suffix == ".json" else None
        except WorkbenchError:
            entry = None  # not one of ours: the importer's turn
        if entry is not None:
            self.show(entry.monster)
            monster = entry.monster
        else:
            try:
                monster = import_monster(file)
            except ImportRefused as exc:
                if exc.format == "no known stat block format" and exc.part == "top level":
                    self.say(f"Not opened: {file.name} is not a stat block the workbench reads. It opens a Steel "
                             "Compendium stat block, a Forge Steel monster (.ds-monster), a Foundry VTT Draw Steel "
                             "NPC, or a monster saved here.", error=True)
                else:
                    self.say(f"Not opened: {refusal(exc)}", error=True)
                return None
            except (WorkbenchError, OSError) as exc:
                self.say(f"Not opened: {refusal(exc)}", error=True)
                return None
            self.show(monster)
        self.file_name.value = suggest_name(monster.name)
        self.say(f"Opened {monster.name or 'the monster'} from {file}")
        return monster

    def refresh_list(self, selected: str | None = None) -> None:
        """The saved monsters listed again (`selected` chosen); files that do not load are named."""
        contents = load_library(self.folder.value, self.rules)
        self.saved.options = list_monsters(self.folder.value)
        if selected in self.saved.options:
            self.saved.value = selected
        if contents.problems:
            self.say("Could not load: " + "; ".join(f"{f} ({why})" for f, why in contents.problems), True)

    def act(self, failed: str, action: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """`action(...)`, or None with the refusal said beside the buttons, after `failed` ("Not renamed")."""
        try:
            return action(*args, **kwargs)
        except (WorkbenchError, OSError) as exc:
            self.say(f"{failed}: {refusal(exc)}", error=True)
            return None

    def save(self, monster: Monster, name: str, if_taken: str) -> Path | None:
        """Save into the library folder and list it, or say in words why not (None): the one way into the
        library of the Save button, the copy at another level and the pasted text."""
        try:
            path = save_monster(monster, name, self.folder.value, overwrite=self.overwrite.value)
        except NameTaken:
            self.say(f"{name}.json is already in the library: {if_taken}.", error=True)
            return None
        except (WorkbenchError, OSError) as exc:
            self.say(f"Not saved as “{name}”: {refusal(exc)}", error=True)
            return None
        self.refresh_list(path.stem)
        return path

    def save_clicked(self, _: Any = None) -> None:
        """Save the monster shown under the Save as name (its own name when blank)."""
        monster = self.current()
        if monster is None:
            return
        name = self.file_name.value.strip() or monster.name
        if not name.strip():
            self.say("Give the monster a name first (Name, in the Text section), then Save.", error=True)
            return
        path = self.save(monster, name, REPLACE_OR_RENAME + "choose another name")
        if path is not None:
            self.overwrite.value = False
            self.say(f"Saved as {shown_path(path)}")

    def _refresh_clicked(self, _: Any = None) -> None:
        self.say("")
        self.act("The folder could not be read", self.refresh_list)

    def _load_clicked(self, _: Any = None) -> None:
        if not self.saved.value:
            self.say("Pick a saved monster first.", error=True)
            return
        entry = self.act("Not loaded", load_entry, self.saved.value, self.folder.value, self.rules)
        if entry is None:
            return
        self.show(entry.monster)
        self.file_name.value = entry.name
        moved = f" (changed by the current rules: {', '.join(entry.changed)})" if entry.changed else ""
        self.say(f"Loaded {entry.file}{moved}")

    def _rename_clicked(self, _: Any = None) -> None:
        if not self.saved.value:
            self.say("Pick a saved monster first.", error=True)
            return
        path = self.act("Not renamed", rename_monster, self.saved.value, self.new_name.value, self.folder.value)
        if path is not None:
            self.refresh_list(path.stem)
            self.say(f"Renamed to {path.name}")

    def _delete_clicked(self, _: Any = None) -> None:
        if not self.saved.value:
            self.say("Pick a saved monster first.", error=True)
            return
        if not self.confirm_delete.value:
            self.say("Tick “Yes, delete it” first: deleting cannot be undone.", error=True)
            return
        name = self.saved.value
        gone = self.act("Not deleted", delete_monster, name, self.folder.value)
        if gone is None and name in list_monsters(self.folder.value):  # refused, and the file is still there
            return
        self.confirm_delete.value = False
        self.refresh_list()
        self.say(f"Deleted {name}")
