"""The swarm's life (Generic Swarm Rule) as a state machine, and the seeded simulation of swarm fights."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import InvalidInput
from workbench.homebrew.rule import shipped_rules
from workbench.homebrew.swarm import (
    Phase,
    Swarm,
    SwarmScenario,
    TransitionRefused,
    simulate_swarms,
    swarm_fight,
)

DEFAULT = Swarm(disperse_value=3, reform_threshold=6)  # "N = 3", "M = 6" (Default baseline)


# ---------------------------------------------------------------- transitions


def test_a_swarm_starts_cohesive():
    # "A swarm is treated as a single creature while cohesive."
    assert DEFAULT.phase == Phase.COHESIVE and DEFAULT.individuals == 0


def test_at_zero_core_it_disperses_into_n_individuals():
    # "When a swarm is reduced to 0 Core ... It disperses into a number of individual creatures equal to
    # its Disperse Value (N)." N = 3 by default.
    dispersed = DEFAULT.disperse()
    assert dispersed.phase == Phase.DISPERSED and dispersed.individuals == 3


def test_n_comes_from_the_attached_module():
    rule = shipped_rules()["generic-swarm"].fill({"disperse_value": 4, "reform_threshold": 5})
    swarm = Swarm.from_rule(rule)
    assert (swarm.disperse_value, swarm.reform_threshold) == (4, 5)
    assert swarm.disperse().individuals == 4


def test_individuals_die_and_the_last_one_leaves_it_gone_for_good():
    dispersed = DEFAULT.disperse()
    assert dispersed.lose(1).individuals == 2  # 3 − 1
    gone = dispersed.lose(1).lose(2)
    assert gone.phase == Phase.GONE and gone.individuals == 0


def test_losing_none_is_allowed():
    assert DEFAULT.disperse().lose(0) == DEFAULT.disperse()


def test_reform_with_m_nearby_at_end_of_round_undisrupted():
    # "Dispersed individuals may reform into one swarm when both are true: the number of nearby individuals
    # is at least the Reform Threshold (M); they are not under active disruption." "Reform occurs at end of
    # round ..., and costs the reforming group its action for that beat."
    reformed = DEFAULT.disperse().reform(nearby=6, disrupted=False, end_of_round=True)
    assert reformed.phase == Phase.COHESIVE and reformed.individuals == 0
    assert reformed.action_spent
    assert not reformed.new_beat().action_spent


def test_a_reformed_swarm_can_disperse_again():
    again = DEFAULT.disperse().reform(nearby=7, disrupted=False).disperse()
    assert again.phase == Phase.DISPERSED and again.individuals == 3


@pytest.mark.parametrize(
    "swarm, transition, arguments",
    [
        # a dispersed swarm is already at 0 Core: it cannot disperse again
        (DEFAULT.disperse(), "disperse", {}),
        # a gone swarm cannot disperse
        (DEFAULT.disperse().lose(3), "disperse", {}),
        # a cohesive swarm is one creature: its individuals cannot die one by one
        (DEFAULT, "lose", {"killed": 1}),
        # a gone swarm has no one left to lose
        (DEFAULT.disperse().lose(3), "lose", {"killed": 0}),
        # only dispersed individuals reform
        (DEFAULT, "reform", {"nearby": 6, "disrupted": False}),
        # a gone swarm cannot reform
        (DEFAULT.disperse().lose(3), "reform", {"nearby": 6, "disrupted": False}),
        # 5 nearby is below M = 6
        (DEFAULT.disperse(), "reform", {"nearby": 5, "disrupted": False}),
        # under active disruption (fire, smoke, ...)
        (DEFAULT.disperse(), "reform", {"nearby": 6, "disrupted": True}),
        # not at end of round
        (DEFAULT.disperse(), "reform", {"nearby": 6, "disrupted": False, "end_of_round": False}),
    ],
)
def test_invalid_transitions_are_refused(swarm, transition, arguments):
    with pytest.raises(TransitionRefused) as caught:
        getattr(swarm, transition)(**arguments)
    error = caught.value
    assert error.code == "invalid-transition" and error.value == transition
    assert isinstance(error, InvalidInput) and error.reason


def test_a_refusal_says_what_is_allowed():
    with pytest.raises(TransitionRefused) as caught:
        DEFAULT.lose(1)
    assert "disperse from a cohesive swarm" in str(caught.value)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda s: s.lose(4), "killed"),  # more than the 3 living individuals
        (lambda s: s.lose(-1), "killed"),  # negative
        (lambda s: s.lose(True), "killed"),  # a flag is not a count
        (lambda s: s.reform(nearby=-1, disrupted=False), "nearby"),  # negative
        (lambda s: s.reform(nearby=6, disrupted="no"), "disrupted"),  # not True/False
    ],
)
def test_bad_arguments_are_refused_by_name(call, field):
    with pytest.raises(InvalidInput) as caught:
        call(DEFAULT.disperse())
    assert caught.value.field == field


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"phase": Phase.DISPERSED, "individuals": 0}, "individuals"),  # dispersed with no one alive
        ({"phase": Phase.COHESIVE, "individuals": 2}, "individuals"),  # cohesive is one creature, no individuals
        ({"phase": "liquid"}, "phase"),  # cohesive, dispersed or gone
        ({"disperse_value": 0}, "disperse_value"),  # "N": at least one individual
        ({"disperse_value": True}, "disperse_value"),  # a flag is not a number of creatures
        ({"reform_threshold": "6"}, "reform_threshold"),  # text where a whole number is wanted
        ({"reform_threshold": None}, "reform_threshold"),  # M must be given
    ],
)
def test_bad_swarms_are_refused_by_name(kwargs, field):
    with pytest.raises(InvalidInput) as caught:
        Swarm(**{"disperse_value": 3, "reform_threshold": 6} | kwargs)
    assert caught.value.field == field and caught.value.accepts


def test_a_swarm_may_be_built_in_any_consistent_state():
    assert Swarm(disperse_value=3, reform_threshold=6, phase="dispersed", individuals=2).lose(2).phase == Phase.GONE


@given(n=st.integers(1, 12), m=st.integers(1, 12), kills=st.lists(st.integers(0, 5), max_size=10))
def test_any_sequence_of_losses_ends_dispersed_or_gone_and_never_below_zero(n, m, kills):
    swarm = Swarm(disperse_value=n, reform_threshold=m).disperse()
    for k in kills:
        if swarm.phase == Phase.GONE:
            with pytest.raises(TransitionRefused):
                swarm.lose(0)
            break
        swarm = swarm.lose(min(k, swarm.individuals))
    assert swarm.individuals >= 0
    assert (swarm.phase == Phase.GONE) == (swarm.individuals == 0)


@given(m=st.integers(1, 12), nearby=st.integers(0, 20), disrupted=st.booleans(), end=st.booleans())
def test_reform_happens_exactly_when_the_rule_allows(m, nearby, disrupted, end):
    swarm = Swarm(disperse_value=3, reform_threshold=m).disperse()
    allowed = nearby >= m and not disrupted and end  # the two conditions and the timing, from the text
    if allowed:
        assert swarm.reform(nearby, disrupted, end).phase == Phase.COHESIVE
    else:
        with pytest.raises(TransitionRefused):
            swarm.reform(nearby, disrupted, end)


# ---------------------------------------------------------------- scenario input


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"swarms": 0}, "swarms"),  # at least one swarm
        ({"disperse_value": 0}, "disperse_value"),  # N from 1
        ({"reform_threshold": 1.5}, "reform_threshold"),  # M is a whole number
        ({"kills_per_round": -1}, "kills_per_round"),  # from 0
        ({"area_hits_to_break": 0}, "area_hits_to_break"),  # from 1
        ({"area_hit_chance": 1.2}, "area_hit_chance"),  # a chance is at most 1
        ({"disruption_chance": -0.1}, "disruption_chance"),  # a chance is at least 0
        ({"disruption_chance": "often"}, "disruption_chance"),  # not a number
        ({"area_hit_chance": True}, "area_hit_chance"),  # a flag is not a chance
        ({"area_hit_chance": Decimal("Infinity")}, "area_hit_chance"),  # not a finite number
        ({"disruption_chance": float("nan")}, "disruption_chance"),  # not a number
    ],
)
def test_bad_scenarios_are_refused_by_name(kwargs, field):
    with pytest.raises(InvalidInput) as caught:
        SwarmScenario(**kwargs)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "given_value, exact",
    [
        (0.3, Fraction(3, 10)),  # a slider's 0.3 means three in ten, not the nearest binary float
        ("1/4", Fraction(1, 4)),  # a fraction as text
        (Fraction(2, 3), Fraction(2, 3)),  # a fraction
        (1, Fraction(1)),  # certain
        (np.float64(0.3), Fraction(3, 10)),  # a value read from a frame (tuning_table's columns are floats)
        (np.float32(0.25), Fraction(1, 4)),  # a quarter is exact in any float
        (Decimal("0.35"), Fraction(7, 20)),  # a decimal, exactly
    ],
)
def test_chances_are_kept_exact(given_value, exact):
    assert SwarmScenario(disruption_chance=given_value).disruption_chance == exact


def test_bad_simulation_arguments_are_refused():
    with pytest.raises(InvalidInput) as caught:
        simulate_swarms(SwarmScenario(), random.Random(1), runs=0)
    assert caught.value.field == "runs"
    with pytest.raises(InvalidInput) as caught:
        simulate_swarms(SwarmScenario(), 42)
    assert caught.value.field == "rng"


# ---------------------------------------------------------------- fights worked by hand


def test_a_certain_fight_without_reforms_worked_by_hand():
    # Every area attack hits, every round is disrupted (no reform). 2 swarms, N = 3, 2 kills a round,
    # 2 area hits to break: round 1 first hit; round 2 both break -> 6 individuals, 2 die -> 4;
    # round 3 -> 2; round 4 -> 0. Gone for good after 4 rounds.
    scenario = SwarmScenario(
        swarms=2, disperse_value=3, reform_threshold=6, area_hit_chance=1, disruption_chance=1,
        kills_per_round=2, area_hits_to_break=2,
    )
    result = swarm_fight(scenario, random.Random(0))
    assert result.rounds == 4 and result.reforms == 0
    assert [r.individuals_after for r in result.log] == [0, 4, 2, 0]
    assert scenario.fewest_rounds() == 4


def test_a_certain_fight_with_a_reform_worked_by_hand():
    # Every area attack hits, never disrupted. 3 swarms, N = 3, M = 6, 2 kills a round, 1 hit to break:
    # round 1: all three break -> 9 individuals, 2 die -> 7 >= M and undisrupted: six of them reform into one
    # swarm at end of round, one stays an individual. Round 2: the swarm breaks -> 3 + 1, 2 die -> 2 (< M).
    # Round 3: the last two die.
    scenario = SwarmScenario(
        swarms=3, disperse_value=3, reform_threshold=6, area_hit_chance=1, disruption_chance=0,
        kills_per_round=2, area_hits_to_break=1,
    )
    result = swarm_fight(scenario, random.Random(0))
    assert (result.rounds, result.reforms) == (3, 1)
    assert [(r.reformed, r.cohesive_after, r.individuals_after) for r in result.log] == [
        (True, 1, 1), (False, 0, 2), (False, 0, 0)
    ]


@pytest.mark.parametrize(
    "swarms, reformed, individuals",
    [
        (4, 1, 6),  # 12 individuals, M = 6: one swarm of six, six stay (none vanish unkilled)
        (5, 1, 9),  # 15: one swarm, 9 stay
        (2, 1, 0),  # 6: all six reform
        (1, 0, 3),  # 3 < M: no reform
    ],
)
def test_reform_keeps_the_individuals_that_do_not_join(swarms, reformed, individuals):
    # "Dispersed individuals may reform into one swarm when ... The number of nearby individuals is at least the
    # Reform Threshold (M)": one swarm, of M individuals; the rest stay individuals
    scenario = SwarmScenario(
        swarms=swarms, disperse_value=3, reform_threshold=6, area_hit_chance=1, disruption_chance=0,
        kills_per_round=0, area_hits_to_break=1,
    )
    first = swarm_fight(scenario, random.Random(0), max_rounds=1).log[0]
    assert (first.swarms_reformed, first.cohesive_after, first.individuals_after) == (reformed, reformed, individuals)


def test_never_hit_never_cleared():
    result = simulate_swarms(SwarmScenario(area_hit_chance=0), random.Random(3), runs=20, max_rounds=30)
    assert result.cleared == 0 and result.mean_rounds is None and result.distribution() == {None: 20}


# ---------------------------------------------------------------- simulation


def test_a_seed_reproduces_the_simulation():
    a = simulate_swarms(SwarmScenario(), random.Random(2026), runs=300)
    b = simulate_swarms(SwarmScenario(), random.Random(2026), runs=300)
    c = simulate_swarms(SwarmScenario(), random.Random(2027), runs=300)
    assert a.rounds == b.rounds and a.reforms == b.reforms
    assert a.rounds != c.rounds  # a different seed gives different fights


def test_the_simulation_uses_only_the_generator_passed_in():
    random.seed(1)
    a = simulate_swarms(SwarmScenario(), random.Random(5), runs=50)
    random.seed(2)
    b = simulate_swarms(SwarmScenario(), random.Random(5), runs=50)
    assert a.rounds == b.rounds


def test_progress_is_reported_about_a_hundred_times_ending_at_the_total():
    calls: list[tuple[int, int]] = []
    simulate_swarms(SwarmScenario(), random.Random(1), runs=1000, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (1000, 1000)
    assert 10 <= len(calls) <= 101
    assert [d for d, _ in calls] == sorted({d for d, _ in calls})


def test_averages_are_exact_fractions():
    result = simulate_swarms(SwarmScenario(), random.Random(1), runs=200)
    cleared = [r for r in result.rounds if r is not None]
    assert result.mean_rounds == Fraction(sum(cleared), len(cleared))
    assert sum(result.distribution().values()) == 200


def _mean_rounds(runs: int = 1500, seed: int = 11, **kwargs) -> Fraction:
    result = simulate_swarms(SwarmScenario(**kwargs), random.Random(seed), runs=runs)
    assert result.cleared == result.runs  # every fight ends, so the averages compare like with like
    return result.mean_rounds


def _mean_reforms(runs: int = 1500, seed: int = 11, **kwargs) -> Fraction:
    return simulate_swarms(SwarmScenario(**kwargs), random.Random(seed), runs=runs).mean_reforms


def test_lower_n_clears_the_swarms_sooner():
    # "Lower N if the swarm should be easier to clear permanently."
    means = [_mean_rounds(disperse_value=n) for n in (2, 3, 4)]
    assert means[0] < means[1] < means[2]


def test_lower_m_reforms_more():
    # "Lower M if the swarm should return quickly." / "Raise M ... if reforming happens too often in play."
    reforms = [_mean_reforms(reform_threshold=m) for m in (3, 5, 6, 8)]
    assert reforms[0] > reforms[1] > reforms[2] > reforms[3]


def test_stronger_disruption_reforms_less():
    # "Raise M or strengthen disruption conditions if reforming happens too often in play."
    reforms = [_mean_reforms(disruption_chance=d) for d in ("0", "1/4", "1/2", "3/4")]
    assert reforms[0] > reforms[1] > reforms[2] > reforms[3]


scenarios = st.builds(
    SwarmScenario,
    swarms=st.integers(1, 4),
    disperse_value=st.integers(1, 6),
    reform_threshold=st.integers(1, 12),
    area_hit_chance=st.fractions(0, 1, max_denominator=20),
    disruption_chance=st.fractions(0, 1, max_denominator=20),
    kills_per_round=st.integers(0, 4),
    area_hits_to_break=st.integers(1, 3),
)


@settings(max_examples=60)
@given(scenario=scenarios, seed=st.integers(0, 2**32))
def test_every_fight_keeps_the_rules_invariants(scenario, seed):
    """Each logged round is re-counted by hand from the round before it and the Generic Swarm Rule."""
    n, m = scenario.disperse_value, scenario.reform_threshold
    result = swarm_fight(scenario, random.Random(seed), max_rounds=40)
    cohesive, individuals = scenario.swarms, 0  # the fight starts with every swarm cohesive
    for r in result.log:
        # only an area hit breaks swarms, never more than are cohesive; one hit breaks all when one is enough
        assert 0 <= r.dispersed <= cohesive and (r.area_hit or r.dispersed == 0)
        if r.area_hit and scenario.area_hits_to_break == 1:
            assert r.dispersed == cohesive
        # "It disperses into a number of individual creatures equal to its Disperse Value (N)"
        alive = individuals + r.dispersed * n
        assert r.killed == min(scenario.kills_per_round, alive)  # the party kills what it can
        alive -= r.killed
        # "may reform into one swarm when ... at least the Reform Threshold (M)" and "not under active
        # disruption", at end of round: exactly then, M individuals to a swarm, the rest stay individuals
        new = 1 if alive >= m and not r.disrupted else 0
        assert r.reformed == (new > 0) and r.swarms_reformed == new
        assert (r.cohesive_after, r.individuals_after) == (cohesive - r.dispersed + new, alive - new * m)
        cohesive, individuals = r.cohesive_after, r.individuals_after
    if result.rounds is not None:
        assert (cohesive, individuals) == (0, 0)
        assert len(result.log) == result.rounds
    else:
        assert len(result.log) == 40 and (cohesive, individuals) != (0, 0)


@settings(max_examples=40)
@given(scenario=scenarios, seed=st.integers(0, 2**32))
def test_without_reforms_no_fight_is_shorter_than_the_fewest_rounds(scenario, seed):
    # With M above every individual there can be (swarms × N), nothing reforms; then the swarms need
    # hits_to_break − 1 rounds before the first break and ⌈swarms × N ÷ kills⌉ rounds of killing.
    if scenario.reform_threshold <= scenario.swarms * scenario.disperse_value or scenario.kills_per_round == 0:
        return
    result = swarm_fight(scenario, random.Random(seed), max_rounds=60)
    assert result.reforms == 0
    lowest = scenario.area_hits_to_break - 1 + math.ceil(
        Fraction(scenario.swarms * scenario.disperse_value, scenario.kills_per_round)
    )
    if result.rounds is not None:
        assert result.rounds >= lowest


@settings(max_examples=40)
@given(
    swarms=st.integers(1, 4), n=st.integers(1, 6), kills=st.integers(1, 4), hits=st.integers(1, 3),
    seed=st.integers(0, 2**32),
)
def test_certain_hits_and_constant_disruption_take_exactly_the_fewest_rounds(swarms, n, kills, hits, seed):
    scenario = SwarmScenario(
        swarms=swarms, disperse_value=n, reform_threshold=1, area_hit_chance=1, disruption_chance=1,
        kills_per_round=kills, area_hits_to_break=hits,
    )
    expected = hits - 1 + -(-swarms * n // kills)  # ceiling division, by hand
    assert swarm_fight(scenario, random.Random(seed)).rounds == expected


@settings(max_examples=30)
@given(scenario=scenarios, seed=st.integers(0, 2**32))
def test_full_disruption_means_no_reform(scenario, seed):
    disrupted = SwarmScenario(**{**scenario.__dict__, "disruption_chance": 1})
    assert swarm_fight(disrupted, random.Random(seed), max_rounds=40).reforms == 0


# ---------------------------------------------------------------- escalation only while cohesive


def test_area_escalation_applies_to_a_cohesive_swarm_only():
    # "Area and Zone Attacks vs Cohesive Swarm ... Apply weakness base wound increase (+1 base wound), then
    # escalate by outcome"; after Disperse on Break, "Dispersed individuals use their own normal stat block."
    from workbench.homebrew.rule import load_rules

    rule = load_rules()["generic-swarm"].fill()
    swarm = Swarm.from_rule(rule)
    cohesive = swarm.wound(rule, "one_handed", "hit", ["area"])
    assert (cohesive.escalated, cohesive.value) == (True, 2)  # one-handed baseline 1 becomes 2
    dispersed = swarm.disperse().wound(rule, "one_handed", "hit", ["area"])
    assert (dispersed.escalated, dispersed.value) == (False, 1)  # the individual's own stat block: baseline 1
    assert "cohesive swarm only" in dispersed.reading
    with pytest.raises(InvalidInput):
        swarm.disperse().lose(3).wound(rule, "one_handed", "hit", ["area"])
