"""The monster builder: sliders and pickers in, a live book-style stat block, its working and a chart out.

Glue only. `MonsterBuilder` composes panels that each own their controls (`builder_controls`: the numbers
and words; `builder_modules`: the homebrew rules; `builder_library` and `builder_paste`: the homebrew
library; `builder_relevel` and `builder_export`: those tabs) and one observer (`MonsterBuilder.refresh`)
reads every control and calls the library's pure functions: `build_monster` for the numbers, `render.stat_block` for the block and its working,
`charts.scaling` for the chart (a FigureWidget changed in place). The homebrew library buttons call
`workbench.monster.library`. Descriptions beside the pickers come from the ruleset and `data/lore/`.

An instant solo (Monster Basics, "Instant Solo Creature") is the builder's leader or elite with the
*Instant solo* box ticked: after each rebuild from the controls the builder hands the monster to
`workbench.monster.solo.instant_solo`, so it stays one while the Director changes anything else, and `show` ticks
the box for a monster `is_instant_solo` recognises (one loaded from the library, say). The text boxes hold
the Director's own traits only: what `instant_solo` adds is left out of them and added back on each build.

A published or imported monster (a library entry, a bestiary stat block, a file) is kept as printed: `show`
finds the controls do not rebuild it, and from then on (`builder_printed`) each control changes only its own part of the printed
design, the level slider moves the design by `workbench.monster.relevel` (delta mode), and the numbers that
depart from the formulas are listed under the block (`workbench.monster.departure.number_departures`).
Saving and exporting carry the printed values. See `MonsterBuilder.printed`.

The open section (the numbers) and the open tab (the working) are drawn with the builder; a folded section's body
and a hidden tab's panel are put in their places when the Director first opens them (`workbench.apps.lazy_panels`),
so the browser draws the widgets the builder shows and no more. Their controls are made with the builder: the one
observer reads them all, and `controls` holds them whether or not they are drawn. The Export tab's panel, which no
control of the builder's reads, is made when first opened (or asked for: `export`).

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
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.ability_editor import AbilityEditor, own_abilities, with_abilities
from workbench.apps.builder_controls import (
    DEFAULT_MAX_LEVEL,
    EPIC_MAX_LEVEL,
    BuilderControls,
    modifiers,
    note,
    score_texts,
)
from workbench.apps.builder_export import ExportTab
from workbench.apps.builder_library import LibraryPanel
from workbench.apps.builder_modules import ModulesPanel
from workbench.apps.builder_paste import PastePanel
from workbench.apps.builder_printed import KeptAsPrinted, own_text, printed_html, same_monster
from workbench.apps.builder_relevel import RelevelPanel
from workbench.apps.chart_slot import ChartSlot
from workbench.apps.lazy_panels import LazyPanels
from workbench.apps.message import plain_tooltips, refusal_text
from workbench.apps.quiet import Quiet
from workbench.apps.rows import MaliceRows, RowList, RuleRows, TraitRows, VillainActionRows
from workbench.apps.share_panel import builder_share
from workbench.charts.scaling import scaling_figure, update_scaling_figure
from workbench.errors import WorkbenchError
from workbench.homebrew.rule import shipped_rules
from workbench.model import Monster
from workbench.monster.formulas import build_monster
from workbench.monster.signature import signature_choices
from workbench.monster.solo import instant_solo, is_instant_solo
from workbench.render.calibration import closest_published_html
from workbench.render.escape import Markup
from workbench.render.message import error_html
from workbench.render.stat_block import (
    STYLE,
    explain_html,
    header_parts,
    noncombatant_html,
    stat_block_html,
)
from workbench.rules.lore import Lore, core_lore
from workbench.rules.ruleset import Ruleset, core_ruleset
from workbench.tables import stat_table
from workbench.workspace.shelf import workspace_stat_blocks

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MonsterBuilder", "monster_builder"]

TAB_TITLES = ("How was this computed", "Scaling chart", "Move to another level", "Homebrew library", "Export",
              "Noncombatant")
class MonsterBuilder(widgets.VBox):
    """The builder app (a VBox). `controls`, `figure` and `monster` are there for scripts and tests."""

    def __init__(self, ruleset: Ruleset | None = None, folder: str | Path | None = None,
                 lore: Lore | None = None, modules_folder: str | Path | None = None) -> None:
        self.rules = ruleset or core_ruleset()
        self.lore = lore or core_lore()
        self.monster: Monster | None = None
        self.on_export: Callable[[], None] | None = None  # the page brings the Export tab into view (a scroll)
        self._printed: KeptAsPrinted | None = None  # a monster kept as printed (see `printed`)
        self._quiet = Quiet()  # raised while the builder writes its own controls
        self._tables: dict[tuple[bool, int], pd.DataFrame] = {}
        self._made_boxes: tuple[widgets.Widget, widgets.Widget] | None = None
        self._drawn: set[int] = set()  # the tabs drawn for the current monster (the others when opened)
        self.inputs = BuilderControls(self.rules, self.lore, modules_folder, self._quiet)
        self.controls = c = self.inputs.controls
        # traits, Malice features, villain actions and rule modules as rows of fields (apps/rows.py); each
        # list's typed shortcut box is its `controls` entry too, for scripts
        self.rule_rows = RuleRows(dict(shipped_rules()), self.refresh, "wb-rule-rows")
        self.rows: dict[str, RowList[Any]] = {
            "traits": TraitRows(self.refresh, "wb-trait-rows"),
            "malice_features": MaliceRows(self.refresh, "wb-malice-rows"),
            "villain_actions": VillainActionRows(self.refresh, "wb-villain-rows"),
            "homebrew_rules": self.rule_rows,
        }
        self.homebrew = ModulesPanel(c["modules_folder"], self.rule_rows)
        self.stat_block = widgets.HTML().add_class("wb-stat-block-view")
        self.explain = widgets.HTML().add_class("wb-explain-view")
        self.status = widgets.HTML().add_class("wb-status")
        # The three published stat blocks nearest to the monster being built: the book's own for comparison.
        # the published stat blocks at hand (the sample and the workspace's added bestiaries), with their shelves
        self.published_bestiary = workspace_stat_blocks(ruleset=self.rules)
        self.published = self.published_bestiary.monsters
        self._closest: dict[tuple[object, ...], Markup] = {}  # the nearest published blocks, by what they compare
        # Save and Export beside the block's name, where the Director looks (the library tab keeps the rest)
        self.save_top = widgets.Button(description="Save", icon="save", button_style="primary",
                                       tooltip="Save this monster in your library",
                                       layout=widgets.Layout(width="auto")).add_class("wb-save-top")
        self.export_top = widgets.Button(description="Export", icon="download", tooltip="Files and print",
                                         layout=widgets.Layout(width="auto")).add_class("wb-export-top")
        self.block_note = widgets.HTML().add_class("wb-block-note")
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
        self.library = LibraryPanel(folder, self.rules, self.show, lambda: self.monster, self.block_note)
        # a stat block pasted from the book or a PDF, read whole and saved into the library as it is
        self.paste = PastePanel(self.library, self.show)
        self.library.children = (*self.library.children, self.paste)
        self.save_top.on_click(self.library.save_clicked)
        self.export_top.on_click(self._export_clicked)
        # "Adjusting Monster Levels": the monster moved to another level, old -> new with the working
        self.relevel = RelevelPanel(DEFAULT_MAX_LEVEL, c, self.library, lambda: self.monster, self._redraw_relevel,
                                    self._quiet)
        self._export: ExportTab | None = None  # made when its tab is first opened (see `export`)
        # the monster's abilities, edited in the Abilities section; the block above shows them
        self.ability_editor = AbilityEditor(build_monster(1, *self.inputs.first, ruleset=self.rules),
                                            on_change=self.refresh, view=False)
        self.ability_editor.show(False)
        self.inputs.sync()
        self._table(self._build().extra_stamina)  # the stat grid is built now, not at the first chart
        # the chart is made when its tab is first drawn (a FigureWidget changed before it is shown, or started on
        # a busy page, may never show its updates: apps/chart_slot.py), then changed in place while shown
        self.chart = ChartSlot(None, "wb-scaling-chart",
                               placeholder=widgets.HTML(note("The chart is drawn when this tab is open.")))
        super().__init__(children=self._layout())
        self.add_class("wb-builder")
        for control in c.values():
            control.observe(self.refresh, names="value")
        c.update({key: rows.shortcut for key, rows in self.rows.items()})  # observed by their rows
        self.refresh()
        self.library.refresh_list()
        plain_tooltips(self)

    # ------------------------------------------------------------ layout

    def _layout(self) -> list[widgets.Widget]:
        c = self.controls
        # one Accordion a section, so any of them can be open together (one Accordion opens one child only)
        sections: list[tuple[str, Callable[[], widgets.Widget], bool]] = [
            ("Level, organization, role", lambda: self._boxes()[0], True),
            ("Text", lambda: self._boxes()[1], False),
            ("Abilities", self.abilities_section, False),
            ("Traits", lambda: self.rows["traits"], False),
            ("Malice features", lambda: self.rows["malice_features"], False),
            ("Villain actions", lambda: self.rows["villain_actions"], False),
            ("Homebrew rules", lambda: self.homebrew, False),
        ]
        # a folded section's body is put in its place (and drawn) when the Director first opens it
        self.folds = {
            title: LazyPanels(widgets.Accordion, [(title, make)],
                              selected=0 if is_open else None)
            for title, make, is_open in sections
        }
        self.sections = {title: lazy.fold for title, lazy in self.folds.items()}
        self.sections["Abilities"].observe(
            lambda change: self.ability_editor.show(change["new"] is not None), names="selected_index")
        left = widgets.VBox(list(self.sections.values()), layout=widgets.Layout(width="44%"))
        right = widgets.VBox([self.block_actions, builder_share(self), self.stat_block], layout=widgets.Layout(width="56%"))
        # the working opens first: every number of the block traced to its formula. Each other tab's panel is put in
        # its place when it is first opened, and drawn when it is opened, the chart too: a page that opens without a
        # chart does not load plotly's 5 MB bundle before it is usable, and a slider move redraws the block and the
        # working only (a chart redraw takes plotly 100+ ms in the browser)
        self.panels = LazyPanels(widgets.Tab, [
            (TAB_TITLES[0], lambda: self.explain),
            (TAB_TITLES[1], lambda: widgets.VBox([widgets.HBox([c["quantity"], c["compare"]]), self.chart])),
            (TAB_TITLES[2], lambda: self.relevel),
            (TAB_TITLES[3], lambda: self.library),
            (TAB_TITLES[4], self._make_export),
            (TAB_TITLES[5], lambda: widgets.HTML(noncombatant_html(self.lore))),
        ], selected=TAB_TITLES.index("How was this computed"), css_class="wb-builder-tabs")
        self.tabs = tabs = self.panels.fold
        # a tab is drawn when it is shown: a slider move redraws the block and the one tab open, nothing hidden
        tabs.observe(lambda change: self._draw_tab(), names="selected_index")
        return [widgets.HTML(STYLE), widgets.HBox([left, right]), tabs, self.status]

    @property
    def export(self) -> ExportTab:
        """The Export tab's panel (made now, in its place, if it was not yet)."""
        self.panels.panel(TAB_TITLES.index("Export"))
        assert self._export is not None
        return self._export

    def _make_export(self) -> ExportTab:
        self._export = ExportTab()
        if self.tabs.selected_index != TAB_TITLES.index("Export") and self.monster is not None:
            self._export.draw(self.monster, self.homebrew.modules, self.lore)  # asked for by a script: up to date
        return self._export

    def _boxes(self) -> tuple[widgets.Widget, widgets.Widget]:
        """The numbers' and the words' boxes, made once (the first of their two sections opened makes both)."""
        if self._made_boxes is None:
            self._made_boxes = self.inputs.boxes()
        return self._made_boxes

    def abilities_section(self) -> widgets.Widget:
        """The ability editor's controls, with a line on what Add gives."""
        words = note("Add gives an ability pre-filled from the formulas for this monster; its numbers follow "
                     "the level, organization and role. A number you change is marked on the block with "
                     "the formula's, and keeps its difference when the monster changes. To name and edit the "
                     "signature ability, add “A signature strike”: until then the block shows the formulas' one.")
        return widgets.VBox([widgets.HTML(words), self.ability_editor.form()]).add_class("wb-builder-abilities")

    # ------------------------------------------------------------ the one observer

    def _table(self, extra: bool) -> pd.DataFrame:
        """The stat grid up to the slider's top level (built once per extra-Stamina choice and top)."""
        top = self.controls["level"].max
        if (extra, top) not in self._tables:
            table = stat_table(range(1, EPIC_MAX_LEVEL + 1), extra, self.rules)
            self._tables[(extra, top)] = table[table["level"] <= top]
        return self._tables[(extra, top)]

    def _build(self) -> Monster:
        if self._printed is not None:
            return self._printed.current(self.monster)
        c = self.controls
        monster = build_monster(
            c["level"].value, c["organization"].value, c["role"].value, c["extra_stamina"].value,
            c["targets"].value, self.rules, characteristic=c["characteristic"].value, strike=c["strike"].value,
        )
        monster = monster.model_copy(update={
            "name": c["name"].value.strip(),
            "keywords": self.inputs.keywords(),
            "size": c["size"].value.strip(),
            "speed": c["speed"].value.strip(),
            "stability": c["stability"].value.strip(),
            "signature_name": c["signature_name"].value.strip(),
            "signature_text": c["signature_text"].value.strip(),
            "characteristics": self.inputs.characteristics(monster),
            "movement": self.inputs.movement(),
            "immunities": modifiers("immunities", c["immunities"].value),
            "weaknesses": modifiers("weaknesses", c["weaknesses"].value),
            **{key: rows.items for key, rows in self.rows.items()},
        })
        # "Instant Solo Creature" re-applied after each rebuild (its traits and feature are never doubled)
        monster = instant_solo(monster) if c["instant_solo"].value else monster
        self.ability_editor.set_monster(monster)  # each ability carried to the new numbers
        return with_abilities(monster, self.ability_editor.abilities)  # none edited: the formulas' signature

    @property
    def printed(self) -> Monster | None:
        """The design of a monster kept as printed, at its own level, with the Director's changes; None for a
        monster built from the formulas (see `workbench.apps.builder_printed`).

        `show` keeps a monster as printed when the controls do not rebuild it exactly (a published stat
        block, an imported file, a saved design of its own numbers). *Use the formulas' numbers* makes it a
        formula monster again.
        """
        return self._printed.design if self._printed is not None else None

    def _use_formulas_clicked(self, _: Any = None) -> None:
        """The monster kept as printed becomes a formula monster: every number from the controls again."""
        self._printed = None
        self.refresh()

    def refresh(self, change: Any = None) -> None:
        """Read every control and redraw every output (the one observer)."""
        if self._quiet:
            return
        self.inputs.sync()
        self.homebrew.load()
        try:
            monster = self._build()
            block = stat_block_html(monster, lore=self.lore, style=False, modules=self.homebrew.modules)
        except WorkbenchError as exc:
            self.status.value = error_html(refusal_text(exc), css="wb-error")
            return
        self.monster = monster
        # the block and the published monsters nearest to it in one widget: one message for both
        printed = printed_html(monster) if self._printed is not None else ""
        self.stat_block.value = block + printed + self._closest_html(monster)
        self.use_formulas.layout.display = "none" if self._printed is None else ""
        self._drawn = set()
        self._draw_tab()
        self.library.suggest(monster.name)
        if self.status.value:
            self.status.value = ""

    @property
    def figure(self) -> go.FigureWidget | None:
        """The scaling chart's FigureWidget (None until its tab is first drawn)."""
        return self.chart.figure

    def _closest_html(self, monster: Monster) -> Markup:
        key = (monster.name, monster.level, monster.organization, monster.role, monster.ev, monster.stamina,
               monster.free_strike, monster.damage, monster.targets)
        if key not in self._closest:
            if len(self._closest) > 512:
                self._closest.clear()
            nearest = closest_published_html(monster, self.published, 3, self.published_bestiary.shelves)
            self._closest[key] = Markup('<div class="wb-closest-published">{}</div>').format(nearest)
        return self._closest[key]

    def _redraw_relevel(self) -> None:
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
            self.relevel.draw(monster, self.homebrew.modules, self.lore)
        elif title == "Export":
            self.export.draw(monster, self.homebrew.modules, self.lore)

    def _export_clicked(self, _: Any = None) -> None:
        """The Export tab opened, and brought into view where the page can scroll to it (`on_export`)."""
        self.tabs.selected_index = TAB_TITLES.index("Export")
        if self.on_export is not None:
            self.on_export()

    # ------------------------------------------------------------ scripting

    def open_file(self, path: str | Path) -> Monster | None:
        """Show the monster of a stat block file in the builder: anything the importer reads (a Steel
        Compendium stat block, a Forge Steel monster, a Foundry actor) or a monster saved by the workbench.
        A file neither reads is refused in words beside the buttons; returns the monster shown, or None."""
        return self.library.open_file(path)

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
        traits, malice_features = own_text(monster, self.rules)
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
               == formula_score else text for key, text in score_texts(monster.characteristics).items()},
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
            self.homebrew.load()  # the module folder first: a saved attachment to one of its modules is offered
            for key, items in own_lists.items():
                self.rows[key].set_items(items)
            self.ability_editor.set_abilities(own_abilities(monster), monster)
        self.inputs.sync()
        with self._quiet:
            c["level"].value = monster.level
            if monster.role is not None:
                c["role"].value = monster.role
            c["targets"].value = monster.targets
        try:
            rebuilt: Monster | None = self._build()
        except WorkbenchError:
            rebuilt = None
        if rebuilt is None or not same_monster(rebuilt, monster):
            design = monster.model_copy(update={"relevelled_from": None})
            design._rules = monster.rules
            self._printed = KeptAsPrinted(design, self.inputs, self.rows, self.ability_editor, self._quiet)
        self.refresh()


def monster_builder(ruleset: Ruleset | None = None, folder: str | Path | None = None,
                    lore: Lore | None = None, modules_folder: str | Path | None = None) -> MonsterBuilder:
    """The monster builder app for a ruleset (the core rules by default), saving to `folder`.

    `modules_folder`: a folder of your own homebrew rule modules, loaded beside the shipped ones (the
    *Module folder* box; change it there too). Returns the widget; display it by leaving it as a cell's
    last value.
    """
    return MonsterBuilder(ruleset, folder, lore, modules_folder)
