"""The monster builder's own controls: level, organization, role and the formulas' other inputs, and the
Director's words (name, keywords, size, speed, stability, movement, immunities, weaknesses, characteristics,
the signature's name and text), with the notes the ruleset and the lore give beside them.

`BuilderControls` owns them (`controls`, by name, for the builder's one observer, scripts and tests), keeps the
pickers offering only what the rules cover for the chosen organization (`sync`), and reads the typed boxes,
refusing by the box's name what they cannot take.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.quiet import Quiet
from workbench.errors import InvalidInput
from workbench.model import Characteristics, DamageModifier, Monster, Movement, Size
from workbench.model.parts import MOVEMENT_MODES
from workbench.monster.formulas import target_choices
from workbench.monster.solo import can_become_solo
from workbench.render.escape import Markup, join
from workbench.render.stat_block import CHARACTERISTICS
from workbench.rules.limits import typed_whole
from workbench.rules.lore import Lore
from workbench.rules.ruleset import Ruleset
from workbench.tables.scaling import QUANTITIES

__all__ = ["DEFAULT_MAX_LEVEL", "EPIC_MAX_LEVEL", "BuilderControls", "modifiers", "note", "score", "score_texts",
           "size_parts", "stability_parts"]

DEFAULT_MAX_LEVEL = 10
EPIC_MAX_LEVEL = 20
EXTRA_TARGETS = 3  # the target picker offers lowest .. expected + 3


def note(text: str) -> str:
    """A small grey note under a control."""
    return Markup('<div class="wb-builder-hint">{}</div>').format(text)


def score(name: str, text: str) -> int:
    """A characteristic typed as +2, 2 or −1."""
    cleaned = text.strip().replace("−", "-").replace("+", "")
    try:
        return int(cleaned)
    except ValueError:
        raise InvalidInput(name, text, "a whole number, like +2 or -1 (blank: the formulas')") from None


def modifiers(field: str, text: str) -> tuple[DamageModifier, ...]:
    """Immunities or weaknesses typed as "Fire 5, Poison 3"."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    found = []
    for part in parts:
        try:
            found.append(DamageModifier.parse(part))
        except InvalidInput as exc:
            raise InvalidInput(field, part, exc.accepts) from None
    return tuple(found)


def score_texts(characteristics: Characteristics) -> dict[str, str]:
    """The five boxes' texts for these characteristics ("+2", blank for one not set)."""
    return {f"score_{name}": "" if value is None else f"{value:+d}" for name, value in characteristics.items()}


def size_parts(text: str) -> dict[str, Any]:
    """A size typed for a printed monster: the book's notation (1M, 2) as its size, other words as words."""
    text = text.strip()
    try:
        return {"size_class": Size.parse(text) if text else None, "size": ""}
    except InvalidInput:
        return {"size_class": None, "size": text}


def stability_parts(text: str) -> dict[str, Any]:
    """A stability typed for a printed monster: a whole number as its stability, other words as words."""
    cleaned = text.strip().replace("−", "-")
    try:
        return {"stability_value": int(cleaned) if cleaned else None, "stability": ""}
    except ValueError:
        return {"stability_value": None, "stability": text.strip()}


class BuilderControls:
    """The builder's controls by name (`controls`) and the notes beside them."""

    def __init__(self, rules: Ruleset, lore: Lore, modules_folder: str | Path | None, quiet: Quiet) -> None:
        self.rules = rules
        self.lore = lore
        self.quiet = quiet
        # the role an organization without roles set aside, given back when one with roles is picked again
        self._last_role: str = next(iter(rules.roles))
        orgs = [(o.capitalize(), o) for o in rules.organizations]
        roles = [(r.capitalize(), r) for r in rules.roles]
        self.first = ("platoon" if "platoon" in rules.organizations else orgs[0][1], roles[0][1])
        first_org = self.first[0]
        layout = widgets.Layout(width="auto")
        style = {"description_width": "8em"}
        c: dict[str, widgets.Widget] = {
            "level": widgets.IntSlider(value=1, min=1, max=DEFAULT_MAX_LEVEL, description="Level",
                                       continuous_update=True, style=style,
                                       layout=widgets.Layout(width="26em")),
            "epic": widgets.Checkbox(value=False, description=f"Levels up to {EPIC_MAX_LEVEL}", indent=False),
            "organization": widgets.Dropdown(options=orgs, value=first_org, description="Organization",
                                             style=style),
            "role": widgets.Dropdown(options=roles, value=roles[0][1], description="Role", style=style),
            "extra_stamina": widgets.Checkbox(value=False, description="Extra Stamina", indent=False),
            "instant_solo": widgets.Checkbox(value=False, description="Instant solo (EV × 3, Stamina × 2.5)",
                                             indent=False),
            "strike": widgets.Checkbox(value=True, description="Signature ability is a strike", indent=False),
            "targets": widgets.Dropdown(options=[], description="Targets", style=style),
            "characteristic": widgets.Dropdown(options=[(n.capitalize(), n) for n in CHARACTERISTICS],
                                               value="might", description="Highest", style=style),
            "name": widgets.Text(value="", placeholder="Goblin Sneak", description="Name", style=style,
                                 layout=layout),
            "keywords": widgets.SelectMultiple(options=lore.keyword_names(), value=(),
                                               description="General keywords", rows=6, style=style),
            "other_keywords": widgets.Text(value="", placeholder="Goblin, Human", description="Other keywords",
                                           style=style, layout=layout),
            "size": widgets.Text(value="", placeholder="1M", description="Size", style=style),
            "speed": widgets.Text(value="", placeholder="5", description="Speed", style=style),
            "stability": widgets.Text(value="", placeholder="0", description="Stability", style=style),
            "movement": widgets.SelectMultiple(options=[(m.capitalize(), m) for m in MOVEMENT_MODES], value=(),
                                               description="Movement", rows=3, style=style),
            "immunities": widgets.Text(value="", placeholder="Fire 5, Poison 3", description="Immunities",
                                       style=style, layout=layout, continuous_update=False),
            "weaknesses": widgets.Text(value="", placeholder="Holy 5", description="Weaknesses", style=style,
                                       layout=layout, continuous_update=False),
            **{f"score_{name}": widgets.Text(value="", placeholder="—", description=name.capitalize(),
                                             style={"description_width": "5.5em"},
                                             layout=widgets.Layout(width="11.5em"), continuous_update=False)
               for name in CHARACTERISTICS},
            "signature_name": widgets.Text(value="", placeholder="Spear Charge", description="Signature",
                                           style=style, layout=layout),
            "signature_text": widgets.Textarea(value="", placeholder="Melee 1, one creature or object; ...",
                                               description="Signature text", style=style, layout=layout),
            # a folder of the Director's own rule modules, loaded beside the shipped ones
            "modules_folder": widgets.Text(value=str(modules_folder or ""), placeholder="my-rules/",
                                           description="Module folder", style=style, layout=layout,
                                           continuous_update=False),  # read when typed in, not per key
            "quantity": widgets.Dropdown(options=[(v, k) for k, v in QUANTITIES.items()], value="stamina",
                                         description="Chart", style=style),
            "compare": widgets.ToggleButtons(options=[("Other roles", "role"),
                                                      ("Other organizations", "organization")],
                                             value="role", style={"button_width": "10em"}),
        }
        self.controls = c
        self.organization_note = widgets.HTML()
        self.role_note = widgets.HTML()
        self.keyword_note = widgets.HTML()

    def sync(self) -> None:
        """Make the pickers offer only what the rules cover for the chosen organization."""
        c, rules = self.controls, self.rules
        with self.quiet:
            c["level"].max = EPIC_MAX_LEVEL if c["epic"].value else DEFAULT_MAX_LEVEL
            organization = c["organization"].value
            org = rules.organizations[organization]
            with c["role"].hold_sync():  # options, value and disabled reach the browser as one message
                if org.needs_role:
                    c["role"].disabled = False
                    if c["role"].value is None:
                        c["role"].options = [(r.capitalize(), r) for r in rules.roles]
                        c["role"].value = self._last_role
                else:
                    if c["role"].value is not None:
                        self._last_role = c["role"].value
                    c["role"].options = [(f"— (a {organization} has no role)", None)]
                    c["role"].value = None
                    c["role"].disabled = True
            can_be_solo = can_become_solo(organization)
            c["instant_solo"].disabled = not can_be_solo
            if not can_be_solo:
                c["instant_solo"].value = False
            no_extra = not rules.takes_extra_stamina(organization)
            c["extra_stamina"].disabled = no_extra
            if no_extra:
                c["extra_stamina"].value = False
            counts = target_choices(organization, rules, EXTRA_TARGETS)
            options = [(f"{n} (expected)" if n == org.expected_targets else str(n), n) for n in counts]
            if list(c["targets"].options) != options:  # a new organization: start at its expected count
                with c["targets"].hold_sync():
                    c["targets"].options = options
                    c["targets"].value = org.expected_targets
            role = c["role"].value
            self.organization_note.value = note(org.description)
            self.role_note.value = note(rules.roles[role].description) if role else ""
            chosen = c["keywords"].value
            self.keyword_note.value = join(
                Markup('<div class="wb-hint"><b>{}</b>: {}</div>').format(k, self.lore.meaning(k) or "")
                for k in chosen
            ) or note(self.lore.keywords_introduction)

    def keywords(self) -> tuple[str, ...]:
        c = self.controls
        return tuple(c["keywords"].value) + tuple(k.strip() for k in c["other_keywords"].value.split(",")
                                                  if k.strip())

    def characteristics(self, monster: Monster) -> Characteristics:
        """The five boxes (blank: the formulas' highest for the chosen one, unset for the others)."""
        typed = {name: self.controls[f"score_{name}"].value.strip() for name in CHARACTERISTICS}
        values = {name: score(name, text) for name, text in typed.items() if text}
        values.setdefault(self.controls["characteristic"].value, monster.highest_characteristic)
        return Characteristics(**values)

    def movement(self) -> Movement | None:
        """Speed with the ticked modes (none ticked: the Speed box alone, as typed)."""
        modes = self.controls["movement"].value
        if not modes:
            return None
        speed = self.controls["speed"].value.strip() or "5"
        squares = typed_whole(speed)
        if squares is None:
            raise InvalidInput("speed", speed, "a whole number of squares, like 5, when a movement mode is ticked")
        return Movement(speed=squares, modes=tuple(modes))

    def speed_parts(self) -> dict[str, Any]:
        """Speed and movement as typed: a number is the printed speed (with the ticked modes), else words."""
        speed = self.controls["speed"].value.strip()
        squares = typed_whole(speed)
        if squares is not None:
            return {"movement": Movement(speed=squares, modes=tuple(self.controls["movement"].value)),
                    "speed": ""}
        return {"movement": self.movement(), "speed": speed}

    def inputs(self) -> dict[str, Any]:
        """The formulas' inputs as the controls choose them, with the organization's expected target count."""
        c = self.controls
        organization = c["organization"].value
        return {"organization": organization, "role": c["role"].value, "extra_stamina": c["extra_stamina"].value,
                "targets": c["targets"].value,
                "expected_targets": self.rules.organizations[organization].expected_targets}

    def boxes(self) -> tuple[widgets.VBox, widgets.VBox]:
        """The Numbers section and the Words section."""
        c = self.controls
        numbers = widgets.VBox([
            widgets.HTML("<b>Numbers</b>"),
            c["level"], c["epic"],
            c["organization"], self.organization_note,
            c["role"], self.role_note,
            widgets.HBox([c["extra_stamina"], c["strike"]]),
            c["instant_solo"],
            c["targets"], c["characteristic"],
        ])
        words = widgets.VBox([
            widgets.HTML("<b>Words</b> (yours; the formulas never read them)"),
            c["name"], c["keywords"], self.keyword_note, c["other_keywords"],
            widgets.HBox([c["size"], c["speed"], c["stability"]],
                         layout=widgets.Layout(flex_flow="row wrap")),
            c["movement"], c["immunities"], c["weaknesses"],
            widgets.HTML(note("Characteristics: blank keeps the formulas' (the highest is 1 + echelon; the "
                              "others are yours to choose). A highest you change is marked on the block.")),
            widgets.HBox([c[f"score_{name}"] for name in CHARACTERISTICS],
                         layout=widgets.Layout(flex_flow="row wrap")),
        ])
        return numbers, words
