"""A fight at the table: an encounter run turn by turn, every change an event in a log that can be undone.

Rules: "Step 6: Build Initiative Groups" (all creatures in the same initiative group act on the same turn),
"Using Minions" (a squad's shared Stamina pool, its captain), "Instant Solo Creature" (Solo Turns), "Villain
Actions", "Malice" and "Encounter Objectives" (Monster Basics). The pieces that already exist do their own
rules: `workbench.fight.malice_tracker` (the Malice gain, spending, villain actions' timing) and
`workbench.fight.squad` (the pool, minions dropping, captains). The fight's own parts are `fight.state` (the
fight at one moment), `fight.setup` (what it starts from), `fight.events` (the rule of each change) and
`fight.victories` (what it earns). This module puts them on one clock and keeps the log: undo, save, resume.

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

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from workbench.arguments import checked
from workbench.encounter.encounter import Encounter
from workbench.errors import InvalidInput
from workbench.fight.events import Event, EventRules, check_end
from workbench.fight.setup import FightContext, FightSetup, capitalized, monster_for
from workbench.fight.state import Actor, FightState, Unit
from workbench.fight.victories import FightResult, result
from workbench.io.problem import FileProblem
from workbench.io.saved import NotThisKind, read_tagged
from workbench.io.writing import write_atomic
from workbench.model import Monster, Trait
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


class Fight:
    """An encounter at the table. Every action is an `Event` kept in `events`; `undo` takes the last back,
    `save` writes the log, and `load_fight` (or `Fight.from_data`) replays it to where it was.

    Built from an `Encounter`, with the `monsters` behind its creature entries when the Director has them
    (their Stamina, With Captain and Malice features; else the formulas' stat blocks) and the heroes'
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
        spans = {}
        for key, value in (durations or {}).items():
            spans[str(key)] = whole("duration", value, 1, MAX_ROUNDS, "a number of rounds from 1 upwards")
        names = tuple(hero_names)
        if not all(isinstance(n, str) and len(n) <= 60 for n in names):
            raise InvalidInput("hero_names", names, "the heroes' names, each up to 60 characters")
        setup = FightSetup(encounter=encounter, monsters=monsters, victories=Fraction(victories),
                       durations=tuple(sorted(spans.items())), hero_names=names)
        self._ctx = FightContext(setup, rules or encounter_rules(), book or feature_book())
        self._rules = EventRules(self._ctx)
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

    # ---- acting

    def do(self, kind: str, **args: Any) -> FightState:
        """Apply one event; a refusal raises `InvalidInput` and changes nothing."""
        event = Event(kind=kind, args=args)
        new = self._rules.apply(self.state, event)
        new = check_end(new, self._ctx.report.outcome.mode, self._ctx.rules, self._ctx.book)
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
               immunity: int = 0, damage_type: str = "") -> FightState:
        """Damage to one creature, squad (`in_area`: minions in an area) or hero; a `damage_type` brings the
        stat block's own weakness and immunity to it."""
        args: dict[str, Any] = {"unit": unit, "amount": amount}
        if in_area is not None:
            args["in_area"] = in_area
        if damage_type:
            args["damage_type"] = damage_type
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

    def end(self, reason: str = "", success: bool | None = None, victories: int | None = None) -> FightState:
        """The Director ends the fight; with `success` they judge it (the foes surrender or retreat, or the
        heroes do) and give each hero's `victories`."""
        args: dict[str, Any] = {"reason": reason} if reason else {}
        if success is not None:
            args["success"] = success
        if victories is not None:
            args["victories"] = victories
        return self.do("end", **args)

    def temporary_stamina(self, unit: str, amount: int) -> FightState:
        return self.do("temporary", unit=unit, amount=amount)

    def set_stamina(self, unit: str, stamina: int, maximum: int | None = None) -> FightState:
        args: dict[str, Any] = {"unit": unit, "stamina": stamina}
        if maximum is not None:
            args["maximum"] = maximum
        return self.do("stamina", **args)

    def minion_dies(self, squad: str) -> FightState:
        return self.do("minion_dies", squad=squad)

    def hold_back(self, actor: str, joins: int | None = None) -> FightState:
        """A group held back, joining at the start of round `joins` (or when brought in)."""
        return self.do("hold_back", actor=actor, joins=joins) if joins is not None else self.do("hold_back", actor=actor)

    def bring_in(self, actor: str) -> FightState:
        return self.do("bring_in", actor=actor)

    def move_turn(self, actor: str, place: int) -> FightState:
        return self.do("move_turn", actor=actor, place=place)

    def show_malice(self, shown: bool) -> FightState:
        return self.do("show_malice", shown=shown)

    @property
    def victories_for_success(self) -> int:
        """The Victories each hero earns for winning this encounter, by its difficulty and objectives."""
        return self._ctx.report.victories

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


def load_fight(path: str | Path, *, rules: EncounterRules | None = None, book: FeatureBook | None = None) -> Fight:
    """A fight saved with `Fight.save`, resumed where it stopped (under `rules` and `book`, as `Fight` takes them)."""
    try:
        data = read_tagged(path, FORMAT, VERSION)
    except NotThisKind:
        raise InvalidInput("fight", "the file", "a fight saved by the workbench",
                           "it is not a workbench fight file") from None
    except FileProblem as exc:
        raise InvalidInput("fight", str(path), "a fight file saved by the workbench", exc.reason) from None
    return Fight.from_data(data, rules=rules, book=book)

