"""A monster as a book-style stat block (HTML and Markdown) and its "how was this computed" view.

The block is built from one small function per section (`SECTIONS`), so a leader's villain actions or a
solo's traits can be added as another section without touching the rest. Every string a user typed
(name, keywords, trait text) passes through `html.escape` before it becomes HTML, and key numbers sit in
elements with stable classes and `data-*` attributes (`<span class="wb-ev">28</span>`) for browser tests.

The block draws the monster and nothing else: its characteristics (the highest marked), its abilities with
their tiers (a formula monster's signature ability is one of them, written in by `build_monster`), so every
export of a monster carries what its block shows. `modules` are the homebrew rule modules the block can fill
in, by id (`workbench.homebrew.rule.load_rules(folder)` for a Director's own folder); None means the shipped
ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from workbench.homebrew.rule import HomebrewRule
from workbench.model import CHARACTERISTICS, Ability, Effect, Monster, Step, Tier, Trait
from workbench.monster.departure import Departure, ability_departures
from workbench.monster.formulas import explain
from workbench.monster.power_roll import expected_damage, tier_odds
from workbench.monster.solo import explain_instant_solo, is_instant_solo
from workbench.render.escape import escape_html as _e
from workbench.render.homebrew_rule import homebrew_rules_html, homebrew_rules_markdown_lines
from workbench.render.markdown_text import md_inline as _md
from workbench.render.solo import (
    malice_features_html,
    solo_markdown_lines,
    solo_traits_html,
    villain_actions_html,
)
from workbench.render.swarm import decimal_text
from workbench.rules.lore import Lore, core_lore

__all__ = [
    "CHARACTERISTICS",
    "SECTIONS",
    "TIER_LABELS",
    "ability_heading_html",
    "ability_html",
    "ability_markdown",
    "defences_html",
    "effects_html",
    "header_parts",
    "name_line_html",
    "named_blocks_html",
    "odds_text",
    "tier_rows",
    "explain_html",
    "explain_markdown",
    "noncombatant_html",
    "stat_block_html",
    "stat_block_markdown",
]

TIER_LABELS = ("≤11", "12–16", "17+")

STYLE = """<style>
.wb-stat-block{font-family:system-ui,sans-serif;max-width:44em;border:2px solid #5a3e2b;border-radius:6px;
 padding:.6em .9em;background:#fbf7ef;color:#222;line-height:1.35}
.wb-stat-block .wb-head{display:flex;justify-content:space-between;align-items:baseline;
 border-bottom:2px solid #5a3e2b;margin-bottom:.3em}
.wb-stat-block .wb-name{font-size:1.3em;font-weight:700;font-variant:small-caps}
.wb-stat-block .wb-keywords{font-style:italic;color:#555}
.wb-stat-block table{border-collapse:collapse;width:100%;margin:.3em 0;text-align:center}
.wb-stat-block td,.wb-stat-block th{padding:.15em .4em}
.wb-stat-block th{font-size:.8em;font-weight:400;color:#555;text-transform:uppercase}
.wb-stat-block td{font-weight:700}
.wb-stat-block .wb-highest{background:#e9d9b8;border-radius:4px}
.wb-stat-block h4{margin:.5em 0 .15em;border-bottom:1px solid #c9b48a;font-size:1em}
.wb-stat-block .wb-tiers td{text-align:left;font-weight:400}
.wb-stat-block .wb-note{font-size:.85em;color:#555}
.wb-stat-block .wb-ability{margin:.4em 0;border-top:1px solid #c9b48a;padding-top:.25em}
.wb-stat-block .wb-ability-meta{font-size:.9em}
.wb-stat-block .wb-departure{color:#8a3b12;font-size:.85em}
.wb-stat-block .wb-odds{font-size:.85em;color:#444}
.wb-explain table{border-collapse:collapse;font-family:system-ui,sans-serif;font-size:.9em}
.wb-explain td,.wb-explain th{border-bottom:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
.wb-explain .wb-working{font-family:ui-monospace,monospace;white-space:nowrap}
</style>"""


def _title_case(word: str | None) -> str:
    return word.capitalize() if word else ""


def _kind(monster: Monster) -> str:
    kind = " ".join(_title_case(p) for p in (monster.organization, monster.role) if p)
    return f"{kind}, instant solo" if is_instant_solo(monster) else kind


# ---------------------------------------------------------------- HTML sections


def name_line_html(monster: Monster, name: str, kind: str) -> str:
    """The block's name line: `name`, "Level N `kind`", the EV ("(four minions)" beside a minion's), the
    numbers in elements tests and scripts read (`wb-level`, `wb-ev`); `name` and `kind` are escaped here."""
    minion = ' <span class="wb-note">(four minions)</span>' if monster.organization == "minion" else ""
    return (
        '<div class="wb-head">'
        f'<span class="wb-name">{_e(name)}</span>'
        f'<span class="wb-title">Level <span class="wb-level">{monster.level}</span> '
        f'<span class="wb-kind">{_e(kind)}</span></span>'
        f'<span class="wb-ev-box">EV <span class="wb-ev">{monster.ev}</span>{minion}</span>'
        "</div>"
    )


def _header(monster: Monster, **_: object) -> str:
    keywords = ", ".join(_e(k) for k in monster.keywords) or "—"
    return name_line_html(monster, monster.name or "New monster", _kind(monster)) + (
        f'<div class="wb-keywords">{keywords}</div>')


def header_parts(monster: Monster) -> tuple[str, str, str]:
    """Size, speed and stability as printed: the typed parts of a whole stat block, else the builder's text
    ("" for one the monster does not give; the working block shows a dash there, the table copy nothing)."""
    size = str(monster.size_class) if monster.size_class else monster.size
    speed = str(monster.movement) if monster.movement else monster.speed
    stability = str(monster.stability_value) if monster.stability_value is not None else monster.stability
    return size or "", speed or "", stability or ""


def _header_texts(monster: Monster) -> tuple[str, str, str]:
    size, speed, stability = header_parts(monster)
    return size or "—", speed or "—", stability or "—"


def _defences(monster: Monster) -> list[tuple[str, str]]:
    """("Immunity", "Fire 5"), ("Weakness", ...), ("With Captain", ...): the lines under the numbers."""
    rows = []
    if monster.immunities:
        rows.append(("Immunity", ", ".join(str(m) for m in monster.immunities)))
    if monster.weaknesses:
        rows.append(("Weakness", ", ".join(str(m) for m in monster.weaknesses)))
    if monster.with_captain:
        rows.append(("With Captain", monster.with_captain))
    return rows


def defences_html(monster: Monster) -> str:
    """The immunity, weakness and With Captain lines under the numbers, as HTML (user text escaped)."""
    return "".join(f'<div class="wb-defence"><b>{_e(label)}</b> {_e(text)}</div>' for label, text in
                   _defences(monster))


def _stats(monster: Monster, **_: object) -> str:
    extra = ' <span class="wb-note">(+extra)</span>' if monster.extra_stamina else ""
    size, speed, stability = _header_texts(monster)
    cells = (
        ("Size", _e(size)),
        ("Speed", _e(speed)),
        ("Stamina", f'<span class="wb-stamina">{monster.stamina}</span>{extra}'),
        ("Stability", _e(stability)),
        ("Free Strike", f'<span class="wb-free-strike">{monster.free_strike}</span>'),
    )
    head = "".join(f"<th>{label}</th>" for label, _ in cells)
    body = "".join(f"<td>{value}</td>" for _, value in cells)
    return f'<table class="wb-stats"><tr>{head}</tr><tr>{body}</tr></table>{defences_html(monster)}'


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _characteristics(monster: Monster, **_: object) -> str:
    """All five, the highest marked; "—" for one the monster does not set (the formulas set only the
    highest: the others are the Director's to choose below it)."""
    chosen = monster.characteristics
    top = chosen.highest
    cells = []
    for name, value in chosen.items():
        if value is None:
            cells.append(f'<td data-characteristic="{name}" title="not set by the formulas">—</td>')
        elif value == top:
            cells.append(f'<td class="wb-highest" data-characteristic="{name}">'
                         f'<span class="wb-highest-value">{_signed(value)}</span></td>')
        else:
            cells.append(f'<td data-characteristic="{name}">{_signed(value)}</td>')
    head = "".join(f"<th>{name.capitalize()}</th>" for name in CHARACTERISTICS)
    note = (
        '<div class="wb-note">The formulas give only the highest characteristic '
        f"(1 + echelon {monster.echelon}"
        + (", +1 for a leader or solo" if monster.organization in ("leader", "solo") else "")
        + "); the others are yours to choose below it.</div>"
    ) if not chosen.known else ""
    return (f'<table class="wb-characteristics"><tr>{head}</tr><tr>{"".join(cells)}</tr></table>{note}'
            + _characteristic_departure(monster, top))


def _characteristic_departure(monster: Monster, highest: int | None) -> str:
    """A line marking a highest characteristic that is not the formulas' 1 + echelon (nothing when it is)."""
    if highest is None or highest == monster.highest_characteristic:
        return ""
    return (f'<div class="wb-note wb-departs" data-formula="{monster.highest_characteristic}">Highest '
            f"characteristic {_signed(highest)}: the formulas give {_signed(monster.highest_characteristic)} "
            "at this level.</div>")


def _free_strike(monster: Monster, *, lore: Lore | None = None, **_: object) -> str:
    rules = (lore or core_lore()).free_strikes
    return (
        f'<div class="wb-free-strike-rules"><b>Free Strike {monster.free_strike}</b>: '
        f"{_e(rules.summary())}.</div>"
    )


def _abilities(monster: Monster, **_: object) -> str:
    """Its abilities as the book prints them, each with its odds and departures."""
    return "".join(ability_html(monster, a, index) for index, a in enumerate(monster.abilities))


def named_blocks_html(css: str, heading: str, items: Iterable[Trait]) -> str:
    """A generic section of named text blocks (traits, Malice features, villain actions)."""
    items = tuple(items)
    if not items:
        return ""
    parts = []
    for item in items:
        cost = f' <span class="wb-cost">({item.cost} Malice)</span>' if item.cost is not None else ""
        text = (effects_html(item.effects) if item.effects
                else f'<span class="wb-item-text">{_e(item.text)}</span>')
        parts.append(f'<div class="wb-block-item"><b class="wb-item-name">{_e(item.name)}</b>{cost} {text}</div>')
    return f'<div class="{css}"><h4>{heading}</h4>{"".join(parts)}</div>'


def _traits(monster: Monster, **_: object) -> str:
    return named_blocks_html("wb-traits", "Traits", monster.traits)


def _malice_features(monster: Monster, **_: object) -> str:
    """Its own Malice features, then the basic ones with its Malicious Strike range (render/solo.py)."""
    return malice_features_html(monster)


def _villain_actions(monster: Monster, **_: object) -> str:
    """Leaders' and solos' three villain action slots with the rules for using them (render/solo.py)."""
    return villain_actions_html(monster)


def _kept_as_text(monster: Monster, **_: object) -> str:
    """The parts of an imported file kept as its words (a distance in words, a line a pasted text had no
    place for): named, so a Director knows which parts the workbench reads as text only."""
    if not monster.kept_as_text:
        return ""
    items = "".join(f"<li>{_e(k.where)}, {_e(k.part)}: <q>{_e(k.text)}</q></li>" for k in monster.kept_as_text)
    return (f'<div class="wb-kept-as-text"><h4>Kept as text</h4><div class="wb-note">Parts of the file the '
            f"workbench keeps as written, without reading numbers from them:</div><ul>{items}</ul></div>")


def _footer(monster: Monster, **_: object) -> str:
    return f'<div class="wb-note wb-ruleset">Numbers from the “{_e(monster.ruleset)}” ruleset.</div>'


# ---------------------------------------------------------------- abilities (a whole stat block)


def odds_text(bonus: int, damage: tuple[int | None, int | None, int | None] | None = None) -> str:
    """"Tier 1 / 2 / 3: 45% / 39% / 16%; expected damage per use 4.2 (with an edge 4.7, with a bane 3.6)"."""
    odds = tier_odds(bonus)
    text = "Tier 1 / 2 / 3: " + " / ".join(decimal_text(p * 100, 0) + "%" for p in odds)
    if damage is not None and any(d is not None for d in damage):
        plain = decimal_text(expected_damage(damage, bonus), 1)
        edge = decimal_text(expected_damage(damage, bonus, edges=1), 1)
        bane = decimal_text(expected_damage(damage, bonus, banes=1), 1)
        text += f"; expected damage per use {plain} (with an edge {edge}, with a bane {bane})"
    return text


def effects_html(effects: Iterable[Effect], departures: Iterable[Departure] = ()) -> str:
    parts = []
    for effect in effects:
        label = " ".join(x for x in (effect.cost_text, effect.name or "") if x)
        head = f"<b>{_e(label)}:</b> " if label else ""
        rows = tier_rows(effect.tiers, [d for d in departures if d.test]) if effect.tiers else ""
        parts.append(f'<div class="wb-effect">{head}{_e(effect.text)}{rows}</div>')
    return "".join(parts)


def tier_html(tier: Tier, number: int) -> str:
    """A tier's text, escaped, its first damage and its potency's value in elements tests and scripts read
    (`wb-damage-tierN`, `wb-potency-tierN`)."""
    text = _e(tier)
    if tier.damages:
        amount = str(tier.damages[0].amount)
        text = f'<span class="wb-damage-tier{number}">{amount}</span>{text[len(amount):]}'
    if tier.potency is not None:
        text = _POTENCY_VALUE.sub(lambda m: f'{m.group(1)}<span class="wb-potency-tier{number}">{m.group(2)}</span>',
                                  text, count=1)
    return text


_POTENCY_VALUE = re.compile(r"(\b[MARIP] &lt; )(-?\d+)\b")


def tier_rows(tiers: Iterable[Tier], departures: Iterable[Departure]) -> str:
    rows = []
    for number, (label, tier) in enumerate(zip(TIER_LABELS, tiers, strict=True), 1):
        marks = "".join(f'<div class="wb-departure">{_e(d)}</div>' for d in departures if d.tier == number)
        damage = "" if tier.damage is None else f' data-damage="{tier.damage}"'
        rows.append(f'<tr class="wb-tier{number}" data-tier="{number}"{damage}><td>{label}</td>'
                    f"<td>{tier_html(tier, number)}{marks}</td></tr>")
    return f'<table class="wb-tiers">{"".join(rows)}</table>'


def ability_heading_html(ability: Ability) -> str:
    """An ability's lines above its effects, as the book prints them: the name and cost, the flavour, the
    keywords · action · distance · target line, the trigger (the working block and the table copy alike)."""
    cost = f' <span class="wb-cost">{_e(ability.cost_text)}</span>' if ability.cost_text else ""
    meta = [ability.keywords_text, ability.action_text]
    if ability.distance is not None:
        meta.append(str(ability.distance))
    if ability.target is not None:
        meta.append(ability.target.text)
    parts = [f'<h4 class="wb-ability-name">{_e(ability.name)}{cost}</h4>']
    if ability.flavour:
        parts.append(f"<div><i>{_e(ability.flavour)}</i></div>")
    parts.append(f'<div class="wb-ability-meta">{" · ".join(_e(m) for m in meta)}</div>')
    if ability.trigger:
        parts.append(f"<div><b>Trigger:</b> {_e(ability.trigger)}</div>")
    return "".join(parts)


def ability_html(monster: Monster, ability: Ability, index: int = 0) -> str:
    """One ability as the book prints it, with its tier odds, expected damage and departures marked."""
    departures = ability_departures(monster, ability)
    parts = [ability_heading_html(ability), effects_html(ability.effects_before, departures)]
    roll = ability.power_roll
    if roll is not None:
        parts.append(f'<div class="wb-roll"><b>{_e(roll.roll_text)}:</b></div>')
        parts.append(tier_rows(roll.tiers, [d for d in departures if not d.test]))
        parts.append(f'<div class="wb-odds">{_e(odds_text(roll.bonus, roll.damage))}</div>')
    parts.append(effects_html(ability.effects_after, departures))
    return (f'<div class="wb-ability" data-ability="{index}" data-cost="{_e(ability.cost or "")}">'
            f'{"".join(parts)}</div>')


def _effect_markdown(effect: Effect, departures: Iterable[Departure]) -> list[str]:
    label = " ".join(x for x in (effect.cost_text, effect.name or "") if x)
    lines = [f"**{_md(label)}:** {_md(effect.text)}" if label else _md(effect.text)]
    if effect.tiers:
        lines += _tier_markdown(effect.tiers, [d for d in departures if d.test])
    return ["", *lines]


def _tier_markdown(tiers: Iterable[Tier], departures: Iterable[Departure]) -> list[str]:
    lines = []
    for number, (label, tier) in enumerate(zip(TIER_LABELS, tiers, strict=True), 1):
        marks = "".join(f" *({_md(d)})*" for d in departures if d.tier == number)
        lines.append(f"- {label}: {_md(tier)}{marks}")
    return lines


def ability_markdown(monster: Monster, ability: Ability) -> list[str]:
    """One ability as Markdown lines (user text and Markdown structure escaped), with odds and departures."""
    departures = ability_departures(monster, ability)
    cost = f" ({_md(ability.cost_text)})" if ability.cost_text else ""
    meta = [ability.keywords_text, ability.action_text]
    meta += [str(ability.distance)] if ability.distance is not None else []
    meta += [ability.target.text] if ability.target is not None else []
    lines = ["", f"**{_md(ability.name)}**{cost}", "", " · ".join(_md(m) for m in meta)]
    if ability.flavour:
        lines += ["", f"*{_md(ability.flavour)}*"]
    if ability.trigger:
        lines += ["", f"**Trigger:** {_md(ability.trigger)}"]
    for effect in ability.effects_before:
        lines += _effect_markdown(effect, departures)
    roll = ability.power_roll
    if roll is not None:
        lines += ["", f"**{_md(roll.roll_text)}:**", ""]
        lines += _tier_markdown(roll.tiers, [d for d in departures if not d.test])
        lines += ["", f"*{_md(odds_text(roll.bonus, roll.damage))}*"]
    for effect in ability.effects_after:
        lines += _effect_markdown(effect, departures)
    return lines


# The block, top to bottom. Each section takes the monster and keyword options and returns HTML ("" to
# leave itself out); add a section by adding a function here.
SECTIONS: tuple[Callable[..., str], ...] = (
    _header,
    _stats,
    _characteristics,
    _free_strike,
    _abilities,
    _traits,
    homebrew_rules_html,  # attached homebrew rule modules, parameters filled in (render/homebrew_rule.py)
    solo_traits_html,
    _malice_features,
    _villain_actions,
    _kept_as_text,
    _footer,
)


def stat_block_html(
    monster: Monster,
    *,
    lore: Lore | None = None,
    style: bool = True,
    modules: Mapping[str, HomebrewRule] | None = None,
) -> str:
    """The stat block as one HTML fragment (`<div class="wb-stat-block" data-ev=...>`).

    `modules`: the rule modules attached ones are filled from (the shipped ones if None); an attached module
    not among them is named on the block as not loaded.
    """
    options = {"lore": lore, "modules": modules}
    body = "".join(section(monster, **options) for section in SECTIONS)
    data = {
        "level": monster.level,
        "organization": monster.organization,
        "role": monster.role or "",
        "ev": monster.ev,
        "stamina": monster.stamina,
        "free-strike": monster.free_strike,
        "echelon": monster.echelon,
        "highest-characteristic": monster.highest_characteristic,
        "targets": monster.targets,
        "damage": "/".join(map(str, monster.damage.as_tuple())),
        "potency": "/".join(map(str, monster.potency.as_tuple())),
    }
    attributes = " ".join(f'data-{key}="{_e(value)}"' for key, value in data.items())
    return f'{STYLE if style else ""}<div class="wb-stat-block" {attributes}>{body}</div>'


# ---------------------------------------------------------------- Markdown


def stat_block_markdown(
    monster: Monster,
    *,
    lore: Lore | None = None,
    modules: Mapping[str, HomebrewRule] | None = None,
) -> str:
    """The stat block as Markdown, for a notebook cell, a wiki or a document (`modules` as for the HTML)."""
    rules = (lore or core_lore()).free_strikes
    minion = " (four minions)" if monster.organization == "minion" else ""
    size, speed, stability = _header_texts(monster)
    lines = [
        f"### {_md(monster.name or 'New monster')}",
        "",
        f"**Level {monster.level} {_kind(monster)}** · EV {monster.ev}{minion}",
        "",
        f"*{', '.join(_md(k) for k in monster.keywords) or '—'}*",
        "",
        "| Size | Speed | Stamina | Stability | Free Strike |",
        "|---|---|---|---|---|",
        f"| {_md(size)} | {_md(speed)} | {monster.stamina}"
        f"{' (with extra Stamina)' if monster.extra_stamina else ''} | {_md(stability)} "
        f"| {monster.free_strike} |",
        "",
        "| " + " | ".join(c.capitalize() for c in CHARACTERISTICS) + " |",
        "|---|---|---|---|---|",
    ]
    top = monster.characteristics.highest
    lines.append("| " + " | ".join("—" if value is None else f"**{_signed(value)}**" if value == top
                                     else _signed(value) for _, value in monster.characteristics.items()) + " |")
    for label, text in _defences(monster):
        lines += ["", f"**{_md(label)}** {_md(text)}"]
    lines += ["", f"**Free Strike {monster.free_strike}**: {_md(rules.summary())}."]
    for ability in monster.abilities:
        lines += ability_markdown(monster, ability)
    for heading, items in (("Traits", monster.traits),):
        if items:
            lines += ["", f"#### {heading}", ""]
            for item in items:
                cost = f" ({item.cost} Malice)" if item.cost is not None else ""
                text = " ".join(f"**{_md(e.name)}:** {_md(e.text)}" if e.name else _md(e.text) for e in item.effects)
                lines.append(f"- **{_md(item.name)}**{cost} {text or _md(item.text)}")
    lines += homebrew_rules_markdown_lines(monster, modules)  # attached homebrew rule modules
    lines += solo_markdown_lines(monster)  # solo traits, Malice features, villain actions (render/solo.py)
    if monster.kept_as_text:
        lines += ["", "#### Kept as text", ""]
        lines += [f"- {_md(k.where)}, {_md(k.part)}: “{_md(k.text)}”" for k in monster.kept_as_text]
    lines += ["", f"*Numbers from the “{_md(monster.ruleset)}” ruleset.*"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- how was this computed


def _steps(monster: Monster, steps: Iterable[Step] | None) -> tuple[Step, ...]:
    if steps is None and is_instant_solo(monster):
        return explain_instant_solo(monster)  # its EV and Stamina come from "Instant Solo Creature"
    return tuple(steps) if steps is not None else explain(monster)


def _slug(quantity: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in quantity.lower()).strip("-").replace("--", "-")


def explain_html(monster: Monster, steps: Iterable[Step] | None = None, *, style: bool = False) -> str:
    """Each number's formula, this monster's values plugged in, the value, its rules section and reading."""
    rows = []
    for step in _steps(monster, steps):
        reading = _e(step.reading) if step.reading else '<span class="wb-note">as written</span>'
        rows.append(
            f'<tr data-quantity="{_slug(step.quantity)}"><td>{_e(step.quantity)}</td>'
            f"<td>{_e(step.formula)}</td>"
            f'<td class="wb-working">{_e(step.working)} = <b>{step.value}</b></td>'
            f'<td class="wb-value">{step.value}</td><td>“{_e(step.section)}”</td><td>{reading}</td></tr>'
        )
    head = "".join(
        f"<th>{h}</th>" for h in ("Number", "Formula", "This monster", "Value", "Rules section", "Reading")
    )
    return (
        f'{STYLE if style else ""}<div class="wb-explain"><table><tr>{head}</tr>{"".join(rows)}</table></div>'
    )


def explain_markdown(monster: Monster, steps: Iterable[Step] | None = None) -> str:
    """The same view as a Markdown table."""
    lines = [
        "| Number | Formula | This monster | Rules section | Reading |",
        "|---|---|---|---|---|",
    ]
    for step in _steps(monster, steps):
        lines.append(
            f"| {_md(step.quantity)} | {_md(step.formula)} | {_md(step.working)} = **{step.value}** "
            f"| {_md(step.section)} | {_md(step.reading or 'as written')} |"
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the ready-made Noncombatant


def noncombatant_html(lore: Lore | None = None, *, style: bool = True) -> str:
    """The rules' "Noncombatant" stat block (from `data/lore/`), laid out like any other block."""
    block = (lore or core_lore()).noncombatant
    rows = []
    for group in (block.fields[:5], block.fields[5:9], block.fields[9:]):
        head = "".join(f"<th>{_e(f.label)}</th>" for f in group)
        body = "".join(f"<td>{_e(f.value)}</td>" for f in group)
        rows.append(f"<table><tr>{head}</tr><tr>{body}</tr></table>")
    return (
        f'{STYLE if style else ""}<div class="wb-stat-block wb-noncombatant">'
        f'<div class="wb-head"><span class="wb-name">{_e(block.name)}</span>'
        f"<span>Level {_e(block.level)}</span><span>EV {_e(block.ev)}</span></div>"
        f'<div class="wb-keywords">{_e(block.keywords)}</div>{"".join(rows)}'
        f'<div class="wb-note">{_e(block.size_note)}</div>'
        f'<div class="wb-note">{_e(block.introduction)} (“Harmless Creatures”)</div></div>'
    )
