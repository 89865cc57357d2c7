"""The fight page's app: the Director's current encounter as one fight on one board.

Everything comes from the workspace (`workbench.workspace`): the party, the encounter and each creature's
own Monster. The fight runner (`workbench.apps.fight_runner`) is the board: one Malice, one set of squads,
one undo, one "next round". Each encounter's fight is kept in its own file in the Director's folder
(`fights/`), so reopening the page resumes it, and the player view (`players_app`, a page of its own for a
second screen) reads that file. When the fight ends its Victories travel (`workbench.workspace.fight_victories`):
into the workspace's party and, for an encounter opened from an adventure, into that adventure; such a fight
starts with the Victories the heroes arrive with and their Malice. Glue only.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets

from workbench.apps.fight_runner import fight_runner
from workbench.apps.message import refusal_html
from workbench.encounter.encounter import Encounter
from workbench.errors import InvalidInput, WorkbenchError
from workbench.fight.fight import Fight, load_fight
from workbench.io.home import user_folder
from workbench.io.problem import FileProblem, os_reason
from workbench.io.writing import set_aside
from workbench.numbers import format_number
from workbench.render.escape import escape
from workbench.render.fight import player_view_html
from workbench.render.message import error_html, ok_html
from workbench.workspace.fight_setup import encounter_monsters, malice_party
from workbench.workspace.fight_victories import adventure_plan, carry_victories
from workbench.workspace.state import Workspace, load_workspace

__all__ = ["PLAYER_VIEW_LINK", "fight_app", "fight_file", "fight_summary_html", "open_fight", "players_app"]

PLAYER_VIEW_LINK = ('<a class="wb-player-link" href="players.ipynb" target="_blank" rel="noopener">'
                    "Open the player view</a> (for a second screen: turn order, winded, conditions, and the "
                    "Malice when you show it; no Stamina numbers of your creatures)")


def _makeup(encounter: Encounter) -> Encounter:
    """The encounter without the Victories its party holds: the same fight before and after they change."""
    return encounter.model_copy(update={"party": encounter.party.model_copy(update={"victories": Fraction(0)})})


def fight_file(workspace: Workspace, folder: Path | None = None) -> Path:
    """Where this encounter's fight is kept: one file per encounter, named by a digest of the encounter (its
    party's Victories aside, so the Victories a fight writes back keep it the same fight)."""
    text = json.dumps(_makeup(workspace.encounter).model_dump(mode="json"), sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return (folder if folder is not None else user_folder() / "fights") / f"fight-{digest}.json"


def open_fight(workspace: Workspace, path: Path, victories: Fraction | None = None) -> tuple[Fight | None, str]:
    """The encounter's fight resumed from `path`, or a new one (the heroes arriving with `victories`, else the
    party's); with a note (HTML) when something was off.

    A file that does not replay is moved aside (`set_aside`: never overwritten, never over a file) and a new
    fight starts; one that cannot be moved (a link, a read-only folder) is left as it is, and no fight starts.
    """
    monsters = tuple(m for m, _count in encounter_monsters(workspace))
    note = ""
    if os.path.lexists(path):
        try:
            fight = load_fight(path)
        except InvalidInput as exc:
            try:
                aside = set_aside(path, "unreadable")
            except FileProblem as problem:
                return None, refusal_html(exc) + error_html(f" It is left as it is: {problem.reason}.")
            note = refusal_html(exc) + escape(f" It is kept as {aside.name}; a new fight starts.")
        else:
            if _makeup(fight.given_encounter) == _makeup(workspace.encounter):
                return fight, ""
    try:
        fight = Fight(workspace.encounter, monsters, victories)
    except InvalidInput as exc:
        return None, note + refusal_html(exc)
    try:
        fight.kept_in(path)  # a page opened at the same time that saves first is then not overwritten
    except FileProblem:
        pass  # a path no fight can be kept in: the first save says why, on the page
    return fight, note


def fight_summary_html(workspace: Workspace, victories: Fraction | None = None) -> str:
    """One line on what the fight holds: the party (arriving with `victories`) and each creature entry."""
    heroes, _ = malice_party(workspace)
    party = workspace.encounter.party
    levels = sorted(set(party.levels))
    level = f"level {levels[0]}" if len(levels) == 1 else "levels " + ", ".join(map(str, levels))
    held = format_number(party.victories if victories is None else victories)
    who = f"{heroes} hero{'es' if heroes != 1 else ''} of {level}, {held} Victories on average"
    creatures = "; ".join(f"{count} × {m.name}" for m, count in encounter_monsters(workspace))
    name = escape(workspace.encounter.name or "The current encounter")
    against = escape(creatures) if creatures else "no creatures yet (add some on the encounter page)"
    return f'<div class="wb-fight-summary"><b>{name}</b>: {escape(who)} against {against}.</div>'


def _arrival(workspace: Workspace) -> tuple[Fraction | None, str]:
    """The Victories the heroes arrive with from the adventure the encounter was opened from, and a line
    saying so (with the Malice the monsters start with); (None, "") when it was not."""
    found = adventure_plan(workspace)
    link = workspace.adventure
    if found is None or link is None:
        return None, ""
    row = found.encounters[link.index]
    name = found.adventure.name or Path(link.path).stem
    line = (f"Encounter {link.index + 1} of the adventure “{name}”: the heroes arrive with "
            f"{format_number(row.arrival_victories)} Victories; the monsters start with {row.starting_malice} "
            f"Malice and gain {row.first_round_malice} in round 1.")
    return row.arrival_victories, f'<div class="wb-fight-adventure">{escape(line)}</div>'


class _Carrier:
    """Carries an ended fight's Victories into the workspace (and its adventure); takes them back when the
    end is undone. Writes only when the fight crosses its end."""

    def __init__(self, fight: Fight, note: widgets.HTML, on_carried: Callable[[], object] | None) -> None:
        self.carried = fight.ended
        self.note = note
        self.on_carried = on_carried

    def __call__(self, fight: Fight) -> None:
        if fight.ended == self.carried:
            return
        found = fight.result()
        try:
            if fight.ended:
                where = carry_victories(found.victories_after, found.victories)
                said = (f"Each hero's {found.victories} Victor{'y' if found.victories == 1 else 'ies'} written: "
                        f"the party now holds {format_number(found.victories_after)} on average ({where}).")
            else:
                where = carry_victories(fight.victories, None)
                said = f"The end is undone: the party holds {format_number(fight.victories)} Victories again ({where})."
        except WorkbenchError as exc:
            self.note.value = error_html(f"Could not write the Victories: {exc}.")
            return
        except OSError as exc:
            self.note.value = error_html(f"Could not write the Victories: {os_reason(exc)}.")
            return
        self.carried = fight.ended
        self.note.value = ok_html(said)
        if self.on_carried is not None:
            self.on_carried()


def fight_app(workspace: Workspace, on_carried: Callable[[], object] | None = None) -> widgets.VBox:
    """The encounter's fight on one board, resumed from its file; the player view's link above it.
    `on_carried()` is called once the Victories of an end (or of its undoing) are written to the workspace."""
    victories, from_adventure = _arrival(workspace)
    path = fight_file(workspace)
    fight, note = open_fight(workspace, path, victories)
    carried = widgets.HTML().add_class("wb-fight-carried")
    runner: widgets.Widget
    if fight is None:
        runner = widgets.HTML("<div>The fight starts once the encounter page has creatures in it.</div>")
    else:
        runner = fight_runner(fight, path, on_change=_Carrier(fight, carried, on_carried))
    box = widgets.VBox([
        widgets.HTML(fight_summary_html(workspace, fight.victories if fight is not None else None)),
        widgets.HTML(from_adventure),
        widgets.HTML(f'<div class="wb-page-note">{PLAYER_VIEW_LINK}</div>'),
        widgets.HTML(note),
        carried,
        runner,
    ])
    box.add_class("wb-fight")
    box.runner = runner
    box.fight = fight
    return box


def players_app(workspace_path: str | Path | None = None) -> widgets.VBox:
    """The player view for a second screen: the workspace's fight as the players may see it, read from its
    file again on "Refresh" and every few seconds (while the file is unchanged nothing is read)."""
    view = widgets.HTML().add_class("wb-players")
    refresh = widgets.Button(description="Refresh", icon="refresh")
    ticker = widgets.Play(interval=3000, max=10**9, repeat=True, playing=True, show_repeat=False,
                          layout={"display": "none"})
    seen: dict[str, object] = {}

    def show(_change: object = None) -> None:
        try:
            workspace = load_workspace(workspace_path)
            path = fight_file(workspace)
            stamp = path.stat().st_mtime_ns if path.exists() else None
            if seen.get("key") == (path, stamp):
                return
            seen["key"] = (path, stamp)
            fight = load_fight(path) if stamp is not None else None  # read only: a bad file is left as it is
        except (WorkbenchError, OSError):
            view.value = "<div>The fight cannot be read just now; it is shown again once it can.</div>"
            seen.clear()
            return
        if fight is None or not fight.events:
            view.value = "<div>The fight has not started yet.</div>"
            return
        view.value = player_view_html(fight)

    def again(_button: object = None) -> None:
        seen.clear()
        show()

    refresh.on_click(again)
    ticker.observe(show, names="value")
    show()
    box = widgets.VBox([widgets.HBox([refresh, ticker]), view])
    box.add_class("wb-players-app")
    box.view = view
    box.refresh = refresh
    return box
