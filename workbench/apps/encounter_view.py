"""What the encounter editor shows for one encounter: the chart, every HTML panel, the rows (creature,
count, EV, star, group) and the pace of the fight, computed without a widget.

`encounter_view` is pure: an `Encounter`, the difficulty aimed for and the heroes' numbers for the pace in;
an `EncounterView` out. `party_from_controls` and `hero_staminas` read the party's typed boxes, refusing by
the box's name what they cannot take.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from workbench.charts.encounter import budget_figure
from workbench.charts.pace import pace_figure
from workbench.encounter.editing import group_of
from workbench.encounter.encounter import Creature, Encounter
from workbench.encounter.party import Party, make_party, parse_victories
from workbench.encounter.quick_method import quick_plan
from workbench.encounter.report import report
from workbench.encounter.respite import respite_check
from workbench.errors import InvalidInput
from workbench.fight.pace import attack_choices, fight_pace, foe_attack
from workbench.model import Monster
from workbench.numbers import format_number
from workbench.render.encounter import (
    budget_html,
    checks_html,
    creatures_html,
    groups_html,
    objectives_html,
    quick_html,
    respite_html,
    summary_html,
)
from workbench.render.escape import Markup, join
from workbench.rules.limits import typed_whole

__all__ = ["AttackView", "EncounterView", "RowView", "encounter_view", "hero_staminas", "kind_of",
           "party_from_controls"]

PACE_PROMPT = ("Enter the heroes' Stamina and the damage they deal in a round to see the pace of the fight "
               "(the workbench invents no hero numbers).")


@dataclass(frozen=True)
class RowView:
    """One bought entry as the editor shows it."""

    label: str
    kind: str
    count: int
    cost: str
    star: bool
    group: int  # from 1; NO_GROUP or SPLIT


@dataclass(frozen=True)
class AttackView:
    """One kind of stat block in the pace of the fight: the ability it uses each turn and the others it could."""

    key: tuple[Any, ...]  # the creature's stat block key
    label: str
    signature: str  # what it uses unless the Director marks another
    others: tuple[str, ...]
    chosen: str  # "" for the signature


@dataclass(frozen=True)
class EncounterView:
    """Everything the app shows for one encounter and difficulty."""

    figure: go.Figure
    summary: str
    budget: str
    creatures: str
    checks: str
    groups: str
    objectives: str
    quick: str
    rows: tuple[RowView, ...] = ()
    terrain: tuple[str, ...] = ()
    group_count: int = 0
    pace_figure: go.Figure | None = None
    pace: str = ""
    attacks: tuple[AttackView, ...] = ()
    respite: str = ""


def _levels(field: str, text: str) -> list[int]:
    accepts = "levels separated by commas or spaces, e.g. 3, 3, 4"
    levels = [typed_whole(item, 6) for item in text.replace(",", " ").split()]
    if None in levels:
        raise InvalidInput(field, text, accepts)
    return [level for level in levels if level is not None]


def party_from_controls(
    heroes: int, level: int, mixed: str, retainers: str, victories: str, allies: str = ""
) -> Party:
    """A Party from the app's controls: `mixed` levels (if any) replace heroes × level."""
    average = parse_victories(victories.strip() or "0")  # a short plain number: "1e100000000" never parsed
    extra = _levels("retainers", retainers)
    friends = _levels("allies", allies)
    if mixed.strip():
        return make_party(_levels("levels", mixed), victories=average, retainers=extra, allies=friends)
    return make_party(heroes=heroes, level=level, victories=average, retainers=extra, allies=friends)


def hero_staminas(text: str, heroes: int) -> tuple[int, ...]:
    """The heroes' Stamina as typed: one number per hero, or one number for all of them; blank is none."""
    numbers = _levels("hero_stamina", text) if text.strip() else []
    if len(numbers) == 1:
        numbers = numbers * heroes
    if numbers and (len(numbers) != heroes or min(numbers) < 1):
        raise InvalidInput("hero_stamina", text, f"one Stamina for every hero ({heroes}), or one for all")
    return tuple(numbers)


def kind_of(c: Creature) -> str:
    return " ".join(part for part in (f"level {c.level}", c.organization, c.role or "") if part)


def _attacks(encounter: Encounter, stat_block: Callable[[Creature], Any],
             marked: Mapping[tuple[Any, ...], str]) -> tuple[AttackView, ...]:
    """Each kind of stat block once, with the abilities its whole stat block offers beside its signature."""
    seen: dict[tuple[Any, ...], AttackView] = {}
    for c in encounter.creatures:
        if c.stat_block in seen:
            continue
        block = stat_block(c)
        signature = foe_attack(block).ability
        others = tuple(name for name in attack_choices(block) if name != signature)
        seen[c.stat_block] = AttackView(key=c.stat_block, label=c.label, signature=signature, others=others,
                                        chosen=marked.get(c.stat_block, ""))
    return tuple(seen.values())


def _pace(encounter: Encounter, staminas: Sequence[int], damage: int,
          stat_block: Callable[[Creature], Any], marked: Mapping[tuple[Any, ...], str]) -> tuple[go.Figure | None, str]:
    if not encounter.creatures:
        return None, "<i>Buy some creatures to see the pace of the fight.</i>"
    if not staminas or not damage:
        return None, Markup("<i>{}</i>").format(PACE_PROMPT)
    foes = [(stat_block(c), c.count, marked.get(c.stat_block) or None) for c in encounter.creatures]
    victories = int(encounter.party.victories)
    pace = fight_pace(foes, staminas, damage, victories=victories)
    each = join(
        Markup('<li class="wb-pace-foe">{}{}</li>').format(
            f"{a.name} × {a.count}: {a.ability}, ",
            f"{float(a.per_turn):.1f} expected damage a turn{' (two turns a round)' if a.turns > 1 else ''}")
        for a in pace.foes
    )
    lines = join(Markup("<li>{}</li>").format(line) for line in pace.sentences())
    return pace_figure(pace), Markup('<ul class="wb-pace-lines">{}</ul><ul class="wb-pace-foes">{}</ul>').format(
        lines, each)


def _own_block(c: Creature) -> Monster:
    """The stat block the creature carries."""
    return c.monster


def encounter_view(
    encounter: Encounter,
    difficulty: str,
    hero_stamina: Sequence[int] = (),
    party_damage: int = 0,
    stat_block: Callable[[Creature], Any] = _own_block,
    abilities: Mapping[tuple[Any, ...], str] | None = None,
) -> EncounterView:
    """The chart and every panel for `encounter` aiming at `difficulty`; the pace once the heroes' Stamina and
    damage per round are given (`stat_block` finds each creature's stat block; the one it carries by default;
    `abilities` marks, by a creature's stat block key, the ability it uses each turn instead of its
    signature)."""
    marked = abilities or {}
    r = report(encounter)
    plan = quick_plan(encounter.party, difficulty, encounter.creatures)
    # The heroes' Victories are those since their last respite (a respite turns them into experience); an
    # average is rounded down, the reading the Malice schedule uses for the same number.
    respite = respite_check([r], since_respite=math.floor(encounter.party.victories))
    rows = tuple(
        RowView(label=c.label, kind=kind_of(c), count=c.count, cost=format_number(c.cost()), star=c.star,
                group=group_of(encounter, i))
        for i, c in enumerate(encounter.creatures)
    )
    terrain = tuple(f"{t.name} (dynamic terrain, EV {t.ev}" + (f", level {t.level})" if t.level else ")")
                    for t in encounter.terrain)
    figure, pace = _pace(encounter, hero_stamina, party_damage, stat_block, marked)
    return EncounterView(
        figure=budget_figure(r.budget, r.total_ev, difficulty),
        summary=summary_html(r, encounter.name),
        budget=budget_html(r.budget),
        creatures=creatures_html(encounter),
        checks=checks_html(r),
        groups=groups_html(encounter, r.budget.hero_strength),
        objectives=objectives_html(encounter),
        quick=quick_html(plan, r.band),
        rows=rows,
        terrain=terrain,
        group_count=len(encounter.groups),
        pace_figure=figure,
        pace=pace,
        attacks=_attacks(encounter, stat_block, marked),
        respite=respite_html(respite),
    )
