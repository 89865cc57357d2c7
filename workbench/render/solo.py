"""Stat block sections for solos and leaders, and the instant-solo-beside-built-solo comparison, as HTML.

Sections (each `section(monster, **options) -> str`, "" to leave itself out, like the stat block's own):
`malice_features_html` (the monster's own Malice features, then the basic ones every monster has, with
this monster's Malicious Strike range), `villain_actions_html` (three numbered slots and the book's rules
for using them, on leaders and solos), `solo_traits_html` (Solo Turns and End Effect on a solo that does not
already list them). Every string a user typed is plain text in `Markup` HTML (escaped); only div, span, table, tr, td,
th, h4 and b elements are produced, like the rest of the block.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.fight.malice_features import malicious_strike_range
from workbench.model import Monster, Trait
from workbench.monster.solo import SoloComparison, is_instant_solo
from workbench.monster.villain_action import extra_villain_actions, has_villain_actions, villain_action_slots
from workbench.render.effects import item_html, item_markdown
from workbench.render.escape import Markup, join, stylesheet
from workbench.render.markdown_text import md_inline as _md
from workbench.rules.feature_book import feature_book

__all__ = [
    "COMPARISON_STYLE",
    "comparison_html",
    "malice_features_html",
    "solo_markdown_lines",
    "solo_title",
    "solo_traits_html",
    "villain_actions_html",
]

COMPARISON_STYLE = stylesheet()


def _item(item: Trait, css: str = "wb-block-item", extra: str = "") -> str:
    cost = Markup(' <span class="wb-cost">({} Malice)</span>').format(item.cost) if item.cost is not None else ""
    return Markup('<div class="{}"><b class="wb-item-name">{}</b>{} {}{}</div>').format(
        css, item.name, cost, item_html(item), extra)


def _missing_solo_traits(monster: Monster) -> list[Trait]:
    """Solo Turns and End Effect, for a solo whose traits do not list them already (by name)."""
    if monster.organization != "solo":
        return []
    have = {t.name.strip().casefold() for t in monster.traits}
    return [Trait.from_book(t) for t in feature_book().instant_solo.traits if t.name.casefold() not in have]


def _malicious_strike_numbers(monster: Monster) -> tuple[int, int, int]:
    """(least extra damage, most extra damage, the Malice that buys the most) for this monster."""
    low, high = malicious_strike_range(monster)
    rule = feature_book().malicious_strike
    return low, high, rule.base_cost + (high - low) // rule.extra_damage_per_malice


def solo_title(monster: Monster) -> str:
    """ "Level 5 Leader, instant solo" for an instant solo; "Level 5 Solo" otherwise (plain text)."""
    kind = " ".join(p.capitalize() for p in (monster.organization, monster.role) if p)
    suffix = ", instant solo" if is_instant_solo(monster) else ""
    return f"Level {monster.level} {kind}{suffix}"


def malice_features_html(monster: Monster, *, basic: bool = True, **_: object) -> str:
    """The monster's own Malice features, then (with `basic`) the basic ones with this monster's numbers.

    Malicious Strike shows this monster's extra damage: its highest characteristic for 5 Malice, up to three
    times it ("Basic Malice Features").
    """
    book = feature_book()
    parts = [_item(f) for f in monster.malice_features]
    if basic:
        low, high, most = _malicious_strike_numbers(monster)
        rule = book.malicious_strike
        rows = []
        for entry in book.basic_malice.features:
            extra = ""
            if entry.name == rule.name:
                extra = (
                    Markup(' <span class="wb-malicious-strike-range" data-low="{}" data-high="{}">'
                    "<b>This monster:</b> +{} damage for {} Malice, up to +{} "
                    "for {} Malice.</span>").format(low, high, low, rule.base_cost, high, most)
                )
            cost = Markup(' <span class="wb-cost">({})</span>').format(entry.cost_label)
            rows.append(
                Markup('<div class="wb-block-item wb-basic-malice-item"><b class="wb-item-name">{}</b>'
                '{} <span class="wb-item-text">{}</span>{}</div>').format(entry.name, cost, entry.text, extra)
            )
        parts.append(
            Markup('<div class="wb-basic-malice"><div class="wb-note"><b>{}</b> '
            "(every monster): {}</div>{}</div>").format(book.basic_malice.section, book.basic_malice.timing, join(rows))
        )
    if not parts:
        return ""
    return Markup('<div class="wb-malice-features"><h4>Malice Features</h4>{}</div>').format(join(parts))


def villain_actions_html(monster: Monster, **_: object) -> str:
    """Leaders' and solos' three villain actions by slot, with the book's rules for using them.

    Text a homebrewer wrote that the slots cannot hold (a fourth action, or villain actions on a monster
    that has none by the rules) is still shown, with a note, never dropped.
    """
    book = feature_book().villain_actions
    extras = extra_villain_actions(monster)
    extra_html = ""
    if extras:
        why = (
            f"a creature with villain actions always has {book.count}"
            if has_villain_actions(monster) else "only leaders and solos have villain actions"
        )
        extra_html = (
            Markup('<div class="wb-note wb-villain-extra">Not used by the rules ({}):</div>').format(why)
            + join(_item(a) for a in extras)
        )
    if not has_villain_actions(monster):
        return Markup('<div class="wb-villain-actions"><h4>Villain Actions</h4>{}</div>').format(extra_html) if extras else ""
    rows = []
    for number, filled in enumerate(villain_action_slots(monster, strict=False), 1):
        slot = filled.slot
        label = Markup('<span class="wb-villain-slot">{}. {}</span>').format(number, slot.name)
        if filled.action is None:
            body = (
                Markup('<span class="wb-note wb-villain-empty">not written yet. {}</span>').format(slot.text)
            )
        else:
            cost = (
                Markup(' <span class="wb-cost">({} Malice)</span>').format(filled.action.cost)
                if filled.action.cost is not None else ""
            )
            body = Markup('<b class="wb-item-name">{}</b>{} {}').format(filled.action.name, cost, item_html(filled.action))
        rows.append(Markup('<div class="wb-block-item" data-slot="{}">{}: {}</div>').format(slot.key, label, body))
    rules = join(book.rules, " ")
    return (
        Markup('<div class="wb-villain-actions"><h4>Villain Actions</h4>'
        '<div class="wb-villain-rules"><b>{}</b></div>'
        "{}{}"
        '<div class="wb-note">“{}”: {}</div></div>').format(book.summary, join(rows), extra_html, book.section, rules)
    )


def solo_traits_html(monster: Monster, **_: object) -> str:
    """Solo Turns and End Effect for a solo whose traits do not list them already.

    An instant solo carries them in its traits (the stat block's Traits section shows them); a solo built
    from the formulas gets the same two traits here, as every solo in the book has them (our reading).
    """
    missing = _missing_solo_traits(monster)
    if not missing:
        return ""
    items = join(_item(t) for t in missing)
    return Markup('<div class="wb-solo-traits"><h4>Solo Traits</h4>{}</div>').format(items)


def _md_item(item: Trait) -> list[str]:
    cost = f" ({item.cost} Malice)" if item.cost is not None else ""
    return item_markdown(f"- **{_md(item.name)}**{cost}", item)


def solo_markdown_lines(monster: Monster, *, basic: bool = True) -> list[str]:
    """The same sections as Markdown lines: solo traits, Malice features (with the basic ones), villain actions."""
    book = feature_book()
    lines: list[str] = []
    missing = _missing_solo_traits(monster)
    if missing:
        lines += ["", "#### Solo Traits", "", *(line for t in missing for line in _md_item(t))]
    features = [line for f in monster.malice_features for line in _md_item(f)]
    if basic:
        low, high, most = _malicious_strike_numbers(monster)
        rule = book.malicious_strike
        features.append(f"- *{_md(book.basic_malice.section)}* (every monster): {_md(book.basic_malice.timing)}")
        for entry in book.basic_malice.features:
            extra = (
                f" **This monster:** +{low} damage for {rule.base_cost} Malice, up to +{high} for {most} Malice."
                if entry.name == rule.name else ""
            )
            features.append(f"  - **{_md(entry.name)}** ({_md(entry.cost_label)}) {_md(entry.text)}{extra}")
    if features:
        lines += ["", "#### Malice Features", "", *features]
    extras = [line for a in extra_villain_actions(monster) for line in _md_item(a)]
    if extras and not has_villain_actions(monster):
        lines += ["", "#### Villain Actions", "", "*Not used by the rules (only leaders and solos have them):*",
                  "", *extras]
    if has_villain_actions(monster):
        lines += ["", "#### Villain Actions", "", f"*{_md(book.villain_actions.summary)}*", ""]
        for number, filled in enumerate(villain_action_slots(monster, strict=False), 1):
            head = f"{number}. {_md(filled.slot.name)}:"
            if filled.action is None:
                lines.append(f"{head} *not written yet.* {_md(filled.slot.text)}")
            else:
                cost = f" ({filled.action.cost} Malice)" if filled.action.cost is not None else ""
                lines += item_markdown(f"{head} **{_md(filled.action.name)}**{cost}", filled.action, "   ")
        if extras:
            lines += ["", f"*Not used by the rules (a creature with villain actions always has "
                          f"{book.villain_actions.count}):*", "", *extras]
    return lines


def _cells(values: Iterable[object], tag: str = "td") -> str:
    return join(Markup("<{}>{}</{}>").format(tag, v, tag) for v in values)


def comparison_html(comparison: SoloComparison, *, style: bool = True) -> str:
    """The instant solo and the built solo number by number, then the differences in plain words."""
    instant, built = comparison.instant, comparison.built
    head = _cells(("", solo_title(instant), solo_title(built), "Built − instant"), "th")
    rows = []
    for row in comparison.rows:
        css = Markup(' class="wb-differs"') if row.difference else ""
        slug = row.quantity.lower().replace(",", "").replace(" ", "-")
        diff = f"{row.difference:+d}" if row.difference else "0"
        rows.append(
            Markup('<tr{} data-quantity="{}"><td>{}</td>'
            '<td class="wb-instant">{}</td><td class="wb-built">{}</td>'
            '<td class="wb-difference">{}</td></tr>').format(css, slug, row.quantity, row.instant, row.built, diff)
        )
    notes = join(Markup("<div>{}</div>").format(n) for n in comparison.notes)
    return (
        Markup('{}<div class="wb-solo-compare">'
        "<table><tr>{}</tr>{}</table>"
        '<div class="wb-notes"><h4>What differs, and why</h4>{}</div></div>').format(COMPARISON_STYLE if style else "", head, join(rows), notes)
    )
