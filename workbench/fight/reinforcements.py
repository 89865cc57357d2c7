"""The reinforcements an objective brings each round, as an EV budget the Director spends on the encounter's
stat blocks: Hold Them Off's ("Each new group of enemies should have an EV equal to that of all the enemies
who got past the heroes during the previous round, plus the EV of one hero ... If you don't spend all the EV
for the new group, the remainder can be added to reinforcements in a future round") and Escort's ("any
enemies who were killed during the previous round are replaced by a new group of creatures whose total EV is
within 5 of the creatures lost").

Readings: a minion's EV is its stat block's EV of four ÷ 4; what got past is what the Director named when
counting Hold Them Off's creatures through; the EV already spent is that of the creatures that joined in the
round (reinforcements and creatures held back and brought in).
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from workbench.encounter.objective import escort_reinforcement_range, hold_reinforcement_ev
from workbench.encounter.party import budget
from workbench.fight.setup import FightContext
from workbench.fight.state import FightState, Unit
from workbench.numbers import format_number

__all__ = ["ReinforcementBudget", "piece_ev", "reinforcement_budget"]


class ReinforcementBudget(BaseModel):
    """The EV this round's reinforcements may total (`low` to `high`), what has joined so far, and why."""

    model_config = ConfigDict(frozen=True)
    objective: str
    round: int
    low: Fraction
    high: Fraction
    spent: Fraction
    working: str


def piece_ev(ctx: FightContext, unit: Unit, minions: int | None = None) -> Fraction:
    """A creature's EV, or `minions` of a squad's (all of them unless given): a minion's EV is a quarter of
    its stat block's EV of four."""
    if unit.entry is None:
        return Fraction(0)
    c = ctx.setup.encounter.creatures[unit.entry]
    if unit.squad is None:
        return Fraction(c.ev)
    return Fraction(c.ev, 4) * (unit.squad.size if minions is None else minions)


def _joined(ctx: FightContext, state: FightState, round_: int) -> Fraction:
    return sum((piece_ev(ctx, u) for u in state.units if u.joined == round_), Fraction(0))


def reinforcement_budget(ctx: FightContext, state: FightState) -> ReinforcementBudget | None:
    """This round's reinforcement budget for the first open objective that brings reinforcements."""
    r = state.round
    if r < 1:
        return None
    for p in state.objectives:
        if p.status != "open":
            continue
        if p.key == "hold_them_off":
            hero = budget(ctx.setup.encounter.party, rules=ctx.rules).hero_strength
            carried = Fraction(0)
            through = Fraction(0)
            total = Fraction(0)
            for k in range(1, r + 1):
                through = sum((piece_ev(ctx, state.unit(n), 1 if state.unit(n).squad is not None else None)
                               for rk, n in p.through if rk == k), Fraction(0))
                total = hold_reinforcement_ev(through, hero, carried, ctx.rules)
                if k < r:
                    carried = max(Fraction(0), total - _joined(ctx, state, k))
            spent = _joined(ctx, state, r)
            working = (f"EV through in round {r} {format_number(through)} + one hero's ES {format_number(hero)}"
                       f" + carried {format_number(carried)} = {format_number(total)}")
            return ReinforcementBudget(objective=p.name, round=r, low=Fraction(0), high=total, spent=spent,
                                       working=working)
        if p.key == "escort" and r >= 2:
            lost = Fraction(0)
            for u in state.units:
                if u.squad is not None:
                    lost += piece_ev(ctx, u, sum(n for k, n in u.dropped if k == r - 1))
                elif u.kind != "hero" and u.status == "dead" and u.down_round == r - 1:
                    lost += piece_ev(ctx, u)
            low, high = escort_reinforcement_range(lost, ctx.rules)
            working = (f"EV killed in round {r - 1}: {format_number(lost)}; replacements within "
                       f"{format_number(ctx.rules.objective_rules.escort_reinforcement_within)}: "
                       f"{format_number(low)} to {format_number(high)}")
            return ReinforcementBudget(objective=p.name, round=r, low=low, high=high,
                                       spent=_joined(ctx, state, r), working=working)
    return None
