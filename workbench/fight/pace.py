"""The pace of a fight: how fast the foes wear the heroes down, and how fast the heroes wear the foes down.

No Draw Steel tool shows this. From the foes' stat blocks and the exact power-roll odds (`tier_odds`,
`expected_damage`), each creature's expected damage per turn with its signature ability, or with another
ability of its whole stat block that the Director marks (`attack_choices` lists them); the encounter's per
round; and the extra damage of Malicious Strike as the Malice schedule allows it. Against the heroes' Stamina,
which the Director enters (the workbench invents no hero numbers), the expected rounds until the first hero is
dying and until the whole party would be; from the party's damage per round, which the Director also enters,
the expected rounds to defeat the foes. All arithmetic is exact (`Fraction`); a chart only turns it to floats.

The assumptions (`ASSUMPTIONS`, written under the chart) are deliberately simple, so a Director can see what
moves the numbers: every foe acts every round until the last falls, no edges or banes, the foes focus the
hero with the least Stamina, no healing. They compare encounters; they do not predict a table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from numbers import Integral, Rational
from typing import Any, overload

from pydantic import Field

from workbench.errors import InvalidInput
from workbench.fight.malice_features import strike_extra_damage
from workbench.fight.malice_schedule import malice_schedule
from workbench.frozen import Frozen
from workbench.model import Ability, Monster
from workbench.monster.power_roll import expected_damage
from workbench.monster.solo import is_instant_solo
from workbench.numbers import format_number
from workbench.rules.feature_book import FeatureBook, feature_book
from workbench.rules.limits import MAX_HEROES, whole

__all__ = [
    "ASSUMPTIONS",
    "FoeAttack",
    "attack_choices",
    "Pace",
    "PaceRound",
    "foe_attack",
    "fight_pace",
    "MAX_ROUNDS",
    "round_of",
]

MAX_ROUNDS = 20
SOLO_TURNS = 2  # "Solo Turns": a solo creature takes two turns each round
SQUAD_SIZE = 8  # "a squad is up to eight minions"
EXTRA_MINIONS_PER_TARGET = 2  # "two or three (at maximum) of a squad's minions attack the same creature"
ASSUMPTIONS = (
    "Each creature uses its signature ability (or the ability the Director marks) once per turn against one "
    "hero, with no edge or bane: its "
    "expected damage is the sum over the three tiers of the tier's odds × its damage (a stat block with no "
    "damaging signature ability counts its free strike). Solos take two turns a round. Minions attack in "
    "squads of up to eight: one minion per hero deals the signature damage, up to two more on that hero add "
    "their free strike.",
    "The heroes bring down first the foes that deal the most damage for their Stamina (minions, usually): "
    "each round the foes deal the damage of those still standing at its start, a creature worn partly down "
    "dealing that part of its damage.",
    "The Director spends Malice on Malicious Strike whenever 5 or more is on hand and it was not used the round "
    "before: the foes' highest characteristic as extra damage for 5 Malice, 1 more per further Malice, up to "
    "three times that characteristic. Malice left over carries to the next round.",
    "The foes focus the hero with the least Stamina: that hero is dying when the damage reaches their Stamina; "
    "the party would be when it reaches the heroes' Stamina added up. Recoveries, healing and temporary "
    "Stamina are left out.",
    "The heroes deal the damage per round the Director entered; the foes are defeated when it reaches their "
    "Stamina added up (each minion's own).",
)


class FoeAttack(Frozen):
    """Some creatures of one stat block as the pace reads them: the ability they use and how often."""

    name: str
    count: int = Field(ge=1)
    ability: str
    tiers: tuple[int, int, int]
    bonus: int
    highest_characteristic: int
    stamina: int = Field(ge=0)
    turns: int = Field(default=1, ge=1)
    minion: bool = False
    free_strike: int = Field(default=0, ge=0)

    @property
    def per_turn(self) -> Fraction:
        """One creature's expected damage in one turn."""
        return expected_damage(self.tiers, self.bonus)

    def per_round(self, heroes: int) -> Fraction:
        """All of these creatures' expected damage in one round against `heroes` heroes.

        Minions act in squads of up to eight ("Using Minions"): one roll for the squad, each target hit by one
        instance of the signature ability, and each of up to two more minions on the same target adding its
        free strike. So a squad deals its signature to at most one minion per hero, plus free strikes.
        """
        if not self.minion:
            return self.per_turn * self.turns * self.count
        total, left = Fraction(0), self.count
        while left:
            squad = min(left, SQUAD_SIZE)
            hitting = min(squad, heroes)
            helping = min(squad - hitting, EXTRA_MINIONS_PER_TARGET * hitting)
            total += self.per_turn * hitting + self.free_strike * helping
            left -= squad
        return total


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise InvalidInput("count", value, "a whole number of creatures from 1 upwards")
    return int(value)


def _damage_tiers(ability: Ability) -> tuple[int, int, int] | None:
    """The ability's damage at each tier, when its power roll deals damage at all three (else None)."""
    roll = ability.power_roll
    if roll is None:
        return None
    tier1, tier2, tier3 = roll.damage
    if tier1 is None or tier2 is None or tier3 is None:
        return None
    return tier1, tier2, tier3


def attack_choices(stat_block: Any) -> tuple[str, ...]:
    """The abilities a Director may mark as what a creature uses each turn: those of its whole stat block
    whose power roll deals damage at every tier, in the stat block's order (the signature among them).

    Villain actions are left out: each is used once per encounter and at most one a round across every
    creature ("Villain actions at the table"), so none is what a creature does on its turns. A stat block
    read only by its header (a `PublishedMonster`) or built by the formulas has no list: () (its signature
    ability, or its free strike, is the only choice)."""
    abilities = stat_block.abilities if isinstance(stat_block, Monster) else ()
    return tuple(a.name for a in abilities if a.villain_action is None and _damage_tiers(a) is not None)


def _marked(stat_block: Monster, ability: str) -> Ability:
    """The ability named `ability` (case and spacing aside) among the stat block's choices, else refused."""
    choices = attack_choices(stat_block)
    wanted = " ".join(str(ability).split()).lower() if isinstance(ability, str) else None
    for a in stat_block.abilities:
        if a.name in choices and " ".join(a.name.split()).lower() == wanted:
            return a
    name = stat_block.name or f"level {stat_block.level} {stat_block.organization}"
    accepts = (f"an ability of {name} with a damaging power roll: {', '.join(choices)}" if choices
               else f"no other ability: {name}'s stat block lists none with a damaging power roll")
    raise InvalidInput("ability", ability, accepts)


def foe_attack(stat_block: Any, count: int = 1, ability: str | None = None) -> FoeAttack:
    """`count` creatures of a stat block: a built `Monster` (its signature strike at the expected targets,
    the power roll's bonus its highest characteristic; a whole stat block's printed signature ability and
    roll when it has one) or a published one with a `signature` (damage per tier and the printed roll
    bonus), which this layer reads by its fields. `ability` names another ability of a whole stat block
    (one of `attack_choices`) for the creatures to use every turn instead; None is the signature."""
    count = _count(count)
    if ability is not None and not isinstance(stat_block, Monster):
        raise InvalidInput("ability", ability, "no other ability: only a whole stat block lists its abilities")
    if isinstance(stat_block, Monster):
        solo = stat_block.organization == "solo" or is_instant_solo(stat_block)
        used = _marked(stat_block, ability) if ability is not None else next(
            (a for a in stat_block.abilities if a.is_signature and _damage_tiers(a) is not None), None)
        tiers = _damage_tiers(used) if used is not None else None
        return FoeAttack(
            name=stat_block.name or f"level {stat_block.level} {stat_block.organization}",
            count=count,
            ability=used.name if used is not None else stat_block.signature_name or "signature ability",
            tiers=tiers if tiers is not None else stat_block.damage.as_tuple(),
            bonus=used.power_roll.bonus if used is not None and used.power_roll else stat_block.highest_characteristic,
            highest_characteristic=stat_block.highest_characteristic,
            stamina=stat_block.stamina,
            turns=SOLO_TURNS if solo else 1,
            minion=stat_block.organization == "minion",
            free_strike=stat_block.free_strike,
        )
    try:
        name, organization = str(stat_block.name), str(stat_block.organization)
        highest = int(stat_block.highest_characteristic)
        stamina, free_strike = int(stat_block.stamina), int(stat_block.free_strike)
    except (AttributeError, TypeError, ValueError):
        raise InvalidInput(
            "stat_block", stat_block, "a Monster or a published stat block (name, organization, Stamina, "
            "free strike, characteristics, signature ability)"
        ) from None
    signature = getattr(stat_block, "signature", None)
    damage = getattr(signature, "damage", None)
    if signature is None or damage is None:
        ability, tiers, bonus = "free strike", (free_strike,) * 3, highest
    else:
        ability, tiers = str(signature.name), tuple(damage)
        bonus = signature.bonus if getattr(signature, "bonus", None) is not None else highest
    return FoeAttack(
        name=name, count=count, ability=ability, tiers=tiers, bonus=bonus, highest_characteristic=highest,
        stamina=stamina, turns=SOLO_TURNS if organization == "solo" else 1, minion=organization == "minion",
        free_strike=free_strike,
    )


class PaceRound(Frozen):
    """One round: the foes' expected damage, Malicious Strike's, and what is left on each side at its end."""

    round: int
    foe_damage: Fraction
    malice_spent: int
    malice_damage: int
    damage_so_far: Fraction
    heroes_left: Fraction
    focused_hero_left: Fraction
    foes_left: Fraction


class Pace(Frozen):
    """The expected pace of one fight, round by round, and the moments that matter (in rounds, exact)."""

    foes: tuple[FoeAttack, ...]
    hero_stamina: tuple[int, ...]
    party_damage: Fraction
    foe_damage_per_round: Fraction
    foe_stamina: int
    rounds: tuple[PaceRound, ...]
    first_dying: Fraction | None
    party_dying: Fraction | None
    foes_defeated: Fraction | None
    assumptions: tuple[str, ...] = ASSUMPTIONS

    def sentences(self) -> tuple[str, ...]:
        """The pace in words for people: damage per round, then each moment with the round it falls in."""
        out = [
            f"At full strength the foes deal {float(self.foe_damage_per_round):.1f} expected damage a round; "
            f"the heroes deal {format_number(self.party_damage)}."
        ]
        for moment, happens, never in (
            (self.first_dying, "The first hero is dying", "No hero is dying"),
            (self.party_dying, "The whole party would be dying", "The party is not worn down"),
            (self.foes_defeated, "The foes are defeated", "The foes are not defeated"),
        ):
            if moment is None:
                out.append(f"{never} within {len(self.rounds)} rounds.")
            else:
                out.append(f"{happens} after {float(moment):.1f} rounds (in round {round_of(moment)}).")
        return tuple(out)

    @property
    def damage_before_victory(self) -> Fraction | None:
        """The foes' expected damage up to the end of the round in which they fall (None: they do not fall)."""
        if self.foes_defeated is None:
            return None
        return self.rounds[round_of(self.foes_defeated) - 1].damage_so_far

    @property
    def heroes_win(self) -> bool | None:
        """True when the foes fall before the party would; None when neither happens within the rounds."""
        if self.foes_defeated is None and self.party_dying is None:
            return None
        if self.party_dying is None:
            return True
        return self.foes_defeated is not None and self.foes_defeated < self.party_dying


def _stamina_list(value: Any, heroes: int | None) -> tuple[int, ...]:
    accepts = "each hero's Stamina (a list of whole numbers from 1 upwards), or one Stamina with heroes="
    if isinstance(value, Integral) and not isinstance(value, bool):
        if heroes is None:
            raise InvalidInput("hero_stamina", value, accepts, "one Stamina needs the number of heroes")
        value = [value] * whole("heroes", heroes, 1, MAX_HEROES)
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidInput("hero_stamina", value, accepts)
    staminas = tuple(value)
    if not staminas or any(isinstance(s, bool) or not isinstance(s, Integral) or s < 1 for s in staminas):
        raise InvalidInput("hero_stamina", value, accepts)
    return tuple(int(s) for s in staminas)


def _party_damage(value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, Rational) or value < 0:
        raise InvalidInput("party_damage", value, "the heroes' damage per round, a whole or exact number from 0 up")
    return Fraction(value)


def _kill_order(attacks: Sequence[FoeAttack], heroes: int) -> list[tuple[int, Fraction]]:
    """(Stamina, damage per round) of each stat block's creatures, most damage for their Stamina first."""
    groups = [(a.stamina * a.count, a.per_round(heroes)) for a in attacks]
    return sorted(groups, key=lambda g: -(g[1] / g[0]) if g[0] else -g[1])


def _standing_damage(order: Sequence[tuple[int, Fraction]], dealt: Fraction) -> Fraction:
    """The foes' damage per round once the heroes have dealt `dealt`, taking them down in `order`."""
    total = Fraction(0)
    for stamina, damage in order:
        taken = min(dealt, Fraction(stamina))
        dealt -= taken
        if stamina:
            total += damage * (stamina - taken) / stamina
    return total


def _crossing(before: Fraction, gained: Fraction, need: Fraction, round_number: int) -> Fraction:
    """When, in rounds, a running total that was `before` and gains `gained` this round reaches `need`."""
    return Fraction(round_number - 1) + (need - before) / gained


def _malice_damage(malice: int, used_last_round: bool, highest: int, book: FeatureBook) -> tuple[int, int]:
    """(Malice spent, extra damage) on Malicious Strike this round, by the pace's spending assumption."""
    rule = book.malicious_strike
    if highest <= 0 or malice < rule.base_cost or (used_last_round and rule.not_two_rounds_in_a_row):
        return 0, 0
    most_useful = rule.base_cost + (rule.maximum_multiple - 1) * highest // rule.extra_damage_per_malice
    spent = min(malice, most_useful)
    return spent, strike_extra_damage(highest, spent, book)


def fight_pace(
    foes: Sequence[FoeAttack] | Iterable[tuple[Any, int]] | Iterable[tuple[Any, int, str | None]],
    hero_stamina: Sequence[int] | int,
    party_damage: Rational | int,
    heroes: int | None = None,
    victories: int = 0,
    malice: bool = True,
    rounds: int = MAX_ROUNDS,
    book: FeatureBook | None = None,
) -> Pace:
    """The expected pace of a fight between `foes` and heroes with `hero_stamina` dealing `party_damage`.

    `foes` are `FoeAttack`s, (stat block, count) pairs or (stat block, count, ability) triples (the ability
    the Director marks, None for the signature; see `foe_attack`). `hero_stamina` is each hero's Stamina, or one
    Stamina for `heroes` heroes. `victories` (the heroes' average) starts the Malice schedule; `malice=False`
    leaves Malicious Strike out. Times are in rounds, exact: 2.5 is halfway through round 3. A moment that does
    not come within `rounds` rounds is None. `book`: Malicious Strike's rules (the shipped ones when None).
    """
    book = book or feature_book()
    attacks = tuple(f if isinstance(f, FoeAttack) else foe_attack(*f) for f in foes)
    if not attacks:
        raise InvalidInput("foes", foes, "at least one creature")
    staminas = _stamina_list(hero_stamina, heroes)
    damage = _party_damage(party_damage)
    if isinstance(rounds, bool) or not isinstance(rounds, Integral) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput("rounds", rounds, f"a whole number of rounds from 1 to {MAX_ROUNDS}")
    per_round = sum((a.per_round(len(staminas)) for a in attacks), Fraction(0))
    order = _kill_order(attacks, len(staminas))
    foe_stamina = sum(a.stamina * a.count for a in attacks)
    highest = max(a.highest_characteristic for a in attacks)
    schedule = malice_schedule(len(staminas), int(victories), rounds)
    focus, party = Fraction(min(staminas)), Fraction(sum(staminas))
    first = whole = defeated = None
    done, on_hand, used_last = Fraction(0), 0, False
    out: list[PaceRound] = []
    for step in schedule:
        on_hand += step.gain if malice else 0
        foe_damage = _standing_damage(order, damage * (step.round - 1))
        spent, extra = _malice_damage(on_hand, used_last, highest, book) if malice and foe_damage else (0, 0)
        on_hand, used_last = on_hand - spent, spent > 0
        gained = foe_damage + extra
        if first is None and gained and done + gained >= focus:
            first = _crossing(done, gained, focus, step.round)
        if whole is None and gained and done + gained >= party:
            whole = _crossing(done, gained, party, step.round)
        done += gained
        if defeated is None and damage and damage * step.round >= foe_stamina:
            defeated = _crossing(damage * (step.round - 1), damage, Fraction(foe_stamina), step.round)
        out.append(PaceRound(
            round=step.round, foe_damage=foe_damage, malice_spent=spent, malice_damage=extra, damage_so_far=done,
            heroes_left=max(party - done, Fraction(0)), focused_hero_left=max(focus - done, Fraction(0)),
            foes_left=max(Fraction(foe_stamina) - damage * step.round, Fraction(0)),
        ))
    return Pace(
        foes=attacks, hero_stamina=staminas, party_damage=damage, foe_damage_per_round=per_round,
        foe_stamina=foe_stamina, rounds=tuple(out), first_dying=first, party_dying=whole, foes_defeated=defeated,
    )


@overload
def round_of(moment: Fraction) -> int: ...
@overload
def round_of(moment: None) -> None: ...
@overload
def round_of(moment: Fraction | None) -> int | None: ...
def round_of(moment: Fraction | None) -> int | None:
    """The round in which a moment falls (2.5 rounds: during round 3), or None."""
    return None if moment is None else max(1, math.ceil(moment))
