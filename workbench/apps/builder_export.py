"""The monster builder's Export tab: files for Forge Steel, Foundry and print (downloaded by the browser),
the stat block as Markdown to copy into a document, and, folded away, the monster as the workbench stores it.
"""

from __future__ import annotations

import ipywidgets as widgets

from workbench.apps.builder_controls import note
from workbench.apps.export import ExportPanel
from workbench.homebrew.rule import HomebrewRule
from workbench.model import Monster
from workbench.render.stat_block import stat_block_markdown
from workbench.rules.lore import Lore

__all__ = ["ExportTab"]


class ExportTab(widgets.VBox):
    """The files (`files`), the Markdown (`markdown`) and the JSON (`json`) of the monster drawn."""

    def __init__(self) -> None:
        self.files = ExportPanel()  # files for Forge Steel, Foundry, print: downloaded by the browser
        self.markdown = widgets.Textarea(layout=widgets.Layout(width="100%", height="16em"))
        self.json = widgets.Textarea(layout=widgets.Layout(width="100%", height="16em"))
        # the JSON is for other programs: folded away under "Advanced"
        advanced = widgets.Accordion(children=[widgets.VBox([
            widgets.HTML(note("The monster as the workbench stores it, for other programs and scripts.")),
            self.json,
        ])], titles=("Advanced: the monster as JSON",), selected_index=None).add_class("wb-export-advanced")
        super().__init__([
            self.files,
            widgets.HTML("<b>Markdown</b> (copy into a document)"), self.markdown,
            advanced,
        ])

    def draw(self, monster: Monster, modules: dict[str, HomebrewRule], lore: Lore) -> None:
        self.markdown.value = stat_block_markdown(monster, lore=lore, modules=modules)
        self.files.show(monster)
        self.json.value = monster.to_json()
