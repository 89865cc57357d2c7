"""The solos app: pick a leader or elite, see it as an instant solo beside a solo built from the formulas.

The leader or elite is the one the sliders build from the formulas, or a whole monster the Director already has
(`offer`: an encounter's entry, the builder's monster), picked by name: then the instant solo is THAT monster's,
its own Stamina, EV, abilities and keywords, and the sliders, which would rebuild it, wait.

Glue only: the controls feed `workbench.monster.solo.compare_solos` / `solo_drift` (`solo_sources` says which
monsters it adapts); `render.solo` and `charts.solo` draw the result. One observer wires every control to that
pure path. The app returns the widget and never displays itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.chart_slot import ChartSlot
from workbench.apps.message import refusal_html
from workbench.apps.quiet import Quiet
from workbench.charts.solo import solo_figure, update_solo_figure
from workbench.errors import InvalidInput, WorkbenchError
from workbench.model import Monster
from workbench.monster.formulas import build_monster
from workbench.monster.solo import SoloComparison, compare_solos, solo_drift, solo_source_organizations, solo_sources
from workbench.render.escape import Markup
from workbench.render.solo import COMPARISON_STYLE, comparison_html
from workbench.render.stat_block import STYLE as STAT_BLOCK_STYLE
from workbench.render.stat_block import stat_block_html
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = ["SolosApp", "solos_app"]

DRIFT_LEVELS = range(1, 11)
NO_ROLE = ""
FROM_SLIDERS = "Built from the sliders"  # the picker's first choice, its value SLIDERS
SLIDERS = -1  # the picker's value for the sliders' monster; a whole monster's is its place in `offered`


class SolosApp(widgets.VBox):
    """The app's widget, with its controls and outputs as attributes (tests set and read them)."""

    def __init__(
        self,
        ruleset: Ruleset | None = None,
        level: int = 5,
        organization: str = "leader",
        role: str | None = None,
        max_level: int = 20,
    ) -> None:
        self.rules = ruleset or core_ruleset()
        roles = list(self.rules.roles)
        if organization not in solo_source_organizations():
            raise InvalidInput("organization", organization, "one of " + ", ".join(solo_source_organizations()))
        if role not in (None, NO_ROLE, *roles):
            raise InvalidInput("role", role, "None or one of " + ", ".join(roles))
        self.level = widgets.IntSlider(value=level, min=1, max=max_level, description="Level",
                                       continuous_update=False)
        self.organization = widgets.ToggleButtons(options=list(solo_source_organizations()),
                                                  value=organization, description="Adapt a")
        # "" stands for no role: a Dropdown shows nothing for a None value
        self.role = widgets.Dropdown(options=[("— (a leader has no role)", NO_ROLE)] + [(r.capitalize(), r) for r in roles],
                                     value=role or NO_ROLE, description="Role")
        self.extra_stamina = widgets.Checkbox(value=False, description="Extra Stamina")
        # the leader or elite to adapt: the sliders' own, or one of the whole monsters `offer` gives
        self.picker = widgets.Dropdown(options=[(FROM_SLIDERS, SLIDERS)], value=SLIDERS, description="Monster",
                                       layout=widgets.Layout(width="auto"))
        self.offered: tuple[tuple[str, Monster], ...] = ()  # (label, monster), in the picker's order
        self.shown_monster = widgets.HTML().add_class("wb-solo-source")
        self.error = widgets.HTML()
        self.comparison_view = widgets.HTML()
        self.stat_blocks = widgets.HTML()
        self.comparison: SoloComparison | None = None
        self._quiet = Quiet()  # raised while a redraw writes the role control
        # the drift (levels 1-10) does not depend on the level: kept until the organization, role, Extra
        # Stamina or ruleset (a picked monster's own) changes, so a Level move computes one comparison, not eleven
        self._drift: tuple[tuple[str, str | None, bool, Ruleset], tuple[SoloComparison, ...]] | None = None
        self._sync_role()
        comparison, drift = self._compute()
        # changed in place once the browser is known to hear it, else a fresh FigureWidget (apps.chart_slot)
        self.chart = ChartSlot(solo_figure(comparison, drift))
        self._show(comparison)
        for control in (self.picker, self.level, self.organization, self.role, self.extra_stamina):
            control.observe(self._refresh, names="value")
        controls = widgets.HBox([self.level, self.organization, self.role, self.extra_stamina],
                                layout=widgets.Layout(flex_flow="row wrap"))
        # the chart has the page's whole width under the table: beside it, its third panel was cut off at 1280 px
        self.chart.layout = widgets.Layout(width="100%")
        # the styles once, in a view of their own: a <style> sent again with each change is parsed again, and a
        # new style sheet makes the browser work out the page's styles again
        super().__init__([
            widgets.HTML(f"{STAT_BLOCK_STYLE}{COMPARISON_STYLE}"),
            self.picker,
            controls,
            self.shown_monster,
            self.error,
            self.comparison_view,
            self.chart,
            self.stat_blocks,
        ])

    @property
    def figure(self) -> go.FigureWidget:
        """The chart shown now (changed in place once the browser hears it, else a new FigureWidget)."""
        return self.chart.figure

    @property
    def picked(self) -> Monster | None:
        """The whole monster picked, None while the sliders build it."""
        index = self.picker.value
        return None if index == SLIDERS else self.offered[index][1]

    def offer(self, places: Sequence[tuple[str, Iterable[Monster]]]) -> None:
        """Offer the whole monsters of each place ("in the encounter", "in the builder") that can become an instant
        solo, labelled "name (place)", after the sliders' own. The monster picked stays picked while it is
        offered (where it was, else anywhere), or while its label is (the builder's monster, edited); else the
        sliders' monster is shown again."""
        shown = self.picker.value
        picked = self.offered[shown] if shown != SLIDERS else None
        offered: list[tuple[str, Monster]] = []
        for place, monsters in places:
            for monster in solo_sources(monsters):
                offered.append((f"{monster.name or _kind(monster)} ({place})", monster))
        if tuple(offered) == self.offered:
            return
        keep = SLIDERS
        if picked is not None:
            same = [i for i, entry in enumerate(offered) if entry == picked]
            anywhere = [i for i, (_, monster) in enumerate(offered) if monster == picked[1]]
            named = [i for i, (label, _) in enumerate(offered) if label == picked[0]]
            keep = (same or anywhere or named or [SLIDERS])[0]
        self.offered = tuple(offered)
        with self._quiet:  # one redraw below, not one per option change
            self.picker.options = [(FROM_SLIDERS, SLIDERS), *((label, i) for i, (label, _) in enumerate(offered))]
            self.picker.value = keep
        if keep != SLIDERS or shown != SLIDERS:  # the sliders' monster still shown: nothing to draw again
            self._refresh()

    def _sync_sliders(self) -> None:
        """The sliders build the monster only while no whole monster is picked; the page says which it shows."""
        picked = self.picked
        for control in (self.level, self.organization, self.extra_stamina):
            control.disabled = picked is not None
        if picked is None:
            self.shown_monster.value = ""
            return
        label = self.offered[self.picker.value][0]
        self.shown_monster.value = Markup(
            '<div class="wb-page-note wb-aside">Shown: <b>{}</b>, level {} {}, as its stat block has it (its own '
            "Stamina, EV and abilities). The sliders build a monster from the formulas: pick \"{}\" to use them."
            "</div>").format(label, picked.level, _kind(picked), FROM_SLIDERS)

    def _sync_role(self) -> None:
        """A leader takes no role; an elite needs one (the first role until the Director picks another)."""
        if self.picked is not None:
            self.role.disabled = True
            return
        needs_role = self.rules.organizations[self.organization.value].needs_role
        self.role.disabled = not needs_role
        if needs_role and self.role.value == NO_ROLE:
            self.role.value = next(iter(self.rules.roles))
        elif not needs_role and self.role.value != NO_ROLE:
            self.role.value = NO_ROLE

    def _compute(self) -> tuple[SoloComparison, tuple[SoloComparison, ...]]:
        picked = self.picked
        if picked is None:
            organization, role, extra = self.organization.value, self.role.value or None, self.extra_stamina.value
            source = build_monster(self.level.value, organization, role, extra_stamina=extra, ruleset=self.rules)
        else:  # the drift by level is the formulas' for the picked monster's organization and role
            source, organization, role, extra = picked, picked.organization, picked.role, picked.extra_stamina
        comparison = compare_solos(source)
        key = (organization, role, extra, source.rules)
        if self._drift is None or self._drift[0][:3] != key[:3] or self._drift[0][3] is not key[3]:
            drift = solo_drift(organization, role, DRIFT_LEVELS, extra_stamina=extra, ruleset=source.rules)
            self._drift = (key, drift)
        return comparison, self._drift[1]

    def _show(self, comparison: SoloComparison) -> None:
        self.comparison = comparison
        self.comparison_view.value = comparison_html(comparison, style=False)
        self.stat_blocks.value = (
            Markup('<div class="wb-side-by-side">'
            "{}"
            "{}</div>").format(stat_block_html(comparison.instant, style=False), stat_block_html(comparison.built, style=False))
        )

    def _refresh(self, change: Any = None) -> None:
        """The one observer: every control change recomputes and redraws everything."""
        if self._quiet:  # the role control changed by _sync_role: the outer call redraws once
            return
        try:
            with self._quiet:
                self._sync_sliders()
                self._sync_role()
                comparison, drift = self._compute()
        except WorkbenchError as exc:  # shown to the Director; anything else propagates
            self.error.value = refusal_html(exc)
            return
        self.error.value = ""
        # the chart first: its message reaches the browser before the two stat blocks' HTML, whose
        # rendering would otherwise hold the chart back (benchmarks/bench_slider_chart.py measures it)
        self.chart.change(lambda shown: update_solo_figure(shown, comparison, drift),
                          lambda: solo_figure(comparison, drift))
        self._show(comparison)


def _kind(monster: Monster) -> str:
    """ "elite brute", "leader": a monster's organization and role as a sentence names them."""
    return " ".join(part for part in (monster.organization, monster.role) if part)


def solos_app(
    ruleset: Ruleset | None = None,
    level: int = 5,
    organization: str = "leader",
    role: str | None = None,
) -> SolosApp:
    """The instant-solo-beside-built-solo app for a ruleset (the core rules by default)."""
    return SolosApp(ruleset=ruleset, level=level, organization=organization, role=role)
