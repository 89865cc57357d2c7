"""An adventure's packet for the table, as one printable HTML page: the day, a sheet per encounter, the cards.

The day: each encounter in order with the Victories the heroes arrive with, its encounter strength, band and
difficulty, what it is worth, the Malice the monsters start with, and the warnings in the rules' words.
A sheet per encounter (each starts a printed page): the party, the EV and band at the arrival Victories, the
creatures, the initiative groups (the workbench's suggestion, marked so, when the Director made none), the
objectives with their success and failure conditions, and a Malice card (the gain of each round, then the
features every monster has and the encounter's own, with their costs).
Then every stat block used, as cards, several to a page.

A creature's stat block is the whole Monster its entry carries; a Monster given for its name (`monsters`)
stands in only for an entry that carries nothing but the formulas' numbers (an encounter saved before entries
carried their monster). Every text a Director typed (names, objective notes, the adventure's title) is
escaped; numbers sit in elements with stable classes (`wb-arrival`, `wb-strength`, `wb-difficulty`,
`wb-malice-start`) so a script or a test can read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from workbench.encounter.adventure import AdventurePlan, EncounterPlan
from workbench.encounter.encounter import Creature, Encounter, carries_formulas
from workbench.encounter.groups import suggest_groups
from workbench.fight.malice_features import basic_malice_features
from workbench.fight.malice_schedule import malice_schedule
from workbench.model import Monster
from workbench.numbers import format_number
from workbench.render.encounter import creatures_html, groups_html, objectives_html
from workbench.render.escape import Markup, join, stylesheet
from workbench.render.stat_block import stat_block_html

__all__ = ["adventure_html", "day_html", "encounter_sheet_html", "malice_card_html"]

MALICE_ROUNDS = 5
def _n(value: Fraction | int) -> str:
    return format_number(value)


def _plural(value: Fraction | int, one: str, many: str) -> str:
    return f"{format_number(value)} {one if value == 1 else many}"


def _title(row: EncounterPlan) -> str:
    return row.name or f"Encounter {row.index + 1}"


def day_html(found: AdventurePlan) -> str:
    """The day as a table, one row per encounter, respites marked between them."""
    head = ("#", "Encounter", "Arrive with", "Encounter strength", "EV", "Difficulty", "Worth", "Malice at start")
    rows: list[str] = []
    for row in found.encounters:
        if row.respite_before:
            rows.append(Markup('<tr class="wb-respite-row"><td colspan="{}"><i>Respite: Victories back to 0'
                        "</i></td></tr>").format(len(head)))
        built = f" (built {row.built_difficulty})" if row.drifted else ""
        rows.append(
            Markup("<tr>"
            "<td>{}</td><td>{}</td>"
            '<td class="wb-arrival" data-value="{}">'
            "{}</td>"
            '<td class="wb-strength">{}</td>'
            "<td>{}</td>"
            '<td class="wb-difficulty" data-value="{}">{}{}</td>'
            "<td>{}</td>"
            '<td class="wb-malice-start">{}</td>'
            "</tr>").format(row.index + 1, _title(row), _n(row.arrival_victories), _plural(row.arrival_victories, 'Victory', 'Victories'), _n(row.encounter_strength), _n(row.total_ev), row.difficulty, row.difficulty, built, _plural(row.victories, 'Victory', 'Victories'), row.starting_malice)
        )
    warnings = join(
        Markup('<li class="wb-warning">Encounter {}: <b>{}</b>: {}'
        "<blockquote>“{}” <small>({})</small></blockquote></li>").format(index + 1, w.title, w.detail, w.rule, w.section)
        for index, w in found.warnings
    )
    table = Markup("<table><tr>") + join(Markup("<th>{}</th>").format(h) for h in head) + Markup("</tr>") + join(rows) + Markup("</table>")
    return Markup('<div class="wb-day">{}').format(table) + (Markup("<ul>{}</ul>").format(warnings) if warnings else "") + Markup("</div>")


def malice_card_html(row: EncounterPlan, heroes: int, features: Iterable[Monster], rounds: int = MALICE_ROUNDS) -> str:
    """Malice for one encounter: each round's gain and the running total (nothing spent, no hero down), then
    the basic features and the creatures' own, with their costs."""
    schedule = malice_schedule(heroes, row.starting_malice, rounds)
    gains = join(
        Markup("<tr><td>{}</td><td>{}</td><td>{}</td></tr>").format(r.round, r.gain, r.total) for r in schedule
    )
    own: dict[str, tuple[int | None, str]] = {}
    for monster in features:
        for trait in monster.malice_features:
            own.setdefault(f"{trait.name} ({monster.name})", (trait.cost, trait.text))
    basic = [(t.name, t.cost, t.text) for t in basic_malice_features()]
    listed = basic + [(name, cost, text) for name, (cost, text) in own.items()]
    items = join(
        Markup("<li><b>{}</b>").format(name) + (f" ({cost} Malice)" if cost is not None else "") + Markup(": {}</li>").format(text)
        for name, cost, text in listed
    )
    return (
        Markup('<div class="wb-malice-card"><h3>Malice</h3>'
        "<p>At the start: <b>{}</b> (the heroes' average Victories, "
        "{}, rounded down); each round adds the heroes and the round "
        "number.</p>"
        "<table><tr><th>Round</th><th>Gain</th><th>Total</th></tr>").format(row.starting_malice, format_number(row.arrival_victories)) + gains + Markup("</table>"
        "<ul>{}</ul></div>").format(items)
    )


def _monster_of(creature: Creature, given: dict[str, Monster]) -> Monster:
    """The entry's own stat block, named as the sheet names the creature; a Monster given by its name stands
    in only for an entry that carries the formulas' stat block and nothing of its own (an old file's)."""
    own = given.get(creature.name.strip().casefold())
    if (own is not None and (own.level, own.organization) == (creature.level, creature.organization)
            and carries_formulas(creature)):
        return own
    label = creature.label[:1].upper() + creature.label[1:]
    return creature.monster.model_copy(update={"name": label})


def _groups(encounter: Encounter, hero_strength: Fraction) -> str:
    """The Director's initiative groups, or the workbench's suggestion (marked so) when none were made."""
    if encounter.groups or not encounter.creatures:
        return Markup("<h3>Initiative groups</h3>") + groups_html(encounter, hero_strength)
    suggested = encounter.model_copy(update={"groups": suggest_groups(encounter, hero_strength)})
    return Markup("<h3>Initiative groups (suggested)</h3>") + groups_html(suggested, hero_strength)


def encounter_sheet_html(found: AdventurePlan, row: EncounterPlan, given: dict[str, Monster]) -> str:
    """One encounter's sheet, as the heroes meet it."""
    adventure = found.adventure
    encounter = adventure.at_victories(row.index, row.arrival_victories)
    party = adventure.party
    heroes = sum(1 for m in party.members if m.kind == "hero") or party.size
    levels = ", ".join(str(v) for v in party.levels)
    band = row.report.budget.band(row.band)
    monsters = [_monster_of(c, given) for c in encounter.creatures]
    objectives = objectives_html(encounter) if encounter.objectives else "<p><i>No objective chosen.</i></p>"
    return (
        Markup('<section class="wb-sheet" data-index="{}">'
        "<h2>{}. {}</h2>"
        "<p>Party: {} (levels {}), arriving with "
        '<b class="wb-arrival">{}</b>: '
        'encounter strength <b class="wb-strength">{}</b>. '
        'EV <b>{}</b> is <b class="wb-difficulty">{}</b> '
        "({}: EV {}), worth {}.</p>"
        "<h3>Creatures</h3>").format(row.index, row.index + 1, _title(row), party.size, levels, _plural(row.arrival_victories, "Victory", "Victories"), _n(row.encounter_strength), _n(row.total_ev), row.difficulty, row.band, band.span, _plural(row.victories, 'Victory', 'Victories')) + creatures_html(encounter)
        + _groups(encounter, row.report.budget.hero_strength)
        + Markup("<h3>Objective</h3>") + objectives
        + malice_card_html(row, heroes, monsters)
        + Markup("</section>")
    )


def _cards(found: AdventurePlan, given: dict[str, Monster]) -> str:
    seen: dict[tuple[str, int, str, str | None, bool], Monster] = {}
    for encounter in found.adventure.encounters:
        for creature in encounter.creatures:
            seen.setdefault(creature.stat_block, _monster_of(creature, given))
    if not seen:
        return ""
    cards = join(Markup('<div class="wb-card">{}</div>').format(stat_block_html(m, style=False)) for m in seen.values())
    return Markup('<section class="wb-cards"><h2>Stat blocks</h2>{}</section>').format(cards)


def adventure_html(found: AdventurePlan, monsters: Sequence[Monster] = ()) -> str:
    """The whole packet as one HTML document, ready to print (each sheet and the cards start a page)."""
    given = {m.name.strip().casefold(): m for m in monsters if m.name.strip()}
    title = found.adventure.name or "Adventure"
    sheets = join(encounter_sheet_html(found, row, given) for row in found.encounters)
    return (
        Markup("<!DOCTYPE html><html class=\"wb-packet\"><head><meta charset=\"utf-8\">"
        '<title>{}</title>{}</head><body>'
        '<h1 class="wb-adventure-title">{}</h1>').format(title, stylesheet(), title)
        + day_html(found) + sheets + _cards(found, given)
        + Markup("</body></html>")
    )
