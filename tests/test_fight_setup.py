"""What a fight starts from (`workbench.fight.setup`): initiative groups, squads of up to eight, the Malice
features on offer, the Malice at arrival, each objective's duration as the encounter's report states it."""

from __future__ import annotations

import re
from fractions import Fraction

from fight_setups import BRUTE, SPINECLEAVER, boss_fight, encounter, group, platoon, refusal, solo_fight

from workbench.encounter.report import report
from workbench.fight.fight import Fight
from workbench.rules import encounter_tables
from workbench.rules.encounter_tables import encounter_rules


def test_initiative_groups_act_together():
    # "all creatures in the same initiative group acting on the same turn"
    fight = boss_fight()
    groups = [a for a in fight.actors if a.side == "monster"]
    assert [a.units for a in groups] == [("Goblin boss",), ("Goblin spinecleaver",), ("Orc 1", "Orc 2")]
    assert [a.label for a in fight.actors if a.side == "hero"] == ["Hero 1", "Hero 2", "Hero 3", "Hero 4"]
    fight.start_round()
    fight.start_turn("Group 3")
    fight.end_turn()
    assert fight.turns_left("Group 3") == 0
    assert "has taken its turn this round" in refusal(lambda: fight.start_turn("Group 3")).reason


def test_creatures_without_groups_are_grouped_by_the_suggestion_and_none_is_left_out():
    enc = encounter((BRUTE, 3))
    fight = Fight(enc)
    placed = [u for a in fight.actors if a.side == "monster" for u in a.units]
    assert sorted(placed) == ["Orc 1", "Orc 2", "Orc 3"]


def test_twelve_minions_of_one_group_make_two_squads_of_up_to_eight():
    # "squads of up to eight creatures"
    enc = encounter((SPINECLEAVER, 12), groups=[group((0, 12))])
    fight = Fight(enc)
    squads = [u for u in fight.units if u.kind == "squad"]
    assert [u.squad.size for u in squads] == [6, 6]
    assert len({u.name for u in squads}) == 2


def test_solo_action_is_offered_with_a_solo():
    # "Give them the following Malice feature: Solo Action (5 Malice)"
    assert "Solo Action" in [f.name for f in solo_fight().features]
    assert "Solo Action" not in [f.name for f in Fight(encounter((BRUTE, 1))).features]


def test_arrival_victories_replace_the_partys():
    fight = Fight(encounter((BRUTE, 1)), victories=Fraction(5, 2))
    fight.start_round()
    assert fight.malice == 2 + 4 + 1  # "the average number of Victories per hero", rounded down


# ---------------------------------------------------------------- the durations: the encounter's rules, one source


def _stated_duration(key, lines, long):
    """The rounds the encounter's report gives an objective: its typical duration, or the long one when the
    long duration is ticked; None when the report names no duration for it."""
    text = " ".join(lines)
    typical = re.search(r"A typical encounter duration is (\d+) rounds", text)
    longer = re.search(r"(\d+) or more rounds", text)
    if long and longer:
        return int(longer.group(1))
    return int(typical.group(1)) if typical else None


def _durations_agree():
    """Every objective (Hold Them Off also with its long duration ticked): the fight's rounds and the report's."""
    cases = [(key, {}) for key in encounter_rules().objectives] + [("hold_them_off", {"long_duration": True})]
    checked = []
    for key, conditions in cases:
        enc = platoon(4, key, **conditions)
        (lines,) = [lines for k, lines in report(enc).objective_numbers if k == key]
        (progress,) = Fight(enc).state.objectives
        assert progress.duration == _stated_duration(key, lines, bool(conditions)), (key, conditions, lines)
        checked.append((key, progress.duration))
    return checked


def test_the_fight_runs_each_objective_for_the_duration_the_encounter_report_states():
    checked = _durations_agree()
    timed = {key for key, duration in checked if duration is not None}
    assert timed == {"hold_them_off", "stop_the_action", "complete_the_action"}


def test_changed_durations_in_the_rules_reach_the_fight_and_the_report_alike(monkeypatch):
    rules = encounter_rules()
    timing = rules.objective_rules.model_copy(update={"typical_duration": 4, "long_duration": 7})
    changed = rules.model_copy(update={"objective_rules": timing})
    encounter_rules.cache_clear()
    monkeypatch.setattr(encounter_tables, "load_encounter_rules", lambda _path: changed)
    try:
        checked = dict(_durations_agree())
        assert checked["stop_the_action"] == 4 and checked["complete_the_action"] == 4
        long_hold = Fight(platoon(4, "hold_them_off", long_duration=True)).state.objectives[0]
        assert long_hold.duration == 7
    finally:
        monkeypatch.undo()
        encounter_rules.cache_clear()
