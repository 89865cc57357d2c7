"""A monster kept as printed in the builder: a published or imported stat block (or a saved design of its own
numbers) that the controls do not rebuild exactly.

Every number stays the printed one: the level slider moves it by "Adjusting Monster Levels" keeping its
departures (`workbench.monster.relevel`, delta mode), a changed organization, role or target count only
changes the formulas it is compared with, and a changed box changes that part alone. `KeptAsPrinted` holds
the design and what the controls showed of it: a control that now differs is the Director's change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.apps.ability_editor import AbilityEditor
from workbench.apps.builder_controls import (
    BuilderControls,
    modifiers,
    score,
    score_texts,
    size_parts,
    stability_parts,
)
from workbench.apps.quiet import Quiet
from workbench.apps.rows import RowList
from workbench.model import Characteristics, Monster, Trait
from workbench.monster.departure import number_departures
from workbench.monster.relevel import relevel
from workbench.monster.solo import instant_solo, is_instant_solo, without_instant_solo
from workbench.render.escape import Markup, join
from workbench.render.stat_block import CHARACTERISTICS
from workbench.rules.ruleset import Ruleset

__all__ = ["EDITS", "INPUTS", "KeptAsPrinted", "own_text", "printed_html", "same_monster"]

# The controls whose change is a change to a monster kept as printed (the level slider moves it instead)
INPUTS = ("organization", "role", "extra_stamina", "targets")
EDITS = (*INPUTS, "instant_solo", "name", "keywords", "other_keywords", "size", "speed", "stability", "movement",
         "immunities", "weaknesses", "signature_name", "signature_text",
         *(f"score_{name}" for name in CHARACTERISTICS))


def same_monster(a: Monster, b: Monster) -> bool:
    """Whether two monsters hold the same stat block (where either was moved from is not compared)."""
    return a.model_dump(exclude={"relevelled_from"}) == b.model_dump(exclude={"relevelled_from"})


def own_text(monster: Monster, rules: Ruleset) -> tuple[tuple[Trait, ...], tuple[Trait, ...]]:
    """An instant solo's traits and Malice features without those `instant_solo` added (it adds them back)."""
    own = without_instant_solo(monster, rules)
    return own.traits, own.malice_features


def printed_html(monster: Monster) -> str:
    """Under the block of a monster kept as printed: that it is, and each of its own numbers the formulas
    would set otherwise (the abilities' departures are marked in the block)."""
    departures = number_departures(monster)
    items = join(Markup('<li class="wb-number-departure" data-quantity="{}" data-formula="{}">{}</li>').format(
        d.quantity, d.formula.value, str(d)) for d in departures)
    listed = Markup("<ul>{}</ul>").format(items) if items else " Its EV, Stamina and free strike are the formulas'."
    return Markup('<div class="wb-printed wb-builder-printed">Kept as printed: '
                  "the level slider moves it keeping its departures from the formulas (“Adjusting Monster "
                  "Levels”); organization and role choose the formulas it is compared with."
                  "{}</div>").format(listed)


class KeptAsPrinted:
    """The printed design (`design`, at its own level, with the Director's changes) and the controls it was
    last shown in."""

    def __init__(self, design: Monster, controls: BuilderControls, rows: Mapping[str, RowList[Any]],
                 abilities: AbilityEditor, quiet: Quiet) -> None:
        self.design = design
        self.controls = controls
        self.rows = rows
        self.abilities = abilities
        self.quiet = quiet
        self.seen = self.edit_values()

    def edit_values(self) -> dict[str, Any]:
        """What the controls show of the monster: one that differs from `seen` is the Director's change."""
        values: dict[str, Any] = {key: self.controls.controls[key].value for key in EDITS}
        values.update({f"rows:{key}": rows.items for key, rows in self.rows.items()})
        return values

    def current(self, shown: Monster | None) -> Monster:
        """The printed design with the controls changed since they were written, moved to the slider's level
        (`shown`: the monster the boxes show now, for the characteristics typed at its level)."""
        c = self.controls.controls
        now = self.edit_values()
        changed = {key for key, value in now.items() if value != self.seen.get(key)}
        design = self._with_changes(self.design, changed, shown)
        if changed & set(INPUTS):
            self.abilities.redesign(self.controls.inputs())
        moved = relevel(design, c["level"].value)
        self.abilities.set_monster(moved)  # each ability carried from its design, as relevel does
        current = moved.model_copy(update={"abilities": self.abilities.abilities})
        current._rules = design.rules
        self.design = design
        with self.quiet:  # the boxes show the characteristics at the slider's level
            for key, text in score_texts(current.characteristics).items():
                if c[key].value != text:
                    c[key].value = text
        self.seen = self.edit_values()
        return current

    def _with_changes(self, design: Monster, changed: set[str], shown: Monster | None) -> Monster:
        """`design` with the parts of the controls in `changed` written in, the rest as printed."""
        panel = self.controls
        c = panel.controls
        update: dict[str, Any] = {}
        if changed & set(INPUTS):
            update.update(panel.inputs())
        if "name" in changed:
            update["name"] = c["name"].value.strip()
        if changed & {"keywords", "other_keywords"}:
            update["keywords"] = panel.keywords()
        if "size" in changed:
            update.update(size_parts(c["size"].value))
        if "stability" in changed:
            update.update(stability_parts(c["stability"].value))
        if changed & {"speed", "movement"}:
            update.update(panel.speed_parts())
        for key in ("immunities", "weaknesses"):
            if key in changed:
                update[key] = modifiers(key, c[key].value)
        for key in ("signature_name", "signature_text"):
            if key in changed:
                update[key] = c[key].value.strip()
        if any(f"score_{name}" in changed for name in CHARACTERISTICS):
            update.update(self._printed_scores(design, changed, shown))
        own = dict(zip(("traits", "malice_features"), own_text(design, panel.rules), strict=True))
        for key, rows in self.rows.items():
            if f"rows:{key}" in changed:
                added = tuple(t for t in getattr(design, key) if t not in own.get(key, getattr(design, key)))
                update[key] = rows.items + added  # an instant solo keeps what "Instant Solo Creature" added
        edited = design.model_copy(update=update)
        edited._rules = design.rules
        if "instant_solo" in changed and c["instant_solo"].value != is_instant_solo(edited):
            edited = instant_solo(edited) if c["instant_solo"].value else without_instant_solo(edited, panel.rules)
        return edited

    def _printed_scores(self, design: Monster, changed: set[str], shown_monster: Monster | None) -> dict[str, Any]:
        """The characteristics typed at the slider's level, taken back to the design's level (relevel moves
        all five by the same step), and the highest with them when it was the printed highest."""
        shown = shown_monster.characteristics if shown_monster is not None else design.characteristics
        values: dict[str, int | None] = {}
        for name in CHARACTERISTICS:
            old = design.characteristics[name]
            if f"score_{name}" not in changed:
                values[name] = old
                continue
            text = self.controls.controls[f"score_{name}"].value.strip()
            now = shown[name]
            step = now - old if now is not None and old is not None else 0
            values[name] = score(name, text) - step if text else None
        characteristics = Characteristics(**values)
        update: dict[str, Any] = {"characteristics": characteristics}
        if design.highest_characteristic == design.characteristics.highest and characteristics.highest is not None:
            update["highest_characteristic"] = characteristics.highest
        return update
