"""The pace of a fight: expected damage per turn and round, minion squads, solos, Malicious Strike by round,
the moments heroes and foes fall, and refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest

import workbench as wb
from workbench.fight.pace import FoeAttack, attack_choices, fight_pace, foe_attack, round_of
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block

SAMPLE = sample_bestiary()
WARRIOR = SAMPLE.named("Goblin Warrior")  # Spear Charge: Power Roll + 2; 3 / 4 / 5 damage; Stamina 15
# 2d10 + 2: tier 1 when the dice show 9 or less (36 of 100), tier 3 at 15 or more (21 of 100), tier 2 the
# other 43: expected (36 × 3 + 43 × 4 + 21 × 5) / 100 = 385 / 100
WARRIOR_TURN = Fraction(385, 100)
WHOLE_WARRIOR = whole_stat_block(SAMPLE, WARRIOR)  # every ability typed, read from the same file
# Bury the Point (2 Malice): Power Roll + 2; 5 / 6 / 7 damage: (36 × 5 + 43 × 6 + 21 × 7) / 100 = 585 / 100
BURY_TURN = Fraction(585, 100)


def test_a_published_creature_expected_damage_per_turn():
    attack = foe_attack(WARRIOR, 3)
    assert attack.tiers == (3, 4, 5) and attack.bonus == 2
    assert attack.per_turn == WARRIOR_TURN
    assert attack.per_round(5) == 3 * WARRIOR_TURN


def test_a_solo_takes_two_turns():
    werewolf = foe_attack(SAMPLE.named("Werewolf"))
    assert werewolf.turns == 2
    assert werewolf.per_round(5) == 2 * werewolf.per_turn


def test_a_built_monster_uses_its_signature_strike():
    brute = wb.build_monster(3, "platoon", "brute")
    attack = foe_attack(brute, 2)
    assert attack.tiers == (brute.damage.tier1, brute.damage.tier2, brute.damage.tier3)
    assert attack.bonus == brute.highest_characteristic


@pytest.mark.parametrize(
    ("minions", "heroes", "signature", "free_strikes"),
    [
        (4, 5, 4, 0),  # a squad of four, one per hero
        (8, 5, 5, 3),  # five heroes hit once, three minions join a hero already hit
        (8, 2, 2, 4),  # two heroes: two signature hits, at most two helpers each
        (12, 5, 9, 3),  # squads of 8 and 4: 5 + 3 helpers, then 4
    ],
)
def test_minion_squads(minions, heroes, signature, free_strikes):
    sniper = SAMPLE.named("Goblin Sniper")
    attack = foe_attack(sniper, minions)
    assert attack.per_round(heroes) == signature * attack.per_turn + free_strikes * sniper.free_strike


def test_rounds_until_a_hero_is_dying_with_nothing_dealt_back():
    # One goblin warrior against one hero of 10 Stamina who deals no damage: 10 ÷ 3.85 rounds
    pace = fight_pace([(WARRIOR, 1)], hero_stamina=[10], party_damage=0, malice=False)
    assert pace.first_dying == Fraction(10) / WARRIOR_TURN == Fraction(200, 77)
    assert pace.party_dying == pace.first_dying
    assert pace.foes_defeated is None
    assert round_of(pace.first_dying) == 3


def test_foes_deal_less_as_they_fall():
    # The heroes deal 15 a round: the warrior (Stamina 15) falls in round 1 and deals nothing after it
    pace = fight_pace([(WARRIOR, 1)], hero_stamina=[10], party_damage=15, malice=False)
    assert pace.foes_defeated == 1
    assert pace.rounds[0].foe_damage == WARRIOR_TURN
    assert pace.rounds[1].foe_damage == 0
    assert pace.first_dying is None


def test_half_the_foes_standing_deal_half_the_damage():
    pace = fight_pace([(WARRIOR, 2)], hero_stamina=100, heroes=1, party_damage=15, malice=False)
    assert pace.foe_stamina == 30
    assert [r.foe_damage for r in pace.rounds[:3]] == [2 * WARRIOR_TURN, WARRIOR_TURN, 0]


def test_malicious_strike_by_round():
    # Five heroes with 3 Victories: Malice 9, 7, 8, 9, 10. The warrior's highest characteristic is 2, so a
    # strike takes at most 5 + 2 × 2 = 9 Malice for 2 + 4 = 6 extra damage (three times 2); not two rounds in
    # a row: spend 9 (6), rest (7 on hand), spend 9 of 15 (6), rest, spend 9 of 25 (6).
    pace = fight_pace([(WARRIOR, 1)], hero_stamina=1000, heroes=5, party_damage=0, victories=3, rounds=5)
    assert [r.malice_spent for r in pace.rounds] == [9, 0, 9, 0, 9]
    assert [r.malice_damage for r in pace.rounds] == [6, 0, 6, 0, 6]
    assert pace.rounds[-1].damage_so_far == 5 * WARRIOR_TURN + 18


def test_the_party_falls_when_the_damage_reaches_its_stamina():
    pace = fight_pace([(WARRIOR, 10)], hero_stamina=[20, 30], party_damage=0, malice=False)
    per_round = 10 * WARRIOR_TURN
    assert pace.first_dying == Fraction(20) / per_round
    assert pace.party_dying == Fraction(50) / per_round
    assert pace.heroes_win is False


def test_sentences_for_people():
    pace = fight_pace([(WARRIOR, 1)], hero_stamina=[10], party_damage=15, malice=False)
    text = " ".join(pace.sentences())
    assert "No hero is dying within 20 rounds" in text
    assert "The foes are defeated after 1.0 rounds (in round 1)" in text
    assert "None" not in text


def test_assumptions_are_written_on_the_chart():
    from workbench.charts.pace import pace_figure

    pace = fight_pace([(WARRIOR, 3)], hero_stamina=[30] * 5, party_damage=20)
    figure = pace_figure(pace)
    names = [t.name for t in figure.data]
    assert "Heroes' Stamina left" in names and "Foes' Stamina left" in names
    notes = figure.layout.annotations[0].text
    assert notes.startswith("Assumptions:") and "Malicious Strike" in notes


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"foes": []}, "foes"),  # nothing to fight
        ({"hero_stamina": []}, "hero_stamina"),  # no hero
        ({"hero_stamina": [30, 0]}, "hero_stamina"),  # a hero with no Stamina
        ({"hero_stamina": 30}, "hero_stamina"),  # one Stamina without the number of heroes
        ({"party_damage": -1}, "party_damage"),  # negative
        ({"party_damage": 2.5}, "party_damage"),  # a float: not exact
        ({"rounds": 0}, "rounds"),  # at least one round
        ({"foes": [(WARRIOR, 0)]}, "count"),  # no creature
        ({"foes": [("goblin", 1)]}, "stat_block"),  # not a stat block
        ({"foes": [(WHOLE_WARRIOR, 1, "Spear Throw")]}, "ability"),  # not one of its abilities
        ({"foes": [(WARRIOR, 1, "Bury the Point")]}, "ability"),  # its header only: no other ability known
        ({"foes": [(SAMPLE.named("Goblin Monarch"), 1, "Handaxe")]}, "ability"),  # header only, again
    ],
)
def test_bad_input_names_the_field(kwargs, field):
    args = {"foes": [(WARRIOR, 1)], "hero_stamina": [30], "party_damage": 10, **kwargs}
    with pytest.raises(wb.InvalidInput) as error:
        fight_pace(**args)
    assert error.value.field == field


def test_foe_attacks_can_be_given_directly():
    attack = FoeAttack(name="Test", count=2, ability="Bite", tiers=(2, 5, 7), bonus=0, highest_characteristic=0,
                       stamina=10)
    pace = fight_pace([attack], hero_stamina=[40], party_damage=0, malice=False)
    assert pace.foe_damage_per_round == 2 * attack.per_turn


def test_the_heroes_bring_down_the_most_damage_for_stamina_first():
    # Eight goblin snipers (Stamina 4 each) deal far more for their Stamina than a werewolf (Stamina 140):
    # after the heroes' first 32 damage the snipers are gone and only the werewolf's damage is left.
    sniper, werewolf = SAMPLE.named("Goblin Sniper"), SAMPLE.named("Werewolf")
    pace = fight_pace([(werewolf, 1), (sniper, 8)], hero_stamina=[1000] * 5, party_damage=8 * sniper.stamina,
                      malice=False)
    assert pace.rounds[1].foe_damage == foe_attack(werewolf).per_round(5)


def test_the_director_marks_another_ability_of_the_whole_stat_block():
    # "each creature's expected damage per turn (its signature ability, or the ability the Director marks)"
    assert attack_choices(WHOLE_WARRIOR) == ("Spear Charge", "Bury the Point")  # in the stat block's order
    signature = foe_attack(WHOLE_WARRIOR, 3)
    assert (signature.ability, signature.tiers, signature.bonus) == ("Spear Charge", (3, 4, 5), 2)
    assert signature.per_turn == WARRIOR_TURN  # the whole stat block's signature is the header's
    marked = foe_attack(WHOLE_WARRIOR, 3, "bury  the point")  # case and spacing aside
    assert (marked.ability, marked.tiers, marked.bonus) == ("Bury the Point", (5, 6, 7), 2)
    assert marked.per_turn == BURY_TURN
    pace = fight_pace([(WHOLE_WARRIOR, 3, "Bury the Point")], hero_stamina=[1000], party_damage=0, malice=False)
    assert pace.foe_damage_per_round == 3 * BURY_TURN
    assert "or the ability the Director marks" in pace.assumptions[0]


def test_villain_actions_and_header_only_stat_blocks_offer_no_choice():
    monarch = whole_stat_block(SAMPLE, SAMPLE.named("Goblin Monarch"))
    assert [a.villain_action for a in monarch.abilities].count(None) < len(monarch.abilities)  # it has some
    # "at most one villain action per round across every creature": none is a creature's every-turn attack
    assert all(monarch.abilities[[a.name for a in monarch.abilities].index(n)].villain_action is None
               for n in attack_choices(monarch))
    assert attack_choices(WARRIOR) == ()  # a header-only stat block lists no abilities
    # the formulas' monster offers its signature ability, the one it holds
    assert attack_choices(wb.build_monster(3, "platoon", "brute")) == ("Signature ability",)
