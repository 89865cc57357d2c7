"""A fight at the table as HTML: the turn order as a strip, each creature's Stamina bar, the acting group's
stat blocks, Malice and villain actions, the objective's counters, the log, the end and the player view.

Every name a Director typed (creatures, heroes, conditions) is escaped. The player view shows what players
may see, "Malice" (when the Director shows it) and who is winded, with no Stamina numbers.
"""

from __future__ import annotations

from fractions import Fraction

from workbench.fight.fight import Fight
from workbench.fight.pace import Pace
from workbench.fight.setup import COUNTERS
from workbench.fight.state import Unit
from workbench.fight.victories import FightResult
from workbench.numbers import format_number
from workbench.render.escape import Markup, join, stylesheet
from workbench.render.stat_block import stat_block_html

__all__ = [
    "fight_log_html",
    "malice_line_html",
    "objectives_html",
    "pace_beside_html",
    "player_view_html",
    "result_html",
    "stamina_bar_html",
    "turn_strip_html",
    "unit_html",
    "acting_html",
]

_STYLE = stylesheet()  # the strip's and the bars' look, given with the strip


def _status(unit: Unit) -> str:
    if unit.status != "active":
        return unit.status
    return "winded" if unit.winded else ""


def stamina_bar_html(unit: Unit) -> str:
    """The Stamina (or a squad's pool) as a bar with its numbers; orange when winded."""
    maximum = max(unit.maximum, 1)
    share = max(0, min(100, round(100 * unit.current / maximum)))
    css = "wb-bar wb-winded" if unit.winded else "wb-bar"
    return (Markup('<span class="{}" title="{} of {}"><i style="width:{}%"></i></span>'
            "{} / {}").format(css, unit.current, unit.maximum, share, unit.current, unit.maximum))


def unit_html(unit: Unit) -> str:
    """One creature, squad or hero on one line: name, Stamina bar, minions standing, conditions, status."""
    parts: list[str] = [Markup("<b>{}</b>").format(unit.name)]
    if unit.kind == "hero":
        parts.append(f"damage taken {unit.damage_taken}")
    else:
        parts.append(stamina_bar_html(unit))
    if unit.squad is not None:
        s = unit.squad
        parts.append("●" * s.alive + "○" * s.dropped + f" {s.alive} of {s.size} standing")
        if s.captain:
            parts.append(f"captain {s.captain}")
    if unit.conditions:
        parts.append(", ".join(f"{c.label} ({c.ends})" for c in unit.conditions))
    status = _status(unit)
    if status:
        parts.append(Markup("<i>{}</i>").format(status))
    gone = " wb-gone" if unit.status != "active" else ""
    return Markup('<div class="wb-unit{}" data-unit="{}">{}</div>').format(gone, unit.name, join(parts, " — "))


def turn_strip_html(fight: Fight) -> str:
    """Who acts this round, in the order listed: the heroes, then the Director's groups; the acting one
    highlighted, those done struck through, those with no one left dashed."""
    state = fight.state
    items = []
    for actor in fight.actors:
        left = fight.turns_left(actor.key)
        css = ["wb-monster"] if actor.side == "monster" else []
        if state.turn == actor.key:
            css.append("wb-acting")
        elif not any(state.unit(n).active for n in actor.units):
            css.append("wb-down")
        elif left == 0 and state.round >= 1:
            css.append("wb-done")
        extra = f" ×{left}" if actor.turns > 1 and left > 1 else ""
        items.append(Markup('<span class="{}">{}{}</span>').format(" ".join(css), actor.label, extra))
    head = Markup("<b>Round {}</b>").format(state.round) if state.round else Markup("<b>Before the first round</b>")
    if state.round_over:
        head += " (ended)"
    return _STYLE + Markup('<div class="wb-strip">{} {}</div>').format(head, join(items))


def acting_html(fight: Fight) -> str:
    """The acting group's creatures with their Stamina bars, and each stat block once beside them."""
    state = fight.state
    if state.turn is None:
        return Markup("<div><i>No turn is open: start one from the turn order.</i></div>")
    actor = fight.actor(state.turn)
    rows = join(unit_html(state.unit(n)) for n in actor.units)
    if actor.side == "hero":
        return Markup("<div><h4>{}'s turn</h4>{}</div>").format(actor.label, rows)
    blocks: dict[str, str] = {}
    for name in actor.units:
        monster = fight.monster(name)
        if monster is not None and monster.name not in blocks:
            blocks[monster.name] = stat_block_html(monster)
    return (Markup("<div><h4>{}'s turn</h4>{}"
            '<div class="wb-acting-blocks">{}</div></div>').format(actor.label, rows, join(blocks.values())))


def malice_line_html(fight: Fight) -> str:
    """Malice now, and the villain actions used (each once, one a round)."""
    used = fight.villain_actions_used()
    villain = "; ".join(f"{name} {number} (round {r})" for name, number, r in used) or "none yet"
    return (Markup('<div class="wb-fight-malice"><b>Malice: {}</b> — villain actions used: {}'
            "</div>").format(fight.malice, villain))


def objectives_html(fight: Fight) -> str:
    """Each objective's counters and status (rounds held against its duration where it has one)."""
    rows = []
    state = fight.state
    for p in state.objectives:
        counts = [f"{label}: {p.count(key)}" for key, label in COUNTERS.get(p.key, ())]
        if p.duration is not None:
            held = state.round - (0 if state.round_over else 1) if state.round else 0
            counts.insert(0, f"rounds done: {max(held, 0)} of {p.duration}")
        if p.target is not None and p.key == "hold_them_off":
            counts.append(f"fewer than {p.target} may get through")
        status = {"open": "open", "met": "met", "failed": "failed"}[p.status]
        reason = f" — {p.reason}" if p.reason else ""
        rows.append(Markup("<li><b>{}</b> ({}): {}{}</li>").format(p.name, status, '; '.join(counts) or 'no counters', reason))
    if not rows:
        return Markup("<div>No objective: the heroes win when every foe is down or fled.</div>")
    return Markup('<ul class="wb-objectives">{}</ul>').format(join(rows))


def fight_log_html(fight: Fight, last: int = 10) -> str:
    items = join(Markup("<li>{}</li>").format(line) for line in reversed(fight.state.log[-last:]))
    return Markup('<ol reversed class="wb-fight-log">{}</ol>').format(items)


def result_html(result: FightResult, ended: bool) -> str:
    """The end: success or failure, the Victories each hero earns and the words behind them."""
    if not ended:
        return ""
    head = "Success" if result.success else "No success"
    lines = [Markup('<div class="wb-result-line"><b>{}: {}.</b> Each hero earns '
             "<b>{}</b> Victor{} "
             "({} encounter).</div>").format(head, result.reason, result.victories, 'y' if result.victories == 1 else 'ies', result.difficulty)]
    lines += [Markup("<div>{}</div>").format(o.working) for o in result.objectives]
    if result.working:
        lines.append(Markup("<div>{}</div>").format(result.working))
    return join(lines)


def player_view_html(fight: Fight, show_malice: bool) -> str:
    """What players may see: the round, Malice when the Director shows it, and each foe's state in words
    (winded, down, fled) with no Stamina numbers."""
    state = fight.state
    lines = [Markup("<div>Round {}</div>").format(state.round) if state.round else Markup("<div>Before the first round</div>")]
    if show_malice:
        lines.append(Markup("<div>Malice: {}</div>").format(fight.malice))
    for u in state.units:
        if u.kind == "hero":
            continue
        word = _status(u) or "fighting"
        if u.squad is not None and u.active:
            word = f"{u.squad.alive} standing"
        lines.append(Markup("<div>{}: {}</div>").format(u.name, word))
    return Markup('<div class="wb-player-view">{}</div>').format(join(lines))


def _one(value: Fraction) -> str:
    return format_number(round(value, 1)) if value.denominator != 1 else str(value)


def pace_beside_html(pace: Pace, fight: Fight) -> str:
    """The forecast pace of the fight beside what really happened, round by round: the damage the heroes
    took (the forecast's foe damage, Malicious Strike included) and the Stamina the foes lost (the party's
    damage a round, until the foes' Stamina runs out); then whether the fight runs hotter or colder."""
    real = {r: (h, f) for r, h, f in fight.damage_by_round()}
    rows, forecast_took, real_took, forecast_lost, real_lost = [], Fraction(0), 0, Fraction(0), 0
    before = Fraction(pace.foe_stamina)
    for step in pace.rounds:
        if step.round > max(fight.round, 1):
            break
        took = step.foe_damage + step.malice_damage
        lost = before - step.foes_left
        before = step.foes_left
        h, f = real.get(step.round, (0, 0))
        forecast_took, real_took, forecast_lost, real_lost = forecast_took + took, real_took + h, forecast_lost + lost, real_lost + f
        rows.append(Markup("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>").format(step.round, _one(took), h, _one(lost), f))
    head = Markup("<tr><th>Round</th><th>Heroes take (forecast)</th><th>Heroes took</th>"
            "<th>Foes lose (forecast)</th><th>Foes lost</th></tr>")
    verdict = []
    if fight.round:
        heat = "hotter" if real_took > forecast_took else "colder" if real_took < forecast_took else "as hot"
        verdict.append(f"The foes hit {heat} than forecast ({real_took} against {_one(forecast_took)} so far).")
        pace_word = "ahead of" if real_lost > forecast_lost else "behind" if real_lost < forecast_lost else "on"
        verdict.append(f"The heroes are {pace_word} the forecast ({real_lost} against {_one(forecast_lost)}).")
    return (Markup('<table class="wb-pace-beside">{}{}</table>').format(head, join(rows))
            + join(Markup("<div>{}</div>").format(v) for v in verdict))
