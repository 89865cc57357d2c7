"""A plan for spending the schedule's Malice: each wished-for feature bought in the earliest round it fits.

Rules: "Malice" (Monster Basics): unused Malice is lost at the end of the encounter, Malicious Strike
"can't be used two rounds in a row", and the per-turn limits of the basic and a creature's own features.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.fight.malice_features import (
    check_amount,
    check_feature,
    cost_advice,
    is_basic_feature,
    is_malicious_strike,
    strike_not_twice_in_a_row,
)
from workbench.fight.malice_schedule import MaliceRound
from workbench.model import Trait
from workbench.rules.feature_book import FeatureBook, feature_book
from workbench.rules.limits import whole

__all__ = [
    "Purchase",
    "PlannedRound",
    "SpendingPlan",
    "affordable_rounds",
    "spending_plan",
]

_FROZEN = ConfigDict(frozen=True)


class Purchase(BaseModel):
    """A feature the Director means to use and the Malice to put into it (more than its cost only for
    Malicious Strike, which takes 5+)."""

    model_config = _FROZEN
    feature: Trait
    amount: int


def _purchase(wish: Any, book: FeatureBook) -> Purchase:
    if isinstance(wish, Purchase):
        wish = (wish.feature, wish.amount)
    if isinstance(wish, Trait):
        feature, cost = check_feature(wish)
        return Purchase(feature=feature, amount=cost)
    try:
        feature, amount = wish
    except (TypeError, ValueError):
        raise InvalidInput(
            "features", wish, "Malice features (Traits with a cost), or (feature, amount) pairs"
        ) from None
    feature, _ = check_feature(feature)
    check_amount(feature, amount, None, book)
    return Purchase(feature=feature, amount=int(amount))


def affordable_rounds(
    schedule: Sequence[MaliceRound], features: Iterable[Trait]
) -> dict[str, int | None]:
    """The first round whose running total (nothing spent) covers each feature's cost; None: never."""
    out: dict[str, int | None] = {}
    for feature in features:
        checked, cost = check_feature(feature, "features")
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


def _turns_used(bought: Sequence[Purchase], feature: Trait, book: FeatureBook) -> int:
    """Monster turns this round already taken by purchases of `feature`'s kind: any basic feature (one per
    turn between them), or this very feature (each of a creature's own once per turn)."""
    if is_basic_feature(feature, book):
        return sum(1 for p in bought if is_basic_feature(p.feature, book))
    return sum(1 for p in bought if p.feature.name.casefold() == feature.name.casefold())


def spending_plan(
    schedule: Sequence[MaliceRound],
    wishes: Iterable[Trait | Purchase | tuple[Trait, int]],
    per_round: int | None = None,
    monster_turns: int | None = None,
    book: FeatureBook | None = None,
) -> SpendingPlan:
    """Buy the wished-for features in the order given, each in the earliest round the Malice covers it.

    The order is kept (a big feature at the front is saved up for, as the book allows); Malicious Strike
    waits a round rather than be used two rounds in a row; `per_round` caps the purchases in one round.
    `monster_turns` (the monsters' turns in a round, e.g. their initiative groups) makes the per-turn limits
    count: one basic Malice feature "at the start of any monster's turn", and each creature's own Malice
    feature "once per turn", so a round holds at most that many of either.
    What is left after the last round is `lost` ("any unused Malice is lost"). `advice` is the
    "That's So Much Malice!" check on the distinct features wished for. `book`: the Malice features' rules
    (the shipped ones when None).
    """
    book = book or feature_book()
    if isinstance(wishes, (str, bytes)) or not isinstance(wishes, Iterable):
        raise InvalidInput("wishes", wishes, "a list of Malice features (or (feature, amount) pairs) to buy")
    queue = [_purchase(w, book) for w in wishes]
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
            if monster_turns is not None and _turns_used(bought, nxt.feature, book) >= monster_turns:
                break
            strike = is_malicious_strike(nxt.feature, book)
            if strike and strike_not_twice_in_a_row(book) and last_strike == r.round - 1:
                break
            bought.append(queue.pop(0))
            bank -= nxt.amount
            if strike:
                last_strike = r.round
        spent = available - bank
        rows.append(
            PlannedRound(round=r.round, gain=r.gain, available=available, bought=tuple(bought), spent=spent, left=bank)
        )
    distinct = {p.feature.name: p.feature for p in [*(b for row in rows for b in row.bought), *queue]}
    advice = tuple(cost_advice(distinct.values(), book=book))
    return SpendingPlan(rounds=tuple(rows), unbought=tuple(queue), advice=advice, lost=bank)
