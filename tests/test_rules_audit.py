"""The findings of an independent audit of the rules, each as a test quoting the rules' words.

Every quotation is from `data/rules/monster-basics.txt`. Where the text can be read two ways the ruleset keeps
both readings and the readings files say which is the default and why; those tests check both.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from workbench.encounter.encounter import Encounter
from workbench.encounter.groups import check_groups, suggest_groups
from workbench.encounter.guidelines import check_guidelines
from workbench.encounter.objective import choose_objective, objective_numbers
from workbench.encounter.party import Member, Party, budget, make_party
from workbench.encounter.report import report
from workbench.monster.formulas import build_monster, explain
from workbench.monster.solo import instant_solo
from workbench.rules.ruleset import core_ruleset

SHARED = {"options": {"leader_potency_increase": "shared"}}


# ---------------------------------------------------------------- F1: leader and solo potencies


@pytest.mark.parametrize("organization", ["leader", "solo"])
@pytest.mark.parametrize("level", [10, 11, 15, 20])
def test_a_leader_or_solo_of_level_10_up_has_potencies_4_5_6(level, organization):
    # "A monster who uses potencies in their abilities bases those potencies on their highest characteristic,
    # minus 1 for each tier below tier 3." "If a monster is a leader or a solo, increase their highest
    # characteristic and power roll by 1 (to a maximum of +5), and increase their potency values at all tiers
    # by 1 (to a maximum of 6)." From level 10 the characteristic is already +5 (1 + echelon 4), so the +1 to
    # the characteristic adds nothing, and the potencies based on +5 (3/4/5) go up by 1 on their own: 4/5/6.
    # The published leaders and solos of level 10 and up print exactly that (the Lich, level 10 solo:
    # A < 4, A < 5, A < 6; Ajax the Invincible, level 11 solo: M < 4, M < 5, M < 6).
    m = build_monster(level, organization)
    assert m.highest_characteristic == 5
    assert m.potency.as_tuple() == (4, 5, 6)
    assert instant_solo(build_monster(level, "leader")).potency.as_tuple() == (4, 5, 6)


@pytest.mark.parametrize("organization", ["leader", "solo"])
@pytest.mark.parametrize("level", range(1, 10))
def test_below_level_10_both_readings_give_the_same_potencies(level, organization):
    # Both readings give "highest characteristic − 1 per tier below 3" below level 10 (the level 1 werewolf
    # solo: M < 1, M < 2, M < 3), so only levels 10 and up can tell them apart.
    own = build_monster(level, organization).potency.as_tuple()
    shared = build_monster(level, organization, ruleset=core_ruleset().updated(SHARED)).potency.as_tuple()
    highest = build_monster(level, organization).highest_characteristic
    assert own == shared == (highest - 2, highest - 1, highest)


def test_the_shared_reading_is_kept_as_a_ruleset_option_and_explained():
    # The other reading ("the same +1 their highest characteristic already got") stays one switch away.
    shared = core_ruleset().updated(SHARED)
    assert build_monster(10, "leader", ruleset=shared).potency.as_tuple() == (3, 4, 5)
    assert core_ruleset().options.leader_potency_increase == "own"
    steps = {s.quantity: s for s in explain(build_monster(10, "solo"))}
    tier3 = steps["Potency (tier 3)"]
    assert (tier3.working, tier3.value) == ("min(5 − 0 + 1, 6)", 6)
    assert "published" in (tier3.reading or "")
    shared_step = {s.quantity: s for s in explain(build_monster(10, "solo", ruleset=shared))}["Potency (tier 3)"]
    assert shared_step.value == 5 and "same +1" in (shared_step.reading or "")


def test_an_unknown_potency_reading_is_refused_naming_the_option():
    from workbench.errors import RulesetError

    with pytest.raises(RulesetError, match="options.leader_potency_increase: Input should be 'own' or 'shared'"):
        core_ruleset().updated({"options": {"leader_potency_increase": "both"}})


def test_a_platoon_creature_keeps_3_4_5_at_level_10():
    # "increase their potency values" is for leaders and solos only.
    assert build_monster(10, "platoon", "brute").potency.as_tuple() == (3, 4, 5)


# ---------------------------------------------------------------- F4: star of the show


def test_the_star_of_the_show_is_one_creatures_ev_not_its_entrys():
    # "set up a hard encounter and choose a leader or solo creature with an EV that is at least one-third of
    # the encounter budget." Five level 3 heroes; two level 3 leaders (EV 20 each) and three platoon brutes
    # (EV 10 each): EV 70, hard; one-third is 23 1/3 and one leader's EV 20 is less, however entered.
    party = make_party(heroes=5, level=3)
    one_line = Encounter(party=party).adding("2 x level 3 leader", "3 x level 3 platoon brute")
    one_line = one_line.model_copy(
        update={"creatures": (one_line.creatures[0].model_copy(update={"star": True}),) + one_line.creatures[1:]}
    )
    assert one_line.total_ev == 70 and budget(party).difficulty(70) == "hard"
    star = {c.key: c for c in check_guidelines(one_line, "hard")}["star_of_the_show"]
    assert star.broken
    assert "EV 20 of 70" in star.detail


# ---------------------------------------------------------------- F3: retainers and the heroes' level


def test_a_retainer_counts_as_a_hero_only_for_encounter_strength():
    # "Each retainer or other NPC fighting alongside the heroes counts as a hero when determining encounter
    # strength." "choose creatures whose level is no more than 2 greater than the heroes' level"; solos "no
    # more than 1 level above the heroes' average level"; the thing has "Stamina equal to the heroes' level
    # times 35". Four level 3 heroes and a level 1 retainer: the heroes' level is 3.
    party = make_party(heroes=4, level=3, retainers=[1])
    assert budget(party).encounter_strength == 4 * 10 + 6  # the retainer counts for encounter strength
    assert party.average_level == 3
    e = Encounter(party=party).adding("level 5 platoon brute", "level 4 solo")
    checks = {c.key: c for c in check_guidelines(e, "hard")}
    assert not checks["creature_level"].broken and not checks["solo_level"].broken
    assert "limit: level 5 (heroes' level 3 + 2)" in checks["creature_level"].detail
    thing = objective_numbers("destroy_the_thing", party)[0]
    assert "35 × 3 = 105" in thing


def test_a_party_of_only_retainers_still_has_a_level():
    # A party with no hero at all (retainers alone) takes their level rather than none.
    party = Party(members=(Member(level=2, kind="retainer"), Member(level=4, kind="ally")))
    assert party.average_level == 3


# ---------------------------------------------------------------- F2: alternative objectives


def test_save_anothers_heroes_do_not_lower_another_alternatives_difficulty():
    # "If an encounter has multiple alternative objectives, you reward the heroes for the objective they
    # completed the most successfully." Save Another: "For each willing ally ... add one hero to the party for
    # the purpose of determining the encounter's difficulty." Diminish Numbers: "2 Victories for a hard or
    # extreme encounter." Five level 3 heroes (ES 50), EV 70: hard for Diminish Numbers (2 Victories);
    # with Save Another's two allies ES 70: standard (1 Victory). The encounter is worth max(2, 1) = 2.
    objectives = (choose_objective("diminish_numbers"), choose_objective("save_another", willing_allies=2))
    e = Encounter(party=make_party(heroes=5, level=3), objectives=objectives, objective_mode="alternative")
    e = e.adding("6 x level 3 platoon brute", "level 3 platoon harrier")
    r = report(e)
    assert r.total_ev == 70
    assert [(a.name, a.difficulty, a.victories) for a in r.outcome.alternatives] == [
        ("Diminish Numbers", "hard", 2), ("Save Another", "standard", 1)]
    assert (r.difficulty, r.victories) == ("hard", 2)
    assert r.budget.encounter_strength == 50  # the budget shown is the one the best alternative was judged by
    assert r.outcome.added_heroes == 0


def test_save_another_alone_among_alternatives_still_adds_its_heroes():
    # The same two alternatives where Save Another earns more: its own band (ES 70) is the one shown.
    objectives = (
        choose_objective("escort", delicate_ward=False),
        choose_objective("save_another", willing_allies=2, bonus=True),
    )
    e = Encounter(party=make_party(heroes=5, level=3), objectives=objectives, objective_mode="alternative")
    e = e.adding("6 x level 3 platoon brute", "level 3 platoon harrier")
    r = report(e)
    # Escort at hard (EV 70 against ES 50): 1 Victory; Save Another at standard with its bonus: 2.
    assert [(a.difficulty, a.victories) for a in r.outcome.alternatives] == [("hard", 1), ("standard", 2)]
    assert (r.difficulty, r.victories, r.budget.encounter_strength, r.outcome.added_heroes) == (
        "standard", 2, 70, 2)


def test_combined_objectives_still_add_save_anothers_heroes_for_the_whole_encounter():
    # Combined: "the heroes must meet the success conditions for each of the encounter's combined objectives";
    # the added heroes count for the encounter as a whole.
    objectives = (choose_objective("diminish_numbers"), choose_objective("save_another", willing_allies=2))
    e = Encounter(party=make_party(heroes=5, level=3), objectives=objectives)
    e = e.adding("6 x level 3 platoon brute", "level 3 platoon harrier")
    r = report(e)
    assert (r.band, r.budget.encounter_strength, r.victories) == ("standard", 70, 2)



# ---------------------------------------------------------------- F6: suggested initiative groups


@pytest.mark.parametrize(
    "heroes, level, specs",
    [
        (1, 4, ["level 4 platoon defender", "level 5 platoon brute"]),
        (4, 5, ["8 x level 4 minion harrier", "4 x level 6 minion hexer"]),
        (7, 2, ["2 x level 1 elite artillery", "level 3 leader", "8 x level 1 minion artillery",
                "2 x level 2 horde defender"]),
    ],
)
def test_suggested_groups_keep_the_guidelines_when_a_grouping_that_does_exists(heroes, level, specs):
    # "try to keep the total EV of any group between the encounter strength of one to two heroes ... It's
    # okay to have one initiative group with a total EV of less than the recommendation above. It's also okay
    # for a group to be worth more than two heroes, as long as that group consists of a single creature";
    # "about as many initiative groups as the number of heroes, plus or minus one or two." Each of these has a
    # grouping that keeps both (for the first: the two creatures apart, EV 12 and 14 against 12 to 24).
    party = make_party(heroes=heroes, level=level)
    e = Encounter(party=party).adding(*specs)
    e = e.model_copy(update={"groups": suggest_groups(e)})
    checks = check_groups(e, budget(party).hero_strength)
    assert [c.key for c in checks if c.broken] == []


# ---------------------------------------------------------------- F7, F8, F9: the objectives' numbers


def five_heroes_against_twelve(*objectives):
    # five level 3 heroes against 12 foes worth EV 70: four minions (EV 5 for the four), five platoon
    # creatures (EV 10 each) and three horde creatures (EV 5 each)
    e = Encounter(party=make_party(heroes=5, level=3), objectives=tuple(choose_objective(k) for k in objectives))
    e = e.adding("4 x level 3 minion harrier", "5 x level 3 platoon brute", "3 x level 3 horde hexer")
    assert (e.creature_count, e.total_ev) == (12, Fraction(70))
    return e


def numbers(e, key):
    return dict(report(e).objective_numbers)[key]


def test_complete_the_action_says_how_many_tasks_a_round_and_what_a_failure_is():
    # "In each combat round, half or more of the heroes must use a maneuver to perform a task that advances
    # their plans." "At the end of any combat round in which the heroes have failed to perform the required
    # number of tasks, the party accumulates one failure." Five heroes: ⌈5 ÷ 2⌉ = 3 tasks a round.
    lines = objective_numbers("complete_the_action", make_party(heroes=5, level=3))
    assert any("⌈5 × 0.5⌉ = 3" in line and "maneuver" in line and "one failure" in line for line in lines)
    four = objective_numbers("complete_the_action", make_party(heroes=4, level=3, retainers=[3]))
    assert any("⌈4 × 0.5⌉ = 2" in line for line in four)  # "half or more of the heroes": the heroes


@pytest.mark.parametrize("key", ["hold_them_off", "stop_the_action", "complete_the_action"])
def test_the_timed_objectives_give_their_typical_duration(key):
    # "A typical encounter duration is 3 rounds." (Hold Them Off, Stop the Action, Complete the Action)
    assert any("A typical encounter duration is 3 rounds." in line
               for line in objective_numbers(key, make_party(heroes=5, level=3)))


def test_hold_them_off_reinforcements_appear_10_squares_away():
    # "These reinforcements appear 10 squares or more away from the defensive position."
    lines = objective_numbers("hold_them_off", make_party(heroes=5, level=3))
    assert any("10 squares or more away from the defensive position" in line for line in lines)


def test_escort_replacements_start_5_squares_from_ward_destination_and_heroes():
    # "You choose the positions for these new creatures, none of which can start within 5 squares of the
    # ward, the destination, or any hero."
    lines = objective_numbers("escort", make_party(heroes=5, level=3))
    assert any("none starting within 5 squares of the ward, the destination or any hero" in line for line in lines)


def test_diminish_numbers_counts_the_foes_for_each_ending():
    # "An encounter with mostly horde creatures ends when the heroes outnumber their foes." "... mostly
    # platoon creatures ends when the heroes outnumber their foes two to one." "The encounter ends when the
    # number of remaining foes is half or less of what it was at the start." Five heroes, 12 foes: 4 or
    # fewer, 2 or fewer, 6 or fewer.
    lines = numbers(five_heroes_against_twelve("diminish_numbers"), "diminish_numbers")
    assert any("horde" in line and "at 4 foes or fewer" in line for line in lines)
    assert any("platoon" in line and "= 2 foes or fewer" in line for line in lines)
    assert any("⌊12 × 0.5⌋ = 6 foes or fewer" in line for line in lines)


def test_the_one_third_shares_of_the_ev_are_computed():
    # Defeat a Specific Foe: "make up one-third or less of the opposing side's total EV"; Get the Thing!: "no
    # powerful monster (amounting to one-third or more of the encounter's total EV)". EV 70: 23 1/3.
    e = five_heroes_against_twelve("defeat_a_specific_foe", "get_the_thing")
    assert "70 ÷ 3 = 23 1/3 or less" in numbers(e, "defeat_a_specific_foe")[0]
    assert "70 ÷ 3 = 23 1/3 or more" in numbers(e, "get_the_thing")[0]


def test_the_encounter_json_and_the_objective_panel_show_the_numbers():
    from workbench.cli.encounter import report_payload
    from workbench.render.encounter import objectives_html

    e = five_heroes_against_twelve("complete_the_action", "diminish_numbers")
    payload = report_payload("e", report(e))
    assert any("= 3," in line for line in payload["objective_numbers"]["complete_the_action"])
    assert payload["victory_costs"] == {"2": 10, "4": 20, "6": 30}
    assert "⌈5 × 0.5⌉ = 3" in objectives_html(e) and "= 6 foes or fewer" in objectives_html(e)


# ---------------------------------------------------------------- F10: Hold Them Off's five rounds


def test_a_five_round_hold_is_harder_and_worth_two_victories():
    # "The encounter difficulty is one category harder if the encounter duration is 5 rounds or greater, or
    # if there are three or more defensive positions." "They earn 2 Victories if ... the party held off the
    # enemy for an encounter duration of 5 rounds or more and the encounter is of standard or higher
    # difficulty." Success at a 5-round duration is holding off for 5 rounds.
    from workbench.encounter.objective import apply_objectives

    five = apply_objectives("standard", [choose_objective("hold_them_off", long_duration=True)])
    assert (five.difficulty, five.victories) == ("hard", 2)
    positions = apply_objectives("standard", [choose_objective("hold_them_off", many_positions=True)])
    assert (positions.difficulty, positions.victories) == ("hard", 1)
    both = apply_objectives("standard", [choose_objective("hold_them_off", long_duration=True, many_positions=True)])
    assert (both.difficulty, both.victories) == ("hard", 2)  # "or": one category, not two


def test_a_file_with_the_old_single_box_keeps_its_numbers():
    # Saved before the split: the one box loads as three or more positions (harder, no bonus): as computed then.
    from workbench.encounter.objective import ChosenObjective, apply_objectives

    old = ChosenObjective.model_validate({"key": "hold_them_off", "conditions": {"long_or_many_positions": 1}})
    assert old.conditions == {"many_positions": 1}
    assert apply_objectives("standard", [old]).victories == 1


# ---------------------------------------------------------------- F11: the list of monsters to keep


def test_the_budget_gives_the_ev_of_two_four_and_six_victories():
    # "it helps to keep a list of monsters with an EV cost worth roughly the encounter strength of two, four,
    # and six Victories". Every 2 Victories is one more hero: five level 3 heroes, EV 10, 20 and 30.
    b = budget(make_party(heroes=5, level=3))
    assert b.victory_costs == ((2, 10), (4, 20), (6, 30))
    assert "EV worth 4 Victories = 4 ÷ 2 × 10 = 20" in [str(s) for s in b.steps]
    # a party of mixed levels: one hero's ES is the party ES ÷ heroes (levels 3 and 4: 11)
    assert budget(make_party(levels=[3, 4])).victory_costs == ((2, 11), (4, 22), (6, 33))


# ---------------------------------------------------------------- F5: a captain's Stamina bonus


def test_attaching_and_losing_a_captain_never_heals_a_squad():
    # "Because minion Stamina is tracked as a pool, minions can't be winded, can't regain Stamina, and can't
    # gain temporary Stamina during a battle." "Captain Benefits": "each minion in the squad gains the
    # benefits noted at the "With Captain" entry ... Usually, this benefit is either a damage boost, a bonus
    # to speed, or additional Stamina." Four minions of Stamina 5 (pool 20) take 3; a captain with "+2 bonus
    # to Stamina" joins (17 + 2 × 4 = 25) and falls: the squad is back at 17, not 20.
    from workbench.fight.squad import attach_captain, captain_falls, damage_single, make_squad

    squad = make_squad(build_monster(1, "minion", "brute"), 4, with_captain="+2 bonus to Stamina")
    squad = squad.model_copy(update={"minion_stamina": 5, "pool": 20})
    squad, _ = damage_single(squad, 3)
    assert squad.pool == 17
    squad = attach_captain(squad, build_monster(1, "leader").model_copy(update={"name": "Sergeant"}))
    assert squad.pool == 25
    squad = captain_falls(squad)
    assert (squad.pool, squad.alive) == (17, 4)
    assert "minions can't regain Stamina" in squad.log[-1]


def test_losing_the_captain_drops_no_minion():
    # The bonus taken back never kills: 25 − 10 = 15 (three living at 7 each) becomes 15 (three at 5).
    from workbench.fight.squad import attach_captain, captain_falls, damage_single, make_squad

    squad = make_squad(build_monster(1, "minion", "brute"), 4, with_captain="+2 bonus to Stamina")
    squad = squad.model_copy(update={"minion_stamina": 5, "pool": 17})
    squad = attach_captain(squad, build_monster(1, "leader").model_copy(update={"name": "Sergeant"}))
    squad, _ = damage_single(squad, 10)
    assert (squad.pool, squad.alive) == (15, 3)
    assert (captain_falls(squad).pool, captain_falls(squad).alive) == (15, 3)


def test_the_new_quotations_are_the_rules_words_verbatim():
    from pathlib import Path

    from workbench.rules.encounter_tables import encounter_rules

    text = " ".join((Path(__file__).resolve().parents[1] / "data" / "rules" / "monster-basics.txt").read_text().split())
    r = encounter_rules()
    o = r.objective_rules
    quotes = [r.strength.keep_list_rule, o.typical_duration_rule, o.hold_distance_rule, o.escort_replacements_rule,
              o.tasks_rule, o.failure_rule]
    assert all(quotes) and [q for q in quotes if " ".join(q.split()) not in text] == []
