"""The Victories a fight earns: each objective's for its difficulty, with the bonus the fight measured.

Without objectives, the difficulty's Victories on success and none on failure ("Encounter Objectives").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from pydantic import BaseModel, ConfigDict

from workbench.encounter.objective import ChosenObjective, objective_rule, objective_victories
from workbench.fight.events import foes_gone
from workbench.fight.setup import FightContext
from workbench.fight.state import FightState, Progress
from workbench.rules.encounter_tables import EncounterRules

__all__ = [
    "ESCORT_BONUS_ROUNDS",
    "ObjectiveResult",
    "FightResult",
    "result",
]

_FROZEN = ConfigDict(frozen=True)

ESCORT_BONUS_ROUNDS: Final = 3  # "reach their destination in 3 rounds or less"


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



def _bonus(p: Progress, state: FightState, rules: EncounterRules) -> bool:
    """The bonus the objective's Victories text names, as the fight measured it."""
    if p.key == "get_the_thing":
        return all(u.damage_taken == 0 for u in state.units if u.kind == "hero")
    if p.key == "save_another":
        return p.count("lost") == 0
    if p.key == "escort":
        return p.settled_round is not None and p.settled_round <= ESCORT_BONUS_ROUNDS
    if p.key == "hold_them_off":
        return (p.duration or 0) >= rules.objective_rules.long_duration
    if p.key == "stop_the_action":
        return p.settled_round is not None and p.duration is not None and p.settled_round < p.duration
    if p.key == "complete_the_action":
        return p.count("failures") == 0
    return False


def result(ctx: FightContext, state: FightState) -> FightResult:
    """The Victories each hero earns for the fight as it stands (zero until it has ended with success), by the
    encounter rules the fight is run under."""
    enc = ctx.setup.encounter
    rules = ctx.rules
    outcome = ctx.report.outcome
    rows = []
    for i, (chosen, p) in enumerate(zip(enc.objectives, state.objectives, strict=True)):
        difficulty = ctx.difficulty_of(i)
        bonus = _bonus(p, state, rules)
        met = p.status == "met"
        earned = objective_victories(ChosenObjective(key=chosen.key, conditions=chosen.conditions, bonus=bonus),
                                     difficulty, rules) if met else 0
        rule = objective_rule(chosen.key, rules)
        why = rule.victories_text if met else (p.reason or rule.failure if p.status == "failed" else "not met")
        bonus_text = f"; bonus: {rule.bonus}" if bonus and rule.bonus else ""
        rows.append(ObjectiveResult(key=chosen.key, name=p.name, met=met, difficulty=difficulty, bonus=bonus,
                                    victories=earned, working=f"{p.name} ({difficulty}): {earned}{bonus_text}. {why}"))
    if rows:
        if outcome.mode == "alternative" and len(rows) > 1:
            success = any(r.met for r in rows)
            victories = max((r.victories for r in rows if r.met), default=0)
            working = "Alternative objectives: " + rules.objective_rules.alternative_rule
        else:
            success = all(r.met for r in rows)
            victories = sum(r.victories for r in rows) if success else 0
            working = "" if len(rows) == 1 else "Combined objectives: " + rules.objective_rules.combined_rule
    else:
        heroes = [u for u in state.units if u.kind == "hero"]
        success = state.ended and foes_gone(state) and any(u.active for u in heroes)
        band = rules.band(outcome.difficulty)
        victories = band.victories if success else 0
        working = (f"No objective: a {outcome.difficulty} encounter is worth {band.victories} Victories"
                   if success else "The heroes earn no Victories if they ... fail to defeat their foes.")
    if state.judged_success is not None:  # the Director ended it (surrender, retreat) and judged it
        success, victories = state.judged_success, state.judged_victories or 0
        working = (f"The Director's judgement: {victories} Victor{'y' if victories == 1 else 'ies'} each"
                   if success else "The Director's judgement: no success, no Victories")
    success = success and state.ended
    victories = victories if success else 0
    return FightResult(
        success=success, reason=state.end_reason, difficulty=outcome.difficulty, victories=victories,
        objectives=tuple(rows), victories_after=ctx.setup.victories + victories, working=working,
    )
