"""The table copy of a stat block: the book's block and nothing else, for printing and taking to the table.

The block the builder draws (`render.stat_block`) is a working view: it carries the builder's hints (which
characteristics the formulas leave open), each power roll's odds and expected damage, the departures from
the formulas, the basic Malice features every monster shares and a line naming the ruleset. At the table
none of that is read, and a printed "—" box looks like a misprint. So the table copy keeps what the book
prints for a monster: the name line with level, kind and EV, the keywords, the numbers, the characteristics
it has, immunities and weaknesses, its abilities with their tiers, its traits, its own Malice features and
its villain actions, in the same classes and style as the working block (so `STYLE` draws both).

Every piece of user text is escaped here, as in the working block.
"""

from __future__ import annotations

from collections.abc import Mapping

from workbench.homebrew.rule import HomebrewRule
from workbench.model import Ability, Monster
from workbench.render.effects import effects_html, tier_rows
from workbench.render.escape import Markup, join
from workbench.render.homebrew_rule import homebrew_rules_html
from workbench.render.solo import solo_traits_html
from workbench.render.stat_block import (
    ability_heading_html,
    defences_html,
    header_parts,
    name_line_html,
    named_blocks_html,
)

__all__ = ["table_copy_html"]


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _kind(monster: Monster) -> str:
    words = " ".join(part.capitalize() for part in (monster.organization, monster.role) if part)
    return words


def _header(monster: Monster) -> str:
    name = monster.name if monster.name.strip() else f"Level {monster.level} {_kind(monster)}"
    keywords = Markup('<div class="wb-keywords">{}</div>').format(", ".join(monster.keywords)) if (
        monster.keywords) else ""
    return name_line_html(monster, name, _kind(monster)) + keywords


def _numbers(monster: Monster) -> str:
    size, speed, stability = header_parts(monster)
    cells = [("Size", size) if size else None, ("Speed", speed) if speed else None,
             ("Stamina", Markup('<span class="wb-stamina">{}</span>').format(monster.stamina)),
             ("Stability", stability) if stability else None,
             ("Free Strike", Markup('<span class="wb-free-strike">{}</span>').format(monster.free_strike))]
    shown = [cell for cell in cells if cell is not None]
    head = join(Markup("<th>{}</th>").format(label) for label, _ in shown)
    body = join(Markup("<td>{}</td>").format(value) for _, value in shown)
    return Markup('<table class="wb-stats"><tr>{}</tr><tr>{}</tr></table>{}').format(head, body, defences_html(monster))


def _characteristics(monster: Monster) -> str:
    """The characteristics the monster has: all five of a whole block; of a formula monster the highest and
    those the Director set."""
    shown = [(name, value) for name, value in monster.characteristics.items() if value is not None]
    head = join(Markup("<th>{}</th>").format(name.capitalize()) for name, _ in shown)
    body = join(Markup('<td data-characteristic="{}">{}</td>').format(name, _signed(value)) for name, value in shown)
    return Markup('<table class="wb-characteristics"><tr>{}</tr><tr>{}</tr></table>').format(head, body)


def _ability(ability: Ability) -> str:
    parts = [ability_heading_html(ability), effects_html(ability.effects_before)]
    if ability.power_roll is not None:
        parts.append(Markup('<div class="wb-roll"><b>{}:</b></div>').format(ability.power_roll.roll_text))
        parts.append(tier_rows(ability.power_roll.tiers, ()))
    parts.append(effects_html(ability.effects_after))
    return Markup('<div class="wb-ability">{}</div>').format(join(parts))


def _kept(monster: Monster) -> str:
    """Lines of a published block the workbench keeps as words: the book's text, printed as it reads."""
    if not monster.kept_as_text:
        return ""
    return join(Markup('<div class="wb-effect">{}</div>').format(k.text) for k in monster.kept_as_text)


def table_copy_html(
    monster: Monster,
    *,
    modules: Mapping[str, HomebrewRule] | None = None,
) -> str:
    """The stat block as the book prints it, for the table (`<div class="wb-stat-block wb-table-copy">`).

    Homebrew rules attached to the monster are printed filled in from `modules` (the shipped ones if None).
    """
    body = join((
        _header(monster),
        _numbers(monster),
        _characteristics(monster),
        join(_ability(a) for a in monster.abilities),
        named_blocks_html("wb-traits", "Traits", monster.traits),
        homebrew_rules_html(monster, modules=modules),
        solo_traits_html(monster),
        named_blocks_html("wb-malice-features", "Malice Features", monster.malice_features),
        named_blocks_html("wb-villain-actions", "Villain Actions", monster.villain_actions),
        _kept(monster),
    ))
    return Markup('<div class="wb-stat-block wb-table-copy" data-ev="{}">{}</div>').format(monster.ev, body)
