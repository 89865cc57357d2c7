"""Minion squads against "Using Minions": the pool, drops, area damage, squad attacks, captains, last stand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import workbench as wb
from workbench.fight.squad import (
    SquadTracker,
    WithCaptain,
    attach_captain,
    captain_falls,
    damage_area,
    damage_single,
    drop_thresholds,
    free_strikes_together,
    last_stand,
    last_stand_stamina,
    make_squad,
    regain_stamina,
    squad_attack,
    squad_sizes,
    start_round,
    with_captain_from_text,
)


def spinecleavers(count=8, **kwargs):
    # Published Goblin Spinecleaver: Stamina 5, free strike 2, With Captain "+1 damage bonus to strikes".
    return make_squad(name="Goblin spinecleavers", stamina=5, free_strike=2, count=count, **kwargs)


def named(level, organization, role=None, name="Goblin Underboss"):
    return wb.build_monster(level=level, organization=organization, role=role).model_copy(update={"name": name})


# ---------------------------------------------------------------- splitting minions into squads


@pytest.mark.parametrize(("count", "sizes"), [
    (12, (6, 6)), (9, (5, 4)), (8, (8,)), (17, (6, 6, 5)), (1, (1,)), (16, (8, 8)), (24, (8, 8, 8)),
    (25, (7, 6, 6, 6)), (10, (5, 5)), (0, ()),
])
def test_minions_split_into_squads_of_up_to_eight_as_even_as_can_be(count, sizes):
    assert squad_sizes(count) == sizes


@pytest.mark.parametrize("count", range(0, 90))
def test_every_split_keeps_the_rule(count):
    sizes = squad_sizes(count)
    assert sum(sizes) == count                      # every minion is in a squad
    assert all(1 <= size <= 8 for size in sizes)    # "squads of up to eight creatures"
    assert len(sizes) == (count + 7) // 8           # no more squads than eight to a squad needs
    assert not sizes or max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes, reverse=True)


@pytest.mark.parametrize("count", [-1, True, 2.5, "8", None, 10**30])
def test_a_count_of_minions_that_is_no_whole_number_in_range_is_refused(count):
    with pytest.raises(wb.InvalidInput, match="count"):
        squad_sizes(count)


# ---------------------------------------------------------------- the pool and the drop list


def test_squad_of_eight_spinecleavers_has_a_pool_of_40():
    # "a goblin spinecleaver has 5 Stamina, so a squad of eight spinecleavers has a Stamina pool of 40"
    squad = spinecleavers()
    assert squad.pool == 40 and squad.alive == 8


def test_squad_from_a_minion_monster():
    # The spinecleaver is a level 1 minion brute: ⌈(10 + 30) × 0.125⌉ = 5 Stamina.
    squad = make_squad(wb.build_monster(level=1, organization="minion", role="brute"), count=4)
    assert (squad.minion_stamina, squad.pool) == (5, 20)


def test_drop_list_is_the_books():
    # "a squad of eight goblin spinecleavers loses a minion when they take a total of 5, 10, 15, 20, 25, 30,
    #  35, and 40 damage"
    assert drop_thresholds(spinecleavers()) == (5, 10, 15, 20, 25, 30, 35, 40)


def test_pool_marks_40_to_35_drops_one():
    # "If a squad of goblin spinecleavers has its Stamina pool reduced from 40 to 35, the minion who took the
    #  damage that reduced the pool dies. When the Stamina pool hits 30, 25, 20, 15, 10, 5, and finally 0,
    #  another minion in the squad dies each time."
    squad = spinecleavers()
    alive = []
    for _ in range(8):
        squad, hit = damage_single(squad, 5)
        assert hit.dropped == 1
        alive.append((squad.pool, squad.alive))
    assert alive == [(35, 7), (30, 6), (25, 5), (20, 4), (15, 3), (10, 2), (5, 1), (0, 0)]


@pytest.mark.parametrize(
    ("damage", "pool", "dropped"),
    [
        (4, 36, 0),    # short of the first mark (35): nobody drops
        (5, 35, 1),    # exactly one minion's Stamina
        (12, 28, 2),   # "a goblin spinecleaver takes 12 damage from a fury's Brutal Slam": past 35 and 30
        (15, 25, 3),   # three minions' worth from one strike
        (100, 0, 8),   # the pool never goes below 0
    ],
)
def test_single_target_damage_can_drop_several(damage, pool, dropped):
    squad, hit = damage_single(spinecleavers(), damage)
    assert (squad.pool, hit.dropped) == (pool, dropped)


def test_next_drops_after_damage():
    # 40 - 12 = 28: six alive; the next drops at 3 more (pool 25), then every 5.
    squad, _ = damage_single(spinecleavers(), 12)
    assert squad.next_drops == (3, 8, 13, 18, 23, 28)


# ---------------------------------------------------------------- area damage


def test_incinerate_on_three_spinecleavers_costs_15_not_18():
    # "a tier 3 outcome for the talent's Incinerate ability deals 6 fire damage to each target in its area.
    #  If three goblin spinecleavers with Stamina 5 are caught in the area, the minion pool loses 15 Stamina
    #  instead of 18, leaving the other minions in the squad unscathed."
    squad, hit = damage_area(spinecleavers(), 6, in_area=3)
    assert hit.lost == 15
    assert (squad.pool, squad.alive, hit.dropped) == (25, 5, 3)
    assert hit.reading and "at most its own Stamina" in hit.reading


@pytest.mark.parametrize(
    ("amount", "in_area", "lost", "dropped"),
    [
        (2, 4, 8, 1),     # 4 × 2 = 8: 40 -> 32 passes only 35
        (5, 2, 10, 2),    # exactly each one's Stamina
        (9, 8, 40, 8),    # the whole squad in the area, each capped at 5
        (0, 3, 0, 0),     # no damage, no drops
    ],
)
def test_area_damage_cases(amount, in_area, lost, dropped):
    _, hit = damage_area(spinecleavers(), amount, in_area)
    assert (hit.lost, hit.dropped) == (lost, dropped)


@pytest.mark.parametrize(
    ("kind", "amount", "in_area", "weakness", "immunity", "lost"),
    [
        # Weakness 5 once for the squad, last: 12 + 5 = 17 (not 12 + 5 per minion).
        ("single", 12, None, 5, 0, 17),
        # Immunity 5 once: 12 - 5 = 7 (saves a minion: 40 -> 33 drops one, not two).
        ("single", 12, None, 0, 5, 7),
        # Immunity larger than the damage: nothing, never negative.
        ("single", 3, None, 0, 5, 0),
        # Area: 3 × min(6, 5) = 15, then weakness 3 once = 18: the weakness "can drop (or save!) multiple
        # minions from any source of damage, including area effects" (no cap)
        ("area", 6, 3, 3, 0, 18),
        # Area: 3 × 2 = 6, weakness 3 once = 9 (not 3 × (2 + 3) = 15).
        ("area", 2, 3, 3, 0, 9),
        # Area: 3 × min(6, 5) = 15, immunity 2 once, last = 13 (not 3 × (6 - 2) capped = 12... nor 16).
        ("area", 6, 3, 0, 2, 13),
    ],
)
def test_weakness_and_immunity_once_per_squad_and_last(kind, amount, in_area, weakness, immunity, lost):
    squad = spinecleavers()
    if kind == "single":
        _, hit = damage_single(squad, amount, weakness=weakness, immunity=immunity)
    else:
        _, hit = damage_area(squad, amount, in_area, weakness=weakness, immunity=immunity)
    assert hit.lost == lost


def test_minions_cannot_regain_or_gain_temporary_stamina():
    # "minions can't be winded, can't regain Stamina, and can't gain temporary Stamina during a battle"
    squad, _ = damage_single(spinecleavers(), 10)
    for temporary in (False, True):
        with pytest.raises(wb.InvalidInput):
            regain_stamina(squad, 5, temporary=temporary)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda s: damage_area(s, 6, in_area=0), "in_area"),    # nobody in the area
        (lambda s: damage_area(s, 6, in_area=9), "in_area"),    # more than the eight alive
        (lambda s: damage_single(s, -1), "amount"),             # negative damage
        (lambda s: damage_single(s, 5, weakness=-1), "weakness"),
        (lambda s: squad_attack(s, 4, [4]), "minions_per_target"),      # at most three on one target
        (lambda s: squad_attack(s, 4, [3, 3, 3]), "minions_per_target"),  # nine attackers, eight alive
        (lambda s: free_strikes_together(s, 0), "minions"),
    ],
)
def test_bad_input_is_refused_naming_the_field(call, field):
    with pytest.raises(wb.InvalidInput) as caught:
        call(spinecleavers())
    assert caught.value.field == field


@pytest.mark.parametrize("count", [0, 9, 2.0])
def test_squad_size_is_one_to_eight(count):
    # "squads of up to eight creatures"
    with pytest.raises(wb.InvalidInput) as caught:
        spinecleavers(count=count)
    assert caught.value.field == "count"


def test_a_non_minion_is_not_a_squad_member():
    with pytest.raises(wb.InvalidInput) as caught:
        make_squad(wb.build_monster(level=1, organization="horde", role="brute"))
    assert caught.value.field == "minion"


# ---------------------------------------------------------------- squad attacks


def test_pitling_example_4_and_4_plus_2():
    # "a squad of three demon pitlings are attacking a shadow and a conduit with their Spit signature
    #  ability, with a tier 2 outcome ... One pitling targets the shadow, dealing 4 poison damage. Two pitlings
    #  target the conduit, dealing 4 poison damage plus an extra 2 poison damage for the additional pitling."
    pitlings = make_squad(name="Demon pitlings", stamina=3, free_strike=2, count=3)
    attack = squad_attack(pitlings, damage=4, minions_per_target=[1, 2])
    assert attack.per_target == (4, 6)
    assert attack.workings[1] == "4 + 1 × 2 free strike = 6"


def test_three_on_one_target_adds_two_free_strikes():
    # "each additional minion causes the signature ability to deal extra damage ... equal to the minion's
    #  free strike value": 5 + 2 + 2 = 9.
    assert squad_attack(spinecleavers(), 5, [3]).per_target == (9,)


def test_critical_hit_gives_the_participants_another_main_action():
    # "If a minion squad scores a critical hit ... all the minions who participated ... can take another
    #  main action."
    attack = squad_attack(spinecleavers(), 5, [1, 2, 1], critical=True)
    assert (attack.participants, attack.extra_main_actions) == (4, 4)
    assert squad_attack(spinecleavers(), 5, [1, 2, 1]).extra_main_actions == 0


def test_free_strikes_together_add_up():
    # "the damage from each minion's free strike is added together and treated as one strike": 3 × 2 = 6.
    assert free_strikes_together(spinecleavers(), 3) == 6


# ---------------------------------------------------------------- captains


@pytest.mark.parametrize(
    ("text", "damage", "stamina"),
    [
        ("+1 damage bonus to strikes", 1, 0),   # Goblin Spinecleaver
        ("+2 bonus to Stamina", 0, 2),          # a published Stamina benefit
        ("+3 bonus to speed", 0, 0),            # kept as text only
        ("Gain an edge on strikes", 0, 0),
    ],
)
def test_with_captain_text_is_read(text, damage, stamina):
    bonus = with_captain_from_text(text)
    assert (bonus.damage, bonus.stamina, bonus.text) == (damage, stamina, text)


def test_captain_damage_bonus_applies_to_squad_strikes():
    # "While a minion squad has a captain, each minion in the squad gains the benefits noted at the 'With
    #  Captain' entry": +1 to the signature strike (once per target), and once to free strikes together.
    squad = spinecleavers(with_captain="+1 damage bonus to strikes", captain=named(1, "leader"))
    assert squad_attack(squad, 4, [1, 2]).per_target == (5, 7)   # 4 + 1; 4 + 1 + 2
    assert free_strikes_together(squad, 3) == 7                   # 3 × 2 + 1
    assert squad_attack(captain_falls(squad), 4, [1]).per_target == (4,)


def test_captain_stamina_bonus_raises_each_minion_and_goes_when_the_captain_falls():
    squad = spinecleavers(with_captain=WithCaptain(stamina=2), captain=named(1, "leader"))
    assert (squad.stamina_each, squad.pool) == (7, 56)            # 8 × (5 + 2)
    squad, hit = damage_single(squad, 10)                         # 46: past 49 only
    assert (hit.dropped, squad.alive) == (1, 7)
    squad = captain_falls(squad)
    assert (squad.stamina_each, squad.pool, squad.alive) == (5, 35, 7)   # capped at 7 × 5


def test_captain_must_be_a_non_minion_non_mount():
    # "Any non-mount, non-minion creature ... can be attached to that squad as a captain."
    with pytest.raises(wb.InvalidInput):
        attach_captain(spinecleavers(), named(1, "minion", "brute"))
    with pytest.raises(wb.InvalidInput):
        attach_captain(spinecleavers(), named(1, "platoon", "mount"))
    attach_captain(spinecleavers(), named(1, "platoon", "brute"))   # a platoon brute is fine


def test_one_captain_per_squad_and_one_squad_per_captain():
    # "A squad of minions can have only one captain, and a creature can't be captain to more than one squad"
    boss = named(1, "leader")
    first = attach_captain(spinecleavers(), boss)
    with pytest.raises(wb.InvalidInput):
        attach_captain(first, named(1, "elite", "brute", name="Bugbear"))
    with pytest.raises(wb.InvalidInput):
        attach_captain(spinecleavers(), boss, others=[first])


def test_new_captain_only_from_the_start_of_the_next_round():
    # "If a squad of minions loses their captain, a new allied creature can become that squad's captain at
    #  the start of the next round"
    squad = captain_falls(attach_captain(spinecleavers(), named(1, "leader")))
    with pytest.raises(wb.InvalidInput):
        attach_captain(squad, named(1, "elite", "brute", name="Bugbear"))
    squad = attach_captain(start_round(squad), named(1, "elite", "brute", name="Bugbear"))
    assert squad.captain == "Bugbear"


# ---------------------------------------------------------------- last stand


def test_last_stand_pool_equals_the_minions_and_enemies_drop_to_1():
    # "each enemy's Stamina drops to 1, and each minion squad's Stamina pool is now equal to the number of
    #  minions in the squad"
    squad, _ = damage_single(spinecleavers(), 12)   # 6 left
    squad = last_stand(squad)
    assert (squad.pool, squad.alive) == (6, 6)
    squad, hit = damage_single(squad, 2)            # now every point is a minion
    assert (hit.dropped, squad.alive) == (2, 4)
    assert last_stand_stamina({"Underboss": 40, "Worg": 1, "Fallen": 0}) == {"Underboss": 1, "Worg": 1, "Fallen": 0}


# ---------------------------------------------------------------- the tracker and properties


def test_tracker_undo_and_log():
    t = SquadTracker(spinecleavers())
    hit = t.damage(6, in_area=3)
    assert hit.dropped == 3 and t.squad.alive == 5
    t.damage(12)
    assert t.squad.pool == 13
    t.undo()
    assert t.squad.pool == 25 and t.last_hit == hit
    t.undo()
    assert t.squad == spinecleavers()
    with pytest.raises(wb.InvalidInput):
        t.undo()


EVENTS = st.lists(
    st.one_of(
        st.tuples(st.just("single"), st.integers(0, 30), st.integers(0, 5), st.integers(0, 5)),
        st.tuples(st.just("area"), st.integers(0, 12), st.integers(1, 8), st.integers(0, 5), st.integers(0, 5)),
        st.just(("round",)),
        st.just(("captain",)),
        st.just(("falls",)),
        st.just(("last",)),
    ),
    max_size=25,
)


def perform(t, event, boss):
    if event[0] == "single":
        return t.damage(event[1], weakness=event[2], immunity=event[3])
    if event[0] == "area":
        return t.damage(event[1], in_area=event[2], weakness=event[3], immunity=event[4])
    if event[0] == "round":
        return t.start_round()
    if event[0] == "captain":
        return t.attach_captain(boss)
    if event[0] == "falls":
        return t.captain_falls()
    return t.last_stand()


@given(
    stamina=st.integers(1, 12),
    count=st.integers(1, 8),
    bonus=st.integers(0, 4),
    events=EVENTS,
)
def test_pool_never_negative_alive_never_rises_area_bounded_and_undo_exact(stamina, count, bonus, events):
    boss = named(1, "leader")
    t = SquadTracker(make_squad(stamina=stamina, free_strike=1, count=count, with_captain=WithCaptain(stamina=bonus)))
    for event in events:
        before = t.squad
        try:
            result = perform(t, event, boss)
        except wb.InvalidInput:
            assert t.squad == before                            # a refusal changes nothing
            continue
        after = t.squad
        if event[0] == "area":                                  # the area drops only its minions; a
            # weakness, applied last to the pool, at most ⌈weakness ÷ Stamina each⌉ more
            assert result.dropped <= event[2] + -(-event[3] // before.stamina_each)
        assert after.pool >= 0
        assert 0 <= after.alive <= before.alive                 # minions alive never rise
        assert after.alive <= after.size
        t.undo()
        assert t.squad == before                                # undo restores the exact prior state
        perform(t, event, boss)
        assert t.squad == after                                 # and doing it again gives the same state


@given(stamina=st.integers(1, 12), count=st.integers(1, 8), a=st.integers(0, 120), b=st.integers(0, 120))
def test_more_damage_never_drops_fewer_minions(stamina, count, a, b):
    squad = make_squad(stamina=stamina, free_strike=1, count=count)
    low, high = sorted((a, b))
    assert damage_single(squad, low)[0].dropped <= damage_single(squad, high)[0].dropped
    in_area = count
    assert damage_area(squad, low, in_area)[0].dropped <= damage_area(squad, high, in_area)[0].dropped


@pytest.mark.parametrize(
    ("amount", "working"),
    [
        # 100 damage on a pool of 40: the working must not claim 40 − 100 = 0 without saying why.
        (100, "single target: pool 40 − 100 = 0 (the pool stops at 0)"),
        # Exactly the pool: a true subtraction, no note.
        (40, "single target: pool 40 − 40 = 0"),
    ],
)
def test_working_says_when_the_pool_stops_at_zero(amount, working):
    _, hit = damage_single(spinecleavers(), amount)
    assert hit.working == working


def test_area_damage_on_a_squad_with_nobody_standing_is_refused_plainly():
    squad, _ = damage_single(spinecleavers(), 40)
    with pytest.raises(wb.InvalidInput) as caught:
        damage_area(squad, 5, in_area=1)
    assert caught.value.field == "in_area" and "every minion has dropped" in str(caught.value)


def test_a_weakness_drops_minions_beyond_the_area():
    # "These effects are the last things applied when calculating damage and can drop (or save!) multiple
    # minions from any source of damage, including area effects." Incinerate's 6 fire to three spinecleavers
    # (Stamina 5) takes 15; a fire weakness 5 applied last makes it 20: a fourth minion drops.
    squad, hit = damage_area(spinecleavers(), 6, in_area=3, weakness=5)
    assert (hit.lost, hit.dropped, squad.alive) == (20, 4, 4)
    assert "beyond those in the area" in (hit.reading or "")
    # and an immunity saves one: 15 - 5 = 10, two drop
    _, saved = damage_area(spinecleavers(), 6, in_area=3, immunity=5)
    assert (saved.lost, saved.dropped) == (10, 2)


def test_a_with_captain_bonus_of_5000_digits_is_kept_as_words_not_raised_on():
    # past 4,300 digits int() raises its own ValueError; no bonus of the rules is that long, so none is read
    text = "+" + "9" * 5000 + " damage bonus to strikes"
    bonus = with_captain_from_text(text)
    assert (bonus.damage, bonus.stamina, bonus.text) == (0, 0, text)
