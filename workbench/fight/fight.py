"""A fight at the table: an encounter run turn by turn, every change an event in a log that can be undone.

Rules: "Step 6: Build Initiative Groups" (all creatures in the same initiative group act on the same turn),
"Using Minions" (a squad's shared Stamina pool, its captain), "Instant Solo Creature" (Solo Turns), "Villain
Actions", "Malice" and "Encounter Objectives" (Monster Basics). The pieces that already exist do their own
rules: `workbench.fight.malice` (the Malice gain, spending, villain actions' timing) and
`workbench.fight.squad` (the pool, minions dropping, captains). This module puts them on one clock.

Readings, where the text leaves room (each also said where it shows):
- Turns: the heroes each take one turn a round and each initiative group one; who goes next is the table's
  call, so no order between the sides is enforced. A group that holds a solo takes two turns a round
  ("The creature can take two turns each round"), never two in a row, across a round's end too ("They
  can't take turns consecutively").
- A villain action ends no one's turn: it comes "at the end of any other creature's turn", so the turn of
  the villain's own initiative group is not another creature's turn.
- A creature other than a minion is down at 0 Stamina ("reduced to 0 Stamina", Defeat a Specific Foe) and
  winded at half its Stamina or less; a squad is down when its last minion drops. Heroes' Stamina is the
  players' to keep: the fight records damage a hero takes (for "none of the heroes took damage") and a
  hero's death (who then "stop[s] generating Malice").
- Conditions are labels: "end of turn" ones end at the end of the creature's next turn (one added during
  its own turn lasts until the end of its next one), "save ends" ones when the Director says the save
  succeeded.
- Reinforcements (Hold Them Off's, Escort's replacements) are more creatures of the encounter's stat blocks,
  joining as a new initiative group; they do not change the difficulty ("Don't count reinforcements").
- The end: every objective met (or, with alternative objectives, one of them), one failed, every hero
  dead, or every foe down or fled. With every foe down or fled, an objective still open is met (nothing is
  left to stop the heroes) except Defeat a Specific Foe when a designated creature fled ("including a
  scenario where designated creatures choose to flee"). Diminish Numbers is counted by its "half or less
  of what it was at the start" condition (each minion a foe) and, against a solo, by the solo at a quarter
  of its Stamina or less after using all its villain actions; the Director settles its other conditions.
  Defeat a Specific Foe's designated creatures are the star of the show, else the leaders and solos, until
  the Director designates others. Victories are then the objective's for its
  difficulty, with its bonus measured by the fight (no hero took damage, all saved, 5 rounds held, ...);
  without objectives, the difficulty's Victories on success and none on failure.
"""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from workbench.arguments import checked
from workbench.encounter.encounter import Creature, Encounter, creature_stamina
from workbench.encounter.groups import suggest_groups
from workbench.encounter.objective import (
    ChosenObjective,
    hold_them_off_limit,
    objective_rule,
    objective_victories,
    solo_flee_stamina,
)
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.fight import malice as mal
from workbench.fight import squad as sq
from workbench.io.safe_file import FileProblem, write_atomic
from workbench.io.saved import NotThisKind, read_tagged
from workbench.model import Monster, Trait
from workbench.monster.formulas import build_monster
from workbench.monster.solo import instant_solo, solo_action
from workbench.rules.encounter_tables import encounter_rules
from workbench.rules.feature_book import feature_book
from workbench.rules.limits import MAX_COUNT, MAX_NUMBER, MAX_ROUNDS, whole

__all__ = [
    "FORMAT",
    "CONDITION_ENDS",
    "Condition",
    "Unit",
    "Actor",
    "Progress",
    "FightState",
    "ObjectiveResult",
    "FightResult",
    "Event",
    "Fight",
    "load_fight",
]

FORMAT: Final = "drawsteel-workbench/fight"
VERSION: Final = 1
CONDITION_ENDS: Final = ("end of turn", "save ends", "until removed")
Ends = Literal["end of turn", "save ends", "until removed"]
Status = Literal["active", "dead", "fled"]
_FROZEN = ConfigDict(frozen=True)

# "The encounter duration is 2 rounds or less": the condition Stop and Complete the Action tick for a short one
SHORT_DURATION: Final = 2
ASSAULT_TURNS: Final = 4  # "none of their enemies have been in the defensive position for 4 consecutive turns"
ESCORT_BONUS_ROUNDS: Final = 3  # "reach their destination in 3 rounds or less"
SOLO_TURNS: Final = 2  # "The creature can take two turns each round."


def _solo_turns_words() -> str:
    return next(t.text for t in feature_book().instant_solo.traits if t.name == "Solo Turns")


# ---------------------------------------------------------------- state


class Condition(BaseModel):
    """A condition as a label on a creature: how it ends, and the turn number it was added on."""

    model_config = _FROZEN
    label: str
    ends: Ends
    since: int


class Unit(BaseModel):
    """One piece on the table: a hero, a creature (its own Stamina) or a minion squad (one shared pool).

    `group` is the initiative group (from 0) a creature or squad acts in; heroes act on their own turns.
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

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def winded(self) -> bool:
        """At half its Stamina or less; never a minion ("minions can't be winded") nor a hero here."""
        return self.kind == "creature" and self.active and 2 * self.stamina <= self.stamina_max

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
    malice: mal.MaliceState
    objectives: tuple[Progress, ...] = ()
    ended: bool = False
    end_reason: str = ""
    log: tuple[str, ...] = ()
    # per round: (round, damage the heroes took, Stamina the foes lost), for the pace beside the real fight
    dealt: tuple[tuple[int, int, int], ...] = ()

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


class ObjectiveResult(BaseModel):
    model_config = _FROZEN
    key: str
    name: str
    met: bool
    difficulty: str
    bonus: bool
    victories: int
    working: str


class FightResult(BaseModel):
    """How the fight ended and the Victories each hero earned, with the words behind them."""

    model_config = _FROZEN
    success: bool
    reason: str
    difficulty: str
    victories: int
    objectives: tuple[ObjectiveResult, ...]
    victories_after: Fraction
    working: str


class Event(BaseModel):
    """One change to the fight, as saved: its kind and its arguments (names and whole numbers)."""

    model_config = _FROZEN
    kind: str
    args: dict[str, Any] = {}


# ---------------------------------------------------------------- setting up


def _title(text: str) -> str:
    return text[:1].upper() + text[1:]


def _monster_for(creature: Creature) -> Monster:
    built = build_monster(creature.level, creature.organization, creature.role)
    if creature.instant_solo:
        built = instant_solo(built)
    return built.model_copy(update={"name": _title(creature.label)})


def _group_actor(number: int, units: Sequence[Unit]) -> Actor:
    """Initiative group `number` (from 0): its units act together; a group holding a solo takes two turns."""
    solo = any(u.solo for u in units)
    return Actor(key=f"group:{number + 1}", label=f"Group {number + 1}", side="monster",
                 units=tuple(u.name for u in units), turns=SOLO_TURNS if solo else 1)


def _has_villain_actions(creature: Creature) -> bool:
    return creature.organization in feature_book().villain_actions.organizations or creature.instant_solo


class _Setup(BaseModel):
    """What a fight is built from and never changes: the encounter and the Monster behind each entry."""

    model_config = _FROZEN
    encounter: Encounter
    monsters: tuple[Monster, ...]
    victories: Fraction
    durations: tuple[tuple[str, int], ...] = ()
    hero_names: tuple[str, ...] = ()


class _Context:
    """The setup worked out once: units, actors, features, difficulties (rebuilt the same on reopening)."""

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        enc = setup.encounter
        self.report = report(enc)
        self.features = self._features()
        self.heroes = self._heroes()
        self.first_units, self.first_actors = self._units()

    def _features(self) -> tuple[Trait, ...]:
        solo = any(c.solo for c in self.setup.encounter.creatures)
        return mal.encounter_features(self.setup.monsters, (solo_action(),) if solo else ())

    def _heroes(self) -> tuple[Unit, ...]:
        members = self.setup.encounter.party.members
        numbers: dict[str, int] = {}
        out = []
        for i, m in enumerate(members):
            numbers[m.kind] = numbers.get(m.kind, 0) + 1
            given = self.setup.hero_names[i] if i < len(self.setup.hero_names) else ""
            name = given.strip() or m.name.strip() or f"{_title(m.kind)} {numbers[m.kind]}"
            out.append(Unit(name=name, kind="hero"))
        names = [u.name for u in out]
        if len(set(names)) != len(names):
            raise InvalidInput("hero_names", names, "a different name for each hero")
        return tuple(out)

    def _units(self) -> tuple[tuple[Unit, ...], tuple[Actor, ...]]:
        enc = self.setup.encounter
        groups = enc.groups or suggest_groups(enc)
        taken = set(h.name for h in self.heroes)
        seen: dict[int, int] = {}
        units: list[Unit] = list(self.heroes)
        actors = [Actor(key=f"hero:{h.name}", label=h.name, side="hero", units=(h.name,)) for h in self.heroes]
        placed: dict[int, int] = {}
        for g in groups:
            for index, count in g.members:
                placed[index] = placed.get(index, 0) + count
        leftover = [(i, c.count - placed.get(i, 0)) for i, c in enumerate(enc.creatures) if c.count > placed.get(i, 0)]
        all_groups = [tuple(g.members) for g in groups] + [((i, n),) for i, n in leftover]
        for number, members in enumerate(all_groups):
            group: list[Unit] = []
            for index, count in members:
                group += self.new_units(index, count, number, seen, taken)
            units += group
            actors.append(_group_actor(number, group))
        return self._designate(tuple(units)), tuple(actors)

    def new_units(self, index: int, count: int, group: int, seen: dict[int, int], taken: set[str],
                  numbered: bool = False) -> list[Unit]:
        """`count` creatures of entry `index` acting in `group`: minions as squads of up to eight, others
        one by one with their Stamina. `seen` counts each entry's pieces so far (for their numbers), `taken`
        the names in use; `numbered` numbers even a lone creature (a reinforcement joins others)."""
        c = self.setup.encounter.creatures[index]
        monster = self.setup.monsters[index]
        base = _title(c.label)
        out: list[Unit] = []
        if c.minion:
            for size in sq.squad_sizes(count):
                seen[index] = seen.get(index, 0) + 1
                alone = not numbered and c.count <= size and seen[index] == 1
                name = self._unique(base if alone else f"{base} (squad {seen[index]})", taken)
                squad = sq.make_squad(monster, size, name=name, with_captain=monster.with_captain or None)
                out.append(Unit(name=name, kind="squad", entry=index, group=group, squad=squad, minion=True))
            return out
        stamina = monster.stamina if monster.stamina else creature_stamina(c)
        for _ in range(count):
            seen[index] = seen.get(index, 0) + 1
            name = self._unique(f"{base} {seen[index]}" if c.count > 1 or numbered else base, taken)
            out.append(Unit(
                name=name, kind="creature", entry=index, group=group, stamina_max=stamina, stamina=stamina,
                villain=_has_villain_actions(c), solo=c.solo, designated=c.star,
            ))
        return out

    def entry(self, creature: Any) -> int:
        """The encounter entry a stat block's name (or its description) names."""
        labels = [_title(c.label) for c in self.setup.encounter.creatures]
        for i, label in enumerate(labels):
            if isinstance(creature, str) and creature.strip().casefold() == label.casefold():
                return i
        raise InvalidInput("creature", creature, "one of the encounter's stat blocks: " + ", ".join(labels))

    @staticmethod
    def _unique(name: str, taken: set[str]) -> str:
        out, n = name, 1
        while out in taken:
            n += 1
            out = f"{name} ({n})"
        taken.add(out)
        return out

    @staticmethod
    def _designate(units: tuple[Unit, ...]) -> tuple[Unit, ...]:
        """Defeat a Specific Foe's designated creatures: the star of the show, else the leaders and solos."""
        if any(u.designated for u in units):
            return units
        return tuple(u.model_copy(update={"designated": True}) if u.villain else u for u in units)

    def monster_of(self, unit: Unit) -> Monster:
        """The stat block behind a creature or squad, named as the unit is (for a captain or a Malicious Strike)."""
        if unit.entry is None:
            raise InvalidInput("unit", unit.name, "a creature or squad of the Director's side")
        return self.setup.monsters[unit.entry].model_copy(update={"name": unit.name})

    def first_state(self) -> FightState:
        party = self.setup.encounter.party
        heroes = sum(1 for m in party.members if m.kind == "hero") or party.size
        malice = mal.start_encounter(heroes, math.floor(self.setup.victories))
        return FightState(units=self.first_units, actors=self.first_actors, malice=malice, objectives=self._progress(),
                          log=("The fight is set up.",))

    def _progress(self) -> tuple[Progress, ...]:
        out = []
        durations = dict(self.setup.durations)
        for chosen in self.setup.encounter.objectives:
            rule = objective_rule(chosen.key)
            duration: int | None = None
            target: int | None = None
            if chosen.key in ("hold_them_off", "stop_the_action", "complete_the_action"):
                long = any(chosen.conditions.get(k) for k in ("long_duration", "long_or_many_positions"))
                short = chosen.conditions.get("short_duration")
                timing = encounter_rules().objective_rules  # the durations the encounter's report states
                default = timing.long_duration if long and chosen.key == "hold_them_off" else timing.typical_duration
                duration = durations.get(chosen.key, SHORT_DURATION if short else default)
            if chosen.key == "hold_them_off":
                target = hold_them_off_limit(self.setup.encounter.party)
            elif chosen.key == "assault_the_defenses":
                target = ASSAULT_TURNS
            elif chosen.key == "destroy_the_thing":
                target = 2 if chosen.conditions.get("multiple") else 1
            out.append(Progress(key=chosen.key, name=rule.name, duration=duration, target=target))
        return tuple(out)

    def difficulty_of(self, index: int) -> str:
        outcome = self.report.outcome
        if outcome.alternatives:
            return outcome.alternatives[index].difficulty
        return outcome.difficulty


# the counters each objective shows, with the words a page puts beside them
COUNTERS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "hold_them_off": (("through", "creatures through"),),
    "destroy_the_thing": (("destroyed", "things destroyed"),),
    "escort": (("at_exit", "ward at the destination"), ("ward_down", "ward at 0 Stamina")),
    "get_the_thing": (("escaped", "heroes off the map with the thing"),),
    "save_another": (("saved", "creatures saved"), ("lost", "killed or captured"), ("to_save", "to be saved")),
    "assault_the_defenses": (("held_turns", "consecutive turns held"),),
    "stop_the_action": (("stopped", "action stopped"),),
    "complete_the_action": (("failures", "failures"),),
}


# ---------------------------------------------------------------- the rules of each change


def _dealt(state: FightState, heroes: int, foes: int) -> tuple[tuple[int, int, int], ...]:
    """The per-round damage tally with this hit added to the current round's row."""
    rows = list(state.dealt)
    if rows and rows[-1][0] == state.round:
        r, h, f = rows.pop()
        rows.append((r, h + heroes, f + foes))
    else:
        rows.append((state.round, heroes, foes))
    return tuple(rows)


def _replace(state: FightState, unit: Unit, line: str, **changes: Any) -> FightState:
    units = tuple(unit if u.name == unit.name else u for u in state.units)
    return state.model_copy(update={"units": units, "log": (*state.log, line), **changes})


def _open(state: FightState) -> None:
    if state.ended:
        raise InvalidInput("fight", "ended", "a fight that has not ended (undo to go back into it)",
                           f"the fight is over: {state.end_reason}")


def _started(state: FightState) -> None:
    _open(state)
    if state.round < 1:
        raise InvalidInput("round", 0, "a round that has started", "no round has started yet: start the first round")


def _active(state: FightState, name: Any, field: str = "unit") -> Unit:
    if not isinstance(name, str):
        raise InvalidInput(field, name, "the name of a hero, creature or squad in this fight")
    unit = state.unit(name)
    if not unit.active:
        raise InvalidInput(field, name, "a hero, creature or squad still in the fight", f"{name} is {unit.status}")
    return unit


def _label(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 60:
        raise InvalidInput("label", value, "a condition's name, 1 to 60 characters (e.g. dazed, slowed)")
    return " ".join(value.split())


class _Rules:
    """Each event kind's rule: a pure function from the state and the event's arguments to the next state."""

    def __init__(self, ctx: _Context) -> None:
        self.ctx = ctx

    def apply(self, state: FightState, event: Event) -> FightState:
        handler: Callable[..., FightState] | None = getattr(self, f"do_{event.kind}", None)
        if handler is None:
            raise InvalidInput("event", event.kind, "one of " + ", ".join(EVENT_KINDS))
        try:
            inspect.signature(handler).bind(state, **event.args)
        except TypeError:
            names = ", ".join(list(inspect.signature(handler).parameters)[1:]) or "none"
            raise InvalidInput("event", event.kind, f"the arguments of {event.kind}: {names}") from None
        return handler(state, **event.args)

    # ---- rounds and turns

    def do_round(self, state: FightState) -> FightState:
        _open(state)
        if state.turn is not None:
            raise InvalidInput("round", state.round + 1, "a new round once no turn is open",
                               f"{state.actor(state.turn).label}'s turn has not ended")
        if state.round >= MAX_ROUNDS:
            raise InvalidInput("round", state.round + 1, f"at most {MAX_ROUNDS} rounds")
        if state.round >= 1 and not state.round_over:
            state = self._end_round(state)
            if state.ended:
                return state
        malice = mal.start_round(state.malice)
        units = tuple(u.model_copy(update={"squad": sq.start_round(u.squad)}) if u.squad is not None and u.active
                      and state.round >= 1 else u for u in state.units)
        line = f"Round {state.round + 1} begins: {malice.log[-1].text}"
        return state.model_copy(update={
            "round": state.round + 1, "round_over": False, "turns_taken": (), "malice": malice, "units": units,
            "log": (*state.log, line),
        })

    def do_end_round(self, state: FightState) -> FightState:
        _started(state)
        if state.turn is not None:
            raise InvalidInput("round", state.round, "the end of the round once no turn is open",
                               f"{state.actor(state.turn).label}'s turn has not ended")
        if state.round_over:
            raise InvalidInput("round", state.round, "a round that has not ended yet", "the round has ended")
        return self._end_round(state)

    def _end_round(self, state: FightState) -> FightState:
        state = state.model_copy(update={"round_over": True, "log": (*state.log, f"Round {state.round} ends.")})
        return self._timed_objectives(state)

    def _timed_objectives(self, state: FightState) -> FightState:
        """Objectives settled at a round's end: Hold Them Off, Stop the Action, Complete the Action."""
        out = []
        for p in state.objectives:
            if p.status != "open" or p.duration is None or state.round < p.duration:
                out.append(p)
                continue
            if p.key == "hold_them_off":
                p = _settle(p, "met", state.round, f"the heroes held for {p.duration} rounds with "
                            f"{p.count('through')} through (fewer than {p.target})")
            elif p.key == "complete_the_action":
                p = _settle(p, "met", state.round, f"the end of the encounter duration with {p.count('failures')} "
                            "failure(s)")
            elif p.key == "stop_the_action":
                p = _settle(p, "failed", state.round, objective_rule(p.key).failure)
            out.append(p)
        return state.model_copy(update={"objectives": tuple(out)})

    def do_turn(self, state: FightState, actor: str) -> FightState:
        _started(state)
        if state.round_over:
            raise InvalidInput("actor", actor, "a turn in a round that has started", f"round {state.round} has ended")
        a = state.actor(actor)
        if state.turn is not None:
            raise InvalidInput("actor", a.label, "a turn after the current one ends",
                               f"{state.actor(state.turn).label}'s turn has not ended")
        if not any(state.unit(n).active for n in a.units):
            raise InvalidInput("actor", a.label, "a hero or group with someone still in the fight",
                               f"everyone in {a.label} is down or fled")
        taken = state.taken(a.key)
        if taken >= a.turns:
            words = f" ({_solo_turns_words()})" if a.turns > 1 else ""
            raise InvalidInput("actor", a.label, "a hero or group that has not acted this round",
                               f"{a.label} has taken its {'two turns' if a.turns > 1 else 'turn'} this round{words}")
        if a.turns > 1 and state.last_actor == a.key:
            raise InvalidInput("actor", a.label, "another creature's turn first",
                               f"Solo Turns: {_solo_turns_words()}")
        malice = mal.start_turn(state.malice, a.label, a.side)
        turns = dict(state.turns_taken)
        turns[a.key] = taken + 1
        which = f" (turn {taken + 1} of {a.turns})" if a.turns > 1 else ""
        return state.model_copy(update={
            "turn": a.key, "turn_number": state.turn_number + 1, "malice": malice,
            "turns_taken": tuple(turns.items()), "log": (*state.log, f"{a.label}'s turn{which}."),
        })

    def do_end_turn(self, state: FightState) -> FightState:
        _started(state)
        if state.turn is None:
            raise InvalidInput("turn", None, "a turn that has started (start one first)")
        a = state.actor(state.turn)
        ended: list[str] = []
        units = []
        for u in state.units:
            if u.name in a.units:
                keep = tuple(c for c in u.conditions if not (c.ends == "end of turn" and c.since < state.turn_number))
                ended += [f"{u.name}: {c.label}" for c in u.conditions if c not in keep]
                u = u.model_copy(update={"conditions": keep})
            units.append(u)
        line = f"End of {a.label}'s turn." + (f" Ended: {', '.join(ended)}." if ended else "")
        return state.model_copy(update={
            "turn": None, "last_actor": a.key, "units": tuple(units), "malice": mal.end_turn(state.malice),
            "log": (*state.log, line),
        })

    # ---- Stamina

    def do_damage(self, state: FightState, unit: str, amount: int, in_area: int | None = None,
                  weakness: int = 0, immunity: int = 0) -> FightState:
        _started(state)
        u = _active(state, unit)
        amount = whole("amount", amount, 0, MAX_NUMBER)
        weakness, immunity = whole("weakness", weakness, 0), whole("immunity", immunity, 0)
        if u.kind == "hero":
            total = max(0, amount + weakness - immunity)
            return _replace(state, u.model_copy(update={"damage_taken": u.damage_taken + total}),
                            f"{u.name} takes {total} damage.", dealt=_dealt(state, total, 0))
        if u.squad is not None:
            if in_area is None:
                squad, hit = sq.damage_single(u.squad, amount, weakness, immunity)
            else:
                squad, hit = sq.damage_area(u.squad, amount, in_area, weakness, immunity)
            line = f"{u.name}: {hit.working}; {hit.dropped} minion(s) drop, {squad.alive} left."
            after = u.model_copy(update={"squad": squad})
            state = _replace(state, after, line, dealt=_dealt(state, 0, hit.lost))
            return self._down(state, after, "dead", f"{u.name}: the last minion drops.") if squad.alive == 0 else state
        if in_area is not None:
            raise InvalidInput("in_area", in_area, "nothing for a single creature (only a squad has minions in an area)")
        total = max(0, amount + weakness - immunity)
        left = max(0, u.stamina - total)
        shown = str(amount) + (f" + {weakness} weakness" if weakness else "") + (f" − {immunity} immunity" if immunity else "")
        line = f"{u.name}: Stamina {u.stamina} − {shown} = {left}" + (" (stops at 0)" if total > u.stamina else "")
        after = u.model_copy(update={"stamina": left})
        if after.winded and not u.winded:
            line += " (winded)"
        state = _replace(state, after, line + ".", dealt=_dealt(state, 0, u.stamina - left))
        return self._down(state, after, "dead", f"{u.name} is reduced to 0 Stamina.") if left == 0 else state

    def do_heal(self, state: FightState, unit: str, amount: int) -> FightState:
        _started(state)
        u = _active(state, unit)
        amount = whole("amount", amount, 1, MAX_NUMBER)
        if u.squad is not None:
            sq.regain_stamina(u.squad, amount)
        if u.kind == "hero":
            raise InvalidInput("unit", u.name, "a creature (a hero's Stamina is the player's to keep)")
        healed = min(u.stamina_max, u.stamina + amount)
        return _replace(state, u.model_copy(update={"stamina": healed}),
                        f"{u.name} regains {healed - u.stamina} Stamina ({healed} of {u.stamina_max}).")

    def _down(self, state: FightState, unit: Unit, status: Status, line: str) -> FightState:
        state = _replace(state, unit.model_copy(update={"status": status}), line)
        for u in state.units:
            if u.squad is not None and u.squad.captain == unit.name:
                squad = sq.captain_falls(u.squad)
                state = _replace(state, u.model_copy(update={"squad": squad}), f"{u.name}: {squad.log[-1]}.")
        return state

    def do_dies(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero":
            malice = mal.hero_dies(state.malice)
            return self._down(state.model_copy(update={"malice": malice}), u, "dead",
                              f"{u.name} dies: {malice.log[-1].text}.")
        return self._down(state, u, "dead", f"{u.name} is taken out of the fight.")

    def do_flees(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero":
            raise InvalidInput("unit", u.name, "a creature or squad (the heroes' fleeing is a failure: end the fight)")
        return self._down(state, u, "fled", f"{u.name} flees.")

    # ---- conditions

    def do_condition(self, state: FightState, unit: str, label: str, ends: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        label = _label(label)
        if ends not in CONDITION_ENDS:
            raise InvalidInput("ends", ends, "one of " + ", ".join(CONDITION_ENDS))
        if any(c.label.casefold() == label.casefold() for c in u.conditions):
            raise InvalidInput("label", label, "a condition the creature does not have yet", f"{u.name} is already {label}")
        c = Condition(label=label, ends=ends, since=state.turn_number)
        return _replace(state, u.model_copy(update={"conditions": (*u.conditions, c)}),
                        f"{u.name} is {label} ({ends}).")

    def do_end_condition(self, state: FightState, unit: str, label: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        keep = tuple(c for c in u.conditions if c.label.casefold() != str(label).casefold())
        if len(keep) == len(u.conditions):
            have = ", ".join(c.label for c in u.conditions) or "none"
            raise InvalidInput("label", label, f"one of {u.name}'s conditions ({have})")
        return _replace(state, u.model_copy(update={"conditions": keep}), f"{u.name} is no longer {label}.")

    # ---- squads and captains

    def do_captain(self, state: FightState, squad: str, captain: str) -> FightState:
        _started(state)
        s = _active(state, squad, "squad")
        c = _active(state, captain, "captain")
        if s.squad is None:
            raise InvalidInput("squad", squad, "a minion squad of this fight")
        if c.kind != "creature":
            raise InvalidInput("captain", captain, "a creature of the Director's side that is not a minion")
        others = [u.squad for u in state.units if u.squad is not None and u.name != s.name]
        monster = self.ctx.monster_of(c)
        after = s.model_copy(update={"squad": sq.attach_captain(s.squad, monster, others)})
        return _replace(state, after, f"{s.name}: {after.squad.log[-1] if after.squad else ''}.")

    # ---- Malice and villain actions

    def do_spend(self, state: FightState, feature: str, amount: int | None = None,
                 unit: str | None = None) -> FightState:
        _started(state)
        trait = next((f for f in self.ctx.features if f.name.casefold() == str(feature).casefold()), None)
        if trait is None:
            raise InvalidInput("feature", feature, "one of " + ", ".join(f.name for f in self.ctx.features))
        monster = None
        if unit is not None:
            u = _active(state, unit)
            if u.kind == "hero":
                raise InvalidInput("unit", unit, "a creature or squad of the Director's side")
            monster = self.ctx.monster_of(u)
        malice = mal.spend(state.malice, trait, amount, monster)
        return state.model_copy(update={"malice": malice, "log": (*state.log, malice.log[-1].text + ".")})

    def do_villain(self, state: FightState, unit: str, number: int) -> FightState:
        _started(state)
        u = _active(state, unit)
        words = feature_book().villain_actions.rules
        if not u.villain:
            raise InvalidInput("unit", unit, "a leader or solo (a creature with villain actions)",
                               "The solo and leader creatures presented in this book ... have special abilities "
                               "called villain actions.")
        malice = mal.villain_action(state.malice, u.name, number)
        own = state.actor_of(u)
        if state.malice.ended_turn_of == own.label:
            raise InvalidInput("villain_action", f"{u.name} {number}", "the end of another creature's turn",
                               f"{own.label}'s turn is {u.name}'s own: " + words[1].split(".")[0] + ".")
        return state.model_copy(update={"malice": malice, "log": (*state.log, malice.log[-1].text + ".")})

    # ---- reinforcements

    def do_reinforce(self, state: FightState, creature: str, count: int) -> FightState:
        """New creatures of one of the encounter's stat blocks join as a new initiative group ("At the end of
        each combat round, you add more enemies to the map"; Escort's replacements likewise)."""
        _started(state)
        index = self.ctx.entry(creature)
        count = whole("count", count, 1, MAX_COUNT, f"a whole number of creatures from 1 to {MAX_COUNT}")
        seen: dict[int, int] = {}
        for u in state.units:
            if u.entry is not None:
                seen[u.entry] = seen.get(u.entry, 0) + 1
        taken = {u.name for u in state.units}
        number = sum(1 for a in state.actors if a.side == "monster")
        units = self.ctx.new_units(index, count, number, seen, taken, numbered=True)
        actor = _group_actor(number, units)
        names = ", ".join(u.name for u in units)
        return state.model_copy(update={
            "units": (*state.units, *units), "actors": (*state.actors, actor),
            "log": (*state.log, f"Reinforcements: {names} join as {actor.label}."),
        })

    # ---- objectives

    def do_count(self, state: FightState, objective: str, counter: str, change: int) -> FightState:
        _started(state)
        index, p = self._objective(state, objective)
        if p.status != "open":
            raise InvalidInput("objective", p.name, "an objective still open", f"{p.name} is already {p.status}")
        known = dict(COUNTERS.get(p.key, ()))
        if counter not in known:
            raise InvalidInput("counter", counter, f"for {p.name}: " + (", ".join(known) or "no counters"))
        change = whole("change", change, -1, 1, "+1 or −1")
        value = p.count(counter) + change
        if value < 0 or change == 0:
            raise InvalidInput("change", change, f"+1 (or −1 when {known[counter]} is above 0)")
        counters = dict(p.counters)
        counters[counter] = value
        p = p.model_copy(update={"counters": tuple(counters.items())})
        p = self._judge(state, p)
        objectives = tuple(p if i == index else o for i, o in enumerate(state.objectives))
        return state.model_copy(update={"objectives": objectives,
                                        "log": (*state.log, f"{p.name}: {known[counter]} {value}.")})

    def do_designate(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero":
            raise InvalidInput("unit", unit, "a creature or squad of the Director's side")
        after = u.model_copy(update={"designated": not u.designated})
        word = "designated" if after.designated else "no longer designated"
        return _replace(state, after, f"{u.name} is {word} (Defeat a Specific Foe).")

    def do_settle(self, state: FightState, objective: str, met: bool) -> FightState:
        """The Director says an objective was met or failed (a condition the fight cannot count itself)."""
        _started(state)
        index, p = self._objective(state, objective)
        if not isinstance(met, bool):
            raise InvalidInput("met", met, "True (met) or False (failed)")
        if p.status != "open":
            raise InvalidInput("objective", p.name, "an objective still open", f"{p.name} is already {p.status}")
        rule = objective_rule(p.key)
        p = _settle(p, "met" if met else "failed", state.round, rule.success if met else rule.failure)
        objectives = tuple(p if i == index else o for i, o in enumerate(state.objectives))
        return state.model_copy(update={"objectives": objectives,
                                        "log": (*state.log, f"{p.name}: {p.status} ({p.reason}).")})

    def _objective(self, state: FightState, key: Any) -> tuple[int, Progress]:
        for i, p in enumerate(state.objectives):
            if key in (p.key, p.name):
                return i, p
        raise InvalidInput("objective", key, "one of this fight's objectives: "
                           + (", ".join(p.name for p in state.objectives) or "none"))

    def _judge(self, state: FightState, p: Progress) -> Progress:
        """An objective whose counters settle it now."""
        rule = objective_rule(p.key)
        if p.key == "hold_them_off" and p.target is not None and p.count("through") >= p.target:
            return _settle(p, "failed", state.round, rule.failure)
        if p.key == "complete_the_action" and p.count("failures") > encounter_rules().objective_rules.complete_failures_allowed:
            return _settle(p, "failed", state.round, rule.failure)
        if p.key == "escort" and p.count("ward_down"):
            return _settle(p, "failed", state.round, rule.failure)
        if p.key == "escort" and p.count("at_exit"):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "destroy_the_thing" and p.count("destroyed") >= (p.target or 1):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "get_the_thing" and p.count("escaped"):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "stop_the_action" and p.count("stopped"):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "assault_the_defenses" and p.count("held_turns") >= (p.target or ASSAULT_TURNS):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "save_another":
            to_save = p.count("to_save")
            if to_save and 2 * p.count("lost") > to_save:
                return _settle(p, "failed", state.round, rule.failure)
        return p

    def do_end(self, state: FightState, reason: str = "") -> FightState:
        """The Director ends the fight (the heroes flee, or a dramatic finish): open objectives are not met."""
        _open(state)
        text = reason.strip()[:200] if isinstance(reason, str) and reason.strip() else "the Director ended the fight"
        return _finish(state, text)


EVENT_KINDS: Final = tuple(name[3:] for name in dir(_Rules) if name.startswith("do_"))


def _settle(p: Progress, status: Literal["met", "failed"], round_: int, reason: str) -> Progress:
    return p.model_copy(update={"status": status, "settled_round": round_, "reason": reason})


def _finish(state: FightState, reason: str) -> FightState:
    malice = mal.end_encounter(state.malice) if not state.malice.ended else state.malice
    return state.model_copy(update={"ended": True, "end_reason": reason, "turn": None, "malice": malice,
                                    "log": (*state.log, f"The fight ends: {reason}.")})


def _foes_gone(state: FightState) -> bool:
    foes = [u for u in state.units if u.kind != "hero"]
    return bool(foes) and not any(u.active for u in foes)


def _all_gone(state: FightState) -> FightState:
    """Every foe down or fled: open objectives are met, but for a designated creature that fled."""
    fled = any(u.status == "fled" and u.designated for u in state.units)
    out = []
    for p in state.objectives:
        if p.status == "open":
            if p.key == "defeat_a_specific_foe" and fled:
                p = _settle(p, "failed", state.round, objective_rule(p.key).failure)
            else:
                p = _settle(p, "met", state.round, "every foe is down or fled: nothing is left to stop the heroes")
        out.append(p)
    return _finish(state.model_copy(update={"objectives": tuple(out)}), "every foe is down or fled")


def _foe_objectives(state: FightState) -> FightState:
    """Objectives the foes' own state settles: Defeat a Specific Foe, Diminish Numbers ("half or less")."""
    objectives = list(state.objectives)
    foes = [u for u in state.units if u.kind != "hero"]
    designated = [u for u in foes if u.designated]
    for i, p in enumerate(objectives):
        if p.status != "open":
            continue
        if p.key == "defeat_a_specific_foe":
            if any(u.status == "fled" for u in designated):
                objectives[i] = _settle(p, "failed", state.round, objective_rule(p.key).failure)
            elif designated and all(u.status == "dead" for u in designated):
                objectives[i] = _settle(p, "met", state.round, objective_rule(p.key).success)
        elif p.key == "diminish_numbers" and 2 * _foe_count(foes, now=True) <= _foe_count(foes, now=False):
            objectives[i] = _settle(p, "met", state.round, DIMINISH_HALF)
        elif p.key == "diminish_numbers" and any(_solo_gives_up(u, state) for u in foes):
            objectives[i] = _settle(p, "met", state.round, DIMINISH_SOLO)
    return state.model_copy(update={"objectives": tuple(objectives)})


def _foe_count(foes: Sequence[Unit], now: bool) -> int:
    """Foes as creatures, each minion one: those still in the fight (`now`) or those at the start."""
    total = 0
    for u in foes:
        if u.squad is not None:
            total += (u.squad.alive if u.active else 0) if now else u.squad.size
        else:
            total += 1 if (u.active or not now) else 0
    return total


def _solo_gives_up(unit: Unit, state: FightState) -> bool:
    """A solo at a quarter of its Stamina or less that has used all its villain actions."""
    if not (unit.solo and unit.active and unit.current <= solo_flee_stamina(unit.maximum)):
        return False
    used = {n for name, n, _ in state.malice.villain_actions if name == unit.name}
    return len(used) >= feature_book().villain_actions.count


DIMINISH_SOLO: Final = ("In a battle against a solo creature, that creature flees or surrenders when reduced to "
                        "one-quarter or less of their Stamina and after using all their villain actions.")
DIMINISH_HALF: Final = "The encounter ends when the number of remaining foes is half or less of what it was at the start."


def _check_end(state: FightState, mode: str) -> FightState:
    """End the fight when it is over: objectives settled, every hero dead, or every foe down or fled."""
    if state.ended:
        return state
    heroes = [u for u in state.units if u.kind == "hero"]
    if heroes and not any(u.active for u in heroes):
        return _finish(state, "every hero is dead")
    if _foes_gone(state):
        return _all_gone(state)
    state = _foe_objectives(state)
    statuses = [p.status for p in state.objectives]
    if not statuses:
        return state
    if mode == "alternative" and len(statuses) > 1:
        if "met" in statuses:
            return _finish(state, "an objective is met")
        if all(s == "failed" for s in statuses):
            return _finish(state, "every objective failed")
        return state
    if "failed" in statuses:
        return _finish(state, "an objective failed")
    if all(s == "met" for s in statuses):
        return _finish(state, "every objective is met")
    return state


# ---------------------------------------------------------------- Victories


def _bonus(p: Progress, state: FightState) -> bool:
    """The bonus the objective's Victories text names, as the fight measured it."""
    if p.key == "get_the_thing":
        return all(u.damage_taken == 0 for u in state.units if u.kind == "hero")
    if p.key == "save_another":
        return p.count("lost") == 0
    if p.key == "escort":
        return p.settled_round is not None and p.settled_round <= ESCORT_BONUS_ROUNDS
    if p.key == "hold_them_off":
        return (p.duration or 0) >= encounter_rules().objective_rules.long_duration
    if p.key == "stop_the_action":
        return p.settled_round is not None and p.duration is not None and p.settled_round < p.duration
    if p.key == "complete_the_action":
        return p.count("failures") == 0
    return False


def result(ctx: _Context, state: FightState) -> FightResult:
    """The Victories each hero earns for the fight as it stands (zero until it has ended with success)."""
    enc = ctx.setup.encounter
    outcome = ctx.report.outcome
    rows = []
    for i, (chosen, p) in enumerate(zip(enc.objectives, state.objectives, strict=True)):
        difficulty = ctx.difficulty_of(i)
        bonus = _bonus(p, state)
        met = p.status == "met"
        earned = objective_victories(ChosenObjective(key=chosen.key, conditions=chosen.conditions, bonus=bonus),
                                     difficulty) if met else 0
        rule = objective_rule(chosen.key)
        why = rule.victories_text if met else (p.reason or rule.failure if p.status == "failed" else "not met")
        bonus_text = f"; bonus: {rule.bonus}" if bonus and rule.bonus else ""
        rows.append(ObjectiveResult(key=chosen.key, name=p.name, met=met, difficulty=difficulty, bonus=bonus,
                                    victories=earned, working=f"{p.name} ({difficulty}): {earned}{bonus_text}. {why}"))
    if rows:
        if outcome.mode == "alternative" and len(rows) > 1:
            success = any(r.met for r in rows)
            victories = max((r.victories for r in rows if r.met), default=0)
            working = "Alternative objectives: " + encounter_rules().objective_rules.alternative_rule
        else:
            success = all(r.met for r in rows)
            victories = sum(r.victories for r in rows) if success else 0
            working = "" if len(rows) == 1 else "Combined objectives: " + encounter_rules().objective_rules.combined_rule
    else:
        heroes = [u for u in state.units if u.kind == "hero"]
        success = state.ended and _foes_gone(state) and any(u.active for u in heroes)
        band = encounter_rules().band(outcome.difficulty)
        victories = band.victories if success else 0
        working = (f"No objective: a {outcome.difficulty} encounter is worth {band.victories} Victories"
                   if success else "The heroes earn no Victories if they ... fail to defeat their foes.")
    success = success and state.ended
    victories = victories if success else 0
    return FightResult(
        success=success, reason=state.end_reason, difficulty=outcome.difficulty, victories=victories,
        objectives=tuple(rows), victories_after=ctx.setup.victories + victories, working=working,
    )


# ---------------------------------------------------------------- the fight


class Fight:
    """An encounter at the table. Every action is an `Event` kept in `events`; `undo` takes the last back,
    `save` writes the log, and `load_fight` (or `Fight.from_data`) replays it to where it was.

    Built from an `Encounter`, with the `monsters` behind its creature entries when the Director has them
    (their Stamina, With Captain and Malice features; else the formulas' stat blocks) and the heroes'
    average `victories` on arrival (an adventure's running total; else the party's): they set the Malice
    at the start and, through "Factor in Victories", the difficulty the Victories at the end are earned at.
    """

    @checked
    def __init__(
        self,
        encounter: Encounter,
        monsters: Sequence[Monster] | None = None,
        victories: Fraction | int | None = None,
        hero_names: Sequence[str] = (),
        durations: Mapping[str, int] | None = None,
    ) -> None:
        if not isinstance(encounter, Encounter):
            raise InvalidInput("encounter", encounter, "an Encounter")
        if not encounter.creatures:
            raise InvalidInput("encounter", "no creatures", "an encounter with at least one creature")
        if monsters is None:
            monsters = tuple(_monster_for(c) for c in encounter.creatures)
        monsters = tuple(monsters)
        if len(monsters) != len(encounter.creatures) or not all(isinstance(m, Monster) for m in monsters):
            raise InvalidInput("monsters", len(monsters), f"one Monster per creature entry ({len(encounter.creatures)})")
        if victories is None:
            victories = encounter.party.victories
        if isinstance(victories, bool) or not isinstance(victories, int | Fraction) or not 0 <= victories <= 100:
            raise InvalidInput("victories", victories, "the heroes' average Victories on arrival, from 0 to 100")
        if victories != encounter.party.victories:  # the budget, so the difficulty, counts them too
            party = encounter.party.model_copy(update={"victories": Fraction(victories)})
            encounter = encounter.model_copy(update={"party": party})
        spans = {}
        for key, value in (durations or {}).items():
            spans[str(key)] = whole("duration", value, 1, MAX_ROUNDS, "a number of rounds from 1 upwards")
        names = tuple(hero_names)
        if not all(isinstance(n, str) and len(n) <= 60 for n in names):
            raise InvalidInput("hero_names", names, "the heroes' names, each up to 60 characters")
        setup = _Setup(encounter=encounter, monsters=monsters, victories=Fraction(victories),
                       durations=tuple(sorted(spans.items())), hero_names=names)
        self._ctx = _Context(setup)
        self._rules = _Rules(self._ctx)
        self._states: list[FightState] = [self._ctx.first_state()]
        self._events: list[Event] = []

    # ---- reading

    @property
    def state(self) -> FightState:
        return self._states[-1]

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def encounter(self) -> Encounter:
        return self._ctx.setup.encounter

    @property
    def actors(self) -> tuple[Actor, ...]:
        return self.state.actors

    @property
    def features(self) -> tuple[Trait, ...]:
        return self._ctx.features

    @property
    def units(self) -> tuple[Unit, ...]:
        return self.state.units

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def malice(self) -> int:
        return self.state.malice.malice

    @property
    def ended(self) -> bool:
        return self.state.ended

    @property
    def can_undo(self) -> bool:
        return bool(self._events)

    def unit(self, name: str) -> Unit:
        return self.state.unit(name)

    @property
    def victories(self) -> Fraction:
        """The heroes' average Victories on arrival (the party's, or an adventure's running total)."""
        return self._ctx.setup.victories

    @property
    def stat_blocks(self) -> tuple[tuple[Monster, int], ...]:
        """Each creature entry's stat block and how many (what the pace of the fight is forecast from)."""
        enc = self._ctx.setup.encounter
        return tuple(zip(self._ctx.setup.monsters, (c.count for c in enc.creatures), strict=True))

    def damage_by_round(self) -> tuple[tuple[int, int, int], ...]:
        """Every round so far as (round, damage the heroes took, Stamina the foes lost); 0 for a quiet round."""
        tally = {r: (h, f) for r, h, f in self.state.dealt}
        return tuple((r, *tally.get(r, (0, 0))) for r in range(1, self.state.round + 1))

    def monster(self, name: str) -> Monster | None:
        """The stat block behind a creature or squad (None for a hero)."""
        unit = self.unit(name)
        return None if unit.entry is None else self._ctx.setup.monsters[unit.entry]

    @property
    def stat_block_names(self) -> tuple[str, ...]:
        """The encounter's stat blocks by the names the fight gives them (what reinforcements are made of)."""
        return tuple(_title(c.label) for c in self.encounter.creatures)

    def actor(self, key: str) -> Actor:
        return self.state.actor(key)

    def actor_of(self, name: str) -> Actor:
        return self.state.actor_of(self.unit(name))

    def turns_left(self, key: str) -> int:
        a = self.state.actor(key)
        if not any(self.state.unit(n).active for n in a.units):
            return 0
        return a.turns - self.state.taken(a.key)

    def villain_actions_used(self) -> tuple[tuple[str, int, int], ...]:
        return self.state.malice.villain_actions

    def villain_action_allowed(self, unit: str, number: int) -> InvalidInput | None:
        """None when `unit` may use villain action `number` now; else the refusal, with the rule's words."""
        try:
            self._rules.apply(self.state, Event(kind="villain", args={"unit": unit, "number": number}))
        except InvalidInput as exc:
            return exc
        return None

    def result(self) -> FightResult:
        return result(self._ctx, self.state)

    def difficulty_of(self, index: int) -> str:
        return self._ctx.difficulty_of(index)

    # ---- acting

    def do(self, kind: str, **args: Any) -> FightState:
        """Apply one event; a refusal raises `InvalidInput` and changes nothing."""
        event = Event(kind=kind, args=args)
        new = self._rules.apply(self.state, event)
        new = _check_end(new, self._ctx.report.outcome.mode)
        self._events.append(event)
        self._states.append(new)
        return new

    def start_round(self) -> FightState:
        return self.do("round")

    def end_round(self) -> FightState:
        return self.do("end_round")

    def start_turn(self, actor: str) -> FightState:
        return self.do("turn", actor=actor)

    def end_turn(self) -> FightState:
        return self.do("end_turn")

    def damage(self, unit: str, amount: int, in_area: int | None = None, weakness: int = 0,
               immunity: int = 0) -> FightState:
        args: dict[str, Any] = {"unit": unit, "amount": amount}
        if in_area is not None:
            args["in_area"] = in_area
        if weakness:
            args["weakness"] = weakness
        if immunity:
            args["immunity"] = immunity
        return self.do("damage", **args)

    def heal(self, unit: str, amount: int) -> FightState:
        return self.do("heal", unit=unit, amount=amount)

    def dies(self, unit: str) -> FightState:
        return self.do("dies", unit=unit)

    def flees(self, unit: str) -> FightState:
        return self.do("flees", unit=unit)

    def add_condition(self, unit: str, label: str, ends: str = "end of turn") -> FightState:
        return self.do("condition", unit=unit, label=label, ends=ends)

    def end_condition(self, unit: str, label: str) -> FightState:
        return self.do("end_condition", unit=unit, label=label)

    def attach_captain(self, squad: str, captain: str) -> FightState:
        return self.do("captain", squad=squad, captain=captain)

    def spend(self, feature: str, amount: int | None = None, unit: str | None = None) -> FightState:
        args: dict[str, Any] = {"feature": feature}
        if amount is not None:
            args["amount"] = amount
        if unit is not None:
            args["unit"] = unit
        return self.do("spend", **args)

    def villain_action(self, unit: str, number: int) -> FightState:
        return self.do("villain", unit=unit, number=number)

    def count(self, objective: str, counter: str, change: int = 1) -> FightState:
        return self.do("count", objective=objective, counter=counter, change=change)

    def settle(self, objective: str, met: bool) -> FightState:
        return self.do("settle", objective=objective, met=met)

    def designate(self, unit: str) -> FightState:
        return self.do("designate", unit=unit)

    def reinforce(self, creature: str, count: int = 1) -> FightState:
        """`count` more creatures of one of the encounter's stat blocks, as a new initiative group."""
        return self.do("reinforce", creature=creature, count=count)

    def end(self, reason: str = "") -> FightState:
        return self.do("end", reason=reason) if reason else self.do("end")

    def undo(self) -> FightState:
        """Take the last event back; refused when there is none."""
        if not self._events:
            raise InvalidInput("undo", "nothing", "an action to undo")
        self._events.pop()
        self._states.pop()
        return self.state

    # ---- saving

    def to_data(self) -> dict[str, Any]:
        setup = self._ctx.setup
        return {
            "format": FORMAT,
            "version": VERSION,
            "encounter": setup.encounter.model_dump(mode="json"),
            "monsters": [m.model_dump(mode="json") for m in setup.monsters],
            "victories": str(setup.victories),
            "hero_names": list(setup.hero_names),
            "durations": dict(setup.durations),
            "events": [{"kind": e.kind, **e.args} for e in self._events],
        }

    def save(self, path: str | Path) -> Path:
        """Write the fight (its setup and every event) in one step: a crash never leaves half a file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_atomic(path, json.dumps(self.to_data(), ensure_ascii=False, indent=1) + "\n", overwrite=True)

    @classmethod
    def from_data(cls, data: Any) -> Fight:
        """A saved fight replayed event by event; a file that does not replay is refused by name."""
        accepts = "a fight saved by the workbench"
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
            raise InvalidInput("fight", "the file", accepts, "it is not a workbench fight file")
        try:
            encounter = Encounter.model_validate(data["encounter"])
            monsters = tuple(Monster.model_validate(m) for m in data["monsters"])
            victories = Fraction(str(data["victories"]))
            events = [Event(kind=e["kind"], args={k: v for k, v in e.items() if k != "kind"}) for e in data["events"]]
            fight = cls(encounter, monsters, victories, data.get("hero_names", ()), data.get("durations") or None)
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput("fight", "the file", accepts, "its setup does not read as a fight") from None
        for number, event in enumerate(events, start=1):
            try:
                fight.do(event.kind, **event.args)
            except InvalidInput as exc:
                raise InvalidInput("fight", f"event {number}", accepts,
                                   f"event {number} ({event.kind}) is refused on replay: {exc.detail}") from None
        return fight


def load_fight(path: str | Path) -> Fight:
    """A fight saved with `Fight.save`, resumed where it stopped."""
    try:
        data = read_tagged(path, FORMAT, VERSION)
    except NotThisKind:
        raise InvalidInput("fight", "the file", "a fight saved by the workbench",
                           "it is not a workbench fight file") from None
    except FileProblem as exc:
        raise InvalidInput("fight", str(path), "a fight file saved by the workbench", exc.reason) from None
    return Fight.from_data(data)

