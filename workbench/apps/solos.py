"""The solos app: pick a leader or elite, see it as an instant solo beside a solo built from the formulas.

Glue only: the controls feed `workbench.monster.solo.compare_solos` / `solo_drift`; `render.solo` and
`charts.solo` draw the result. One observer wires every control to that pure path. The app returns the
widget and never displays itself.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from workbench.apps.chart_slot import ChartSlot
from workbench.apps.message import refusal_html
from workbench.apps.quiet import Quiet
from workbench.charts.solo import solo_figure, update_solo_figure
from workbench.errors import InvalidInput, WorkbenchError
from workbench.monster.formulas import build_monster
from workbench.monster.solo import SoloComparison, compare_solos, solo_drift, solo_source_organizations
from workbench.render.escape import Markup
from workbench.render.solo import COMPARISON_STYLE, comparison_html
from workbench.render.stat_block import STYLE as STAT_BLOCK_STYLE
from workbench.render.stat_block import stat_block_html
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = ["SolosApp", "solos_app"]

DRIFT_LEVELS = range(1, 11)
NO_ROLE = ""


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
        self.error = widgets.HTML()
        self.comparison_view = widgets.HTML()
        self.stat_blocks = widgets.HTML()
        self.comparison: SoloComparison | None = None
        self._quiet = Quiet()  # raised while a redraw writes the role control
        # the drift (levels 1-10) does not depend on the level: kept until the organization, role or Extra
        # Stamina changes, so a Level move computes one comparison instead of eleven
        self._drift: tuple[tuple[str, str | None, bool], tuple[SoloComparison, ...]] | None = None
        self._sync_role()
        comparison, drift = self._compute()
        # changed in place once the browser is known to hear it, else a fresh FigureWidget (apps.chart_slot)
        self.chart = ChartSlot(solo_figure(comparison, drift))
        self._show(comparison)
        for control in (self.level, self.organization, self.role, self.extra_stamina):
            control.observe(self._refresh, names="value")
        controls = widgets.HBox([self.level, self.organization, self.role, self.extra_stamina],
                                layout=widgets.Layout(flex_flow="row wrap"))
        # the chart has the page's whole width under the table: beside it, its third panel was cut off at 1280 px
        self.chart.layout = widgets.Layout(width="100%")
        # the styles once, in a view of their own: a <style> sent again with each change is parsed again, and a
        # new style sheet makes the browser work out the page's styles again
        super().__init__([
            widgets.HTML(f"{STAT_BLOCK_STYLE}{COMPARISON_STYLE}"),
            controls,
            self.error,
            self.comparison_view,
            self.chart,
            self.stat_blocks,
        ])

    @property
    def figure(self) -> go.FigureWidget:
        """The chart shown now (changed in place once the browser hears it, else a new FigureWidget)."""
        return self.chart.figure

    def _sync_role(self) -> None:
        """A leader takes no role; an elite needs one (the first role until the Director picks another)."""
        needs_role = self.rules.organizations[self.organization.value].needs_role
        self.role.disabled = not needs_role
        if needs_role and self.role.value == NO_ROLE:
            self.role.value = next(iter(self.rules.roles))
        elif not needs_role and self.role.value != NO_ROLE:
            self.role.value = NO_ROLE

    def _compute(self) -> tuple[SoloComparison, tuple[SoloComparison, ...]]:
        organization, role, extra = self.organization.value, self.role.value or None, self.extra_stamina.value
        source = build_monster(self.level.value, organization, role, extra_stamina=extra, ruleset=self.rules)
        comparison = compare_solos(source)
        if self._drift is None or self._drift[0] != (organization, role, extra):
            drift = solo_drift(organization, role, DRIFT_LEVELS, extra_stamina=extra, ruleset=self.rules)
            self._drift = ((organization, role, extra), drift)
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


def solos_app(
    ruleset: Ruleset | None = None,
    level: int = 5,
    organization: str = "leader",
    role: str | None = None,
) -> SolosApp:
    """The instant-solo-beside-built-solo app for a ruleset (the core rules by default)."""
    return SolosApp(ruleset=ruleset, level=level, organization=organization, role=role)
