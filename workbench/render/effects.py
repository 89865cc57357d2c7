"""A stat block's paragraphs and tier tables, drawn the same for an ability, a trait, a Malice feature and a
villain action, in HTML and in Markdown.

A published feature keeps its paragraphs (`Trait.effects`): a paragraph's price ("5 Malice:"), its name
("End Effect:") and the tiers of a test it calls for are the book's text as much as its words, so every view
of the block draws them from here rather than from the feature's one-line `text`. User text is escaped:
`Markup` in HTML, `md_inline` in Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from workbench.model import Effect, Tier, Trait
from workbench.model.ability import TIER_LABELS
from workbench.monster.departure import Departure
from workbench.render.escape import Markup, escape, join
from workbench.render.markdown_text import md_inline as _md

__all__ = [
    "TIER_LABELS",
    "effect_markdown",
    "effects_html",
    "item_html",
    "item_markdown",
    "tier_html",
    "tier_markdown",
    "tier_rows",
]

_POTENCY_VALUE = re.compile(r"(\b[MARIP] &lt; )(-?\d+)\b")


def _label(effect: Effect) -> str:
    """What the paragraph opens with in bold: its price and its name ("5 Malice", "End Effect"), or ""."""
    return " ".join(x for x in (effect.cost_text, effect.name or "") if x)


def tier_html(tier: Tier, number: int) -> str:
    """A tier's text, escaped, its first damage and its potency's value in elements tests and scripts read
    (`wb-damage-tierN`, `wb-potency-tierN`)."""
    text = escape(tier)
    if tier.damages:
        amount = str(tier.damages[0].amount)
        text = Markup('<span class="wb-damage-tier{}">{}</span>{}').format(number, amount, text[len(amount):])
    if tier.potency is not None:
        text = Markup(_POTENCY_VALUE.sub(
            lambda m: Markup('{}<span class="wb-potency-tier{}">{}</span>').format(Markup(m.group(1)), number, m.group(2)),
            text, count=1))
    return text


def tier_rows(tiers: Iterable[Tier], departures: Iterable[Departure]) -> str:
    rows = []
    for number, (label, tier) in enumerate(zip(TIER_LABELS, tiers, strict=True), 1):
        marks = join(Markup('<div class="wb-departure">{}</div>').format(d) for d in departures if d.tier == number)
        damage = Markup(' data-damage="{}"').format(tier.damage) if tier.damage is not None else ""
        rows.append(Markup('<tr class="wb-tier{}" data-tier="{}"{}><td>{}</td>'
                    "<td>{}{}</td></tr>").format(number, number, damage, label, tier_html(tier, number), marks))
    return Markup('<table class="wb-tiers">{}</table>').format(join(rows))


def effects_html(effects: Iterable[Effect], departures: Iterable[Departure] = ()) -> str:
    parts = []
    for effect in effects:
        label = _label(effect)
        head = Markup("<b>{}:</b> ").format(label) if label else ""
        rows = tier_rows(effect.tiers, [d for d in departures if d.test]) if effect.tiers else ""
        parts.append(Markup('<div class="wb-effect">{}{}{}</div>').format(head, effect.text, rows))
    return join(parts)


def item_html(item: Trait) -> str:
    """A trait's, Malice feature's or villain action's words: its paragraphs where it keeps them, else its text."""
    if item.effects:
        return effects_html(item.effects)
    return Markup('<span class="wb-item-text">{}</span>').format(item.text)


def tier_markdown(tiers: Iterable[Tier], departures: Iterable[Departure] = ()) -> list[str]:
    lines = []
    for number, (label, tier) in enumerate(zip(TIER_LABELS, tiers, strict=True), 1):
        marks = join(f" *({_md(d)})*" for d in departures if d.tier == number)
        lines.append(f"- {label}: {_md(tier)}{marks}")
    return lines


def effect_markdown(effect: Effect, departures: Iterable[Departure] = ()) -> list[str]:
    """A paragraph as Markdown lines after a blank one: its bold price and name, its words, its tiers' list."""
    label = _label(effect)
    lines = [f"**{_md(label)}:** {_md(effect.text)}" if label else _md(effect.text)]
    if effect.tiers:
        lines += tier_markdown(effect.tiers, [d for d in departures if d.test])
    return ["", *lines]


def item_markdown(head: str, item: Trait, indent: str = "  ") -> list[str]:
    """A trait, Malice feature or villain action as a Markdown list item: `head` ("- **Name** (3 Malice)") and
    its first paragraph on one line, each further paragraph and every tier list indented under it."""
    if not item.effects:
        return [f"{head} {_md(item.text)}".rstrip()]
    first, *rest = effect_markdown(item.effects[0])[1:]
    lines = [f"{head} {first}".rstrip(), *(f"{indent}{line}" for line in rest)]
    for effect in item.effects[1:]:
        lines += [f"{indent}{line}" if line else line for line in effect_markdown(effect)]
    return lines
