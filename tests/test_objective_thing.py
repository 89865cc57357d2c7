"""Destroy the Thing!'s extra defenses, ticked one by one: "If the thing doesn't have any
extra defenses (being hidden or held, having extra Stamina, and so forth), the encounter is one difficulty
category easier. If the thing has two or more extra defenses, the encounter is one difficulty harder." and "A
thing can't be both hidden and held." Old files, saved with the two flags, load with the same difficulty."""

from __future__ import annotations

import json

import pytest

from workbench.encounter.encounter import Encounter
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.objective import ChosenObjective, apply_objectives, choose_objective, defense_count
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.errors import InvalidInput


@pytest.mark.parametrize(
    "ticked, count, difficulty",
    [
        ({}, 0, "easy"),  # "doesn't have any extra defenses ... one difficulty category easier"
        ({"sturdy": True}, 1, "standard"),  # one defense: no change
        ({"hidden": True}, 1, "standard"),
        ({"held": True, "sturdy": True}, 2, "hard"),  # "two or more extra defenses ... one difficulty harder"
        ({"hidden": True, "sturdy": True, "multiple": True}, 3, "hard"),  # still one category
        ({"other_defenses": 2}, 2, "hard"),  # "and so forth": defenses the Director names
        ({"multiple": True, "other_defenses": 1}, 2, "hard"),
    ],
)
def test_difficulty_follows_the_defenses_ticked(ticked, count, difficulty):
    chosen = choose_objective("destroy_the_thing", **ticked)
    assert defense_count(chosen) == count
    assert apply_objectives("standard", [chosen]).difficulty == difficulty


def test_hidden_and_held_together_are_refused():
    with pytest.raises(InvalidInput, match="A thing can't be both hidden and held"):
        choose_objective("destroy_the_thing", hidden=True, held=True)


def test_the_old_flags_cannot_contradict():
    # "no extra defenses" and "two or more" at once was accepted: refused now, naming both
    with pytest.raises(InvalidInput, match="no_extra_defenses and two_or_more_defenses"):
        choose_objective("destroy_the_thing", no_extra_defenses=True, two_or_more_defenses=True)
    with pytest.raises(ValueError):
        ChosenObjective(key="destroy_the_thing", conditions={"no_extra_defenses": 1, "two_or_more_defenses": 1})


@pytest.mark.parametrize(
    "old_conditions, difficulty",
    [
        ({"no_extra_defenses": 1}, "easy"),
        ({"two_or_more_defenses": 1}, "hard"),
        ({}, "standard"),  # neither ticked: one defense, as it was computed
        ({"no_extra_defenses": 0, "two_or_more_defenses": 0}, "standard"),
    ],
)
def test_files_saved_with_the_two_flags_keep_their_difficulty(tmp_path, old_conditions, difficulty):
    e = Encounter(party=make_party(heroes=5, level=3), objectives=(choose_objective("destroy_the_thing"),))
    e = e.adding("level 3 leader", "2 x level 3 platoon brute", "level 3 platoon artillery", "8 x level 3 minion harrier")
    path = save_encounter(e, tmp_path / "e.json")
    data = json.loads(path.read_text())
    data["encounter"]["objectives"][0]["conditions"] = old_conditions
    path.write_text(json.dumps(data))
    loaded = load_encounter(path)
    assert report(loaded).band == "standard"
    assert report(loaded).difficulty == difficulty
