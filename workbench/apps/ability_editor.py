"""Editing a monster's abilities with form controls: add one pre-filled from the formulas, remove, reorder,
and change every part of the selected one, the stat block redrawn beside the controls.

No mini-language to learn: each part has its own control (name, cost, action, keywords, distance, target,
bonus, and per tier its damage and the rest of its text, potency written as the book does: "M < 1 slowed
(save ends)"). A value the model refuses marks its control and says why; the last good block stays shown.

`ability_view` is the pure view (state in, HTML out); `AbilityEditor` owns the controls and one observer;
`ability_editor(monster)` returns the widget. The list operations (`add_ability`, `move_ability`,
`remove_ability`) and `ability_from_fields` are plain functions, tested without a browser.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from workbench.apps.message import refusal_text
from workbench.apps.quiet import Quiet
from workbench.errors import InvalidInput
from workbench.model import ABILITY_KEYWORDS, ACTIONS, Ability, Damage, Monster
from workbench.monster.ability_template import carry_ability, suggest_ability
from workbench.render.message import error_html
from workbench.render.stat_block import stat_block_html
from workbench.rules.limits import typed_whole

__all__ = [
    "AbilityEditor",
    "COSTS",
    "ability_editor",
    "ability_from_fields",
    "ability_view",
    "add_ability",
    "fields_of",
    "move_ability",
    "own_abilities",
    "remove_ability",
    "with_abilities",
]

COSTS = ("none", "signature", "malice", "villain 1", "villain 2", "villain 3")
COST_CHOICES = [("No cost", "none"), ("Signature ability", "signature"), ("Malice", "malice"),
                ("Villain action 1", "villain 1"), ("Villain action 2", "villain 2"), ("Villain action 3", "villain 3")]
NO_ACTION = "none"
# what the Add button makes, in words; each pre-filled from the formulas (monster/ability_template.py)
TEMPLATE_CHOICES = [("A signature strike", "signature strike"), ("A 2-target strike", "two-target strike"),
                    ("An area ability", "area"), ("A villain action", "villain action"),
                    ("A Malice ability", "malice")]
LABELS = {"name": "Name", "cost": "Cost", "malice": "Malice", "action": "Action", "keywords": "Keywords",
          "distance": "Distance", "target": "Target", "bonus": "Power roll +",
          **{f"tier{n}_{part}": f"Tier {n} {part}" for n in (1, 2, 3) for part in ("damage", "effect")}}


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
    damage = typed_whole(text, 6)
    if damage is None:
        raise InvalidInput(field, text, "a whole number of 0 or more, or empty for no damage")
    return damage


def ability_from_fields(fields: Mapping[str, Any], base: Ability | None = None) -> Ability:
    """An Ability from the control values; `InvalidInput` names the control that is wrong.

    Parts the controls don't show (flavour, trigger, effects before and after, the characteristics rolled,
    damage types, a tier's further damage parts) are kept from `base`: a tier's damage total moves its first
    part, as re-levelling does. Three blank tiers are no power roll (an ability that has none keeps none).
    """
    cost: Any = fields["cost"]
    cost = None if cost == "none" else fields["malice"] if cost == "malice" else cost
    roll = base.power_roll if base is not None else None
    tiers = {}
    for number in (1, 2, 3):
        damage = _damage(f"tier{number}_damage", fields[f"tier{number}_damage"])
        old = roll.tiers[number - 1] if roll is not None else None
        tier: dict[str, Any] = {"effect": fields[f"tier{number}_effect"].strip()}
        if damage is not None:
            tier["damages"] = _damages(damage, old.damages if old is not None else ())
        tiers[f"tier{number}"] = tier
    blank = all(not fields[f"tier{n}_{part}"].strip() for n in (1, 2, 3) for part in ("damage", "effect"))
    kept = base.model_dump(include={"flavour", "trigger", "effects_before", "effects_after"}) if base else {}
    rolled = {"characteristics": roll.characteristics} if roll is not None else {}
    try:
        return Ability(
            **kept,
            name=fields["name"],
            cost=cost,
            action=None if fields["action"] == NO_ACTION else fields["action"],
            keywords=tuple(fields["keywords"]),
            distance=fields["distance"].strip() or None,
            target=fields["target"].strip() or None,
            power_roll=None if blank else {**rolled, "bonus": fields["bonus"], **tiers},
        )
    except InvalidInput as exc:
        raise InvalidInput(_control(exc.field), exc.value, exc.accepts, exc.reason) from None


def _damages(total: int, old: tuple[Damage, ...]) -> tuple[Damage, ...]:
    """A tier's damage parts for a typed total: the old parts with the first moved to make it (its type kept),
    or one part when the others alone come to more than the total."""
    rest = sum(d.amount for d in old[1:])
    if not old or total < rest:
        return (Damage(amount=total, types=old[0].types if old else ()),)
    return (old[0].model_copy(update={"amount": total - rest}), *old[1:])


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


def own_abilities(monster: Monster) -> tuple[Ability, ...]:
    """The abilities the editor edits: a monster's own; none for a formula monster (its signature ability is
    the formulas', written anew with its numbers, until the Director adds one of their own)."""
    return () if monster.formula_choices() is not None else monster.abilities


def with_abilities(monster: Monster, abilities: tuple[Ability, ...]) -> Monster:
    """`monster` with the edited abilities; with none, a formula monster keeps its signature ability."""
    if not abilities and monster.formula_choices() is not None:
        return monster
    return monster.model_copy(update={"abilities": abilities})


def ability_view(monster: Monster, abilities: tuple[Ability, ...], problem: InvalidInput | None = None) -> str:
    """The stat block with these abilities, and the problem with the last edit if there is one."""
    shown = with_abilities(monster, abilities)
    note = ""
    if problem is not None:
        note = error_html(f"{problem_text(problem)} The last good block is shown.", css="wb-error", tag="div")
    return note + stat_block_html(shown)


def problem_text(problem: InvalidInput) -> str:
    """A refused part in words, the control named as it is labelled ("Tier 1 damage takes ...")."""
    return refusal_text(problem, LABELS)


class AbilityEditor:
    """The controls for a monster's abilities, one observer, and (standalone) the stat block they draw.

    Inside the builder (`on_change` given, `view=False`) the builder's own block shows the abilities: it
    hands each newly built monster to `set_monster`, which carries every ability to the new numbers
    (`carry_ability`: a template stays the formulas', a changed number stays changed by as much), and the
    fields are written only while the editor is shown (`shown`), so a slider move costs no field updates.
    """

    def __init__(self, monster: Monster, on_change: Callable[[tuple[Ability, ...]], None] | None = None,
                 view: bool = True) -> None:
        self.monster = monster
        self.abilities: tuple[Ability, ...] = own_abilities(monster)
        self._design: tuple[tuple[Ability, ...], Monster] = (self.abilities, monster)
        self.problem: InvalidInput | None = None
        self.on_change = on_change
        self.shown = True
        self._stale = False
        self._quiet = Quiet()  # raised while the editor writes its own controls
        self.template = widgets.Dropdown(options=TEMPLATE_CHOICES, description="New",
                                         layout=widgets.Layout(width="auto"))
        self.add = widgets.Button(description="Add", icon="plus", layout=widgets.Layout(width="auto"))
        self.up = widgets.Button(description="Up", icon="arrow-up", layout=widgets.Layout(width="auto"))
        self.down = widgets.Button(description="Down", icon="arrow-down", layout=widgets.Layout(width="auto"))
        self.remove = widgets.Button(description="Remove", icon="trash", layout=widgets.Layout(width="auto"))
        self.chooser = widgets.Select(options=[], description="Abilities", rows=6,
                                      layout=widgets.Layout(width="auto"))
        style = {"description_width": "8em"}
        wide = widgets.Layout(width="auto")
        typed = {"continuous_update": False}  # a typed box is read when left (Tab, Enter), not on every key
        self.fields: dict[str, widgets.Widget] = {
            "name": widgets.Text(description="Name", style=style, layout=wide, **typed),
            "cost": widgets.Dropdown(options=COST_CHOICES, description="Cost", style=style),
            "malice": widgets.BoundedIntText(value=3, min=1, max=20, description="Malice", style=style),
            "action": widgets.Dropdown(options=[("No action", NO_ACTION), *((a.capitalize(), a) for a in ACTIONS)],
                                       description="Action", style=style),
            "keywords": widgets.SelectMultiple(options=ABILITY_KEYWORDS, rows=5, description="Keywords",
                                               style=style),
            "distance": widgets.Text(description="Distance", placeholder="Melee 1, 3 cube within 10", style=style,
                                     layout=wide, **typed),
            "target": widgets.Text(description="Target", placeholder="One creature or object", style=style,
                                   layout=wide, **typed),
            "bonus": widgets.BoundedIntText(min=-10, max=10, description="Power roll +", style=style),
        }
        for number in (1, 2, 3):
            self.fields[f"tier{number}_damage"] = widgets.Text(description=f"Tier {number} damage", style=style,
                                                               **typed)
            self.fields[f"tier{number}_effect"] = widgets.Text(description=f"Tier {number} effect", style=style,
                                                               placeholder="M < 1 slowed (save ends)", layout=wide,
                                                               **typed)
        # each control's message right under it
        self.notes = {key: widgets.HTML().add_class("wb-field-note") for key in self.fields}
        # with no ability chosen the fields edit nothing: they are disabled, and this line says why
        self.nothing_chosen = widgets.HTML(
            '<div class="wb-note wb-hint">Add an ability, or pick one in the list, '
            "to edit it here.</div>").add_class("wb-ability-none")
        self.view = widgets.HTML() if view else None
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

    # ------------------------------------------------------------ from the builder

    def set_monster(self, monster: Monster) -> None:
        """New numbers from the builder: every ability carried from its design to `monster`."""
        abilities, design = self._design
        self.monster = monster
        self.abilities = tuple(carry_ability(a, design, monster) for a in abilities)
        if self.shown:
            self._sync(self.selected, redraw=False)
        else:
            self._stale = True

    def set_abilities(self, abilities: tuple[Ability, ...], monster: Monster) -> None:
        """A loaded monster's abilities (designed for `monster`)."""
        self.monster = monster
        self.abilities = tuple(abilities)
        self._design = (self.abilities, monster)
        self._sync(0 if self.abilities else None, redraw=False)

    def redesign(self, inputs: Mapping[str, Any]) -> None:
        """The design's abilities kept as they are, now read against other formulas (`inputs`: organization,
        role, target count ...): a monster kept as printed keeps its printed numbers when its kind changes."""
        abilities, design = self._design
        self._design = (abilities, design.model_copy(update=dict(inputs)))

    def show(self, shown: bool) -> None:
        """The editor was opened (True) or folded away: fields left behind while folded are written now."""
        self.shown = shown
        if shown and self._stale:
            self._sync(self.selected, redraw=False)

    # ------------------------------------------------------------ the buttons and the one observer

    def act(self, action: str) -> None:
        """A button: add a template, move the selected ability up or down, remove it."""
        index = self.selected
        if action == "add":
            try:
                new = suggest_ability(self.monster.model_copy(update={"abilities": self.abilities}),
                                      self.template.value)
            except InvalidInput as exc:
                self._mark(exc, "name")
                return
            self.abilities = add_ability(self.abilities, new)
            index = len(self.abilities) - 1
        elif index is not None and action in ("up", "down"):
            self.abilities = move_ability(self.abilities, index, -1 if action == "up" else 1)
            index = min(max(index + (-1 if action == "up" else 1), 0), len(self.abilities) - 1)
        elif index is not None and action == "remove":
            self.abilities = remove_ability(self.abilities, index)
            index = min(index, len(self.abilities) - 1) if self.abilities else None
        self._sync(index)  # the list first: the builder, told next, shows the chosen ability's parts again
        self._edited()

    def _edited(self) -> None:
        """The Director changed the list: it is the design from now on, and the builder hears of it."""
        self._design = (self.abilities, self.monster)
        if self.on_change is not None:
            self.on_change(self.abilities)

    def _sync(self, index: int | None, redraw: bool = True) -> None:
        """Show the list and the selected ability's parts in the controls (without reacting to them)."""
        with self._quiet:
            options = [f"{i + 1}. {a.name}" for i, a in enumerate(self.abilities)]
            if list(self.chooser.options) != options:
                self.chooser.options = options
            self.chooser.index = index
            if index is not None:
                for key, value in fields_of(self.abilities[index]).items():
                    if self.fields[key].value != value:
                        self.fields[key].value = value
            self._mark(None)
            for control in self.fields.values():
                control.disabled = index is None
            self.nothing_chosen.layout.display = "" if index is None else "none"
            self.up.disabled = index is None or index == 0
            self.down.disabled = index is None or index == len(self.abilities) - 1
            self.remove.disabled = index is None
        self._stale = False
        if redraw and self.view is not None:
            self.view.value = ability_view(self.monster, self.abilities)

    def _mark(self, problem: InvalidInput | None, where: str | None = None) -> None:
        self.problem = problem
        field = where or (problem.field if problem is not None else None)
        for key, control in self.fields.items():
            if problem is not None and field == key:
                control.add_class("wb-invalid")
                self.notes[key].value = error_html(problem_text(problem) + " The block keeps the last good ability.",
                                                   css="wb-error", tag="div", small=True)
            else:
                control.remove_class("wb-invalid")
                if self.notes[key].value:
                    self.notes[key].value = ""

    def refresh(self, change: Any = None) -> None:
        """The one observer: a new selection shows its parts; an edited part rebuilds the selected ability."""
        if self._quiet:
            return
        if change is not None and change.get("owner") is self.chooser:
            self._sync(self.selected, redraw=False)
            return
        index = self.selected
        if index is None:
            return
        values = {key: control.value for key, control in self.fields.items()}
        if self._stale:  # fields folded away behind the numbers: only the one just changed is the Director's
            owner = change.get("owner") if change is not None else None
            changed = [key for key, control in self.fields.items() if control is owner]
            values = {**fields_of(self.abilities[index]), **{key: values[key] for key in changed}}
        try:
            ability = ability_from_fields(values, self.abilities[index])
        except InvalidInput as exc:
            self._mark(exc)
            if self.view is not None:
                self.view.value = ability_view(self.monster, self.abilities, exc)
            return
        self.abilities = self.abilities[:index] + (ability,) + self.abilities[index + 1:]
        self._mark(None)
        self._edited()
        if self._stale:
            self._sync(index, redraw=False)
        with self._quiet:
            self.chooser.options = [f"{i + 1}. {a.name}" for i, a in enumerate(self.abilities)]
            self.chooser.index = index
        if self.view is not None:
            self.view.value = ability_view(self.monster, self.abilities)

    @property
    def result(self) -> Monster:
        """The monster with the abilities as edited."""
        return with_abilities(self.monster, self.abilities)

    def form(self) -> widgets.Widget:
        """The controls alone (the builder puts them in its Abilities section)."""
        adding = widgets.HBox([self.template, self.add], layout=widgets.Layout(flex_flow="row wrap"))
        moving = widgets.HBox([self.up, self.down, self.remove], layout=widgets.Layout(flex_flow="row wrap"))
        fields = [widgets.VBox([control, self.notes[key]]) for key, control in self.fields.items()]
        return widgets.VBox([adding, self.chooser, moving, self.nothing_chosen, *fields]).add_class(
            "wb-ability-form")

    def widget(self) -> widgets.Widget:
        parts = [self.form()]
        if self.view is not None:
            self.view.add_class("wb-ability-view")
            parts.append(self.view)
        box = widgets.HBox(parts)
        box.add_class("wb-ability-editor")
        return box


def ability_editor(monster: Monster) -> widgets.Widget:
    """The ability editor for `monster` (its abilities, if any, are the starting list)."""
    editor = AbilityEditor(monster)
    box = editor.widget()
    box.editor = editor  # for scripts and tests: the state behind the widget
    return box
