"""Editing an encounter by mouse, as pure functions: counts (minions by fours), the star, groups per entry."""

from __future__ import annotations

import pytest

from workbench.encounter.editing import NO_GROUP, SPLIT, assign_group, group_of, set_star, step_count
from workbench.encounter.encounter import Encounter, InitiativeGroup
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput

E = Encounter(party=make_party(heroes=5, level=3)).adding("8 x level 2 minion harrier", "2 x level 3 platoon brute")


@pytest.mark.parametrize(
    ("index", "steps", "count"),
    [
        (0, 1, 12),  # minions: one set of four more
        (0, -1, 4),  # one set fewer
        (1, 1, 3),  # a platoon creature: one more
        (1, -1, 1),  # one fewer
    ],
)
def test_step_count(index, steps, count):
    assert step_count(E, index, steps).creatures[index].count == count


def test_step_count_refuses_going_below_one_step():
    with pytest.raises(InvalidInput) as error:
        step_count(E, 0, -2)  # 8 - 2 × 4 = 0 minions
    assert error.value.field == "count" and "remove the entry" in str(error.value)
    with pytest.raises(InvalidInput):
        step_count(E, 5, 1)  # no such entry


def test_a_changed_count_leaves_its_groups():
    grouped = E.model_copy(update={"groups": (InitiativeGroup(members=((0, 8), (1, 2))),)})
    assert step_count(grouped, 1, 1).groups == (InitiativeGroup(members=((0, 8),)),)


def test_star():
    assert set_star(E, 1, True).creatures[1].star and not set_star(E, 1, True).creatures[0].star
    assert not set_star(set_star(E, 1, True), 1, False).creatures[1].star


def test_groups_by_entry():
    e = assign_group(E, 1, 1)  # a new group 1 with the brutes
    assert [g.members for g in e.groups] == [((1, 2),)]
    assert (group_of(e, 0), group_of(e, 1)) == (NO_GROUP, 1)
    e = assign_group(e, 0, 2)  # a new group 2 with all eight minions
    assert [g.members for g in e.groups] == [((1, 2),), ((0, 8),)]
    e = assign_group(e, 1, 2)  # the brutes join group 2; group 1 is left empty and goes
    assert [g.members for g in e.groups] == [((0, 8), (1, 2))]
    e = assign_group(e, 0, NO_GROUP)
    assert [g.members for g in e.groups] == [((1, 2),)]
    with pytest.raises(InvalidInput):
        assign_group(e, 0, 5)  # only groups 1 and 2 (new) can be picked


def test_a_split_entry():
    split = E.model_copy(update={"groups": (InitiativeGroup(members=((0, 4),)), InitiativeGroup(members=((0, 4),)))})
    assert group_of(split, 0) == SPLIT
    assert [g.members for g in assign_group(split, 0, 1).groups] == [((0, 8),)]
