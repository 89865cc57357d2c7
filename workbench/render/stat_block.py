"""A monster as a book-style stat block (HTML and Markdown) and its "how was this computed" view.

The block is built from one small function per section (`SECTIONS`), so a leader's villain actions or a
solo's traits can be added as another section without touching the rest. Every string a user typed
(name, keywords, trait text) is plain text in `Markup` HTML, so escaped, before it shows, and key numbers sit in
elements with stable classes and `data-*` attributes (`<span class="wb-ev">28</span>`) for browser tests.

The block draws the monster and nothing else: its characteristics (the highest marked), its abilities with
their tiers (a formula monster's signature ability is one of them, written in by `build_monster`), so every
export of a monster carries what its block shows. `modules` are the homebrew rule modules the block can fill
in, by id (`workbench.homebrew.rule.load_rules(folder)` for a Director's own folder); None means the shipped
ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from workbench.homebrew.rule import HomebrewRule
from workbench.model import CHARACTERISTICS, Ability, Monster, Step, Trait
from workbench.monster.departure import ability_departures
from workbench.monster.formulas import explain
from workbench.monster.power_roll import expected_damage, tier_odds
from workbench.monster.solo import explain_instant_solo, is_instant_solo
from workbench.render.effects import (
    effect_markdown,
    effects_html,
    item_html,
    item_markdown,
    tier_markdown,
    tier_rows,
)
from workbench.render.escape import Markup, join, stylesheet, tag
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
    "ability_heading_html",
    "ability_html",
    "ability_markdown",
    "defences_html",
    "header_parts",
    "name_line_html",
    "named_blocks_html",
    "odds_text",
    "explain_html",
    "explain_markdown",
    "noncombatant_html",
    "stat_block_html",
    "stat_block_markdown",
]

STYLE = stylesheet()  # the one stylesheet, given with a block shown on its own (`style=True`)


def _title_case(word: str | None) -> str:
    return word.capitalize() if word else ""


def _kind(monster: Monster) -> str:
    kind = " ".join(_title_case(p) for p in (monster.organization, monster.role) if p)
    return f"{kind}, instant solo" if is_instant_solo(monster) else kind


# ---------------------------------------------------------------- HTML sections


def name_line_html(monster: Monster, name: str, kind: str) -> Markup:
    """The block's name line: `name`, "Level N `kind`", the EV ("(four minions)" beside a minion's), the
    numbers in elements tests and scripts read (`wb-level`, `wb-ev`); `name` and `kind` are escaped here."""
    minion = Markup(' <span class="wb-note">(four minions)</span>') if monster.organization == "minion" else ""
    return Markup(
        '<div class="wb-head">'
        '<span class="wb-name">{}</span>'
        '<span class="wb-title">Level <span class="wb-level">{}</span> '
        '<span class="wb-kind">{}</span></span>'
        '<span class="wb-ev-box">EV <span class="wb-ev">{}</span>{}</span>'
        "</div>"
    ).format(name, monster.level, kind, monster.ev, minion)


def _header(monster: Monster, **_: object) -> Markup:
    keywords = ", ".join(monster.keywords) or "—"
    return name_line_html(monster, monster.name or "New monster", _kind(monster)) + tag(
        "div", keywords, class_="wb-keywords")


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


def defences_html(monster: Monster) -> Markup:
    """The immunity, weakness and With Captain lines under the numbers, as HTML (user text escaped)."""
    return join(Markup('<div class="wb-defence"><b>{}</b> {}</div>').format(label, text) for label, text in
                _defences(monster))


def _stats(monster: Monster, **_: object) -> str:
    extra = Markup(' <span class="wb-note">(+extra)</span>') if monster.extra_stamina else ""
    size, speed, stability = _header_texts(monster)
    cells = (
        ("Size", size),
        ("Speed", speed),
        ("Stamina", Markup('<span class="wb-stamina">{}</span>{}').format(monster.stamina, extra)),
        ("Stability", stability),
        ("Free Strike", Markup('<span class="wb-free-strike">{}</span>').format(monster.free_strike)),
    )
    head = join(Markup("<th>{}</th>").format(label) for label, _ in cells)
    body = join(Markup("<td>{}</td>").format(value) for _, value in cells)
    return Markup('<table class="wb-stats"><tr>{}</tr><tr>{}</tr></table>{}').format(head, body, defences_html(monster))


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
            cells.append(Markup('<td data-characteristic="{}" title="not set by the formulas">—</td>').format(name))
        elif value == top:
            cells.append(Markup('<td class="wb-highest" data-characteristic="{}">'
                         '<span class="wb-highest-value">{}</span></td>').format(name, _signed(value)))
        else:
            cells.append(Markup('<td data-characteristic="{}">{}</td>').format(name, _signed(value)))
    head = join(Markup("<th>{}</th>").format(name.capitalize()) for name in CHARACTERISTICS)
    note = (
        Markup('<div class="wb-note">The formulas give only the highest characteristic '
               "(1 + echelon {}{}); the others are yours to choose below it.</div>").format(
            monster.echelon, ", +1 for a leader or solo" if monster.organization in ("leader", "solo") else "")
    ) if not chosen.known else ""
    return (Markup('<table class="wb-characteristics"><tr>{}</tr><tr>{}</tr></table>{}').format(head, join(cells), note)
            + _characteristic_departure(monster, top))


def _characteristic_departure(monster: Monster, highest: int | None) -> str:
    """A line marking a highest characteristic that is not the formulas' 1 + echelon (nothing when it is)."""
    if highest is None or highest == monster.highest_characteristic:
        return ""
    return (Markup('<div class="wb-note wb-departs" data-formula="{}">Highest '
            "characteristic {}: the formulas give {} "
            "at this level.</div>").format(monster.highest_characteristic, _signed(highest), _signed(monster.highest_characteristic)))


def _free_strike(monster: Monster, *, lore: Lore | None = None, **_: object) -> str:
    rules = (lore or core_lore()).free_strikes
    return (
        Markup('<div class="wb-free-strike-rules"><b>Free Strike {}</b>: '
        "{}.</div>").format(monster.free_strike, rules.summary())
    )


def _abilities(monster: Monster, **_: object) -> str:
    """Its abilities as the book prints them, each with its odds and departures."""
    return join(ability_html(monster, a, index) for index, a in enumerate(monster.abilities))


def named_blocks_html(css: str, heading: str, items: Iterable[Trait]) -> str:
    """A generic section of named text blocks (traits, Malice features, villain actions)."""
    items = tuple(items)
    if not items:
        return ""
    parts = []
    for item in items:
        cost = Markup(' <span class="wb-cost">({} Malice)</span>').format(item.cost) if item.cost is not None else ""
        parts.append(Markup('<div class="wb-block-item"><b class="wb-item-name">{}</b>{} {}</div>').format(
            item.name, cost, item_html(item)))
    return Markup('<div class="{}"><h4>{}</h4>{}</div>').format(css, heading, join(parts))


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
    items = join(Markup("<li>{}, {}: <q>{}</q></li>").format(k.where, k.part, k.text) for k in monster.kept_as_text)
    return (Markup('<div class="wb-kept-as-text"><h4>Kept as text</h4><div class="wb-note">Parts of the file the '
            "workbench keeps as written, without reading numbers from them:</div><ul>{}</ul></div>").format(items))


def _footer(monster: Monster, **_: object) -> str:
    return Markup('<div class="wb-note wb-ruleset">Numbers from the “{}” ruleset.</div>').format(monster.ruleset)


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


def ability_heading_html(ability: Ability) -> str:
    """An ability's lines above its effects, as the book prints them: the name and cost, the flavour, the
    keywords · action · distance · target line, the trigger (the working block and the table copy alike)."""
    cost = Markup(' <span class="wb-cost">{}</span>').format(ability.cost_text) if ability.cost_text else ""
    meta = [ability.keywords_text, ability.action_text]
    if ability.distance is not None:
        meta.append(str(ability.distance))
    if ability.target is not None:
        meta.append(ability.target.text)
    parts = [Markup('<h4 class="wb-ability-name">{}{}</h4>').format(ability.name, cost)]
    if ability.flavour:
        parts.append(Markup("<div><i>{}</i></div>").format(ability.flavour))
    parts.append(Markup('<div class="wb-ability-meta">{}</div>').format(join(meta, " · ")))
    if ability.trigger:
        parts.append(Markup("<div><b>Trigger:</b> {}</div>").format(ability.trigger))
    return join(parts)


def ability_html(monster: Monster, ability: Ability, index: int = 0) -> str:
    """One ability as the book prints it, with its tier odds, expected damage and departures marked."""
    departures = ability_departures(monster, ability)
    parts = [ability_heading_html(ability), effects_html(ability.effects_before, departures)]
    roll = ability.power_roll
    if roll is not None:
        parts.append(Markup('<div class="wb-roll"><b>{}:</b></div>').format(roll.roll_text))
        parts.append(tier_rows(roll.tiers, [d for d in departures if not d.test]))
        parts.append(Markup('<div class="wb-odds">{}</div>').format(odds_text(roll.bonus, roll.damage)))
    parts.append(effects_html(ability.effects_after, departures))
    return (Markup('<div class="wb-ability" data-ability="{}" data-cost="{}">'
            '{}</div>').format(index, ability.cost or "", join(parts)))


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
        lines += effect_markdown(effect, departures)
    roll = ability.power_roll
    if roll is not None:
        lines += ["", f"**{_md(roll.roll_text)}:**", ""]
        lines += tier_markdown(roll.tiers, [d for d in departures if not d.test])
        lines += ["", f"*{_md(odds_text(roll.bonus, roll.damage))}*"]
    for effect in ability.effects_after:
        lines += effect_markdown(effect, departures)
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
    body = join(section(monster, **options) for section in SECTIONS)
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
    attributes = join((Markup('data-{}="{}"').format(key, value) for key, value in data.items()), " ")
    return Markup('{}<div class="wb-stat-block" {}>{}</div>').format(STYLE if style else "", attributes, body)


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
                lines += item_markdown(f"- **{_md(item.name)}**{cost}", item)
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
    return join(c if c.isalnum() else "-" for c in quantity.lower()).strip("-").replace("--", "-")


def explain_html(monster: Monster, steps: Iterable[Step] | None = None, *, style: bool = False) -> str:
    """Each number's formula, this monster's values plugged in, the value, its rules section and reading."""
    rows = []
    for step in _steps(monster, steps):
        reading = step.reading or Markup('<span class="wb-note">as written</span>')
        rows.append(
            Markup('<tr data-quantity="{}"><td>{}</td>'
            "<td>{}</td>"
            '<td class="wb-working">{} = <b>{}</b></td>'
            '<td class="wb-value">{}</td><td>“{}”</td><td>{}</td></tr>').format(_slug(step.quantity), step.quantity, step.formula, step.working, step.value, step.value, step.section, reading)
        )
    head = join(
        Markup("<th>{}</th>").format(h) for h in ("Number", "Formula", "This monster", "Value", "Rules section", "Reading")
    )
    return (
        Markup('{}<div class="wb-explain"><table><tr>{}</tr>{}</table></div>').format(STYLE if style else "", head, join(rows))
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
        head = join(Markup("<th>{}</th>").format(f.label) for f in group)
        body = join(Markup("<td>{}</td>").format(f.value) for f in group)
        rows.append(Markup("<table><tr>{}</tr><tr>{}</tr></table>").format(head, body))
    return (
        Markup('{}<div class="wb-stat-block wb-noncombatant">'
        '<div class="wb-head"><span class="wb-name">{}</span>'
        "<span>Level {}</span><span>EV {}</span></div>"
        '<div class="wb-keywords">{}</div>{}'
        '<div class="wb-note">{}</div>'
        '<div class="wb-note">{} (“Harmless Creatures”)</div></div>').format(STYLE if style else "", block.name, block.level, block.ev, block.keywords, join(rows), block.size_note, block.introduction)
    )
