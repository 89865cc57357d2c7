"""The monster builder: sliders and pickers in, a live book-style stat block, its working and a chart out.

Glue only. One observer (`MonsterBuilder.refresh`) reads every control and calls the library's pure
functions: `build_monster` for the numbers, `render.stat_block` for the block and its working,
`charts.scaling` for the chart (a FigureWidget changed in place). The homebrew library buttons call
`workbench.monster.library`. Descriptions beside the pickers come from the ruleset and `data/lore/`.

An instant solo (Monster Basics, "Instant Solo Creature") is the builder's leader or elite with the
*Instant solo* box ticked: after each rebuild from the controls the builder hands the monster to
`workbench.monster.solo.instant_solo`, so it stays one while the Director changes anything else, and `show` ticks
the box for a monster `is_instant_solo` recognises (one loaded from the library, say). The text boxes hold
the Director's own traits only: what `instant_solo` adds is left out of them and added back on each build.

A published or imported monster (a library entry, a bestiary stat block, a file) is kept as printed: `show`
finds the controls do not rebuild it, and from then on each control changes only its own part of the printed
design, the level slider moves the design by `workbench.monster.relevel` (delta mode), and the numbers that
depart from the formulas are listed under the block (`workbench.monster.departure.number_departures`).
Saving and exporting carry the printed values. See `MonsterBuilder.printed`.

Homebrew rule modules: the shipped ones (`data/rules-homebrew/`) always load; the *Module folder* box adds
the modules of a folder of the Director's own (`workbench.homebrew.rule.load_rules`; a bad file is named with
what is wrong in it, under the box), and the stat block fills in attachments from both.

Stable CSS classes for browser tests: `wb-builder` (the app), `wb-stat-block-view` (holds
`<div class="wb-stat-block" data-ev=...>` with `wb-ev`, `wb-stamina`, `wb-free-strike`, `wb-damage-tierN`,
`wb-potency-tierN` spans; `wb-printed` under it for a monster kept as printed), `wb-use-formulas`,
`wb-explain-view`, `wb-scaling-chart`, `wb-status`, `wb-library`,
`wb-modules-note`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.ability_editor import AbilityEditor, own_abilities, with_abilities
from workbench.apps.chart_slot import ChartSlot
from workbench.apps.export import ExportPanel
from workbench.apps.message import plain_tooltips, refusal_text, shown_path
from workbench.apps.quiet import Quiet
from workbench.apps.rows import MaliceRows, RowList, RuleRows, TraitRows, VillainActionRows
from workbench.charts.scaling import scaling_figure, update_scaling_figure
from workbench.errors import InvalidInput, RulesetError, WorkbenchError
from workbench.formats.book_text import parse_stat_block_text
from workbench.formats.reader import ImportRefused, import_monster
from workbench.homebrew.rule import HomebrewRule, load_rules, shipped_rules
from workbench.io.home import library_folder
from workbench.model import Characteristics, DamageModifier, Monster, Movement, Size, Trait
from workbench.model.parts import MOVEMENT_MODES
from workbench.monster.departure import number_departures
from workbench.monster.formulas import build_monster, target_choices
from workbench.monster.library import (
    NameTaken,
    delete_monster,
    list_monsters,
    load_entry,
    load_library,
    rename_monster,
    save_monster,
    suggest_name,
)
from workbench.monster.relevel import relevel
from workbench.monster.signature import signature_choices
from workbench.monster.solo import can_become_solo, instant_solo, is_instant_solo, without_instant_solo
from workbench.render.calibration import closest_published_html
from workbench.render.escape import Markup, join
from workbench.render.message import error_html, ok_html
from workbench.render.relevel import MODE_WORDS, relevel_html
from workbench.render.stat_block import (
    CHARACTERISTICS,
    STYLE,
    explain_html,
    header_parts,
    noncombatant_html,
    stat_block_html,
    stat_block_markdown,
)
from workbench.rules.lore import Lore, core_lore
from workbench.rules.ruleset import Ruleset, core_ruleset
from workbench.tables import stat_table
from workbench.tables.scaling import QUANTITIES
from workbench.workspace.shelf import workspace_stat_blocks

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MonsterBuilder", "monster_builder"]

DEFAULT_MAX_LEVEL = 10
EPIC_MAX_LEVEL = 20
EXTRA_TARGETS = 3  # the target picker offers lowest .. expected + 3
TAB_TITLES = ("How was this computed", "Scaling chart", "Move to another level", "Homebrew library", "Export",
              "Noncombatant")
T = TypeVar("T")  # what an action passed to MonsterBuilder._act returns
def _refusal(exc: WorkbenchError | OSError) -> str:
    """A library refusal in words: the rule's reason, or what the file system said (never a repr)."""
    if isinstance(exc, OSError):
        return f"the file system refused ({exc.strerror or 'no reason given'})."
    return refusal_text(exc, {"name": "A file name", "new_name": "A new name"})


def _note(text: str) -> str:
    return Markup('<div class="wb-builder-hint">{}</div>').format(text)


def _score(name: str, text: str) -> int:
    """A characteristic typed as +2, 2 or −1."""
    cleaned = text.strip().replace("−", "-").replace("+", "")
    try:
        return int(cleaned)
    except ValueError:
        raise InvalidInput(name, text, "a whole number, like +2 or -1 (blank: the formulas')") from None


def _modifiers(field: str, text: str) -> tuple[DamageModifier, ...]:
    """Immunities or weaknesses typed as "Fire 5, Poison 3"."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    found = []
    for part in parts:
        try:
            found.append(DamageModifier.parse(part))
        except InvalidInput as exc:
            raise InvalidInput(field, part, exc.accepts) from None
    return tuple(found)


def _score_texts(characteristics: Characteristics) -> dict[str, str]:
    """The five boxes' texts for these characteristics ("+2", blank for one not set)."""
    return {f"score_{name}": "" if value is None else f"{value:+d}" for name, value in characteristics.items()}


def _size_parts(text: str) -> dict[str, Any]:
    """A size typed for a printed monster: the book's notation (1M, 2) as its size, other words as words."""
    text = text.strip()
    try:
        return {"size_class": Size.parse(text) if text else None, "size": ""}
    except InvalidInput:
        return {"size_class": None, "size": text}


def _stability_parts(text: str) -> dict[str, Any]:
    """A stability typed for a printed monster: a whole number as its stability, other words as words."""
    cleaned = text.strip().replace("−", "-")
    try:
        return {"stability_value": int(cleaned) if cleaned else None, "stability": ""}
    except ValueError:
        return {"stability_value": None, "stability": text.strip()}


def _same_monster(a: Monster, b: Monster) -> bool:
    """Whether two monsters hold the same stat block (where either was moved from is not compared)."""
    return a.model_dump(exclude={"relevelled_from"}) == b.model_dump(exclude={"relevelled_from"})


# The controls whose change is a change to a monster kept as printed (the level slider moves it instead)
INPUTS = ("organization", "role", "extra_stamina", "targets")
EDITS = (*INPUTS, "instant_solo", "name", "keywords", "other_keywords", "size", "speed", "stability", "movement",
         "immunities", "weaknesses", "signature_name", "signature_text",
         *(f"score_{name}" for name in CHARACTERISTICS))

# What the library says of a name it already holds, before the way to another name
REPLACE_OR_RENAME = "tick “Replace a file of that name” to replace it, or "

class MonsterBuilder(widgets.VBox):
    """The builder app (a VBox). `controls`, `figure` and `monster` are there for scripts and tests."""

    def __init__(self, ruleset: Ruleset | None = None, folder: str | Path | None = None,
                 lore: Lore | None = None, modules_folder: str | Path | None = None) -> None:
        self.rules = ruleset or core_ruleset()
        self.lore = lore or core_lore()
        self.monster: Monster | None = None
        self._printed: Monster | None = None  # a monster kept as printed (see `printed`)
        self._printed_controls: dict[str, Any] = {}  # what the controls showed of it
        self.modules: dict[str, HomebrewRule] = dict(shipped_rules())
        self._modules_key: Any = None
        self._quiet = Quiet()  # raised while the builder writes its own controls
        self._tables: dict[tuple[bool, int], pd.DataFrame] = {}
        # the role an organization without roles set aside, given back when one with roles is picked again
        self._last_role: str = next(iter(self.rules.roles))
        self._auto_name: str | None = None  # the file name the builder suggested (replaced while untouched)
        self._drawn: set[int] = set()  # the tabs drawn for the current monster (the others when opened)
        rules = self.rules
        orgs = [(o.capitalize(), o) for o in rules.organizations]
        roles = [(r.capitalize(), r) for r in rules.roles]
        first_org = "platoon" if "platoon" in rules.organizations else orgs[0][1]
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
            "keywords": widgets.SelectMultiple(options=self.lore.keyword_names(), value=(),
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
        # traits, Malice features, villain actions and rule modules as rows of fields (apps/rows.py); each
        # list's typed shortcut box is its `controls` entry too, for scripts
        self.rule_rows = RuleRows(self.modules, self._rows_changed, "wb-rule-rows")
        self.rows: dict[str, RowList[Any]] = {
            "traits": TraitRows(self._rows_changed, "wb-trait-rows"),
            "malice_features": MaliceRows(self._rows_changed, "wb-malice-rows"),
            "villain_actions": VillainActionRows(self._rows_changed, "wb-villain-rows"),
            "homebrew_rules": self.rule_rows,
        }
        self.organization_note = widgets.HTML()
        self.role_note = widgets.HTML()
        self.keyword_note = widgets.HTML()
        self.modules_note = widgets.HTML().add_class("wb-modules-note")
        self.stat_block = widgets.HTML().add_class("wb-stat-block-view")
        self.explain = widgets.HTML().add_class("wb-explain-view")
        self.status = widgets.HTML().add_class("wb-status")
        self.markdown_export = widgets.Textarea(layout=widgets.Layout(width="100%", height="16em"))
        self.json_export = widgets.Textarea(layout=widgets.Layout(width="100%", height="16em"))
        self.export_panel = ExportPanel()  # files for Forge Steel, Foundry, print: downloaded by the browser
        # The three published stat blocks nearest to the monster being built: the book's own for comparison.
        # the published stat blocks at hand (the sample and the workspace's added bestiaries), with their shelves
        self.published_bestiary = workspace_stat_blocks(ruleset=self.rules)
        self.published = self.published_bestiary.monsters
        self._closest: dict[tuple[object, ...], str] = {}  # the nearest published blocks, by what they compare
        # "Adjusting Monster Levels": the monster moved to another level, old -> new with the working
        self.relevel_level = widgets.Dropdown(options=list(range(1, DEFAULT_MAX_LEVEL + 1)), value=2,
                                              description="Move to level", style=style)
        self.relevel_mode = widgets.ToggleButtons(options=[(MODE_WORDS["delta"], "delta"),
                                                           (MODE_WORDS["formula"], "formula")],
                                                  value="delta", style={"button_width": "auto"})
        self.relevel_view = widgets.HTML().add_class("wb-relevel-view")
        for control in (self.relevel_level, self.relevel_mode):
            control.observe(self._relevel_changed, names="value")
        self.use_level = widgets.Button(description="Use this level", icon="check",
                                        layout=widgets.Layout(width="auto")).add_class("wb-use-level")
        self.save_at_level = widgets.Button(description="Save a copy at level 2", icon="save",
                                            layout=widgets.Layout(width="auto")).add_class("wb-save-at-level")
        self.relevel_note = widgets.HTML().add_class("wb-relevel-note")
        self.use_level.on_click(self._use_level_clicked)
        self.save_at_level.on_click(self._save_at_level_clicked)
        # Save and Export beside the block's name, where the Director looks (the library tab keeps the rest)
        self.save_top = widgets.Button(description="Save", icon="save", button_style="primary",
                                       tooltip="Save this monster in your library",
                                       layout=widgets.Layout(width="auto")).add_class("wb-save-top")
        self.export_top = widgets.Button(description="Export", icon="download", tooltip="Files and print",
                                         layout=widgets.Layout(width="auto")).add_class("wb-export-top")
        self.block_note = widgets.HTML().add_class("wb-block-note")
        self.save_top.on_click(self._save_clicked)
        self.export_top.on_click(self._export_clicked)
        # a monster kept as printed made a formula monster again (shown only while one is kept)
        self.use_formulas = widgets.Button(description="Use the formulas' numbers", icon="calculator",
                                           tooltip="Rebuild every number from the level, organization and role",
                                           layout=widgets.Layout(width="auto", display="none"))
        self.use_formulas.add_class("wb-use-formulas")
        self.use_formulas.on_click(self._use_formulas_clicked)
        self.block_actions = widgets.VBox([
            widgets.HBox([self.save_top, self.export_top, self.use_formulas],
                         layout=widgets.Layout(flex_flow="row wrap")),
            self.block_note,
        ]).add_class("wb-block-actions")
        # the monster's abilities, edited in the Abilities section; the block above shows them
        self.ability_editor = AbilityEditor(build_monster(1, first_org, roles[0][1], ruleset=rules),
                                            on_change=self._rows_changed, view=False)
        self.ability_editor.show(False)
        self._sync_controls()
        self._table(self._build().extra_stamina)  # the stat grid is built now, not at the first chart
        # the chart is made when its tab is first drawn (a FigureWidget changed before it is shown, or started on
        # a busy page, may never show its updates: apps/chart_slot.py), then changed in place while shown
        self.chart = ChartSlot(None, "wb-scaling-chart",
                               placeholder=widgets.HTML(_note("The chart is drawn when this tab is open.")))
        self._library_panel(folder)
        super().__init__(children=self._layout())
        self.add_class("wb-builder")
        for control in c.values():
            control.observe(self.refresh, names="value")
        c.update({key: rows.shortcut for key, rows in self.rows.items()})  # observed by their rows
        self.refresh()
        self._refresh_library()
        plain_tooltips(self)

    # ------------------------------------------------------------ layout

    def _layout(self) -> list[widgets.Widget]:
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
            widgets.HTML(_note("Characteristics: blank keeps the formulas' (the highest is 1 + echelon; the "
                               "others are yours to choose). A highest you change is marked on the block.")),
            widgets.HBox([c[f"score_{name}"] for name in CHARACTERISTICS],
                         layout=widgets.Layout(flex_flow="row wrap")),
        ])
        rules = widgets.VBox([self.rows["homebrew_rules"], c["modules_folder"], self.modules_note])
        # one Accordion a section, so any of them can be open together (one Accordion opens one child only)
        sections = [
            ("Level, organization, role", numbers, True),
            ("Text", words, False),
            ("Abilities", self.abilities_section(), False),
            ("Traits", self.rows["traits"], False),
            ("Malice features", self.rows["malice_features"], False),
            ("Villain actions", self.rows["villain_actions"], False),
            ("Homebrew rules", rules, False),
        ]
        self.sections = {
            title: widgets.Accordion(children=[body], titles=(title,), selected_index=0 if is_open else None)
            for title, body, is_open in sections
        }
        self.sections["Abilities"].observe(
            lambda change: self.ability_editor.show(change["new"] is not None), names="selected_index")
        left = widgets.VBox(list(self.sections.values()), layout=widgets.Layout(width="44%"))
        right = widgets.VBox([self.block_actions, self.stat_block], layout=widgets.Layout(width="56%"))
        chart = widgets.VBox([widgets.HBox([c["quantity"], c["compare"]]), self.chart])
        # the JSON is for other programs: folded away under "Advanced"
        advanced = widgets.Accordion(children=[widgets.VBox([
            widgets.HTML(_note("The monster as the workbench stores it, for other programs and scripts.")),
            self.json_export,
        ])], titles=("Advanced: the monster as JSON",), selected_index=None).add_class("wb-export-advanced")
        export = widgets.VBox([
            self.export_panel,
            widgets.HTML("<b>Markdown</b> (copy into a document)"), self.markdown_export,
            advanced,
        ])
        relevel_box = widgets.VBox([
            widgets.HBox([self.relevel_level, self.relevel_mode], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.use_level, self.save_at_level], layout=widgets.Layout(flex_flow="row wrap")),
            self.relevel_note,
            self.relevel_view,
        ])
        self.tabs = tabs = widgets.Tab(
            children=[self.explain, chart, relevel_box, self.library, export,
                      widgets.HTML(noncombatant_html(self.lore))],
            titles=TAB_TITLES,
            # the working opens first: every number of the block traced to its formula. Each other tab is drawn
            # when it is opened, the chart too: a page that opens without a chart does not load plotly's 5 MB
            # bundle before it is usable, and a slider move redraws the block and the working only (a chart
            # redraw takes plotly 100+ ms in the browser)
            selected_index=TAB_TITLES.index("How was this computed"),
        )
        # a tab is drawn when it is shown: a slider move redraws the block and the one tab open, nothing hidden
        tabs.observe(lambda change: self._draw_tab(), names="selected_index")
        return [widgets.HTML(STYLE), widgets.HBox([left, right]), tabs, self.status]

    def abilities_section(self) -> widgets.Widget:
        """The ability editor's controls, with a line on what Add gives."""
        words = _note("Add gives an ability pre-filled from the formulas for this monster; its numbers follow "
                      "the level, organization and role. A number you change is marked on the block with "
                      "the formula's, and keeps its difference when the monster changes. To name and edit the "
                      "signature ability, add “A signature strike”: until then the block shows the formulas' one.")
        return widgets.VBox([widgets.HTML(words), self.ability_editor.form()]).add_class("wb-builder-abilities")

    def _library_panel(self, folder: str | Path | None) -> None:
        self.folder = widgets.Text(value=str(folder or library_folder()), description="Folder",
                                   layout=widgets.Layout(width="36em"))
        self.file_name = widgets.Text(value="", placeholder="the monster's name", description="Save as")
        self.overwrite = widgets.Checkbox(value=False, description="Replace a file of that name", indent=False)
        self.saved = widgets.Select(options=[], rows=8, description="Saved")
        self.new_name = widgets.Text(value="", description="Rename to")
        self.confirm_delete = widgets.Checkbox(value=False, description="Yes, delete it", indent=False)
        self.library_note = widgets.HTML()
        # any stat block file the importer reads (Steel Compendium, Forge Steel, Foundry) or a saved monster
        self.open_path = widgets.Text(value="", description="Open a file", style={"description_width": "initial"},
                                      placeholder="a stat block file: Steel Compendium, Forge Steel, Foundry or "
                                                  "a saved monster", layout=widgets.Layout(width="36em"),
                                      continuous_update=False)
        self.open_button = widgets.Button(description="Open", icon="folder-open")
        self.open_button.on_click(self._open_clicked)
        self.buttons = {
            name: widgets.Button(description=name.capitalize())
            for name in ("save", "refresh", "load", "rename", "delete")
        }
        for name, button in self.buttons.items():
            button.on_click(getattr(self, f"_{name}_clicked"))
        # a stat block pasted from the book or a PDF, read whole and saved into the library as it is
        self.pasted = widgets.Textarea(value="", placeholder="Paste a stat block: from the book or a PDF, a web "
                                                          "page, or Steel Compendium Markdown",
                                       layout=widgets.Layout(width="36em", height="10em"))
        self.paste_button = widgets.Button(description="Read and save", icon="paste")
        self.paste_button.on_click(self._paste_clicked)
        b = self.buttons
        self.library = widgets.VBox([
            widgets.HBox([self.folder, b["refresh"]]),
            widgets.HBox([self.open_path, self.open_button], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.file_name, self.overwrite, b["save"]]),
            self.library_note,  # beside the buttons it answers
            widgets.HBox([self.saved, widgets.VBox([
                b["load"], widgets.HBox([self.new_name, b["rename"]]),
                widgets.HBox([self.confirm_delete, b["delete"]]),
            ])]),
            widgets.HTML("<b>Paste a stat block</b>: its text from the book, a PDF, a web page or Steel Compendium "
                         "Markdown, saved as printed and opened"),
            widgets.HBox([self.pasted, self.paste_button]),
        ]).add_class("wb-library")

    # ------------------------------------------------------------ the one observer

    def _table(self, extra: bool) -> pd.DataFrame:
        """The stat grid up to the slider's top level (built once per extra-Stamina choice and top)."""
        top = self.controls["level"].max
        if (extra, top) not in self._tables:
            table = stat_table(range(1, EPIC_MAX_LEVEL + 1), extra, self.rules)
            self._tables[(extra, top)] = table[table["level"] <= top]
        return self._tables[(extra, top)]

    def _sync_controls(self) -> None:
        """Make the pickers offer only what the rules cover for the chosen organization."""
        c, rules = self.controls, self.rules
        with self._quiet:
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
            self.organization_note.value = _note(org.description)
            self.role_note.value = _note(rules.roles[role].description) if role else ""
            chosen = c["keywords"].value
            self.keyword_note.value = "".join(
                Markup('<div class="wb-hint"><b>{}</b>: '
                "{}</div>").format(k, self.lore.meaning(k) or '')
                for k in chosen
            ) or _note(self.lore.keywords_introduction)

    def _load_modules(self) -> None:
        """The shipped modules and those in the Module folder box (read again when a file there changes)."""
        text = self.controls["modules_folder"].value.strip()
        folder = Path(text).expanduser() if text else None
        try:
            files = tuple((p.name, p.stat().st_mtime_ns) for p in sorted(folder.iterdir())) if folder else ()
        except OSError:
            files = None
        key = (text, files)
        if key == self._modules_key:
            return
        self._modules_key = key
        self.modules = dict(shipped_rules())
        self._read_modules(folder)
        self.rule_rows.set_modules(self.modules)

    def _read_modules(self, folder: Path | None) -> None:
        if folder is None:
            self.modules_note.value = _note("Modules: the shipped ones (" + ", ".join(self.modules) + ").")
            return
        try:
            own = load_rules(folder)
        except RulesetError as exc:
            self.modules_note.value = error_html(
                f"Could not load the modules in {folder}; the shipped ones are loaded:",
                css="wb-error", tag="div", items=exc.problems, small=True,
            )
            return
        replaced = [i for i in own if i in self.modules]
        self.modules.update(own)
        self.modules_note.value = _note(
            f"Modules from {folder}: " + (", ".join(own) or "none (no .toml or .json module files)")
            + (f" (yours replace the shipped {', '.join(replaced)})" if replaced else "") + "."
        )

    def _build(self) -> Monster:
        if self._printed is not None:
            return self._build_printed(self._printed)
        c = self.controls
        monster = build_monster(
            c["level"].value, c["organization"].value, c["role"].value, c["extra_stamina"].value,
            c["targets"].value, self.rules, characteristic=c["characteristic"].value, strike=c["strike"].value,
        )
        monster = monster.model_copy(update={
            "name": c["name"].value.strip(),
            "keywords": self._keywords(),
            "size": c["size"].value.strip(),
            "speed": c["speed"].value.strip(),
            "stability": c["stability"].value.strip(),
            "signature_name": c["signature_name"].value.strip(),
            "signature_text": c["signature_text"].value.strip(),
            "characteristics": self._characteristics(monster),
            "movement": self._movement(),
            "immunities": _modifiers("immunities", c["immunities"].value),
            "weaknesses": _modifiers("weaknesses", c["weaknesses"].value),
            **{key: rows.items for key, rows in self.rows.items()},
        })
        # "Instant Solo Creature" re-applied after each rebuild (its traits and feature are never doubled)
        monster = instant_solo(monster) if c["instant_solo"].value else monster
        self.ability_editor.set_monster(monster)  # each ability carried to the new numbers
        return with_abilities(monster, self.ability_editor.abilities)  # none edited: the formulas' signature

    # ------------------------------------------------------------ a monster kept as printed

    @property
    def printed(self) -> Monster | None:
        """The design of a monster kept as printed, at its own level, with the Director's changes; None for a
        monster built from the formulas.

        `show` keeps a monster as printed when the controls do not rebuild it exactly (a published stat
        block, an imported file, a saved design of its own numbers). Then every number stays the printed
        one: the level slider moves it by "Adjusting Monster Levels" keeping its departures
        (`workbench.monster.relevel`, delta mode), a changed organization, role or target count only
        changes the formulas it is compared with, and a changed box changes that part alone. *Use the
        formulas' numbers* makes it a formula monster again.
        """
        return self._printed

    def _edit_values(self) -> dict[str, Any]:
        """What the controls show of a monster kept as printed: one that differs is the Director's change."""
        values: dict[str, Any] = {key: self.controls[key].value for key in EDITS}
        values.update({f"rows:{key}": rows.items for key, rows in self.rows.items()})
        return values

    def _build_printed(self, design: Monster) -> Monster:
        """The printed design with the controls changed since they were written, moved to the slider's level."""
        now = self._edit_values()
        changed = {key for key, value in now.items() if value != self._printed_controls.get(key)}
        design = self._with_changes(design, changed)
        if changed & set(INPUTS):
            self.ability_editor.redesign(self._inputs())
        moved = relevel(design, self.controls["level"].value)
        self.ability_editor.set_monster(moved)  # each ability carried from its design, as relevel does
        current = moved.model_copy(update={"abilities": self.ability_editor.abilities})
        current._rules = design.rules
        self._printed = design
        with self._quiet:  # the boxes show the characteristics at the slider's level
            for key, text in _score_texts(current.characteristics).items():
                if self.controls[key].value != text:
                    self.controls[key].value = text
        self._printed_controls = self._edit_values()
        return current

    def _with_changes(self, design: Monster, changed: set[str]) -> Monster:
        """`design` with the parts of the controls in `changed` written in, the rest as printed."""
        c = self.controls
        update: dict[str, Any] = {}
        if changed & set(INPUTS):
            update.update(self._inputs())
        if "name" in changed:
            update["name"] = c["name"].value.strip()
        if changed & {"keywords", "other_keywords"}:
            update["keywords"] = self._keywords()
        if "size" in changed:
            update.update(_size_parts(c["size"].value))
        if "stability" in changed:
            update.update(_stability_parts(c["stability"].value))
        if changed & {"speed", "movement"}:
            update.update(self._speed_parts())
        for key in ("immunities", "weaknesses"):
            if key in changed:
                update[key] = _modifiers(key, c[key].value)
        for key in ("signature_name", "signature_text"):
            if key in changed:
                update[key] = c[key].value.strip()
        if any(f"score_{name}" in changed for name in CHARACTERISTICS):
            update.update(self._printed_scores(design, changed))
        own = dict(zip(("traits", "malice_features"), self._own_text(design), strict=True))
        for key, rows in self.rows.items():
            if f"rows:{key}" in changed:
                added = tuple(t for t in getattr(design, key) if t not in own.get(key, getattr(design, key)))
                update[key] = rows.items + added  # an instant solo keeps what "Instant Solo Creature" added
        edited = design.model_copy(update=update)
        edited._rules = design.rules
        if "instant_solo" in changed and c["instant_solo"].value != is_instant_solo(edited):
            edited = instant_solo(edited) if c["instant_solo"].value else without_instant_solo(edited, self.rules)
        return edited

    def _inputs(self) -> dict[str, Any]:
        """The formulas' inputs as the controls choose them, with the organization's expected target count."""
        c = self.controls
        organization = c["organization"].value
        return {"organization": organization, "role": c["role"].value, "extra_stamina": c["extra_stamina"].value,
                "targets": c["targets"].value,
                "expected_targets": self.rules.organizations[organization].expected_targets}

    def _printed_scores(self, design: Monster, changed: set[str]) -> dict[str, Any]:
        """The characteristics typed at the slider's level, taken back to the design's level (relevel moves
        all five by the same step), and the highest with them when it was the printed highest."""
        shown = self.monster.characteristics if self.monster is not None else design.characteristics
        values: dict[str, int | None] = {}
        for name in CHARACTERISTICS:
            old = design.characteristics[name]
            if f"score_{name}" not in changed:
                values[name] = old
                continue
            text = self.controls[f"score_{name}"].value.strip()
            now = shown[name]
            step = now - old if now is not None and old is not None else 0
            values[name] = _score(name, text) - step if text else None
        characteristics = Characteristics(**values)
        update: dict[str, Any] = {"characteristics": characteristics}
        if design.highest_characteristic == design.characteristics.highest and characteristics.highest is not None:
            update["highest_characteristic"] = characteristics.highest
        return update

    def _speed_parts(self) -> dict[str, Any]:
        """Speed and movement as typed: a number is the printed speed (with the ticked modes), else words."""
        speed = self.controls["speed"].value.strip()
        if speed.isdigit():
            return {"movement": Movement(speed=int(speed), modes=tuple(self.controls["movement"].value)),
                    "speed": ""}
        return {"movement": self._movement(), "speed": speed}

    def _use_formulas_clicked(self, _: Any = None) -> None:
        """The monster kept as printed becomes a formula monster: every number from the controls again."""
        self._printed = None
        self.refresh()

    def _keywords(self) -> tuple[str, ...]:
        c = self.controls
        return tuple(c["keywords"].value) + tuple(k.strip() for k in c["other_keywords"].value.split(",")
                                                  if k.strip())

    def _characteristics(self, monster: Monster) -> Characteristics:
        """The five boxes (blank: the formulas' highest for the chosen one, unset for the others)."""
        typed = {name: self.controls[f"score_{name}"].value.strip() for name in CHARACTERISTICS}
        values = {name: _score(name, text) for name, text in typed.items() if text}
        values.setdefault(self.controls["characteristic"].value, monster.highest_characteristic)
        return Characteristics(**values)

    def _movement(self) -> Movement | None:
        """Speed with the ticked modes (none ticked: the Speed box alone, as typed)."""
        modes = self.controls["movement"].value
        if not modes:
            return None
        speed = self.controls["speed"].value.strip() or "5"
        if not speed.isdigit():
            raise InvalidInput("speed", speed, "a whole number of squares, like 5, when a movement mode is ticked")
        return Movement(speed=int(speed), modes=tuple(modes))

    def _rows_changed(self, _items: object = None) -> None:
        for rows in self.rows.values():  # a row just added has labels of its own
            plain_tooltips(rows)
        self.refresh()

    def refresh(self, change: Any = None) -> None:
        """Read every control and redraw every output (the one observer)."""
        if self._quiet:
            return
        self._sync_controls()
        self._load_modules()
        try:
            monster = self._build()
            block = stat_block_html(monster, lore=self.lore, style=False, modules=self.modules)
        except WorkbenchError as exc:
            self.status.value = error_html(refusal_text(exc), css="wb-error")
            return
        self.monster = monster
        # the block and the published monsters nearest to it in one widget: one message for both
        self.stat_block.value = block + self._printed_html(monster) + self._closest_html(monster)
        self.use_formulas.layout.display = "none" if self._printed is None else ""
        self._drawn = set()
        self._draw_tab()
        if not self.file_name.value.strip() or self._auto_name == self.file_name.value:
            self.file_name.value = self._auto_name = suggest_name(monster.name)
        if self.status.value:
            self.status.value = ""

    def _printed_html(self, monster: Monster) -> str:
        """Under the block of a monster kept as printed: that it is, and each of its own numbers the formulas
        would set otherwise (the abilities' departures are marked in the block)."""
        if self._printed is None:
            return ""
        departures = number_departures(monster)
        items = join(Markup('<li class="wb-number-departure" data-quantity="{}" '
                        'data-formula="{}">{}</li>').format(d.quantity, d.formula.value, str(d)) for d in departures)
        listed = Markup("<ul>{}</ul>").format(items) if items else " Its EV, Stamina and free strike are the formulas'."
        return (Markup('<div class="wb-printed wb-builder-printed">Kept as printed: '
                "the level slider moves it keeping its departures from the formulas (“Adjusting Monster "
                "Levels”); organization and role choose the formulas it is compared with."
                "{}</div>").format(listed))

    @property
    def figure(self) -> go.FigureWidget | None:
        """The scaling chart's FigureWidget (None until its tab is first drawn)."""
        return self.chart.figure

    def _closest_html(self, monster: Monster) -> str:
        key = (monster.name, monster.level, monster.organization, monster.role, monster.ev, monster.stamina,
               monster.free_strike, monster.damage, monster.targets)
        if key not in self._closest:
            if len(self._closest) > 512:
                self._closest.clear()
            nearest = closest_published_html(monster, self.published, 3, self.published_bestiary.shelves)
            self._closest[key] = Markup('<div class="wb-closest-published">{}</div>').format(nearest)
        return self._closest[key]

    def _relevel_changed(self, _change: Any = None) -> None:
        self.save_at_level.description = f"Save a copy at level {self.relevel_level.value}"
        if self._quiet:
            return
        self._drawn.discard(TAB_TITLES.index("Move to another level"))
        self._draw_tab()

    def _draw_tab(self) -> None:
        """Draw the open tab for the current monster, unless it already shows it."""
        index = self.tabs.selected_index if hasattr(self, "tabs") else None
        monster = self.monster
        if index is None or index in self._drawn or monster is None:
            return
        self._drawn.add(index)
        c = self.controls
        title = TAB_TITLES[index]
        if title == "How was this computed":
            self.explain.value = explain_html(monster)
        elif title == "Scaling chart":
            chart = (self._table(monster.extra_stamina), monster.level, monster.organization, monster.role,
                     c["quantity"].value, c["compare"].value)
            if self.chart.figure is None:
                self.chart.show(scaling_figure(*chart))
            else:
                update_scaling_figure(self.chart.figure, *chart)
        elif title == "Move to another level":
            options = {"modules": self.modules, "lore": self.lore}
            levels = list(range(1, c["level"].max + 1))
            if list(self.relevel_level.options) != levels:  # epic levels ticked or unticked
                with self._quiet:
                    self.relevel_level.options = levels
                    self.relevel_level.value = min(self.relevel_level.value or 2, levels[-1])
            try:
                self.relevel_view.value = relevel_html(monster, self.relevel_level.value, self.relevel_mode.value,
                                                       options)
            except WorkbenchError as exc:
                self.relevel_view.value = error_html(refusal_text(exc), css="wb-error", tag="div")
        elif title == "Export":
            self.markdown_export.value = stat_block_markdown(monster, lore=self.lore, modules=self.modules)
            self.export_panel.show(monster)
            self.json_export.value = monster.to_json()

    # ------------------------------------------------------------ library buttons

    def _say(self, text: str, error: bool = False) -> None:
        self.library_note.value = error_html(text, css="wb-error", tag="div") if error else ok_html(text, tag="div")
        self.block_note.value = self.library_note.value  # said beside the button pressed, too

    def _export_clicked(self, _: Any = None) -> None:
        self.tabs.selected_index = TAB_TITLES.index("Export")

    def _use_level_clicked(self, _: Any = None) -> None:
        """The monster moved to the chosen level: the level slider goes there (abilities keep their changes)."""
        level = self.relevel_level.value
        if level > self.controls["level"].max:
            self.controls["epic"].value = True
        self.controls["level"].value = level
        self.relevel_note.value = ok_html(f"Now at level {level}.", tag="div")

    def _save_at_level_clicked(self, _: Any = None) -> None:
        """A copy of the monster moved to the chosen level, saved in the library beside the original."""
        if self.monster is None:
            return
        level = self.relevel_level.value
        moved = self._act("Not moved", relevel, self.monster, level, self.relevel_mode.value)
        if moved is None:
            self.relevel_note.value = self.library_note.value
            return
        base = self.file_name.value.strip() or suggest_name(self.monster.name) or "monster"
        name = f"{base} level {level}"
        path = self._save(moved, name, "tick “Replace a file of that name” in the Homebrew library tab to replace it")
        if path is not None:
            self._say(f"Saved a copy at level {level} as {shown_path(path)}")
        self.relevel_note.value = self.library_note.value

    def _open_clicked(self, _: Any = None) -> None:
        self.open_file(self.open_path.value)

    def open_file(self, path: str | Path) -> Monster | None:
        """Show the monster of a stat block file in the builder: anything the importer reads (a Steel
        Compendium stat block, a Forge Steel monster, a Foundry actor) or a monster saved by the workbench.
        A file neither reads is refused in words beside the buttons; returns the monster shown, or None."""
        text = str(path).strip()
        if not text:
            self._say("Type the path of a stat block file first.", error=True)
            return None
        file = Path(text).expanduser()
        try:
            entry = load_entry(file.stem, file.parent, self.rules) if file.suffix == ".json" else None
        except WorkbenchError:
            entry = None  # not one of ours: the importer's turn
        if entry is not None:
            self.show(entry.monster)
            monster = entry.monster
        else:
            try:
                monster = import_monster(file)
            except ImportRefused as exc:
                if exc.format == "no known stat block format" and exc.part == "top level":
                    self._say(f"Not opened: {file.name} is not a stat block the workbench reads. It opens a Steel "
                              "Compendium stat block, a Forge Steel monster (.ds-monster), a Foundry VTT Draw Steel "
                              "NPC, or a monster saved here.", error=True)
                else:
                    self._say(f"Not opened: {_refusal(exc)}", error=True)
                return None
            except (WorkbenchError, OSError) as exc:
                self._say(f"Not opened: {_refusal(exc)}", error=True)
                return None
            self.show(monster)
        self.file_name.value = suggest_name(monster.name)
        self._say(f"Opened {monster.name or 'the monster'} from {file}")
        return monster

    def _refresh_library(self, selected: str | None = None) -> None:
        contents = load_library(self.folder.value, self.rules)
        self.saved.options = list_monsters(self.folder.value)
        if selected in self.saved.options:
            self.saved.value = selected
        if contents.problems:
            self._say("Could not load: " + "; ".join(f"{f} ({why})" for f, why in contents.problems), True)

    def _act(self, failed: str, action: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """`action(...)`, or None with the refusal said beside the buttons, after `failed` ("Not renamed")."""
        try:
            return action(*args, **kwargs)
        except (WorkbenchError, OSError) as exc:
            self._say(f"{failed}: {_refusal(exc)}", error=True)
            return None

    def _save_clicked(self, _: Any = None) -> None:
        if self.monster is None:
            return
        name = self.file_name.value.strip() or self.monster.name
        if not name.strip():
            self._say("Give the monster a name first (Name, in the Text section), then Save.", error=True)
            return
        path = self._save(self.monster, name, REPLACE_OR_RENAME + "choose another name")
        if path is not None:
            self.overwrite.value = False
            self._say(f"Saved as {shown_path(path)}")

    def _save(self, monster: Monster, name: str, if_taken: str) -> Path | None:
        """Save into the library folder and list it, or say in words why not (None): the one way into the
        library of the Save button, the copy at another level and the pasted text."""
        try:
            path = save_monster(monster, name, self.folder.value, overwrite=self.overwrite.value)
        except NameTaken:
            self._say(f"{name}.json is already in the library: {if_taken}.", error=True)
            return None
        except (WorkbenchError, OSError) as exc:
            self._say(f"Not saved as “{name}”: {_refusal(exc)}", error=True)
            return None
        self._refresh_library(path.stem)
        return path

    def _paste_clicked(self, _: Any = None) -> None:
        """Read the pasted text whole, save it under its own name (or "Save as") and open it in the builder;
        name each line kept as text. The monster keeps its printed numbers in the library, as `workbench
        import --text` does."""
        try:
            monster = parse_stat_block_text(self.pasted.value)
        except WorkbenchError as exc:
            self._say(f"Not read: {_refusal(exc)}", error=True)
            return
        name = self.file_name.value.strip() if self.file_name.value != self._auto_name else ""
        name = name or suggest_name(monster.name)
        path = self._save(monster, name, REPLACE_OR_RENAME + "choose another name in “Save as”")
        if path is None:
            return
        self.overwrite.value = False
        self.show(monster)  # open at once in the builder, as Open does a file
        self.file_name.value = path.stem
        self._say(f"Read {monster.name} (level {monster.level}), saved it as {shown_path(path)} and opened it")
        if monster.kept_as_text:
            kept = join(Markup("<li>{}</li>").format(str(k)) for k in monster.kept_as_text)
            self.library_note.value = str(self.library_note.value) + str(Markup('<div class="wb-kept-as-text">Kept as text (read as words only):'
                                              "<ul>{}</ul></div>").format(kept))

    def _refresh_clicked(self, _: Any = None) -> None:
        self._say("")
        self._act("The folder could not be read", self._refresh_library)

    def _load_clicked(self, _: Any = None) -> None:
        if not self.saved.value:
            self._say("Pick a saved monster first.", error=True)
            return
        entry = self._act("Not loaded", load_entry, self.saved.value, self.folder.value, self.rules)
        if entry is None:
            return
        self.show(entry.monster)
        self.file_name.value = entry.name
        moved = f" (changed by the current rules: {', '.join(entry.changed)})" if entry.changed else ""
        self._say(f"Loaded {entry.file}{moved}")

    def _rename_clicked(self, _: Any = None) -> None:
        if not self.saved.value:
            self._say("Pick a saved monster first.", error=True)
            return
        path = self._act("Not renamed", rename_monster, self.saved.value, self.new_name.value, self.folder.value)
        if path is not None:
            self._refresh_library(path.stem)
            self._say(f"Renamed to {path.name}")

    def _delete_clicked(self, _: Any = None) -> None:
        if not self.saved.value:
            self._say("Pick a saved monster first.", error=True)
            return
        if not self.confirm_delete.value:
            self._say("Tick “Yes, delete it” first: deleting cannot be undone.", error=True)
            return
        name = self.saved.value
        gone = self._act("Not deleted", delete_monster, name, self.folder.value)
        if gone is None and name in list_monsters(self.folder.value):  # refused, and the file is still there
            return
        self.confirm_delete.value = False
        self._refresh_library()
        self._say(f"Deleted {name}")

    # ------------------------------------------------------------ scripting

    def _own_text(self, monster: Monster) -> tuple[tuple[Trait, ...], tuple[Trait, ...]]:
        """An instant solo's traits and Malice features without those `instant_solo` added (it adds them back)."""
        own = without_instant_solo(monster, self.rules)
        return own.traits, own.malice_features

    def show(self, monster: Monster) -> None:
        """Put a monster's inputs and text into the controls (one redraw at the end).

        An instant solo ticks *Instant solo*, so it is rebuilt as the same instant solo. A formula monster's
        signature ability sets the characteristic and strike pickers (it is rebuilt from them, not edited). A
        monster the controls do not rebuild exactly (a published stat block, an imported file, a saved design
        departing from the formulas) is kept as printed: see `printed`.
        """
        choices = signature_choices(monster)
        characteristic, strike = choices or ("might", True)
        formula_score = (characteristic, monster.highest_characteristic) if choices else None
        c = self.controls
        general = set(self.lore.keyword_names())
        traits, malice_features = self._own_text(monster)
        size, _, stability = header_parts(monster)
        values = {
            "epic": monster.level > DEFAULT_MAX_LEVEL or c["epic"].value,
            "organization": monster.organization,
            "extra_stamina": monster.extra_stamina,
            "instant_solo": is_instant_solo(monster),
            "strike": strike,
            "characteristic": characteristic,
            "name": monster.name,
            "keywords": tuple(k for k in monster.keywords if k in general),
            "other_keywords": ", ".join(k for k in monster.keywords if k not in general),
            "size": size,
            "speed": monster.speed,
            "stability": stability,
            "signature_name": monster.signature_name,
            "signature_text": monster.signature_text,
            "movement": monster.movement.modes if monster.movement else (),
            "immunities": ", ".join(str(m) for m in monster.immunities),
            "weaknesses": ", ".join(str(m) for m in monster.weaknesses),
            **{key: "" if (key.removeprefix("score_"), monster.characteristics[key.removeprefix("score_")])
               == formula_score else text for key, text in _score_texts(monster.characteristics).items()},
        }
        if monster.movement is not None:
            values["speed"] = str(monster.movement.speed)
        top = monster.characteristics.highest
        if monster.characteristics.known and top is not None:  # the pickers name the one printed highest
            values["characteristic"] = next(n for n, v in monster.characteristics.items() if v == top)
        own_lists = {"traits": traits, "malice_features": malice_features,
                     "villain_actions": monster.villain_actions, "homebrew_rules": monster.homebrew_rules}
        self._printed = None
        with self._quiet:
            for key, value in values.items():
                c[key].value = value
            self._load_modules()  # the module folder first: a saved attachment to one of its modules is offered
            for key, items in own_lists.items():
                self.rows[key].set_items(items)
            self.ability_editor.set_abilities(own_abilities(monster), monster)
        self._sync_controls()
        with self._quiet:
            c["level"].value = monster.level
            if monster.role is not None:
                c["role"].value = monster.role
            c["targets"].value = monster.targets
        try:
            rebuilt: Monster | None = self._build()
        except WorkbenchError:
            rebuilt = None
        if rebuilt is None or not _same_monster(rebuilt, monster):
            design = monster.model_copy(update={"relevelled_from": None})
            design._rules = monster.rules
            self._printed = design
            self._printed_controls = self._edit_values()
        self.refresh()


def monster_builder(ruleset: Ruleset | None = None, folder: str | Path | None = None,
                    lore: Lore | None = None, modules_folder: str | Path | None = None) -> MonsterBuilder:
    """The monster builder app for a ruleset (the core rules by default), saving to `folder`.

    `modules_folder`: a folder of your own homebrew rule modules, loaded beside the shipped ones (the
    *Module folder* box; change it there too). Returns the widget; display it by leaving it as a cell's
    last value.
    """
    return MonsterBuilder(ruleset, folder, lore, modules_folder)
