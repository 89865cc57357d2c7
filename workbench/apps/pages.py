"""The pages of `workbench app`: one function per page, each returning the page as one widget.

`workbench_page` is the workbench page: every tool on one page, views of one shared workbench
(`workbench.apps.shell`). The other functions are each tool's own page (a deep link), on a workbench of its own
read from the Director's files when the page opens, and the fight's player view for a second screen. The page
notebooks (`workbench/pages/*.ipynb`) hold one call to a function here (a tool's own page also its title, a
one-line purpose and the explanation folded away). The tools themselves are `workbench.apps.tools`'. Every page
shows the workspace's full path and a box to open another workspace folder (the page is then built again from it).
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets

from workbench.apps.fight import players_app
from workbench.apps.message import plain_tooltips, refusal_html, shown_path
from workbench.apps.revealer import Revealer
from workbench.apps.serving import lessons
from workbench.apps.shared import Workbench
from workbench.apps.shell import WorkbenchShell, workbench_shell
from workbench.apps.stylesheet import stylesheet_widget
from workbench.apps.tools import (
    adventure_tool,
    calibration_tool,
    encounter_tool,
    fight_tool,
    homebrew_tool,
    monster_tool,
    solos_tool,
)
from workbench.errors import WorkbenchError
from workbench.formats.bestiary import Bestiary, PublishedMonster
from workbench.io.home import open_workspace_folder, user_folder
from workbench.io.problem import FileProblem
from workbench.io.reading import read_json
from workbench.io.writing import write_atomic
from workbench.render.escape import Markup
from workbench.render.message import error_html, ok_html
from workbench.workspace.folder import workspace_path

__all__ = [
    "adventure_page",
    "calibration_page",
    "encounter_page",
    "fight_page",
    "players_page",
    "homebrew_page",
    "monster_page",
    "shown_path",
    "workspace_file",
    "solos_page",
    "workbench_page",
    "workspace_bar",
]


def _page(*children: widgets.Widget) -> widgets.VBox:
    """A page's one widget (class `wb-page`: the browser tests wait for it), every label's hover its words."""
    page = widgets.VBox([*children, stylesheet_widget()]).add_class("wb-page")
    plain_tooltips(page)
    return page


def _tool_page(tool: widgets.VBox, shared: Workbench | None = None) -> widgets.VBox:
    """A tool (`workbench.apps.tools`) as a page of its own: its parts, one under the other; with `shared`, the
    workbench it works on, what it asks to see scrolled into view is (`Revealer`), as on the workbench page."""
    page = _page(*tool.children, *([Revealer(shared)] if shared is not None else []))
    plain_tooltips(page)
    return page


def workspace_bar(on_open: Callable[[], None], said: str = "") -> widgets.VBox:
    """The line saying where the workspace is (in full, from the home folder), and a folder box with "Open" to work in another one
    for this page: `on_open()` is called once it is the workspace (the page builds itself again from it)."""
    where = widgets.HTML(Markup('<div class="wb-workspace-where wb-aside">Workspace: <b>'
                         "{}</b> (your monsters, encounters, adventures and "
                         "bestiaries)</div>").format(shown_path(user_folder().absolute())))
    folder = widgets.Text(value="", description="Open another workspace", placeholder="a folder path",
                          style={"description_width": "initial"}, layout={"width": "420px"})
    folder.add_class("wb-workspace-folder")
    button = widgets.Button(description="Open workspace", layout={"width": "auto"})
    button.add_class("wb-workspace-open")
    message = widgets.HTML(said)

    def pressed(_button: object) -> None:
        try:
            open_workspace_folder(folder.value)
        except WorkbenchError as exc:
            message.value = refusal_html(exc, {"folder": "Open another workspace"})
            return
        on_open()

    button.on_click(pressed)
    bar = widgets.VBox([where, widgets.HBox([folder, button], layout={"flex_flow": "row wrap"}), message])
    return bar.add_class("wb-workspace-bar")


def _in_workspace(build: Callable[[], widgets.VBox]) -> Callable[[], widgets.VBox]:
    """The page `build` makes, under the workspace bar; opening another workspace builds it again from that."""

    @functools.wraps(build)
    def page() -> widgets.VBox:
        shown = build()

        def reopen() -> None:
            fresh = build()
            opened = ok_html(f"Opened {shown_path(user_folder().absolute())}: this page now works in it.")
            shown.children = (workspace_bar(reopen, opened), *fresh.children)
            plain_tooltips(shown)

        shown.children = (workspace_bar(reopen), *shown.children)
        plain_tooltips(shown)
        return shown

    return page


HANDOFF = "open-in-builder.json"  # a stat block the encounter page asked the monster page to open
OPENED = ".opened-in-builder"  # the hand-off last opened (hidden: a page built before its visit is not rebuilt)


def _hand_to_builder(bestiary: Bestiary, stat_block: PublishedMonster) -> str:
    """The encounter page's "Open in the builder": name the stat block's file for the monster page."""
    file = bestiary.folder_of(stat_block) / stat_block.file
    if not file.is_file():
        return error_html(f"{stat_block.name}'s file is no longer at {file}: load the bestiary again.")
    text = json.dumps({"file": str(file.absolute()), "id": uuid.uuid4().hex}) + "\n"
    write_atomic(user_folder() / HANDOFF, text, overwrite=True)
    return (ok_html(f"{stat_block.name} is ready in the builder:")  # escaped there
            + Markup(' <a href="monster.ipynb" target="_blank" class="wb-open-builder-link">Open the monster page</a>'))


def _handed_file() -> Path | None:
    """The file the encounter page handed over and the monster page has not opened yet (None: none)."""
    folder = user_folder()
    try:
        handed = read_json(folder / HANDOFF)
        opened = (folder / OPENED).read_text(encoding="utf-8").strip() if (folder / OPENED).is_file() else ""
    except (FileProblem, OSError):
        return None
    if not isinstance(handed, dict) or not isinstance(handed.get("file"), str) or handed.get("id") == opened:
        return None
    try:
        write_atomic(folder / OPENED, str(handed.get("id", "")), overwrite=True)
    except (WorkbenchError, OSError):
        pass  # opened again at the next visit: nothing lost
    return Path(handed["file"])


@_in_workspace
def monster_page() -> widgets.VBox:
    """The monster builder, saving to the library folder in the Director's home; a stat block handed over by
    the encounter page's "Open in the builder" is opened in it."""
    shared = Workbench.opened()
    shared.opening = _handed_file()
    return _tool_page(monster_tool(shared), shared)  # Export brings its tab into view


@_in_workspace
def solos_page() -> widgets.VBox:
    """The instant solo beside a built solo, at the level of the workspace's party."""
    return _tool_page(solos_tool(Workbench.opened()))


@_in_workspace
def encounter_page() -> widgets.VBox:
    """The encounter editor on the workspace's encounter, with the saved monsters to add; every change is
    written back to the workspace, so the fight page runs this encounter."""
    return _tool_page(encounter_tool(Workbench.opened(), open_in_builder=_hand_to_builder))


@_in_workspace
def adventure_page() -> widgets.VBox:
    """The day of encounters: the encounters saved on the encounter page, in order with respites, saved into
    the workspace's adventures folder; the packet prints the saved monsters' own stat blocks."""
    return _tool_page(adventure_tool(Workbench.opened(), fight_here=False))


@_in_workspace
def fight_page() -> widgets.VBox:
    """The workspace's encounter as one fight on one board."""
    return _tool_page(fight_tool(Workbench.opened()))


def players_page() -> widgets.VBox:
    """The fight as the players see it, for a second screen."""
    return _page(players_app())


@_in_workspace
def homebrew_page() -> widgets.VBox:
    """The two shipped rule modules as tools: Exploitable Weakness's wound calculator and the swarm simulator."""
    return _tool_page(homebrew_tool())


@_in_workspace
def calibration_page() -> widgets.VBox:
    """The calibration explorer: the formulas beside the published monsters at hand (the sample and the
    workspace's added bestiaries, their attribution under the chart), with a summary first."""
    return _tool_page(calibration_tool())


def workbench_page(first: str | None = None) -> WorkbenchShell:
    """The workbench page: the bar of every tool, `first` in view (the builder by default; the page's address
    names the tool in view), the workspace's folder under them; opening another workspace builds the tools
    again from it."""
    holder = widgets.VBox()
    shell = workbench_shell(Workbench.opened(), lessons(), first, address=True, below=(holder,))

    def reopen() -> None:
        shell.reset(Workbench.opened())
        opened = ok_html(f"Opened {shown_path(user_folder().absolute())}: every tool now works in it.")
        holder.children = (workspace_bar(reopen, opened),)

    holder.children = (workspace_bar(reopen),)
    shell.add_class("wb-page")
    plain_tooltips(shell)
    return shell


def workspace_file() -> str:
    """Where the workspace is kept, in the words a Director reads."""
    return shown_path(workspace_path())
