"""The table-side Malice tracker (`workbench.fight.malice_tracker`): the book's example, spending refused when
short, Malicious Strike's damage and limits, deaths, undo and the end; any run of actions keeps it sound."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from malice_setups import BIG, BRUTAL, SOLO, STRIKE

import workbench as wb
from workbench.fight.malice_schedule import malice_schedule
from workbench.fight.malice_tracker import MaliceTracker, end_encounter, hero_dies, spend, start_encounter, start_round

# ---------------------------------------------------------------- the tracker


def level(n, organization="platoon", role="brute"):
    return wb.build_monster(level=n, organization=organization, role=role).model_copy(update={"name": "Orc"})


def test_tracker_follows_the_book_example():
    t = MaliceTracker(heroes=5, victories=3)
    assert t.malice == 0 and t.round == 0
    t.start_round()
    assert t.malice == 9      # "you begin that combat with 9 Malice"
    t.start_round()
    assert t.malice == 16     # + 7
    t.start_round()
    assert t.malice == 24     # + 8


def test_tracker_spend_refused_when_short_and_nothing_changes():
    t = MaliceTracker(heroes=2, victories=0)
    t.start_round()           # 0 + 2 + 1 = 3
    before = t.state
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(SOLO)         # 5 > 3
    assert caught.value.field == "amount"
    assert t.state == before
    t.spend(BRUTAL)
    assert t.malice == 0


def test_malicious_strike_refused_two_rounds_in_a_row_even_by_different_monsters():
    t = MaliceTracker(heroes=5, victories=3)
    t.start_round()
    t.spend(STRIKE, monster=level(1))
    t.start_round()
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(STRIKE, monster=level(4))  # a different monster, the next round
    assert caught.value.field == "feature"
    t.spend(BRUTAL)                         # other features are fine
    t.start_round()
    t.spend(STRIKE, monster=level(4))       # a round later it is allowed again


@pytest.mark.parametrize(
    ("monster_level", "organization", "role", "amount", "extra"),
    [
        # Level 1 platoon: highest characteristic 1 + echelon 1 = 2. 5 Malice: +2.
        (1, "platoon", "brute", 5, 2),
        # "increases by 1 for each additional Malice": 6 Malice -> +3.
        (1, "platoon", "brute", 6, 3),
        # "to a maximum of three times the monster's highest characteristic": 3 x 2 = 6 at 9 Malice.
        (1, "platoon", "brute", 9, 6),
        # Level 10 leader: 1 + 4 + 1 = 6, but "at most +5": 5. 5 Malice -> +5; cap 15 at 5 + 10 = 15 Malice.
        (10, "leader", None, 5, 5),
        (10, "leader", None, 15, 15),
    ],
)
def test_malicious_strike_extra_damage_in_the_log(monster_level, organization, role, amount, extra):
    t = MaliceTracker(heroes=8, victories=20)  # 20 + 8 + 1 = 29 in round 1: enough for every row
    t.start_round()
    t.spend(STRIKE, amount=amount, monster=level(monster_level, organization, role))
    assert f"+{extra} damage" in t.log[-1].text
    assert t.malice == 29 - amount


def test_malicious_strike_beyond_three_times_is_refused():
    t = MaliceTracker(heroes=8, victories=20)
    t.start_round()
    # Level 1 platoon: 2 to 6 extra, so 5 to 9 Malice; 10 would buy nothing more.
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(STRIKE, amount=10, monster=level(1))
    assert caught.value.field == "amount"
    with pytest.raises(wb.InvalidInput) as caught:
        t.spend(STRIKE)  # whose strike? the damage needs the monster's highest characteristic
    assert caught.value.field == "monster"


def test_tracker_deaths_undo_log_and_end():
    t = MaliceTracker(heroes=5, victories=3)
    t.start_round()             # 9
    t.hero_dies()               # dies in round 1: missing from round 2's gain
    t.start_round()             # + 4 + 2 = 15
    assert t.malice == 15
    t.undo()
    t.undo()
    assert t.malice == 9 and t.state.living == 5
    t.start_round()
    assert t.malice == 16
    t.end_encounter()           # "At the end of an encounter, any unused Malice is lost."
    assert t.malice == 0
    assert t.log[-1].kind == "end" and "16 unused Malice lost" in t.log[-1].text
    with pytest.raises(wb.InvalidInput):
        t.start_round()         # the encounter is over
    t.reset()
    assert (t.malice, t.round, t.state.living, t.state.ended) == (0, 0, 5, False)


def test_undo_with_nothing_to_undo_is_refused():
    with pytest.raises(wb.InvalidInput) as caught:
        MaliceTracker(heroes=3, victories=0).undo()
    assert caught.value.field == "undo"


def test_spend_before_the_first_round_is_refused():
    with pytest.raises(wb.InvalidInput):
        spend(start_encounter(5, 3), BRUTAL)


# ---------------------------------------------------------------- properties


ACTIONS = st.lists(
    st.one_of(
        st.just(("round",)),
        st.tuples(st.just("die"), st.integers(1, 3)),
        st.tuples(st.just("spend"), st.sampled_from([BRUTAL, STRIKE, SOLO, BIG]), st.integers(0, 4)),
        st.just(("undo",)),
    ),
    max_size=30,
)


def perform(t, action, monster):
    if action[0] == "round":
        t.start_round()
    elif action[0] == "die":
        t.hero_dies(action[1])
    else:
        feature, more = action[1], action[2]
        extra = more if feature is STRIKE else 0
        t.spend(feature, amount=feature.cost + extra, monster=monster)


@given(heroes=st.integers(1, 6), victories=st.integers(0, 6), actions=ACTIONS)
def test_tracker_malice_never_negative_and_undo_restores_exactly(heroes, victories, actions):
    monster = level(3)
    t = MaliceTracker(heroes, victories)
    for action in actions:
        if action[0] == "undo":
            if t.can_undo:
                t.undo()
            continue
        before = t.state
        try:
            perform(t, action, monster)
        except wb.InvalidInput:
            assert t.state == before  # a refusal changes nothing
            continue
        assert t.malice >= 0
        after = t.state
        t.undo()
        assert t.state == before      # undo restores the exact prior state
        perform(t, action, monster)   # and doing it again gives the same state
        assert t.state == after


@given(heroes=st.integers(1, 6), victories=st.integers(0, 6), rounds=st.integers(1, 8), data=st.data())
def test_tracker_gains_agree_with_the_schedule(heroes, victories, rounds, data):
    died = data.draw(st.lists(st.integers(2, rounds + 1), max_size=heroes))
    state = start_encounter(heroes, victories)
    for number in range(1, rounds + 1):
        for _ in [d for d in died if d == number]:
            state = hero_dies(state)
        state = start_round(state)
    schedule = malice_schedule(heroes, victories, rounds, [(d, 1) for d in died if d <= rounds])
    assert state.malice == schedule[-1].total
    assert end_encounter(state).malice == 0
