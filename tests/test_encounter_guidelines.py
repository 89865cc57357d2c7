"""Guidelines read closely: terrain object levels, the large-party advice about solos,
suggested groups that keep their own check (item 6), and the role and organization guidelines (item 8)."""

from __future__ import annotations

import pytest

from workbench.encounter.encounter import Encounter, TerrainObject, check_groups, report, suggest_groups
from workbench.encounter.party import budget, make_party


def party(heroes=5, level=3):
    return make_party(heroes=heroes, level=level)


def check(e, key):
    return next(c for c in report(e).checks if c.key == key)


# ---------------------------------------------------------------- item 4: terrain object levels


@pytest.mark.parametrize(
    "levels, broken",
    [
        ((3,), False),  # "of the heroes' level"
        ((1, 2), False),  # "or lower"
        ((4,), True),  # one level above the heroes
        ((3, 5), True),
    ],
)
def test_terrain_objects_of_the_heroes_level_or_lower(levels, broken):
    # Step 3: Add Dynamic Terrain Objects: "Use only objects of the heroes' level or lower."
    e = Encounter(party=party()).adding(*(TerrainObject(name=f"trap {lvl}", ev=3, level=lvl) for lvl in levels))
    c = check(e, "terrain_level")
    assert c.applies and c.broken == broken
    assert c.rule == "Use only objects of the heroes' level or lower."
    if broken:
        assert f"trap {max(levels)} (level {max(levels)})" in c.detail


def test_terrain_level_against_a_mixed_partys_average():
    e = Encounter(party=make_party([3, 4])).adding(TerrainObject(name="pit", ev=2, level=4))
    assert check(e, "terrain_level").broken  # 4 > 3.5
    assert not check(Encounter(party=party()).adding(TerrainObject(name="pit", ev=2)), "terrain_level").applies


# ---------------------------------------------------------------- item 5: large parties


def test_large_party_advice_is_about_solos():
    # "For a party of seven or more heroes, you'll find that solo creatures don't quite live up to their name.
    # So give the solo creatures some lackeys or a few more dynamic terrain objects"
    brutes = Encounter(party=party(7)).adding("7 x level 3 platoon brute")
    assert not check(brutes, "large_party").applies
    alone = Encounter(party=party(7)).adding("level 4 solo")
    assert check(alone, "large_party").broken
    assert check(Encounter(party=party(7)).adding("level 4 leader instant solo"), "large_party").broken
    assert not check(alone.adding("4 x level 3 minion harrier"), "large_party").broken  # lackeys
    # the level 4 solo's EV 72 + 4 or 6 of terrain against ES 70 is standard, where Step 3 advises "one or two
    # dynamic terrain objects": three are "a few more", two are not
    few = alone.adding(*(TerrainObject(name=f"object {i}", ev=2, level=3) for i in range(2)))
    assert report(few).difficulty == "standard" and check(few, "large_party").broken
    more = alone.adding(*(TerrainObject(name=f"object {i}", ev=2, level=3) for i in range(3)))
    assert report(more).difficulty == "standard" and not check(more, "large_party").broken


# ---------------------------------------------------------------- item 6: suggested groups keep their check


def test_suggested_groups_beside_an_instant_solo_keep_the_group_check():
    # "It's okay to have one initiative group with a total EV of less than the recommendation above": eight
    # level 3 minions (EV 5 a set) beside an instant solo are one group of 10, not two of 5
    e = Encounter(party=party()).adding("level 3 leader instant solo", "8 x level 3 minion harrier")
    e = e.model_copy(update={"groups": suggest_groups(e)})
    assert len(e.groups) == 2
    group_ev = next(c for c in check_groups(e, budget(e.party).hero_strength) if c.key == "group_ev")
    assert not group_ev.broken, group_ev.detail


def test_suggested_groups_with_a_solo_leave_at_most_one_low_group():
    e = Encounter(party=party()).adding("level 4 solo", "12 x level 2 minion harrier", "level 1 horde hexer")
    e = e.model_copy(update={"groups": suggest_groups(e)})
    h = budget(e.party).hero_strength
    assert not next(c for c in check_groups(e, h) if c.key == "group_ev").broken


# ---------------------------------------------------------------- item 8: roles and organization


@pytest.mark.parametrize(
    "specs, key, applies, broken",
    [
        # "most combat encounters shouldn't have more than two controllers"
        (["2 x level 3 platoon controller", "level 3 platoon brute"], "controllers", True, False),
        (["3 x level 3 platoon controller", "level 3 platoon brute"], "controllers", True, True),
        (["2 x level 3 platoon controller", "level 3 elite controller"], "controllers", True, True),
        (["level 3 platoon brute"], "controllers", False, False),
        # "Typically, only one leader appears in a battle at a time" / "You typically shouldn't use more than one
        # leader or support creature in an encounter"
        (["level 3 leader", "2 x level 3 platoon brute"], "leaders_and_support", True, False),
        (["2 x level 3 leader"], "leaders_and_support", True, True),
        (["level 3 platoon support", "2 x level 3 platoon brute"], "leaders_and_support", True, False),
        (["2 x level 3 platoon support"], "leaders_and_support", True, True),
        (["level 3 leader", "level 3 platoon support"], "leaders_and_support", True, True),
        (["level 3 leader instant solo", "level 3 platoon support"], "leaders_and_support", True, False),
        # "a fight against creatures who all have the same role typically leads to dull, grindy combat"
        (["5 x level 3 platoon harrier"], "role_mix", True, True),
        (["level 3 platoon controller", "2 x level 3 platoon defender", "2 x level 3 platoon harrier"], "role_mix",
         True, False),
        (["level 3 leader", "4 x level 3 platoon harrier"], "role_mix", True, False),
        (["level 3 solo"], "role_mix", False, False),
        # "Using minions of a level within two levels of the characters' average level"
        (["8 x level 1 minion brute"], "minion_level", True, False),  # 3 - 2
        (["8 x level 5 minion brute"], "minion_level", True, False),  # 3 + 2
        (["8 x level 6 minion brute"], "minion_level", True, True),
        (["4 x level 3 minion brute", "4 x level 6 minion harrier"], "minion_level", True, True),
        (["level 6 platoon brute"], "minion_level", False, False),
    ],
)
def test_role_and_organization_guidelines(specs, key, applies, broken):
    c = check(Encounter(party=party()).adding(*specs), key)
    assert (c.applies, c.broken) == (applies, broken), c.detail


def test_role_guidelines_quote_the_rule_in_every_view():
    from workbench.cli.encounter import report_payload, report_text
    from workbench.render.encounter import checks_html

    r = report(Encounter(party=party()).adding("3 x level 3 platoon controller", "2 x level 3 leader"))
    words = {c.key: c.rule for c in r.broken}
    assert "most combat encounters shouldn't have more than two controllers" in words["controllers"]
    assert "more than one leader or support creature" in words["leaders_and_support"]
    html = checks_html(r)
    assert 'data-check="controllers" data-state="broken"' in html
    assert "shouldn&#x27;t have more than two controllers" in html
    assert {b["key"] for b in report_payload("", r)["broken"]} >= {"controllers", "leaders_and_support"}
    assert "(Controller Creatures)" in report_text("", r)


# ---------------------------------------------------------------- item 9: villain actions shared


@pytest.mark.parametrize(
    "specs, warned",
    [
        (["level 3 leader", "2 x level 3 platoon brute"], False),
        (["level 3 leader", "level 3 leader instant solo"], True),  # an instant solo has villain actions too
        (["2 x level 3 solo"], True),
        (["level 3 elite brute", "level 3 platoon brute"], False),
    ],
)
def test_two_creatures_with_villain_actions_share_one_a_round(specs, warned):
    # "no more than one villain action can be used per round. (This holds even if you have two or more creatures
    # with villain actions in an encounter, though such an occurrence should be rare.)"
    c = check(Encounter(party=party()).adding(*specs), "villain_actions")
    assert c.broken == warned
    assert "no more than one villain action can be used per round" in c.rule
