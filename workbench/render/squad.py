"""A minion squad for the table, as HTML: the pool, who is standing, the damage at which each next one
drops, the last hit's working and the log. Every name a user typed is escaped.
"""

from __future__ import annotations

from workbench.fight.squad import Hit, Squad, drop_thresholds
from workbench.render.escape import escape_html as _e

__all__ = ["squad_html"]



def squad_html(squad: Squad, hit: Hit | None = None, last: int = 8) -> str:
    """The squad's state: pool, minions standing (● alive, ○ dropped), next drops, captain, last hit, log."""
    marks = "●" * squad.alive + "○" * squad.dropped
    captain = _e(squad.captain) if squad.captain else "none"
    benefit = squad.with_captain.text
    if benefit:
        bonus = f" — With Captain: {_e(benefit)}" + ("" if squad.captain else " (needs a captain)")
    else:
        bonus = ""
    lines = [
        f'<div style="font-size:140%"><b>{_e(squad.name)}</b> {marks}</div>',
        f"<div>Pool {squad.pool} of {squad.full_pool}"
        f" — {squad.alive} of {squad.size} standing — {squad.stamina_each} Stamina each"
        + (" (last stand)" if squad.last_stand else "") + "</div>",
        "<div>Drops at total damage (from full): " + ", ".join(str(t) for t in drop_thresholds(squad)) + "</div>",
        "<div>Damage to drop the next ones: " + (", ".join(str(t) for t in squad.next_drops) or "—") + "</div>",
        f"<div>Captain: {captain}{bonus} — round {squad.round}</div>",
    ]
    if hit is not None:
        lines.append(f"<div><b>Last hit:</b> {_e(hit.working)}; {hit.dropped} dropped</div>")
        if hit.reading:
            lines.append(f'<div style="font-size:90%">Reading: {_e(hit.reading)}</div>')
    items = "".join(f"<li>{_e(line)}</li>" for line in reversed(squad.log[-last:]))
    lines.append(f'<ol reversed style="font-size:90%">{items}</ol>')
    return '<div style="font-family:system-ui,sans-serif">' + "".join(lines) + "</div>"
