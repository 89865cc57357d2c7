"""The monster builder's "Paste a stat block": its text from the book, a PDF, a web page or Steel
Compendium Markdown, read whole, saved into the library as printed and opened in the builder.

The monster keeps its printed numbers in the library, as `workbench import --text` does; each line read as
words only is named under the note.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from workbench.apps.builder_library import REPLACE_OR_RENAME, LibraryPanel, refusal
from workbench.apps.message import shown_path
from workbench.errors import WorkbenchError
from workbench.formats.book_text import parse_stat_block_text
from workbench.model import Monster
from workbench.monster.library import suggest_name
from workbench.render.escape import Markup, join

__all__ = ["PastePanel"]


class PastePanel(widgets.VBox):
    """The pasted text (`text`) and its button (`button`), saving through the library panel."""

    def __init__(self, library: LibraryPanel, show: Callable[[Monster], None]) -> None:
        self.library = library
        self.show = show
        self.text = widgets.Textarea(value="", placeholder="Paste a stat block: from the book or a PDF, a web "
                                                        "page, or Steel Compendium Markdown",
                                     layout=widgets.Layout(width="36em", height="10em"))
        self.button = widgets.Button(description="Read and save", icon="paste")
        self.button.on_click(self._paste_clicked)
        super().__init__([
            widgets.HTML("<b>Paste a stat block</b>: its text from the book, a PDF, a web page or Steel Compendium "
                         "Markdown, saved as printed and opened"),
            widgets.HBox([self.text, self.button]),
        ])

    def _paste_clicked(self, _: Any = None) -> None:
        """Read the pasted text whole, save it under its own name (or "Save as") and open it in the builder;
        name each line kept as text."""
        library = self.library
        try:
            monster = parse_stat_block_text(self.text.value)
        except WorkbenchError as exc:
            library.say(f"Not read: {refusal(exc)}", error=True)
            return
        name = library.file_name.value.strip() if library.file_name.value != library.auto_name else ""
        name = name or suggest_name(monster.name)
        path = library.save(monster, name, REPLACE_OR_RENAME + "choose another name in “Save as”")
        if path is None:
            return
        library.overwrite.value = False
        self.show(monster)  # open at once in the builder, as Open does a file
        library.file_name.value = path.stem
        library.say(f"Read {monster.name} (level {monster.level}), saved it as {shown_path(path)} and opened it")
        if monster.kept_as_text:
            kept = join(Markup("<li>{}</li>").format(str(k)) for k in monster.kept_as_text)
            library.note.value = str(library.note.value) + str(Markup(
                '<div class="wb-kept-as-text">Kept as text (read as words only):<ul>{}</ul></div>').format(kept))
