"""The adventure planner: a day of saved encounters in order, respites between them, and the packet to print.

The party is set with sliders (heroes, their level, the Victories they hold before the first encounter); the
first encounter added to an empty day brings its own party, which the sliders then change. "Add encounter"
offers the encounters saved by the encounter page (the workspace's encounters folder). Each encounter is a
row: its objective picker (choosing one replaces the encounter's objectives; its Victories, and so the next
encounters' arrival Victories and bands, follow), buttons to move it up or down, to remove it, and to add (or
take away) a respite after it, and a line with the Victories the heroes arrive with and the band and
difficulty it has then. Under the rows, a chart of the Victories and the difficulty through the day, and the
day as `render.adventure.day_html` draws it, with the warnings in the rules' words. "Save" writes the day into
the workspace's adventures folder (the full path is said); "Saved adventures" and "Open" bring one back.
"Print the packet" makes the PDF (`export.adventure.export_adventure`) and draws a link that downloads it.

Glue only: every change is one `Adventure` method, every number comes from `Adventure.plan()`. A refusal
(a file that cannot be read, a taken name) is said in words beside the buttons and changes nothing.

The returned widget carries `controls` (the page's own controls), `rows` (each row's controls, by name) and
`adventure` (what is planned now; None before the first encounter is added), for scripts and tests.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.chart_slot import ChartSlot
from workbench.apps.message import refusal_html, shown_path
from workbench.apps.quiet import Quiet
from workbench.apps.share_panel import adventure_share
from workbench.charts.adventure import adventure_figure
from workbench.encounter.adventure import Adventure, AdventurePlan, EncounterPlan, load_adventure, save_adventure
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import load_encounter
from workbench.encounter.objective import choose_objective, objective_keys, objective_rule
from workbench.encounter.party import Party, make_party
from workbench.errors import InvalidInput, WorkbenchError
from workbench.export.adventure import export_adventure
from workbench.model import Monster
from workbench.monster.library import suggest_name
from workbench.numbers import format_number
from workbench.render.adventure import day_html
from workbench.render.escape import Markup, escape
from workbench.render.message import ok_html
from workbench.workspace.fight_victories import open_from_adventure
from workbench.workspace.folder import adventures_folder, encounters_folder

__all__ = ["AdventureApp", "adventure_app", "packet_link_html", "packet_name"]

EMPTY = "<p class='wb-note'>No encounters yet: pick one saved on the encounter page and press “Add encounter”.</p>"
NO_OBJECTIVE = ""
AS_SAVED = "as saved"  # the objective picker's value for an encounter saved with several objectives
REPLACE = "Replace a file of that name"
SLIDER_TOP = 10  # heroes and levels on the sliders, as on the encounter page
VICTORIES_TOP = 20
WIDE = {"description_width": "initial"}
RESPITE_LINE = ("<div class='wb-adventure-respite'><b>Respite</b>: "
                "the heroes rest; the Victories go back to 0.</div>")


def packet_name(adventure: Adventure) -> str:
    """The packet's file name: the adventure's name made a file name, then " packet.pdf"."""
    return (suggest_name(adventure.name) or "adventure") + " packet.pdf"


def packet_link_html(adventure: Adventure, pdf: bytes) -> str:
    """A link that downloads the packet (the PDF inside the link, as a data: URL)."""
    name = packet_name(adventure)
    href = f"data:application/pdf;base64,{base64.b64encode(pdf).decode('ascii')}"
    return (Markup('<a class="wb-download" data-format="pdf" download="{}" '
            'href="{}">⬇ Download {}</a> '
            '<span class="wb-note">({:,} bytes)</span>').format(name, href, name, len(pdf)))


def _victories(value: Any) -> str:
    return f"{format_number(value)} {'Victory' if value == 1 else 'Victories'}"


def _plan_line(row: EncounterPlan) -> str:
    """One row's numbers as the heroes meet the encounter, each in an element with a stable class."""
    return (
        Markup('<div class="wb-adventure-row-plan">'
               'Arrive with <b class="wb-row-arrival" data-value="{}">{}</b>: encounter strength '
               '<b class="wb-row-strength">{}</b>; EV {} is <b class="wb-row-band" data-value="{}">{}</b>'
               ', <span class="wb-row-difficulty" data-value="{}">{}</span> with its objective, {}'
               'Malice at the start <b class="wb-row-malice">{}</b>.</div>').format(
            format_number(row.arrival_victories), _victories(row.arrival_victories),
            format_number(row.encounter_strength), format_number(row.total_ev), row.band, row.band,
            row.difficulty, row.difficulty,
            Markup('<b class="wb-row-fought">fought: {} earned</b>; ').format(_victories(row.victories))
            if row.fought else f"worth {_victories(row.victories)}; ",
            row.starting_malice)
    )


def _party_words(party: Party) -> str:
    """The party in words when the sliders cannot show it (mixed levels, retainers or allies)."""
    kinds = {"hero": "hero", "retainer": "retainer", "ally": "ally"}
    parts = [f"{kinds.get(m.kind, m.kind)} of level {m.level}" for m in party.members]
    return ", ".join(parts)


class AdventureApp(widgets.VBox):
    """The party, the "Add encounter" picker, the rows of the day, its chart and table, Save and Open, and the
    packet button."""

    def __init__(
        self,
        adventure: Adventure | None = None,
        folder: str | Path | None = None,
        monsters: Sequence[Monster] = (),
        adventures: str | Path | None = None,
        party: Party | None = None,
        on_fight: Callable[[], None] | None = None,
    ) -> None:
        if adventure is not None and not isinstance(adventure, Adventure):
            raise InvalidInput("adventure", adventure, "an Adventure, or nothing for an empty day")
        if party is not None and not isinstance(party, Party):
            raise InvalidInput("party", party, "a Party (make_party), or nothing for four 1st-level heroes")
        self.adventure = adventure
        self.folder = Path(folder).expanduser() if folder is not None else encounters_folder()
        self.adventures = Path(adventures).expanduser() if adventures is not None else adventures_folder()
        self.monsters = tuple(monsters)
        self.party = adventure.party if adventure is not None else party or make_party(heroes=4, level=1)
        self.rows: list[dict[str, widgets.Widget]] = []
        self._quiet = Quiet()  # raised while the app writes its own controls
        self.path: Path | None = None  # the file the adventure was saved to or opened from
        self.on_fight = on_fight  # called once an encounter to fight is the workspace's (None: a link says where)
        self.controls: dict[str, widgets.Widget] = {
            "heroes": widgets.IntSlider(value=4, min=1, max=SLIDER_TOP, description="Heroes",
                                        continuous_update=False),
            "level": widgets.IntSlider(value=1, min=1, max=SLIDER_TOP, description="Level", continuous_update=False),
            "carried": widgets.IntSlider(value=0, min=0, max=VICTORIES_TOP, description="Victories before the day",
                                         continuous_update=False, style=WIDE, layout={"width": "380px"}),
            "saved": widgets.Dropdown(options=[], value=None, description="Saved encounters", style=WIDE,
                                      layout={"width": "380px"}),
            "add": widgets.Button(description="Add encounter", icon="plus"),
            "refresh": widgets.Button(description="Refresh lists", icon="refresh"),
            "name": widgets.Text(value=adventure.name if adventure is not None else "", description="Adventure name",
                                 placeholder="e.g. The keep by night", style=WIDE, layout={"width": "380px"}),
            "overwrite": widgets.Checkbox(value=False, description=REPLACE, indent=False,
                                          layout={"width": "auto"}),
            "save": widgets.Button(description="Save", icon="save"),
            "adventures": widgets.Dropdown(options=[], value=None, description="Saved adventures", style=WIDE,
                                           layout={"width": "380px"}),
            "open": widgets.Button(description="Open", icon="folder-open"),
            "print": widgets.Button(description="Print the packet", icon="print", layout={"width": "auto"}),
        }
        self.refusal = widgets.HTML()
        self.party_note = widgets.HTML()
        self._show_party(self.party)
        self.rows_box = widgets.VBox()
        self.chart = ChartSlot(adventure_figure(self._plan()), "wb-adventure-chart")
        self.day = widgets.HTML()
        self.saved_note = widgets.HTML().add_class("wb-adventure-saved")
        self.link = widgets.HTML()
        for key in ("heroes", "level", "carried"):
            self.controls[key].observe(self._on_party, names="value")
        self.controls["add"].on_click(self._act(self._add))
        self.controls["refresh"].on_click(self._act(lambda: None))
        self.controls["save"].on_click(self._act(self._save))
        self.controls["open"].on_click(self._act(self._open))
        self.controls["print"].on_click(self._print)
        where = shown_path(self.folder.absolute())
        wrap = {"flex_flow": "row wrap", "align_items": "center"}
        c = self.controls
        super().__init__(children=[
            widgets.HTML(Markup("<b>Adventure</b>: the encounters of one day, in order. Encounters saved on the "
                         "encounter page are in <b class='wb-files-folder'>{}</b>.").format(where)),
            widgets.HBox([c["heroes"], c["level"], c["carried"]], layout=wrap), self.party_note,
            widgets.HBox([c["saved"], c["add"], c["refresh"]], layout=wrap),
            self.refusal, self.rows_box, self.chart, self.day,
            widgets.HBox([c["name"], c["overwrite"], c["save"]], layout=wrap),
            widgets.HBox([c["adventures"], c["open"]], layout=wrap), self.saved_note,
            widgets.HBox([c["print"]]), self.link, adventure_share(self),
        ])
        self.add_class("wb-adventure")
        self._draw()

    # ------------------------------------------------------------ actions

    def _act(self, action: Callable[[], None]) -> Callable[[Any], None]:
        """A click handler: the action, then the page redrawn; a refusal changes nothing and is said."""

        def handler(_widget: Any = None) -> None:
            try:
                action()
            except WorkbenchError as exc:
                self.refusal.value = refusal_html(exc)
            else:
                self.refusal.value = ""
            self._draw()

        return handler

    def _change(self, change: Callable[[Adventure], Adventure]) -> None:
        if self.adventure is not None:
            self.adventure = change(self.adventure)
            self.party = self.adventure.party
            self.link.value = ""  # a packet of an older day is never offered

    def _show_party(self, party: Party) -> None:
        """The sliders show `party` (without reacting to themselves); a party they cannot show is said."""
        heroes = [m.level for m in party.members if m.kind == "hero"]
        with self._quiet:
            self.controls["heroes"].value = min(max(len(heroes) or party.size, 1), SLIDER_TOP)
            self.controls["level"].value = min(max((heroes or list(party.levels))[0], 1), SLIDER_TOP)
            self.controls["carried"].value = min(int(party.victories), VICTORIES_TOP)
        plain = (len(set(party.levels)) == 1 and len(heroes) == party.size and party.size <= SLIDER_TOP
                 and party.levels[0] <= SLIDER_TOP and party.victories == int(party.victories))
        note = "" if plain else (
            Markup("<div class='wb-page-note wb-aside'>The party: {}, holding "
            "{} before the day. Moving a slider makes it heroes of "
            "one level.</div>").format(_party_words(party), _victories(party.victories)))
        self.party_note.value = note

    def _on_party(self, _change: Any = None) -> None:
        if self._quiet:
            return
        try:
            party = make_party(heroes=self.controls["heroes"].value, level=self.controls["level"].value,
                               victories=self.controls["carried"].value)
        except WorkbenchError as exc:
            self.refusal.value = refusal_html(exc)
            return
        self.party = party
        self.party_note.value = ""
        self._change(lambda a: a.model_copy(update={"party": party}))
        self.refusal.value = ""
        self._draw()

    def _add(self) -> None:
        path = self.controls["saved"].value
        if not path:
            raise InvalidInput("saved encounter", "", "an encounter picked in the Saved encounters list")
        encounter = load_encounter(path)
        if not encounter.name:  # saved before encounters took their file's name: known by it all the same
            encounter = encounter.model_copy(update={"name": Path(path).stem})
        if self.adventure is None or not self.adventure.encounters:
            # an empty day takes the first encounter's party, with the Victories held before the day
            party = encounter.party.model_copy(update={"victories": Fraction(self.controls["carried"].value)})
            self.adventure = Adventure(name=self.controls["name"].value.strip()[:200], party=party,
                                       encounters=(encounter,))
            self.party = party
            self._show_party(party)
            self.link.value = ""
        else:
            self._change(lambda a: a.adding(encounter))

    def _set_objective(self, index: int, key: str) -> None:
        """Encounter `index` with `key` as its one objective (none for ""); the Victories follow."""
        if key == AS_SAVED or self.adventure is None:
            return
        encounter = self.adventure.encounters[index]
        objectives = (choose_objective(key),) if key else ()
        changed = encounter.model_copy(update={"objectives": objectives, "objective_mode": "combined"})
        self._change(lambda a: a.replacing(index, changed))

    def _named(self) -> Adventure | None:
        """The adventure with the name in the box (the packet and the file carry it)."""
        if self.adventure is None:
            return None
        name = self.controls["name"].value.strip()
        if name != self.adventure.name:
            self.adventure = self.adventure.model_copy(update={"name": name[:200]})
        return self.adventure

    def _save(self) -> None:
        adventure = self._named()
        if adventure is None or not adventure.encounters:
            raise InvalidInput("adventure", "", "one or more encounters: add one first")
        stem = suggest_name(adventure.name)
        if not stem:
            raise InvalidInput("adventure name", adventure.name, "a name with a letter or a digit in it")
        try:
            saved = save_adventure(adventure, self.adventures / f"{stem}.json",
                                   overwrite=bool(self.controls["overwrite"].value))
        except InvalidInput as exc:
            if exc.field == "file" and exc.reason == "the file exists":
                raise InvalidInput("adventure name", adventure.name, f"a new name, or tick “{REPLACE}” to replace it",
                                   "a file of that name exists already") from None
            raise
        self.path = saved
        self.saved_note.value = ok_html(f"Saved to {shown_path(saved.absolute())}")
        self._list_adventures(saved)

    def _open(self) -> None:
        path = self.controls["adventures"].value
        if not path:
            raise InvalidInput("saved adventure", "", "an adventure picked in the Saved adventures list")
        adventure = load_adventure(path)
        self.adventure, self.party, self.path = adventure, adventure.party, Path(path)
        self.controls["name"].value = adventure.name
        self._show_party(adventure.party)
        self.link.value = ""
        self.saved_note.value = ok_html(f"Opened {shown_path(Path(path).absolute())}")

    def _fight(self, index: int) -> None:
        """Encounter `index` into the workspace as the heroes meet it, linked to the saved adventure: the
        fight page runs it, and its Victories come back here."""
        adventure = self._named()
        if adventure is None or self.path is None or load_adventure(self.path) != adventure:
            raise InvalidInput("adventure", adventure.name if adventure else "", "an adventure saved as it is now",
                               "save the adventure first, so the fight's Victories can come back to it")
        open_from_adventure(self.path, index, self.monsters)
        name = adventure.encounters[index].name or f"Encounter {index + 1}"
        if self.on_fight is not None:
            self.saved_note.value = ok_html(f"{name} is the workspace's encounter: the fight runs it.")
            self.on_fight()
            return
        self.saved_note.value = ok_html(f"{escape(name)} is the workspace's encounter: "
                                        '<a href="fight.ipynb" target="_blank">run the fight</a>.')

    def _print(self, _button: Any = None) -> None:
        adventure = self._named()
        if adventure is None or not adventure.encounters:
            self.link.value = EMPTY
            return
        self.link.value = "<span class='wb-note'>Printing the packet…</span>"
        try:
            packet = export_adventure(adventure, "pdf", self.monsters)
        except WorkbenchError as exc:
            self.link.value = refusal_html(exc)
            return
        pdf = packet if isinstance(packet, bytes) else packet.encode("utf-8")
        self.link.value = packet_link_html(adventure, pdf)

    # ------------------------------------------------------------ drawing

    @staticmethod
    def _files(folder: Path) -> list[tuple[str, str]]:
        try:
            files = sorted(p for p in folder.glob("*.json") if p.is_file())
        except OSError:
            return []
        return [(p.stem, str(p)) for p in files]

    def _list_adventures(self, chosen: Path | None = None) -> None:
        options = self._files(self.adventures)
        keep = str(chosen) if chosen is not None else self.controls["adventures"].value
        self.controls["adventures"].options = options
        self.controls["adventures"].value = keep if keep in dict(options).values() else None

    def _plan(self) -> AdventurePlan:
        return (self.adventure or Adventure(party=self.party)).plan()

    def _objective_picker(self, encounter: Encounter) -> widgets.Dropdown:
        options = [("No objective", NO_OBJECTIVE)] + [(objective_rule(k).name, k) for k in objective_keys()]
        if len(encounter.objectives) > 1:
            names = " + ".join(objective_rule(o.key).name for o in encounter.objectives)
            options.append((f"{names} (as saved)", AS_SAVED))
            value = AS_SAVED
        else:
            value = encounter.objectives[0].key if encounter.objectives else NO_OBJECTIVE
        width = max(300, 80 + 8 * max(len(label) for label, _ in options))
        return widgets.Dropdown(options=options, value=value, description="Objective", style=WIDE,
                                layout={"width": f"{width}px"})

    def _row(self, row: EncounterPlan, adventure: Adventure) -> widgets.VBox:
        index = row.index
        last = len(adventure.encounters) - 1
        after = index + 1 in adventure.respites
        controls: dict[str, widgets.Widget] = {
            "objective": self._objective_picker(adventure.encounters[index]),
            "up": widgets.Button(description="▲", tooltip="Move up", disabled=index == 0,
                                 layout={"width": "3em"}),
            "down": widgets.Button(description="▼", tooltip="Move down", disabled=index == last,
                                   layout={"width": "3em"}),
            "remove": widgets.Button(description="Remove", icon="trash"),
            "respite": widgets.Button(description="Remove the respite after" if after else "Add a respite after",
                                      layout={"width": "15em"}),
            "fight": widgets.Button(description="Fight it", icon="play", tooltip="Run this encounter's fight"),
        }
        controls["fight"].on_click(self._act(lambda: self._fight(index)))
        controls["objective"].observe(self._act_on_value(lambda key: self._set_objective(index, key)), names="value")
        controls["up"].on_click(self._act(lambda: self._change(lambda a: a.moving(index, index - 1))))
        controls["down"].on_click(self._act(lambda: self._change(lambda a: a.moving(index, index + 1))))
        controls["remove"].on_click(self._act(lambda: self._change(lambda a: a.without_encounter(index))))
        controls["respite"].on_click(self._act(lambda: self._change(
            lambda a: a.without_respite(index + 1) if after else a.with_respite(index + 1))))
        self.rows.append(controls)
        name = adventure.encounters[index].name or f"Encounter {index + 1}"
        label = widgets.HTML(Markup("<b>{}.</b> {}").format(index + 1, name), layout={"width": "14em"})
        line = widgets.HBox([label, controls["objective"], controls["up"], controls["down"], controls["remove"],
                             controls["respite"], controls["fight"]], layout={"flex_flow": "row wrap", "align_items": "center"})
        parts = [line, widgets.HTML(_plan_line(row))]
        if after:
            parts.append(widgets.HTML(RESPITE_LINE))
        box = widgets.VBox(parts)
        box.add_class("wb-adventure-row")
        box.add_class(f"wb-adventure-row-{index + 1}")
        return box

    def _act_on_value(self, action: Callable[[str], None]) -> Callable[[Any], None]:
        def handler(change: Any) -> None:
            if not self._quiet:
                self._act(lambda: action(change["new"]))(None)

        return handler

    def _draw(self) -> None:
        chosen = self.controls["saved"].value
        options = self._files(self.folder)
        self.controls["saved"].options = options
        self.controls["saved"].value = chosen if chosen in dict(options).values() else None
        self._list_adventures()
        old = list(self.rows_box.children)
        self.rows = []
        found = self._plan()
        adventure = found.adventure
        self.rows_box.children = tuple(self._row(row, adventure) for row in found.encounters)
        self.day.value = day_html(found) if found.encounters else EMPTY
        self.chart.show(adventure_figure(found))
        for widget in old:  # the rows drawn before: their models are closed in the browser too
            _close_tree(widget)


def _close_tree(widget: widgets.Widget) -> None:
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


def adventure_app(
    adventure: Adventure | None = None,
    folder: str | Path | None = None,
    monsters: Sequence[Monster] = (),
    adventures: str | Path | None = None,
    party: Party | None = None,
    on_fight: Callable[[], None] | None = None,
) -> AdventureApp:
    """The adventure planner. `folder` holds the saved encounters offered (the workspace's encounters folder
    by default), `adventures` the saved adventures (the workspace's adventures folder by default); `monsters`
    give the creatures' own stat blocks for the packet's cards; `party`: the party before an encounter brings
    one; `on_fight()`: called once an encounter of the plan to fight is the workspace's (the workbench page
    brings its fight into view; without it, a link to the fight page says where)."""
    return AdventureApp(adventure, folder, monsters, adventures, party, on_fight)
