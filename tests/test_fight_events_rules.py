"""The rules a fight applies at the table (`workbench.fight.events`), each test quoting the sentence it checks:
Malice earned by heroes and spent on the stat blocks' own abilities at the acting creature's turn, villain
actions by name, the solo's turns and End Effect, squads' weakness once, the Director's runner data."""

from __future__ import annotations

from fight_setups import BOSS, BRUTE, SPINECLEAVER, encounter, group, named, refusal

from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.fight.fight import Fight
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.model import Ability, DamageModifier
from workbench.monster.solo import instant_solo

SPIDER = named(1, "elite", "brute", "War spider").model_copy(update={"abilities": (
    Ability(name="Bite", cost="signature", action="main action"),
    Ability(name="Trample", cost=3, action="main action"),
    Ability(name="Web Snare", cost=2, action="triggered action"),
)})
MONARCH = BOSS.model_copy(update={"name": "Goblin monarch", "abilities": (
    Ability(name="Get in Here!", cost="villain 1", action=None),
    Ability(name="Focus Fire", cost="villain 2", action=None),
    Ability(name="Kill!", cost="villain 3", action=None),
)})
FIRE_WEAK = SPINECLEAVER.model_copy(update={"weaknesses": (DamageModifier(type="fire", value=5),),
                                            "immunities": (DamageModifier(type="poison", value=2),)})


def spider_fight() -> Fight:
    enc = encounter((SPIDER, 1), (BRUTE, 1), groups=[group((0, 1)), group((1, 1))])
    return Fight(enc, [SPIDER, BRUTE])


# ---------------------------------------------------------------- Malice earned


def test_a_retainers_death_does_not_lower_the_next_gain():
    # "you gain Malice equal to the number of heroes in the battle, plus the combat round number" ... "If a hero
    # dies, they stop generating Malice for you." (a retainer is not a hero)
    enc = Encounter(party=make_party(heroes=3, level=1, retainers=[1])).adding(creature_from_monster(BRUTE, 4))
    fight = Fight(enc, [BRUTE])
    fight.start_round()
    assert fight.malice == 3 + 1
    fight.dies("Retainer 1")
    fight.start_round()
    assert fight.malice == 4 + 3 + 2
    fight.dies("Hero 1")
    fight.start_round()
    assert fight.malice == 9 + 2 + 3


def test_the_last_heros_death_ends_the_fight():
    # "The heroes earn no Victories if they are killed, captured, flee, or otherwise fail to defeat their foes."
    enc = Encounter(party=make_party(heroes=2, level=1, allies=[1])).adding(creature_from_monster(BRUTE, 2))
    fight = Fight(enc, [BRUTE])
    fight.start_round()
    fight.dies("Hero 1")
    fight.dies("Hero 2")
    assert fight.ended and fight.state.end_reason == "every hero is dead"
    assert not fight.result().success and fight.result().victories == 0


# ---------------------------------------------------------------- Malice spent


def test_a_stat_blocks_malice_ability_is_paid_at_its_creatures_turn():
    # "Abilities that make use of Malice have their Malice cost noted in a creature's stat block."
    fight = spider_fight()
    assert {"Trample", "Web Snare"} <= {f.name for f in fight.features}
    fight.start_round()  # 0 + 4 + 1 = 5
    fight.start_turn("Hero 1")
    assert "a hero's" in refusal(lambda: fight.spend("Trample", unit="War spider")).reason
    fight.end_turn()
    fight.start_turn("Group 2")
    assert refusal(lambda: fight.spend("Trample", unit="War spider")).field == "unit"  # the orc's turn
    fight.end_turn()
    fight.start_turn("Group 1")
    assert refusal(lambda: fight.spend("Trample", unit="Orc")).field == "unit"  # not the orc's ability
    fight.spend("Trample", unit="War spider")
    assert fight.malice == 5 - 3


def test_a_triggered_malice_ability_is_paid_on_another_turn():
    # a triggered action is taken when its trigger happens, on anyone's turn
    fight = spider_fight()
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.spend("Web Snare", unit="War spider")
    assert fight.malice == 5 - 2


def test_malicious_strike_only_for_a_creature_whose_turn_it_is():
    # "At the start of any monster's turn, you can spend Malice to activate one of the following features"
    fight = spider_fight()
    fight.start_round()
    fight.start_turn("Group 2")
    assert refusal(lambda: fight.spend("Malicious Strike", 5, unit="War spider")).field == "unit"
    fight.spend("Malicious Strike", 5, unit="Orc")
    assert fight.malice == 0


def test_basic_malice_on_a_heros_turn_is_refused_and_waits_without_turns():
    # "At the start of any monster's turn, you can spend Malice to activate one of the following features"
    fight = spider_fight()
    fight.start_round()
    fight.spend("Brutal Effectiveness")  # a Director tracking rounds only opens no turn: the limit waits
    assert fight.malice == 2
    fight.start_turn("Hero 1")
    assert "a hero's" in refusal(lambda: fight.spend("Malicious Strike", 5, unit="Orc")).reason


# ---------------------------------------------------------------- villain actions


def test_villain_actions_are_the_monsters_own_by_name():
    # "A creature with villain actions always has three. Each villain action can be used only once per
    # encounter, and no more than one villain action can be used per round."
    enc = encounter((MONARCH, 1), (BRUTE, 2), groups=[group((0, 1)), group((1, 2))])
    fight = Fight(enc, [MONARCH, BRUTE])
    assert fight.villain_actions_of("Goblin monarch") == {1: "Get in Here!", 2: "Focus Fire", 3: "Kill!"}
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.end_turn()
    assert fight.villain_actions_open("Goblin monarch") == {1: "Get in Here!", 2: "Focus Fire", 3: "Kill!"}
    fight.villain_action("Goblin monarch", action="Focus Fire")
    assert fight.villain_actions_used() == (("Goblin monarch", 2, 1),)
    assert "Focus Fire" in fight.state.log[-1]
    # after a successful one, nothing is on offer this round, so nothing is shown to refuse
    assert fight.villain_actions_open("Goblin monarch") == {}
    assert refusal(lambda: fight.villain_action("Goblin monarch", action="Summon")).field == "action"


def test_a_creature_without_villain_actions_has_none():
    # "The solo and leader creatures presented in this book ... have special abilities called villain actions."
    fight = spider_fight()
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.end_turn()
    assert fight.villain_actions_of("War spider") == {}
    assert "villain actions" in refusal(lambda: fight.villain_action("War spider", 1)).reason


# ---------------------------------------------------------------- the solo


def solo_with_guard() -> Fight:
    solo = instant_solo(named(1, "leader", None, "Ogre chief"))
    enc = encounter((solo, 1), (BRUTE, 1), groups=[group((0, 1), (1, 1))])
    return Fight(enc, [solo, BRUTE])


def test_the_solos_second_turn_is_the_solos_alone():
    # "Solo Turns The creature can take two turns each round." (the creature, not its initiative group)
    fight = solo_with_guard()
    fight.start_round()
    fight.start_turn("Group 1")
    assert fight.state.acting == ("Ogre chief", "Orc")
    fight.end_turn()
    fight.start_turn("Hero 1")
    fight.add_condition("Orc", "dazed", "end of turn")
    fight.end_turn()
    fight.start_turn("Group 1")
    assert fight.state.acting == ("Ogre chief",)
    assert refusal(lambda: fight.spend("Malicious Strike", 5, unit="Orc")).field == "unit"
    fight.end_turn()
    assert [c.label for c in fight.unit("Orc").conditions] == ["dazed"]  # the orc took no turn


def test_end_effect_is_offered_at_the_end_of_the_solos_turn():
    # "End Effect At the end of each of their turns, the creature can take 10 damage to end one effect on them
    # that can be ended by a saving throw. This damage can't be reduced in any way."
    fight = solo_with_guard()
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.add_condition("Ogre chief", "weakened", "save ends")
    fight.end_turn()
    assert fight.end_effect_offer() is None  # the end of a hero's turn
    fight.start_turn("Group 1")
    assert fight.end_effect_offer() is None  # during its turn
    fight.end_turn()
    full = fight.unit("Ogre chief").current
    assert fight.end_effect_offer() == ("Ogre chief", 10, ("weakened",))
    fight.end_effect("Ogre chief", "weakened")
    assert fight.unit("Ogre chief").current == full - 10 and fight.unit("Ogre chief").conditions == ()
    assert fight.end_effect_offer() is None


def test_solo_action_only_where_the_stat_block_has_it():
    # "Give them the following Malice feature: Solo Action (5 Malice)" (the instant solo's; a published solo
    # without it has none)
    plain = named(1, "leader", None, "Bandit chief")
    enc = encounter((plain, 1), (BRUTE, 2))
    assert "Solo Action" not in {f.name for f in Fight(enc, [plain, BRUTE]).features}
    fight = solo_with_guard()
    assert "Solo Action" in {f.name for f in fight.features}
    for _ in range(2):
        fight.start_round()  # 5 + 6 = 11
    fight.start_turn("Group 1")
    assert refusal(lambda: fight.spend("Solo Action", unit="Orc")).field == "unit"
    fight.spend("Solo Action", unit="Ogre chief")
    assert fight.malice == 11 - 5


# ---------------------------------------------------------------- squads


def test_a_fire_weak_squad_loses_the_weakness_once_per_hit():
    # "If a minion has either a damage immunity or a damage weakness for a source of damage, apply the effects
    # to the minion's squad once, even if multiple minions share the same immunity or weakness."
    enc = encounter((FIRE_WEAK, 8), groups=[group((0, 8))])
    fight = Fight(enc, [FIRE_WEAK])
    fight.start_round()
    fight.damage("Goblin spinecleaver", 15, damage_type="fire")
    assert fight.unit("Goblin spinecleaver").current == 40 - 20
    fight.undo()
    fight.damage("Goblin spinecleaver", 6, in_area=3, damage_type="fire")  # 3 × 5 + 5
    assert fight.unit("Goblin spinecleaver").current == 40 - 20
    fight.undo()
    fight.damage("Goblin spinecleaver", 6, damage_type="poison")
    assert fight.unit("Goblin spinecleaver").current == 40 - 4
    assert fight.unit("Goblin spinecleaver").dropped == ()  # 4 damage drops no minion


def test_dropped_minions_leave_the_squad_each_round():
    # "Whenever a minion squad's Stamina pool is reduced by an amount equal to an individual minion's Stamina,
    # one minion dies or is otherwise taken out of the fight."
    enc = encounter((FIRE_WEAK, 8), groups=[group((0, 8))])
    fight = Fight(enc, [FIRE_WEAK])
    fight.start_round()
    fight.damage("Goblin spinecleaver", 10)
    fight.start_round()
    fight.damage("Goblin spinecleaver", 5)
    squad = fight.unit("Goblin spinecleaver")
    assert squad.squad.alive == 5 and squad.dropped == ((1, 2), (2, 1))


def test_minions_gain_no_temporary_stamina():
    # "minions can't be winded, can't regain Stamina, and can't gain temporary Stamina during a battle"
    enc = encounter((FIRE_WEAK, 8), (BRUTE, 1))
    fight = Fight(enc, [FIRE_WEAK, BRUTE])
    fight.start_round()
    assert "temporary Stamina" in refusal(lambda: fight.temporary("Goblin spinecleaver", 5)).reason
    fight.temporary("Orc", 5)
    full = fight.unit("Orc").current
    fight.damage("Orc", 8)
    assert (fight.unit("Orc").temporary, fight.unit("Orc").current) == (0, full - 3)


def test_i_am_the_captain_now():
    # "If a squad of minions loses their captain, a new allied creature can become that squad's captain at the
    # start of the next round (no action required)."
    enc = encounter((BOSS, 1), (SPINECLEAVER, 4), (BRUTE, 1))
    fight = Fight(enc, [BOSS, SPINECLEAVER, BRUTE])
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    fight.dies("Goblin boss")
    assert refusal(lambda: fight.attach_captain("Goblin spinecleaver", "Orc")).field == "captain"
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Orc")
    assert fight.unit("Goblin spinecleaver").squad.captain == "Orc"


# ---------------------------------------------------------------- the runner's data


def test_a_heros_stamina_and_temporary_stamina():
    fight = spider_fight()
    fight.set_stamina("Hero 1", 20)
    fight.start_round()
    fight.temporary("Hero 1", 4)
    fight.damage("Hero 1", 10)
    hero = fight.unit("Hero 1")
    assert (hero.stamina, hero.temporary, hero.damage_taken) == (14, 0, 10)
    fight.heal("Hero 1", 3)
    assert fight.unit("Hero 1").stamina == 17


def test_held_back_creatures_come_in_as_reinforcements():
    # Diminish Numbers counts "what it was at the start": a creature held back is not there at the start
    fight = spider_fight()
    fight.hold_back("Orc")
    assert fight.unit("Orc").status == "held" and not fight.unit("Orc").at_start
    fight.start_round()
    fight.dies("War spider")
    assert not fight.ended  # the orc is still to come
    fight.start_round()
    fight.bring_in("Orc")
    assert fight.unit("Orc").active and fight.unit("Orc").joined == 2
    assert refusal(lambda: fight.bring_in("Orc")).field == "unit"


def test_the_director_moves_a_groups_turn():
    fight = spider_fight()
    fight.move_turn("Group 2", 1)
    assert fight.actors[0].label == "Group 2"
    assert refusal(lambda: fight.move_turn("Group 2", 99)).field == "position"


def test_surrender_with_the_victories_the_director_judges():
    # "When a success condition is met, the heroes' enemies flee or surrender": the Director can end it so
    fight = spider_fight()
    fight.start_round()
    fight.end("the orc surrenders", victorious=True)
    result = fight.result()
    assert result.success and result.victories == fight._ctx.report.outcome.victories
    fight.undo()
    fight.end("they retreat", victorious=True, victories=2)
    assert fight.result().victories == 2 and fight.result().success
    fight.undo()
    fight.end("the heroes flee")
    assert not fight.result().success and fight.result().victories == 0


def test_conditions_say_how_they_end():
    fight = spider_fight()
    fight.start_round()
    fight.add_condition("Orc", "grabbed", "until removed")
    assert fight.unit("Orc").conditions[0].ends == "until removed"


def test_a_saved_fight_with_the_new_events_replays():
    fight = spider_fight()
    fight.hold_back("Orc")
    fight.start_round()
    fight.bring_in("Orc")
    fight.temporary("Orc", 3)
    again = Fight.from_data(fight.to_data())
    assert again.state == fight.state


def test_end_effect_of_a_published_solo_printed_inside_its_solo_monster_trait():
    # The Werewolf's "Solo Monster" trait: "End Effect: At the end of each of their turns, the werewolf can
    # take 5 damage to end one effect on them that can be ended by a saving throw."
    sample = sample_bestiary()
    werewolf = whole_stat_block(sample, sample.named("Werewolf"))
    assert werewolf is not None and not any(t.name == "End Effect" for t in werewolf.traits)
    fight = Fight(encounter((werewolf, 1)), [werewolf])
    fight.start_round()
    fight.start_turn("Group 1")
    fight.add_condition("Werewolf", "dazed", "save ends")
    fight.end_turn()
    assert fight.end_effect_offer() == ("Werewolf", 5, ("dazed",))
    full = fight.unit("Werewolf").current
    fight.end_effect("Werewolf", "dazed")
    assert fight.unit("Werewolf").current == full - 5


def test_diminish_numbers_choice_taken_back_is_the_texts_default_again():
    # "Choose one of the following success conditions": until chosen, "The encounter ends when the number of
    # remaining foes is half or less of what it was at the start."
    enc = encounter((BRUTE, 4), objectives=[choose_objective("diminish_numbers")])
    fight = Fight(enc, [BRUTE])
    assert fight.diminish_conditions() == ("horde", "platoon", "half")  # no minion squads, no solo
    fight.choose("diminish_numbers", "platoon")
    fight.choose("diminish_numbers", None)
    assert fight.state.objectives[0].choice is None
    fight.start_round()
    fight.dies("Orc 1")
    assert not fight.ended
    fight.dies("Orc 2")  # 2 of 4 left: half
    assert fight.ended and fight.state.objectives[0].status == "met"
    assert fight.foe_counts() == (2, 4, 2)
