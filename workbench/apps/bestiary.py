"""The bestiary browser: filter a bestiary's stat blocks, sort them, click one to see it whole, add it to an
encounter.

`bestiary_view` is pure (a bestiary, a query and the picked stat block in; the list's rows, a line of counts
and the stat block's HTML out). `BestiaryBrowser` owns the controls and one observer that reads them into a
`BestiaryQuery`; "Add to encounter" hands the picked stat block and a count (minions four at a time) to the
`on_add` callback the encounter editor gives it. "Load bestiary" reads a folder the Director names (a Steel
Compendium clone: hundreds of files) through `load_bestiary`, drawing a progress bar once the load has taken
more than `PROGRESS_AFTER` seconds, and lists every file that was not read by name with the reason; the
`on_load` callback hands the new bestiary to the editor. When the stat blocks come from several bestiaries (the
workspace's: the sample and those added), each row of an added one names it and a line per bestiary gives its
attribution and licence under the count. Glue only: filtering and sorting live in
`workbench.workspace.bestiary_filter`, the stat block's HTML in `workbench.render.bestiary`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from workbench.apps.message import refusal_html
from workbench.apps.quiet import Quiet
from workbench.encounter.editing import count_step
from workbench.encounter.suggest import creature_from_stat_block
from workbench.errors import WorkbenchError
from workbench.formats.bestiary import Bestiary, PublishedMonster, load_bestiary, sample_bestiary
from workbench.formats.stat_block import stat_block_data
from workbench.io.problem import os_reason
from workbench.render.bestiary import published_stat_block_html, row_label
from workbench.render.escape import Markup, join
from workbench.rules.ruleset import core_ruleset
from workbench.workspace.bestiary_filter import SORT_COLUMNS, BestiaryQuery, all_keywords, browse

__all__ = ["PROGRESS_AFTER", "BestiaryBrowser", "BestiaryView", "attribution_html", "bestiary_app", "bestiary_view",
           "failures_html"]

ANY = "any"
PROGRESS_AFTER = 1.0  # seconds a load runs before its progress bar is drawn (a quick load shows none)
SORT_LABELS = {"name": "Name", "level": "Level", "organization": "Organization", "role": "Role", "ev": "EV",
               "stamina": "Stamina"}


@dataclass(frozen=True)
class BestiaryView:
    """What the browser shows for one query."""

    rows: tuple[tuple[str, int], ...]  # (label, index into the bestiary)
    counts: str
    stat_block: str
    failures: str = ""
    attribution: str = ""


def failures_html(bestiary: Bestiary) -> str:
    """Every file of the bestiary's folder that was not read, by name with the reason (nothing when none)."""
    if not bestiary.failures:
        return ""
    items = join(Markup('<li><b class="wb-bestiary-failed-file">{}</b>: {}</li>').format(f.file, f.reason)
                    for f in bestiary.failures)
    return (Markup('<div class="wb-bestiary-failures" data-count="{}">'
            "{} file(s) not read:<ul>{}</ul></div>").format(len(bestiary.failures), len(bestiary.failures), items))


def attribution_html(bestiary: Bestiary) -> str:
    """Where the listed stat blocks come from: a line per bestiary with its attribution and licence (nothing for
    a folder loaded alone, which names no attribution)."""
    lines = bestiary.attribution_lines()
    if not lines:
        return ""
    items = join(Markup('<li class="wb-attribution-line">{}</li>').format(line) for line in lines)
    return (Markup('<div class="wb-bestiary-attribution wb-attribution">From:'
            '<ul>{}</ul></div>').format(items))


def bestiary_view(bestiary: Bestiary, query: BestiaryQuery, picked: int | None) -> BestiaryView:
    """The rows matching `query`, a line saying how many, and the picked stat block whole (if any)."""
    index = {id(m): i for i, m in enumerate(bestiary.monsters)}
    found = browse(bestiary.monsters, query)
    # with several bestiaries, a row from one after the first (the shipped sample, when listed) names it
    first = bestiary.shelves[0].name if bestiary.shelves else ""
    rows = tuple((row_label(m) + (f" · {m.shelf}" if m.shelf and m.shelf != first else ""), index[id(m)])
                 for m in found)
    counts = f"{len(found)} of {len(bestiary.monsters)} stat blocks"
    if bestiary.failures:
        counts += f"; {len(bestiary.failures)} file(s) not read (listed below)"
    block = ""
    if picked is not None and 0 <= picked < len(bestiary.monsters):
        monster = bestiary.monsters[picked]
        block = published_stat_block_html(monster, stat_block_data(bestiary, monster))
    return BestiaryView(rows=rows, counts=counts, stat_block=block, failures=failures_html(bestiary),
                        attribution=attribution_html(bestiary))


def _range(values: list[int]) -> tuple[int, int]:
    return (min(values), max(values)) if values else (1, 1)


class BestiaryBrowser(widgets.VBox):
    """The browser's widget; its controls are attributes (tests set them and press its buttons)."""

    def __init__(
        self,
        bestiary: Bestiary | None = None,
        on_add: Callable[[PublishedMonster, int], None] | None = None,
        on_load: Callable[[Bestiary], None] | None = None,
        on_open: Callable[[Bestiary, PublishedMonster], str] | None = None,
    ) -> None:
        self.bestiary = bestiary if bestiary is not None else sample_bestiary()
        self.on_add = on_add
        self.on_load = on_load
        self.on_open = on_open
        monsters = self.bestiary.monsters
        rules = core_ruleset()
        wide = {"description_width": "initial"}
        # made spanning the bestiary (as `_fit_ranges` sets them): the browser is sent them once, as they are
        self.levels, self.evs = (
            widgets.IntRangeSlider(min=low, max=max(high, low + 1), value=(low, high), description=name, style=wide)
            for name, (low, high) in (("Level", _range([m.level for m in monsters])),
                                      ("EV", _range([m.ev for m in monsters]))))
        self.organization = widgets.Dropdown(options=[ANY, *rules.organizations], value=ANY,
                                             description="Organization", style=wide)
        self.role = widgets.Dropdown(options=[ANY, *rules.roles], value=ANY, description="Role", style=wide)
        self.keyword = widgets.Dropdown(options=[ANY, *all_keywords(monsters)], value=ANY, description="Keyword",
                                        style=wide)
        self.search = widgets.Text(value="", description="Search", placeholder="a name or a word",
                                   continuous_update=True, style=wide)
        self.sort = widgets.Dropdown(options=[(SORT_LABELS[c], c) for c in SORT_COLUMNS], value="level",
                                     description="Sort by", style=wide)
        self.descending = widgets.Checkbox(value=False, description="Highest first", indent=False)
        self.rows = widgets.Select(options=[], rows=12, description="", layout={"width": "520px"},
                                   _dom_classes=("wb-bestiary-rows",))
        # the count and the files not read in one view: a count that says "listed below" never shows before its
        # list (two widgets were two updates, and the page could be read in between)
        self.counts = widgets.HTML(_dom_classes=("wb-bestiary-counts",))
        self.stat_block = widgets.HTML(_dom_classes=("wb-bestiary-stat-block",))
        self.count = widgets.BoundedIntText(value=1, min=1, max=999, step=1, description="How many",
                                            layout={"width": "150px"})
        self.add = widgets.Button(description="Add to encounter", button_style="primary",
                                  disabled=on_add is None)
        # "Open in the builder": the page hands the picked stat block to the monster page (`on_open` says how)
        self.open_builder = widgets.Button(description="Open in the builder", icon="edit",
                                   layout={"display": "none" if on_open is None else "", "width": "auto"},
                                   _dom_classes=("wb-bestiary-open",))
        self.message = widgets.HTML()
        self.folder = widgets.Text(value="", description="Bestiary folder", style=wide, layout={"width": "460px"},
                                   placeholder="a folder of stat block JSON files, e.g. a Steel Compendium clone")
        self.load = widgets.Button(description="Load bestiary")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="Reading", style=wide,
                                            layout={"display": "none"}, _dom_classes=("wb-bestiary-progress",))
        for control in (self.levels, self.evs, self.organization, self.role, self.keyword, self.search, self.sort,
                        self.descending, self.rows):
            control.observe(self._changed, names="value")
        self.add.on_click(self._changed)
        self.load.on_click(self._changed)
        self.open_builder.on_click(self._changed)
        self._quiet = Quiet()  # raised while the browser writes its own controls
        self._show()
        wrap = widgets.Layout(flex_flow="row wrap")
        super().__init__([
            widgets.HBox([self.folder, self.load, self.progress], layout=wrap),
            widgets.HBox([self.levels, self.evs, self.search], layout=wrap),
            widgets.HBox([self.organization, self.role, self.keyword, self.sort, self.descending], layout=wrap),
            self.counts,
            widgets.HBox([
                widgets.VBox([self.rows, widgets.HBox([self.count, self.add]), self.open_builder, self.message]),
                self.stat_block,
            ], layout=wrap),
        ], _dom_classes=("wb-bestiary-app",))

    def query(self) -> BestiaryQuery:
        """The controls as a query (no game logic: the query is what the library filters on)."""
        return BestiaryQuery(
            levels=self.levels.value,
            evs=self.evs.value,
            organizations=() if self.organization.value == ANY else (self.organization.value,),
            roles=() if self.role.value == ANY else (self.role.value,),
            keywords=() if self.keyword.value == ANY else (self.keyword.value,),
            text=self.search.value,
            sort=self.sort.value,
            descending=self.descending.value,
        )

    @property
    def picked(self) -> PublishedMonster | None:
        return None if self.rows.value is None else self.bestiary.monsters[self.rows.value]

    def _show(self) -> None:
        view = bestiary_view(self.bestiary, self.query(), self.rows.value)
        with self._quiet:
            keep = self.rows.value
            self.rows.options = list(view.rows)
            self.rows.value = keep if keep in {i for _, i in view.rows} else None
        self.counts.value = Markup('<span class="wb-bestiary-count">{}</span>{}{}').format(
            view.counts, view.attribution, view.failures)
        view = bestiary_view(self.bestiary, self.query(), self.rows.value)
        self.stat_block.value = view.stat_block
        picked = self.picked
        if picked is not None:
            step = count_step(creature_from_stat_block(picked))
            self.count.step, self.count.min = step, step
            if self.count.value % step:
                self.count.value = step * max(1, round(self.count.value / step))

    def _fit_ranges(self) -> None:
        """The Level and EV sliders span the bestiary's stat blocks, all of them chosen."""
        levels = _range([m.level for m in self.bestiary.monsters])
        evs = _range([m.ev for m in self.bestiary.monsters])
        for slider, (low, high) in ((self.levels, levels), (self.evs, evs)):
            slider.min, slider.max = 0, max(high, low + 1)  # widen first: the new range may lie outside the old
            slider.value = (low, high)
            slider.min = low

    def _draw_progress(self, started: float) -> Callable[[int, int], None]:
        """`load_bestiary`'s progress callback: the bar is drawn once the load has run `PROGRESS_AFTER`
        seconds, then moved at each whole percent (a few hundred messages at most, not one a file)."""
        def draw(done: int, total: int) -> None:
            if self.progress.layout.display == "none":
                if time.monotonic() - started < PROGRESS_AFTER:
                    return
                self.progress.layout.display = ""
            if done == total or done * 100 // max(total, 1) != self.progress.value * 100 // max(self.progress.max, 1):
                self.progress.max = max(total, 1)
                self.progress.value = done
                self.progress.description = f"{done} of {total} files"
        return draw

    def _load_folder(self) -> None:
        """Read the named folder (a refusal says why and keeps the bestiary shown), then show it."""
        self.progress.layout.display = "none"
        self.progress.value = 0
        folder = self.folder.value.strip()
        loaded = load_bestiary(folder, progress=self._draw_progress(time.monotonic()))
        self.show_bestiary(loaded)
        self.message.value = (Markup('<span class="wb-ok" data-tone="ok">{} stat block(s) read from '
                              "{}.</span>").format(len(loaded), folder))
        if self.on_load is not None:
            self.on_load(loaded)

    def show_bestiary(self, bestiary: Bestiary, *, announce: bool = False) -> None:
        """List `bestiary` instead (a folder loaded, or the workspace's after a bestiary was added), every
        filter reset to take it all in; `announce` hands it to `on_load` too (the editor suggests from it)."""
        self.bestiary = bestiary
        with self._quiet:
            self.keyword.options = [ANY, *all_keywords(bestiary.monsters)]
            self.keyword.value = ANY
            self.rows.value = None
            self._fit_ranges()
        self._show()
        if announce and self.on_load is not None:
            self.on_load(bestiary)

    def _changed(self, change: Any) -> None:
        """The one observer: any control, the Add button or Load. Adding hands the pick to the editor."""
        if self._quiet:
            return
        if change is self.load:
            try:
                self._load_folder()
            except WorkbenchError as exc:
                self.message.value = refusal_html(exc)
            return
        if change is self.open_builder:
            chosen = self.picked
            if chosen is None or self.on_open is None:
                self.message.value = refusal_html(WorkbenchError("Pick a stat block in the list first"))
                return
            try:
                self.message.value = self.on_open(self.bestiary, chosen)
            except (WorkbenchError, OSError) as exc:
                self.message.value = refusal_html(exc) if isinstance(exc, WorkbenchError) else refusal_html(
                    WorkbenchError(f"Could not hand it to the builder: {os_reason(exc)}"))
            return
        if change is self.add:
            picked = self.picked
            if picked is None or self.on_add is None:
                self.message.value = refusal_html(WorkbenchError("Pick a stat block in the list first"))
                return
            try:
                self.on_add(picked, self.count.value)
            except WorkbenchError as exc:
                self.message.value = refusal_html(exc)
                return
            self.message.value = (Markup('<span class="wb-ok" data-tone="ok">Added {} × '
                                  "{}.</span>").format(self.count.value, picked.name))
            return
        self.message.value = ""
        self._show()


def bestiary_app(
    bestiary: Bestiary | None = None,
    on_add: Callable[[PublishedMonster, int], None] | None = None,
    on_load: Callable[[Bestiary], None] | None = None,
) -> BestiaryBrowser:
    """The bestiary browser on `bestiary` (the shipped sample by default). `on_add(stat_block, count)` is
    called by "Add to encounter" (the encounter editor passes its own); `on_load(bestiary)` once "Load
    bestiary" has read a folder."""
    return BestiaryBrowser(bestiary, on_add, on_load)
