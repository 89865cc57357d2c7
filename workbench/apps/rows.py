"""Lists a Director edits as rows of fields: add a row, fill its fields, move it up or down, remove it.

No mini-syntax to learn: a trait is a *Name* and a *Text* box, a Malice feature adds a *Cost* box, a homebrew
rule module is picked by its name with its parameters as fields of their own. A value a row can't take is
said beside that row, in words ("Cost takes a whole number of Malice, 1 or more"), its box is marked, and the
row keeps its last good value, so the stat block beside stays the last good one.

A published trait is made of paragraphs (a price like "5 Malice:", a name like "End Effect:", a test's three
tiers): its *Text* box shows them one a line as the book prints them (`formats.feature_text`), and the trait
keeps them whole while that box is left as shown; words typed there are read as a pasted stat block's are.

The old one-line-per-item text (`Name: text`, `Name (3): text`, `module-id: name=value`) stays as an optional
shortcut under each list (*Type them instead*): rows and text are two views of one list, each rewritten when
the other changes.

`RowList` owns its rows and one observer, and calls `on_change(items)` when the list of good items changes;
`TraitRows`, `MaliceRows` and `RuleRows` say what a row holds. Parsing the typed shortcut and reading a row's
fields are plain functions, tested without a browser.
"""

from __future__ import annotations

import re
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import ipywidgets as widgets

from workbench.apps.message import plain_tooltips, refusal_text
from workbench.apps.quiet import Quiet
from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.feature_text import feature_text, trait_with_text
from workbench.homebrew.attach import format_attachments, parse_attachments
from workbench.homebrew.rule import HomebrewRule
from workbench.model import AttachedRule, Trait
from workbench.render.escape import Markup
from workbench.render.message import error_html

__all__ = [
    "MaliceRows",
    "RowList",
    "RuleRows",
    "TraitRows",
    "VillainActionRows",
    "format_traits",
    "number_or_text",
    "parse_traits",
    "trait_from_fields",
]

Item = TypeVar("Item")
_COST = re.compile(r"^(?P<name>.*?)\s*\((?P<cost>\d+)(?:\s*Malice)?\)\s*$", re.ASCII)
# a typed number: plain ASCII digits, a few of them (not "５", not 5,000 digits), one minus sign at most
_WHOLE = re.compile(r"-?[0-9]{1,9}", re.ASCII)
_WIDE = widgets.Layout(width="auto", flex="1 1 12em")
_STYLE = {"description_width": "4em"}


def number_or_text(text: str) -> int | str | None:
    """A typed box's value for a whole number: blank is 'not given', plain digits a number; anything else is
    returned as typed, for the one who checks it to refuse by name."""
    text = text.strip()
    if not text:
        return None
    if _WHOLE.fullmatch(text):
        return int(text)
    return text


def parse_traits(text: str, with_cost: bool = False) -> tuple[Trait, ...]:
    """The typed shortcut: one trait per line, "Name: text" (with_cost: "Name (3): text").

    A line without ":" is a name with no text; with_cost, a line whose name has no "(N)" is refused by line
    number (it used to be taken silently as a feature without a cost).
    """
    traits = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, _, body = line.partition(":")
        cost = None
        if with_cost:
            match = _COST.match(name)
            if not match:
                raise InvalidInput("shortcut", line, "one feature a line: Name (cost): what it does",
                                   f"line {number} has no Malice cost in brackets after its name")
            name, cost = match.group("name"), int(match.group("cost"))
        traits.append(Trait(name=name.strip(), text=body.strip(), cost=cost))
    return tuple(traits)


def format_traits(traits: Sequence[Trait]) -> str:
    """The inverse of `parse_traits`, for the shortcut box of a list of rows."""
    lines = []
    for trait in traits:
        cost = f" ({trait.cost})" if trait.cost is not None else ""
        text = " ".join(trait.text.splitlines())
        lines.append(f"{trait.name}{cost}: {text}" if text else f"{trait.name}{cost}")
    return "\n".join(lines)


def trait_from_fields(fields: Mapping[str, str], with_cost: bool = False, shown: Trait | None = None) -> Trait | None:
    """A trait (or Malice feature) from a row's boxes; None for a row still blank. `InvalidInput` names the box.

    `shown` is the trait the row showed. While the text box holds the words it was shown (`feature_text`),
    the trait keeps its paragraphs, prices and tiers whatever else changes; changed words are read as a
    pasted stat block's (`trait_with_text`). A row without a Cost box keeps the cost of the trait it shows,
    and a Malice feature whose cost is words (a "Cost" paragraph) keeps none while its Cost box stays blank.
    """
    name, text = fields["name"].strip(), fields["text"].strip()
    typed_cost = fields.get("cost", "").strip() if with_cost else ""
    if not (name or text or typed_cost):
        return None
    if not name:
        raise InvalidInput("name", name, "a name, as the stat block prints it", "the row has no name yet")
    cost = shown.cost if shown is not None and not with_cost else None
    if with_cost and (typed_cost or shown is None or shown.cost is not None):
        number = number_or_text(typed_cost)
        if not isinstance(number, int) or number < 1:
            raise InvalidInput("cost", typed_cost, "a whole number of Malice, 1 or more",
                               "a Malice feature costs Malice" if not typed_cost else None)
        cost = number
    if shown is not None and text == feature_text(shown).strip():
        return shown.model_copy(update={"name": name, "cost": cost})
    base = shown.model_copy(update={"name": name, "cost": cost}) if shown is not None else Trait(
        name=name, text="", cost=cost)
    return trait_with_text(base, text)


class _Row:
    """One row: its fields, its note, its last good item, and the box that shows them."""

    def __init__(self, fields: dict[str, widgets.Widget], item: Any, extra: Sequence[widgets.Widget] = ()) -> None:
        self.fields = fields
        self.item = item
        self.note = widgets.HTML().add_class("wb-row-note")
        self.up = widgets.Button(description="↑", tooltip="Move up", layout=widgets.Layout(width="2.6em"))
        self.down = widgets.Button(description="↓", tooltip="Move down", layout=widgets.Layout(width="2.6em"))
        self.remove = widgets.Button(description="Remove", tooltip="Remove this row",
                                     layout=widgets.Layout(width="6em"))
        self.body = widgets.VBox(list(fields.values()) + list(extra), layout=widgets.Layout(flex="1 1 auto"))
        buttons = widgets.HBox([self.up, self.down, self.remove], layout=widgets.Layout(flex="0 0 auto"))
        self.box = widgets.VBox([widgets.HBox([self.body, buttons]), self.note],
                                layout=widgets.Layout(border="1px solid #ddd", padding="2px 4px",
                                                      margin="2px 0")).add_class("wb-row")


class _AbstractWidgetMeta(type(widgets.VBox), ABCMeta):  # type: ignore[misc]
    """A widget class with abstract methods: the list itself can't be made, only a kind of row list."""


class RowList(widgets.VBox, Generic[Item], metaclass=_AbstractWidgetMeta):
    """Rows of fields with Add, ↑, ↓ and Remove; `items` are the rows' good values in order.

    Subclasses say what a row holds (`_fields`, `_read`, `_show`) and how the shortcut text reads
    (`_parse`, `_format`). `on_change(items)` is called when `items` changes.
    """

    add_label = "Add"
    labels: Mapping[str, str] = {}
    shortcut_placeholder = ""

    def __init__(self, on_change: Callable[[tuple[Item, ...]], None] | None = None, css: str = "") -> None:
        self.on_change = on_change
        self._rows: list[_Row] = []
        self._quiet = Quiet()  # raised while the list writes its own boxes
        self.add = widgets.Button(description=self.add_label, icon="plus", layout=widgets.Layout(width="auto"))
        self.add.on_click(lambda _: self.add_row())
        self.list = widgets.VBox()
        self.shortcut = widgets.Textarea(placeholder=self.shortcut_placeholder, continuous_update=False,
                                         layout=widgets.Layout(width="100%", height="6em"))
        self.shortcut_note = widgets.HTML().add_class("wb-shortcut-note")
        self.shortcut.observe(self._typed, names="value")
        typed = widgets.Accordion(children=[widgets.VBox([self.shortcut, self.shortcut_note])],
                                  titles=("Type them instead",), selected_index=None)
        super().__init__([self.list, self.add, typed])
        self.add_class("wb-rows")
        if css:
            self.add_class(css)

    # ------------------------------------------------------------ what a row holds (subclasses)

    @abstractmethod
    def _fields(self) -> dict[str, widgets.Widget]:
        ...

    @abstractmethod
    def _read(self, row: _Row) -> Item | None:
        """The row's item from its fields (None: a blank row); `InvalidInput` names the field that is wrong."""
        ...

    @abstractmethod
    def _show(self, row: _Row, item: Item) -> None:
        ...

    @abstractmethod
    def _parse(self, text: str) -> tuple[Item, ...]:
        ...

    @abstractmethod
    def _format(self, items: tuple[Item, ...]) -> str:
        ...

    def _extra(self, fields: dict[str, widgets.Widget]) -> Sequence[widgets.Widget]:
        return ()

    # ------------------------------------------------------------ the list

    @property
    def items(self) -> tuple[Item, ...]:
        return tuple(row.item for row in self._rows if row.item is not None)

    @property
    def rows(self) -> tuple[_Row, ...]:
        return tuple(self._rows)

    def add_row(self, item: Item | None = None) -> _Row:
        """A new row at the end (blank, or showing `item`)."""
        fields = self._fields()
        row = _Row(fields, item, self._extra(fields))
        if item is not None:
            with self._quiet:
                self._show(row, item)
        for control in fields.values():
            control.observe(lambda change, row=row: self._edited(row, change), names="value")
        row.up.on_click(lambda _, row=row: self.move(row, -1))
        row.down.on_click(lambda _, row=row: self.move(row, 1))
        row.remove.on_click(lambda _, row=row: self.remove(row))
        # hover texts before the row is shown: any later change to a text box's model makes its view show the
        # model's value again, wiping what the Director has begun to type into it
        plain_tooltips(row.box)
        self._rows.append(row)
        self._changed()
        return row

    def move(self, row: _Row, step: int) -> None:
        """Move `row` one place up (−1) or down (+1), kept within the list."""
        index = self._rows.index(row)
        target = min(max(index + step, 0), len(self._rows) - 1)
        self._rows.insert(target, self._rows.pop(index))
        self._changed()

    def remove(self, row: _Row) -> None:
        self._rows.remove(row)
        self._changed()

    def set_items(self, items: Sequence[Item]) -> None:
        """Show `items`, one a row (the rows there were are replaced); `on_change` is not called."""
        callback, self.on_change = self.on_change, None
        try:
            self._rows = []
            for item in items:
                self.add_row(item)
            self._changed()
        finally:
            self.on_change = callback

    # ------------------------------------------------------------ the one observer and its helpers

    def _mark(self, row: _Row, problem: WorkbenchError | None) -> None:
        field = problem.field if isinstance(problem, InvalidInput) else None
        for key, control in row.fields.items():
            # A blank field is not marked, only said in the note: any change to a text box's model makes its view
            # show the model's value again, wiping what the Director is typing into it before it is sent.
            if key == field and control.value != "":
                control.add_class("wb-invalid")
            else:
                control.remove_class("wb-invalid")
        kept = (" The block keeps this row's last good value." if row.item is not None
                else " The row is left off the block until then.")
        row.note.value = "" if problem is None else error_html(
            refusal_text(problem, self.labels) + kept, css="wb-error", tag="div", small=True)

    def _edited(self, row: _Row, change: Any = None) -> None:
        if self._quiet or row not in self._rows:
            return
        try:
            item = self._read(row)
        except WorkbenchError as exc:
            self._mark(row, exc)
            return
        self._mark(row, None)
        if item != row.item:
            row.item = item
            self._changed(rows_changed=False)

    def _changed(self, rows_changed: bool = True) -> None:
        if rows_changed:
            self.list.children = [row.box for row in self._rows]
            for number, row in enumerate(self._rows):
                row.up.disabled = number == 0
                row.down.disabled = number == len(self._rows) - 1
        with self._quiet:
            self.shortcut.value = self._format(self.items)
        self.shortcut_note.value = ""
        if self.on_change is not None:
            self.on_change(self.items)

    def _typed(self, change: Any = None) -> None:
        """The shortcut box was typed in: its lines become the rows (or say, beside it, what is wrong)."""
        if self._quiet:
            return
        try:
            items = self._parse(self.shortcut.value)
        except WorkbenchError as exc:
            self.shortcut_note.value = error_html(
                refusal_text(exc, self.labels) + " The rows above are unchanged.", css="wb-error", tag="div",
                small=True)
            return
        self.set_items(items)
        self._changed()  # now with `on_change`: the Director typed these rows


class TraitRows(RowList[Trait]):
    """Traits (or villain actions): a name and a text each."""

    add_label = "Add a trait"
    labels = {"name": "Name", "text": "Text", "shortcut": "The typed list"}
    shortcut_placeholder = "One a line — Name: what it does"
    with_cost = False

    def _fields(self) -> dict[str, widgets.Widget]:
        fields: dict[str, widgets.Widget] = {
            "name": widgets.Text(description="Name", placeholder="Crafty", style=_STYLE, layout=_WIDE,
                                 continuous_update=False),  # read when typed in, not per key
        }
        if self.with_cost:
            fields["cost"] = widgets.Text(description="Cost", placeholder="3", style=_STYLE,
                                          layout=widgets.Layout(width="9em"), continuous_update=False)
        fields["text"] = widgets.Textarea(description="Text", placeholder="What it does", style=_STYLE,
                                          layout=widgets.Layout(width="auto"), continuous_update=False)
        return fields

    def _read(self, row: _Row) -> Trait | None:
        values = {key: control.value for key, control in row.fields.items()}
        return trait_from_fields(values, self.with_cost, row.item)

    def _show(self, row: _Row, item: Trait) -> None:
        row.fields["name"].value = item.name
        row.fields["text"].value = feature_text(item)
        if "cost" in row.fields:
            row.fields["cost"].value = "" if item.cost is None else str(item.cost)

    def _parse(self, text: str) -> tuple[Trait, ...]:
        """The typed lines; a line left as the list wrote it is the trait it was written from, paragraphs and all
        (the one-line shortcut has no room for them)."""
        written: dict[str, list[Trait]] = {}
        for item in self.items:
            written.setdefault(format_traits((item,)), []).append(item)
        traits = []
        for parsed in parse_traits(text, self.with_cost):
            same = written.get(format_traits((parsed,)))
            traits.append(same.pop(0) if same else parsed)
        return tuple(traits)

    def _format(self, items: tuple[Trait, ...]) -> str:
        return format_traits(items)


class VillainActionRows(TraitRows):
    add_label = "Add a villain action"
    shortcut_placeholder = "One a line — Opener: what it does"


class MaliceRows(TraitRows):
    """Malice features: a name, a cost in Malice and a text each."""

    add_label = "Add a Malice feature"
    labels = {"name": "Name", "cost": "Cost", "text": "Text", "shortcut": "The typed list"}
    shortcut_placeholder = "One a line — Name (3): what it does"
    with_cost = True


class RuleRows(RowList[AttachedRule]):
    """Homebrew rule modules: picked by name, each parameter a field of its own (blank: the module's default)."""

    add_label = "Add a homebrew rule"
    shortcut_placeholder = "One a line — exploitable-weakness: tag=Silver"

    def __init__(self, modules: Mapping[str, HomebrewRule],
                 on_change: Callable[[tuple[AttachedRule, ...]], None] | None = None, css: str = "") -> None:
        self.modules: dict[str, HomebrewRule] = dict(modules)
        super().__init__(on_change, css)

    @property
    def labels(self) -> dict[str, str]:  # type: ignore[override]
        return {"module": "Rule", "shortcut": "The typed list",
                **{p.name: p.label for rule in self.modules.values() for p in rule.parameters}}

    def _choices(self, current: str | None = None) -> list[tuple[str, str]]:
        choices = [(rule.fill(partial=True).name, rule_id) for rule_id, rule in self.modules.items()]
        if current is not None and current not in self.modules:
            choices.append((f"{current} (not loaded: type its folder into “Module folder”)", current))
        return choices

    def _fields(self) -> dict[str, widgets.Widget]:
        picker = widgets.Dropdown(options=self._choices(), description="Rule", style=_STYLE, layout=_WIDE)
        picker.value = None
        return {"module": picker}

    def _extra(self, fields: dict[str, widgets.Widget]) -> Sequence[widgets.Widget]:
        return [widgets.HTML().add_class("wb-rule-summary"), widgets.VBox().add_class("wb-rule-parameters")]

    def _parameter_boxes(self, row: _Row, rule_id: str | None) -> None:
        """The fields for the picked module's parameters (made again when another module is picked)."""
        summary, box = row.body.children[-2], row.body.children[-1]
        rule = self.modules.get(rule_id) if rule_id else None
        row.fields = {"module": row.fields["module"]}
        summary.value = "" if rule is None else (
            Markup('<div class="wb-hint">{}</div>').format(rule.summary or rule.title))
        controls: list[widgets.Widget] = []
        for p in rule.parameters if rule else ():
            style = {"description_width": "initial"}
            if p.type == "choice":
                control: widgets.Widget = widgets.Dropdown(options=list(p.choices), value=p.default or p.choices[0],
                                                           description=p.label, style=style, layout=_WIDE)
            else:
                shown = "" if p.default is None else str(p.default)
                control = widgets.Text(value="", placeholder=shown or ("a number" if p.type == "integer" else ""),
                                       description=p.label, style=style, layout=_WIDE, continuous_update=False)
            control.observe(lambda change, row=row: self._edited(row, change), names="value")
            row.fields[p.name] = control
            controls.append(control)
        box.children = controls

    def _edited(self, row: _Row, change: Any = None) -> None:
        if not self._quiet and change is not None and change.get("owner") is row.fields.get("module"):
            with self._quiet:
                self._parameter_boxes(row, change["new"])
        super()._edited(row, change)

    def _read(self, row: _Row) -> AttachedRule | None:
        rule_id = row.fields["module"].value
        if rule_id is None:
            return None
        if rule_id not in self.modules:
            kept: AttachedRule | None = row.item  # a module no longer loaded: the attachment is kept as it was
            return kept
        values: dict[str, Any] = {}
        for name, control in row.fields.items():
            if name == "module":
                continue
            value = number_or_text(control.value) if isinstance(control, widgets.Text) else control.value
            if value is not None:
                values[name] = value
        return self.modules[rule_id].attachment(values)

    def _show(self, row: _Row, item: AttachedRule) -> None:
        picker = row.fields["module"]
        picker.options = self._choices(item.rule)
        picker.value = item.rule
        self._parameter_boxes(row, item.rule)
        saved = item.value_map()
        for name, control in row.fields.items():
            if name != "module" and name in saved:
                control.value = saved[name] if isinstance(control, widgets.Dropdown) else str(saved[name])

    def set_modules(self, modules: Mapping[str, HomebrewRule]) -> None:
        """Offer these modules (the shipped ones and the Director's folder); rows keep what they hold."""
        if dict(modules) == self.modules:
            return
        self.modules = dict(modules)
        with self._quiet:
            self._offer_modules()
        if self.shortcut_note.value:  # typed lines refused for a module not loaded then: read them again
            self._typed()

    def _offer_modules(self) -> None:
        for row in self._rows:
            if row.item is not None:
                self._show(row, row.item)
            else:
                row.fields["module"].options = self._choices()

    def _parse(self, text: str) -> tuple[AttachedRule, ...]:
        try:
            return parse_attachments(text, self.modules)
        except InvalidInput as exc:
            if exc.field == "homebrew_rules":  # the line's own words say which line and what it holds
                own = "; a module of your own? Type its folder into “Module folder” below"
                raise InvalidInput("shortcut", exc.value, exc.accepts, f"{exc.reason}{own}") from None
            raise

    def _format(self, items: tuple[AttachedRule, ...]) -> str:
        return format_attachments(items)
