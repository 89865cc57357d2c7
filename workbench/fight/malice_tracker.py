"""The Director's Malice at the table, action by action: gains, deaths, spending, turns, villain actions.

Everything here is pure: states are frozen models and every action returns a new one, so `MaliceTracker`
can undo by keeping the old states. Unused Malice is lost at the end of the encounter. The Malice features'
rules (Malicious Strike, villain actions) are the `FeatureBook` given to `spend`, `villain_action` or the
tracker (the shipped one when None).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from workbench.arguments import checked_methods
from workbench.errors import InvalidInput
from workbench.fight.malice_features import (
    check_amount,
    check_feature,
    is_basic_feature,
    is_malicious_strike,
    malicious_strike_extra_damage,
    strike_not_twice_in_a_row,
)
from workbench.fight.malice_schedule import average_victories
from workbench.model import Monster, Trait
from workbench.rules.feature_book import FeatureBook, feature_book
from workbench.rules.limits import whole

__all__ = [
    "MaliceEntry",
    "MaliceState",
    "start_encounter",
    "start_round",
    "hero_dies",
    "spend",
    "end_encounter",
    "start_turn",
    "end_turn",
    "villain_action",
    "MaliceTracker",
]

_FROZEN = ConfigDict(frozen=True)


EntryKind = Literal["start", "gain", "death", "spend", "end", "turn", "villain"]
Side = Literal["monster", "hero"]


class MaliceEntry(BaseModel):
    """One line of the tracker's log."""

    model_config = _FROZEN
    round: int
    kind: EntryKind
    change: int
    malice: int
    text: str


class MaliceState(BaseModel):
    """The Director's Malice at one moment of an encounter. `round` 0 is before the first round's gain."""

    model_config = _FROZEN
    heroes: int
    victories: int
    living: int
    round: int = 0
    malice: int = 0
    malicious_strike_rounds: tuple[int, ...] = ()
    ended: bool = False
    log: tuple[MaliceEntry, ...] = ()
    # turns (optional: a Director who tracks only rounds never opens one, and the per-turn limits then wait)
    turn_of: str | None = None
    turn_side: Side | None = None
    turn_basic: str | None = None
    turn_features: tuple[str, ...] = ()
    ended_turn_of: str | None = None
    villain_actions: tuple[tuple[str, int, int], ...] = ()  # (creature, action number, round)

    def _with(self, entry: MaliceEntry, **changes: Any) -> MaliceState:
        return self.model_copy(update={**changes, "log": (*self.log, entry)})


def start_encounter(heroes: int, victories: int | Sequence[int]) -> MaliceState:
    """A new encounter before its first round: no Malice yet (round 1's gain brings the Victories)."""
    heroes = whole("heroes", heroes, 1)
    average = average_victories(victories, heroes)
    entry = MaliceEntry(
        round=0, kind="start", change=0, malice=0,
        text=f"Encounter begins: {heroes} heroes, {average} average Victories",
    )
    return MaliceState(heroes=heroes, victories=average, living=heroes, log=(entry,))


def _check_open(state: MaliceState) -> None:
    if state.ended:
        raise InvalidInput("state", "ended", "an encounter that has not ended", "the encounter is over")


def start_round(state: MaliceState) -> MaliceState:
    """The start of the next round: gain the living heroes plus the round number (plus Victories in round 1)."""
    _check_open(state)
    number = state.round + 1
    gain = state.living + number + (state.victories if number == 1 else 0)
    working = f"{state.victories} + " if number == 1 else ""
    working += f"{state.living} + {number}"
    entry = MaliceEntry(
        round=number, kind="gain", change=gain, malice=state.malice + gain,
        text=f"start of the round: gain {working} = {gain}",
    )
    return state._with(
        entry, round=number, malice=state.malice + gain, turn_of=None, turn_side=None, turn_basic=None,
        turn_features=(), ended_turn_of=None,
    )


def _creature(creature: Any) -> str:
    if not isinstance(creature, str) or not creature.strip():
        raise InvalidInput("creature", creature, "the name of the creature (or initiative group) taking the turn")
    return creature.strip()


def start_turn(state: MaliceState, creature: str, side: Side = "monster") -> MaliceState:
    """A creature's (or an initiative group's) turn begins. Turns make the per-turn limits live: a basic
    Malice feature "at the start of any monster's turn", one per turn; a creature's own Malice features once
    per turn; villain actions at the end of another creature's turn."""
    _check_open(state)
    if state.round < 1:
        raise InvalidInput("round", state.round, "a round that has started (start the first round first)")
    creature = _creature(creature)
    if side not in ("monster", "hero"):
        raise InvalidInput("side", side, "monster or hero")
    if state.turn_of is not None:
        raise InvalidInput("turn", creature, "a turn after the current one ends",
                           f"{state.turn_of}'s turn has not ended")
    entry = MaliceEntry(round=state.round, kind="turn", change=0, malice=state.malice,
                        text=f"{creature}'s turn ({side})")
    return state._with(entry, turn_of=creature, turn_side=side, turn_basic=None, turn_features=(),
                       ended_turn_of=None)


def end_turn(state: MaliceState) -> MaliceState:
    """The current turn ends: a villain action may follow ("at the end of any other creature's turn")."""
    _check_open(state)
    if state.turn_of is None:
        raise InvalidInput("turn", None, "a turn that has started (start_turn first)")
    entry = MaliceEntry(round=state.round, kind="turn", change=0, malice=state.malice,
                        text=f"end of {state.turn_of}'s turn")
    return state._with(entry, turn_of=None, turn_side=None, turn_basic=None, turn_features=(),
                       ended_turn_of=state.turn_of)


def villain_action(state: MaliceState, creature: str, number: int, book: FeatureBook | None = None) -> MaliceState:
    """`creature` uses its villain action `number` (1 to 3). "Each villain action can be used only once per
    encounter, and no more than one villain action can be used per round" (across every creature), and "A
    creature can use a villain action at the end of any other creature's turn": refused otherwise."""
    _check_open(state)
    creature = _creature(creature)
    actions = (book or feature_book()).villain_actions
    count = actions.count
    number = whole("number", number, 1, accepts=f"a villain action number from 1 to {count}")
    if number > count:
        raise InvalidInput("number", number, f"a villain action number from 1 to {count}")
    words = actions.rules[0]
    if any(c.casefold() == creature.casefold() and n == number for c, n, _ in state.villain_actions):
        raise InvalidInput("villain_action", f"{creature} {number}", "a villain action not used yet", words)
    used = [f"{c} ({n})" for c, n, r in state.villain_actions if r == state.round]
    if used:
        raise InvalidInput("villain_action", f"{creature} {number}", "a villain action in a later round",
                           f"{used[0]} used one in round {state.round}: {words}")
    after = actions.rules[1].split(".")[0] + "."
    if state.turn_of is not None or state.ended_turn_of is None:
        raise InvalidInput("villain_action", f"{creature} {number}", "the end of a creature's turn", after)
    if state.ended_turn_of.casefold() == creature.casefold():
        raise InvalidInput("villain_action", f"{creature} {number}", "the end of another creature's turn",
                           after)
    entry = MaliceEntry(round=state.round, kind="villain", change=0, malice=state.malice,
                        text=f"{creature}: villain action {number} (after {state.ended_turn_of}'s turn)")
    return state._with(entry, villain_actions=(*state.villain_actions, (creature, number, state.round)))


def _check_turn_limits(state: MaliceState, feature: Trait, book: FeatureBook) -> None:
    """Per-turn limits, once the Director tracks turns: "At the start of any monster's turn, you can spend
    Malice to activate one of the following features" (one basic feature, on a monster's turn); a creature's
    own Malice features "once per turn" (each feature once in a turn; reading)."""
    if state.turn_of is None:
        return
    if is_basic_feature(feature, book):
        if state.turn_side != "monster":
            raise InvalidInput("feature", feature.name, "a basic Malice feature on a monster's turn",
                               f"it is {state.turn_of}'s turn, a hero's")
        if state.turn_basic is not None:
            raise InvalidInput("feature", feature.name, "one basic Malice feature per monster turn",
                               f"{state.turn_basic} was activated at the start of {state.turn_of}'s turn")
    elif feature.name.casefold() in (f.casefold() for f in state.turn_features):
        raise InvalidInput("feature", feature.name, "a Malice feature not yet used this turn",
                           "a creature's own Malice features are used once per turn")


def hero_dies(state: MaliceState, count: int = 1) -> MaliceState:
    """Heroes die: they are missing from every later round's gain (Malice already gained stays)."""
    _check_open(state)
    count = whole("count", count, 1, accepts=f"a whole number from 1 to {state.living} (the living heroes)")
    if count > state.living:
        raise InvalidInput("count", count, f"a whole number from 1 to {state.living} (the living heroes)")
    living = state.living - count
    entry = MaliceEntry(
        round=state.round, kind="death", change=0, malice=state.malice,
        text=f"{count} hero(es) died: {living} left to generate Malice",
    )
    return state._with(entry, living=living)


def spend(
    state: MaliceState,
    feature: Trait,
    amount: int | None = None,
    monster: Monster | None = None,
    book: FeatureBook | None = None,
) -> MaliceState:
    """Spend Malice on a feature; refused when there is not enough, and for Malicious Strike when it was
    used last round ("can't be used two rounds in a row, even by different monsters")."""
    _check_open(state)
    book = book or feature_book()
    feature, cost = check_feature(feature)
    if state.round < 1:
        raise InvalidInput("round", state.round, "a round that has started (start the first round first)")
    strike = is_malicious_strike(feature, book)
    if strike and monster is None:
        raise InvalidInput(
            "monster", None, "the monster making the Malicious Strike (its highest characteristic sets the damage)"
        )
    amount = check_amount(feature, cost if amount is None else amount, monster, book)
    if amount > state.malice:
        raise InvalidInput(
            "amount", amount, f"at most the {state.malice} Malice on hand", f"{feature.name} needs {amount}"
        )
    if strike and strike_not_twice_in_a_row(book) and (state.round - 1) in state.malicious_strike_rounds:
        raise InvalidInput(
            "feature", feature.name, "a feature other than Malicious Strike this round",
            f"Malicious Strike was used in round {state.round - 1}; it can't be used two rounds in a row",
        )
    _check_turn_limits(state, feature, book)
    text = f"{feature.name}: spend {amount}"
    rounds = state.malicious_strike_rounds
    if strike:
        assert monster is not None
        extra = malicious_strike_extra_damage(monster, amount, book)
        who = monster.name or "the monster"
        text += f" ({who}'s next strike: +{extra} damage to one target)"
        if state.round not in rounds:
            rounds = (*rounds, state.round)
    entry = MaliceEntry(
        round=state.round, kind="spend", change=-amount, malice=state.malice - amount, text=text
    )
    turn: dict[str, Any] = {}
    if state.turn_of is not None:
        if is_basic_feature(feature, book):
            turn["turn_basic"] = feature.name
        else:
            turn["turn_features"] = (*state.turn_features, feature.name)
    return state._with(entry, malice=state.malice - amount, malicious_strike_rounds=rounds, **turn)


def end_encounter(state: MaliceState) -> MaliceState:
    """The end of the encounter: any unused Malice is lost."""
    _check_open(state)
    entry = MaliceEntry(
        round=state.round, kind="end", change=-state.malice, malice=0,
        text=f"Encounter ends: {state.malice} unused Malice lost",
    )
    return state._with(entry, malice=0, ended=True)


@checked_methods
class MaliceTracker:
    """The table-side tracker: the current `state`, every earlier state for `undo`, and the log.

    A refused action raises `InvalidInput` and changes nothing. `reset` starts a new encounter with the
    same heroes (unused Malice is lost). `book`: the Malice features' rules (the shipped ones when None).
    """

    def __init__(self, heroes: int, victories: int | Sequence[int], book: FeatureBook | None = None) -> None:
        self._book = book or feature_book()
        self._history: list[MaliceState] = [start_encounter(heroes, victories)]

    @property
    def state(self) -> MaliceState:
        return self._history[-1]

    @property
    def malice(self) -> int:
        return self.state.malice

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def log(self) -> tuple[MaliceEntry, ...]:
        return self.state.log

    @property
    def can_undo(self) -> bool:
        return len(self._history) > 1

    def _push(self, state: MaliceState) -> MaliceState:
        self._history.append(state)
        return state

    def start_round(self) -> MaliceState:
        return self._push(start_round(self.state))

    def hero_dies(self, count: int = 1) -> MaliceState:
        return self._push(hero_dies(self.state, count))

    def spend(self, feature: Trait, amount: int | None = None, monster: Monster | None = None) -> MaliceState:
        return self._push(spend(self.state, feature, amount, monster, self._book))

    def end_encounter(self) -> MaliceState:
        return self._push(end_encounter(self.state))

    def start_turn(self, creature: str, side: Side = "monster") -> MaliceState:
        return self._push(start_turn(self.state, creature, side))

    def end_turn(self) -> MaliceState:
        return self._push(end_turn(self.state))

    def villain_action(self, creature: str, number: int) -> MaliceState:
        return self._push(villain_action(self.state, creature, number, self._book))

    def undo(self) -> MaliceState:
        """Go back one action; refused when there is nothing to undo."""
        if not self.can_undo:
            raise InvalidInput("undo", "nothing", "an action to undo")
        self._history.pop()
        return self.state

    def reset(self) -> MaliceState:
        """A new encounter with the same heroes and Victories; the old one ends first (its Malice is lost)."""
        first = self._history[0]
        return self._push(start_encounter(first.heroes, first.victories))
