"""Editing a monster's abilities with form controls: add one pre-filled from the formulas, remove, reorder,
and change every part of the selected one, the stat block redrawn beside the controls (issue 13).

No mini-language to learn: each part has its own control (name, cost, action, keywords, distance, target,
bonus, and per tier its damage and the rest of its text, potency written as the book does: "M < 1 slowed
(save ends)"). A value the model refuses marks its control and says why; the last good block stays shown.

`ability_view` is the pure view (state in, HTML out); `AbilityEditor` owns the controls and one observer;
`ability_editor(monster)` returns the widget. The list operations (`add_ability`, `move_ability`,
`remove_ability`) and `ability_from_fields` are plain functions, tested without a browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from workbench.errors import InvalidInput
from workbench.model import ABILITY_KEYWORDS, ACTIONS, Ability, Monster
from workbench.monster.ability_template import TEMPLATES, suggest_ability
from workbench.render.message import error_html
from workbench.render.stat_block import stat_block_html

__all__ = [
    "AbilityEditor",
    "COSTS",
    "ability_editor",
    "ability_from_fields",
    "ability_view",
    "add_ability",
    "fields_of",
    "move_ability",
    "remove_ability",
]

COSTS = ("none", "signature", "malice", "villain 1", "villain 2", "villain 3")
NO_ACTION = "none"


def add_ability(abilities: tuple[Ability, ...], ability: Ability) -> tuple[Ability, ...]:
    return (*abilities, ability)


def remove_ability(abilities: tuple[Ability, ...], index: int) -> tuple[Ability, ...]:
    return abilities[:index] + abilities[index + 1:]


def move_ability(abilities: tuple[Ability, ...], index: int, step: int) -> tuple[Ability, ...]:
    """The list with ability `index` moved `step` places (−1 up, +1 down), kept within the list."""
    target = min(max(index + step, 0), len(abilities) - 1)
    items = list(abilities)
    items.insert(target, items.pop(index))
    return tuple(items)


def fields_of(ability: Ability) -> dict[str, Any]:
    """The control values that show `ability`."""
    roll = ability.power_roll
    cost = ability.cost
    fields: dict[str, Any] = {
        "name": ability.name,
        "cost": "none" if cost is None else "malice" if isinstance(cost, int) else cost,
        "malice": cost if isinstance(cost, int) else 3,
        "action": ability.action or NO_ACTION,
        "keywords": tuple(ability.keywords),
        "distance": "" if ability.distance is None else str(ability.distance),
        "target": "" if ability.target is None else ability.target.text,
        "bonus": roll.bonus if roll else 0,
    }
    for number in (1, 2, 3):
        tier = roll.tiers[number - 1] if roll else None
        fields[f"tier{number}_damage"] = "" if tier is None or tier.damage is None else str(tier.damage)
        fields[f"tier{number}_effect"] = "" if tier is None else tier.effect
    return fields


def _damage(field: str, text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise InvalidInput(field, text, "a whole number of 0 or more, or empty for no damage",
                           "a tier damage typed as text")
    return int(text)


def ability_from_fields(fields: Mapping[str, Any], base: Ability | None = None) -> Ability:
    """An Ability from the control values; `InvalidInput` names the control that is wrong.

    Parts the controls don't show (flavour, trigger, effects before and after, damage types) are kept from
    `base`.
    """
    cost: Any = fields["cost"]
    cost = None if cost == "none" else fields["malice"] if cost == "malice" else cost
    tiers = {}
    for number in (1, 2, 3):
        damage = _damage(f"tier{number}_damage", fields[f"tier{number}_damage"])
        old = base.power_roll.tiers[number - 1] if base is not None and base.power_roll else None
        types = old.damages[0].types if old is not None and old.damages else ()
        tier: dict[str, Any] = {"effect": fields[f"tier{number}_effect"].strip()}
        if damage is not None:
            tier["damages"] = ({"amount": damage, "types": types},)
        tiers[f"tier{number}"] = tier
    kept = base.model_dump(include={"flavour", "trigger", "effects_before", "effects_after"}) if base else {}
    try:
        return Ability(
            **kept,
            name=fields["name"],
            cost=cost,
            action=None if fields["action"] == NO_ACTION else fields["action"],
            keywords=tuple(fields["keywords"]),
            distance=fields["distance"].strip() or None,
            target=fields["target"].strip() or None,
            power_roll={"bonus": fields["bonus"], **tiers},
        )
    except InvalidInput as exc:
        raise InvalidInput(_control(exc.field), exc.value, exc.accepts, exc.reason) from None


def _control(field: str) -> str:
    """The control a model field path belongs to: "power_roll.tier2.potency.value" → "tier2_effect"."""
    parts = field.split(".")
    if parts[0] != "power_roll" or len(parts) < 2:
        return parts[0]
    if parts[1] == "bonus":
        return "bonus"
    if parts[1].startswith("tier"):
        return f"{parts[1]}_damage" if parts[-1] in ("damage", "damages", "amount", "types") else f"{parts[1]}_effect"
    return parts[0]


def ability_view(monster: Monster, abilities: tuple[Ability, ...], problem: InvalidInput | None = None) -> str:
    """The stat block with these abilities, and the problem with the last edit if there is one."""
    shown = monster.model_copy(update={"abilities": abilities})
    note = ""
    if problem is not None:
        note = error_html(f"{problem.field}: {problem.detail} — the last good block is shown.", css="wb-error",
                          tag="div")
    return note + stat_block_html(shown)


class AbilityEditor:
    """The controls for a monster's abilities, one observer, and the stat block they draw."""

    def __init__(self, monster: Monster) -> None:
        self.monster = monster
        self.abilities: tuple[Ability, ...] = tuple(monster.abilities)
        self.problem: InvalidInput | None = None
        self._syncing = False
        self.template = widgets.Dropdown(options=TEMPLATES, description="New")
        self.add = widgets.Button(description="Add", icon="plus")
        self.up = widgets.Button(description="Up", icon="arrow-up")
        self.down = widgets.Button(description="Down", icon="arrow-down")
        self.remove = widgets.Button(description="Remove", icon="trash")
        self.chooser = widgets.Select(options=[], description="Abilities", rows=6)
        self.fields: dict[str, widgets.Widget] = {
            "name": widgets.Text(description="Name"),
            "cost": widgets.Dropdown(options=COSTS, description="Cost"),
            "malice": widgets.BoundedIntText(value=3, min=1, max=20, description="Malice"),
            "action": widgets.Dropdown(options=(NO_ACTION, *ACTIONS), description="Action"),
            "keywords": widgets.SelectMultiple(options=ABILITY_KEYWORDS, rows=5, description="Keywords"),
            "distance": widgets.Text(description="Distance", placeholder="Melee 1, 3 cube within 10"),
            "target": widgets.Text(description="Target", placeholder="One creature or object"),
            "bonus": widgets.BoundedIntText(min=-10, max=10, description="Power roll +"),
        }
        for number in (1, 2, 3):
            self.fields[f"tier{number}_damage"] = widgets.Text(description=f"Tier {number} damage")
            self.fields[f"tier{number}_effect"] = widgets.Text(description=f"Tier {number} effect",
                                                               placeholder="M < 1 slowed (save ends)")
        self.view = widgets.HTML()
        self.add.on_click(lambda _: self.act("add"))
        self.up.on_click(lambda _: self.act("up"))
        self.down.on_click(lambda _: self.act("down"))
        self.remove.on_click(lambda _: self.act("remove"))
        for control in (self.chooser, *self.fields.values()):
            control.observe(self.refresh, names="value")
        self._sync(0 if self.abilities else None)

    @property
    def selected(self) -> int | None:
        return self.chooser.index if self.abilities and self.chooser.index is not None else None

    def act(self, action: str) -> None:
        """A button: add a template, move the selected ability up or down, remove it."""
        index = self.selected
        if action == "add":
            self.abilities = add_ability(self.abilities, suggest_ability(self.monster.model_copy(
                update={"abilities": self.abilities}), self.template.value))
            index = len(self.abilities) - 1
        elif index is not None and action in ("up", "down"):
            self.abilities = move_ability(self.abilities, index, -1 if action == "up" else 1)
            index = min(max(index + (-1 if action == "up" else 1), 0), len(self.abilities) - 1)
        elif index is not None and action == "remove":
            self.abilities = remove_ability(self.abilities, index)
            index = min(index, len(self.abilities) - 1) if self.abilities else None
        self._sync(index)

    def _sync(self, index: int | None) -> None:
        """Show the list and the selected ability's parts in the controls (without reacting to them)."""
        self._syncing = True
        try:
            self.chooser.options = [f"{i + 1}. {a.name}" for i, a in enumerate(self.abilities)]
            self.chooser.index = index
            if index is not None:
                for key, value in fields_of(self.abilities[index]).items():
                    self.fields[key].value = value
            self._mark(None)
        finally:
            self._syncing = False
        self.view.value = ability_view(self.monster, self.abilities)

    def _mark(self, problem: InvalidInput | None) -> None:
        self.problem = problem
        for key, control in self.fields.items():
            if problem is not None and problem.field == key:
                control.add_class("wb-invalid")
            else:
                control.remove_class("wb-invalid")

    def refresh(self, change: Any = None) -> None:
        """The one observer: a new selection shows its parts; an edited part rebuilds the selected ability."""
        if self._syncing:
            return
        if change is not None and change.get("owner") is self.chooser:
            self._sync(self.selected)
            return
        index = self.selected
        if index is None:
            return
        values = {key: control.value for key, control in self.fields.items()}
        try:
            ability = ability_from_fields(values, self.abilities[index])
        except InvalidInput as exc:
            self._mark(exc)
            self.view.value = ability_view(self.monster, self.abilities, exc)
            return
        self.abilities = self.abilities[:index] + (ability,) + self.abilities[index + 1:]
        self._mark(None)
        self._syncing = True
        try:
            self.chooser.options = [f"{i + 1}. {a.name}" for i, a in enumerate(self.abilities)]
            self.chooser.index = index
        finally:
            self._syncing = False
        self.view.value = ability_view(self.monster, self.abilities)

    @property
    def result(self) -> Monster:
        """The monster with the abilities as edited."""
        return self.monster.model_copy(update={"abilities": self.abilities})

    def widget(self) -> widgets.Widget:
        buttons = widgets.HBox([self.template, self.add, self.up, self.down, self.remove])
        form = widgets.VBox([buttons, self.chooser, *self.fields.values()])
        self.view.add_class("wb-ability-view")
        box = widgets.HBox([form, self.view])
        box.add_class("wb-ability-editor")
        return box


def ability_editor(monster: Monster) -> widgets.Widget:
    """The ability editor for `monster` (its abilities, if any, are the starting list)."""
    editor = AbilityEditor(monster)
    box = editor.widget()
    box.editor = editor  # for scripts and tests: the state behind the widget
    return box
