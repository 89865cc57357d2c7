"""The app pages of `workbench app`: one function per page, each returning the page's tool as one widget.

The page notebooks (`workbench/pages/*.ipynb`) hold a title, a one-line purpose and the explanation folded
away, then one call to a function here. The functions call the same apps the lessons call
(`monster_builder`, `encounter_app`, `malice_app`, ...) and add only what a page needs to work with the
others: the Director's workspace (`workbench.workspace`), read when the page opens and written by the
encounter page after each change, and the library folder in the Director's home.
"""

from __future__ import annotations

import html
import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.builder import monster_builder
from workbench.apps.calibration import calibration_app
from workbench.apps.encounter import encounter_app
from workbench.apps.fight import fight_app
from workbench.apps.homebrew import swarm_app, weakness_app
from workbench.apps.message import plain_tooltips, refusal_html, shown_path
from workbench.apps.solos import solos_app
from workbench.errors import WorkbenchError
from workbench.formats.bestiary import Bestiary, PublishedMonster
from workbench.io.safe_file import FileChanged, FileProblem, read_json, write_atomic
from workbench.model import Monster
from workbench.monster.library import load_library
from workbench.render.message import error_html, ok_html
from workbench.workspace import (
    Workspace,
    default_workspace,
    encounters_folder,
    library_folder,
    load_workspace,
    remember_encounter,
    save_workspace,
    user_folder,
    workspace_path,
)

__all__ = [
    "calibration_page",
    "encounter_page",
    "fight_page",
    "homebrew_page",
    "monster_page",
    "shown_path",
    "workspace_file",
    "solos_page",
]


def _page(*children: widgets.Widget) -> widgets.VBox:
    """A page's one widget (class `wb-page`: the browser tests wait for it), every label's hover its words."""
    page = widgets.VBox(list(children)).add_class("wb-page")
    plain_tooltips(page)
    return page


def _note(text: str, css: str = "wb-page-note") -> widgets.HTML:
    return widgets.HTML(f'<div class="{css}" style="color:#444">{text}</div>')


def _workspace() -> tuple[Workspace, widgets.HTML]:
    """The saved workspace (or a fresh one, with a note saying why when the file could not be read)."""
    try:
        return load_workspace(), _note("")
    except WorkbenchError as exc:
        return default_workspace(), widgets.HTML(refusal_html(exc) + " A new workspace is used; the file is kept.")


def _library_monsters() -> tuple[list[Monster], list[str]]:
    """The saved monsters (each named by its library name when it has none) and the files that did not load."""
    contents = load_library(library_folder())
    found = [e.monster if e.monster.name else e.monster.model_copy(update={"name": e.name})
             for e in contents.entries]
    return found, [f"{file} ({reason})" for file, reason in contents.problems]


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
    root = Path(bestiary.source)
    file = (root if root.is_dir() else root.parent) / stat_block.file
    if not file.is_file():
        return error_html(f"{stat_block.name}'s file is no longer at {file}: load the bestiary again.")
    text = json.dumps({"file": str(file.absolute()), "id": uuid.uuid4().hex}) + "\n"
    write_atomic(user_folder() / HANDOFF, text, overwrite=True)
    return (ok_html(f"{stat_block.name} is ready in the builder:")  # escaped there
            + ' <a href="monster.ipynb" target="_blank" class="wb-open-builder-link">Open the monster page</a>')


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


def monster_page() -> widgets.VBox:
    """The monster builder, saving to the library folder in the Director's home; a stat block handed over by
    the encounter page's "Open in the builder" is opened in it."""
    folder = library_folder()
    builder = monster_builder(folder=folder)
    handed = _handed_file()
    if handed is not None:
        builder.open_file(handed)
    where = _note(f"Your monsters are saved in <b>{html.escape(shown_path(folder))}</b> (the Homebrew library "
                  "tab below) and offered on the encounter page.")
    # the builder's chart switch ("Other organizations") is cut at its fixed 10em: let it size to its words
    fit = widgets.HTML("<style>.wb-builder .widget-toggle-buttons button{width:auto !important;"
                       "padding:0 1em}</style>")
    return _page(fit, where, builder)


def solos_page() -> widgets.VBox:
    """The instant solo beside a built solo, at the level of the workspace's party."""
    workspace, problem = _workspace()
    level = max(1, min(20, round(workspace.encounter.party.average_level)))
    return _page(problem, solos_app(level=level))


def encounter_page() -> widgets.VBox:
    """The encounter editor on the workspace's encounter, with the saved monsters to add; every change is
    written back to the workspace, so the fight page runs this encounter."""
    workspace, problem = _workspace()
    monsters, unreadable = _library_monsters()
    folder = library_folder()
    app = encounter_app(monsters=monsters, encounter=workspace.encounter, library_folder=folder,
                        files_folder=encounters_folder(), open_in_builder=_hand_to_builder)
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
    saved = f"{len(monsters)} saved monster{'s' if len(monsters) != 1 else ''} from {shown_path(folder)}"
    skipped = f"; could not read {', '.join(unreadable)}" if unreadable else ""
    lines = _note(f"{html.escape(saved + skipped)} in the Monster list. The party and the creatures here are "
                  "what the fight page uses.")
    return _page(problem, lines, status, app)


def fight_page() -> widgets.VBox:
    """Malice and the squads of the workspace's encounter."""
    workspace, problem = _workspace()
    return _page(problem, fight_app(workspace))


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


def calibration_page() -> widgets.VBox:
    """The calibration explorer: the formulas beside the published monsters, with a summary first."""
    return _page(calibration_app())


def workspace_file() -> str:
    """Where the workspace is kept, as shown to a Director."""
    return shown_path(workspace_path())
