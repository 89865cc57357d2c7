"""The findings of an independent audit of the rules, each as a test quoting the rules' words.

Every quotation is from `data/rules/monster-basics.txt`. Where the text can be read two ways the ruleset keeps
both readings and the readings files say which is the default and why; those tests check both.
"""

from __future__ import annotations

import pytest

from workbench.encounter.encounter import Encounter, check_guidelines, report
from workbench.encounter.objective import choose_objective, objective_numbers
from workbench.encounter.party import Member, Party, budget, make_party
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

