"""A minion squad for the table, as HTML: the pool, who is standing, the damage at which each next one
drops, the last hit's working and the log. Every name a user typed is escaped.
"""

from __future__ import annotations

from workbench.fight.squad import Hit, Squad, drop_thresholds
from workbench.render.escape import Markup, join

__all__ = ["squad_html"]



def squad_html(squad: Squad, hit: Hit | None = None, last: int = 8) -> str:
    """The squad's state: pool, minions standing (● alive, ○ dropped), next drops, captain, last hit, log."""
    marks = "●" * squad.alive + "○" * squad.dropped
    captain = squad.captain or "none"
    benefit = squad.with_captain.text
    if benefit:
        bonus = f" — With Captain: {benefit}" + ("" if squad.captain else " (needs a captain)")
    else:
        bonus = ""
    lines = [
        Markup('<div class="wb-squad-name"><b>{}</b> {}</div>').format(squad.name, marks),
        Markup("<div>Pool {} of {}"
        " — {} of {} standing — {} Stamina each{}</div>").format(squad.pool, squad.full_pool, squad.alive, squad.size,
                                                               squad.stamina_each, " (last stand)" if squad.last_stand else ""),
        Markup("<div>Drops at total damage (from full): {}</div>").format(", ".join(str(t) for t in drop_thresholds(squad))),
        Markup("<div>Damage to drop the next ones: {}</div>").format(", ".join(str(t) for t in squad.next_drops) or "—"),
        Markup("<div>Captain: {}{} — round {}</div>").format(captain, bonus, squad.round),
    ]
    if hit is not None:
        lines.append(Markup("<div><b>Last hit:</b> {}; {} dropped</div>").format(hit.working, hit.dropped))
        if hit.reading:
            lines.append(Markup('<div class="wb-squad-small">Reading: {}</div>').format(hit.reading))
    items = join(Markup("<li>{}</li>").format(line) for line in reversed(squad.log[-last:]))
    lines.append(Markup('<ol reversed class="wb-squad-small">{}</ol>').format(items))
    return Markup('<div class="wb-report">{}</div>').format(join(lines))
