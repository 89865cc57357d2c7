"""Minion squads at the table: the shared Stamina pool, who drops when, squad attacks and captains.

Rules: "Using Minions" (Monster Basics). A squad is up to eight minions of one stat block sharing one
Stamina pool (each minion's Stamina × the number of minions). The pool is all that is tracked: with
per-minion Stamina `s`, the living minions are ⌈pool ÷ s⌉, so a minion drops each time the pool falls past
a multiple of `s` (the book's "5, 10, 15, ... 40" for eight goblin spinecleavers).

Readings, where the text leaves room (each is also stated where the number is shown):
- Area damage: each minion in the area loses at most its own Stamina (the book's Incinerate: 3 × 5 = 15, not
  18: area effects "can kill only those minions who are in the area"); a weakness or immunity is then applied
  once for the squad, last, to the pool, and may drop (or save) minions beyond those in the area: "These
  effects are the last things applied when calculating damage and can drop (or save!) multiple minions from
  any source of damage, including area effects."
- With Captain: a damage bonus to strikes is added once per target of the squad's signature ability and
  once to free strikes made together (they are "treated as one strike"); the extra damage of additional
  minions on one target is their printed free strike value. A Stamina bonus raises each living minion's
  Stamina while the captain is attached (the pool rises by the bonus × living minions); when the captain
  falls the bonus goes: the pool is capped at the living minions' Stamina without it, and at the pool as it
  stood when the captain was attached, since minions "can't regain Stamina" (attaching and losing a captain
  never heals the squad; no minion drops for it either).
- Last-Stand Stamina: each minion's Stamina becomes 1, so the pool equals the living minions.

Everything is pure: a `Squad` is frozen and each action returns a new one, which `SquadTracker` keeps for
undo.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from numbers import Integral
from typing import Any, Literal, NoReturn

from pydantic import BaseModel, ConfigDict

from workbench.arguments import checked_methods
from workbench.errors import InvalidInput
from workbench.model import Monster
from workbench.rules.limits import MAX_NUMBER, true_or_false, whole

__all__ = [
    "MAX_SQUAD_SIZE",
    "MAX_ON_ONE_TARGET",
    "WithCaptain",
    "with_captain_from_text",
    "Squad",
    "Hit",
    "SquadAttack",
    "make_squad",
    "squad_sizes",
    "drop_thresholds",
    "damage_single",
    "damage_area",
    "regain_stamina",
    "minion_dies",
    "squad_attack",
    "free_strikes_together",
    "attach_captain",
    "captain_falls",
    "start_round",
    "last_stand",
    "last_stand_stamina",
    "SquadTracker",
]

SECTION = "Using Minions"
MAX_SQUAD_SIZE = 8  # "squads of up to eight creatures"
MAX_ON_ONE_TARGET = 3  # "two or three (at maximum) of a squad's minions attack the same creature"
_FROZEN = ConfigDict(frozen=True)


# ---------------------------------------------------------------- With Captain


class WithCaptain(BaseModel):
    """A stat block's "With Captain" benefit: the numbers the tracker uses, and the line as printed.

    `damage` is a bonus to strikes, `stamina` a bonus to each minion's Stamina; other benefits (speed,
    distance, an edge) are kept as `text` for the table and change no number here.
    """

    model_config = _FROZEN
    damage: int = 0
    stamina: int = 0
    text: str = ""


# numbers of at most 40 digits, as the model reads them (model.ability): int() raises past 4,300
_DAMAGE = re.compile(r"\+\s*(\d{1,40})\s+damage bonus to strikes", re.IGNORECASE)
_STAMINA = re.compile(r"\+\s*(\d{1,40})\s+bonus to Stamina", re.IGNORECASE)


def with_captain_from_text(text: str) -> WithCaptain:
    """Read a published "With Captain" line: "+1 damage bonus to strikes", "+2 bonus to Stamina", ..."""
    if not isinstance(text, str):
        raise InvalidInput("with_captain", text, "the stat block's With Captain text")
    damage, stamina = _DAMAGE.search(text), _STAMINA.search(text)
    return WithCaptain(
        damage=int(damage.group(1)) if damage else 0,
        stamina=int(stamina.group(1)) if stamina else 0,
        text=text.strip(),
    )


# ---------------------------------------------------------------- the squad


class Squad(BaseModel):
    """One minion squad at one moment of a fight.

    `minion_stamina` and `free_strike` are the stat block's; `size` is how many minions the squad began
    with; `pool` is the shared Stamina pool now. `captain` is the attached captain's name, if any;
    `captain_lost_round` the round the last one fell (a new one can join from the next round).
    """

    model_config = _FROZEN
    name: str
    minion_stamina: int
    free_strike: int
    size: int
    pool: int
    with_captain: WithCaptain = WithCaptain()
    captain: str | None = None
    captain_lost_round: int | None = None
    # the pool when the captain was attached, before the Stamina bonus: never exceeded once the captain falls
    pool_before_captain: int | None = None
    round: int = 1
    last_stand: bool = False
    log: tuple[str, ...] = ()

    @property
    def stamina_each(self) -> int:
        """One minion's Stamina now: 1 under Last-Stand Stamina, plus the captain's Stamina bonus if any."""
        if self.last_stand:
            return 1
        return self.minion_stamina + (self.with_captain.stamina if self.captain else 0)

    @property
    def alive(self) -> int:
        """Living minions: one per started `stamina_each` of the pool (⌈pool ÷ Stamina⌉)."""
        return math.ceil(self.pool / self.stamina_each)

    @property
    def full_pool(self) -> int:
        """The pool if every minion were standing at its current Stamina (size × `stamina_each`)."""
        return self.size * self.stamina_each

    @property
    def dropped(self) -> int:
        return self.size - self.alive

    @property
    def damage_bonus(self) -> int:
        """The captain's damage bonus to strikes while a captain is attached."""
        return self.with_captain.damage if self.captain else 0

    @property
    def next_drops(self) -> tuple[int, ...]:
        """Damage still needed to drop each living minion in turn (the first is the next to fall)."""
        s, a = self.stamina_each, self.alive
        return tuple(self.pool - (a - k) * s for k in range(1, a + 1))

    def _logged(self, line: str, **changes: Any) -> Squad:
        return self.model_copy(update={**changes, "log": (*self.log, line)})


def _check_captain(captain: Any) -> Monster:
    if not isinstance(captain, Monster):
        raise InvalidInput("captain", captain, "a non-minion, non-mount Monster with a name")
    if captain.organization == "minion":
        raise InvalidInput("captain", captain.name or "a minion", "a non-minion creature", "a minion can't be a captain")
    if captain.role == "mount":
        raise InvalidInput("captain", captain.name or "a mount", "a non-mount creature", "a mount can't be a captain")
    if not captain.name.strip():
        raise InvalidInput("captain", "an unnamed monster", "a monster with a name (set it with model_copy)")
    return captain


def make_squad(
    minion: Monster | None = None,
    count: int = MAX_SQUAD_SIZE,
    *,
    name: str | None = None,
    stamina: int | None = None,
    free_strike: int | None = None,
    with_captain: WithCaptain | str | None = None,
    captain: Monster | None = None,
) -> Squad:
    """A full squad of `count` minions (1 to 8): from a minion `Monster`, or from a stat block's numbers
    (`stamina` and `free_strike`, e.g. a goblin spinecleaver's 5 and 2). The pool starts at Stamina × count
    (with the captain's Stamina bonus when a captain starts attached)."""
    count = whole("count", count, 1, MAX_SQUAD_SIZE, f"a whole number of minions from 1 to {MAX_SQUAD_SIZE}")
    if minion is not None:
        if not isinstance(minion, Monster) or minion.organization != "minion":
            raise InvalidInput("minion", minion, "a Monster whose organization is minion")
        stamina = minion.stamina if stamina is None else stamina
        free_strike = minion.free_strike if free_strike is None else free_strike
        name = name or minion.name or f"Level {minion.level} minion {minion.role}"
    if stamina is None or free_strike is None:
        raise InvalidInput(
            "minion", None, "a minion Monster, or both stamina and free_strike from the stat block"
        )
    stamina = whole("stamina", stamina, 1)
    free_strike = whole("free_strike", free_strike, 0)
    if isinstance(with_captain, str):
        with_captain = with_captain_from_text(with_captain)
    with_captain = with_captain or WithCaptain()
    if not isinstance(with_captain, WithCaptain):
        raise InvalidInput("with_captain", with_captain, "a WithCaptain or the stat block's With Captain text")
    name = name or "Minion squad"
    squad = Squad(
        name=name, minion_stamina=stamina, free_strike=free_strike, size=count,
        pool=stamina * count, with_captain=with_captain,
        log=(f"{name}: {count} minions × {stamina} Stamina = pool {stamina * count}",),
    )
    return attach_captain(squad, captain) if captain is not None else squad


def squad_sizes(count: int) -> tuple[int, ...]:
    """`count` minions of one stat block as "squads of up to eight creatures", as few squads as can be and as
    even as can be, the larger first: 12 -> 6 + 6, 9 -> 5 + 4, 17 -> 6 + 6 + 5; none -> no squad."""
    count = whole("count", count, 0, MAX_NUMBER, f"a whole number of minions from 0 to {MAX_NUMBER}")
    squads = -(-count // MAX_SQUAD_SIZE)
    base, extra = divmod(count, squads) if squads else (0, 0)
    return (base + 1,) * extra + (base,) * (squads - extra)


def drop_thresholds(squad: Squad) -> tuple[int, ...]:
    """Total damage from a full pool at which each minion drops: the book's "5, 10, 15, ... 40"."""
    s = squad.stamina_each
    return tuple(s * k for k in range(1, squad.size + 1))


# ---------------------------------------------------------------- damage


class Hit(BaseModel):
    """What one damage event did to the squad, with its working."""

    model_config = _FROZEN
    kind: Literal["single", "area"]
    amount: int
    in_area: int | None
    weakness: int
    immunity: int
    pool_before: int
    pool_after: int
    dropped: int
    working: str
    reading: str | None = None

    @property
    def lost(self) -> int:
        return self.pool_before - self.pool_after


def _check_squad(squad: Squad) -> None:
    if not isinstance(squad, Squad):
        raise InvalidInput("squad", squad, "a Squad (from make_squad)")


def _modifiers(weakness: Any, immunity: Any) -> tuple[int, int]:
    return whole("weakness", weakness, 0), whole("immunity", immunity, 0)


def _apply(squad: Squad, hit: Hit) -> tuple[Squad, Hit]:
    after = squad.model_copy(update={"pool": hit.pool_after})
    hit = hit.model_copy(update={"dropped": squad.alive - after.alive})
    line = f"{hit.working}; {hit.dropped} minion(s) drop, {after.alive} left"
    return after._logged(line), hit


def _adjust(raw: int, label: str, weakness: int, immunity: int) -> tuple[int, str]:
    """Weakness and immunity once, last; never below 0. `label` is how `raw` is written."""
    text = label
    if weakness:
        text += f" + {weakness} weakness"
    if immunity:
        text += f" − {immunity} immunity"
    return max(0, raw + weakness - immunity), text


def _floor_note(damage: int, pool: int) -> str:
    """Said when the damage is more than the pool left: the pool stops at 0 (so "5 − 12 = 0" reads true)."""
    return " (the pool stops at 0)" if damage > pool else ""


def damage_single(squad: Squad, amount: int, weakness: int = 0, immunity: int = 0) -> tuple[Squad, Hit]:
    """Damage to one minion from anything but an area effect: the whole amount comes off the pool, so it
    can drop several minions ("Dropping Multiple Minions"). Weakness/immunity apply once, last."""
    _check_squad(squad)
    amount = whole("amount", amount, 0)
    weakness, immunity = _modifiers(weakness, immunity)
    total, text = _adjust(amount, str(amount), weakness, immunity)
    lost = min(total, squad.pool)
    shown = f"({text})" if text != str(amount) else text
    working = f"single target: pool {squad.pool} − {shown} = {squad.pool - lost}" + _floor_note(total, squad.pool)
    hit = Hit(
        kind="single", amount=amount, in_area=None, weakness=weakness, immunity=immunity,
        pool_before=squad.pool, pool_after=squad.pool - lost, dropped=0, working=working,
    )
    return _apply(squad, hit)


def damage_area(
    squad: Squad, amount: int, in_area: int, weakness: int = 0, immunity: int = 0
) -> tuple[Squad, Hit]:
    """Area damage to `in_area` of the squad's minions, `amount` to each: each loses at most its own
    Stamina (three spinecleavers in a 6-damage Incinerate: 15, not 18), then weakness/immunity apply once for
    the squad, last, and can drop (or save) more minions than the area holds ("can drop (or save!) multiple
    minions from any source of damage, including area effects")."""
    _check_squad(squad)
    amount = whole("amount", amount, 0)
    if squad.alive == 0:
        raise InvalidInput("in_area", in_area, "a squad with minions standing", "every minion has dropped")
    in_area = whole(
        "in_area", in_area, 1, squad.alive, f"a whole number from 1 to {squad.alive} (the living minions)"
    )
    weakness, immunity = _modifiers(weakness, immunity)
    s = squad.stamina_each
    each = min(amount, s)
    total, text = _adjust(in_area * each, f"{in_area} × {each}", weakness, immunity)
    lost = min(total, squad.pool)
    reading = None
    if amount > s:
        reading = f"each minion in the area loses at most its own Stamina ({s})"
    if weakness and total > in_area * s:
        note = "the weakness, applied last to the pool, drops minions beyond those in the area"
        reading = f"{reading}; {note}" if reading else note
    working = f"area, {in_area} in it, {amount} each"
    working += f" (at most {s} each)" if amount > s else ""
    working += f": pool {squad.pool} − ({text})"
    working += f" = {squad.pool - lost}" + _floor_note(total, squad.pool)
    hit = Hit(
        kind="area", amount=amount, in_area=in_area, weakness=weakness, immunity=immunity,
        pool_before=squad.pool, pool_after=squad.pool - lost, dropped=0, working=working, reading=reading,
    )
    return _apply(squad, hit)


def regain_stamina(squad: Squad, amount: int, temporary: bool = False) -> NoReturn:
    """Always refused: "minions can't be winded, can't regain Stamina, and can't gain temporary Stamina"."""
    kind = "temporary Stamina" if temporary else "Stamina"
    raise InvalidInput(
        "amount", amount, "nothing: a minion squad's pool never rises from healing",
        f"minions can't gain {kind} during a battle",
    )


def minion_dies(squad: Squad) -> Squad:
    """One minion dies outright (a fall, an effect that kills): it leaves the squad, and the pool keeps only
    the Stamina of those left standing."""
    _check_squad(squad)
    if not squad.alive:
        raise InvalidInput("squad", squad.name, "a squad with a minion standing")
    pool = (squad.alive - 1) * squad.stamina_each
    return squad._logged(f"a minion dies: pool {squad.pool} → {pool}, {squad.alive - 1} left", pool=pool)


# ---------------------------------------------------------------- attacks


class SquadAttack(BaseModel):
    """A squad's signature ability: damage on each target, and what a critical hit grants."""

    model_config = _FROZEN
    damage: int
    minions: tuple[int, ...]
    per_target: tuple[int, ...]
    workings: tuple[str, ...]
    participants: int
    critical: bool
    extra_main_actions: int


def squad_attack(
    squad: Squad, damage: int, minions_per_target: Sequence[int], critical: bool = False
) -> SquadAttack:
    """One roll for the squad's signature ability. Each target takes one instance of `damage` (the rolled
    tier's damage, plus the captain's damage bonus), plus the free strike of each extra minion on it (two
    or three at most). A critical hit gives every participating minion another main action."""
    _check_squad(squad)
    damage = whole("damage", damage, 0)
    true_or_false("critical", critical)
    accepts = (
        f"one count per target, each from 1 to {MAX_ON_ONE_TARGET}, "
        f"together at most the {squad.alive} living minions"
    )
    if isinstance(minions_per_target, (str, bytes)) or not isinstance(minions_per_target, Iterable):
        raise InvalidInput("minions_per_target", minions_per_target, accepts)
    counts = tuple(minions_per_target)
    if not counts or any(
        isinstance(c, bool) or not isinstance(c, Integral) or not 1 <= c <= MAX_ON_ONE_TARGET for c in counts
    ):
        raise InvalidInput("minions_per_target", minions_per_target, accepts)
    if sum(counts) > squad.alive:
        raise InvalidInput("minions_per_target", minions_per_target, accepts, "more minions than are alive")
    bonus, fs = squad.damage_bonus, squad.free_strike
    per_target, workings = [], []
    for c in counts:
        value = damage + bonus + fs * (c - 1)
        parts = [str(damage)] + ([f"{bonus} captain"] if bonus else [])
        if c > 1:
            parts.append(f"{c - 1} × {fs} free strike")
        per_target.append(value)
        workings.append(f"{' + '.join(parts)} = {value}" if len(parts) > 1 else str(value))
    participants = sum(counts)
    return SquadAttack(
        damage=damage, minions=counts, per_target=tuple(per_target), workings=tuple(workings),
        participants=participants, critical=critical, extra_main_actions=participants if critical else 0,
    )


def free_strikes_together(squad: Squad, minions: int) -> int:
    """Several minions' free strikes at one target at the same time: added together, one strike (the
    captain's damage bonus, a bonus to strikes, counts once)."""
    _check_squad(squad)
    minions = whole("minions", minions, 1, squad.alive, f"a whole number from 1 to {squad.alive} (the living minions)")
    return squad.free_strike * minions + squad.damage_bonus


# ---------------------------------------------------------------- captains, rounds, last stand


def attach_captain(squad: Squad, captain: Monster, others: Iterable[Squad] = ()) -> Squad:
    """Attach a captain: one per squad, a non-minion non-mount creature, captain of no other squad in
    `others`; after a captain falls, a new one joins at the start of the next round."""
    _check_squad(squad)
    captain = _check_captain(captain)
    if squad.captain is not None:
        raise InvalidInput("captain", captain.name, "no second captain", f"{squad.name} already has {squad.captain}")
    if squad.captain_lost_round is not None and squad.captain_lost_round >= squad.round:
        raise InvalidInput(
            "captain", captain.name, "a new captain from the start of the next round",
            f"{squad.name}'s captain fell in round {squad.captain_lost_round}",
        )
    for other in others:
        if other is not squad and other.captain == captain.name:
            raise InvalidInput(
                "captain", captain.name, "a creature that captains no other squad",
                f"already captain of {other.name}",
            )
    bonus = 0 if squad.last_stand else squad.with_captain.stamina
    pool = squad.pool + bonus * squad.alive
    line = f"{captain.name} becomes captain"
    if bonus:
        line += f": each minion +{bonus} Stamina, pool {squad.pool} + {bonus} × {squad.alive} = {pool}"
    return squad._logged(line, captain=captain.name, pool=pool, pool_before_captain=squad.pool)


def captain_falls(squad: Squad) -> Squad:
    """The captain is gone: its benefits go with it; a new one can join at the start of the next round."""
    _check_squad(squad)
    if squad.captain is None:
        raise InvalidInput("captain", None, "a squad that has a captain")
    alive = squad.alive
    without = squad.model_copy(update={"captain": None})
    capped = min(squad.pool, alive * without.stamina_each)
    before = squad.pool_before_captain
    pool = capped if before is None else min(capped, before)
    line = f"{squad.captain} falls"
    if pool != squad.pool:
        line += f": the Stamina bonus goes, pool capped at {alive} × {without.stamina_each} = {capped}"
        if pool != capped:
            line += f" and at the {before} it had before the captain (minions can't regain Stamina) = {pool}"
    return squad._logged(
        line, captain=None, captain_lost_round=squad.round, pool=pool, pool_before_captain=None
    )


def start_round(squad: Squad) -> Squad:
    """The start of the next round (when a squad that lost its captain may take a new one)."""
    _check_squad(squad)
    return squad._logged(f"Round {squad.round + 1} begins", round=squad.round + 1)


def last_stand(squad: Squad) -> Squad:
    """Optional Last-Stand Stamina: the squad's pool becomes its number of living minions."""
    _check_squad(squad)
    alive = squad.alive
    return squad._logged(f"Last stand: pool {squad.pool} → {alive} (one per minion)", pool=alive, last_stand=True)


def last_stand_stamina(stamina: Mapping[str, int]) -> dict[str, int]:
    """Optional Last-Stand Stamina for the other enemies: every living enemy's Stamina drops to 1."""
    out = {}
    for name, value in stamina.items():
        value = whole("stamina", value, 0, accepts=f"a whole number of Stamina from 0 to {MAX_NUMBER}")
        out[name] = 1 if value > 0 else 0
    return out


# ---------------------------------------------------------------- the tracker


@checked_methods
class SquadTracker:
    """A squad at the table: the current `squad`, every earlier state for `undo`, and the last hit."""

    def __init__(self, squad: Squad) -> None:
        _check_squad(squad)
        self._history: list[Squad] = [squad]
        self._hits: list[Hit | None] = [None]

    @property
    def squad(self) -> Squad:
        return self._history[-1]

    @property
    def last_hit(self) -> Hit | None:
        return self._hits[-1]

    @property
    def can_undo(self) -> bool:
        return len(self._history) > 1

    def _push(self, squad: Squad, hit: Hit | None = None) -> Squad:
        self._history.append(squad)
        self._hits.append(hit)
        return squad

    def damage(
        self, amount: int, in_area: int | None = None, weakness: int = 0, immunity: int = 0
    ) -> Hit:
        """Single-target damage, or area damage when `in_area` (how many minions are in the area) is given."""
        if in_area is None:
            squad, hit = damage_single(self.squad, amount, weakness, immunity)
        else:
            squad, hit = damage_area(self.squad, amount, in_area, weakness, immunity)
        self._push(squad, hit)
        return hit

    def attach_captain(self, captain: Monster, others: Iterable[Squad] = ()) -> Squad:
        return self._push(attach_captain(self.squad, captain, others))

    def captain_falls(self) -> Squad:
        return self._push(captain_falls(self.squad))

    def start_round(self) -> Squad:
        return self._push(start_round(self.squad))

    def last_stand(self) -> Squad:
        return self._push(last_stand(self.squad))

    def undo(self) -> Squad:
        """Go back one action; refused when there is nothing to undo."""
        if not self.can_undo:
            raise InvalidInput("undo", "nothing", "an action to undo")
        self._history.pop()
        self._hits.pop()
        return self.squad
