"""The fight at one moment: the pieces on the table, who takes turns, each objective's progress.

Frozen models, so every change to a fight is a new state and undo keeps the old ones. The readings these
follow (down and winded, conditions as labels) are `workbench.fight.fight`'s.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.fight import squad as sq
from workbench.fight.malice_tracker import MaliceState

__all__ = [
    "CONDITION_ENDS",
    "Ends",
    "Status",
    "Condition",
    "Unit",
    "Actor",
    "Progress",
    "FightState",
]

CONDITION_ENDS: Final = ("end of turn", "save ends", "until removed")
Ends = Literal["end of turn", "save ends", "until removed"]
Status = Literal["active", "dead", "fled", "held"]
_FROZEN = ConfigDict(frozen=True)


class Condition(BaseModel):
    """A condition as a label on a creature: how it ends, and the turn number it was added on."""

    model_config = _FROZEN
    label: str
    ends: Ends
    since: int


class Unit(BaseModel):
    """One piece on the table: a hero, a creature (its own Stamina) or a minion squad (one shared pool).

    `group` is the initiative group (from 0) a creature or squad acts in; heroes act on their own turns.
    `member` is a party member's kind (hero, retainer, ally: only heroes earn the Director Malice);
    `temporary` its temporary Stamina; `joined` the round a creature held back or sent as a reinforcement
    came in (None: there at the start); `down_round` the round it went down; `dropped` the minions a squad
    lost each round, as (round, minions).
    """

    model_config = _FROZEN
    name: str
    kind: Literal["hero", "creature", "squad"]
    entry: int | None = None
    group: int | None = None
    stamina_max: int = 0
    stamina: int = 0
    squad: sq.Squad | None = None
    status: Status = "active"
    conditions: tuple[Condition, ...] = ()
    villain: bool = False
    solo: bool = False
    minion: bool = False
    damage_taken: int = 0
    designated: bool = False
    member: str = "hero"
    temporary: int = 0
    joined: int | None = None
    down_round: int | None = None
    dropped: tuple[tuple[int, int], ...] = ()

    @property
    def at_start(self) -> bool:
        """A foe there "at the start": neither held back nor a reinforcement."""
        return self.joined is None and self.status != "held"

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def winded(self) -> bool:
        """At half its Stamina or less; never a minion ("minions can't be winded"), nor a hero whose Stamina
        the Director does not keep."""
        return self.kind != "squad" and self.stamina_max > 0 and self.active and 2 * self.stamina <= self.stamina_max

    @property
    def current(self) -> int:
        """Stamina now: the creature's, or the squad's pool."""
        return self.squad.pool if self.squad is not None else self.stamina

    @property
    def maximum(self) -> int:
        return self.squad.full_pool if self.squad is not None else self.stamina_max


class Actor(BaseModel):
    """Who takes a turn: a hero, or an initiative group (its creatures and squads acting together)."""

    model_config = _FROZEN
    key: str
    label: str
    side: Literal["hero", "monster"]
    units: tuple[str, ...]
    turns: int = 1
    solo_units: tuple[str, ...] = ()

    def acting(self, turn: int) -> tuple[str, ...]:
        """Who acts on this actor's `turn` (1 or 2) of a round: the whole group, but a solo's second turn is
        the solo's alone ("The creature can take two turns each round")."""
        return self.units if turn <= 1 or not self.solo_units else self.solo_units


class Progress(BaseModel):
    """One objective's progress: its counters, its status, the round it was settled in."""

    model_config = _FROZEN
    key: str
    name: str
    counters: tuple[tuple[str, int], ...] = ()
    duration: int | None = None
    target: int | None = None
    status: Literal["open", "met", "failed"] = "open"
    settled_round: int | None = None
    reason: str = ""
    # the Director's choice where the text offers one (Diminish Numbers' success condition)
    choice: str | None = None
    # Destroy the Thing!: how many things the Director set (None: the encounter's own, `target` of them)
    things: int | None = None
    # creatures that got through (Hold Them Off), as (round, unit): their EV sets the next reinforcements
    through: tuple[tuple[int, str], ...] = ()

    def count(self, name: str) -> int:
        return dict(self.counters).get(name, 0)


class FightState(BaseModel):
    """The whole fight at one moment. `round` 0 is before the first round; `turn` the actor acting now."""

    model_config = _FROZEN
    round: int = 0
    round_over: bool = False
    units: tuple[Unit, ...]
    actors: tuple[Actor, ...] = ()
    turns_taken: tuple[tuple[str, int], ...] = ()
    turn: str | None = None
    turn_number: int = 0
    last_actor: str | None = None
    malice: MaliceState
    objectives: tuple[Progress, ...] = ()
    ended: bool = False
    end_reason: str = ""
    log: tuple[str, ...] = ()
    # per round: (round, damage the heroes took, Stamina the foes lost), for the pace beside the real fight
    dealt: tuple[tuple[int, int, int], ...] = ()
    # the units acting on the open turn (or on the turn that just ended, for End Effect and villain actions)
    acting: tuple[str, ...] = ()
    end_effect_used: bool = False
    # the Director's own ending: the heroes victorious or not, and the Victories judged (None: the rules')
    victorious: bool | None = None
    judged_victories: int | None = None
    malice_shown: bool = True  # whether the players' view shows the Malice

    def unit(self, name: str) -> Unit:
        for u in self.units:
            if u.name == name:
                return u
        raise InvalidInput("unit", name, "the name of a hero, creature or squad in this fight")

    def taken(self, key: str) -> int:
        return dict(self.turns_taken).get(key, 0)

    def actor(self, key: str) -> Actor:
        """A hero or an initiative group by its key ("group:2") or its label ("Group 2", a hero's name)."""
        for a in self.actors:
            if a.key == key or a.label == key:
                return a
        raise InvalidInput("actor", key, "a hero's name or an initiative group (Group 1, Group 2, ...)")

    def actor_of(self, unit: Unit) -> Actor:
        key = f"hero:{unit.name}" if unit.kind == "hero" else f"group:{(unit.group or 0) + 1}"
        return self.actor(key)
