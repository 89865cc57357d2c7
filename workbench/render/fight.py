"""A fight at the table as HTML: the turn order as a strip, each creature's Stamina bar, the acting group's
stat blocks, Malice and villain actions, the objective's counters, the log, the end and the player view.

Every name a Director typed (creatures, heroes, conditions) is escaped. The player view shows what players
may see, "Malice" (when the Director shows it) and who is winded, with no Stamina numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import wraps
from typing import ParamSpec

from workbench.encounter.objective import DIMINISH_CONDITIONS
from workbench.fight.ending import DIMINISH_HALF, DIMINISH_SOLO, heroes_fighting
from workbench.fight.fight import Fight
from workbench.fight.malice_schedule import malice_schedule
from workbench.fight.pace import Pace
from workbench.fight.setup import COUNTERS
from workbench.fight.state import Progress, Unit
from workbench.fight.victories import FightResult
from workbench.numbers import format_number
from workbench.render.escape import Markup, escape
from workbench.render.squad import squad_html
from workbench.render.stat_block import stat_block_html

__all__ = [
    "fight_log_html",
    "malice_forecast_html",
    "malice_line_html",
    "objectives_html",
    "pace_beside_html",
    "player_view_html",
    "result_html",
    "squads_html",
    "stakes_html",
    "stamina_bar_html",
    "turn_strip_html",
    "unit_html",
    "acting_html",
]

_P = ParamSpec("_P")


def _markup(render: Callable[_P, str]) -> Callable[_P, Markup]:
    """A renderer whose user text is escaped where it is written (`escape`): its HTML is markup, so composing
    it into a page never escapes it twice."""
    @wraps(render)
    def marked(*args: _P.args, **kwargs: _P.kwargs) -> Markup:
        return Markup(render(*args, **kwargs))
    return marked


def _status(unit: Unit) -> str:
    if unit.status != "active":
        return unit.status
    return "winded" if unit.winded else ""


@_markup
def stamina_bar_html(unit: Unit) -> str:
    """The Stamina (or a squad's pool) as a bar with its numbers; orange when winded."""
    maximum = max(unit.maximum, 1)
    share = max(0, min(100, round(100 * unit.current / maximum)))
    css = "wb-bar wb-winded" if unit.winded else "wb-bar"
    return str(Markup('<span class="{}" title="{} of {}"><i style="width:{}%"></i></span>{} / {}').format(
        css, unit.current, unit.maximum, share, unit.current, unit.maximum))


@_markup
def unit_html(unit: Unit) -> str:
    """One creature, squad or hero on one line: name, Stamina bar, minions standing, conditions, status."""
    parts = [f"<b>{escape(unit.name)}</b>"]
    if unit.kind == "hero" and not unit.stamina_max:
        parts.append(f"damage taken {unit.damage_taken}")
    else:
        parts.append(stamina_bar_html(unit))
    if unit.temporary:
        parts.append(f"+{unit.temporary} temporary")
    if unit.status == "held":
        parts.append("held back")
    if unit.squad is not None:
        s = unit.squad
        parts.append("●" * s.alive + "○" * s.dropped + f" {s.alive} of {s.size} standing")
        if s.captain:
            parts.append(f"captain {escape(s.captain)}")
    if unit.conditions:
        parts.append(", ".join(f"{escape(c.label)} ({escape(c.ends)})" for c in unit.conditions))
    status = _status(unit)
    if status and status != "held":
        parts.append(f"<i>{status}</i>")
    gone = " wb-gone" if unit.status != "active" else ""
    return f'<div class="wb-unit{gone}" data-unit="{escape(unit.name)}">' + " — ".join(parts) + "</div>"


@_markup
def turn_strip_html(fight: Fight) -> str:
    """Who acts this round, in the order listed: the heroes, then the Director's groups; the acting one
    highlighted, those done struck through, those with no one left (or held back) dashed."""
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
        if "wb-down" in css and all(state.unit(n).status == "held" for n in actor.units):
            extra = " (held back)"
        items.append(f'<span class="{" ".join(css)}">{escape(actor.label)}{extra}</span>')
    head = f"<b>Round {state.round}</b>" if state.round else "<b>Before the first round</b>"
    if state.round_over:
        head += " (ended)"
    return f'<div class="wb-strip">{head} {"".join(items)}</div>'


@_markup
def acting_html(fight: Fight) -> str:
    """The acting group's creatures with their Stamina bars, and each stat block once beside them."""
    state = fight.state
    if state.turn is None:
        return "<div><i>No turn is open: start one from the turn order.</i></div>"
    actor = fight.actor(state.turn)
    rows = "".join(unit_html(state.unit(n)) for n in actor.units)
    if actor.side == "hero":
        return f"<div><h4>{escape(actor.label)}'s turn</h4>{rows}</div>"
    blocks: dict[str, str] = {}
    for name in actor.units:
        monster = fight.monster(name)
        if monster is not None and monster.name not in blocks:
            blocks[monster.name] = stat_block_html(monster)
    return (f"<div><h4>{escape(actor.label)}'s turn</h4>{rows}"
            f'<div class="wb-acting-blocks">{"".join(blocks.values())}</div></div>')


@_markup
def malice_line_html(fight: Fight) -> str:
    """Malice now, and the villain actions used (each once, one a round)."""
    used = fight.villain_actions_used()
    villain = "; ".join(f"{escape(name)} {number} (round {r})" for name, number, r in used) or "none yet"
    return (f'<div class="wb-fight-malice"><b>Malice: {fight.malice}</b> — villain actions used: {villain}'
            "</div>")


def _objective_extra(fight: Fight, p: Progress) -> list[str]:
    """What an objective's counters are measured against: the tasks a round needs, the things to destroy, the
    condition Diminish Numbers ends at and the foes it counts."""
    if p.key == "complete_the_action":
        heroes = heroes_fighting(fight.state)
        return [f"{fight.tasks_per_round()} task(s) needed each round (half or more of the {heroes} heroes "
                "fighting); a round that ends with fewer is a failure"]
    if p.key == "destroy_the_thing":
        things = p.things or p.target or 1
        staminas = fight.thing_staminas()
        each = f" (Stamina {', '.join(map(str, staminas))})" if staminas else ""
        return [f"{p.target or 1} of {things} thing{'s' if things != 1 else ''} to destroy{each}"]
    if p.key == "diminish_numbers":
        now, start, non_minions = fight.foe_counts()
        chosen = (DIMINISH_CONDITIONS[p.choice] if p.choice else
                  "no condition chosen: " + DIMINISH_HALF[0].lower() + DIMINISH_HALF[1:]
                  + (" Against a solo, also: " + DIMINISH_SOLO if any(u.solo for u in fight.units) else ""))
        return [f"{escape(chosen)} Foes now {now} of {start} at the start; {non_minions} not minions"]
    return []


@_markup
def stakes_html(fight: Fight) -> str:
    """The difficulty the fight is earned at and the Victories success brings, with the readings that moved
    them: the objectives' conditions (a duration the Director set among them) and each duration in rounds."""
    outcome = fight.outcome
    victories = fight.victories_for_success
    line = (f"A <b class='wb-fight-difficulty'>{escape(outcome.difficulty)}</b> encounter: success earns each hero "
            f"<b class='wb-fight-victories'>{victories}</b> Victor{'y' if victories == 1 else 'ies'}.")
    set_ = fight.durations
    spans = [f"{escape(p.name)} lasts {p.duration} rounds ("
             + ("set by the Director" if p.key in set_ else "the encounter's duration") + ")"
             for p in fight.state.objectives if p.duration is not None]
    notes = [str(escape(n)) for n in outcome.notes] or ["no objective condition moves the difficulty"]
    parts = [line] + ([" ".join(s + "." for s in spans)] if spans else []) + ["Reading: " + "; ".join(notes) + "."]
    return '<div class="wb-stakes">' + "<br>".join(parts) + "</div>"


@_markup
def objectives_html(fight: Fight) -> str:
    """Each objective's counters and status (rounds held against its duration where it has one), and what
    they are measured against (`_objective_extra`)."""
    rows = []
    state = fight.state
    for p in state.objectives:
        counts = [f"{escape(label)}: {p.count(key)}" for key, label in COUNTERS.get(p.key, ())]
        if p.duration is not None:
            held = state.round - (0 if state.round_over else 1) if state.round else 0
            counts.insert(0, f"rounds done: {max(held, 0)} of {p.duration}")
        if p.target is not None and p.key == "hold_them_off":
            counts.append(f"fewer than {p.target} may get through")
        counts += _objective_extra(fight, p)
        status = {"open": "open", "met": "met", "failed": "failed"}[p.status]
        reason = f" — {escape(p.reason)}" if p.reason else ""
        rows.append(f"<li><b>{escape(p.name)}</b> ({status}): {'; '.join(counts) or 'no counters'}{reason}</li>")
    if not rows:
        return "<div>No objective: the heroes win when every foe is down or fled.</div>"
    return f'<ul class="wb-objectives">{"".join(rows)}</ul>'


@_markup
def fight_log_html(fight: Fight, last: int = 10) -> str:
    items = "".join(f"<li>{escape(line)}</li>" for line in reversed(fight.state.log[-last:]))
    return f'<ol reversed class="wb-fight-log">{items}</ol>'


@_markup
def result_html(result: FightResult, ended: bool) -> str:
    """The end: success or failure, the Victories each hero earns and the words behind them."""
    if not ended:
        return ""
    head = "Success" if result.success else "No success"
    lines = [f'<div class="wb-result-line"><b>{head}: {escape(result.reason)}.</b> Each hero earns '
             f"<b>{result.victories}</b> Victor{'y' if result.victories == 1 else 'ies'} "
             f"({escape(result.difficulty)} encounter).</div>"]
    lines += [f"<div>{escape(o.working)}</div>" for o in result.objectives]
    if result.working:
        lines.append(f"<div>{escape(result.working)}</div>")
    return "".join(lines)


@_markup
def player_view_html(fight: Fight, show_malice: bool | None = None) -> str:
    """What players may see on a second screen: the round, the turn order (who acts, who is done), Malice
    when the Director shows it (`show_malice`, else the fight's own choice), and everyone's state in words
    (winded, down, fled, conditions), with no Stamina numbers of the Director's creatures. Held-back groups
    are not shown."""
    state = fight.state
    shown = state.malice_shown if show_malice is None else show_malice
    lines = [f"<div class='wb-player-round'><b>Round {state.round}</b></div>" if state.round
             else "<div class='wb-player-round'><b>Before the first round</b></div>"]
    if shown:
        lines.append(f"<div class='wb-player-malice'>Malice: {fight.malice}</div>")
    order = []
    for actor in fight.actors:
        units = [state.unit(n) for n in actor.units]
        if all(u.status == "held" for u in units):
            continue
        css = "wb-acting" if state.turn == actor.key else (
            "wb-done" if state.round and fight.turns_left(actor.key) == 0 else "")
        order.append(f'<span class="{css}">{escape(actor.label)}</span>')
    lines.append(f'<div class="wb-strip">{"".join(order)}</div>')
    for u in state.units:
        if u.status == "held":
            continue
        word = _status(u) or "fighting"
        if u.squad is not None and u.active:
            word = f"{u.squad.alive} standing"
        if u.conditions:
            word += "; " + ", ".join(escape(c.label) for c in u.conditions)
        lines.append(f"<div>{escape(u.name)}: {word}</div>")
    if state.ended:
        lines.append(f"<div><b>The fight is over: {escape(state.end_reason)}.</b></div>")
    return '<div class="wb-player-view">' + "".join(lines) + "</div>"


@_markup
def malice_forecast_html(fight: Fight, rounds: int = 3) -> str:
    """The Malice the next rounds bring if none is spent, from the fight's own Malice now (the living heroes,
    the round numbers and, in round 1, the Victories)."""
    m = fight.state.malice
    if m.ended:
        return ""
    start = m.round + 1
    dead = m.heroes - m.living
    schedule = malice_schedule(m.heroes, m.victories, m.round + rounds, {start: dead} if dead else None)
    total, cells = fight.malice, []
    for step in schedule[m.round:]:
        total += step.gain
        cells.append(f"round {step.round}: +{step.gain} ({step.working}) → {total}")
    return ('<div class="wb-fight-forecast">Malice ahead if none is spent: ' + "; ".join(cells) + "</div>")


@_markup
def squads_html(fight: Fight) -> str:
    """Every squad of the fight as the squad tracker draws it: its pool, who stands, the next drops, captain."""
    blocks = [squad_html(u.squad) for u in fight.units if u.squad is not None and u.status != "held"]
    return "".join(blocks) or "<div>No minion squads in this fight.</div>"


def _one(value: Fraction) -> str:
    return format_number(round(value, 1)) if value.denominator != 1 else str(value)


@_markup
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
        rows.append(f"<tr><td>{step.round}</td><td>{_one(took)}</td><td>{h}</td><td>{_one(lost)}</td><td>{f}</td></tr>")
    head = ("<tr><th>Round</th><th>Heroes take (forecast)</th><th>Heroes took</th>"
            "<th>Foes lose (forecast)</th><th>Foes lost</th></tr>")
    verdict = []
    if fight.round:
        heat = "hotter" if real_took > forecast_took else "colder" if real_took < forecast_took else "as hot"
        verdict.append(f"The foes hit {heat} than forecast ({real_took} against {_one(forecast_took)} so far).")
        pace_word = "ahead of" if real_lost > forecast_lost else "behind" if real_lost < forecast_lost else "on"
        verdict.append(f"The heroes are {pace_word} the forecast ({real_lost} against {_one(forecast_lost)}).")
    return (f'<table class="wb-pace-beside">{head}{"".join(rows)}</table>'
            + "".join(f"<div>{v}</div>" for v in verdict))
