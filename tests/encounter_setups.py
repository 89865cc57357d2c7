"""The party and the encounter most of the encounter tests build on: five heroes of level 3."""

from __future__ import annotations

from typing import Any

from workbench.encounter.encounter import Encounter
from workbench.encounter.party import Party, make_party


def five_level_3(victories: int = 0) -> Party:
    return make_party(heroes=5, level=3, victories=victories)


def encounter(*specs: Any, party: Party | None = None, **kw: Any) -> Encounter:
    """An encounter against five level 3 heroes (or `party`), with the creatures `specs` name."""
    built = Encounter(party=party or five_level_3(), **kw)
    return built.adding(*specs) if specs else built
