"""The app pages of `workbench app`: one function per page, each returning the page's tool as one widget.

The page notebooks (`workbench/pages/*.ipynb`) hold a title, a one-line purpose and the explanation folded
away, then one call to a function here. The functions call the same apps the lessons call
(`monster_builder`, `encounter_app`, `malice_app`, ...) and add only what a page needs to work with the
others: the Director's workspace (`workbench.workspace`), read when the page opens and written by the
encounter page after each change, and the library folder in the Director's home. Every page opens with the
workspace's full path and a box to open another workspace folder for that page (it is then built again from it).
The pages list the workspace's monsters together: the published stat blocks (the sample and the bestiaries
added, each with its attribution), the library, and the other bestiaries' monsters.
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.adventure import adventure_app
from workbench.apps.bestiary_add import BestiaryAdder
from workbench.apps.builder import monster_builder
from workbench.apps.calibration import calibration_app
from workbench.apps.encounter import encounter_app
from workbench.apps.fight import fight_app, players_app
from workbench.apps.homebrew import swarm_app, weakness_app
from workbench.apps.message import plain_tooltips, refusal_html, shown_path
from workbench.apps.solos import solos_app
from workbench.apps.stylesheet import stylesheet_widget
from workbench.errors import WorkbenchError
from workbench.formats.bestiary import Bestiary, PublishedMonster
from workbench.io.home import library_folder, open_workspace_folder, user_folder
from workbench.io.problem import FileProblem
from workbench.io.reading import read_json
from workbench.io.writing import FileChanged, write_atomic
from workbench.model import Monster
from workbench.monster.library import load_library
from workbench.render.escape import Markup, join
from workbench.render.message import error_html, ok_html
from workbench.workspace.added_bestiary import AddedBestiary
from workbench.workspace.folder import adventures_folder, bestiaries_folder, encounters_folder, workspace_path
from workbench.workspace.migration import old_library_folders
from workbench.workspace.shelf import gather_bestiary, workspace_stat_blocks
from workbench.workspace.state import Workspace, default_workspace, load_workspace, remember_encounter, save_workspace

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
    "workspace_bar",
]


def _page(*children: widgets.Widget) -> widgets.VBox:
    """A page's one widget (class `wb-page`: the browser tests wait for it), every label's hover its words."""
    page = widgets.VBox([*children, stylesheet_widget()]).add_class("wb-page")
    plain_tooltips(page)
    return page


def _note(text: str, css: str = "wb-page-note") -> widgets.HTML:
    return widgets.HTML(Markup('<div class="{} wb-aside">{}</div>').format(css, text))


def _workspace() -> tuple[Workspace, widgets.HTML]:
    """The saved workspace (or a fresh one, with a note saying why when the file could not be read)."""
    try:
        return load_workspace(), _note("")
    except WorkbenchError as exc:
        return default_workspace(), widgets.HTML(refusal_html(exc) + " A new workspace is used; the file is kept.")


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


def _from_html(lines: tuple[str, ...]) -> str:
    """The Monster list's other shelves, each with how many and its attribution (nothing when there are none)."""
    if not lines:
        return ""
    items = join(Markup("<li class='wb-attribution-line'>{}</li>").format(line) for line in lines)
    return Markup("<div class='wb-monster-list-sources'>Also in the Monster list:<ul>{}</ul></div>").format(items)


def _watch(widget: Any, callback: Callable[[Any], None]) -> None:
    """Call `callback` after any value change anywhere in `widget`'s tree (the encounter app is a black box)."""
    if hasattr(widget, "value"):
        widget.observe(callback, names="value")
    for child in getattr(widget, "children", ()):
        _watch(child, callback)


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
    folder = library_folder()
    builder = monster_builder(folder=folder)
    handed = _handed_file()
    if handed is not None:
        builder.open_file(handed)
    where = _note(Markup("Your monsters are saved in <b>{}</b> (the Homebrew library "
                  "tab below) and offered on the encounter page.").format(shown_path(folder)))
    return _page(where, builder)


@_in_workspace
def solos_page() -> widgets.VBox:
    """The instant solo beside a built solo, at the level of the workspace's party."""
    workspace, problem = _workspace()
    level = max(1, min(20, round(workspace.encounter.party.average_level)))
    return _page(problem, solos_app(level=level))


@_in_workspace
def encounter_page() -> widgets.VBox:
    """The encounter editor on the workspace's encounter, with the saved monsters to add; every change is
    written back to the workspace, so the fight page runs this encounter."""
    workspace, problem = _workspace()
    contents = load_library(library_folder())
    monsters, unreadable = contents.named_monsters(), contents.problem_lines()
    saved_count = len(monsters)
    folder = library_folder()
    # beside the library: the added bestiaries' monsters the stat block list does not hold (Forge Steel, Foundry)
    # and those saved in the old library folders, each with its shelf's attribution
    others = gather_bestiary(bestiaries_folder(), None, sample=False, published=False,
                             old_libraries=old_library_folders(folder))
    monsters += [m for m in others.monsters if isinstance(m, Monster)]
    unreadable += [f"{what} ({why})" for what, why in others.problems]
    app = encounter_app(monsters=monsters, encounter=workspace.encounter, library_folder=folder,
                        bestiary=workspace_stat_blocks(), files_folder=encounters_folder(),
                        open_in_builder=_hand_to_builder)
    app.library = list(monsters)  # suggestions choose from the Director's monsters too, as from the stat blocks
    app.browser.show_bestiary(app.bestiary, announce=True)  # the keyword picker offers theirs as well

    def added(bestiary: AddedBestiary) -> None:
        """The new stat blocks into the picker; its other monsters (Forge Steel, Foundry) into the suggestions
        at once, and into the Monster list when the page is opened again."""
        more = gather_bestiary(bestiaries_folder(), None, sample=False, published=False)
        theirs = [e.monster for e in more.entries if e.shelf == bestiary.name and isinstance(e.monster, Monster)]
        app.library = [*app.library, *theirs]
        app.browser.show_bestiary(workspace_stat_blocks(), announce=True)
        if theirs:
            adding.message.value = str(adding.message.value) + str(
                Markup('<div class="wb-page-note">{} of them are not Steel Compendium stat blocks: they are '
                "suggested from now on, and listed in the Monster list when this page is opened again.</div>").format(len(theirs)))

    adding = BestiaryAdder(on_added=added)
    adder = widgets.Accordion([adding], titles=("Add a bestiary (a folder, .zip, .tar.gz or link)",),
                              selected_index=None)
    adder.add_class("wb-bestiary-adder-fold")
    app.browser.children = (adder, *app.browser.children)
    status = widgets.HTML().add_class("wb-workspace-status")
    state = {"workspace": workspace}

    def remember(_change: Any = None) -> None:
        current = app.state()
        if current == state["workspace"].encounter:
            return
        state["workspace"] = remember_encounter(state["workspace"], current, monsters)
        try:
            save_workspace(state["workspace"])
        except WorkbenchError as exc:  # another page saved first, or the file is damaged: it is kept
            again = " Reload the page to go on from the saved workspace." if isinstance(exc, FileChanged) else ""
            status.value = error_html(f"Could not keep the encounter: {exc.summary}.{again}")
            return
        except OSError as exc:
            status.value = error_html(f"Could not keep the encounter: {exc.strerror or exc}.")
            return
        status.value = ok_html("Kept: the fight page runs this encounter.")

    _watch(app, remember)
    saved = f"{saved_count} saved monster{'s' if saved_count != 1 else ''} from {shown_path(folder)}"
    skipped = f"; could not read {', '.join(unreadable)}" if unreadable else ""
    lines = _note(Markup("{} in the Monster list. The party and the creatures here are what the fight page uses.{}")
                  .format(saved + skipped, _from_html(others.attribution_lines())))
    return _page(problem, lines, status, app)


@_in_workspace
def adventure_page() -> widgets.VBox:
    """The day of encounters: the encounters saved on the encounter page, in order with respites, saved into
    the workspace's adventures folder; the packet prints the saved monsters' own stat blocks."""
    workspace, problem = _workspace()
    monsters = load_library(library_folder()).named_monsters()  # the encounter page names the files it could not read
    app = adventure_app(folder=encounters_folder(), monsters=monsters, adventures=adventures_folder(),
                        party=workspace.encounter.party.model_copy(update={"victories": Fraction(0)}))
    return _page(problem, app)


@_in_workspace
def fight_page() -> widgets.VBox:
    """The workspace's encounter as one fight on one board."""
    workspace, problem = _workspace()
    return _page(problem, fight_app(workspace))


def players_page() -> widgets.VBox:
    """The fight as the players see it, for a second screen."""
    return _page(players_app())


@_in_workspace
def homebrew_page() -> widgets.VBox:
    """The two shipped rule modules as tools: Exploitable Weakness's wound calculator and the swarm simulator."""
    weakness = weakness_app()
    swarm = swarm_app()
    return _page(
        widgets.HTML("<h3>Exploitable Weakness: how much a hit with the right material wounds</h3>"),
        weakness,
        widgets.HTML("<h3>Swarms: how long a swarm lasts at the table</h3>"),
        swarm,
    )


@_in_workspace
def calibration_page() -> widgets.VBox:
    """The calibration explorer: the formulas beside the published monsters at hand (the sample and the
    workspace's added bestiaries, their attribution under the chart), with a summary first."""
    return _page(calibration_app(bestiary=workspace_stat_blocks()))


def workspace_file() -> str:
    """Where the workspace is kept, in the words a Director reads."""
    return shown_path(workspace_path())
