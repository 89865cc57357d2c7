"""The encounter editor's file controls: the file name, "Replace a file of that name", Save and Load, the
encounters saved in the files folder to open with a click, the line saying where Save writes, and what Save,
Load and Open said (beside them, not at the editor's top).

A name alone saves as that name's .json file, and an encounter saved under a name is known by it (the adventure
plan and its packet show it).

With a files folder (a page's: the Director's workspace) the box names a file in it, a relative name taken
there; a file outside it, in the shipped data or of another kind (a monster) is refused by the library.
"""

from __future__ import annotations

from pathlib import Path

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.message import shown_path
from workbench.apps.quiet import Quiet
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import load_encounter, save_encounter
from workbench.errors import InvalidInput
from workbench.render.escape import Markup

__all__ = ["FilesPanel"]


class FilesPanel:
    """The file controls (`path`, `overwrite`, `save`, `load`, `saved`, `open`, `where`) and what they do."""

    def __init__(self, files_folder: str | Path | None, actions: Actions, quiet: Quiet) -> None:
        self.files_folder = files_folder
        self.quiet = quiet
        self.path = widgets.Text(description="File", placeholder="gate.json" if files_folder is not None
                                 else "encounters/gate.json")
        self.overwrite = widgets.Checkbox(value=False, description="Replace a file of that name", indent=False)
        self.save = widgets.Button(description="Save")
        self.load = widgets.Button(description="Load")
        # the encounters saved in the files folder, to open with a click
        self.saved = widgets.Dropdown(options=self._saved_files(), value=None, description="Saved encounters",
                                      style={"description_width": "initial"}, layout={"width": "auto"})
        self.open = widgets.Button(description="Open")
        self.where = widgets.HTML(self._where_words(), _dom_classes=("wb-encounter-files-where",))
        self.said = widgets.HTML(_dom_classes=("wb-encounter-files-said",))  # what Save, Load or Open said
        self.path.observe(lambda change: setattr(self.where, "value", self._where_words()), names="value")
        for name, button in (("save", self.save), ("load", self.load), ("open", self.open)):
            actions.click(button, (name,))

    def lines(self) -> list[widgets.Widget]:
        """The panel's lines, under the rest of the editor."""
        wrap = widgets.Layout(flex_flow="row wrap")
        return [widgets.HBox([self.path, self.overwrite, self.save, self.load], layout=wrap), self.said,
                widgets.HBox([self.saved, self.open], layout=wrap), self.where]

    def named(self, encounter: Encounter) -> Encounter:
        """`encounter` known by the typed file's name when it has none of its own (what Save keeps)."""
        typed = self._typed()
        return encounter if encounter.name or not typed else encounter.model_copy(update={"name": Path(typed).stem})

    def saving(self, encounter: Encounter) -> str:
        """Save `encounter` (`named` first) under the typed name, `.json` added to a name alone; the words to
        show."""
        typed = self._typed()
        if not typed:
            raise InvalidInput("file", self.path.value, "a name, or a file name ending in .json")
        try:
            saved = save_encounter(self.named(encounter), typed, overwrite=self.overwrite.value,
                                   inside=self.files_folder)
        except InvalidInput as exc:
            if exc.field == "file" and exc.reason == "the file exists":  # the library's advice is for scripts
                raise InvalidInput("file", self.path.value.strip(),
                                   f"a new name, or tick “{self.overwrite.description}” to replace it",
                                   "a file of that name exists already") from None
            raise
        self._list_saved(saved)
        return f"Saved to {shown_path(saved.absolute())}"

    def _typed(self) -> str:
        """The typed file name, `.json` added to a name alone ("a name alone saves there")."""
        typed = str(self.path.value).strip()
        return typed if not typed or Path(typed).suffix else typed + ".json"

    def loading(self) -> Encounter:
        """The encounter of the typed file."""
        typed = Path(self._typed()).expanduser()
        if self.files_folder is not None and not typed.is_absolute():
            typed = Path(self.files_folder).expanduser() / typed
        return load_encounter(typed)

    def opening(self) -> Encounter:
        """The encounter picked in the Saved encounters list (its name goes into the File box)."""
        if not self.saved.value:
            raise InvalidInput("saved encounter", "", "an encounter picked in the Saved encounters list")
        self.path.value = Path(self.saved.value).name
        return self.loading()

    def _saved_files(self) -> list[tuple[str, str]]:
        """The encounter files in the files folder (name, path), newest first; none without a files folder."""
        if self.files_folder is None:
            return []
        folder = Path(self.files_folder).expanduser()
        try:
            files = sorted((p for p in folder.glob("*.json") if p.is_file()),
                           key=lambda p: p.stat().st_mtime_ns, reverse=True)
        except OSError:
            return []
        return [(p.stem, str(p)) for p in files]

    def _list_saved(self, chosen: Path | None = None) -> None:
        options = self._saved_files()
        with self.quiet:
            self.saved.options = options
            self.saved.value = str(chosen) if chosen is not None and str(chosen) in dict(options).values() else None

    def _where_words(self) -> str:
        """Where encounters are saved and, once a name is typed, the file Save will write: the Director sees the
        whole path before saving, and the line changes only when the kernel has the typed name."""
        if self.files_folder is None:
            return ""
        folder = Path(self.files_folder).expanduser().absolute()
        words = Markup('<small>Encounters are saved in <b class="wb-files-folder">{}</b>; '
                       "a name alone saves there.").format(shown_path(folder))
        typed = self._typed()
        if typed:
            target = Path(typed).expanduser()
            target = target if target.is_absolute() else folder / target
            words += Markup(' Save writes <b class="wb-save-target">{}</b>.').format(shown_path(target))
        return str(words + Markup("</small>"))
