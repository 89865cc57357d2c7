"""The scaling explorer: curves of any number over levels for picked roles and organizations, the whole
grid as a sortable table, and a what-if editor for a copy of the ruleset (old and new curves side by side,
the differences tabled).

Glue only: one observer (`ScalingExplorer.refresh`) reads the controls and calls `stat_table`,
`tables.scaling` and `charts.scaling`. Each refresh shows new figures in two `ChartSlot`s (a fresh
FigureWidget each time: one changed in place can stay stuck in the browser, see `apps.chart_slot`). The what-if editors are generated from the ruleset's own fields, so
a new modifier in the data file gets an editor without a line here; edits go through `Ruleset.updated`,
which validates them like a file (decimals are typed as text and read exactly, never as floats).

Stable CSS classes: `wb-explorer`, `wb-curves-chart`, `wb-grid-table`, `wb-whatif-chart`,
`wb-differences`, `wb-status`.
"""

from __future__ import annotations

import typing
from decimal import Decimal
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from workbench.apps.chart_slot import ChartSlot
from workbench.charts.calibration import add_published_points
from workbench.charts.scaling import curves_figure
from workbench.errors import WorkbenchError
from workbench.formats.bestiary import sample_bestiary
from workbench.render.escape import Markup
from workbench.render.message import error_html
from workbench.rules.ruleset import Ruleset, core_ruleset
from workbench.tables import stat_table
from workbench.tables.scaling import QUANTITIES, pick_rows, ruleset_differences, sort_grid

__all__ = ["ScalingExplorer", "scaling_explorer", "EDITABLE_SECTIONS"]

MAX_LEVEL = 20
# The parts of a ruleset the what-if editor offers (text fields such as descriptions are left out).
EDITABLE_SECTIONS = (
    "formulas", "tiers", "characteristic", "options", "roles", "organizations", "target_factors", "echelons",
)
SKIPPED_FIELDS = {"description", "needs_role"}
MAX_DIFFERENCE_ROWS = 300


def _editor(value: Any, annotation: Any, description: str) -> widgets.Widget:
    layout = widgets.Layout(width="19em")
    style = {"description_width": "12em"}
    choices = typing.get_args(annotation) if typing.get_origin(annotation) is typing.Literal else ()
    if choices:
        return widgets.Dropdown(options=list(choices), value=value, description=description, style=style,
                                layout=layout)
    if isinstance(value, bool):
        return widgets.Checkbox(value=value, description=description, indent=False)
    if isinstance(value, int):
        return widgets.IntText(value=value, description=description, style=style, layout=layout)
    if isinstance(value, Decimal):
        return widgets.Text(value=format(value, "f"), description=description, style=style, layout=layout)
    return widgets.Text(value=str(value), description=description, style=style, layout=layout)


# Where a modifier sits in the ruleset: ("roles", "brute", "stamina_modifier"), ("echelons", 0, "damage_bonus")
# (the first part is always a section name, a row index is an int)
EditorKey = tuple[str | int, ...]


def _field_editors(model: Any, prefix: EditorKey) -> dict[EditorKey, widgets.Widget]:
    editors = {}
    for field, info in type(model).model_fields.items():
        if field in SKIPPED_FIELDS:
            continue
        editors[prefix + (field,)] = _editor(getattr(model, field), info.annotation, field.replace("_", " "))
    return editors


def modifier_editors(rules: Ruleset) -> dict[EditorKey, widgets.Widget]:
    """One editor per modifier, keyed by its path in the ruleset (("roles", "brute", "stamina_modifier"))."""
    editors: dict[EditorKey, widgets.Widget] = {}
    for section in EDITABLE_SECTIONS:
        value = getattr(rules, section)
        if isinstance(value, dict):
            for key, item in value.items():
                editors |= _field_editors(item, (section, key))
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                editors |= _field_editors(item, (section, index))
        else:
            editors |= _field_editors(value, (section,))
    return editors


def changes_from(rules: Ruleset, editors: dict[EditorKey, widgets.Widget]) -> dict[str, Any]:
    """The nested changes dict for `Ruleset.updated` from every editor whose value differs."""
    data = rules.model_dump()
    changes: dict[str, Any] = {}
    lists: set[str] = set()
    for path, editor in editors.items():
        section, rest = str(path[0]), path[1:]
        original: Any = data
        for part in path:
            original = original[part]
        value = editor.value
        same = (format(original, "f") == value) if isinstance(original, Decimal) else original == value
        if same:
            continue
        if isinstance(data[section], (list, tuple)):
            lists.add(section)
            continue
        target = changes.setdefault(section, {})
        for part in rest[:-1]:
            target = target.setdefault(part, {})
        target[rest[-1]] = value
    for section in lists:  # a table of rows is replaced whole, with every row's edited values
        rows = [dict(row) for row in data[section]]
        for path, editor in editors.items():
            if path[0] == section:
                rows[int(path[1])][path[2]] = editor.value  # a table's editors: (section, row index, field)
        changes[section] = rows
    return changes


def _table_html(frame: pd.DataFrame, css: str) -> str:
    table = frame.to_html(index=False, escape=True, na_rep="—", border=0, classes=css)
    return Markup('<div class="wb-scroll-table">{}</div>').format(Markup(table))  # pandas escaped the cells


def _preferred(wanted: tuple[str, ...], available: list[str]) -> tuple[str, ...]:
    """The wanted names the ruleset has, in the wanted order; else its first name (a ruleset of its own)."""
    return tuple(name for name in wanted if name in available) or tuple(available[:1])


class ScalingExplorer(widgets.VBox):
    """The explorer app (a VBox); `controls`, `editors`, `curves`, `whatif` are there for scripts and tests.

    `curves` and `whatif` are the FigureWidgets shown now (each refresh puts new ones in `curves_slot` and
    `whatif_slot`).
    """

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        self.rules = ruleset or core_ruleset()
        self.variant: Ruleset = self.rules
        rules = self.rules
        style = {"description_width": "7em"}
        roles = list(rules.roles)
        organizations = list(rules.organizations)
        self.controls: dict[str, widgets.Widget] = {
            "quantity": widgets.Dropdown(options=[(v, k) for k, v in QUANTITIES.items()], value="stamina",
                                         description="Number", style=style),
            "organizations": widgets.SelectMultiple(
                options=organizations, value=_preferred(("platoon", "elite", "solo"), organizations), rows=len(organizations), description="Organizations", style=style),
            "roles": widgets.SelectMultiple(
                options=roles, value=_preferred(("brute", "artillery"), roles),
                rows=len(roles), description="Roles", style=style),
            "levels": widgets.IntRangeSlider(value=(1, 10), min=1, max=MAX_LEVEL, description="Levels",
                                             style=style, layout=widgets.Layout(width="24em")),
            "extra_stamina": widgets.Checkbox(value=False, description="Extra Stamina", indent=False),
            "published": widgets.Checkbox(value=True, description="Published monsters (hover: name)",
                                          indent=False),
            "sort_by": widgets.Dropdown(options=[], description="Sort by", style=style),
            "ascending": widgets.ToggleButtons(options=[("Ascending", True), ("Descending", False)], value=True),
        }
        self.editors = modifier_editors(rules)
        # Published stat blocks (data/bestiary-sample/) as points over the curves: how the book's monsters sit.
        self.published = sample_bestiary(rules).monsters
        self.status = widgets.HTML().add_class("wb-status")
        self.grid = widgets.HTML().add_class("wb-grid-table")
        self.differences = widgets.HTML().add_class("wb-differences")
        self.reset = widgets.Button(description="Reset to the ruleset")
        self.reset.on_click(self._reset_clicked)
        table = self._table(rules, False)
        self.controls["sort_by"].options = list(table.columns)
        self.controls["sort_by"].value = "level"
        pairs = self.pairs()
        quantity = self.controls["quantity"].value
        # Built whole, points included: a FigureWidget's changes before its first display never reach the page.
        first = self._with_published(curves_figure(self._levels(table), quantity, pairs), quantity, pairs)
        self.curves_slot = ChartSlot(first, "wb-curves-chart")
        # The what-if chart waits for the first change: the page opens with one FigureWidget to initialize
        # (each evaluates plotly's bundle; a second one can miss anywidget's 2 s on a busy machine).
        self.whatif_slot = ChartSlot(None, "wb-whatif-chart", placeholder=widgets.HTML(
            "<p><i>Change a modifier below (or any pick above): your copy's curves are drawn here beside the "
            "rules as loaded.</i></p>"))
        super().__init__(children=self._layout())
        self.add_class("wb-explorer")
        for control in list(self.controls.values()) + list(self.editors.values()):
            control.observe(self.refresh, names="value")
        self.refresh(draw_whatif=False)

    # ------------------------------------------------------------ layout

    def _layout(self) -> list[widgets.Widget]:
        c = self.controls
        picks = widgets.HBox([
            widgets.VBox([c["quantity"], c["levels"], c["extra_stamina"], c["published"]]), c["organizations"],
            c["roles"],
        ])
        grid = widgets.VBox([widgets.HBox([c["sort_by"], c["ascending"]]), self.grid])
        sections: dict[str, list[widgets.Widget]] = {}
        for path, editor in self.editors.items():
            title = str(path[0]) if len(path) == 2 else f"{path[0]}: {path[1]}"
            sections.setdefault(title, []).append(editor)
        editors = widgets.Accordion(
            children=[widgets.GridBox(items, layout=widgets.Layout(grid_template_columns="repeat(3, 20em)"))
                      for items in sections.values()],
            titles=tuple(sections),
        )
        scrolling = widgets.Box([editors], layout=widgets.Layout(max_height="24em", overflow="auto",
                                                                   width="66em", display="block"))
        whatif = widgets.VBox([
            widgets.HTML("<h4>What if?</h4>Change any modifier of a copy of the ruleset; the dashed curves "
                         "are the rules as loaded, the solid ones your copy."),
            widgets.HBox([scrolling, self.reset]), self.whatif_slot, self.differences,
        ])
        table = widgets.Accordion(children=[grid], titles=("The whole grid (sort by any column)",))
        # The figures stay in view (not in tabs): a FigureWidget first drawn while hidden never updates.
        return [picks, self.curves_slot, table, whatif, self.status]

    @property
    def curves(self) -> go.FigureWidget:
        return self.curves_slot.figure

    @property
    def whatif(self) -> go.FigureWidget:
        return self.whatif_slot.figure

    # ------------------------------------------------------------ the one observer

    def _table(self, rules: Ruleset, extra: bool) -> pd.DataFrame:
        return stat_table(range(1, MAX_LEVEL + 1), extra, rules)

    def _levels(self, table: pd.DataFrame) -> pd.DataFrame:
        low, high = self.controls["levels"].value
        return table[(table["level"] >= low) & (table["level"] <= high)]

    def pairs(self) -> list[tuple[str, str | None]]:
        """The picked (organization, role) curves: each picked role for organizations that take one."""
        chosen_roles = self.controls["roles"].value
        pairs: list[tuple[str, str | None]] = []
        for organization in self.controls["organizations"].value:
            if self.rules.organizations[organization].needs_role:
                pairs.extend((organization, role) for role in chosen_roles)
            else:
                pairs.append((organization, None))
        return pairs

    def _with_published(self, figure: go.Figure, quantity: str, pairs: list[tuple[str, str | None]]) -> go.Figure:
        """The published monsters of the picked curves and shown levels as points over them, when ticked."""
        if self.controls["published"].value:
            low, high = self.controls["levels"].value
            add_published_points(figure, [m for m in self.published if low <= m.level <= high], quantity, pairs)
        return figure

    def refresh(self, change: Any = None, draw_whatif: bool = True) -> None:
        """Read every control and redraw the curves, the grid and the what-if view (the one observer)."""
        c = self.controls
        extra = c["extra_stamina"].value
        pairs = self.pairs()
        quantity = c["quantity"].value
        table = self._levels(self._table(self.rules, extra))
        self.curves_slot.show(self._with_published(curves_figure(table, quantity, pairs), quantity, pairs))
        organizations = list(c["organizations"].value)
        roles = list(c["roles"].value) + [None]
        shown = sort_grid(pick_rows(table, organizations, roles), c["sort_by"].value, c["ascending"].value)
        self.grid.value = _table_html(shown, "wb-grid")
        try:
            changes = changes_from(self.rules, self.editors)
            self.variant = self.rules.updated(changes) if changes else self.rules
        except WorkbenchError as exc:
            self.status.value = error_html(str(exc), css="wb-error", tag="pre")
            return
        self.status.value = ""
        low, high = c["levels"].value  # a variant's grid is built for the shown levels only
        new = stat_table(range(low, high + 1), extra, self.variant) if self.variant is not self.rules else table
        names = (self.rules.name, self.variant.name)
        if draw_whatif or self.whatif_slot.figure is not None:
            self.whatif_slot.show(curves_figure(new, quantity, pairs, old_table=table, ruleset_names=names))
        diff = ruleset_differences(table, new) if new is not table else None
        if diff is None or diff.empty:
            self.differences.value = "<p>No number differs: change a modifier above.</p>"
        else:
            more = len(diff) - MAX_DIFFERENCE_ROWS
            first = f" (first {MAX_DIFFERENCE_ROWS} shown)" if more > 0 else ""
            self.differences.value = Markup("<p>{} numbers differ{}:</p>{}").format(
                len(diff), first, _table_html(diff.head(MAX_DIFFERENCE_ROWS), "wb-diff"))

    def _reset_clicked(self, _: Any = None) -> None:
        fresh = modifier_editors(self.rules)
        for path, editor in self.editors.items():
            editor.unobserve(self.refresh, names="value")
            editor.value = fresh[path].value
            editor.observe(self.refresh, names="value")
        self.refresh()


def scaling_explorer(ruleset: Ruleset | None = None) -> ScalingExplorer:
    """The scaling explorer app for a ruleset (the core rules by default). Returns the widget."""
    return ScalingExplorer(ruleset)
