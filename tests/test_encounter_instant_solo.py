"""An instant solo is a solo wherever the rules speak of solos: the quick method's slots, the
solo level limit, the initiative-group advice, `suggest_groups`; saved encounters and monsters say so, and
files saved before they did keep loading."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from workbench.encounter.encounter import Creature, Encounter, creature_from_monster, parse_spec
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.groups import check_groups, suggest_groups
from workbench.encounter.party import budget, make_party
from workbench.encounter.quick_method import quick_plan, slots_of
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.monster.formulas import build_monster
from workbench.monster.library import load_monster, save_monster
from workbench.monster.solo import instant_solo, is_solo


def party(level=3, heroes=5):
    return make_party(heroes=heroes, level=level)


def solo_creature(level=3, organization="leader", role=None):
    return creature_from_monster(instant_solo(build_monster(level, organization, role)))


def check(r, key):
    return next(c for c in r.checks if c.key == key)


def test_an_instant_solo_is_a_solo():
    leader = build_monster(3, "leader")
    assert not is_solo(leader)
    assert is_solo(instant_solo(leader))
    assert is_solo(build_monster(3, "solo"))
    c = solo_creature()
    assert (c.organization, c.instant_solo, c.solo) == ("leader", True, True)
    assert not creature_from_monster(leader).solo


@pytest.mark.parametrize(
    "level, slots",
    [
        (3, 6),  # "fills six hero slots" (a leader fills two)
        (4, 7),  # "plus one slot for each level the creature is higher than the heroes"
        (5, 8),  # two levels above: 6 + 2
    ],
)
def test_quick_method_counts_an_instant_solo_as_a_solo(level, slots):
    # "One solo creature fills six hero slots plus one slot for each level the creature is higher than the heroes."
    assert slots_of(solo_creature(level), Fraction(3)) == slots
    assert slots_of(solo_creature(level, "elite", "brute"), Fraction(3)) == slots


def test_quick_method_solo_level_limit_applies_to_an_instant_solo():
    # hard: "Use creatures of the heroes' level and up to two levels higher, or up to one level higher for solo
    # creatures." A level 5 leader is fine at hard; a level 5 instant solo is two levels too high for a solo.
    plan = quick_plan(party(3), "hard", [solo_creature(5)])
    assert plan.level_problems and "above 4" in plan.level_problems[0]
    assert not quick_plan(party(3), "hard", [creature_from_monster(build_monster(5, "leader"))]).level_problems


def test_solo_level_guideline_fires_for_an_instant_solo():
    # "restrict them to no more than 1 level above the heroes' average level"
    e = Encounter(party=party(3)).adding(solo_creature(5))
    r = report(e)
    assert check(r, "solo_level").broken
    assert "above it" in check(r, "solo_level").detail
    assert not check(r, "creature_level").applies  # the ordinary limit (+2) is not the one for solos
    assert not check(report(Encounter(party=party(3)).adding(solo_creature(4))), "solo_level").broken


def test_group_count_advice_is_not_given_for_a_battle_with_an_instant_solo():
    # "In a battle without a solo creature, you want about as many initiative groups as the number of heroes"
    e = Encounter(party=party(3)).adding(solo_creature(3))
    e = e.model_copy(update={"groups": suggest_groups(e)})
    h = budget(e.party).hero_strength
    count = next(c for c in check_groups(e, h) if c.key == "group_count")
    assert not count.applies


def test_suggest_groups_puts_an_instant_solo_alone():
    # one hero, so at most three groups: with ten platoon creatures to place, an instant solo taken for an
    # elite (EV 36) would be given company once the other groups pass its EV
    e = Encounter(party=party(3, heroes=1)).adding(solo_creature(1, "elite", "brute"), "10 x level 3 platoon brute")
    groups = suggest_groups(e)
    solo_groups = [g for g in groups if any(i == 0 for i, _ in g.members)]
    assert len(solo_groups) == 1 and solo_groups[0].members == ((0, 1),)


def test_typed_spec_instant_solo():
    c = parse_spec("level 5 leader instant solo: the Baron")
    # EV x 3: the level 5 leader's (10 + 4) x 2 = 28, x 3 = 84
    assert (c.name, c.organization, c.ev, c.instant_solo) == ("the Baron", "leader", 84, True)
    with pytest.raises(InvalidInput, match="adapts only leaders and elites"):
        parse_spec("level 5 platoon brute instant solo")


def test_an_instant_solo_must_come_from_a_leader_or_elite():
    with pytest.raises(ValueError, match="instant_solo"):
        Creature(level=3, organization="platoon", role="brute", ev=10, instant_solo=True)


def test_encounter_file_says_instant_solo_and_old_files_load(tmp_path):
    e = Encounter(party=party(3)).adding(solo_creature(3))
    path = save_encounter(e, tmp_path / "boss.json")
    saved = json.loads(path.read_text())
    assert saved["encounter"]["creatures"][0]["instant_solo"] is True
    assert load_encounter(path).creatures[0].solo
    # a file saved before the field existed: version 1, no "instant_solo" key and no monster; it loads, as the
    # leader it says it is
    saved["version"] = 1
    for key in ("instant_solo", "monster"):
        del saved["encounter"]["creatures"][0][key]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(saved))
    loaded = load_encounter(old)
    assert (loaded.creatures[0].organization, loaded.creatures[0].ev, loaded.creatures[0].solo) == ("leader", 60, False)


def test_library_file_says_instant_solo_and_old_files_load(tmp_path):
    solo = instant_solo(build_monster(3, "leader").model_copy(update={"name": "Baron"}))
    path = save_monster(solo, "Baron", tmp_path)
    saved = json.loads(path.read_text())
    assert saved["instant_solo"] is True and saved["organization"] == "leader"
    assert is_solo(load_monster("Baron", tmp_path))
    del saved["instant_solo"]  # a file of an earlier workbench: its traits and numbers still tell
    path.write_text(json.dumps(saved))
    assert is_solo(load_monster("Baron", tmp_path))
