"""The fight page's app: Malice and the minion squads of the Director's current encounter.

Everything comes from the workspace (`workbench.workspace`): the party's heroes and Victories set up the
Malice planner and tracker, each creature's own Monster brings its Malice features (Solo Action only with a
solo), and the encounter's minions become squads with its other creatures as possible captains. Above them, the
fight runner (`workbench.apps.fight_runner`) runs the encounter turn by turn; each encounter's fight is kept
in its own file in the Director's folder (`fights/`), so reopening the page resumes it. Glue only: the Malice,
squad and runner apps do the work; this lays them out and says what the encounter holds.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
from pathlib import Path

import ipywidgets as widgets

from workbench.apps.fight_runner import fight_runner
from workbench.apps.malice import malice_app
from workbench.apps.message import refusal_html
from workbench.apps.squad import squad_app
from workbench.errors import InvalidInput
from workbench.fight.fight import Fight, load_fight
from workbench.io.home import user_folder
from workbench.io.problem import FileProblem
from workbench.io.writing import set_aside
from workbench.numbers import format_number
from workbench.render.message import error_html
from workbench.workspace.fight_setup import encounter_monsters, encounter_squads, malice_party, squad_captains
from workbench.workspace.state import Workspace

__all__ = ["fight_app", "fight_file", "fight_summary_html", "open_fight"]


def fight_file(workspace: Workspace, folder: Path | None = None) -> Path:
    """Where this encounter's fight is kept: one file per encounter, named by a digest of the encounter."""
    text = json.dumps(workspace.encounter.model_dump(mode="json"), sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return (folder if folder is not None else user_folder() / "fights") / f"fight-{digest}.json"


def open_fight(workspace: Workspace, path: Path) -> tuple[Fight | None, str]:
    """The encounter's fight resumed from `path`, or a new one; with a note (HTML) when something was off.

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
            note = refusal_html(exc) + html.escape(f" It is kept as {aside.name}; a new fight starts.")
        else:
            if fight.encounter == workspace.encounter:
                return fight, ""
    try:
        fight = Fight(workspace.encounter, monsters)
    except InvalidInput as exc:
        return None, note + refusal_html(exc)
    try:
        fight.kept_in(path)  # a page opened at the same time that saves first is then not overwritten
    except FileProblem:
        pass  # a path no fight can be kept in: the first save says why, on the page
    return fight, note


def fight_summary_html(workspace: Workspace) -> str:
    """One line on what the fight holds: the party and each creature entry of the encounter."""
    heroes, _ = malice_party(workspace)
    party = workspace.encounter.party
    levels = sorted(set(party.levels))
    level = f"level {levels[0]}" if len(levels) == 1 else "levels " + ", ".join(map(str, levels))
    victories = format_number(party.victories)
    who = f"{heroes} hero{'es' if heroes != 1 else ''} of {level}, {victories} Victories on average"
    creatures = "; ".join(f"{count} × {m.name}" for m, count in encounter_monsters(workspace))
    name = html.escape(workspace.encounter.name or "The current encounter")
    against = html.escape(creatures) if creatures else "no creatures yet (add some on the encounter page)"
    return f'<div class="wb-fight-summary"><b>{name}</b>: {html.escape(who)} against {against}.</div>'


def fight_app(workspace: Workspace, rounds: int = 5) -> widgets.VBox:
    """Malice (planner and tracker) above the squads of the encounter, each squad in its own section."""
    monsters = encounter_monsters(workspace)
    heroes, victories = malice_party(workspace)
    distinct = tuple(m for m, _count in monsters)
    malice = malice_app(heroes=heroes, victories=victories, rounds=rounds, monsters=distinct or None)
    malice.add_class("wb-malice-app")
    captains = squad_captains(monsters)
    squads = [squad_app(squad, captains) for squad in encounter_squads(workspace)]
    sections: list[widgets.Widget] = []
    for app in squads:
        app.add_class("wb-squad-app")
        title = html.escape(app.tracker.squad.name)
        sections.append(widgets.VBox([widgets.HTML(f"<h4>{title}</h4>"), app]))
    if not squads:
        sections.append(widgets.HTML("<div>No minions in this encounter: squads appear here when it has some.</div>"))
    path = fight_file(workspace)
    fight, note = open_fight(workspace, path)
    runner: widgets.Widget = fight_runner(fight, path) if fight is not None else widgets.HTML(
        "<div>The fight runner starts once the encounter page has creatures in it.</div>")
    box = widgets.VBox([
        widgets.HTML(fight_summary_html(workspace)),
        widgets.HTML("<h3>The fight, turn by turn</h3>"),
        widgets.HTML(note),
        runner,
        widgets.HTML("<h3>Malice planner</h3>"),
        malice,
        widgets.HTML("<h3>Minion squads</h3>"),
        *sections,
    ])
    box.add_class("wb-fight")
    box.malice = malice
    box.squads = squads
    box.runner = runner
    return box
