"""The rule of each change to a fight (`workbench.fight.events`): turns, damage, squads, captains,
conditions, Malice, villain actions, the solo's two turns, reinforcements. Each rule is quoted where it is
tested."""

from __future__ import annotations

from fight_setups import BOSS, SPINECLEAVER, boss_fight, encounter, group, refusal, solo_fight

from workbench.fight.events import modifier_for
from workbench.fight.fight import Fight


def test_a_turn_waits_for_the_last_to_end_and_a_round_for_the_first():
    fight = boss_fight()
    assert refusal(lambda: fight.start_turn("Hero 1")).field == "round"
    fight.start_round()
    fight.start_turn("Hero 1")
    assert "Hero 1's turn has not ended" in refusal(lambda: fight.start_turn("Hero 2")).reason
    assert "has not ended" in refusal(fight.start_round).reason


def test_an_event_with_unknown_arguments_is_refused_by_name():
    fight = boss_fight()
    fight.start_round()
    refused = refusal(lambda: fight.do("damage", unit="Orc 1", amount=3, colour="red"))
    assert refused.field == "event" and "unit, amount" in refused.accepts
    assert refusal(lambda: fight.do("explode")).field == "event"


# ---------------------------------------------------------------- Stamina


def test_weakness_and_immunity_on_a_creature():
    fight = boss_fight()
    fight.start_round()
    fight.damage("Orc 1", 10, weakness=3)
    assert fight.unit("Orc 1").current == 27
    fight.damage("Orc 1", 4, immunity=5)  # never below 0 damage
    assert fight.unit("Orc 1").current == 27


# ---------------------------------------------------------------- squads


def test_a_squad_is_one_pool_and_loses_a_minion_at_each_multiple():
    # "a squad of eight spinecleavers has a Stamina pool of 40" ... "When the Stamina pool hits 30, 25, 20,
    # 15, 10, 5, and finally 0, another minion in the squad dies each time."
    fight = boss_fight()
    fight.start_round()
    squad = fight.unit("Goblin spinecleaver")
    assert (squad.current, squad.squad.alive) == (40, 8)
    alive = []
    for _ in range(8):
        fight.damage("Goblin spinecleaver", 5)
        alive.append(fight.unit("Goblin spinecleaver").squad.alive)
    assert alive == [7, 6, 5, 4, 3, 2, 1, 0]
    assert fight.unit("Goblin spinecleaver").status == "dead"


def test_single_target_damage_drops_several_area_damage_only_those_in_it():
    # "if a goblin spinecleaver takes 12 damage from a fury's Brutal Slam ability" two drop; Incinerate's 6
    # to three spinecleavers: "the minion pool loses 15 Stamina instead of 18"
    fight = boss_fight()
    fight.start_round()
    fight.damage("Goblin spinecleaver", 12)
    assert fight.unit("Goblin spinecleaver").squad.alive == 6
    fight.undo()
    fight.damage("Goblin spinecleaver", 6, in_area=3)
    assert (fight.unit("Goblin spinecleaver").current, fight.unit("Goblin spinecleaver").squad.alive) == (25, 5)


def test_area_damage_on_a_single_creature_is_refused():
    fight = boss_fight()
    fight.start_round()
    assert refusal(lambda: fight.damage("Orc 1", 5, in_area=2)).field == "in_area"


def test_captain_attaches_and_falls_with_its_creature():
    fight = boss_fight()
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    assert fight.unit("Goblin spinecleaver").squad.captain == "Goblin boss"
    assert "already has" in refusal(lambda: fight.attach_captain("Goblin spinecleaver", "Orc 1")).reason
    assert refusal(lambda: fight.attach_captain("Goblin spinecleaver", "Hero 1")).field == "captain"
    fight.damage("Goblin boss", 80)
    assert fight.unit("Goblin boss").status == "dead"
    assert fight.unit("Goblin spinecleaver").squad.captain is None
    # "a new one joins at the start of the next round"
    assert "fell in round 1" in refusal(lambda: fight.attach_captain("Goblin spinecleaver", "Orc 1")).reason
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Orc 1")
    assert fight.unit("Goblin spinecleaver").squad.captain == "Orc 1"


def test_with_captain_stamina_bonus_raises_the_pool():
    minion = SPINECLEAVER.model_copy(update={"with_captain": "+2 bonus to Stamina"})
    enc = encounter((BOSS, 1), (minion, 4), groups=[group((0, 1)), group((1, 4))])
    fight = Fight(enc, [BOSS, minion])
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    assert fight.unit("Goblin spinecleaver").current == 4 * 7


# ---------------------------------------------------------------- dead, fled, conditions


def test_fled_creatures_leave_the_fight_and_their_group_is_skipped():
    fight = boss_fight()
    fight.start_round()
    fight.flees("Orc 1")
    fight.dies("Orc 2")
    assert [fight.unit(n).status for n in ("Orc 1", "Orc 2")] == ["fled", "dead"]
    assert fight.turns_left("Group 3") == 0
    assert "down or fled" in refusal(lambda: fight.start_turn("Group 3")).reason
    assert refusal(lambda: fight.damage("Orc 1", 3)).field == "unit"


def test_end_of_turn_conditions_end_at_the_end_of_the_creatures_next_turn():
    fight = boss_fight()
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.add_condition("Orc 1", "dazed", "end of turn")
    fight.add_condition("Orc 1", "bleeding", "save ends")
    fight.end_turn()
    fight.start_turn("Group 3")
    fight.end_turn()
    assert [c.label for c in fight.unit("Orc 1").conditions] == ["bleeding"]
    fight.end_condition("Orc 1", "bleeding")  # the save succeeded
    assert fight.unit("Orc 1").conditions == ()


def test_a_condition_added_during_the_creatures_own_turn_lasts_to_its_next_turn():
    fight = boss_fight()
    fight.start_round()
    fight.start_turn("Group 3")
    fight.add_condition("Orc 2", "slowed", "end of turn")
    fight.end_turn()
    assert [c.label for c in fight.unit("Orc 2").conditions] == ["slowed"]


def test_condition_refusals():
    fight = boss_fight()
    fight.start_round()
    assert refusal(lambda: fight.add_condition("Orc 1", "dazed", "next week")).field == "ends"
    assert refusal(lambda: fight.add_condition("Orc 1", "  ")).field == "label"
    fight.add_condition("Orc 1", "dazed")
    assert refusal(lambda: fight.add_condition("Orc 1", "Dazed")).field == "label"
    assert refusal(lambda: fight.end_condition("Orc 1", "prone")).field == "label"


# ---------------------------------------------------------------- Malice


def test_malice_is_the_books_nine_then_seven_then_eight():
    # "if five heroes with three Victories each are just starting their first combat round, you begin that
    # combat with 9 Malice ... you gain 7 Malice ... you gain 8 Malice in the third round"
    fight = boss_fight(heroes=5, victories=3)
    totals = []
    for _ in range(3):
        fight.start_round()
        totals.append(fight.malice)
    assert totals == [9, 16, 24]


def test_malice_per_round_with_a_dead_hero():
    # "If a hero dies, they stop generating Malice for you."
    fight = boss_fight(heroes=5, victories=3)
    fight.start_round()  # 3 + 5 + 1 = 9
    fight.dies("Hero 2")
    fight.start_round()  # 4 living heroes + round 2 = 6
    assert fight.malice == 15
    assert fight.unit("Hero 2").status == "dead"


def test_basic_malice_only_at_a_monsters_turn_and_strike_not_two_rounds_running():
    fight = boss_fight(heroes=5, victories=3)
    fight.start_round()
    fight.start_turn("Hero 1")
    assert "a hero's" in refusal(lambda: fight.spend("Brutal Effectiveness")).reason
    fight.end_turn()
    fight.start_turn("Group 1")
    fight.spend("Malicious Strike", 5, unit="Goblin boss")
    assert fight.malice == 4
    fight.end_turn()
    fight.start_round()
    fight.start_turn("Group 3")
    assert "two rounds in a row" in refusal(lambda: fight.spend("Malicious Strike", 5, unit="Orc 1")).reason
    assert refusal(lambda: fight.spend("No Such Thing")).field == "feature"


def test_unused_malice_is_lost_at_the_end():
    # "At the end of an encounter, any unused Malice is lost."
    fight = boss_fight()
    fight.start_round()
    fight.end()
    assert fight.malice == 0 and fight.ended


# ---------------------------------------------------------------- villain actions


def test_a_villain_action_refused_twice_in_one_round():
    # "no more than one villain action can be used per round"; "Each villain action can be used only once
    # per encounter"
    fight = boss_fight()
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.end_turn()
    assert fight.villain_action_allowed("Goblin boss", 1) is None
    fight.villain_action("Goblin boss", 1)
    fight.start_turn("Hero 2")
    fight.end_turn()
    second = refusal(lambda: fight.villain_action("Goblin boss", 2))
    assert "no more than one villain action can be used per round" in second.reason
    assert fight.villain_action_allowed("Goblin boss", 2) is not None
    fight.start_round()
    fight.start_turn("Hero 3")
    fight.end_turn()
    again = refusal(lambda: fight.villain_action("Goblin boss", 1))
    assert "Each villain action can be used only once per encounter" in again.reason
    fight.villain_action("Goblin boss", 2)
    assert fight.villain_actions_used() == (("Goblin boss", 1, 1), ("Goblin boss", 2, 2))


def test_a_villain_action_only_at_the_end_of_another_creatures_turn():
    # "A creature can use a villain action at the end of any other creature's turn during combat."
    fight = boss_fight()
    fight.start_round()
    words = "A creature can use a villain action at the end of any other creature's turn during combat."
    assert refusal(lambda: fight.villain_action("Goblin boss", 1)).reason == words  # no turn has ended
    fight.start_turn("Hero 1")
    assert refusal(lambda: fight.villain_action("Goblin boss", 1)).reason == words  # during a turn
    fight.end_turn()
    fight.start_turn("Group 1")
    fight.end_turn()
    own = refusal(lambda: fight.villain_action("Goblin boss", 1))
    assert words in own.reason and "Goblin boss's own" in own.reason
    assert "villain actions" in refusal(lambda: fight.villain_action("Orc 1", 1)).reason


# ---------------------------------------------------------------- the solo


def test_the_solos_two_turns_never_consecutive():
    # "Solo Turns The creature can take two turns each round. They can't take turns consecutively."
    fight = solo_fight()
    solo = next(a for a in fight.actors if a.side == "monster")
    assert solo.turns == 2
    fight.start_round()
    fight.start_turn(solo.label)
    fight.end_turn()
    assert fight.turns_left(solo.label) == 1
    consecutive = refusal(lambda: fight.start_turn(solo.label))
    assert "They can't take turns consecutively." in consecutive.reason
    fight.start_turn("Hero 1")
    fight.end_turn()
    fight.start_turn(solo.label)
    fight.end_turn()
    third = refusal(lambda: fight.start_turn(solo.label))
    assert "two turns" in third.reason and "The creature can take two turns each round." in third.reason


def test_the_solos_last_turn_of_a_round_and_first_of_the_next_are_consecutive():
    fight = solo_fight()
    solo = next(a for a in fight.actors if a.side == "monster").label
    fight.start_round()
    fight.start_turn("Hero 1")
    fight.end_turn()
    fight.start_turn(solo)
    fight.end_turn()
    fight.start_round()
    assert "consecutively" in refusal(lambda: fight.start_turn(solo)).reason


# ---------------------------------------------------------------- reinforcements


def test_reinforcements_join_as_a_new_group():
    # Hold Them Off: "At the end of each combat round, you add more enemies to the map"
    fight = boss_fight()
    fight.start_round()
    fight.reinforce("Orc", 2)
    fight.reinforce("Goblin spinecleaver", 4)
    groups = [a for a in fight.actors if a.side == "monster"]
    assert [a.units for a in groups[3:]] == [("Orc 3", "Orc 4"), ("Goblin spinecleaver (squad 2)",)]
    assert fight.unit("Goblin spinecleaver (squad 2)").current == 4 * 5
    fight.start_turn("Group 4")
    fight.end_turn()
    assert "one of the encounter's stat blocks" in refusal(lambda: fight.reinforce("Dragon", 1)).accepts
    assert refusal(lambda: fight.reinforce("Orc", 0)).field == "count"
    fight.undo()
    fight.undo()
    fight.undo()
    assert [a.label for a in fight.actors if a.side == "monster"] == ["Group 1", "Group 2", "Group 3", "Group 4"]


# ---------------------------------------------------------------- the Director's table


def test_a_damage_type_meets_the_modifiers_naming_it_or_all_and_the_highest_counts():
    from workbench.model import DamageModifier

    imp = BOSS.model_copy(update={
        "weaknesses": (DamageModifier(type="fire", value=5),),
        "immunities": (DamageModifier(type="cold", value=3), DamageModifier(type="all", value=1)),
    })
    assert modifier_for(imp, "fire") == (5, 1)
    assert modifier_for(imp, "Cold") == (0, 3)  # the highest immunity that applies, not the sum


def test_a_heros_stamina_kept_by_the_director_falls_below_zero_and_winds():
    fight = boss_fight()
    fight.start_round()
    fight.set_stamina("Hero 1", 20)
    fight.damage("Hero 1", 12)
    assert fight.unit("Hero 1").winded and fight.unit("Hero 1").damage_taken == 12
    fight.damage("Hero 1", 10)
    assert fight.unit("Hero 1").current == -2 and fight.unit("Hero 1").active  # dying, not dead: the table says
    fight.heal("Hero 1", 5)
    assert fight.unit("Hero 1").current == 3
    assert not fight.unit("Hero 2").winded  # Stamina not kept: the player's
    assert refusal(lambda: fight.heal("Hero 2", 5)).field == "unit"


def test_a_minion_that_dies_leaves_its_squad_and_the_pool():
    fight = boss_fight()
    fight.start_round()
    fight.damage("Goblin spinecleaver", 2)  # eight standing, one of them hurt (pool 38)
    fight.minion_dies("Goblin spinecleaver")
    unit = fight.unit("Goblin spinecleaver")
    assert (unit.squad.alive, unit.squad.pool) == (8 - 1, (8 - 1) * 5)  # the seven left keep their full Stamina
    assert unit.dropped == ((1, 1),)  # counted among the minions lost this round (Escort's replacements)
    for _ in range(7):
        fight.minion_dies("Goblin spinecleaver")
    assert fight.unit("Goblin spinecleaver").status == "dead"
    assert refusal(lambda: fight.minion_dies("Orc 1")).field == "squad"


def test_the_players_see_the_malice_as_the_director_chooses():
    fight = boss_fight()
    assert fight.state.malice_shown is True
    fight.show_malice(False)
    assert fight.state.malice_shown is False
    assert refusal(lambda: fight.show_malice("no")).field == "shown"  # type: ignore[arg-type]
    again = Fight.from_data(fight.to_data())
    assert again.state.malice_shown is False
