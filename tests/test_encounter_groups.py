"""Initiative groups: their EV and count checked, typed and read back, suggested for every creature once, and
suggestions that keep their own check."""

from __future__ import annotations

from fractions import Fraction

import pytest
from encounter_setups import encounter, five_level_3
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.encounter.encounter import Encounter, InitiativeGroup
from workbench.encounter.groups import check_groups, format_groups, parse_groups, suggest_groups
from workbench.encounter.party import budget, make_party
from workbench.errors import InvalidInput


def party(heroes=5, level=3):
    return make_party(heroes=heroes, level=level)


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


# ---------------------------------------------------------------- suggested groups keep their check


def test_suggested_groups_beside_an_instant_solo_keep_the_group_check():
    # "It's okay to have one initiative group with a total EV of less than the recommendation above": eight
    # level 3 minions (EV 5 a set) beside an instant solo are one group of 10, not two of 5
    e = Encounter(party=party()).adding("level 3 leader instant solo", "8 x level 3 minion harrier")
    e = e.model_copy(update={"groups": suggest_groups(e)})
    assert len(e.groups) == 2
    group_ev = next(c for c in check_groups(e, budget(e.party).hero_strength) if c.key == "group_ev")
    assert not group_ev.broken, group_ev.detail


def test_suggested_groups_with_a_solo_leave_at_most_one_low_group():
    e = Encounter(party=party()).adding("level 4 solo", "12 x level 2 minion harrier", "level 1 horde hexer")
    e = e.model_copy(update={"groups": suggest_groups(e)})
    h = budget(e.party).hero_strength
    assert not next(c for c in check_groups(e, h) if c.key == "group_ev").broken


# ---------------------------------------------------------------- a large encounter is grouped at once


def test_a_hundred_entries_of_a_thousand_creatures_are_grouped_within_two_seconds():
    import time

    specs = [f"10 x level {1 + i % 10} {('minion', 'platoon', 'elite', 'horde')[i % 4]} brute" for i in range(100)]
    e = encounter(*specs, party=make_party(heroes=60, level=5))
    started = time.perf_counter()
    groups = suggest_groups(e)
    assert time.perf_counter() - started < 2
    placed: dict[int, int] = {}
    for g in groups:
        for index, count in g.members:
            placed[index] = placed.get(index, 0) + count
    assert placed == {i: c.count for i, c in enumerate(e.creatures)}  # bounded, and still every creature once


def test_the_search_stops_at_its_trial_limit_and_still_places_everyone(monkeypatch):
    from workbench.encounter import groups as module

    monkeypatch.setattr(module, "MAX_TRIALS", 1)
    e = encounter(*[f"3 x level {1 + i % 5} platoon brute" for i in range(12)], party=make_party(heroes=3, level=3))
    capped = suggest_groups(e)
    assert sum(count for g in capped for _, count in g.members) == 36
