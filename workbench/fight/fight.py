"""A fight at the table: an encounter run turn by turn, every change an event in a log that can be undone.

Rules: "Step 6: Build Initiative Groups" (all creatures in the same initiative group act on the same turn),
"Using Minions" (a squad's shared Stamina pool, its captain), "Instant Solo Creature" (Solo Turns), "Villain
Actions", "Malice" and "Encounter Objectives" (Monster Basics). The pieces that already exist do their own
rules: `workbench.fight.malice_tracker` (the Malice gain, spending, villain actions' timing) and
`workbench.fight.squad` (the pool, minions dropping, captains). The fight's own parts are `fight.state` (the
fight at one moment), `fight.setup` (what it starts from), `fight.events` (the rule of each change),
`fight.ending` (when it is over) and `fight.victories` (what it earns). This module puts them on one clock
and keeps the log: undo, save, resume.

Readings, where the text leaves room (each also said where it shows):
- Turns: the heroes each take one turn a round and each initiative group one; who goes next is the table's
  call, so no order between the sides is enforced (the Director can move a group in the order shown). A
  group that holds a solo takes two turns a round, the second the solo's alone ("The creature can take two
  turns each round"), never two in a row, across a round's end too ("They can't take turns consecutively").
  End Effect is on offer right after a turn of a creature whose stat block has it.
- Malice: only heroes earn it (a retainer's or ally's death changes no gain); it is spent on the basic
  features, the stat blocks' own Malice features and abilities with a Malice cost, by a creature acting
  on the open monster turn (a triggered ability on any turn); a Director tracking rounds only opens no
  turn, and the turn's limits then wait. Villain actions are the stat block's own, by number or name.
- A villain action ends no one's turn: it comes "at the end of any other creature's turn", so the turn of
  the villain's own initiative group is not another creature's turn.
- A creature other than a minion is down at 0 Stamina ("reduced to 0 Stamina", Defeat a Specific Foe) and
  winded at half its Stamina or less; a squad is down when its last minion drops. Heroes' Stamina is the
  players' to keep: the fight records damage a hero takes (for "none of the heroes took damage") and a
  hero's death (who then "stop[s] generating Malice"); a hero whose Stamina the Director keeps is winded at
  half of it too.
- Conditions are labels: "end of turn" ones end at the end of the creature's next turn (one added during
  its own turn lasts until the end of its next one), "save ends" ones when the Director says the save
  succeeded.
- Reinforcements (Hold Them Off's, Escort's replacements) are more creatures of the encounter's stat blocks,
  joining as a new initiative group; they do not change the difficulty ("Don't count reinforcements").
- The end: every objective met (or, with alternative objectives, one of them), one failed, every hero
  (not retainers or allies) dead, or, without objectives, every foe down or fled. With every foe down or
  fled, Diminish Numbers is met and Defeat a Specific Foe too, but when a designated creature fled
  ("including a scenario where designated creatures choose to flee"); the objectives the heroes must still
  do (Hold Them Off's rounds, Escort's destination, Get the Thing!'s exit, ...) stay open. Diminish
  Numbers is counted by the condition the Director chose (each minion a foe, reinforcements and creatures
  held back not "at the start"); unchosen, by "half or less of what it was at the start" and, against a
  solo, by the solo at a quarter of its Stamina or less after using all its villain actions. A duration
  the Director sets ticks the objective's duration conditions, so the difficulty follows it. The Director
  may end the fight as the heroes' victory (the foes surrender or retreat) with the Victories judged.
  Defeat a Specific Foe's designated creatures are the star of the show, else the leaders and solos, until
  the Director designates others. Victories are then the objective's for its
  difficulty, with its bonus measured by the fight (no hero took damage, all saved, 5 rounds held, ...);
  without objectives, the difficulty's Victories on success and none on failure.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from workbench.arguments import checked, checked_methods
from workbench.encounter.encounter import Encounter
from workbench.encounter.objective import (
    DIMINISH_CONDITIONS,
    ObjectiveOutcome,
    complete_the_action_tasks,
    thing_stamina,
    with_duration,
)
from workbench.errors import InvalidInput
from workbench.fight.ending import check_end, foe_counts, heroes_fighting
from workbench.fight.events import Event, EventRules
from workbench.fight.reinforcements import ReinforcementBudget, reinforcement_budget
from workbench.fight.setup import FightContext, FightSetup, capitalized, monster_for
from workbench.fight.state import Actor, FightState, Unit
from workbench.fight.victories import FightResult, result
from workbench.io.problem import FileProblem
from workbench.io.reading import MAX_FILE_BYTES
from workbench.io.saved import NotThisKind, read_tagged
from workbench.io.writing import content_hash, read_current, write_atomic
from workbench.model import Monster, Trait
from workbench.monster.villain_action import villain_action_slots
from workbench.rules.encounter_tables import EncounterRules, encounter_rules
from workbench.rules.feature_book import FeatureBook, feature_book
from workbench.rules.limits import MAX_ROUNDS, whole

__all__ = [
    "FORMAT",
    "Fight",
    "load_fight",
]

FORMAT: Final = "drawsteel-workbench/fight"
VERSION: Final = 1
_EVERY: Final = 64  # events between two states kept for undo


@checked_methods
class Fight:
    """An encounter at the table. Every action is an `Event` kept in `events`; `undo` takes the last back,
    `save` writes the log, and `load_fight` (or `Fight.from_data`) replays it to where it was.

    Built from an `Encounter`, with the `monsters` behind its creature entries when given (else the whole
    monster each entry carries: its Stamina, abilities, villain actions, With Captain and Malice features) and the heroes'
    average `victories` on arrival (an adventure's running total; else the party's): they set the Malice
    at the start and, through "Factor in Victories", the difficulty the Victories at the end are earned at.
    `rules` (the encounter rules: the difficulty, the objectives' durations and Victories) and `book` (the
    Malice features and villain actions) are the shipped ones unless given; a saved fight keeps neither, so
    reopen it with the same ones (`load_fight(path, rules=..., book=...)`).
    """

    @checked
    def __init__(
        self,
        encounter: Encounter,
        monsters: Sequence[Monster] | None = None,
        victories: Fraction | int | None = None,
        hero_names: Sequence[str] = (),
        durations: Mapping[str, int] | None = None,
        *,
        rules: EncounterRules | None = None,
        book: FeatureBook | None = None,
    ) -> None:
        if not isinstance(encounter, Encounter):
            raise InvalidInput("encounter", encounter, "an Encounter")
        if not encounter.creatures:
            raise InvalidInput("encounter", "no creatures", "an encounter with at least one creature")
        if monsters is None:
            monsters = tuple(monster_for(c) for c in encounter.creatures)
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
        given = encounter  # as the Director set it, before the durations: what is saved, and changed again
        spans = {}
        for key, value in (durations or {}).items():
            spans[str(key)] = whole("duration", value, 1, MAX_ROUNDS, "a number of rounds from 1 upwards")
        if spans:  # the duration the Director sets moves the difficulty and the Victories as the text says
            chosen = tuple(with_duration(o, spans[o.key], rules) if o.key in spans else o
                           for o in encounter.objectives)
            encounter = encounter.model_copy(update={"objectives": chosen})
        names = tuple(hero_names)
        if not all(isinstance(n, str) and len(n) <= 60 for n in names):
            raise InvalidInput("hero_names", names, "the heroes' names, each up to 60 characters")
        setup = FightSetup(encounter=encounter, monsters=monsters, victories=Fraction(victories),
                       durations=tuple(sorted(spans.items())), hero_names=names)
        self._given = given
        self._ctx = FightContext(setup, rules or encounter_rules(), book or feature_book())
        self._rules = EventRules(self._ctx)
        # the log is kept once, as events; the state after every `_EVERY`-th event is kept so undo replays
        # at most that many, and memory grows with the events, not with events times states
        self._kept: list[FightState] = [self._ctx.first_state()]
        self._state = self._kept[0]
        self._events: list[Event] = []
        # the file this fight was read from or last saved to, with its contents' hash then: a save there
        # refuses when the file changed since (another page on the same fight saved it)
        self._file: tuple[Path, str] | None = None

    # ---- reading

    @property
    def state(self) -> FightState:
        return self._state

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def encounter(self) -> Encounter:
        return self._ctx.setup.encounter

    @property
    def given_encounter(self) -> Encounter:
        """The encounter as the Director set it, before the durations (`encounter` is it with them): what
        the fight is saved with, the same encounter whatever its durations."""
        return self._given

    @property
    def durations(self) -> dict[str, int]:
        """The rounds the Director set for the objectives with a duration, by objective key."""
        return dict(self._ctx.setup.durations)

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

    def villain_action_names(self, name: str) -> tuple[str, ...]:
        """A leader's or solo's villain actions by number, as its own stat block names them (its text or its
        numbered abilities; "" for one not written); () for a creature without villain actions."""
        monster = self.monster(name)
        if monster is None or not self.unit(name).villain:
            return ()
        slots = villain_action_slots(monster, strict=False)
        return tuple(filled.action.name if filled.action is not None else "" for filled in slots)

    @property
    def stat_block_names(self) -> tuple[str, ...]:
        """The encounter's stat blocks by the names the fight gives them (what reinforcements are made of)."""
        return tuple(capitalized(c.label) for c in self.encounter.creatures)

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

    @property
    def outcome(self) -> ObjectiveOutcome:
        """What the objectives (with the durations set) make of the encounter: its difficulty, the Victories
        success earns, and the notes saying which condition moved them."""
        return self._ctx.report.outcome

    def tasks_per_round(self) -> int:
        """Complete the Action's tasks a round needs now: "half or more of the heroes" still fighting."""
        return complete_the_action_tasks(heroes_fighting(self.state), self._ctx.rules)

    def thing_staminas(self) -> tuple[int, ...]:
        """Destroy the Thing!'s things' Stamina as the fight holds them: 35 × the heroes' level (sturdy: 50 ×)
        "divide[d] ... between all the individual things"; () without the objective, or for heroes of mixed
        levels (the text gives no rounding for an average level)."""
        p = next((p for p in self.state.objectives if p.key == "destroy_the_thing"), None)
        chosen = next((o for o in self.encounter.objectives if o.key == "destroy_the_thing"), None)
        level = self.encounter.party.average_level
        if p is None or chosen is None or level != int(level):
            return ()
        sturdy = bool(chosen.conditions.get("sturdy"))
        return thing_stamina(int(level), sturdy, p.things or p.target or 1, self._ctx.rules)

    def foe_counts(self) -> tuple[int, int, int]:
        """Diminish Numbers' counts now: (foes in the fight, foes at the start, non-minion foes in the fight),
        each minion one foe."""
        return foe_counts(self.state)

    def diminish_conditions(self) -> tuple[str, ...]:
        """The Diminish Numbers conditions the Director may choose in this fight (`DIMINISH_CONDITIONS`' keys
        the rule accepts: two or more minion squads, a solo), none when it is not an objective."""
        key = "diminish_numbers"
        if not any(p.key == key for p in self.state.objectives):
            return ()
        out = []
        for condition in DIMINISH_CONDITIONS:
            try:
                self._rules.apply(self.state, Event(kind="choose", args={"objective": key, "condition": condition}))
            except InvalidInput:
                continue
            out.append(condition)
        return tuple(out)

    # ---- acting

    def do(self, kind: str, **args: Any) -> FightState:
        """Apply one event; a refusal raises `InvalidInput` and changes nothing."""
        event = Event(kind=kind, args=args)
        new = self._rules.apply(self.state, event)
        new = check_end(new, self._ctx.report.outcome.mode, self._ctx.rules, self._ctx.book)
        self._events.append(event)
        self._state = new
        if len(self._events) % _EVERY == 0:
            self._kept.append(new)
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
               immunity: int = 0, damage_type: str | None = None) -> FightState:
        """Damage to a hero, creature or squad; with `damage_type` the stat block's weakness and immunity to it
        apply (once for a squad)."""
        args: dict[str, Any] = {"unit": unit, "amount": amount}
        if damage_type is not None:
            args["damage_type"] = damage_type
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

    def villain_action(self, unit: str, number: int | None = None, action: str | None = None) -> FightState:
        """The creature's villain action, by `number` or by its stat block's name for it (`action`)."""
        args: dict[str, Any] = {"unit": unit}
        if number is not None:
            args["number"] = number
        if action is not None:
            args["action"] = action
        return self.do("villain", **args)

    def villain_actions_of(self, unit: str) -> dict[int, str]:
        """A creature's villain actions by number and name (its stat block's own; else the book's three)."""
        return self._rules.villain_actions(self.unit(unit))

    def villain_actions_open(self, unit: str) -> dict[int, str]:
        """The villain actions `unit` may use right now (none after one this round: nothing to refuse)."""
        return {n: name for n, name in self.villain_actions_of(unit).items()
                if self.villain_action_allowed(unit, n) is None}

    def end_effect_offer(self) -> tuple[str, int, tuple[str, ...]] | None:
        """At the end of a creature's turn with End Effect: (creature, damage, its save-ends effects)."""
        return self._rules.end_effect_offer(self.state)

    def end_effect(self, unit: str, label: str) -> FightState:
        return self.do("end_effect", unit=unit, label=label)

    def temporary(self, unit: str, amount: int) -> FightState:
        return self.do("temporary", unit=unit, amount=amount)

    def set_stamina(self, unit: str, maximum: int) -> FightState:
        """Keep a hero's Stamina in the runner too (from full)."""
        return self.do("stamina", unit=unit, maximum=maximum)

    def hold_back(self, unit: str) -> FightState:
        return self.do("hold", unit=unit)

    def bring_in(self, unit: str) -> FightState:
        return self.do("bring_in", unit=unit)

    def move_turn(self, actor: str, position: int) -> FightState:
        return self.do("move", actor=actor, position=position)

    def choose(self, objective: str, condition: str | None) -> FightState:
        """Diminish Numbers' success condition: one of `DIMINISH_CONDITIONS`' keys (None: none chosen)."""
        return self.do("choose", objective=objective, condition=condition)

    def set_things(self, objective: str, things: int, needed: int | None = None) -> FightState:
        args: dict[str, Any] = {"objective": objective, "things": things}
        if needed is not None:
            args["needed"] = needed
        return self.do("things", **args)

    def reinforcement_budget(self) -> ReinforcementBudget | None:
        """The EV the objective's reinforcements may have now, as (objective, lowest, highest): Hold Them Off's
        at a round's end, Escort's at a round's start; None when no open objective brings any."""
        return reinforcement_budget(self._ctx, self.state)

    def count(self, objective: str, counter: str, change: int = 1, unit: str | None = None) -> FightState:
        """Move an objective's counter by one; `unit` names the creature that got through (Hold Them Off)."""
        if unit is not None:
            return self.do("count", objective=objective, counter=counter, change=change, unit=unit)
        return self.do("count", objective=objective, counter=counter, change=change)

    def settle(self, objective: str, met: bool) -> FightState:
        return self.do("settle", objective=objective, met=met)

    def designate(self, unit: str) -> FightState:
        return self.do("designate", unit=unit)

    def reinforce(self, creature: str, count: int = 1) -> FightState:
        """`count` more creatures of one of the encounter's stat blocks, as a new initiative group."""
        return self.do("reinforce", creature=creature, count=count)

    def end(self, reason: str = "", victorious: bool | None = None, victories: int | None = None) -> FightState:
        """The Director ends the fight: `victorious` when the foes surrender or retreat, with the Victories
        the Director judges (`victories`; else the rules')."""
        args: dict[str, Any] = {"reason": reason} if reason else {}
        if victorious is not None:
            args["victorious"] = victorious
        if victories is not None:
            args["victories"] = victories
        return self.do("end", **args)

    def minion_dies(self, squad: str) -> FightState:
        return self.do("minion_dies", squad=squad)

    def show_malice(self, shown: bool) -> FightState:
        return self.do("show_malice", shown=shown)

    @property
    def victories_for_success(self) -> int:
        """The Victories each hero earns for winning this encounter, by its difficulty and objectives."""
        return self._ctx.report.victories

    def with_durations(self, durations: Mapping[str, int]) -> Fight:
        """This fight with the objectives' durations the Director sets (rounds by objective key), its events
        played again: the difficulty and the Victories follow the duration as the text says (`with_duration`).
        Refused, and nothing changes, when an event no longer applies under the new durations. The new fight
        keeps this one's file (a later save there is refused if another page wrote it meanwhile)."""
        if not isinstance(durations, Mapping):
            raise InvalidInput("durations", durations, "rounds by objective key, e.g. {'hold_them_off': 6}")
        timed = {p.key for p in self.state.objectives if p.duration is not None}
        for key in durations:
            if key not in timed:
                raise InvalidInput("durations", key, "an objective of this fight with a duration: "
                                   + (", ".join(sorted(timed)) or "none"))
        setup = self._ctx.setup
        fight = Fight(self._given, setup.monsters, setup.victories, setup.hero_names, dict(durations),
                      rules=self._ctx.rules, book=self._ctx.book)
        for number, event in enumerate(self._events, start=1):
            try:
                fight.do(event.kind, **event.args)
            except InvalidInput as exc:
                raise InvalidInput("durations", dict(durations), "durations under which the fight so far still "
                                   "holds", f"event {number} ({event.kind}) would be refused: {exc.detail}") from None
        fight._file = self._file
        return fight

    def undo(self) -> FightState:
        """Take the last event back; refused when there is none."""
        if not self._events:
            raise InvalidInput("undo", "nothing", "an action to undo")
        self._events.pop()
        del self._kept[len(self._events) // _EVERY + 1:]
        state = self._kept[-1]
        for event in self._events[(len(self._kept) - 1) * _EVERY:]:  # each was applied before: it applies again
            state = check_end(self._rules.apply(state, event), self._ctx.report.outcome.mode, self._ctx.rules,
                              self._ctx.book)
        self._state = state
        return state

    # ---- saving

    def to_data(self) -> dict[str, Any]:
        setup = self._ctx.setup
        return {
            "format": FORMAT,
            "version": VERSION,
            "encounter": self._given.model_dump(mode="json"),
            "monsters": [m.model_dump(mode="json") for m in setup.monsters],
            "victories": str(setup.victories),
            "hero_names": list(setup.hero_names),
            "durations": dict(setup.durations),
            "events": [{"kind": e.kind, **e.args} for e in self._events],
        }

    def save(self, path: str | Path) -> Path:
        """Write the fight (its setup and every event) in one step: a crash never leaves half a file.

        Kept like a document: when `path` is the file this fight was read from or last saved to (or was
        `kept_in`), the save is refused with `FileChanged` if the file changed since (another page on the
        same fight saved it), and nothing is written; the Director reloads it or saves this one elsewhere.
        """
        if not isinstance(path, (str, os.PathLike)) or not str(path).strip() or "\0" in str(path) \
                or len(str(path)) > 4096:
            raise InvalidInput("path", path, "the path of a fight file")
        path = Path(path)
        data = (json.dumps(self.to_data(), ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        if len(data) > MAX_FILE_BYTES:  # what could not be read back is never written
            raise InvalidInput("fight", f"{len(self._events)} events", "a fight small enough to reopen",
                               f"it would take more than {MAX_FILE_BYTES // 1_048_576} MiB, the most a fight file "
                               "is read back from; nothing was written")
        expected = self._file[1] if self._file is not None and self._file[0] == _same(path) else None
        written = write_atomic(path, data, overwrite=True, expected=expected)
        self._file = (_same(path), content_hash(data))
        return written

    def kept_in(self, path: str | Path) -> None:
        """Mark `path` as this fight's file as it is now (a new fight's file may not exist yet): a later
        `save` there refuses if anyone else wrote it in between."""
        self._file = (_same(Path(path)), content_hash(read_current(path)))

    @classmethod
    def from_data(
        cls, data: Any, *, rules: EncounterRules | None = None, book: FeatureBook | None = None
    ) -> Fight:
        """A saved fight replayed event by event under `rules` and `book` (the shipped ones when None); a file
        that does not replay is refused by name."""
        accepts = "a fight saved by the workbench"
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
            raise InvalidInput("fight", "the file", accepts, "it is not a workbench fight file")
        try:
            encounter = Encounter.model_validate(data["encounter"])
            monsters = tuple(Monster.model_validate(m) for m in data["monsters"])
            victories = Fraction(str(data["victories"]))
            events = [Event(kind=e["kind"], args={k: v for k, v in e.items() if k != "kind"}) for e in data["events"]]
            fight = cls(encounter, monsters, victories, data.get("hero_names", ()), data.get("durations") or None,
                        rules=rules, book=book)
        except (KeyError, TypeError, ValueError, ArithmeticError, AttributeError, ValidationError) as exc:
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput("fight", "the file", accepts, "its setup does not read as a fight") from None
        for number, event in enumerate(events, start=1):
            try:
                if not isinstance(event.kind, str) or not all(isinstance(k, str) for k in event.args):
                    raise InvalidInput("event", event.kind, "an event of the fight")
                fight.do(event.kind, **event.args)
            except InvalidInput as exc:
                raise InvalidInput("fight", f"event {number}", accepts,
                                   f"event {number} ({event.kind}) is refused on replay: {exc.detail}") from None
            except (KeyError, TypeError, ValueError, ArithmeticError, AttributeError, ValidationError):
                raise InvalidInput("fight", f"event {number}", accepts,
                                   f"event {number} does not read as an event of the fight") from None
        return fight


def load_fight(path: str | Path, *, rules: EncounterRules | None = None, book: FeatureBook | None = None) -> Fight:
    """A fight saved with `Fight.save`, resumed where it stopped (under `rules` and `book`, as `Fight` takes them)."""
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip() or "\0" in str(path) \
            or len(str(path)) > 4096:
        raise InvalidInput("path", path, "the path of a fight file saved by the workbench")
    try:
        seen = content_hash(read_current(path))  # taken first: a change while reading makes the next save refuse
        data = read_tagged(path, FORMAT, VERSION)
    except NotThisKind:
        raise InvalidInput("fight", "the file", "a fight saved by the workbench",
                           "it is not a workbench fight file") from None
    except FileProblem as exc:
        raise InvalidInput("fight", str(path), "a fight file saved by the workbench", exc.reason) from None
    fight = Fight.from_data(data, rules=rules, book=book)
    fight._file = (_same(Path(path)), seen)
    return fight


def _same(path: Path) -> Path:
    """`path` as one name for one file, however it was written (relative, with `..`)."""
    return Path(os.path.abspath(path))

