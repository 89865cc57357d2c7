"""The encounter: typed specs, total EV with minions by fours, every guideline firing and not firing,
initiative groups, objectives, files, and the data file's quotes checked against the rules text."""

from __future__ import annotations

import errno
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.encounter.encounter import (
    Encounter,
    InitiativeGroup,
    TerrainObject,
    check_groups,
    creature_from_monster,
    format_groups,
    load_encounter,
    parse_groups,
    parse_spec,
    report,
    save_encounter,
    suggest_groups,
)
from workbench.encounter.objective import (
    apply_objectives,
    choose_objective,
    escort_reinforcement_range,
    hold_reinforcement_ev,
    objective_keys,
    objective_numbers,
    objective_victories,
    thing_stamina,
    ward_stamina,
)
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput, RulesetError
from workbench.monster.formulas import build_monster
from workbench.rules.encounter_tables import DIFFICULTIES, encounter_rules, load_encounter_rules
from workbench.rules.ruleset import DATA_DIR

RULES = DATA_DIR / "rules" / "monster-basics.txt"  # the rules text, copied into the repository


def five_level_3(victories=0):
    return make_party(heroes=5, level=3, victories=victories)


def encounter(*specs, party=None, **kw):
    return Encounter(party=party or five_level_3(), **kw).adding(*specs) if specs else Encounter(
        party=party or five_level_3(), **kw
    )


# ---------------------------------------------------------------- specs and EV


# EV = ceil((2 x level + 4) x organization modifier), computed by hand per row.
@pytest.mark.parametrize(
    "spec, count, level, organization, role, ev, cost",
    [
        ("2 × level 3 platoon brute", 2, 3, "platoon", "brute", 10, 20),  # (6 + 4) x 1 = 10, two of them
        ("8 x level 2 minion harrier", 8, 2, "minion", "harrier", 4, 8),  # (4 + 4) x 0.5 = 4 per four
        ("level 4 leader", 1, 4, "leader", None, 24, 24),  # (8 + 4) x 2 = 24
        ("1 x LEVEL 5 Solo", 1, 5, "solo", None, 84, 84),  # (10 + 4) x 6 = 84
        ("3*lvl 1 horde hexer", 3, 1, "horde", "hexer", 3, 9),  # (2 + 4) x 0.5 = 3 each
        ("6 x level 2 minion harrier", 6, 2, "minion", "harrier", 4, 6),  # 6 minions: 4 x 6 / 4 = 6
        ("2 x level 1 elite defender: gate guards", 2, 1, "elite", "defender", 12, 24),  # (2 + 4) x 2
    ],
)
def test_typed_specs(spec, count, level, organization, role, ev, cost):
    c = parse_spec(spec)
    assert (c.count, c.level, c.organization, c.role, c.ev) == (count, level, organization, role, ev)
    assert c.cost() == cost


def test_spec_name_is_kept():
    assert parse_spec("2 x level 1 elite defender: gate guards").name == "gate guards"


@pytest.mark.parametrize(
    "spec, why",
    [
        ("two brutes", "not in that form"),  # no level
        ("2 x level 3 platoon", "needs a role"),  # platoon without a role
        ("2 x level 3 leader brute", "has no creature role"),  # leaders take no role
        ("2 x level 3 platoon wizard", "role"),  # unknown role
        ("2 x level 3 mob brute", "organization"),  # unknown organization
        ("2 x level 0 platoon brute", "level"),  # level 0
        ("0 x level 1 platoon brute", "at least 1"),  # nobody
        ("", "not in that form"),  # empty
    ],
)
def test_bad_specs_are_refused_clearly(spec, why):
    with pytest.raises(InvalidInput) as caught:
        parse_spec(spec)
    assert caught.value.code == "invalid-spec"
    assert why in str(caught.value)
    assert "2 × level 3 platoon brute" in str(caught.value)  # says what it accepts


def test_a_monster_from_the_builder_becomes_creatures():
    m = build_monster(5, "elite", "brute").model_copy(update={"name": "Ogre"})
    c = creature_from_monster(m, count=2)
    assert (c.name, c.ev, c.count, c.cost()) == ("Ogre", 28, 2, 56)  # (10 + 4) x 2 = 28 each


def test_total_ev_counts_minions_by_fours_and_terrain_at_the_given_ev():
    e = encounter("2 × level 3 platoon brute", "8 x level 2 minion harrier", "level 4 leader").adding(
        TerrainObject(name="collapsing pillar", ev=3)
    )
    # 20 + 8 x 4 / 4 + 24 = 52 for creatures, + 3 terrain
    assert e.creature_ev == 52 and e.terrain_ev == 3 and e.total_ev == 55
    r = report(e)
    assert r.total_ev == 55 and r.band == "standard"  # ES 50 <= 55 <= 60
    assert r.victories == 1


def test_minions_not_in_fours_cost_their_share():
    e = encounter("5 x level 2 minion harrier")  # 4 x 5 / 4 = 5
    assert e.total_ev == 5
    e = encounter("3 x level 1 minion harrier")  # level 1 minion EV (2 + 4) x 0.5 = 3; 3 x 3 / 4
    assert e.total_ev == Fraction(9, 4)


@given(
    st.lists(
        st.tuples(st.integers(1, 12), st.integers(1, 10), st.sampled_from(["minion", "horde", "platoon", "elite"])),
        min_size=0,
        max_size=6,
    ),
    st.integers(1, 12),
    st.integers(1, 10),
    st.sampled_from(["minion", "horde", "platoon", "elite", "leader", "solo"]),
)
@settings(max_examples=150)
def test_adding_creatures_never_lowers_the_ev_or_the_difficulty(entries, count, level, organization):
    specs = [f"{n} x level {lvl} {org} brute" for n, lvl, org in entries]
    before = encounter(*specs)
    role = "" if organization in ("leader", "solo") else " brute"
    after = before.adding(f"{count} x level {level} {organization}{role}")
    assert after.total_ev > before.total_ev
    a, b = report(before), report(after)
    assert DIFFICULTIES.index(b.band) >= DIFFICULTIES.index(a.band)


# ---------------------------------------------------------------- guidelines


def broken(e):
    return {c.key for c in report(e).broken}


def check(e, key):
    return next(c for c in report(e).checks if c.key == key)


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


def test_group_checks():
    e = encounter("4 x level 3 platoon brute", "8 x level 2 minion harrier")  # 40 + 8; h = 10
    fine = e.model_copy(
        update={
            "groups": (
                InitiativeGroup(members=((0, 1),)),  # 10
                InitiativeGroup(members=((0, 2),)),  # 20
                InitiativeGroup(members=((0, 1), (1, 4))),  # 14
                InitiativeGroup(members=((1, 4),)),  # 4: the one group allowed below
            )
        }
    )
    checks = {c.key: c for c in check_groups(fine, Fraction(10))}
    assert not checks["group_ev"].broken and not checks["group_count"].broken
    two_low = fine.model_copy(
        update={
            "groups": (
                InitiativeGroup(members=((0, 4),)),  # 40: above 20 and not a single creature
                InitiativeGroup(members=((1, 4),)),
                InitiativeGroup(members=((1, 4),)),
            )
        }
    )
    checks = {c.key: c for c in check_groups(two_low, Fraction(10))}
    assert checks["group_ev"].broken
    assert "groups 2, 3 are below" in checks["group_ev"].detail
    assert "groups 1 are above" in checks["group_ev"].detail
    # 5 heroes: 3 to 7 groups; two groups is too few
    pair = encounter("2 x level 3 platoon brute")
    few = pair.model_copy(
        update={"groups": (InitiativeGroup(members=((0, 1),)), InitiativeGroup(members=((0, 1),)))}
    )
    checks = {c.key: c for c in check_groups(few, Fraction(10))}
    assert checks["group_count"].broken and not checks["group_ev"].broken


def test_a_big_group_is_fine_for_a_single_creature_or_many_victories():
    e = encounter("level 5 elite brute")  # 28 > 20 but one creature
    one = e.model_copy(update={"groups": (InitiativeGroup(members=((0, 1),)),)})
    assert not check_groups(one, Fraction(10))[0].broken
    two = encounter("2 x level 5 platoon brute", party=five_level_3())  # 14 x 2 = 28 in one group
    grouped = two.model_copy(update={"groups": (InitiativeGroup(members=((0, 2),)),)})
    assert check_groups(grouped, Fraction(10))[0].broken
    rich = grouped.model_copy(update={"party": five_level_3(6)})
    assert not check_groups(rich, Fraction(10))[0].broken


def test_unplaced_and_overplaced_creatures():
    e = encounter("4 x level 3 platoon brute")
    part = e.model_copy(update={"groups": (InitiativeGroup(members=((0, 2),)),)})
    c = check_groups(part, Fraction(10))[0]
    assert c.broken and "not in a group yet" in c.detail
    over = e.model_copy(update={"groups": (InitiativeGroup(members=((0, 5),)),)})
    with pytest.raises(InvalidInput) as caught:
        check_groups(over, Fraction(10))
    assert caught.value.code == "invalid-groups"


def test_typed_groups():
    e = encounter("4 x level 3 platoon brute", "8 x level 2 minion harrier", "level 4 leader")
    groups = parse_groups("1×2, 2×4; 1x2; 2*4; 3", e)  # entry 3 alone: all of it (one leader)
    assert [g.members for g in groups] == [((0, 2), (1, 4)), ((0, 2),), ((1, 4),), ((2, 1),)]
    assert parse_groups(format_groups(groups), e) == groups


@pytest.mark.parametrize(
    "text, why",
    [
        ("1×5", "at most 4"),  # more brutes than were bought
        ("4", "entry 4 does not exist"),  # only three entries
        ("one", "cannot read"),  # not a number
        ("1×0", "from 1 upwards"),  # nobody
    ],
)
def test_bad_typed_groups(text, why):
    e = encounter("4 x level 3 platoon brute", "8 x level 2 minion harrier", "level 4 leader")
    with pytest.raises(InvalidInput) as caught:
        parse_groups(text, e)
    assert caught.value.code == "invalid-groups" and why in str(caught.value)


@given(
    st.lists(
        st.tuples(st.integers(1, 12), st.integers(1, 6), st.sampled_from(["minion", "horde", "platoon", "elite", "leader", "solo"])),
        min_size=1,
        max_size=6,
    ),
    st.integers(1, 8),
)
@settings(max_examples=150)
def test_suggested_groups_place_every_creature_once(entries, heroes):
    specs = [
        f"{n} x level {lvl} {org}" + ("" if org in ("leader", "solo") else " harrier") for n, lvl, org in entries
    ]
    e = encounter(*specs, party=make_party(heroes=heroes, level=3))
    groups = suggest_groups(e)
    placed: dict[int, int] = {}
    for g in groups:
        for index, count in g.members:
            placed[index] = placed.get(index, 0) + count
    assert placed == {i: c.count for i, c in enumerate(e.creatures)}
    solos = sum(c.count for c in e.creatures if c.organization == "solo")
    others = len(groups) - solos
    pieces = sum(
        -(-c.count // 4) if c.minion else c.count for c in e.creatures if c.organization != "solo"
    )
    if pieces:
        assert 1 <= others <= min(heroes + 2, pieces)
        if not solos:  # "In a battle without a solo creature, you want about as many initiative groups ..."
            assert others >= min(max(heroes - 2, 1), pieces)


# ---------------------------------------------------------------- objectives


@pytest.mark.parametrize(
    "key, conditions, base, difficulty, victories",
    [
        # Diminish Numbers: "This objective doesn't modify an encounter's difficulty." 1 / 1 / 2 / 2
        ("diminish_numbers", {}, "standard", "standard", 1),
        ("diminish_numbers", {}, "hard", "hard", 2),
        # Defeat a Specific Foe: "one-third or less of the opposing side's total EV ... decreases by one level"
        ("defeat_a_specific_foe", {"designated_third_or_less": True}, "hard", "standard", 1),
        ("defeat_a_specific_foe", {}, "hard", "hard", 2),
        # Get the Thing!: no powerful guard -> easier; hidden or held -> harder; hard earns 1
        ("get_the_thing", {"unguarded": True}, "standard", "easy", 1),
        ("get_the_thing", {"hidden_or_held": True}, "standard", "hard", 1),
        ("get_the_thing", {"hidden_or_held": True}, "hard", "extreme", 2),
        ("get_the_thing", {"unguarded": True, "hidden_or_held": True}, "standard", "standard", 1),
        # Destroy the Thing!: no extra defenses -> easier; two or more -> harder
        ("destroy_the_thing", {"no_extra_defenses": True}, "standard", "easy", 1),
        ("destroy_the_thing", {"two_or_more_defenses": True}, "standard", "hard", 2),
        # Save Another: allies add heroes (budget), not a category shift
        ("save_another", {"willing_allies": 2}, "standard", "standard", 1),
        # Escort: "protecting a delicate ward is one difficulty category harder"; hard earns 1
        ("escort", {"delicate_ward": True}, "standard", "hard", 1),
        ("escort", {"delicate_ward": True}, "hard", "extreme", 2),
        # Hold Them Off: 5+ rounds or 3+ positions -> harder
        ("hold_them_off", {"long_or_many_positions": True}, "easy", "standard", 1),
        # Assault the Defenses: two or more benefits -> harder; hard earns 2
        ("assault_the_defenses", {"two_or_more_benefits": True}, "standard", "hard", 2),
        # Stop the Action: 2 rounds or less -> harder; any one creature stops it -> easier
        ("stop_the_action", {"short_duration": True}, "standard", "hard", 1),
        ("stop_the_action", {"one_creature_stops_it": True}, "standard", "easy", 1),
        # Complete the Action: 5+ or a test -> harder; 2 or less -> easier
        ("complete_the_action", {"long_or_tested": True}, "hard", "extreme", 2),
        ("complete_the_action", {"short_duration": True}, "easy", "trivial", 0),  # trivial: no Victories
    ],
)
def test_each_objective_modifier(key, conditions, base, difficulty, victories):
    outcome = apply_objectives(base, [choose_objective(key, **conditions)])
    assert outcome.difficulty == difficulty
    assert outcome.victories == victories


@pytest.mark.parametrize(
    "key, difficulty, plain, with_bonus",
    [
        # "or if none of the heroes took damage during an encounter of standard or higher difficulty"
        ("get_the_thing", "standard", 1, 2),
        ("get_the_thing", "easy", 1, 1),  # below standard: no bonus
        ("escort", "hard", 1, 2),  # "in 3 rounds or less and ... standard or higher"
        ("save_another", "standard", 1, 2),  # "all the creatures meant to be saved survived"
        ("hold_them_off", "standard", 1, 2),
        ("stop_the_action", "hard", 1, 2),
        ("complete_the_action", "standard", 1, 2),
        ("diminish_numbers", "standard", 1, 1),  # no bonus in its text
    ],
)
def test_bonus_victories(key, difficulty, plain, with_bonus):
    assert objective_victories(choose_objective(key), difficulty) == plain
    assert objective_victories(choose_objective(key, bonus=True), difficulty) == with_bonus


def test_save_another_adds_heroes_to_the_budget():
    # five 3rd-level heroes, EV 60: standard (50-60); two willing allies make ES 70 -> 60 is easy
    e = encounter("6 x level 3 platoon brute")
    assert report(e).difficulty == "standard"
    saved = e.model_copy(update={"objectives": (choose_objective("save_another", willing_allies=2),)})
    r = report(saved)
    assert r.budget.encounter_strength == 70 and r.difficulty == "easy"


def test_combined_objectives_add_shifts_and_victories():
    both = [choose_objective("destroy_the_thing", two_or_more_defenses=True), choose_objective("hold_them_off")]
    outcome = apply_objectives("standard", both)
    assert outcome.difficulty == "hard"
    assert outcome.victories == 2 + 1  # Destroy the Thing at hard 2, Hold Them Off at hard 1


def test_there_are_ten_objectives_and_bad_choices_are_refused():
    assert len(objective_keys()) == 10
    with pytest.raises(InvalidInput) as caught:
        choose_objective("win")
    assert caught.value.code == "invalid-objective"
    with pytest.raises(InvalidInput) as caught:
        choose_objective("escort", hidden=True)
    assert caught.value.code == "invalid-condition"
    with pytest.raises(InvalidInput):
        choose_objective("save_another", willing_allies=-1)


@pytest.mark.parametrize(
    "level, sturdy, things, expected",
    [
        (3, False, 1, (105,)),  # "the heroes' level times 35"
        (3, True, 1, (150,)),  # "Sturdy: The thing's Stamina is the heroes' level times 50."
        (4, False, 2, (70, 70)),  # 140 divided between two
        (3, False, 2, (53, 52)),  # 105 does not halve evenly: the parts still add up to 105
    ],
)
def test_thing_stamina(level, sturdy, things, expected):
    assert thing_stamina(level, sturdy, things) == expected


def test_ward_and_reinforcements():
    assert ward_stamina(4) == 80  # "20 times the heroes' level"
    assert ward_stamina(4, delicate=True) == 40  # "10 times the heroes' level"
    assert hold_reinforcement_ev(12, 10) == 22  # got past + "the EV of one hero"
    assert hold_reinforcement_ev(12, 10, carried=3) == 25  # "the remainder can be added ... future round"
    assert escort_reinforcement_range(12) == (7, 17)  # "within 5 of the creatures lost"
    assert escort_reinforcement_range(3) == (0, 8)


@pytest.mark.parametrize(
    "key, party, shown",
    [
        # "A typical thing is an object with Stamina equal to the heroes' level times 35." / "Sturdy: ... 50"
        ("destroy_the_thing", make_party(heroes=5, level=3), ["35 × 3 = 105", "50 × 3 = 150"]),
        # a mixed party: the heroes' level read as the exact average, 3.5 -> 122.5 and 175
        ("destroy_the_thing", make_party([3, 4]), ["35 × 3.5 (the average) = 122.5", "50 × 3.5 (the average) = 175"]),
        # "A sturdy ward ... 20 times the heroes' level. A delicate ward ... 10 times"; "within 5"
        ("escort", make_party(heroes=4, level=2), ["20 × 2 = 40", "10 × 2 = 20", "within 5"]),
        # "plus the EV of one hero": four 2nd-level heroes, one hero's ES 4 + 2 x 2 = 8
        ("hold_them_off", make_party(heroes=4, level=2), ["that EV + 8"]),
        ("get_the_thing", make_party(heroes=4, level=2), []),  # no numbers of its own
    ],
)
def test_objective_numbers_for_a_party(key, party, shown):
    lines = " ".join(objective_numbers(key, party))
    assert all(part in lines for part in shown)
    assert bool(lines) == bool(shown)


# ---------------------------------------------------------------- files


def test_save_and_load_round_trip(tmp_path):
    e = encounter("2 × level 3 platoon brute", "8 x level 2 minion harrier: goblins").adding(
        TerrainObject(name="<b>lava</b>", ev=2)
    )
    e = e.model_copy(
        update={"name": "Gate", "objectives": (choose_objective("escort", delicate_ward=True),), "groups": suggest_groups(e)}
    )
    path = save_encounter(e, tmp_path / "gate.json")
    assert load_encounter(path) == e
    with pytest.raises(InvalidInput) as caught:
        save_encounter(e, path)
    assert "exists" in str(caught.value)
    save_encounter(e.model_copy(update={"name": "Gate 2"}), path, overwrite=True)
    assert load_encounter(path).name == "Gate 2"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    e = encounter("level 3 platoon brute")
    path = save_encounter(e, tmp_path / "a.json")
    before = path.read_bytes()

    def crash(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(InvalidInput, match="a.json.*the disk is full"):
        save_encounter(e.model_copy(update={"name": "new"}), path, overwrite=True)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name not in (".workbench.lock", ".workbench.journal")] == ["a.json"]  # no temp file


@pytest.mark.parametrize(
    "content, reason",
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"name": "a monster"}), "format"),
        (json.dumps({"format": "drawsteel-workbench/encounter", "version": 99, "encounter": {}}), "version"),
        (json.dumps({"format": "drawsteel-workbench/encounter", "version": 1, "encounter": {"party": {}}}), "party"),
    ],
)
def test_corrupt_and_foreign_files_are_refused_by_name(tmp_path, content, reason):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InvalidInput) as caught:
        load_encounter(path)
    assert caught.value.code == "invalid-file"
    assert "bad.json" in str(caught.value) and reason in str(caught.value)


def _saved_then_changed(tmp_path, change):
    e = encounter("2 × level 3 platoon brute").model_copy(
        update={"objectives": (choose_objective("escort", delicate_ward=True),)}
    )
    path = save_encounter(e, tmp_path / "edited.json")
    data = json.loads(path.read_text())
    change(data["encounter"])
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "change, reason",
    [
        # average Victories below zero would lower the encounter strength
        (lambda e: e["party"].update(victories="-3"), "party.victories"),
        # a stat block the formulas cannot build
        (lambda e: e["creatures"][0].update(organization="dragon"), "organization"),
        (lambda e: e["creatures"][0].update(role="wizard"), "role"),
        # objectives: an unknown one, a condition it does not have, a flag that is not 0 or 1
        (lambda e: e["objectives"][0].update(key="win"), "objective"),
        (lambda e: e["objectives"][0].update(conditions={"hidden": 1}), "condition"),
        (lambda e: e["objectives"][0].update(conditions={"delicate_ward": 2}), "delicate_ward"),
        # a group naming a creature that is not in the file
        (lambda e: e.update(groups=[{"members": [[5, 1]]}]), "groups"),
    ],
)
def test_hand_edited_files_are_refused_by_name_with_the_reason(tmp_path, change, reason):
    path = _saved_then_changed(tmp_path, change)
    with pytest.raises(InvalidInput) as caught:
        load_encounter(path)
    assert caught.value.code == "invalid-file"
    assert "edited.json" in str(caught.value) and reason in str(caught.value)


def test_every_problem_of_a_hand_edited_file_is_reported_at_once(tmp_path):
    def two_problems(e):
        e["party"]["victories"] = "-1"
        e["creatures"][0]["role"] = "wizard"

    with pytest.raises(InvalidInput) as caught:
        load_encounter(_saved_then_changed(tmp_path, two_problems))
    assert "party.victories" in str(caught.value) and "wizard" in str(caught.value)


# ---------------------------------------------------------------- data


def test_every_quoted_rule_is_in_the_rules_text_verbatim():
    assert RULES.exists(), f"the rules text is expected at {RULES}"
    text = " ".join(RULES.read_text().split())
    r = encounter_rules()
    quotes: list[tuple[str, str]] = []
    quotes += [(f"bands.{b.name}.rule", b.rule) for b in r.bands]
    quotes += [(f"bands.{b.name}.victories_rule", b.victories_rule) for b in r.bands]
    quotes += [(f"guidelines.{k}", quote) for k, t in r.guidelines.text.items() for quote in t.quotes]
    quotes += [(f"quick.slots.{k}", v.rule) for k, v in r.quick.slots.items()]
    quotes += [(f"quick.difficulty.{k}", v.rule) for k, v in r.quick.difficulty.items()]
    quotes += [("quick.terrain_rule", r.quick.terrain_rule), ("quick.rule_victories", r.quick.rule_victories)]
    o = r.objective_rules
    for name in ("thing_rule", "sturdy_rule", "ward_rule", "escort_reinforcement_rule", "hold_reinforcement_rule", "combined_rule"):
        quotes.append((f"objective_rules.{name}", getattr(o, name)))
    for key, obj in r.objectives.items():
        for field in ("difficulty_modifier", "success", "victories_text", "failure"):
            quotes.append((f"objectives.{key}.{field}", getattr(obj, field)))
    missing = [where for where, quote in quotes if " ".join(quote.split()) not in text]
    assert missing == []
    sections = [k for k, t in r.guidelines.text.items() if t.section not in text]
    assert sections == []


def test_a_broken_rules_file_reports_every_problem(tmp_path):
    source = (Path(__file__).resolve().parents[1] / "data" / "encounters.toml").read_text()
    broken_text = source.replace("creatures_per_hero = 8", "creatures_per_hero = 0").replace(
        "stat_blocks = 6", "stat_blocks = -1"
    )
    path = tmp_path / "encounters.toml"
    path.write_text(broken_text)
    with pytest.raises(RulesetError) as caught:
        load_encounter_rules(path)
    assert len(caught.value.problems) >= 2


def test_a_stat_block_with_an_ev_of_its_own_reopens_from_the_saved_encounter(tmp_path):
    """Nothing saved is lost: an imported or homebrew block whose EV departs from the formulas is marked when
    it joins the encounter, so the file reopens with its EV; an unmarked EV edited by hand is still refused."""
    own = build_monster(3, "platoon", "brute").model_copy(update={"name": "Bog Brute", "ev": 13})
    formula = build_monster(3, "platoon", "brute")
    assert formula.ev != 13  # the formulas give another EV, so 13 is the block's own
    encounter = Encounter(party=make_party(heroes=4, level=3))
    encounter = encounter.model_copy(update={"creatures": (creature_from_monster(own, 2), creature_from_monster(formula))})
    assert [c.own_ev for c in encounter.creatures] == [True, False]
    path = save_encounter(encounter, tmp_path / "bog.json")
    assert load_encounter(path).creatures == encounter.creatures
    data = json.loads(path.read_text(encoding="utf-8"))
    data["encounter"]["creatures"][1]["ev"] = 13  # the formula block, hand-edited
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"creatures\.1\.ev: the file says 13"):
        load_encounter(path)
