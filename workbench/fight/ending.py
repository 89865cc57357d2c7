"""When a fight is over: every hero dead, every foe down or fled, or the objectives settled (combined: each
met or one failed; alternative: one met or all failed), and the objectives the foes' own state settles
(Defeat a Specific Foe, Diminish Numbers).

`check_end` runs after each change (`workbench.fight.fight`); `settle` and `finish` are also how an event's
rule settles an objective or ends the fight, so every ending reads and logs the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from workbench.encounter.objective import (
    DIMINISH_CONDITIONS,
    diminish_numbers_over,
    objective_rule,
    solo_flee_stamina,
)
from workbench.fight import malice_tracker as mal
from workbench.fight.state import FightState, Progress, Unit
from workbench.rules.encounter_tables import EncounterRules
from workbench.rules.feature_book import FeatureBook

__all__ = ["DIMINISH_HALF", "DIMINISH_SOLO", "check_end", "finish", "foe_counts", "foes_gone", "heroes_fighting",
           "settle"]


def heroes_fighting(state: FightState) -> int:
    """The heroes (not retainers or allies) still in the fight: who earns the Malice, outnumbers foes, acts."""
    return sum(1 for u in state.units if u.kind == "hero" and u.member == "hero" and u.active)


def settle(p: Progress, status: Literal["met", "failed"], round_: int, reason: str) -> Progress:
    return p.model_copy(update={"status": status, "settled_round": round_, "reason": reason})


def finish(state: FightState, reason: str) -> FightState:
    malice = mal.end_encounter(state.malice) if not state.malice.ended else state.malice
    return state.model_copy(update={"ended": True, "end_reason": reason, "turn": None, "malice": malice,
                                    "log": (*state.log, f"The fight ends: {reason}.")})


def foes_gone(state: FightState) -> bool:
    """Every foe down or fled (one held back is still to come)."""
    foes = [u for u in state.units if u.kind != "hero"]
    return bool(foes) and not any(u.active or u.status == "held" for u in foes)


# the objectives that the foes' own state settles; the others are the heroes' deeds (a hold for a number of
# rounds, a ward or a thing carried off, tasks, ...), which stay open when the last foe falls
_FOE_OBJECTIVES: Final = ("diminish_numbers", "defeat_a_specific_foe")


def _all_gone(state: FightState, rules: EncounterRules) -> FightState:
    """Every foe down or fled: Diminish Numbers is met and Defeat a Specific Foe too, but for a designated
    creature that fled; without objectives the heroes have won. An objective the heroes must still do (Hold
    Them Off's rounds, Escort's destination, Get the Thing!'s exit, ...) stays open: the fight goes on."""
    fled = any(u.status == "fled" and u.designated for u in state.units)
    out = []
    for p in state.objectives:
        if p.status == "open" and p.key in _FOE_OBJECTIVES:
            if p.key == "defeat_a_specific_foe" and fled:
                p = settle(p, "failed", state.round, objective_rule(p.key, rules).failure)
            else:
                p = settle(p, "met", state.round, "every foe is down or fled")
        out.append(p)
    state = state.model_copy(update={"objectives": tuple(out)})
    if not state.objectives:
        return finish(state, "every foe is down or fled")
    return state


def _foe_objectives(state: FightState, rules: EncounterRules, book: FeatureBook) -> FightState:
    """Objectives the foes' own state settles: Defeat a Specific Foe, Diminish Numbers (the condition the
    Director chose; else half or less, and the solo's in a battle against a solo)."""
    objectives = list(state.objectives)
    foes = [u for u in state.units if u.kind != "hero"]
    designated = [u for u in foes if u.designated]
    for i, p in enumerate(objectives):
        if p.status != "open":
            continue
        if p.key == "defeat_a_specific_foe":
            if any(u.status == "fled" for u in designated):
                objectives[i] = settle(p, "failed", state.round, objective_rule(p.key, rules).failure)
            elif designated and all(u.status == "dead" for u in designated):
                objectives[i] = settle(p, "met", state.round, objective_rule(p.key, rules).success)
        elif p.key == "diminish_numbers":
            chosen = (p.choice,) if p.choice else ("half", "solo")
            for condition in chosen:
                if condition == "solo":
                    met = any(_solo_gives_up(u, state, rules, book) for u in foes)
                else:
                    met = diminish_numbers_over(condition, heroes_fighting(state), _foe_count(foes, now=True),
                                                _foe_count(foes, now=False), _non_minions(foes), rules)
                if met:
                    objectives[i] = settle(p, "met", state.round, DIMINISH_CONDITIONS[condition])
                    break
    return state.model_copy(update={"objectives": tuple(objectives)})


def foe_counts(state: FightState) -> tuple[int, int, int]:
    """Diminish Numbers' counts: (foes in the fight, foes at the start, non-minion foes in the fight), each
    minion one foe."""
    foes = [u for u in state.units if u.kind != "hero"]
    return _foe_count(foes, now=True), _foe_count(foes, now=False), _non_minions(foes)


def _non_minions(foes: Sequence[Unit]) -> int:
    return sum(1 for u in foes if u.active and u.squad is None)


def _foe_count(foes: Sequence[Unit], now: bool) -> int:
    """Foes as creatures, each minion one: those still in the fight (`now`) or those at the start (neither
    held back nor reinforcements)."""
    total = 0
    for u in foes:
        if now:
            total += (u.squad.alive if u.squad is not None else 1) if u.active else 0
        elif u.at_start:
            total += u.squad.size if u.squad is not None else 1
    return total


def _solo_gives_up(unit: Unit, state: FightState, rules: EncounterRules, book: FeatureBook) -> bool:
    """A solo at a quarter of its Stamina or less that has used all its villain actions."""
    if not (unit.solo and unit.active and unit.current <= solo_flee_stamina(unit.maximum, rules)):
        return False
    used = {n for name, n, _ in state.malice.villain_actions if name == unit.name}
    return len(used) >= book.villain_actions.count


DIMINISH_SOLO: Final = DIMINISH_CONDITIONS["solo"]
DIMINISH_HALF: Final = DIMINISH_CONDITIONS["half"]


def check_end(state: FightState, mode: str, rules: EncounterRules, book: FeatureBook) -> FightState:
    """End the fight when it is over (objectives settled, every hero dead, or every foe down or fled), under
    the fight's encounter rules and feature book."""
    if state.ended:
        return state
    heroes = [u for u in state.units if u.kind == "hero" and u.member == "hero"]
    if heroes and not any(u.active for u in heroes):
        return finish(state, "every hero is dead")
    if foes_gone(state):
        state = _all_gone(state, rules)
        if state.ended:
            return state
    state = _foe_objectives(state, rules, book)
    statuses = [p.status for p in state.objectives]
    if not statuses:
        return state
    if mode == "alternative" and len(statuses) > 1:
        if "met" in statuses:
            return finish(state, "an objective is met")
        if all(s == "failed" for s in statuses):
            return finish(state, "every objective failed")
        return state
    if "failed" in statuses:
        return finish(state, "an objective failed")
    if all(s == "met" for s in statuses):
        return finish(state, "every objective is met")
    return state
