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
from workbench.render.escape import escape_html as _e
from workbench.render.stat_block import stat_block_html

__all__ = ["adventure_html", "day_html", "encounter_sheet_html", "malice_card_html"]

MALICE_ROUNDS = 5
_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#111}
h1{margin:.2em 0}h2{margin:.4em 0 .2em}h3{margin:.6em 0 .2em}
table{border-collapse:collapse}td,th{border-bottom:1px solid #ccc;padding:.15em .5em;text-align:left}
.wb-sheet{break-before:page;page-break-before:always}
.wb-cards{display:flex;flex-wrap:wrap;gap:.6em;break-before:page;page-break-before:always}
.wb-card{width:23em;break-inside:avoid;page-break-inside:avoid;border:1px solid #999;padding:.4em;font-size:.85em}
.wb-warning{color:#7a2800}
blockquote{margin:.2em 0 .4em 1.2em;color:#444}
@media print{body{margin:0}}
"""


def _n(value: Fraction | int) -> str:
    return _e(format_number(value))


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
            rows.append(f'<tr class="wb-respite-row"><td colspan="{len(head)}"><i>Respite: Victories back to 0'
                        "</i></td></tr>")
        built = f" (built {_e(row.built_difficulty)})" if row.drifted else ""
        rows.append(
            "<tr>"
            f"<td>{row.index + 1}</td><td>{_e(_title(row))}</td>"
            f'<td class="wb-arrival" data-value="{_n(row.arrival_victories)}">'
            f"{_e(_plural(row.arrival_victories, 'Victory', 'Victories'))}</td>"
            f'<td class="wb-strength">{_n(row.encounter_strength)}</td>'
            f"<td>{_n(row.total_ev)}</td>"
            f'<td class="wb-difficulty" data-value="{_e(row.difficulty)}">{_e(row.difficulty)}{built}</td>'
            f"<td>{_e(_plural(row.victories, 'Victory', 'Victories'))}</td>"
            f'<td class="wb-malice-start">{row.starting_malice}</td>'
            "</tr>"
        )
    warnings = "".join(
        f'<li class="wb-warning">Encounter {index + 1}: <b>{_e(w.title)}</b>: {_e(w.detail)}'
        f"<blockquote>“{_e(w.rule)}” <small>({_e(w.section)})</small></blockquote></li>"
        for index, w in found.warnings
    )
    table = "<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>" + "".join(rows) + "</table>"
    return f'<div class="wb-day">{table}' + (f"<ul>{warnings}</ul>" if warnings else "") + "</div>"


def malice_card_html(row: EncounterPlan, heroes: int, features: Iterable[Monster], rounds: int = MALICE_ROUNDS) -> str:
    """Malice for one encounter: each round's gain and the running total (nothing spent, no hero down), then
    the basic features and the creatures' own, with their costs."""
    schedule = malice_schedule(heroes, row.starting_malice, rounds)
    gains = "".join(
        f"<tr><td>{r.round}</td><td>{r.gain}</td><td>{r.total}</td></tr>" for r in schedule
    )
    own: dict[str, tuple[int | None, str]] = {}
    for monster in features:
        for trait in monster.malice_features:
            own.setdefault(f"{trait.name} ({monster.name})", (trait.cost, trait.text))
    basic = [(t.name, t.cost, t.text) for t in basic_malice_features()]
    listed = basic + [(name, cost, text) for name, (cost, text) in own.items()]
    items = "".join(
        f"<li><b>{_e(name)}</b>" + (f" ({cost} Malice)" if cost is not None else "") + f": {_e(text)}</li>"
        for name, cost, text in listed
    )
    return (
        '<div class="wb-malice-card"><h3>Malice</h3>'
        f"<p>At the start: <b>{row.starting_malice}</b> (the heroes' average Victories, "
        f"{_e(format_number(row.arrival_victories))}, rounded down); each round adds the heroes and the round "
        "number.</p>"
        "<table><tr><th>Round</th><th>Gain</th><th>Total</th></tr>" + gains + "</table>"
        f"<ul>{items}</ul></div>"
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
        return "<h3>Initiative groups</h3>" + groups_html(encounter, hero_strength)
    suggested = encounter.model_copy(update={"groups": suggest_groups(encounter, hero_strength)})
    return "<h3>Initiative groups (suggested)</h3>" + groups_html(suggested, hero_strength)


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
        f'<section class="wb-sheet" data-index="{row.index}">'
        f"<h2>{row.index + 1}. {_e(_title(row))}</h2>"
        f"<p>Party: {party.size} (levels {_e(levels)}), arriving with "
        f'<b class="wb-arrival">{_e(_plural(row.arrival_victories, "Victory", "Victories"))}</b>: '
        f'encounter strength <b class="wb-strength">{_n(row.encounter_strength)}</b>. '
        f'EV <b>{_n(row.total_ev)}</b> is <b class="wb-difficulty">{_e(row.difficulty)}</b> '
        f"({_e(row.band)}: EV {_e(band.span)}), worth {_e(_plural(row.victories, 'Victory', 'Victories'))}.</p>"
        "<h3>Creatures</h3>" + creatures_html(encounter)
        + _groups(encounter, row.report.budget.hero_strength)
        + "<h3>Objective</h3>" + objectives
        + malice_card_html(row, heroes, monsters)
        + "</section>"
    )


def _cards(found: AdventurePlan, given: dict[str, Monster]) -> str:
    seen: dict[tuple[str, int, str, str | None, bool], Monster] = {}
    for encounter in found.adventure.encounters:
        for creature in encounter.creatures:
            seen.setdefault(creature.stat_block, _monster_of(creature, given))
    if not seen:
        return ""
    cards = "".join(f'<div class="wb-card">{stat_block_html(m)}</div>' for m in seen.values())
    return f'<section class="wb-cards"><h2 style="width:100%">Stat blocks</h2>{cards}</section>'


def adventure_html(found: AdventurePlan, monsters: Sequence[Monster] = ()) -> str:
    """The whole packet as one HTML document, ready to print (each sheet and the cards start a page)."""
    given = {m.name.strip().casefold(): m for m in monsters if m.name.strip()}
    title = found.adventure.name or "Adventure"
    sheets = "".join(encounter_sheet_html(found, row, given) for row in found.encounters)
    return (
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>"
        f'<h1 class="wb-adventure-title">{_e(title)}</h1>'
        + day_html(found) + sheets + _cards(found, given)
        + "</body></html>"
    )
