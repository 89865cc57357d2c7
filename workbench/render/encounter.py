"""Encounter building for people, as HTML: the budget with its working, the encounter's summary, every
guideline check (broken ones in the rule's own words), initiative groups, objectives and the quick method.

Every name a user typed (creatures, terrain objects, the encounter) is plain text in `Markup` HTML, so escaped. Key
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
from workbench.render.escape import Markup, join
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

def _n(value: Fraction | int) -> str:
    return format_number(Fraction(value))


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> Markup:
    """A table of `rows`: a plain cell is escaped, a Markup one kept."""
    head = join(Markup("<th>{}</th>").format(h) for h in header)
    body = join(Markup("<tr>{}</tr>").format(join(Markup("<td>{}</td>").format(c) for c in row)) for row in rows)
    return Markup('<table class="wb-report-table"><tr>{}</tr>{}</table>').format(head, body)


def budget_html(b: Budget) -> str:
    """The party's encounter strength with its working, and the five bands as whole EV ranges."""
    steps = join(
        Markup("<li><code>{}</code> <small>({}{})</small></li>").format(s, s.section, '; ' + s.reading if s.reading else '')
        for s in b.steps
    )
    rows = []
    for band in b.bands:
        span = band.span
        rows.append((
            Markup('<span class="wb-band-name">{}</span>').format(band.name),
            Markup('<span class="wb-band-range" data-band="{}" data-min="{}" '
            'data-max="{}">{}</span>').format(band.name, band.min, "" if band.max is None else band.max, span),
            band.victories,
            Markup("<small>{}</small>").format(band.rule),
        ))
    return (
        Markup('<div class="wb-budget wb-report" data-encounter-strength="{}" '
        'data-hero-strength="{}">'
        "<b>Encounter strength {}</b> · one hero {}"
        # the working and the bands folded away: the summary and the chart say where the encounter sits
        '<details class="wb-budget-working"><summary>How the budget is worked out</summary>'
        "<ul>{}</ul>").format(_n(b.encounter_strength), _n(b.hero_strength), _n(b.encounter_strength), _n(b.hero_strength), steps)
        + _table(("Difficulty", "EV", "Victories", "The rule"), rows)
        + Markup("</details></div>")
    )


def summary_html(r: EncounterReport, name: str = "") -> str:
    """Total EV, band, difficulty after objectives and Victories, in one line."""
    shifted = ""
    if r.difficulty != r.band:
        shifted = Markup(" → objectives make it <b class=\"wb-difficulty\" data-difficulty=\"{}\">" \
                  "{}</b>").format(r.difficulty, r.difficulty)
    else:
        shifted = Markup('<span class="wb-difficulty" data-difficulty="{}" hidden></span>').format(r.difficulty)
    terrain = f" (creatures {_n(r.creature_ev)} + terrain {_n(r.terrain_ev)})" if r.terrain_ev else ""
    notes = join(Markup("<li>{}</li>").format(n) for n in r.outcome.notes)
    broken = len(r.broken)
    return (
        Markup('<div class="wb-encounter-summary wb-report">')
        + (Markup("<h4>{}</h4>").format(name) if name else "")
        + Markup('EV <b class="wb-ev-total" data-ev="{}">{}</b>{} against '
        "encounter strength {}: "
        '<b class="wb-band" data-band="{}">{}</b>{}; '
        'worth <b class="wb-victories" data-victories="{}">{}</b> '
        "{}; "
        '<span class="wb-broken-count" data-broken="{}">{} guideline(s) broken</span>').format(_n(r.total_ev), _n(r.total_ev), terrain, _n(r.budget.encounter_strength), r.band, r.band, shifted, r.victories, r.victories, 'Victory' if r.victories == 1 else 'Victories', broken, broken)
        + (Markup("<ul>{}</ul>").format(notes) if notes else "")
        + Markup("</div>")
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
            mark, state, word = "✗", "broken", "Broken"
        else:
            mark, state, word = "✓", "kept", "Kept"
        quote = (
            Markup('<blockquote class="wb-rule-quote">“{}” '
            "<small>({})</small></blockquote>").format(c.rule, c.section)
            if c.broken
            else ""
        )
        items.append(
            Markup('<li class="wb-check" data-check="{}" data-state="{}">'
            '<span class="wb-check-mark">{} {}:</span> {} '
            "<small>— {}</small>{}</li>").format(c.key, state, mark, word, c.title, c.detail, quote)
        )
    if not items:
        return Markup('<div class="wb-checks wb-report"><i>No guideline applies yet: buy some creatures.</i></div>')
    return Markup('<ul class="wb-checks wb-report">{}</ul>').format(join(items))


def creatures_html(encounter: Encounter) -> str:
    """What was bought: each entry with its count, EV and cost (minions by fours), then terrain objects."""
    rows: list[tuple[object, ...]] = []
    for c in encounter.creatures:
        each = f"{c.ev} per four" if c.minion else str(c.ev)
        rows.append((
            c.label + (" ⭐" if c.star else ""),
            f"level {c.level} {c.organization}{' ' + c.role if c.role else ''}",
            c.count,
            each,
            _n(c.cost()),
        ))
    for t in encounter.terrain:
        rows.append((t.name, "dynamic terrain" + (f" (level {t.level})" if t.level else ""), "1",
                     t.ev, t.ev))
    if not rows:
        return Markup('<div class="wb-report"><i>No creatures yet.</i></div>')
    return _table(("Creature", "Stat block", "Count", "EV", "Cost"), rows)


def groups_html(encounter: Encounter, hero_strength: Fraction) -> str:
    """The initiative groups with their EV against one to two heroes' ES."""
    if not encounter.groups:
        return Markup('<div class="wb-report"><i>No initiative groups yet: group the creatures or ask for a suggestion.</i></div>')
    rows: list[tuple[object, ...]] = []
    for number, group in enumerate(encounter.groups, start=1):
        members = ", ".join(f"{count} × {encounter.creatures[i].label}" for i, count in group.members)
        value = group_ev(encounter, group)
        if value < hero_strength:
            where = "below one hero"
        elif value > 2 * hero_strength:
            where = "above two heroes"
        else:
            where = "within one to two heroes"
        rows.append((number, members, Markup('<span class="wb-group-ev">{}</span>').format(_n(value)), where))
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
            Markup("<h4>{}</h4>").format(o.name)
            + (Markup("<p><b>Chosen:</b> {}</p>").format('; '.join(ticked)) if ticked else "")
            + join(Markup('<p class="wb-objective-number">{}</p>').format(line)
                      for line in encounter_objective_numbers(encounter, chosen.key, rules))
            + Markup("<p><b>Difficulty modifier.</b> {}</p>"
            "<p><b>Success condition.</b> {}</p>"
            "<p><b>Victories.</b> {}</p>"
            "<p><b>Failure condition.</b> {}</p>").format(o.difficulty_modifier, o.success, o.victories_text, o.failure)
        )
    if len(encounter.objectives) > 1:
        alternative = encounter.objective_mode == "alternative"
        rule = rules.objective_rules.alternative_rule if alternative else rules.objective_rules.combined_rule
        parts.insert(0, Markup('<p class="wb-objective-mode" data-mode="{}">'
                        "<b>{} objectives.</b> <i>{}</i></p>").format(encounter.objective_mode, 'Alternative' if alternative else 'Combined', rule))
    return Markup('<div class="wb-objectives wb-report">') + join(parts) + Markup("</div>")


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
    problems = join(Markup("<li>{}</li>").format(p) for p in plan.level_problems)
    return (
        Markup('<div class="wb-quick wb-report" data-slots="{}" data-used="{}">'
        "<b>{} heroes + {} for Victories = {} hero slots</b>; "
        "{} {:+d} → <b>{}</b> slots {}<br>"
        "<small>{}</small><br>"
        "Creature levels: {}.<br>"
        "{} slots are, on their own: {} (a solo fills 6 + its levels above the heroes).<br>"
        "Your creatures fill <b>{}</b> slots: the quick method says it <b>{}</b>; "
        "by EV ({}) they are <b>{}</b>").format(plan.slots, _n(plan.used), plan.heroes, plan.extra_heroes, plan.base_slots, plan.difficulty, plan.adjustment, plan.slots, top, plan.rule, ', '.join(levels) or 'any', plan.slots, alone, _n(plan.used), state, _n(plan.ev), plan.ev_band)
        + (f" (the encounter with terrain is {ev_band})" if ev_band and ev_band != plan.ev_band else "")
        + Markup(".<br>")
        + (Markup("<ul>{}</ul>").format(problems) if problems else "")
        + Markup("Dynamic terrain objects: {}–{}. "
        "<small>{}</small></div>").format(plan.terrain_objects[0], plan.terrain_objects[1], plan.terrain_rule)
    )


def respite_html(check: Check) -> str:
    """A sequence of encounters against "How Many Fights Before a Respite?": the Victories since the last
    respite with their sum, and the rule's words (`workbench.encounter.respite.respite_check`)."""
    state = "broken" if check.broken else "kept"
    return (
        Markup('<div class="wb-respite wb-report" data-state="{}"><b>{}</b> — '
        "{}<blockquote class=\"wb-rule-quote\">“{}” "
        "<small>({})</small></blockquote></div>").format(state, check.title, check.detail, check.rule, check.section)
    )
