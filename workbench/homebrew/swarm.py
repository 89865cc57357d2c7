"""A swarm's life under the Generic Swarm Rule, and a seeded simulation of swarms against a party.

The rule (`homebrew-monster-rules.txt`): a swarm is one creature while cohesive; at 0 Core it disperses into
N individuals (Disperse on Break); dispersed individuals reform into one swarm when at least M are nearby and
they are not under active disruption, at end of round, and reforming costs the group its action (Reform).
`Swarm` is that life as a state machine — cohesive → dispersed → (reformed: cohesive again | gone) — and it
refuses every transition the rule does not allow (`TransitionRefused`, naming what is allowed).

`simulate_swarms` plays many fights with a random generator passed in, and reports how many rounds pass until
the swarms are gone for good: the "Rule of Thumb for Tuning" as numbers. The fight is a model, not a rule;
its assumptions are written on `SwarmScenario` and shown by the notebook.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from numbers import Integral, Real
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from workbench.arguments import checked_methods
from workbench.errors import InvalidInput
from workbench.homebrew.rule import FilledRule
from workbench.homebrew.weakness import Wound, weakness_wound, wound_for_source
from workbench.rules.limits import MAX_ROUNDS, true_or_false, whole

__all__ = [
    "Fight",
    "Phase",
    "RoundLog",
    "SimulationResult",
    "Swarm",
    "SwarmScenario",
    "TransitionRefused",
    "swarm_fight",
    "simulate_swarms",
]

Progress = Callable[[int, int], None]


class Phase(StrEnum):
    COHESIVE = "cohesive"
    DISPERSED = "dispersed"
    GONE = "gone"


class TransitionRefused(InvalidInput):
    """A transition the Generic Swarm Rule does not allow from the swarm's present state."""

    def __init__(self, transition: str, swarm: Swarm, reason: str) -> None:
        allowed = ", ".join(swarm.allowed()) or "nothing"
        super().__init__("transition", transition, f"{allowed} from a {swarm.phase} swarm", reason)
        self.phase = swarm.phase


_SWARM_ACCEPTS = {
    "disperse_value": "a whole number from 1 upwards (the Disperse Value N)",
    "reform_threshold": "a whole number from 1 upwards (the Reform Threshold M)",
    "phase": "cohesive, dispersed or gone",
    "individuals": "a whole number: above 0 while dispersed, 0 while cohesive or gone",
    "action_spent": "True or False",
}


@checked_methods
class Swarm(BaseModel):
    """One swarm: cohesive (one creature), dispersed into individuals, or gone for good."""

    model_config = ConfigDict(frozen=True, strict=True)

    disperse_value: int = Field(ge=1, description="N: individuals it disperses into at 0 Core")
    reform_threshold: int = Field(ge=1, description="M: nearby individuals needed to reform")
    phase: Phase = Field(Phase.COHESIVE, strict=False)
    individuals: int = Field(0, ge=0, description="living individuals while dispersed")
    action_spent: bool = Field(False, description="reformed this beat: the group's action is spent")

    def __init__(self, **data: Any) -> None:
        """Built from keywords; a bad one is refused as `InvalidInput` naming it (first problem first)."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            error = exc.errors()[0]
            name = str(error["loc"][0]) if error["loc"] else "individuals"
            value = data.get(name) if error["loc"] else data.get("individuals", 0)
            raise InvalidInput(name, value, _SWARM_ACCEPTS.get(name, "see Swarm"), str(error["msg"])) from None

    @model_validator(mode="after")
    def _individuals_match_phase(self) -> Swarm:
        if (self.phase == Phase.DISPERSED) != (self.individuals > 0):
            raise ValueError("a dispersed swarm has living individuals; a cohesive or gone swarm has none")
        return self

    @classmethod
    def from_rule(cls, rule: FilledRule) -> Swarm:
        """A cohesive swarm with the N and M of an attached Generic Swarm Rule."""
        n, m = rule.value("disperse_value"), rule.value("reform_threshold")
        if not isinstance(n, int) or not isinstance(m, int):
            raise InvalidInput("rule", rule.id, "a swarm module with disperse_value and reform_threshold")
        return cls(disperse_value=n, reform_threshold=m)

    def allowed(self) -> tuple[str, ...]:
        """The transitions the rule allows from here."""
        return {
            Phase.COHESIVE: ("disperse",),
            Phase.DISPERSED: ("lose", "reform"),
            Phase.GONE: (),
        }[self.phase]

    def disperse(self) -> Swarm:
        """Reduced to 0 Core: not dead, it disperses into N individuals (Disperse on Break)."""
        if self.phase != Phase.COHESIVE:
            raise TransitionRefused("disperse", self, "only a cohesive swarm is reduced to 0 Core and disperses")
        return self.model_copy(update={"phase": Phase.DISPERSED, "individuals": self.disperse_value})

    def lose(self, killed: int) -> Swarm:
        """`killed` dispersed individuals die; when none is left the swarm is gone for good."""
        if self.phase != Phase.DISPERSED:
            reason = (
                "a cohesive swarm is one creature: reduce it to 0 Core first"
                if self.phase == Phase.COHESIVE
                else "the swarm is already gone"
            )
            raise TransitionRefused("lose", self, reason)
        if isinstance(killed, bool) or not isinstance(killed, Integral) or not 0 <= killed <= self.individuals:
            raise InvalidInput("killed", killed, f"a whole number from 0 to {self.individuals}")
        left = self.individuals - int(killed)
        return self.model_copy(update={"individuals": left, "phase": Phase.DISPERSED if left else Phase.GONE})

    def reform_refusal(self, nearby: int, disrupted: bool, end_of_round: bool = True) -> str | None:
        """Why the group cannot reform now (None: it can)."""
        if self.phase != Phase.DISPERSED:
            return "only dispersed individuals reform"
        if not end_of_round:
            return "reform occurs at end of round (or equivalent scene beat)"
        if nearby < self.reform_threshold:
            return f"{nearby} nearby individual(s), fewer than the Reform Threshold M = {self.reform_threshold}"
        if disrupted:
            return "the individuals are under active disruption"
        return None

    def reform(self, nearby: int, disrupted: bool, end_of_round: bool = True) -> Swarm:
        """At end of round, with at least M individuals nearby (others' included) and no disruption, the
        group reforms into one cohesive swarm; this costs the group its action for that beat."""
        if isinstance(nearby, bool) or not isinstance(nearby, Integral) or nearby < 0:
            raise InvalidInput("nearby", nearby, "a whole number from 0 upwards")
        for name, flag in (("disrupted", disrupted), ("end_of_round", end_of_round)):
            true_or_false(name, flag)
        reason = self.reform_refusal(nearby, disrupted, end_of_round)
        if reason:
            raise TransitionRefused("reform", self, reason)
        return self.model_copy(update={"phase": Phase.COHESIVE, "individuals": 0, "action_spent": True})

    @property
    def area_escalation_applies(self) -> bool:
        """"Area and Zone Attacks vs Cohesive Swarm": only a cohesive swarm; "Dispersed individuals use their
        own normal stat block"."""
        return self.phase == Phase.COHESIVE

    def wound(
        self,
        rule: FilledRule,
        grip: str,
        outcome: str,
        source_tags: Iterable[str],
        other_source_applied: bool = False,
    ) -> Wound:
        """The wound a hit from a source with `source_tags` ('area', 'zone', ...) deals to this swarm under
        its swarm module `rule`: escalated by an area or zone source while the swarm is cohesive; once
        dispersed, the individuals "use their own normal stat block" and the swarm's escalation is gone."""
        if self.phase == Phase.GONE:
            raise TransitionRefused("wound", self, "the swarm is gone: nothing is left to hit")
        if isinstance(source_tags, str):
            raise InvalidInput("source_tags", source_tags, "a list of tags, e.g. ['area']")
        tags = tuple(source_tags)
        if self.area_escalation_applies:
            return wound_for_source(rule, grip, outcome, tags, other_source_applied)
        wound = weakness_wound(rule, grip, outcome, False, other_source_applied)
        if rule.matches(tags):
            note = ("dispersed individuals use their own normal stat block: the swarm's area and zone "
                    "escalation applies to a cohesive swarm only")
            wound = wound.model_copy(update={"reading": f"{wound.reading}; {note}" if wound.reading else note})
        return wound

    def new_beat(self) -> Swarm:
        """The next round begins: a reformed group has its action again."""
        return self.model_copy(update={"action_spent": False}) if self.action_spent else self


# ---------------------------------------------------------------- simulation


def _chance(field_name: str, value: Any) -> Fraction:
    """A probability from 0 to 1, kept exact: 0.3 means 3/10 (its decimal), not the nearest binary float."""
    accepts = "a chance from 0 to 1 (0.25, '1/4', Fraction(1, 4))"
    if isinstance(value, bool) or not isinstance(value, (Real, Decimal, str)):
        raise InvalidInput(field_name, value, accepts)
    try:
        if isinstance(value, (Integral, Fraction, Decimal, str)):
            chance = Fraction(value)
        else:  # a float of any kind (numpy's too, as read from a frame): the decimal it prints as
            chance = Fraction(repr(float(value)))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise InvalidInput(field_name, value, accepts) from None
    if not 0 <= chance <= 1:
        raise InvalidInput(field_name, value, accepts)
    return chance


@checked_methods
@dataclass(frozen=True)
class SwarmScenario:
    """One fight of `swarms` swarms against a party, round by round (a model; the assumptions):

    * Each round the party makes one area attack; it hits with `area_hit_chance` (one roll, every cohesive
      swarm is in the area). A cohesive swarm hit `area_hits_to_break` times is at 0 Core and disperses.
    * Independently, with `disruption_chance` the party's area effect is disruptive (fire, smoke, ...) and
      persists to the end of the round.
    * The party's other attacks kill `kills_per_round` dispersed individuals each round (after the area
      attack; wasted while every swarm is cohesive).
    * At end of round, if at least M dispersed individuals live (all of them count as nearby) and there is
      no disruption, M of them reform into one cohesive swarm at full Core; the others stay individuals
      and may reform at a later end of round (reading: "may reform into one swarm": one swarm a beat, made
      of the M the threshold asks for; a second swarm the same beat would let a swarm with N > M multiply).
    * The swarms are gone for good when no swarm is cohesive and no individual lives.
    """

    swarms: int = 3
    disperse_value: int = 3
    reform_threshold: int = 6
    area_hit_chance: Fraction = Fraction(3, 5)
    disruption_chance: Fraction = Fraction(1, 4)
    kills_per_round: int = 2
    area_hits_to_break: int = 2

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "swarms", whole("swarms", self.swarms, 1))
        set_(self, "disperse_value", whole("disperse_value", self.disperse_value, 1))
        set_(self, "reform_threshold", whole("reform_threshold", self.reform_threshold, 1))
        set_(self, "kills_per_round", whole("kills_per_round", self.kills_per_round, 0, MAX_ROUNDS))
        set_(self, "area_hits_to_break", whole("area_hits_to_break", self.area_hits_to_break, 1))
        set_(self, "area_hit_chance", _chance("area_hit_chance", self.area_hit_chance))
        set_(self, "disruption_chance", _chance("disruption_chance", self.disruption_chance))

    @classmethod
    def from_rule(cls, rule: FilledRule, **fight: Any) -> SwarmScenario:
        """A scenario with N and M from an attached swarm module; the fight's numbers as keywords."""
        swarm = Swarm.from_rule(rule)
        return cls(disperse_value=swarm.disperse_value, reform_threshold=swarm.reform_threshold, **fight)

    def fewest_rounds(self) -> int | None:
        """Rounds to clear if every area attack hits and nothing ever reforms (None: never, no kills).

        The last swarm breaks in round `area_hits_to_break`; from then on all swarms × N individuals die
        at `kills_per_round` a round: hits_to_break − 1 + ⌈swarms × N ÷ kills⌉.
        """
        if self.kills_per_round == 0:
            return None
        return self.area_hits_to_break - 1 + math.ceil(
            Fraction(self.swarms * self.disperse_value, self.kills_per_round)
        )


@dataclass(frozen=True)
class RoundLog:
    """What happened in one round of one fight."""

    round: int
    area_hit: bool
    disrupted: bool
    dispersed: int
    killed: int
    reformed: bool
    cohesive_after: int
    individuals_after: int
    swarms_reformed: int = 0


@dataclass(frozen=True)
class Fight:
    """One fight: the round the swarms were gone for good (None: not within `max_rounds`) and its log."""

    rounds: int | None
    reforms: int
    log: tuple[RoundLog, ...]


def _draw(rng: random.Random, chance: Fraction) -> bool:
    """True with probability `chance`, exactly: a whole number below the denominator, under the numerator."""
    return rng.randrange(chance.denominator) < chance.numerator


def _leave(dispersed: list[int], count: int) -> list[int]:
    """The dispersed groups (each its living individuals) after `count` of their individuals left to form a
    reformed swarm (taken from the first groups first); a group left with no one is dropped from the list (its
    individuals live on in the reformed swarm)."""
    out: list[int] = []
    for group in dispersed:
        take = min(count, group)
        count -= take
        if group > take:
            out.append(group - take)
    return out


def swarm_fight(scenario: SwarmScenario, rng: random.Random, max_rounds: int = 100, *, keep_log: bool = True) -> Fight:
    """Play one fight round by round (see `SwarmScenario` for the model).

    The swarms are played as numbers (a cohesive swarm: the area hits it has taken; a dispersed group: its
    living individuals), each step one `Swarm` allows: a swarm disperses into N individuals, individuals die,
    and a group reforms only when `Swarm.reform_refusal` finds no reason against it. A fight plays thousands of
    these steps, and a tuning grid thousands of fights.
    """
    if not isinstance(rng, random.Random):
        raise InvalidInput("rng", rng, "a random.Random (seed it for a reproducible fight)")
    max_rounds = whole("max_rounds", max_rounds, 1, MAX_ROUNDS)
    s = scenario
    can_reform = _reform_rule(s.disperse_value, s.reform_threshold)
    cohesive: list[int] = [0] * s.swarms  # each cohesive swarm's area hits taken
    dispersed: list[int] = []  # each dispersed group's living individuals
    reforms = 0
    log: list[RoundLog] = []
    for number in range(1, max_rounds + 1):
        area_hit = _draw(rng, s.area_hit_chance)
        disrupted = _draw(rng, s.disruption_chance)
        broke = 0
        if area_hit:
            still: list[int] = []
            for hits in cohesive:
                if hits + 1 >= s.area_hits_to_break:
                    dispersed.append(s.disperse_value)
                    broke += 1
                else:
                    still.append(hits + 1)
            cohesive = still
        to_kill = s.kills_per_round
        killed = 0
        survivors: list[int] = []
        for group in dispersed:
            take = min(to_kill, group)
            to_kill -= take
            killed += take
            if group > take:
                survivors.append(group - take)
        dispersed = survivors
        nearby = sum(dispersed)
        new_swarms = 0
        if dispersed and can_reform(nearby, disrupted):
            # one swarm a beat, of M individuals; the rest stay dispersed individuals
            new_swarms = 1
            cohesive.append(0)
            dispersed = _leave(dispersed, s.reform_threshold)
            reforms += 1
        reformed = new_swarms > 0
        individuals = sum(dispersed)
        if keep_log:
            log.append(RoundLog(number, area_hit, disrupted, broke, killed, reformed, len(cohesive), individuals,
                                new_swarms))
        if not cohesive and not dispersed:
            return Fight(number, reforms, tuple(log))
    return Fight(None, reforms, tuple(log))


def _reform_rule(disperse_value: int, reform_threshold: int) -> Callable[[int, bool], bool]:
    """Whether dispersed individuals with `nearby` living and `disrupted` reform at end of round: the rule's
    answer (`Swarm.reform_refusal` of a dispersed swarm), kept for each case the fight meets."""
    swarm = Swarm(disperse_value=disperse_value, reform_threshold=reform_threshold).disperse()
    answers: dict[tuple[int, bool], bool] = {}

    def can_reform(nearby: int, disrupted: bool) -> bool:
        answer = answers.get((nearby, disrupted))
        if answer is None:
            answer = answers[nearby, disrupted] = swarm.reform_refusal(nearby, disrupted) is None
        return answer

    return can_reform


@dataclass(frozen=True)
class SimulationResult:
    """Many fights of one scenario. Averages are exact fractions."""

    scenario: SwarmScenario
    max_rounds: int
    rounds: tuple[int | None, ...] = field(repr=False)
    reforms: tuple[int, ...] = field(repr=False)

    @property
    def runs(self) -> int:
        return len(self.rounds)

    @property
    def cleared(self) -> int:
        """Fights in which the swarms were gone for good within `max_rounds`."""
        return sum(r is not None for r in self.rounds)

    @property
    def share_cleared(self) -> Fraction:
        return Fraction(self.cleared, self.runs)

    @property
    def mean_rounds(self) -> Fraction | None:
        """Average rounds until gone for good, over the cleared fights (None: none cleared)."""
        done = [r for r in self.rounds if r is not None]
        return Fraction(sum(done), len(done)) if done else None

    @property
    def mean_reforms(self) -> Fraction:
        return Fraction(sum(self.reforms), self.runs)

    def distribution(self) -> dict[int | None, int]:
        """How many fights ended in each round (None: not within `max_rounds`), in round order."""
        counts = Counter(self.rounds)
        return {k: counts[k] for k in sorted(counts, key=lambda r: (r is None, r or 0))}


def simulate_swarms(
    scenario: SwarmScenario,
    rng: random.Random,
    runs: int = 1000,
    max_rounds: int = 100,
    progress: Progress | None = None,
) -> SimulationResult:
    """`runs` fights drawn from `rng`; `progress(done, runs)` is called about a hundred times (for a bar)."""
    runs = whole("runs", runs, 1)
    max_rounds = whole("max_rounds", max_rounds, 1, MAX_ROUNDS)
    if not isinstance(rng, random.Random):
        raise InvalidInput("rng", rng, "a random.Random (seed it for reproducible results)")
    every = max(1, runs // 100)
    rounds: list[int | None] = []
    reforms: list[int] = []
    for done in range(1, runs + 1):
        result = swarm_fight(scenario, rng, max_rounds, keep_log=False)
        rounds.append(result.rounds)
        reforms.append(result.reforms)
        if progress is not None and (done % every == 0 or done == runs):
            progress(done, runs)
    return SimulationResult(scenario, max_rounds, tuple(rounds), tuple(reforms))
