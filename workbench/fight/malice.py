"""The Director's Malice over a fight: the schedule it arrives on, a plan for spending it, and a tracker.

Rules: "Malice" (Monster Basics) and data/rules/malice.txt. Readings (data/rules/RULES-READINGS.md):
at the start of combat the Director gains the heroes' average Victories, rounded down; at the start of each
round, the living heroes plus the round number. The book's example is one gain at the start of round 1
(3 + 5 + 1 = 9), then 7, 8, 9, ... . A hero who dies stops generating Malice: deaths given for a round are
counted before that round's gain (a hero who falls during round 2 is missing from round 3's gain, so it is
given as a death "in round 3"). Unused Malice is lost at the end of the encounter.

Everything here is pure: states are frozen models and every action returns a new one, so `MaliceTracker`
can undo by keeping the old states. The basic Malice features themselves (their costs and text) come from
`workbench.rules.feature_book`; this module only schedules, plans and spends.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from numbers import Integral
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.model import Monster, Step, Trait, require_monster
from workbench.rules.feature_book import feature_book
from workbench.rules.limits import MAX_HEROES, MAX_ROUNDS, MAX_VICTORIES, whole

__all__ = [
    "basic_malice_features",
    "cost_advice",
    "malicious_strike_extra_damage",
    "malicious_strike_range",
    "is_malicious_strike",
    "strike_extra_damage",
    "MaliceRound",
    "average_victories",
    "malice_schedule",
    "Purchase",
    "PlannedRound",
    "SpendingPlan",
    "affordable_rounds",
    "encounter_features",
    "spending_plan",
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
    "is_basic_feature",
    "MaliceTracker",
]

SECTION = "Earning Malice"
_FROZEN = ConfigDict(frozen=True)


# ---------------------------------------------------------------- the book's features, for a monster


def basic_malice_features() -> tuple[Trait, ...]:
    """The Malice features every monster has: Brutal Effectiveness (3) and Malicious Strike (5+)."""
    return tuple(Trait.from_book(f) for f in feature_book().basic_malice.features)


def malicious_strike_range(monster: Monster) -> tuple[int, int]:
    """Malicious Strike's extra damage for this monster: from its highest characteristic to three times it.

    "Their next strike deals extra damage to one target equal to the monster's highest characteristic
    score ... (to a maximum of three times the monster's highest characteristic)."
    """
    monster = require_monster(monster)
    rule = feature_book().malicious_strike
    low = monster.highest_characteristic
    return low, low * rule.maximum_multiple


def malicious_strike_extra_damage(monster: Monster, malice: int) -> int:
    """The extra damage Malicious Strike deals when `malice` Malice is spent on it.

    5 Malice gives the highest characteristic; each further Malice adds 1, up to three times the highest
    characteristic (Malice spent beyond that adds nothing). Fewer than 5 Malice cannot buy the feature.
    """
    monster = require_monster(monster)
    return strike_extra_damage(monster.highest_characteristic, malice)


def strike_extra_damage(highest_characteristic: int, malice: int) -> int:
    """Malicious Strike's extra damage for a monster whose highest characteristic is given, for `malice` spent.

    The same rule as `malicious_strike_extra_damage`, for stat blocks that are not built Monsters (the pace
    of a fight reads published ones).
    """
    rule = feature_book().malicious_strike
    if isinstance(malice, bool) or not isinstance(malice, Integral) or malice < rule.base_cost:
        raise InvalidInput("malice", malice, f"a whole number of Malice from {rule.base_cost} upwards")
    low, high = highest_characteristic, highest_characteristic * rule.maximum_multiple
    return min(low + (int(malice) - rule.base_cost) * rule.extra_damage_per_malice, high)


def _cost_of(item: Any) -> int:
    cost = item.cost if isinstance(item, Trait) else item
    if isinstance(cost, bool) or not isinstance(cost, Integral) or cost < 0:
        raise InvalidInput(
            "costs", item, "whole numbers of Malice from 0 upwards (or Traits that have a cost)"
        )
    return int(cost)


def cost_advice(costs: Iterable[int | Trait], monster_types: int = 1) -> list[str]:
    """Hints from "That's So Much Malice!" for the Malice features prepared for one encounter.

    `costs` are the features' (least) costs, or the features themselves (`Trait` with a cost). The advice:
    prepare three features — four when the encounter has several monster types or bands — one costing
    2 to 3 Malice, one costing 5 and one costing 7 to 10. Returns one plain-words hint for each part of the
    advice not met; an empty list means the features cover it.
    """
    if isinstance(monster_types, bool) or not isinstance(monster_types, Integral) or monster_types < 1:
        raise InvalidInput("monster_types", monster_types, "a whole number from 1 upwards")
    if isinstance(costs, (str, bytes)) or not isinstance(costs, Iterable):
        raise InvalidInput("costs", costs, "a list of whole numbers of Malice")
    values = [_cost_of(item) for item in costs]
    advice = feature_book().advice
    hints: list[str] = []
    for band in advice.bands:
        if not any(band.low <= cost <= band.high for cost in values):
            hints.append(
                f"No feature costing {band.label} Malice: \"{advice.section}\" suggests preparing one."
            )
    enough = advice.features if monster_types == 1 else advice.features_with_several_types
    if len(values) > enough:
        kinds = "one monster type" if monster_types == 1 else "several monster types or bands"
        hints.append(
            f"{len(values)} features prepared: with {kinds} you often need only {enough} "
            f"(\"{advice.section}\")."
        )
    return hints


# ---------------------------------------------------------------- input checks


def average_victories(
    victories: int | Fraction | Decimal | Sequence[int], heroes: int | None = None
) -> int:
    """The heroes' average Victories, rounded down: the average itself (2, or 2.5 as a Fraction, Decimal or
    float) or one whole number per hero.

    "you gain Malice equal to the average number of Victories per hero": an average need not be whole; the
    workbench rounds it down, as the budget does (RULES-READINGS.md). With one number per hero, `heroes`
    (when given) must match their count.
    """
    accepts = (
        f"a number from 0 to {MAX_VICTORIES} (the average, e.g. 2 or 2.5), or one whole number from 0 to "
        f"{MAX_VICTORIES} per hero"
    )
    if isinstance(victories, Integral) and not isinstance(victories, bool):
        return whole("victories", victories, 0, MAX_VICTORIES, accepts)
    if isinstance(victories, Fraction | Decimal | float):
        if not math.isfinite(victories) or not 0 <= victories <= MAX_VICTORIES:  # before Fraction(1e100000000)
            raise InvalidInput("victories", victories, accepts)
        return math.floor(Fraction(victories))
    if isinstance(victories, (str, bytes)) or not isinstance(victories, Iterable):
        raise InvalidInput("victories", victories, accepts)
    each = list(victories)
    if not each or len(each) > MAX_HEROES or any(
        isinstance(v, bool) or not isinstance(v, Integral) or not 0 <= v <= MAX_VICTORIES for v in each
    ):
        raise InvalidInput("victories", victories, accepts)
    if heroes is not None and len(each) != heroes:
        raise InvalidInput(
            "victories", victories, accepts, f"{len(each)} values for {heroes} heroes"
        )
    return sum(int(v) for v in each) // len(each)


def _deaths_by_round(deaths: Any, rounds: int | None, heroes: int) -> dict[int, int]:
    """Deaths as {round: count} from a mapping or (round, count) pairs; duplicates add up."""
    accepts = (
        "pairs of round and count (round from 1 to the number of rounds, count from 0 upwards), "
        f"at most {heroes} in all"
    )
    if deaths is None:
        return {}
    pairs = list(deaths.items()) if isinstance(deaths, Mapping) else deaths
    out: dict[int, int] = {}
    try:
        for round_number, count in pairs:
            if isinstance(round_number, bool) or not isinstance(round_number, Integral):
                raise InvalidInput("deaths", deaths, accepts)
            if isinstance(count, bool) or not isinstance(count, Integral) or count < 0:
                raise InvalidInput("deaths", deaths, accepts)
            if int(round_number) < 1 or (rounds is not None and int(round_number) > rounds):
                raise InvalidInput("deaths", deaths, accepts, f"round {round_number} is not in the fight")
            out[int(round_number)] = out.get(int(round_number), 0) + int(count)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, InvalidInput):
            raise
        raise InvalidInput("deaths", deaths, accepts) from None
    if sum(out.values()) > heroes:
        raise InvalidInput("deaths", deaths, accepts, f"more deaths than the {heroes} heroes")
    return out


# ---------------------------------------------------------------- the schedule


class MaliceRound(BaseModel):
    """One round of the schedule: who was alive for its gain, what it gave, and the running total.

    `victories` is the start-of-combat part (round 1 only, else 0); `total` assumes nothing was spent.
    """

    model_config = _FROZEN
    round: int
    heroes: int
    deaths: int
    victories: int
    gain: int
    total: int

    @property
    def working(self) -> str:
        parts = ([str(self.victories)] if self.round == 1 else []) + [str(self.heroes), str(self.round)]
        return " + ".join(parts)

    def step(self) -> Step:
        """The gain with its formula, as the notebook shows it ("Malice gained in round 1 = 3 + 5 + 1 = 9")."""
        formula = "living heroes + round number"
        if self.round == 1:
            formula = "average Victories + " + formula
        reading = "average Victories rounded down" if self.round == 1 else None
        if self.deaths:
            note = f"{self.deaths} hero death(s) counted before this round's gain"
            reading = f"{reading}; {note}" if reading else note
        return Step(
            quantity=f"Malice gained in round {self.round}",
            formula=formula,
            working=self.working,
            value=self.gain,
            section=SECTION,
            reading=reading,
        )


def malice_schedule(
    heroes: int,
    victories: int | Sequence[int],
    rounds: int,
    deaths: Mapping[int, int] | Iterable[tuple[int, int]] | None = None,
) -> tuple[MaliceRound, ...]:
    """Malice gained in each round and the running total, if none is spent.

    Round 1 adds the start-of-combat gain (average Victories, rounded down) to the round's own gain.
    `deaths` maps a round to the heroes who died before its gain (they are missing from it and every later
    gain). Five heroes with three Victories each: 9, 7, 8, 9, 10 (totals 9, 16, 24, 33, 43).
    """
    heroes = whole("heroes", heroes, 1, MAX_HEROES)
    average = average_victories(victories, heroes)
    rounds = whole("rounds", rounds, 1, MAX_ROUNDS)
    by_round = _deaths_by_round(deaths, rounds, heroes)
    living, total, out = heroes, 0, []
    for number in range(1, rounds + 1):
        died = by_round.get(number, 0)
        living -= died
        start = average if number == 1 else 0
        gain = start + living + number
        total += gain
        out.append(
            MaliceRound(round=number, heroes=living, deaths=died, victories=start, gain=gain, total=total)
        )
    return tuple(out)


# ---------------------------------------------------------------- planning


def _check_feature(feature: object, field: str = "feature") -> tuple[Trait, int]:
    """A Malice feature and its cost (a Trait's cost may be None; a Malice feature's is a whole number)."""
    if not isinstance(feature, Trait) or isinstance(feature.cost, bool) or not isinstance(feature.cost, int):
        raise InvalidInput(field, feature, "a Malice feature: a Trait with a whole-number cost")
    if feature.cost < 1:
        raise InvalidInput(field, feature, "a Malice feature: a Trait with a cost from 1 upwards")
    return feature, feature.cost


def is_malicious_strike(feature: Trait) -> bool:
    """Malicious Strike (named in data/malice-features.toml) is the one feature that takes more than its cost."""
    return feature.name.strip().lower() == feature_book().malicious_strike.name.lower()


def _not_twice_in_a_row() -> bool:
    return feature_book().malicious_strike.not_two_rounds_in_a_row


class Purchase(BaseModel):
    """A feature the Director means to use and the Malice to put into it (more than its cost only for
    Malicious Strike, which takes 5+)."""

    model_config = _FROZEN
    feature: Trait
    amount: int


def _purchase(wish: Any) -> Purchase:
    if isinstance(wish, Purchase):
        wish = (wish.feature, wish.amount)
    if isinstance(wish, Trait):
        feature, cost = _check_feature(wish)
        return Purchase(feature=feature, amount=cost)
    try:
        feature, amount = wish
    except (TypeError, ValueError):
        raise InvalidInput(
            "features", wish, "Malice features (Traits with a cost), or (feature, amount) pairs"
        ) from None
    feature, _ = _check_feature(feature)
    _check_amount(feature, amount, None)
    return Purchase(feature=feature, amount=int(amount))


def _check_amount(feature: Trait, amount: Any, monster: Monster | None) -> int:
    cost = feature.cost or 0
    if not is_malicious_strike(feature):
        if isinstance(amount, bool) or not isinstance(amount, Integral) or amount != cost:
            raise InvalidInput("amount", amount, f"exactly {cost} (the cost of {feature.name})")
        return cost
    number = whole("amount", amount, cost, accepts=f"{cost} Malice or more for {feature.name}")
    if monster is not None:
        low, high = malicious_strike_range(monster)
        most = cost + (high - low) // feature_book().malicious_strike.extra_damage_per_malice
        if number > most:
            raise InvalidInput(
                "amount",
                number,
                f"{cost} to {most} Malice for this monster's {feature.name}",
                f"its extra damage stops at three times its highest characteristic ({high})",
            )
    return number


def encounter_features(monsters: Iterable[Monster] = (), extra: Iterable[Trait] = ()) -> tuple[Trait, ...]:
    """The Malice features a Director can spend on in an encounter with these monsters: the basic ones every
    monster has ("Basic Malice Features"), then each monster's own from its stat block (e.g. Solo Action on an
    instant solo, or a "[Creature] Malice" feature), then `extra`. Each name once, the first one kept."""
    monsters = tuple(monsters)
    for monster in monsters:
        require_monster(monster, "monsters")
    candidates = [*basic_malice_features(), *(f for m in monsters for f in m.malice_features), *extra]
    out: dict[str, Trait] = {}
    for feature in candidates:
        checked, _ = _check_feature(feature, "features")
        out.setdefault(checked.name.strip().lower(), checked)
    return tuple(out.values())


def affordable_rounds(
    schedule: Sequence[MaliceRound], features: Iterable[Trait]
) -> dict[str, int | None]:
    """The first round whose running total (nothing spent) covers each feature's cost; None: never."""
    out: dict[str, int | None] = {}
    for feature in features:
        checked, cost = _check_feature(feature, "features")
        out[checked.name] = next((r.round for r in schedule if r.total >= cost), None)
    return out


class PlannedRound(BaseModel):
    """One round of a spending plan: Malice on hand after the gain, what was bought, and what is left."""

    model_config = _FROZEN
    round: int
    gain: int
    available: int
    bought: tuple[Purchase, ...]
    spent: int
    left: int


class SpendingPlan(BaseModel):
    """A round-by-round plan, the wishes it could not fit, and the cost advice as a check."""

    model_config = _FROZEN
    rounds: tuple[PlannedRound, ...]
    unbought: tuple[Purchase, ...]
    advice: tuple[str, ...]
    lost: int


def _turns_used(bought: Sequence[Purchase], feature: Trait) -> int:
    """Monster turns this round already taken by purchases of `feature`'s kind: any basic feature (one per
    turn between them), or this very feature (each of a creature's own once per turn)."""
    if is_basic_feature(feature):
        return sum(1 for p in bought if is_basic_feature(p.feature))
    return sum(1 for p in bought if p.feature.name.casefold() == feature.name.casefold())


def spending_plan(
    schedule: Sequence[MaliceRound],
    wishes: Iterable[Trait | Purchase | tuple[Trait, int]],
    per_round: int | None = None,
    monster_turns: int | None = None,
) -> SpendingPlan:
    """Buy the wished-for features in the order given, each in the earliest round the Malice covers it.

    The order is kept (a big feature at the front is saved up for, as the book allows); Malicious Strike
    waits a round rather than be used two rounds in a row; `per_round` caps the purchases in one round.
    `monster_turns` (the monsters' turns in a round, e.g. their initiative groups) makes the per-turn limits
    count: one basic Malice feature "at the start of any monster's turn", and each creature's own Malice
    feature "once per turn", so a round holds at most that many of either.
    What is left after the last round is `lost` ("any unused Malice is lost"). `advice` is the
    "That's So Much Malice!" check on the distinct features wished for.
    """
    if isinstance(wishes, (str, bytes)) or not isinstance(wishes, Iterable):
        raise InvalidInput("wishes", wishes, "a list of Malice features (or (feature, amount) pairs) to buy")
    queue = [_purchase(w) for w in wishes]
    if per_round is not None:
        per_round = whole("per_round", per_round, 1, accepts="a whole number from 1 upwards, or None for no cap")
    if monster_turns is not None:
        monster_turns = whole("monster_turns", monster_turns, 1,
                              accepts="a whole number of monster turns a round from 1 upwards, or None")
    bank, last_strike, rows = 0, None, []
    for r in schedule:
        bank += r.gain
        available = bank
        bought: list[Purchase] = []
        while queue and (per_round is None or len(bought) < per_round):
            nxt = queue[0]
            if nxt.amount > bank:
                break
            if monster_turns is not None and _turns_used(bought, nxt.feature) >= monster_turns:
                break
            if is_malicious_strike(nxt.feature) and _not_twice_in_a_row() and last_strike == r.round - 1:
                break
            bought.append(queue.pop(0))
            bank -= nxt.amount
            if is_malicious_strike(nxt.feature):
                last_strike = r.round
        spent = available - bank
        rows.append(
            PlannedRound(round=r.round, gain=r.gain, available=available, bought=tuple(bought), spent=spent, left=bank)
        )
    distinct = {p.feature.name: p.feature for p in [*(b for row in rows for b in row.bought), *queue]}
    advice = tuple(cost_advice(distinct.values()))
    return SpendingPlan(rounds=tuple(rows), unbought=tuple(queue), advice=advice, lost=bank)


# ---------------------------------------------------------------- the tracker


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


def villain_action(state: MaliceState, creature: str, number: int) -> MaliceState:
    """`creature` uses its villain action `number` (1 to 3). "Each villain action can be used only once per
    encounter, and no more than one villain action can be used per round" (across every creature), and "A
    creature can use a villain action at the end of any other creature's turn": refused otherwise."""
    _check_open(state)
    creature = _creature(creature)
    count = feature_book().villain_actions.count
    number = whole("number", number, 1, accepts=f"a villain action number from 1 to {count}")
    if number > count:
        raise InvalidInput("number", number, f"a villain action number from 1 to {count}")
    words = feature_book().villain_actions.rules[0]
    if any(c.casefold() == creature.casefold() and n == number for c, n, _ in state.villain_actions):
        raise InvalidInput("villain_action", f"{creature} {number}", "a villain action not used yet", words)
    used = [f"{c} ({n})" for c, n, r in state.villain_actions if r == state.round]
    if used:
        raise InvalidInput("villain_action", f"{creature} {number}", "a villain action in a later round",
                           f"{used[0]} used one in round {state.round}: {words}")
    after = feature_book().villain_actions.rules[1].split(".")[0] + "."
    if state.turn_of is not None or state.ended_turn_of is None:
        raise InvalidInput("villain_action", f"{creature} {number}", "the end of a creature's turn", after)
    if state.ended_turn_of.casefold() == creature.casefold():
        raise InvalidInput("villain_action", f"{creature} {number}", "the end of another creature's turn",
                           after)
    entry = MaliceEntry(round=state.round, kind="villain", change=0, malice=state.malice,
                        text=f"{creature}: villain action {number} (after {state.ended_turn_of}'s turn)")
    return state._with(entry, villain_actions=(*state.villain_actions, (creature, number, state.round)))


def is_basic_feature(feature: Trait) -> bool:
    """One of the "Basic Malice Features" every monster has (activated at the start of a monster's turn)."""
    return feature.name.strip().casefold() in {f.name.casefold() for f in basic_malice_features()}


def _check_turn_limits(state: MaliceState, feature: Trait) -> None:
    """Per-turn limits, once the Director tracks turns: "At the start of any monster's turn, you can spend
    Malice to activate one of the following features" (one basic feature, on a monster's turn); a creature's
    own Malice features "once per turn" (each feature once in a turn; reading)."""
    if state.turn_of is None:
        return
    if is_basic_feature(feature):
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
) -> MaliceState:
    """Spend Malice on a feature; refused when there is not enough, and for Malicious Strike when it was
    used last round ("can't be used two rounds in a row, even by different monsters")."""
    _check_open(state)
    feature, cost = _check_feature(feature)
    if state.round < 1:
        raise InvalidInput("round", state.round, "a round that has started (start the first round first)")
    strike = is_malicious_strike(feature)
    if strike and monster is None:
        raise InvalidInput(
            "monster", None, "the monster making the Malicious Strike (its highest characteristic sets the damage)"
        )
    amount = _check_amount(feature, cost if amount is None else amount, monster)
    if amount > state.malice:
        raise InvalidInput(
            "amount", amount, f"at most the {state.malice} Malice on hand", f"{feature.name} needs {amount}"
        )
    if strike and _not_twice_in_a_row() and (state.round - 1) in state.malicious_strike_rounds:
        raise InvalidInput(
            "feature", feature.name, "a feature other than Malicious Strike this round",
            f"Malicious Strike was used in round {state.round - 1}; it can't be used two rounds in a row",
        )
    _check_turn_limits(state, feature)
    text = f"{feature.name}: spend {amount}"
    rounds = state.malicious_strike_rounds
    if strike:
        assert monster is not None
        extra = malicious_strike_extra_damage(monster, amount)
        who = monster.name or "the monster"
        text += f" ({who}'s next strike: +{extra} damage to one target)"
        if state.round not in rounds:
            rounds = (*rounds, state.round)
    entry = MaliceEntry(
        round=state.round, kind="spend", change=-amount, malice=state.malice - amount, text=text
    )
    turn: dict[str, Any] = {}
    if state.turn_of is not None:
        if is_basic_feature(feature):
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


class MaliceTracker:
    """The table-side tracker: the current `state`, every earlier state for `undo`, and the log.

    A refused action raises `InvalidInput` and changes nothing. `reset` starts a new encounter with the
    same heroes (unused Malice is lost).
    """

    def __init__(self, heroes: int, victories: int | Sequence[int]) -> None:
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
        return self._push(spend(self.state, feature, amount, monster))

    def end_encounter(self) -> MaliceState:
        return self._push(end_encounter(self.state))

    def start_turn(self, creature: str, side: Side = "monster") -> MaliceState:
        return self._push(start_turn(self.state, creature, side))

    def end_turn(self) -> MaliceState:
        return self._push(end_turn(self.state))

    def villain_action(self, creature: str, number: int) -> MaliceState:
        return self._push(villain_action(self.state, creature, number))

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
