"""Stat block sections for solos and leaders, and the instant-solo-beside-built-solo comparison, as HTML.

Sections (each `section(monster, **options) -> str`, "" to leave itself out, like the stat block's own):
`malice_features_html` (the monster's own Malice features, then the basic ones every monster has, with
this monster's Malicious Strike range), `villain_actions_html` (three numbered slots and the book's rules
for using them, on leaders and solos), `solo_traits_html` (Solo Turns and End Effect on a solo that does not
already list them). Every string a user typed passes through `html.escape`; only div, span, table, tr, td,
th, h4 and b elements are produced, like the rest of the block.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.fight.malice_features import malicious_strike_range
from workbench.model import Monster, Trait
from workbench.monster.solo import SoloComparison, is_instant_solo
from workbench.monster.villain_action import extra_villain_actions, has_villain_actions, villain_action_slots
from workbench.render.escape import escape_html as _e
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

COMPARISON_STYLE = """<style>
.wb-solo-compare table{border-collapse:collapse;font-family:system-ui,sans-serif}
.wb-solo-compare td,.wb-solo-compare th{border-bottom:1px solid #ddd;padding:.2em .6em;text-align:right}
.wb-solo-compare td:first-child,.wb-solo-compare th:first-child{text-align:left}
.wb-solo-compare .wb-differs{background:#f6e3c8}
.wb-solo-compare .wb-notes div{margin:.25em 0;font-family:system-ui,sans-serif}
</style>"""


def _item(item: Trait, css: str = "wb-block-item", extra: str = "") -> str:
    cost = f' <span class="wb-cost">({item.cost} Malice)</span>' if item.cost is not None else ""
    return (
        f'<div class="{css}"><b class="wb-item-name">{_e(item.name)}</b>{cost} '
        f'<span class="wb-item-text">{_e(item.text)}</span>{extra}</div>'
    )


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
                    f' <span class="wb-malicious-strike-range" data-low="{low}" data-high="{high}">'
                    f"<b>This monster:</b> +{low} damage for {rule.base_cost} Malice, up to +{high} "
                    f"for {most} Malice.</span>"
                )
            cost = f' <span class="wb-cost">({_e(entry.cost_label)})</span>'
            rows.append(
                f'<div class="wb-block-item wb-basic-malice-item"><b class="wb-item-name">{_e(entry.name)}</b>'
                f'{cost} <span class="wb-item-text">{_e(entry.text)}</span>{extra}</div>'
            )
        parts.append(
            f'<div class="wb-basic-malice"><div class="wb-note"><b>{_e(book.basic_malice.section)}</b> '
            f"(every monster): {_e(book.basic_malice.timing)}</div>{''.join(rows)}</div>"
        )
    if not parts:
        return ""
    return f'<div class="wb-malice-features"><h4>Malice Features</h4>{"".join(parts)}</div>'


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
            f'<div class="wb-note wb-villain-extra">Not used by the rules ({_e(why)}):</div>'
            + "".join(_item(a) for a in extras)
        )
    if not has_villain_actions(monster):
        return f'<div class="wb-villain-actions"><h4>Villain Actions</h4>{extra_html}</div>' if extras else ""
    rows = []
    for number, filled in enumerate(villain_action_slots(monster, strict=False), 1):
        slot = filled.slot
        label = f'<span class="wb-villain-slot">{number}. {_e(slot.name)}</span>'
        if filled.action is None:
            body = (
                f'<span class="wb-note wb-villain-empty">not written yet. {_e(slot.text)}</span>'
            )
        else:
            cost = (
                f' <span class="wb-cost">({filled.action.cost} Malice)</span>'
                if filled.action.cost is not None else ""
            )
            body = (
                f'<b class="wb-item-name">{_e(filled.action.name)}</b>{cost} '
                f'<span class="wb-item-text">{_e(filled.action.text)}</span>'
            )
        rows.append(f'<div class="wb-block-item" data-slot="{_e(slot.key)}">{label}: {body}</div>')
    rules = " ".join(_e(p) for p in book.rules)
    return (
        f'<div class="wb-villain-actions"><h4>Villain Actions</h4>'
        f'<div class="wb-villain-rules"><b>{_e(book.summary)}</b></div>'
        f"{''.join(rows)}{extra_html}"
        f'<div class="wb-note">“{_e(book.section)}”: {rules}</div></div>'
    )


def solo_traits_html(monster: Monster, **_: object) -> str:
    """Solo Turns and End Effect for a solo whose traits do not list them already.

    An instant solo carries them in its traits (the stat block's Traits section shows them); a solo built
    from the formulas gets the same two traits here, as every solo in the book has them (our reading).
    """
    missing = _missing_solo_traits(monster)
    if not missing:
        return ""
    items = "".join(_item(t) for t in missing)
    return f'<div class="wb-solo-traits"><h4>Solo Traits</h4>{items}</div>'


def _md_item(item: Trait) -> str:
    cost = f" ({item.cost} Malice)" if item.cost is not None else ""
    return f"- **{_md(item.name)}**{cost} {_md(item.text)}"


def solo_markdown_lines(monster: Monster, *, basic: bool = True) -> list[str]:
    """The same sections as Markdown lines: solo traits, Malice features (with the basic ones), villain actions."""
    book = feature_book()
    lines: list[str] = []
    missing = _missing_solo_traits(monster)
    if missing:
        lines += ["", "#### Solo Traits", "", *(_md_item(t) for t in missing)]
    features = [_md_item(f) for f in monster.malice_features]
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
    extras = [_md_item(a) for a in extra_villain_actions(monster)]
    if extras and not has_villain_actions(monster):
        lines += ["", "#### Villain Actions", "", "*Not used by the rules (only leaders and solos have them):*",
                  "", *extras]
    if has_villain_actions(monster):
        lines += ["", "#### Villain Actions", "", f"*{_md(book.villain_actions.summary)}*", ""]
        for number, filled in enumerate(villain_action_slots(monster, strict=False), 1):
            if filled.action is None:
                body = f"*not written yet.* {_md(filled.slot.text)}"
            else:
                cost = f" ({filled.action.cost} Malice)" if filled.action.cost is not None else ""
                body = f"**{_md(filled.action.name)}**{cost} {_md(filled.action.text)}"
            lines.append(f"{number}. {_md(filled.slot.name)}: {body}")
        if extras:
            lines += ["", f"*Not used by the rules (a creature with villain actions always has "
                          f"{book.villain_actions.count}):*", "", *extras]
    return lines


def _cells(values: Iterable[object], tag: str = "td") -> str:
    return "".join(f"<{tag}>{_e(v)}</{tag}>" for v in values)


def comparison_html(comparison: SoloComparison, *, style: bool = True) -> str:
    """The instant solo and the built solo number by number, then the differences in plain words."""
    instant, built = comparison.instant, comparison.built
    head = _cells(("", solo_title(instant), solo_title(built), "Built − instant"), "th")
    rows = []
    for row in comparison.rows:
        css = ' class="wb-differs"' if row.difference else ""
        slug = row.quantity.lower().replace(",", "").replace(" ", "-")
        diff = f"{row.difference:+d}" if row.difference else "0"
        rows.append(
            f'<tr{css} data-quantity="{_e(slug)}"><td>{_e(row.quantity)}</td>'
            f'<td class="wb-instant">{row.instant}</td><td class="wb-built">{row.built}</td>'
            f'<td class="wb-difference">{diff}</td></tr>'
        )
    notes = "".join(f"<div>{_e(n)}</div>" for n in comparison.notes)
    return (
        f'{COMPARISON_STYLE if style else ""}<div class="wb-solo-compare">'
        f"<table><tr>{head}</tr>{''.join(rows)}</table>"
        f'<div class="wb-notes"><h4>What differs, and why</h4>{notes}</div></div>'
    )
