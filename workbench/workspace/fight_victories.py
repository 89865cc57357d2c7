"""The Victories a fight earns, carried where the Director's pages read them: the workspace's party and, when
the encounter was opened from an adventure, that adventure (the encounters after it are met with them).

An encounter opened from an adventure is put in the workspace as the heroes meet it: with the Victories they
arrive with, so the fight starts with those and their Malice. Every write sets the Victories a fight leaves
(the arrival's plus what it earned), never adds to them: carrying the same end twice changes nothing, and an
end taken back puts the arrival's back.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from workbench.encounter.adventure import AdventurePlan, load_adventure, save_adventure
from workbench.errors import InvalidInput
from workbench.model import Monster
from workbench.workspace.state import AdventureLink, Workspace, remember_encounter, update_workspace

__all__ = ["adventure_plan", "carry_victories", "open_from_adventure"]


def open_from_adventure(adventure_file: str | Path, index: int, known: Iterable[Monster] = (),
                        path: str | Path | None = None) -> Workspace:
    """Encounter `index` of the adventure saved in `adventure_file`, as the heroes meet it, made the
    workspace's encounter (linked to the adventure); the workspace as saved."""
    adventure = load_adventure(adventure_file)
    encounter, _victories = adventure.arrival(index)
    link = AdventureLink(path=str(Path(adventure_file).absolute()), index=index)
    known = tuple(known)

    def change(workspace: Workspace) -> Workspace:
        kept = remember_encounter(workspace, encounter, known)
        return kept.model_copy(update={"adventure": link})

    return update_workspace(change, path)


def adventure_plan(workspace: Workspace) -> AdventurePlan | None:
    """The plan of the adventure the workspace's encounter was opened from (None when it was not, or when the
    adventure's file no longer reads)."""
    link = workspace.adventure
    if link is None:
        return None
    try:
        adventure = load_adventure(link.path)
    except InvalidInput:
        return None
    if not 0 <= link.index < len(adventure.encounters):
        return None
    return adventure.plan()


def carry_victories(victories: Fraction, earned: int | None, path: str | Path | None = None) -> str:
    """The party holds `victories` (average per hero) from now on, and the linked adventure's encounter
    earned `earned` (None: it is no longer fought to an end); what was written, in words."""
    linked: list[AdventureLink] = []

    def change(workspace: Workspace) -> Workspace:
        party = workspace.encounter.party.model_copy(update={"victories": Fraction(victories)})
        if workspace.adventure is not None:
            linked.append(workspace.adventure)
        return workspace.model_copy(update={"encounter": workspace.encounter.model_copy(update={"party": party})})

    update_workspace(change, path)
    said = "the party's Victories on the encounter page"
    if not linked:
        return said
    link = linked[0]
    adventure = load_adventure(link.path)
    if not 0 <= link.index < len(adventure.encounters):
        raise InvalidInput("adventure", link.path, f"an adventure with an encounter {link.index + 1}")
    if earned is None:
        changed = adventure.model_copy(update={"earned": tuple((i, v) for i, v in adventure.earned if i != link.index)})
    else:
        changed = adventure.fought(link.index, earned)
    if changed != adventure:
        save_adventure(changed, link.path, overwrite=True)
    name = adventure.name or Path(link.path).stem
    return f"{said} and the adventure “{name}”"
