"""The adventure planner: a day of saved encounters in order, respites between them, and the packet to print.

Each encounter is a row with buttons to move it up or down, to remove it, and to add (or take away) a respite
after it. "Add encounter" offers the encounters saved by the encounter page (the workspace's encounters
folder). Under the rows, the day as `render.adventure.day_html` draws it: each encounter's arrival Victories,
encounter strength, difficulty and starting Malice, with the warnings in the rules' words. "Print the packet"
makes the PDF (`export.adventure.export_adventure`) and draws a link that downloads it.

Glue only: every change is one `Adventure` method, every number comes from `Adventure.plan()`. A refusal
(a file that cannot be read, a move past the end) is said in words beside the buttons and changes nothing.

The returned widget carries `controls` (the page's own controls), `rows` (each row's buttons, by name) and
`adventure` (what is planned now; None before the first encounter is added), for scripts and tests.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.export import BUTTON_STYLE
from workbench.apps.message import refusal_html, shown_path
from workbench.encounter.adventure import Adventure, adventure_of
from workbench.encounter.encounter import load_encounter
from workbench.errors import InvalidInput, WorkbenchError
from workbench.export.adventure import export_adventure
from workbench.model import Monster
from workbench.monster.library import suggest_name
from workbench.render.adventure import day_html
from workbench.workspace import encounters_folder

__all__ = ["AdventureApp", "adventure_app", "packet_link_html"]

EMPTY = "<p class='wb-note'>No encounters yet: pick one saved on the encounter page and press “Add encounter”.</p>"


def packet_link_html(adventure: Adventure, pdf: bytes) -> str:
    """A link that downloads the packet (the PDF inside the link, as a data: URL)."""
    name = (suggest_name(adventure.name) or "adventure") + " packet.pdf"
    href = f"data:application/pdf;base64,{base64.b64encode(pdf).decode('ascii')}"
    return (f'<a class="wb-download" data-format="pdf" download="{html.escape(name, quote=True)}" '
            f'style="{BUTTON_STYLE}" href="{href}">⬇ Download {html.escape(name)}</a> '
            f'<span class="wb-note">({len(pdf):,} bytes)</span>')


class AdventureApp(widgets.VBox):
    """The rows of the day, the "Add encounter" picker, the day's table and the packet button."""

    def __init__(
        self,
        adventure: Adventure | None = None,
        folder: str | Path | None = None,
        monsters: Sequence[Monster] = (),
    ) -> None:
        self.adventure = adventure
        self.folder = Path(folder).expanduser() if folder is not None else encounters_folder()
        self.monsters = tuple(monsters)
        self.rows: list[dict[str, widgets.Button]] = []
        self.controls = {
            "saved": widgets.Dropdown(options=[], value=None, description="Saved"),
            "add": widgets.Button(description="Add encounter", icon="plus"),
            "refresh": widgets.Button(description="Refresh list", icon="refresh"),
            "print": widgets.Button(description="Print the packet", icon="print"),
        }
        self.refusal = widgets.HTML()
        self.rows_box = widgets.VBox()
        self.day = widgets.HTML()
        self.link = widgets.HTML()
        self.controls["add"].on_click(self._act(self._add))
        self.controls["refresh"].on_click(self._act(lambda: None))
        self.controls["print"].on_click(self._print)
        where = html.escape(shown_path(self.folder.absolute()))
        super().__init__(children=[
            widgets.HTML(f"<b>Adventure</b>: the encounters of one day, in order. Encounters saved on the "
                         f"encounter page are in <b class='wb-files-folder'>{where}</b>."),
            widgets.HBox([self.controls["saved"], self.controls["add"], self.controls["refresh"]]),
            self.refusal, self.rows_box, self.day,
            widgets.HBox([self.controls["print"]]), self.link,
        ])
        self.add_class("wb-adventure")
        self._draw()

    # ------------------------------------------------------------ actions

    def _act(self, action: Callable[[], None]) -> Callable[[Any], None]:
        """A click handler: the action, then the page redrawn; a refusal changes nothing and is said."""

        def handler(_button: Any = None) -> None:
            try:
                action()
            except WorkbenchError as exc:
                self.refusal.value = refusal_html(exc)
            else:
                self.refusal.value = ""
            self._draw()

        return handler

    def _change(self, change: Callable[[Adventure], Adventure]) -> None:
        if self.adventure is not None:
            self.adventure = change(self.adventure)
            self.link.value = ""  # a packet of an older day is never offered

    def _add(self) -> None:
        path = self.controls["saved"].value
        if not path:
            raise InvalidInput("saved encounter", "", "an encounter picked in the Saved list")
        encounter = load_encounter(path)
        if self.adventure is None:
            self.adventure = adventure_of([encounter])
            self.link.value = ""
        else:
            self._change(lambda a: a.adding(encounter))

    def _print(self, _button: Any = None) -> None:
        if self.adventure is None or not self.adventure.encounters:
            self.link.value = EMPTY
            return
        try:
            packet = export_adventure(self.adventure, "pdf", self.monsters)
        except WorkbenchError as exc:
            self.link.value = refusal_html(exc)
            return
        pdf = packet if isinstance(packet, bytes) else packet.encode("utf-8")
        self.link.value = packet_link_html(self.adventure, pdf)

    # ------------------------------------------------------------ drawing

    def _saved_files(self) -> list[tuple[str, str]]:
        try:
            files = sorted(p for p in self.folder.glob("*.json") if p.is_file())
        except OSError:
            return []
        return [(p.stem, str(p)) for p in files]

    def _row(self, index: int, adventure: Adventure) -> widgets.HBox:
        last = len(adventure.encounters) - 1
        after = index + 1 in adventure.respites
        buttons = {
            "up": widgets.Button(description="▲", tooltip="Move up", disabled=index == 0,
                                 layout={"width": "3em"}),
            "down": widgets.Button(description="▼", tooltip="Move down", disabled=index == last,
                                   layout={"width": "3em"}),
            "remove": widgets.Button(description="Remove", icon="trash"),
            "respite": widgets.Button(description="Remove the respite after" if after else "Add a respite after",
                                      layout={"width": "15em"}),
        }
        buttons["up"].on_click(self._act(lambda: self._change(lambda a: a.moving(index, index - 1))))
        buttons["down"].on_click(self._act(lambda: self._change(lambda a: a.moving(index, index + 1))))
        buttons["remove"].on_click(self._act(lambda: self._change(lambda a: a.without_encounter(index))))
        buttons["respite"].on_click(self._act(lambda: self._change(
            lambda a: a.without_respite(index + 1) if after else a.with_respite(index + 1))))
        self.rows.append(buttons)
        name = adventure.encounters[index].name or f"Encounter {index + 1}"
        label = widgets.HTML(f"<b>{index + 1}.</b> {html.escape(name)}", layout={"width": "16em"})
        return widgets.HBox([label, buttons["up"], buttons["down"], buttons["remove"], buttons["respite"]])

    def _draw(self) -> None:
        chosen = self.controls["saved"].value
        options = self._saved_files()
        self.controls["saved"].options = options
        self.controls["saved"].value = chosen if chosen in dict(options).values() else None
        self.rows = []
        adventure = self.adventure
        if adventure is None or not adventure.encounters:
            self.rows_box.children = ()
            self.day.value = EMPTY
            return
        self.rows_box.children = tuple(self._row(i, adventure) for i in range(len(adventure.encounters)))
        self.day.value = day_html(adventure.plan())


def adventure_app(
    adventure: Adventure | None = None,
    folder: str | Path | None = None,
    monsters: Sequence[Monster] = (),
) -> AdventureApp:
    """The adventure planner. `folder` holds the saved encounters offered (the workspace's encounters folder
    by default); `monsters` give the creatures' own stat blocks for the packet's cards."""
    return AdventureApp(adventure, folder, monsters)
