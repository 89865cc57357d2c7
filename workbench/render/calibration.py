"""The calibration as HTML: the published monsters closest to one being built, and a fit report.

Names and other text from stat block files are user data: every piece is escaped before it becomes HTML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from workbench.calibration.fit import QUANTITIES, QUANTITY_LABELS, Fit, closest_published
from workbench.formats.bestiary import BestiaryShelf, PublishedMonster
from workbench.model import Monster
from workbench.render.escape import Markup, join

__all__ = ["attribution_lines_html", "closest_published_html", "director_summary_html", "figure_text",
           "fit_report_html", "LABELS"]

LABELS = QUANTITY_LABELS


def _kind(organization: str, role: str | None) -> str:
    return " ".join(part.capitalize() for part in (organization, role) if part)


def attribution_lines_html(lines: Sequence[str]) -> str:
    """Where listed published monsters come from: a line per bestiary, its attribution and licence."""
    if not lines:
        return ""
    items = join(Markup("<li class='wb-attribution-line'>{}</li>").format(line) for line in lines)
    return Markup("<div class='wb-attribution'>From:<ul>{}</ul></div>").format(items)


def closest_published_html(
    monster: Monster, published: Iterable[PublishedMonster], count: int = 3, shelves: Sequence[BestiaryShelf] = ()
) -> str:
    """A small table: the monster being built, then the `count` closest published monsters, side by side, each
    with the bestiary it is from; under it the attribution of each bestiary shown (`shelves`)."""
    nearest = closest_published(monster, published, count)
    several = len({s.name for s in shelves}) > 1  # with one bestiary, its line under the table says it all
    head = Markup(
        "<tr><th class='wb-left'>Monster</th><th class='wb-left'>Level</th>"
        "<th>EV</th><th>Stamina</th><th>Free strike</th><th class='wb-left'>Signature (tiers)</th>{}</tr>"
    ).format(Markup("<th class='wb-left'>From</th>") if several else "")
    d = monster.damage
    rows = [
        Markup("<tr class='wb-built-row'><td>{} (formulas)</td>"
        "<td>Level {} {}</td>"
        "<td>{}</td><td>{}</td><td>{}</td>"
        "<td>{} / {} / {} ({} target{})"
        "</td>{}</tr>").format(monster.name or 'This monster', monster.level, _kind(monster.organization, monster.role), monster.ev, monster.stamina, monster.free_strike, d.tier1, d.tier2, d.tier3, monster.targets, 's' if monster.targets != 1 else '', Markup("<td></td>") if several else "")
    ]
    for p in nearest:
        sig = p.signature
        tiers = " / ".join(str(x) for x in sig.damage) if sig and sig.damage else "—"
        target = f" ({sig.target})" if sig else ""
        shelf = Markup("<td class='wb-shelf'>{}</td>").format(p.shelf) if several else ""
        rows.append(
            Markup("<tr><td>{}</td><td>Level {} {}</td>"
            "<td>{}</td><td>{}</td><td>{}</td><td>{}{}</td>{}</tr>").format(p.name, p.level, _kind(p.organization, p.role), p.ev, p.stamina, p.free_strike, tiers, target, shelf)
        )
    if not nearest:
        rows.append(Markup("<tr><td colspan='6'>No published stat blocks loaded.</td></tr>"))
    shown = {p.shelf for p in nearest}
    sources = [s.name + (f": {s.attribution}" if s.attribution else "") for s in shelves if s.name in shown]
    return (
        Markup("<div class='workbench-closest'><b>Closest published monsters</b> "
        "<span class='wb-muted'>(by organization, role, level, Stamina and EV; a minion's EV is for four)</span>"
        "<table>{}{}</table>{}</div>").format(head, join(rows), attribution_lines_html(sources))
    )


def figure_text(value: float | None, percent: bool = False) -> str:
    """One fit figure for reading: a rate as a percentage, an error with two decimals, "—" when none."""
    if value is None:
        return "—"
    return f"{value:.0%}" if percent else f"{value:.2f}"


def fit_report_html(report: Mapping[str, Mapping[str, Fit]], title: str = "Fit") -> str:
    """A fit report ({group: {number: Fit}}) as one table per group, rows per number."""
    parts = [Markup("<div class='workbench-fit'><b>{}</b>").format(title)]
    for group, per in report.items():
        rows = []
        for quantity in [q for q in QUANTITIES if q in per]:
            f = per[quantity].as_dict()
            rows.append(
                Markup("<tr><td>{}</td><td>{}</td>"
                "<td>{}</td><td>{}</td>"
                "<td>{}</td><td>{}</td></tr>").format(LABELS[quantity], f['count'], figure_text(f['exact_rate'], True), figure_text(f['mean_abs_error']), figure_text(f['median_abs_error']), figure_text(f['mean_residual']))
            )
        parts.append(
            Markup("<table><caption>{}</caption>"
            "<tr><th class='wb-left'>Number</th><th>compared</th><th>exact</th><th>mean |error|</th>"
            "<th>median |error|</th><th>mean (formula − printed)</th></tr>"
            "{}</table>").format(group, join(rows))
        )
    return Markup("{}</div>").format(join(parts))


def director_summary_html(report: Mapping[str, Mapping[str, Fit]], monsters: int, variant: str) -> str:
    """The fit in three sentences for a Director: which numbers the formulas give as printed, which they miss,
    and by how much on average (the pooled "all" group of a fit report)."""
    per = next(iter(report.values()), {})
    shown = [q for q in QUANTITIES if q in per and per[q].count]
    if not shown:
        return Markup("<div class='wb-calibration-summary'>No published monsters to compare with.</div>")
    exact = [q for q in shown if per[q].exact == per[q].count]
    missed = sorted((q for q in shown if q not in exact), key=lambda q: per[q].exact_rate or 0)
    parts: list[str] = [Markup("<b>For a Director:</b> compared with {} published monsters ({}),").format(monsters, variant)]
    if exact:
        names = [LABELS[q].lower() if i else LABELS[q] for i, q in enumerate(exact)]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f" the formulas give the printed {listed} every time.")
    else:
        parts.append(" no number matches every published monster.")
    if missed:
        worst = missed[0]
        f = per[worst]
        parts.append(
            f" {LABELS[worst]} matches least often: {f.exact} of {f.count} as printed, off by "
            f"{figure_text(float(f.mean_abs_error or 0))} on average. Treat the formulas as a start and adjust "
            "by the published monsters nearest yours."
        )
    return Markup("<div class='wb-calibration-summary wb-calibration-said'>{}</div>").format(join(parts))
