"""The workbench's tools, each a view of one shared `Workbench` (`workbench.apps.shared`), built by the apps' own
factories (`monster_builder`, `encounter_app`, `fight_app`, ...).

Each function here returns its tool as one widget (a VBox) and adds only what the tool needs to work with the
others: the Director's workspace and library folders, the shared state read when the tool is built, and
observers that follow it afterwards. The workbench page (`workbench.apps.shell`) shows them one at a time under
its bar; the per-tool pages (`workbench.apps.pages`) show one each, on a workbench of their own.

The tools list the workspace's monsters together: the published stat blocks (the sample and the bestiaries
added, each with its attribution), the library, and the other bestiaries' monsters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from workbench.apps.adventure import adventure_app
from workbench.apps.bestiary_add import BestiaryAdder
from workbench.apps.builder import monster_builder
from workbench.apps.calibration import calibration_app
from workbench.apps.encounter import EncounterEditor, encounter_app
from workbench.apps.fight import fight_app
from workbench.apps.homebrew import swarm_app, weakness_app
from workbench.apps.lazy_panels import LazyPanels
from workbench.apps.message import shown_path
from workbench.apps.serving import Lesson
from workbench.apps.shared import Workbench
from workbench.apps.solos import solos_app
from workbench.encounter.encounter import Encounter
from workbench.formats.bestiary import Bestiary, PublishedMonster
from workbench.io.home import library_folder
from workbench.model import Monster
from workbench.monster.library import load_library
from workbench.numbers import format_number
from workbench.render.escape import Markup, join
from workbench.render.message import error_html, ok_html
from workbench.workspace.added_bestiary import AddedBestiary
from workbench.workspace.folder import adventures_folder, bestiaries_folder, encounters_folder
from workbench.workspace.migration import old_library_folders
from workbench.workspace.shelf import gather_bestiary, workspace_stat_blocks

__all__ = [
    "FIGHT",
    "IN_BUILDER",
    "builder_opener",
    "adventure_tool",
    "calibration_tool",
    "encounter_tool",
    "fight_key",
    "fight_tool",
    "homebrew_tool",
    "lessons_tool",
    "monster_tool",
    "solos_tool",
]

FIGHT = "fight"  # the fight's key on the workbench page's bar
BUILDER_PLACE = "in the builder"  # where a monster offered to another tool comes from: the builder
IN_BUILDER = f" ({BUILDER_PLACE})"  # after the builder's monster's name in the encounter's Monster list
OpenInBuilder = Callable[[Bestiary, PublishedMonster], str]


def _note(text: str, css: str = "wb-page-note") -> widgets.HTML:
    return widgets.HTML(Markup('<div class="{} wb-aside">{}</div>').format(css, text))


def _tool(*children: widgets.Widget) -> widgets.VBox:
    return widgets.VBox(list(children))


def _from_html(lines: tuple[str, ...]) -> str:
    """The Monster list's other shelves, each with how many and its attribution (nothing when there are none)."""
    if not lines:
        return ""
    items = join(Markup("<li class='wb-attribution-line'>{}</li>").format(line) for line in lines)
    return Markup("<div class='wb-monster-list-sources'>Also in the Monster list:<ul>{}</ul></div>").format(items)


def monster_tool(shared: Workbench) -> widgets.VBox:
    """The monster builder, saving to the library folder in the Director's home. Its monster is the shared one
    (`shared.monster`, offered first by the encounter tool); a stat block another tool asks it to open
    (`shared.opening`) is opened in it."""
    folder = library_folder()
    builder = monster_builder(folder=folder)

    def opening(_change: Any = None) -> None:
        if shared.opening is not None:
            path, shared.opening = shared.opening, None
            builder.open_file(path)

    def follow(_change: Any = None) -> None:
        shared.monster = builder.monster

    opening()
    follow()
    builder.stat_block.observe(follow, names="value")  # the builder shows each new monster there
    shared.observe(opening, names="opening")
    builder.on_export = lambda: shared.reveal(".wb-builder-tabs")  # Export: its tab in view, on the page it is on
    where = _note(Markup("Your monsters are saved in <b>{}</b> (the Homebrew library tab below) and offered on "
                         "the encounter tool.").format(shown_path(folder)))
    tool = _tool(where, builder)
    tool.builder = builder
    return tool


def _offer_builder_monster(shared: Workbench, app: EncounterEditor) -> Callable[[], None]:
    """The encounter's Monster list follows the builder's monster: first, picked, and said to be the builder's
    (the monster itself keeps its name: it is what the encounter adds). Returns what stops it following."""
    offered: list[Monster | None] = [None]

    def offer(_change: Any = None) -> None:
        rest = [m for m in app.monsters if m is not offered[0]]
        offered[0] = mine = shared.monster
        if mine is None:
            app.offer(rest)
        else:
            app.offer([mine, *rest], first_from=IN_BUILDER)

    offer()
    shared.observe(offer, names="monster")
    return lambda: shared.unobserve(offer, names="monster")


def builder_opener(shared: Workbench) -> OpenInBuilder:
    """The bestiary's "Open in the builder" on the workbench page: the stat block's file becomes the builder's
    to open (`shared.opening`), which the page brings into view."""

    def open_in_builder(bestiary: Bestiary, stat_block: PublishedMonster) -> str:
        file = bestiary.folder_of(stat_block) / stat_block.file
        if not file.is_file():
            return error_html(f"{stat_block.name}'s file is no longer at {file}: load the bestiary again.")
        shared.opening = file
        return ok_html(f"{stat_block.name} is open in the builder.")

    return open_in_builder


def encounter_tool(shared: Workbench, open_in_builder: OpenInBuilder | None = None) -> widgets.VBox:
    """The encounter editor on the shared encounter, with the builder's monster and the saved ones to add; every
    change is kept in the shared workspace (and its file), so the fight runs this encounter; Victories the
    party earns elsewhere (a fight) show in its controls at once. `open_in_builder`: the bestiary's "Open in the
    builder" (the workbench page's opens the stat block in its builder)."""
    folder = library_folder()
    contents = load_library(folder)
    monsters, unreadable = contents.named_monsters(), contents.problem_lines()
    saved_count = len(monsters)
    # beside the library: the added bestiaries' monsters the stat block list does not hold (Forge Steel, Foundry)
    # and those saved in the old library folders, each with its shelf's attribution
    others = gather_bestiary(bestiaries_folder(), None, sample=False, published=False,
                             old_libraries=old_library_folders(folder))
    monsters += [m for m in others.monsters if isinstance(m, Monster)]
    unreadable += [f"{what} ({why})" for what, why in others.problems]
    app = encounter_app(monsters=monsters, encounter=shared.workspace.encounter, library_folder=folder,
                        bestiary=workspace_stat_blocks(), files_folder=encounters_folder(),
                        open_in_builder=open_in_builder)
    app.use_library(monsters)  # suggestions choose from the Director's monsters too, as from the stat blocks

    def added(bestiary: AddedBestiary) -> None:
        """The new stat blocks into the picker; its other monsters (Forge Steel, Foundry) into the suggestions
        at once, and into the Monster list when the tool is opened again. One line says where each of the
        monsters added went, so the counts of the adder and of the picker agree."""
        more = gather_bestiary(bestiaries_folder(), None, sample=False, published=False)
        theirs = [e.monster for e in more.entries if e.shelf == bestiary.name and isinstance(e.monster, Monster)]
        app.library = [*app.library, *theirs]
        published = workspace_stat_blocks()
        app.browser.show_bestiary(published, announce=True)
        picked = sum(1 for m in published.monsters if m.shelf == bestiary.name)
        twice = len(bestiary.monsters) - picked - len(theirs)
        parts = [f"{picked} Steel Compendium stat block{'s' if picked != 1 else ''} in the bestiary picker"]
        if theirs:
            parts.append(f"{len(theirs)} of other tools' formats, suggested from now on and listed in the Monster "
                         "list when this page is opened again")
        if twice > 0:
            parts.append(f"{twice} the same stat block as another one, listed once")
        said = adding[0].message
        said.value = str(said.value) + str(
            Markup('<div class="wb-page-note wb-added-where">Of its {} monsters: {}.</div>').format(
                len(bestiary.monsters), "; ".join(parts)))

    def removed(_bestiary: AddedBestiary) -> None:
        """The picker without its stat blocks at once (its other monsters leave the Monster list when the tool
        is opened again)."""
        app.browser.show_bestiary(workspace_stat_blocks(), announce=True)

    adding: list[BestiaryAdder] = []  # made when its fold is first opened

    def adder() -> BestiaryAdder:
        adding.append(BestiaryAdder(on_added=added, on_removed=removed))
        return adding[0]

    fold = LazyPanels(widgets.Accordion, [("Add a bestiary (a folder, .zip, .tar.gz or link)", adder)],
                      selected=None, css_class="wb-bestiary-adder-fold").fold
    app.browser.children = (fold, *app.browser.children)
    status = widgets.HTML(_dom_classes=("wb-workspace-status",))
    following = [True]  # till the tool is dropped (`dispose`)
    kept = [shared.workspace.encounter]  # the shared encounter as this tool last kept it

    def remember(_change: Any = None) -> None:
        current: Encounter = app.state()
        if not following[0] or current == shared.workspace.encounter:
            return
        refused = shared.remember(current, monsters)
        status.value = refused or ok_html("Kept: the fight runs this encounter.")
        if not refused:
            kept[0] = shared.workspace.encounter

    def victories(change: Any) -> None:
        """Victories earned elsewhere (a fight's end) into the party's control: the editor takes them as typed."""
        earned: Fraction = change["new"].encounter.party.victories
        if earned != change["old"].encounter.party.victories and earned != app.state().party.victories:
            app.controls["victories"].value = format_number(earned)

    app.observe(remember, names="edits")
    unoffer = _offer_builder_monster(shared, app)
    shared.observe(victories, names="workspace")
    saved = f"{saved_count} saved monster{'s' if saved_count != 1 else ''} from {shown_path(folder)}"
    skipped = f"; could not read {', '.join(unreadable)}" if unreadable else ""
    lines = _note(Markup("{} in the Monster list. The party and the creatures here are what the fight uses.{}")
                  .format(saved + skipped, _from_html(others.attribution_lines())))
    tool = _tool(widgets.HTML(shared.problem), lines, status, app)
    tool.editor = app
    tool.kept = kept

    def dispose() -> None:
        """The tool dropped (another encounter, another workspace): it no longer follows nor writes the shared
        workbench."""
        unoffer()
        shared.unobserve(victories, names="workspace")
        following[0] = False

    tool.dispose = dispose
    return tool


def solos_tool(shared: Workbench) -> widgets.VBox:
    """The instant solo beside a built solo, at the level of the workspace's party. Besides the monster its
    sliders build, it offers the whole monsters the Director has that can become an instant solo: the shared
    encounter's leaders and elites and the builder's monster, following them as they change."""
    level = max(1, min(20, round(shared.workspace.encounter.party.average_level)))
    app = solos_app(level=level)

    def offer(_change: Any = None) -> None:
        mine = [shared.monster] if shared.monster is not None else []
        app.offer([("in the encounter", [c.monster for c in shared.workspace.encounter.creatures]),
                   (BUILDER_PLACE, mine)])

    offer()
    shared.observe(offer, names=["workspace", "monster"])
    tool = _tool(widgets.HTML(shared.problem), app)
    tool.solos = app
    tool.dispose = lambda: shared.unobserve(offer, names=["workspace", "monster"])
    return tool


def adventure_tool(shared: Workbench, fight_here: bool = True) -> widgets.VBox:
    """The day of encounters: the encounters saved on the encounter tool, in order with respites, saved into
    the workspace's adventures folder; the packet prints the saved monsters' own stat blocks. An encounter
    fought from the plan becomes the shared one, and the fight comes into view (`fight_here`: on this page;
    else a link says where the fight page is)."""
    monsters = load_library(library_folder()).named_monsters()  # the encounter tool names the files it could not read
    party = shared.workspace.encounter.party.model_copy(update={"victories": Fraction(0)})

    def fight() -> None:
        shared.reload()
        shared.wanted = FIGHT

    app = adventure_app(folder=encounters_folder(), monsters=monsters, adventures=adventures_folder(), party=party,
                        on_fight=fight if fight_here else None)
    tool = _tool(widgets.HTML(shared.problem), app)
    tool.adventure = app
    return tool


def fight_key(encounter: Encounter) -> Encounter:
    """What a fight is of: the encounter without the party's Victories (a fight's own award changes those and
    must not replace the fight that awarded them)."""
    party = encounter.party.model_copy(update={"victories": Fraction(0)})
    return encounter.model_copy(update={"party": party})


def fight_tool(shared: Workbench) -> widgets.VBox:
    """The shared encounter as one fight on one board; when the fight ends with Victories, they are the party's
    at once, on the encounter tool too (undone with the fight's Undo)."""
    app = fight_app(shared.workspace, on_carried=shared.reload)
    tool = _tool(widgets.HTML(shared.problem), app)
    tool.fight = app
    tool.encounter = fight_key(shared.workspace.encounter)
    return tool


def homebrew_tool(_shared: Workbench | None = None) -> widgets.VBox:
    """The two shipped rule modules as tools: Exploitable Weakness's wound calculator and the swarm simulator."""
    return _tool(
        widgets.HTML("<h3>Exploitable Weakness: how much a hit with the right material wounds</h3>"),
        weakness_app(),
        widgets.HTML("<h3>Swarms: how long a swarm lasts at the table</h3>"),
        swarm_app(),
    )


def calibration_tool(_shared: Workbench | None = None) -> widgets.VBox:
    """The calibration explorer: the formulas beside the published monsters at hand (the sample and the
    workspace's added bestiaries, their attribution under the chart), with a summary first."""
    return _tool(calibration_app(bestiary=workspace_stat_blocks()))


def lessons_tool(lessons: Sequence[Lesson]) -> widgets.VBox:
    """The lessons as links (each opens in a tab of its own: a lesson is a notebook, read top to bottom)."""
    if not lessons:
        return _tool(_note("The lessons are the notebooks of the workbench's source folder; open them in "
                           "JupyterLab (make lab)."))
    items = join(
        Markup('<li><a href="{}" target="_blank" rel="noopener" class="wb-lesson-link">{}</a>'
               "<div class='wb-purpose wb-aside'>{}</div></li>").format(file, title, purpose)
        for file, title, purpose in lessons)
    return _tool(widgets.HTML(Markup(
        "<p>How the workbench computes what its tools show, with worked examples from the book. Each opens in a "
        "tab of its own; open them in JupyterLab (make lab) to change and run them.</p>"
        "<ol class='wb-lessons'>{}</ol>").format(items)))
