"""The calibration as HTML: the published monsters closest to one being built, and a fit report.

Names and other text from stat block files are user data: every piece is escaped before it becomes HTML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape

from workbench.calibration.fit import QUANTITIES, QUANTITY_LABELS, Fit, closest_published
from workbench.formats.bestiary import BestiaryShelf, PublishedMonster
from workbench.model import Monster

__all__ = ["attribution_lines_html", "closest_published_html", "director_summary_html", "figure_text",
           "fit_report_html", "LABELS"]

LABELS = QUANTITY_LABELS


def _kind(organization: str, role: str | None) -> str:
    return " ".join(part.capitalize() for part in (organization, role) if part)


def attribution_lines_html(lines: Sequence[str]) -> str:
    """Where listed published monsters come from: a line per bestiary, its attribution and licence."""
    if not lines:
        return ""
    items = "".join(f"<li class='wb-attribution-line'>{escape(line)}</li>" for line in lines)
    return f"<div class='wb-attribution' style='color:#555;font-size:90%'>From:<ul style='margin:.2em 0'>{items}</ul></div>"


def closest_published_html(
    monster: Monster, published: Iterable[PublishedMonster], count: int = 3, shelves: Sequence[BestiaryShelf] = ()
) -> str:
    """A small table: the monster being built, then the `count` closest published monsters, side by side, each
    with the bestiary it is from; under it the attribution of each bestiary shown (`shelves`)."""
    nearest = closest_published(monster, published, count)
    several = len({s.name for s in shelves}) > 1  # with one bestiary, its line under the table says it all
    head = (
        "<tr><th style='text-align:left'>Monster</th><th style='text-align:left'>Level</th>"
        "<th>EV</th><th>Stamina</th><th>Free strike</th><th style='text-align:left'>Signature (tiers)</th>"
        + ("<th style='text-align:left'>From</th>" if several else "") + "</tr>"
    )
    d = monster.damage
    rows = [
        f"<tr style='font-weight:bold'><td>{escape(monster.name or 'This monster')} (formulas)</td>"
        f"<td>Level {monster.level} {escape(_kind(monster.organization, monster.role))}</td>"
        f"<td>{monster.ev}</td><td>{monster.stamina}</td><td>{monster.free_strike}</td>"
        f"<td>{d.tier1} / {d.tier2} / {d.tier3} ({monster.targets} target{'s' if monster.targets != 1 else ''})"
        "</td>" + ("<td></td>" if several else "") + "</tr>"
    ]
    for p in nearest:
        sig = p.signature
        tiers = " / ".join(str(x) for x in sig.damage) if sig and sig.damage else "—"
        target = f" ({escape(sig.target)})" if sig else ""
        shelf = f"<td class='wb-shelf' style='color:#666'>{escape(p.shelf)}</td>" if several else ""
        rows.append(
            f"<tr><td>{escape(p.name)}</td><td>Level {p.level} {escape(_kind(p.organization, p.role))}</td>"
            f"<td>{p.ev}</td><td>{p.stamina}</td><td>{p.free_strike}</td><td>{tiers}{target}</td>{shelf}</tr>"
        )
    if not nearest:
        rows.append("<tr><td colspan='6'>No published stat blocks loaded.</td></tr>")
    shown = {p.shelf for p in nearest}
    sources = [s.name + (f": {s.attribution}" if s.attribution else "") for s in shelves if s.name in shown]
    return (
        "<div class='workbench-closest'><b>Closest published monsters</b> "
        "<span style='color:#666'>(by organization, role, level, Stamina and EV; a minion's EV is for four)</span>"
        f"<table>{head}{''.join(rows)}</table>{attribution_lines_html(sources)}</div>"
    )


def figure_text(value: float | None, percent: bool = False) -> str:
    """One fit figure for reading: a rate as a percentage, an error with two decimals, "—" when none."""
    if value is None:
        return "—"
    return f"{value:.0%}" if percent else f"{value:.2f}"


def fit_report_html(report: Mapping[str, Mapping[str, Fit]], title: str = "Fit") -> str:
    """A fit report ({group: {number: Fit}}) as one table per group, rows per number."""
    parts = [f"<div class='workbench-fit'><b>{escape(title)}</b>"]
    for group, per in report.items():
        rows = []
        for quantity in [q for q in QUANTITIES if q in per]:
            f = per[quantity].as_dict()
            rows.append(
                f"<tr><td>{escape(LABELS[quantity])}</td><td>{f['count']}</td>"
                f"<td>{figure_text(f['exact_rate'], True)}</td><td>{figure_text(f['mean_abs_error'])}</td>"
                f"<td>{figure_text(f['median_abs_error'])}</td><td>{figure_text(f['mean_residual'])}</td></tr>"
            )
        parts.append(
            f"<table><caption style='text-align:left'>{escape(str(group))}</caption>"
            "<tr><th style='text-align:left'>Number</th><th>compared</th><th>exact</th><th>mean |error|</th>"
            "<th>median |error|</th><th>mean (formula − printed)</th></tr>"
            f"{''.join(rows)}</table>"
        )
    parts.append("</div>")
    return "".join(parts)


def director_summary_html(report: Mapping[str, Mapping[str, Fit]], monsters: int, variant: str) -> str:
    """The fit in three sentences for a Director: which numbers the formulas give as printed, which they miss,
    and by how much on average (the pooled "all" group of a fit report)."""
    per = next(iter(report.values()), {})
    shown = [q for q in QUANTITIES if q in per and per[q].count]
    if not shown:
        return "<div class='wb-calibration-summary'>No published monsters to compare with.</div>"
    exact = [q for q in shown if per[q].exact == per[q].count]
    missed = sorted((q for q in shown if q not in exact), key=lambda q: per[q].exact_rate or 0)
    parts = [f"<b>For a Director:</b> compared with {monsters} published monsters ({escape(variant)}),"]
    if exact:
        names = [escape(LABELS[q].lower() if i else LABELS[q]) for i, q in enumerate(exact)]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f" the formulas give the printed {listed} every time.")
    else:
        parts.append(" no number matches every published monster.")
    if missed:
        worst = missed[0]
        f = per[worst]
        parts.append(
            f" {escape(LABELS[worst])} matches least often: {f.exact} of {f.count} as printed, off by "
            f"{figure_text(float(f.mean_abs_error or 0))} on average. Treat the formulas as a start and adjust "
            "by the published monsters nearest yours."
        )
    return f"<div class='wb-calibration-summary' style='margin:.4em 0 .8em;max-width:60em'>{''.join(parts)}</div>"
