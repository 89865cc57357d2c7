"""Encounter building for people, as HTML: the budget with its working, the encounter's summary, every
guideline check (broken ones in the rule's own words), initiative groups, objectives and the quick method.

Every name a user typed (creatures, terrain objects, the encounter) is escaped with `html.escape`. Key
numbers sit in elements with stable classes and `data-*` attributes (`wb-ev-total`, `wb-band`,
`wb-difficulty`, `wb-victories`, `wb-check`) so scripts and browser tests can read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from workbench.encounter.encounter import Encounter, encounter_objective_numbers
from workbench.encounter.groups import group_ev
from workbench.encounter.guidelines import Check
from workbench.encounter.party import Budget
from workbench.encounter.quick_method import QuickPlan, fills
from workbench.encounter.report import EncounterReport
from workbench.numbers import format_number
from workbench.render.escape import escape_html as _e
from workbench.rules.encounter_tables import EncounterRules, encounter_rules

__all__ = [
    "budget_html",
    "summary_html",
    "checks_html",
    "creatures_html",
    "groups_html",
    "objectives_html",
    "quick_html",
    "respite_html",
]

_FONT = "font-family:system-ui,sans-serif"
_CELL = "border-bottom:1px solid #ddd;padding:.15em .6em;text-align:left"


def _n(value: Fraction | int) -> str:
    return _e(format_number(Fraction(value)))


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """`rows` cells are already HTML (escaped by the caller)."""
    head = "".join(f'<th style="{_CELL}">{_e(h)}</th>' for h in header)
    body = "".join("<tr>" + "".join(f'<td style="{_CELL}">{c}</td>' for c in row) + "</tr>" for row in rows)
    return f'<table style="border-collapse:collapse;{_FONT}"><tr>{head}</tr>{body}</table>'


def budget_html(b: Budget) -> str:
    """The party's encounter strength with its working, and the five bands as whole EV ranges."""
    steps = "".join(
        f"<li><code>{_e(s)}</code> <small>({_e(s.section)}{'; ' + _e(s.reading) if s.reading else ''})</small></li>"
        for s in b.steps
    )
    rows = []
    for band in b.bands:
        span = band.span
        rows.append((
            f'<span class="wb-band-name">{_e(band.name)}</span>',
            f'<span class="wb-band-range" data-band="{_e(band.name)}" data-min="{band.min}" '
            f'data-max="{"" if band.max is None else band.max}">{_e(span)}</span>',
            _e(band.victories),
            f"<small>{_e(band.rule)}</small>",
        ))
    return (
        f'<div class="wb-budget" style="{_FONT}" data-encounter-strength="{_n(b.encounter_strength)}" '
        f'data-hero-strength="{_n(b.hero_strength)}">'
        f"<b>Encounter strength {_n(b.encounter_strength)}</b> · one hero {_n(b.hero_strength)}"
        # the working and the bands folded away: the summary and the chart say where the encounter sits
        '<details class="wb-budget-working"><summary>How the budget is worked out</summary>'
        f"<ul>{steps}</ul>"
        + _table(("Difficulty", "EV", "Victories", "The rule"), rows)
        + "</details></div>"
    )


def summary_html(r: EncounterReport, name: str = "") -> str:
    """Total EV, band, difficulty after objectives and Victories, in one line."""
    shifted = ""
    if r.difficulty != r.band:
        shifted = f" → objectives make it <b class=\"wb-difficulty\" data-difficulty=\"{_e(r.difficulty)}\">" \
                  f"{_e(r.difficulty)}</b>"
    else:
        shifted = f'<span class="wb-difficulty" data-difficulty="{_e(r.difficulty)}" hidden></span>'
    terrain = f" (creatures {_n(r.creature_ev)} + terrain {_n(r.terrain_ev)})" if r.terrain_ev else ""
    notes = "".join(f"<li>{_e(n)}</li>" for n in r.outcome.notes)
    broken = len(r.broken)
    return (
        f'<div class="wb-encounter-summary" style="{_FONT}">'
        + (f"<h4>{_e(name)}</h4>" if name else "")
        + f'EV <b class="wb-ev-total" data-ev="{_n(r.total_ev)}">{_n(r.total_ev)}</b>{terrain} against '
        f"encounter strength {_n(r.budget.encounter_strength)}: "
        f'<b class="wb-band" data-band="{_e(r.band)}">{_e(r.band)}</b>{shifted}; '
        f'worth <b class="wb-victories" data-victories="{r.victories}">{r.victories}</b> '
        f"{'Victory' if r.victories == 1 else 'Victories'}; "
        f'<span class="wb-broken-count" data-broken="{broken}">{broken} guideline(s) broken</span>'
        + (f"<ul>{notes}</ul>" if notes else "")
        + "</div>"
    )


# Advice about the party's size ("For a party of three or fewer heroes, ...") is advice only when the party
# has that size: kept, it would read as a claim about the party ("✓ Party of 3 or fewer heroes" for five).
PARTY_SIZE_ADVICE = ("small_party", "large_party")


def checks_html(r: EncounterReport) -> str:
    """The guidelines that apply, broken ones first with the rule's own words, each said as kept or broken in
    words (not only a mark); guidelines that do not apply to this encounter are left out."""
    items = []
    shown = [c for c in r.checks if c.applies and (c.broken or c.key not in PARTY_SIZE_ADVICE)]
    for c in sorted(shown, key=lambda c: not c.broken):
        if c.broken:
            mark, colour, state, word = "✗", "#b00", "broken", "Broken"
        else:
            mark, colour, state, word = "✓", "#2a7", "kept", "Kept"
        quote = (
            f'<blockquote style="margin:.2em 0 .4em 1.2em;color:#444">“{_e(c.rule)}” '
            f"<small>({_e(c.section)})</small></blockquote>"
            if c.broken
            else ""
        )
        items.append(
            f'<li class="wb-check" data-check="{_e(c.key)}" data-state="{state}" style="list-style:none">'
            f'<span style="color:{colour};font-weight:bold">{mark} {word}:</span> {_e(c.title)} '
            f"<small>— {_e(c.detail)}</small>{quote}</li>"
        )
    if not items:
        return f'<div class="wb-checks" style="{_FONT}"><i>No guideline applies yet: buy some creatures.</i></div>'
    return f'<ul class="wb-checks" style="{_FONT};padding-left:0">' + "".join(items) + "</ul>"


def creatures_html(encounter: Encounter) -> str:
    """What was bought: each entry with its count, EV and cost (minions by fours), then terrain objects."""
    rows = []
    for c in encounter.creatures:
        each = f"{c.ev} per four" if c.minion else str(c.ev)
        rows.append((
            _e(c.label) + (" ⭐" if c.star else ""),
            _e(f"level {c.level} {c.organization}{' ' + c.role if c.role else ''}"),
            _e(c.count),
            _e(each),
            _n(c.cost()),
        ))
    for t in encounter.terrain:
        rows.append((_e(t.name), "dynamic terrain" + (f" (level {t.level})" if t.level else ""), "1",
                     _e(t.ev), _e(t.ev)))
    if not rows:
        return f'<div style="{_FONT}"><i>No creatures yet.</i></div>'
    return _table(("Creature", "Stat block", "Count", "EV", "Cost"), rows)


def groups_html(encounter: Encounter, hero_strength: Fraction) -> str:
    """The initiative groups with their EV against one to two heroes' ES."""
    if not encounter.groups:
        return f'<div style="{_FONT}"><i>No initiative groups yet: group the creatures or ask for a suggestion.</i></div>'
    rows = []
    for number, group in enumerate(encounter.groups, start=1):
        members = ", ".join(f"{count} × {encounter.creatures[i].label}" for i, count in group.members)
        value = group_ev(encounter, group)
        if value < hero_strength:
            where = "below one hero"
        elif value > 2 * hero_strength:
            where = "above two heroes"
        else:
            where = "within one to two heroes"
        rows.append((_e(number), _e(members), f'<span class="wb-group-ev">{_n(value)}</span>', _e(where)))
    return _table(("Group", "Creatures", "EV", f"vs {format_number(hero_strength)}–{format_number(2 * hero_strength)}"), rows)


def objectives_html(encounter: Encounter, rules: EncounterRules | None = None) -> str:
    """Each chosen objective's numbers for this party (a thing's or ward's Stamina, reinforcements), then its
    difficulty modifier, success and failure conditions and Victories, as written."""
    rules = rules or encounter_rules()
    parts = []
    for chosen in encounter.objectives:
        o = rules.objectives[chosen.key]
        ticked = [c.label + (f" ({chosen.conditions[c.key]})" if c.kind != "flag" else "")
                  for c in o.conditions if chosen.conditions.get(c.key)]
        parts.append(
            f"<h4>{_e(o.name)}</h4>"
            + (f"<p><b>Chosen:</b> {_e('; '.join(ticked))}</p>" if ticked else "")
            + "".join(f'<p class="wb-objective-number">{_e(line)}</p>'
                      for line in encounter_objective_numbers(encounter, chosen.key, rules))
            + f"<p><b>Difficulty modifier.</b> {_e(o.difficulty_modifier)}</p>"
            f"<p><b>Success condition.</b> {_e(o.success)}</p>"
            f"<p><b>Victories.</b> {_e(o.victories_text)}</p>"
            f"<p><b>Failure condition.</b> {_e(o.failure)}</p>"
        )
    if len(encounter.objectives) > 1:
        alternative = encounter.objective_mode == "alternative"
        rule = rules.objective_rules.alternative_rule if alternative else rules.objective_rules.combined_rule
        parts.insert(0, f'<p class="wb-objective-mode" data-mode="{_e(encounter.objective_mode)}">'
                        f"<b>{'Alternative' if alternative else 'Combined'} objectives.</b> <i>{_e(rule)}</i></p>")
    return f'<div class="wb-objectives" style="{_FONT}">' + "".join(parts) + "</div>"


def quick_html(plan: QuickPlan, ev_band: str | None = None) -> str:
    """The quick method: slots, what fills them, level limits, terrain objects, and the EV method's band."""
    top = "or more" if plan.max_slots is None else (
        f"(up to {plan.max_slots} with the bonus slot)" if plan.max_slots != plan.slots else ""
    )
    levels = []
    if plan.min_level is not None:
        levels.append(f"at least level {format_number(plan.min_level)}")
    if plan.max_level is not None:
        levels.append(f"at most level {format_number(plan.max_level)}")
    if plan.solo_max_level is not None:
        levels.append(f"solos at most level {format_number(plan.solo_max_level)}")
    alone = ", ".join(f"{n} {org}" for org, n in fills(plan.slots).items())
    state = "fits" if plan.fits else "does not fit"
    problems = "".join(f"<li>{_e(p)}</li>" for p in plan.level_problems)
    return (
        f'<div class="wb-quick" style="{_FONT}" data-slots="{plan.slots}" data-used="{_n(plan.used)}">'
        f"<b>{plan.heroes} heroes + {plan.extra_heroes} for Victories = {plan.base_slots} hero slots</b>; "
        f"{_e(plan.difficulty)} {plan.adjustment:+d} → <b>{plan.slots}</b> slots {_e(top)}<br>"
        f"<small>{_e(plan.rule)}</small><br>"
        f"Creature levels: {_e(', '.join(levels) or 'any')}.<br>"
        f"{plan.slots} slots are, on their own: {_e(alone)} (a solo fills 6 + its levels above the heroes).<br>"
        f"Your creatures fill <b>{_n(plan.used)}</b> slots: the quick method says it <b>{state}</b>; "
        f"by EV ({_n(plan.ev)}) they are <b>{_e(plan.ev_band)}</b>"
        + (f" (the encounter with terrain is {_e(ev_band)})" if ev_band and ev_band != plan.ev_band else "")
        + ".<br>"
        + (f"<ul>{problems}</ul>" if problems else "")
        + f"Dynamic terrain objects: {plan.terrain_objects[0]}–{plan.terrain_objects[1]}. "
        f"<small>{_e(plan.terrain_rule)}</small></div>"
    )


def respite_html(check: Check) -> str:
    """A sequence of encounters against "How Many Fights Before a Respite?": the Victories since the last
    respite with their sum, and the rule's words (`workbench.encounter.respite.respite_check`)."""
    state = "broken" if check.broken else "kept"
    return (
        f'<div class="wb-respite" data-state="{state}" style="{_FONT}"><b>{_e(check.title)}</b> — '
        f"{_e(check.detail)}<blockquote style=\"margin:.2em 0 .4em 1.2em;color:#444\">“{_e(check.rule)}” "
        f"<small>({_e(check.section)})</small></blockquote></div>"
    )
