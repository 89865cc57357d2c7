"""The fight runner's controls for the Director's choices, driven without a browser: End Effect at the end of
a solo's turn, Diminish Numbers' condition, Destroy the Thing!'s things, a timed objective's duration in
rounds (the difficulty and Victories moving with it, saved), and Complete the Action's tasks each round.

Expected numbers come from a `Fight` given the same choices through its own methods, never typed in."""

from __future__ import annotations

from fight_setups import BRUTE, SPINECLEAVER, encounter, group, named, platoon

from workbench.apps.fight_runner import NOT_CHOSEN, fight_runner
from workbench.encounter.objective import DIMINISH_CONDITIONS, choose_objective, thing_stamina
from workbench.fight.fight import Fight, load_fight
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.monster.solo import instant_solo

SAMPLE = sample_bestiary()
WEREWOLF = whole_stat_block(SAMPLE, SAMPLE.named("Werewolf"))


def runner(fight, tmp_path):
    return fight_runner(fight, tmp_path / "fight.json")


def click(app, name):
    app.controls["buttons"][name].click()
    assert app.controls["refusal"].value == "", app.controls["refusal"].value


def werewolf_fight():
    return Fight(encounter((WEREWOLF, 1), (BRUTE, 1), groups=[group((0, 1), (1, 1))]), [WEREWOLF, BRUTE])


# ---------------------------------------------------------------- End Effect


def test_end_effect_is_offered_at_the_end_of_the_solos_turn_and_ends_the_effect(tmp_path):
    # "End Effect: At the end of each of their turns, the werewolf can take 5 damage to end one effect on them
    # that can be ended by a saving throw. This damage can't be reduced in any way." (the Werewolf's own)
    app = runner(werewolf_fight(), tmp_path)
    c = app.controls
    row = c["end_effect_row"]
    click(app, "round")
    c["actor"].value = "group:1"
    click(app, "turn")
    c["target"].value = "Werewolf"
    c["condition"].value = "dazed"
    c["ends"].value = "save ends"
    click(app, "condition")
    assert row.layout.display == "none"  # not during its turn
    click(app, "end_turn")
    assert row.layout.display == "flex"
    assert "Werewolf can take 5 damage" in c["end_effect"].value
    assert tuple(c["end_effect_on"].options) == ("dazed",)
    stamina = app.fight.unit("Werewolf").stamina
    click(app, "end_effect")
    werewolf = app.fight.unit("Werewolf")
    assert werewolf.stamina == stamina - 5 and not werewolf.conditions
    assert row.layout.display == "none"  # one effect a turn
    click(app, "undo")
    assert row.layout.display == "flex" and app.fight.unit("Werewolf").conditions


def test_end_effect_is_not_offered_after_a_heros_turn_nor_without_a_save_ends_effect(tmp_path):
    app = runner(werewolf_fight(), tmp_path)
    c = app.controls
    click(app, "round")
    c["actor"].value = "hero:Hero 1"
    click(app, "turn")
    c["target"].value = "Werewolf"
    c["condition"].value = "slowed"
    c["ends"].value = "until removed"
    click(app, "condition")
    click(app, "end_turn")
    assert c["end_effect_row"].layout.display == "none"
    c["actor"].value = "group:1"
    click(app, "turn")
    click(app, "end_turn")
    assert c["end_effect_row"].layout.display == "none"  # "an effect ... that can be ended by a saving throw"
    c["buttons"]["end_effect"].click()
    assert "End Effect" in c["refusal"].value


def test_the_solos_second_turn_is_its_own_and_solo_action_only_where_printed(tmp_path):
    # "The werewolf can take two turns each round. They can't take turns consecutively."
    app = runner(werewolf_fight(), tmp_path)
    c = app.controls
    features = [value for _label, value in c["feature"].options]
    assert "Solo Action" not in features  # the Werewolf's stat block prints none
    click(app, "round")
    for actor in ("group:1", "hero:Hero 1", "group:1"):
        c["actor"].value = actor
        click(app, "turn")
        click(app, "end_turn")
    assert app.fight.state.acting == ("Werewolf",)  # the second turn: the solo alone, not the orc beside it
    ogre = instant_solo(named(1, "leader", None, "Ogre chief"))
    made = runner(Fight(encounter((ogre, 1)), [ogre]), tmp_path / "ogre")
    assert "Solo Action" in [value for _label, value in made.controls["feature"].options]


# ---------------------------------------------------------------- Diminish Numbers


def diminish_fight():
    """Two squads of eight minions and an orc, Diminish Numbers."""
    enc = encounter((SPINECLEAVER, 16), (BRUTE, 1), objectives=[choose_objective("diminish_numbers")])
    return Fight(enc, [SPINECLEAVER, BRUTE])


def test_diminish_numbers_offers_the_conditions_the_encounter_allows_and_the_choice_ends_the_fight(tmp_path):
    # "An encounter that includes two or more groups of minions ends when the heroes have no non-minion
    # enemies remaining."
    app = runner(diminish_fight(), tmp_path)
    c = app.controls
    offered = [value for _label, value in c["diminish"].options]
    assert offered == ["", "minion_groups", "horde", "platoon", "half"]  # no solo in this fight
    assert c["diminish"].value == "" and NOT_CHOSEN in dict(c["diminish"].options)
    assert "no condition chosen" in c["objectives"].value
    c["diminish"].value = "minion_groups"
    assert app.fight.state.objectives[0].choice == "minion_groups"
    assert DIMINISH_CONDITIONS["minion_groups"] in c["objectives"].value
    click(app, "round")
    c["target"].value = "Orc"
    click(app, "dies")
    assert app.fight.ended and app.fight.result().success
    assert c["diminish"].value == "minion_groups" and c["diminish"].disabled  # the reading it ended by
    assert load_fight(tmp_path / "fight.json").state.objectives[0].choice == "minion_groups"  # saved
    click(app, "undo")
    click(app, "undo")
    click(app, "undo")
    assert c["diminish"].value == ""  # undo takes the choice back, and the picker follows


def test_diminish_numbers_offers_the_solos_condition_in_a_battle_against_a_solo(tmp_path):
    # "In a battle against a solo creature, that creature flees or surrenders when reduced to one-quarter or
    # less of their Stamina and after using all their villain actions."
    enc = encounter((WEREWOLF, 1), objectives=[choose_objective("diminish_numbers")])
    app = runner(Fight(enc, [WEREWOLF]), tmp_path)
    c = app.controls
    assert [value for _label, value in c["diminish"].options] == ["", "horde", "platoon", "half", "solo"]
    c["diminish"].value = "solo"
    assert DIMINISH_CONDITIONS["solo"] in c["objectives"].value


def test_diminish_numbers_choice_taken_back_on_the_page(tmp_path):
    app = runner(diminish_fight(), tmp_path)
    c = app.controls
    c["diminish"].value = "half"
    c["diminish"].value = ""
    assert app.fight.state.objectives[0].choice is None
    assert [e.kind for e in app.fight.events] == ["choose", "choose"]


# ---------------------------------------------------------------- Destroy the Thing!


def test_destroy_the_things_number_and_how_many_must_go(tmp_path):
    # "In a multiple-thing setup, success might involve destroying only a certain number of the things."
    app = runner(Fight(platoon(4, "destroy_the_thing", multiple=True), [BRUTE]), tmp_path)
    c = app.controls
    assert (c["things"].value, c["needed"].value) == (2, 2)
    c["things"].value = 4
    c["needed"].value = 3
    p = app.fight.state.objectives[0]
    assert (p.things, p.target) == (4, 3)
    each = ", ".join(map(str, thing_stamina(1, things=4)))  # "Divide the thing's Stamina between all ..."
    assert f"3 of 4 things to destroy (Stamina {each})" in c["objectives"].value
    c["things"].value = 2  # fewer things than must go: the number to destroy follows
    p = app.fight.state.objectives[0]
    assert (p.things, p.target, c["needed"].value) == (2, 2, 2)
    click(app, "round")
    c["counter"].value = ("destroy_the_thing", "destroyed")
    click(app, "plus")
    assert not app.fight.ended
    click(app, "plus")
    assert app.fight.ended and app.fight.result().success


def test_one_thing_asks_for_no_number(tmp_path):
    app = runner(Fight(platoon(4, "destroy_the_thing"), [BRUTE]), tmp_path)
    assert app.controls["things"] not in _all_children(app)
    assert "1 of 1 thing to destroy" in app.controls["objectives"].value


def _all_children(widget):
    found, stack = [], [widget]
    while stack:
        w = stack.pop()
        found.append(w)
        stack.extend(getattr(w, "children", ()))
    return found


# ---------------------------------------------------------------- durations


def test_a_six_round_hold_moves_the_difficulty_and_victories_and_is_saved(tmp_path):
    # "one category harder if the encounter duration is 5 rounds or greater" (Hold Them Off)
    app = runner(Fight(platoon(4, "hold_them_off"), [BRUTE]), tmp_path)
    c = app.controls
    before = Fight(platoon(4, "hold_them_off"), [BRUTE])
    six = Fight(platoon(4, "hold_them_off"), [BRUTE], durations={"hold_them_off": 6})
    assert before.outcome.difficulty != six.outcome.difficulty
    assert f">{before.outcome.difficulty}<" in c["stakes"].value
    click(app, "round")
    box = c["durations"]["hold_them_off"]
    box.value = 6
    assert app.controls is c  # the same board, on the fight with its duration
    assert app.fight.durations == {"hold_them_off": 6}
    assert app.fight.round == 1  # the fight so far is kept
    assert f">{six.outcome.difficulty}<" in c["stakes"].value
    assert f">{six.victories_for_success}<" in c["stakes"].value
    assert "5 rounds or greater" in c["stakes"].value and "set by the Director" in c["stakes"].value
    assert "rounds done: 0 of 6" in c["objectives"].value
    assert c["end_victories"].value == six.victories_for_success
    saved = load_fight(tmp_path / "fight.json")
    assert saved.durations == {"hold_them_off": 6} and saved.round == 1
    c["durations"]["hold_them_off"].value = 4
    assert f">{before.outcome.difficulty}<" in app.controls["stakes"].value


def test_a_five_round_complete_the_action_and_its_tasks_each_round(tmp_path):
    # "one category harder if the encounter duration is 5 or more"; "At the end of any combat round in which
    # the heroes have failed to perform the required number of tasks, the party accumulates one failure."
    app = runner(Fight(platoon(4, "complete_the_action"), [BRUTE]), tmp_path)
    app.controls["durations"]["complete_the_action"].value = 5
    c = app.controls
    five = Fight(platoon(4, "complete_the_action"), [BRUTE], durations={"complete_the_action": 5})
    assert f">{five.outcome.difficulty}<" in c["stakes"].value
    needed = five.tasks_per_round()
    assert f"{needed} task(s) needed each round" in c["objectives"].value
    c["counter"].value = ("complete_the_action", "tasks")
    for round_ in range(1, 6):
        click(app, "round")
        for _ in range(needed if round_ < 5 else needed - 1):  # the last round one task short
            click(app, "plus")
    click(app, "end_round")
    p = app.fight.state.objectives[0]
    assert p.count("failures") == 1 and p.status == "met"  # "with 1 or no failures"
    assert app.fight.ended and app.fight.result().success


def test_a_duration_the_fight_so_far_cannot_keep_is_refused_and_nothing_changes(tmp_path):
    app = runner(Fight(platoon(4, "hold_them_off"), [BRUTE]), tmp_path)
    c = app.controls
    for _ in range(3):
        click(app, "round")
    click(app, "end_round")
    assert app.fight.ended  # held for the 3 rounds
    assert c["durations"]["hold_them_off"].disabled  # its Victories are written: undo to go back
    click(app, "undo")
    c["target"].value = "Orc 1"
    click(app, "dies")  # in round 3
    c["durations"]["hold_them_off"].value = 2  # a 2-round hold is over before round 3's deeds: refused
    assert "Event 4 (dies) would be refused" in c["refusal"].value
    assert app.fight.durations == {} and not app.fight.ended
    assert c["durations"]["hold_them_off"].value == 3  # the box shows the fight's duration again
