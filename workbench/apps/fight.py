"""The fight page's app: Malice and the minion squads of the Director's current encounter.

Everything comes from the workspace (`workbench.workspace`): the party's heroes and Victories set up the
Malice planner and tracker, each creature's own Monster brings its Malice features (Solo Action only with a
solo), and the encounter's minions become squads with its other creatures as possible captains. Glue only:
the Malice and squad apps do the work; this lays them out and says what the encounter holds.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from workbench.apps.malice import malice_app
from workbench.apps.squad import squad_app
from workbench.encounter.party import format_number
from workbench.workspace import (
    Workspace,
    encounter_monsters,
    encounter_squads,
    malice_party,
    squad_captains,
)

__all__ = ["fight_app", "fight_summary_html"]


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
    box = widgets.VBox([
        widgets.HTML(fight_summary_html(workspace)),
        widgets.HTML("<h3>Malice</h3>"),
        malice,
        widgets.HTML("<h3>Minion squads</h3>"),
        *sections,
    ])
    box.add_class("wb-fight")
    box.malice = malice
    box.squads = squads
    return box
