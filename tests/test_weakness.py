"""Weakness damage escalation: every ladder value as written, the one-source limit, the readings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.errors import InvalidInput
from workbench.homebrew.rule import shipped_rules
from workbench.homebrew.weakness import OUTCOMES, weakness_cases, weakness_wound, wound_for_source

WEAKNESS = shipped_rules()["exploitable-weakness"]
SWARM = shipped_rules()["generic-swarm"]
SILVER = WEAKNESS.fill({"tag": "silver"})
# A homebrewer's own unescalated values (the source does not give them): chosen here, by the test, so
# they are different from every ladder value and a mix-up would show.
OWN = {
    "one_handed_partial_critical": 11,
    "one_handed_legendary": 12,
    "two_handed_partial_critical": 21,
    "two_handed_legendary": 22,
}
SILVER_OWN = WEAKNESS.fill({"tag": "silver", **OWN})


@pytest.mark.parametrize("rule", [SILVER, SWARM.fill()], ids=["exploitable-weakness", "generic-swarm"])
@pytest.mark.parametrize(
    "grip, outcome, wound",
    [
        # "One-handed baseline (1) becomes 2, then 2 -> 3 -> 6"; "On a hit: use the first value"
        ("one_handed", "hit", 2),
        # "On a Partial Critical: use the second value of the adjusted ladder."
        ("one_handed", "partial_critical", 3),
        # the ladder's last value; "On a Legendary: no further upgrade applies" (reading: nothing beyond 6)
        ("one_handed", "legendary", 6),
        # "Two-handed baseline (2) becomes 3, then 3 -> 4 -> 8"; hit: first value
        ("two_handed", "hit", 3),
        # Partial Critical: second value
        ("two_handed", "partial_critical", 4),
        # Legendary: the ladder's last value, nothing beyond it
        ("two_handed", "legendary", 8),
    ],
)
def test_escalated_wound_is_the_written_ladder_value(rule, grip, outcome, wound):
    result = weakness_wound(rule, grip, outcome, matches_tag=True)
    assert result.value == wound and result.escalated and result.escalated_by == "this weakness"


@pytest.mark.parametrize(
    "grip, baseline",
    [
        ("one_handed", 1),  # "One-handed baseline (1)"
        ("two_handed", 2),  # "Two-handed baseline (2)"
    ],
)
def test_an_unmatched_hit_deals_the_baseline(grip, baseline):
    result = weakness_wound(SILVER, grip, "hit", matches_tag=False)
    assert result.value == baseline and not result.escalated


@pytest.mark.parametrize("grip", ["one_handed", "two_handed"])
@pytest.mark.parametrize("outcome", ["partial_critical", "legendary"])
def test_unescalated_partial_critical_and_legendary_are_not_invented(grip, outcome):
    result = weakness_wound(SILVER, grip, outcome, matches_tag=False)
    assert result.value is None
    assert result.missing == f"{grip}_{outcome}"
    assert "not given" in str(result)


@pytest.mark.parametrize("grip", ["one_handed", "two_handed"])
@pytest.mark.parametrize("outcome", ["partial_critical", "legendary"])
def test_unescalated_values_come_from_the_module_parameters(grip, outcome):
    result = weakness_wound(SILVER_OWN, grip, outcome, matches_tag=False)
    assert result.value == OWN[f"{grip}_{outcome}"] and result.missing is None


@pytest.mark.parametrize("grip", ["one_handed", "two_handed"])
@pytest.mark.parametrize("outcome", OUTCOMES)
def test_only_one_escalation_source_applies_to_a_hit(grip, outcome):
    # "Only one weakness escalation source may apply to a hit."
    alone = weakness_wound(SILVER_OWN, grip, outcome, matches_tag=True)
    other = weakness_wound(SILVER_OWN, grip, outcome, matches_tag=False, other_source_applied=True)
    both = weakness_wound(SILVER_OWN, grip, outcome, matches_tag=True, other_source_applied=True)
    assert both.value == alone.value == other.value
    assert both.escalated_by == "another source" and "only one weakness escalation source" in both.reading


def test_a_second_source_never_climbs_the_ladder_further():
    # one-handed hit escalated once is 2 (the first value of 2 -> 3 -> 6), never 3
    both = weakness_wound(SILVER, "one_handed", "hit", matches_tag=True, other_source_applied=True)
    assert both.value == 2


@pytest.mark.parametrize(
    "grip, wound",
    [
        ("one_handed", 12),  # the homebrewer's unescalated one-handed Legendary (OWN), not upgraded
        ("two_handed", 22),  # the homebrewer's unescalated two-handed Legendary (OWN), not upgraded
    ],
)
def test_the_other_reading_of_no_further_upgrade_is_a_switch(grip, wound):
    rule = WEAKNESS.fill({"tag": "silver", "legendary_reading": "unescalated", **OWN})
    result = weakness_wound(rule, grip, "legendary", matches_tag=True)
    assert result.value == wound and "does not upgrade a Legendary" in result.reading
    # hits and Partial Criticals are escalated as before: second values 3 and 4
    assert weakness_wound(rule, grip, "partial_critical", matches_tag=True).value == {"one_handed": 3, "two_handed": 4}[grip]


def test_the_legendary_reading_is_shown_with_the_number():
    result = weakness_wound(SILVER, "two_handed", "legendary", matches_tag=True)
    assert "no further upgrade" in result.reading


def test_the_homebrewers_own_values_are_the_four_parameters_the_source_leaves_open():
    # The source gives only the baselines (1 and 2); each grip's unescalated Partial Critical and Legendary
    # are the homebrewer's own, one parameter each.
    from workbench.homebrew.weakness import own_value_parameters

    assert own_value_parameters(WEAKNESS) == tuple(OWN)
    assert own_value_parameters(SWARM) == tuple(OWN)


def test_the_table_holds_every_case_once():
    cases = weakness_cases(SILVER_OWN)
    keys = {(c.grip, c.outcome, c.matches_tag, c.other_source_applied) for c in cases}
    assert len(cases) == len(keys) == 2 * 3 * 2 * 2


def test_the_table_agrees_with_the_function():
    for case in weakness_cases(SILVER_OWN):
        again = weakness_wound(SILVER_OWN, case.grip, case.outcome, case.matches_tag, case.other_source_applied)
        assert again == case


def test_the_working_shows_the_ladder():
    result = weakness_wound(SILVER, "one_handed", "partial_critical", matches_tag=True)
    assert "One-handed baseline (1) + 1 becomes 2, then 2 -> 3 -> 6" in result.working


@pytest.mark.parametrize(
    "tags, wound",
    [
        (["silver"], 3),  # matching tag: two-handed hit escalated, first value of 3 -> 4 -> 8
        (["Silver", "weapon"], 3),  # tags match whatever their case
        (["fire"], 2),  # no match: the two-handed baseline (2)
        ([], 2),  # no tags at all: the baseline
    ],
)
def test_the_match_is_looked_up_from_the_source_tags(tags, wound):
    assert wound_for_source(SILVER, "two_handed", "hit", tags).value == wound


@pytest.mark.parametrize(
    "tags, wound",
    [
        (["area"], 2),  # "Area or zone attacks are especially effective": one-handed hit escalated to 2
        (["zone", "fire"], 2),  # a zone attack, fire too: escalated once
        (["melee"], 1),  # not area or zone: one-handed baseline (1)
    ],
)
def test_the_swarm_escalates_area_and_zone_sources(tags, wound):
    assert wound_for_source(SWARM.fill(), "one_handed", "hit", tags).value == wound


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"grip": "three_handed"}, "grip"),  # not a ladder of the module
        ({"outcome": "critical"}, "outcome"),  # the outcomes are hit, partial_critical, legendary
        ({"matches_tag": "yes"}, "matches_tag"),  # a flag is True or False
        ({"other_source_applied": 1}, "other_source_applied"),  # a flag is True or False
    ],
)
def test_bad_input_is_refused_by_name(kwargs, field):
    arguments = {"grip": "one_handed", "outcome": "hit", "matches_tag": True} | kwargs
    with pytest.raises(InvalidInput) as caught:
        weakness_wound(SILVER, **arguments)
    assert caught.value.field == field


def test_a_module_without_ladders_is_refused():
    from workbench.homebrew.rule import HomebrewRule

    plain = HomebrewRule(format=1, id="plain", title="Plain", name="Plain", kind="trait", text="Nothing.")
    with pytest.raises(InvalidInput):
        weakness_wound(plain.fill(), "one_handed", "hit", True)


@given(
    grip=st.sampled_from(["one_handed", "two_handed"]),
    outcome=st.sampled_from(OUTCOMES),
    other=st.booleans(),
    pc=st.integers(0, 20),
    legendary=st.integers(0, 20),
)
def test_escalation_never_lowers_a_ladder_hit_and_matches_the_written_ladder(grip, outcome, other, pc, legendary):
    values = {f"{grip}_partial_critical": pc, f"{grip}_legendary": legendary}
    rule = WEAKNESS.fill({"tag": "silver", **values})
    written = {"one_handed": (2, 3, 6), "two_handed": (3, 4, 8)}[grip]  # the two ladders of the source
    result = weakness_wound(rule, grip, outcome, True, other)
    assert result.value == written[OUTCOMES.index(outcome)]
