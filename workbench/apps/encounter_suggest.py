"""The encounter editor's "Suggest an encounter": the keyword the suggestions are drawn from, the button, and
the ten suggestions asked for the current party, difficulty, keyword and locked rows, handed out in turn.

The panel asks `suggest_encounters` again only when what it was asked for changes (or `forget` says the
stat blocks it chose from did).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.quiet import Quiet
from workbench.encounter.encounter import Creature, Encounter
from workbench.encounter.suggest import Suggestion, suggest_encounters
from workbench.formats.bestiary import PublishedMonster
from workbench.model import Monster
from workbench.workspace.bestiary_filter import all_keywords

__all__ = ["ANY", "SUGGESTIONS", "SuggestPanel"]

ANY = "any"
SUGGESTIONS = 10


class SuggestPanel:
    """The keyword picker (`keyword`) and the button (`suggest`), with the suggestions last asked for."""

    def __init__(self, monsters: Sequence[PublishedMonster | Monster], actions: Actions, quiet: Quiet) -> None:
        self.quiet = quiet
        self.keyword = widgets.Dropdown(options=[("any keyword", ANY)] + [(k, k) for k in all_keywords(monsters)],
                                        value=ANY, description="Suggest from", style={"description_width": "initial"})
        self.suggest = widgets.Button(description="Suggest an encounter", button_style="primary")
        actions.click(self.suggest, ("suggest_encounter",))
        self.suggestions: tuple[Suggestion, ...] = ()
        self.key: tuple[Any, ...] = ()
        self.next = 0

    def forget(self) -> None:
        """The stat blocks to choose from changed: the next suggestion is asked for afresh."""
        self.key = ()

    def set_keywords(self, monsters: Sequence[PublishedMonster | Monster], keep: str) -> None:
        """The picker offers the keywords of `monsters`; `keep` stays chosen when it is still offered."""
        keywords = all_keywords(monsters)
        with self.quiet:
            self.keyword.options = [("any keyword", ANY)] + [(k, k) for k in keywords]
            self.keyword.value = keep if keep in keywords else ANY

    def suggestion(self, e: Encounter, difficulty: str, kept: tuple[Creature, ...],
                   pool: Sequence[PublishedMonster | Monster]) -> Suggestion:
        """The next of ten suggestions for this party, difficulty and keyword (asked again when they change),
        keeping the `kept` creatures as they are and filling the rest of the band."""
        keywords = () if self.keyword.value == ANY else (self.keyword.value,)
        key = (e.party, difficulty, keywords, kept)
        if key != self.key:
            self.suggestions = suggest_encounters(e.party, difficulty, list(pool), keywords, count=SUGGESTIONS,
                                                  rng=random.Random(len(pool)), keep=kept, quick_levels=True)
            self.key, self.next = key, 0
        chosen = self.suggestions[self.next % len(self.suggestions)]
        self.next += 1
        return chosen
