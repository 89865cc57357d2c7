"""Guidelines read closely: terrain object levels, the large-party advice about solos, the role and
organization guidelines (item 8), shared villain actions, and every guideline firing and holding."""

from __future__ import annotations

import pytest
from encounter_setups import encounter, five_level_3

from workbench.encounter.encounter import Encounter, TerrainObject, parse_spec
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.rules.encounter_tables import encounter_rules
from workbench.rules.ruleset import DATA_DIR

RULES = DATA_DIR / "rules" / "monster-basics.txt"  # the rules text, copied into the repository


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
    assert "shouldn&#39;t have more than two controllers" in html
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


# ---------------------------------------------------------------- every guideline, firing and holding


@pytest.mark.parametrize(
    "party, specs, key, fires",
    [
        # Creature level: "no more than 2 greater than the heroes' level" (3rd-level heroes: up to 5)
        (five_level_3(), ["level 5 platoon brute"], "creature_level", False),
        (five_level_3(), ["level 6 platoon brute"], "creature_level", True),
        # "If the heroes have 6 or more Victories ... within 3 levels"
        (five_level_3(6), ["level 6 platoon brute"], "creature_level", False),
        (five_level_3(5), ["level 6 platoon brute"], "creature_level", True),
        (five_level_3(6), ["level 7 platoon brute"], "creature_level", True),
        # Solos: "no more than 1 level above the heroes' average level"
        (five_level_3(), ["level 4 solo"], "solo_level", False),
        (five_level_3(), ["level 5 solo"], "solo_level", True),
        (five_level_3(6), ["level 5 solo"], "solo_level", True),  # Victories do not lift the solo limit
        (make_party([3, 3, 4, 4]), ["level 5 solo"], "solo_level", True),  # average 3.5 + 1 = 4.5
        (make_party([4, 4, 4, 4]), ["level 5 solo"], "solo_level", False),  # 4 + 1 = 5
        # "no more than eight creatures per hero" (5 heroes: 40)
        (five_level_3(), ["40 x level 1 minion harrier"], "creatures_per_hero", False),
        (five_level_3(), ["44 x level 1 minion harrier"], "creatures_per_hero", True),
        # "more than three creatures per hero, at least half ... minions" (5 heroes: more than 15)
        (five_level_3(), ["16 x level 1 horde harrier"], "minion_half", True),
        (five_level_3(), ["8 x level 1 horde harrier", "8 x level 1 minion harrier"], "minion_half", False),
        (five_level_3(), ["15 x level 1 horde harrier"], "minion_half", False),  # not more than 3 per hero
        # "no more than six different kinds of stat blocks"
        (five_level_3(), [f"level 1 platoon {r}" for r in ("brute", "hexer", "harrier", "ambusher", "artillery", "defender")], "stat_blocks", False),
        (five_level_3(), [f"level 1 platoon {r}" for r in ("brute", "hexer", "harrier", "ambusher", "artillery", "defender", "support")], "stat_blocks", True),
        # "you buy them four at a time"
        (five_level_3(), ["8 x level 1 minion harrier"], "minions_by_four", False),
        (five_level_3(), ["6 x level 1 minion harrier"], "minions_by_four", True),
        (five_level_3(), ["4 x level 1 minion harrier", "4 x level 1 minion brute"], "minions_by_four", False),
        # "at least two sets of minions"
        (five_level_3(), ["4 x level 1 minion harrier"], "minion_sets", True),
        (five_level_3(), ["4 x level 1 minion harrier", "4 x level 1 minion brute"], "minion_sets", False),
        # "For a party of three or fewer heroes"
        (make_party(heroes=3, level=3), ["level 3 platoon brute"], "small_party", True),
        (make_party(heroes=4, level=3), ["level 3 platoon brute"], "small_party", False),
        (make_party(heroes=2, level=3, retainers=[3, 3]), ["level 3 platoon brute"], "small_party", False),
        # "For a party of seven or more heroes"
        # "For a party of seven or more heroes, you'll find that solo creatures don't quite live up to their
        # name": advice about solos, kept when the solo has lackeys
        (make_party(heroes=7, level=3), ["level 4 solo"], "large_party", True),
        (make_party(heroes=7, level=3), ["level 3 platoon brute"], "large_party", False),
        (make_party(heroes=7, level=3), ["level 4 solo", "4 x level 3 minion harrier"], "large_party", False),
        (make_party(heroes=6, level=3), ["level 4 solo"], "large_party", False),
    ],
)
def test_each_guideline_fires_and_holds(party, specs, key, fires):
    e = encounter(*specs, party=party)
    c = check(e, key)
    assert c.broken == fires
    if fires:
        assert all(quote in RULES.read_text() for quote in encounter_rules().guidelines.text[key].quotes)
        assert c.rule.startswith(encounter_rules().guidelines.text[key].quotes[0])  # the rule's own words
        assert c.detail


def test_guidelines_that_do_not_apply_are_not_broken():
    e = encounter("level 3 platoon brute")  # no minions, no solo, no star, no groups
    for key in ("solo_level", "minion_half", "minions_by_four", "minion_sets", "star_of_the_show", "group_ev", "group_count"):
        c = check(e, key)
        assert not c.applies and not c.broken


def star(spec, party=None, *more):
    c = parse_spec(spec).model_copy(update={"star": True})
    return Encounter(party=party or five_level_3()).adding(c, *more)


def test_star_of_the_show():
    # Hard for five 3rd-level heroes: 61-80. A level 5 leader (EV 28) in a total of 64: 28 >= 64 / 3.
    ok = star("level 5 leader", None, "6 x level 3 platoon brute")  # 28 + 60 = 88: extreme
    assert check(ok, "star_of_the_show").broken  # not hard
    ok = star("level 5 leader", None, "4 x level 3 platoon brute")  # 28 + 40 = 68: hard, 28 >= 22 2/3
    assert not check(ok, "star_of_the_show").broken
    assert "encounter's total EV" in check(ok, "star_of_the_show").detail  # the reading is shown with the number
    low = star("level 3 leader", None, "4 x level 4 platoon brute")  # 20 + 48 = 68: 20 < 22 2/3
    assert check(low, "star_of_the_show").broken
    elite = star("level 5 elite brute", None, "4 x level 3 platoon brute")  # an elite is not a leader/solo
    assert check(elite, "star_of_the_show").broken
