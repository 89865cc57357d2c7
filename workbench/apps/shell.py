"""The workbench page: a bar of the tools and the tool in view, every tool a view of one shared workbench.

Why one page: a Director moves between the tools all the time (a monster built, added to an encounter, fought,
back to the encounter), and each tool as a page of its own was rebuilt from files at every return, in a kernel
of its own. Here all of them live in one kernel on one `Workbench` (`workbench.apps.shared`): a tool is built
the first time it is opened (the factories of `tools()`, `workbench.apps.tools`), kept, hidden, when the Director moves
to another, and shown again as it was left. The bar (`ToolBar`) keeps the page's address on the tool in view,
so a link or a reload opens a tool and the browser's Back goes to the previous one.

A tool may ask to be built again when it comes back into view (`Tool.again`): the fight, when the encounter it
runs has changed since; the encounter, when another tool made another encounter the workspace's.

A share code's link (`workbench.ipynb#tool=encounter&code=...`) opens the code in the tool of its kind: the page
template's script hands the fragment's code to the page's hidden box (class `wb-code-incoming`), and the code is
opened by that tool's Share panel, which says what it did beside itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from workbench.apps.message import plain_tooltips, plain_tooltips_as_made, refusal_html
from workbench.apps.revealer import Revealer
from workbench.apps.serving import Lesson
from workbench.apps.share_panel import SharePanel
from workbench.apps.shared import Workbench
from workbench.apps.stylesheet import stylesheet_widget
from workbench.apps.tool_bar import ToolBar
from workbench.apps.tools import (
    FIGHT,
    adventure_tool,
    builder_opener,
    calibration_tool,
    encounter_tool,
    fight_key,
    fight_tool,
    homebrew_tool,
    lessons_tool,
    monster_tool,
    solos_tool,
)
from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.share_code import read_code
from workbench.io.problem import os_reason
from workbench.render.escape import Markup
from workbench.render.message import error_html

__all__ = ["Tool", "WorkbenchShell", "tools", "workbench_shell"]


SITE = "Draw Steel workbench"  # after the tool's title in the page's title
MONSTER = "monster"  # the builder's key: the tool other tools open a monster in


def _never(_view: widgets.Widget, _shared: Workbench) -> bool:
    return False


@dataclass(frozen=True)
class Tool:
    """One tool of the bar: its `key` (in the address: `#tool=<key>`), `title` (on the bar), `purpose` (one line
    under the title), `how` (how it works, HTML, folded away), `build(shared)` (its view) and `again(view,
    shared)` (called when the built view comes back into view: True to build it again)."""

    key: str
    title: str
    purpose: str
    build: Callable[[Workbench], widgets.Widget]
    how: str = ""
    again: Callable[[widgets.Widget, Workbench], bool] = field(default=_never)


def _fight_again(view: widgets.Widget, shared: Workbench) -> bool:
    """The fight is built again when the encounter it runs changed (the Victories it awarded aside)."""
    return bool(getattr(view, "encounter", None) != fight_key(shared.workspace.encounter))


def _encounter_again(view: widgets.Widget, shared: Workbench) -> bool:
    """The encounter is built again when another tool made another encounter the workspace's since it last kept
    one (an adventure's encounter to fight); Victories a fight awards it takes as they come, and an edit whose
    keeping was refused stays on it."""
    kept = getattr(view, "kept", None)
    return kept is not None and fight_key(kept[0]) != fight_key(shared.workspace.encounter)


def _adventure_again(view: widgets.Widget, _shared: Workbench) -> bool:
    """The encounters saved meanwhile are offered: the adventure's lists are read again."""
    adventure = getattr(view, "adventure", None)
    if adventure is not None:
        adventure.controls["refresh"].click()
    return False


def tools(lessons: Sequence[Lesson] = ()) -> tuple[Tool, ...]:
    """The workbench's tools in a Director's order: build a monster, then an encounter, plan the day, run the
    fight; then homebrew, calibration and the lessons."""
    return (
        Tool(MONSTER, "Build a monster",
             "Choose a level, an organization and a role: the stat block follows at once; name it and save it for "
             "your encounters.", monster_tool, how=MONSTER_HOW),
        Tool("solos", "Solo monsters",
             "See a leader or elite made an instant solo beside a solo built from the formulas, level by level.",
             solos_tool, how=SOLOS_HOW),
        Tool("encounter", "Build an encounter",
             "Set the party, buy creatures within the budget for the difficulty you want, and check the book's "
             "guidelines.", lambda shared: encounter_tool(shared, builder_opener(shared)), how=ENCOUNTER_HOW,
             again=_encounter_again),
        Tool("adventure", "Plan an adventure",
             "Put saved encounters in the order the heroes meet them, with respites, and see each one as the "
             "Victories pile up.", adventure_tool, how=ADVENTURE_HOW, again=_adventure_again),
        Tool(FIGHT, "Run the fight",
             "Run your current encounter turn by turn: Stamina, squads, Malice, villain actions and the objective, "
             "to the Victories at the end.", fight_tool, how=FIGHT_HOW, again=_fight_again),
        Tool("homebrew", "Homebrew rules",
             "Try two homebrew rules before using them: a weakness to one material, and swarms that break up and "
             "re-form.", homebrew_tool, how=HOMEBREW_HOW),
        Tool("calibration", "Calibration",
             "Compare the formulas with published monsters: where they agree, where they don't, and which rule "
             "readings fit best.", calibration_tool, how=CALIBRATION_HOW),
        Tool("lessons", "Lessons", "How the workbench computes what the tools show, notebook by notebook.",
             lambda _shared: lessons_tool(lessons)),
    )


class WorkbenchShell(widgets.VBox):
    """The bar and the tools' views. `show(key)` brings a tool into view (building it the first time);
    `views` holds the tools built so far, by key (`bodies`: what their factories built); `shared` is the
    workbench they are views of; `incoming` the hidden box a share code's link is handed to, `note` what was
    said of it when no tool could open it."""

    def __init__(self, shared: Workbench, tool_list: Sequence[Tool], first: str | None = None,
                 address: bool = False, below: Sequence[widgets.Widget] = ()) -> None:
        if not tool_list:
            raise InvalidInput("tools", tool_list, "at least one tool")
        self.shared = shared
        self.tools = {tool.key: tool for tool in tool_list}
        self.views: dict[str, widgets.Widget] = {}
        self.bodies: dict[str, widgets.Widget] = {}  # what each tool's factory built, under its title
        self.current = ""
        first = first or tool_list[0].key
        self.bar = ToolBar([(tool.key, tool.title) for tool in tool_list], first, address=address, site=SITE)
        self.stage = widgets.VBox().add_class("wb-tool-stage")
        self.note = widgets.HTML().add_class("wb-code-note")
        self.incoming = widgets.Text(value="", layout={"display": "none"}).add_class("wb-code-incoming")
        self.bar.observe(self._asked, names="tool")
        self.incoming.observe(self._code, names="value")
        self._follow(shared)
        self.revealer = Revealer(shared)  # what a tool asks to see scrolled into view (`Workbench.reveal`)
        super().__init__([self.bar, self.note, self.incoming, self.stage, *below, stylesheet_widget(), self.revealer])
        self.add_class("wb-shell")
        self.show(first)

    def _asked(self, change: dict[str, Any]) -> None:
        """The browser asked for a tool (the bar, Back, a link): shown; a name the bar does not hold is ignored."""
        if change["new"] in self.tools:
            self.show(change["new"])
        else:
            self.bar.tool = self.current

    def _opening(self, change: dict[str, Any]) -> None:
        """A tool asked the builder to open a file (`Workbench.opening`): the builder comes into view, built now if
        it was not yet (it opens the file as it is built)."""
        if change["new"] is not None and MONSTER in self.tools:
            self.show(MONSTER)

    def _wanted(self, change: dict[str, Any]) -> None:
        """A tool asked for another in view (`Workbench.wanted`): shown, and the wish forgotten."""
        if change["new"] in self.tools:
            self.shared.wanted = ""
            self.show(change["new"])

    def _follow(self, shared: Workbench, old: Workbench | None = None) -> None:
        if old is not None:
            old.unobserve(self._opening, names="opening")
            old.unobserve(self._wanted, names="wanted")
        shared.observe(self._opening, names="opening")
        shared.observe(self._wanted, names="wanted")

    def _code(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.open_code(change["new"])
            self.incoming.value = ""

    def open_code(self, text: str) -> SharePanel | None:
        """Open a share code (a link's) in the tool of its kind, brought into view: its Share panel opens it and
        says so; a code no tool reads is refused in one line under the bar. Returns the panel that opened it."""
        try:
            kind = read_code(text).kind
        except WorkbenchError as exc:
            self.note.value = refusal_html(exc, {"code": "The link's code"})
            return None
        if kind not in self.tools:
            self.note.value = error_html(f"This page has no tool for {kind} codes.")
            return None
        self.note.value = ""
        panel = _share_panel(self.show(kind))
        if panel is None:
            self.note.value = error_html(f"The {kind} tool could not open the code.")
            return None
        panel.open_code(text)
        return panel

    def show(self, key: str) -> widgets.Widget:
        """Bring tool `key` into view, built now if it was not yet (or if it asks to be), and return its view."""
        if key not in self.tools:
            raise InvalidInput("tool", key, "one of " + ", ".join(self.tools))
        tool = self.tools[key]
        view = self.views.get(key)
        if view is not None and key != self.current and tool.again(self.bodies[key], self.shared):
            self.stage.children = tuple(child for child in self.stage.children if child is not view)
            self._drop(key)
            view = None
        built = view is None
        if view is None:
            view, self.bodies[key] = self._build(tool)
            self.views[key] = view
        for other in self.views.values():  # hidden first: the browser never shows two tools at once
            if other is not view:
                other.layout.display = "none"
        view.layout.display = None
        if built:
            self.stage.children = (*self.stage.children, view)
        self.current = key
        self.bar.tool = key
        return view

    def _build(self, tool: Tool) -> tuple[widgets.Widget, widgets.Widget]:
        """The tool's view (what its factory built, under its title and purpose) and what its factory built; a
        tool that cannot be built says why in its place."""
        try:
            with plain_tooltips_as_made():
                body = tool.build(self.shared)
        except (WorkbenchError, OSError) as exc:
            words = exc.summary if isinstance(exc, WorkbenchError) else os_reason(exc)
            body = widgets.HTML(error_html(f"{tool.title} could not be opened: {words}"))
        how = (Markup('<details class="wb-more"><summary>How it works</summary>{}</details>').format(Markup(tool.how))
               if tool.how else "")
        head = widgets.HTML(Markup('<div class="wb-tool-head"><h2>{}</h2><div class="wb-tool-purpose wb-aside">{}</div>'
                                   "{}</div>").format(tool.title, tool.purpose, how))
        view = widgets.VBox([head, body], _dom_classes=("wb-tool-view", f"wb-tool-view-{tool.key}"))
        plain_tooltips(view)
        return view, body

    def _drop(self, key: str) -> None:
        """Forget tool `key`'s view, taken off the stage: it stops following the shared workbench (`dispose`, where
        its factory gave one). Its widgets are left to go with the page, not closed: a chart closed under the
        browser's view of it still sends from there, and the page shows an error."""
        dispose = getattr(self.bodies.pop(key), "dispose", None)
        if callable(dispose):
            dispose()
        del self.views[key]

    def reset(self, shared: Workbench) -> None:
        """Work on another workbench (another workspace opened): every view built so far is dropped, and the
        tool in view is built again from `shared`."""
        self.stage.children = ()
        for key in list(self.views):
            self._drop(key)
        self._follow(shared, self.shared)
        self.revealer.follow(shared)
        self.shared = shared
        key, self.current = self.current, ""
        self.show(key)


def _share_panel(widget: widgets.Widget) -> SharePanel | None:
    """The first Share panel in `widget`'s tree (None: the tool has none)."""
    if isinstance(widget, SharePanel):
        return widget
    for child in getattr(widget, "children", ()):
        found = _share_panel(child)
        if found is not None:
            return found
    return None


def workbench_shell(shared: Workbench, lessons: Sequence[Lesson] = (), first: str | None = None,
                    address: bool = False, below: Sequence[widgets.Widget] = ()) -> WorkbenchShell:
    """The workbench page's widget on `shared`: the bar of `tools(lessons)` and `first` (the first tool by
    default) in view; `address`: the page's address follows the tool in view (the workbench page; not in
    JupyterLab); `below`: widgets under the tools (the workspace's folder)."""
    return WorkbenchShell(shared, tools(lessons), first, address, below)


MONSTER_HOW = """<p>The numbers come from the Monster Basics formulas: EV, Stamina, free strike, damage by tier and
potency follow the level, the organization (minion, horde, platoon, elite, leader, solo) and the role. The
<b>How was this computed</b> tab shows each number's working. Open several sections at once on the left:
<b>Abilities</b> adds a signature strike, a 2-target strike, an area ability, a villain action or a Malice ability,
each pre-filled from the formulas; change any part, and a number that departs from the formula is marked on the
block. <b>Traits</b>, <b>Malice features</b>, <b>Villain actions</b> and <b>Homebrew rules</b> are lists of rows:
add one, fill in its boxes, move it up or down, remove it. Tick <b>Instant solo</b> on a leader or elite to make
it a solo (EV × 3, Stamina × 2.5). <b>Move to another level</b> shows every number old → new with its working,
beside the block at both levels; <b>Use this level</b> moves the monster there, <b>Save a copy at level N</b>
keeps both. <b>Save</b> and <b>Export</b> sit above the block: the encounter tool offers every saved monster, and
the monster in the builder first. <b>Open a file</b> in the <b>Homebrew library</b> tab opens a published stat
block (Steel Compendium, Forge Steel, Foundry) to change it.</p>"""

SOLOS_HOW = """<p>Monster Basics gives two ways to a solo: build it with the solo organization, or take a leader or
elite and make it an <i>instant solo</i> (EV × 3, Stamina × 2.5, the Solo Turns trait and the Solo Action Malice
feature). The two rarely agree to the point; the chart shows by how much across levels 1 to 10, so you can pick
the one that suits your fight. The Monster picker makes an instant solo of a leader or elite you already have (one
in the encounter, or the builder's) from its own printed numbers instead of the sliders' formula monster.</p>"""

ENCOUNTER_HOW = """<p>The party's Encounter Strength sets the budget; each creature costs its EV (minions by
fours). The chart shows where the encounter sits among the difficulty bands, the Guidelines tab checks the book's
advice, the Initiative groups tab splits the creatures into turns, and the Quick method gives the book's shortcut
for the same party. What you set here is kept: the fight runs this encounter with these heroes, and the Victories
it awards come back here.</p>"""

ADVENTURE_HOW = """<p>Victories make the heroes stronger. As "Factor in Victories" (Step 3: Determine Encounter
Strength) says, for every 2 Victories the heroes have earned on average, the party's encounter strength grows as
if there were another hero in the party, so an encounter built as hard for fresh heroes may be standard by the
time they reach it (the bands of Step 4: Determine Encounter Budget). Each encounter adds the Victories its
objective gives at its difficulty then (each objective's "Victories" in Encounter Objectives); a respite sets them
back to 0. "Malice" gives the monsters Malice at the start of combat equal to the heroes' average Victories. The
warnings quote "How Many Fights Before a Respite?" (4 to 6 Victories' worth of encounters), "Factor in Victories"
(difficulty drifting through the day) and "Villain Actions" (a solo is for the climax). Save keeps the day in
your workspace's adventures folder; "Print the packet" gives one PDF with a sheet per encounter, its Malice card
and every stat block.</p>"""

FIGHT_HOW = """<p>Malice: at the start of each round the Director gains Malice (round 1 adds the heroes' average
Victories; every round adds the living heroes plus the round number) and spends it on Malice features, each
monster's own included. Malicious Strike can't be used two rounds in a row. Squads: minions share one Stamina
pool; every time the pool drops past a minion's Stamina, one minion falls. A captain gives the squad its With
Captain bonus. The squads and monsters here come from the encounter tool. The fight is saved after every click
and resumes when you come back; Undo takes the last change back. Villain actions: each once per encounter, no
more than one per round, at the end of another creature's turn. A solo takes two turns a round, never two in a
row. When the fight ends, the Victories it awards are the party's.</p>"""

HOMEBREW_HOW = """<p>These modules come from a homebrew source written for another game, so some of its words need
a Draw Steel reading. <b>Wounds</b> are the source's damage steps; <b>grips</b> are how a weapon is held (one or
two hands). A <b>Partial Critical</b> and a <b>Legendary</b> hit are that game's better results of a strike; the
calculator shows the reading used for each. A swarm <b>disperses</b> into individuals after enough area hits and
<b>re-forms</b> when enough of them are still near each other; the simulator plays many fights to show how long a
swarm lasts.</p>"""

CALIBRATION_HOW = """<p>The sample bestiary holds published stat blocks. For each, the workbench rebuilds the
monster from its level, organization and role and compares the numbers. Pick a number to see the formula's curve
with the published monsters over it; tick a reading (rounding halved damage down, minion strikes without the
characteristic, extra Stamina) to see whether the fit gets better.</p>"""
