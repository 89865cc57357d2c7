"""Objectives: each one's difficulty modifier and Victories, bonuses, added heroes, combined objectives, the
thing's and ward's Stamina, reinforcements and the numbers for a party."""

from __future__ import annotations

import pytest
from encounter_setups import encounter

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
from workbench.encounter.report import report
from workbench.errors import InvalidInput


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
