"""The fight at the table (`wb.Fight`): its setup checked by name, every change an event that undoes, saves
and replays, and any run of events keeping the fight's invariants."""

from __future__ import annotations

import json

import pytest
from fight_setups import BRUTE, boss_fight, encounter, platoon, refusal, rout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.errors import InvalidInput
from workbench.fight.fight import Fight, load_fight


def test_public_name():
    assert wb.Fight is Fight


def test_bad_setup_is_refused_by_name():
    enc = encounter((BRUTE, 1))
    assert refusal(lambda: Fight("not an encounter")).field == "encounter"
    assert refusal(lambda: Fight(enc, [BRUTE, BRUTE])).field == "monsters"
    assert refusal(lambda: Fight(enc, victories=-1)).field == "victories"
    assert refusal(lambda: Fight(enc, hero_names=["Ash", "Ash"])).field == "hero_names"


def test_an_ended_fight_refuses_actions_until_undone():
    fight = Fight(platoon(3))
    rout(fight)
    assert "the fight is over" in refusal(fight.start_round).reason
    fight.undo()
    assert not fight.ended


def test_damage_by_round_tallies_what_heroes_took_and_foes_lost():
    fight = boss_fight()
    fight.start_round()
    fight.damage("Hero 1", 7)
    fight.damage("Orc 1", 50)  # 40 Stamina: the foes lose 40, not 50
    fight.damage("Goblin spinecleaver", 6, in_area=3)  # 3 × 5 = 15
    fight.start_round()
    fight.start_round()
    fight.damage("Hero 2", 4)
    assert fight.damage_by_round() == ((1, 7, 55), (2, 0, 0), (3, 4, 0))
    fight.undo()
    assert fight.damage_by_round()[-1] == (3, 0, 0)


# ---------------------------------------------------------------- the log: undo, save, resume


def test_undo_takes_back_one_event_and_nothing_is_left_to_undo_at_the_start():
    fight = boss_fight()
    first = fight.state
    fight.start_round()
    fight.damage("Orc 1", 5)
    fight.undo()
    fight.undo()
    assert fight.state == first and not fight.can_undo
    assert refusal(fight.undo).field == "undo"


def test_a_refusal_changes_nothing():
    fight = boss_fight()
    fight.start_round()
    before, events = fight.state, fight.events
    refusal(lambda: fight.damage("Nobody", 5))
    refusal(lambda: fight.damage("Orc 1", -5))
    assert fight.state == before and fight.events == events


def test_saving_and_reopening_resumes_the_fight(tmp_path):
    fight = boss_fight(heroes=5, victories=3)
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    fight.start_turn("Hero 1")
    fight.damage("Goblin spinecleaver", 6, in_area=3)
    fight.add_condition("Orc 1", "dazed", "save ends")
    fight.end_turn()
    fight.villain_action("Goblin boss", 1)
    path = fight.save(tmp_path / "fight.json")
    again = load_fight(path)
    assert again.state == fight.state and again.events == fight.events
    again.start_turn("Hero 2")  # and it goes on
    assert json.loads(path.read_text())["format"] == "drawsteel-workbench/fight"


def test_a_file_that_is_not_a_fight_or_does_not_replay_is_refused(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "something else"}')
    assert refusal(lambda: load_fight(bad)).field == "fight"
    fight = boss_fight()
    fight.start_round()
    data = fight.to_data()
    data["events"].append({"kind": "damage", "unit": "Nobody", "amount": 3})
    assert "event 2" in refusal(lambda: Fight.from_data(data)).reason
    data["events"][-1] = {"kind": "explode"}
    assert refusal(lambda: Fight.from_data(data)).field == "fight"


def test_a_fight_with_reinforcements_saves_and_replays(tmp_path):
    fight = boss_fight()
    fight.start_round()
    fight.reinforce("Orc", 1)
    fight.damage("Orc 3", 5)
    again = load_fight(fight.save(tmp_path / "f.json"))
    assert again.state == fight.state and again.actors == fight.actors


# ---------------------------------------------------------------- properties


ACTIONS = st.lists(st.tuples(
    st.sampled_from(["round", "turn", "end_turn", "damage", "area", "heal", "villain", "dies", "reinforce",
                     "undo"]),
    st.integers(0, 12), st.integers(0, 30),
), max_size=40)


def _try(fight, kind, a, b):
    units = [u.name for u in fight.units]
    actors = [x.label for x in fight.actors]
    try:
        if kind == "round":
            fight.start_round()
        elif kind == "turn":
            fight.start_turn(actors[a % len(actors)])
        elif kind == "end_turn":
            fight.end_turn()
        elif kind == "damage":
            fight.damage(units[a % len(units)], b)
        elif kind == "area":
            fight.damage("Goblin spinecleaver", b, in_area=1 + a % 3)
        elif kind == "heal":
            fight.heal(units[a % len(units)], b)
        elif kind == "villain":
            fight.villain_action("Goblin boss", 1 + a % 3)
        elif kind == "dies":
            fight.dies(units[a % len(units)])
        elif kind == "reinforce":
            fight.reinforce(("Orc", "Goblin spinecleaver")[a % 2], 1 + b % 3)
        else:
            fight.undo()
    except InvalidInput:
        pass


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_any_run_keeps_the_invariants_replays_and_undoes_to_the_start(actions):
    fight = boss_fight(heroes=5, victories=3)
    first = fight.state
    for kind, a, b in actions:
        _try(fight, kind, a, b)
        for u in fight.units:
            assert 0 <= u.current <= u.maximum or u.kind == "hero"
            if u.squad is not None:
                assert u.squad.alive == -(-u.squad.pool // u.squad.stamina_each)
                assert (u.squad.alive == 0) <= (u.status != "active")
        assert fight.malice >= 0
        rounds = [r for _, _, r in fight.villain_actions_used()]
        assert len(rounds) == len(set(rounds))  # one a round
    assert Fight.from_data(json.loads(json.dumps(fight.to_data()))).state == fight.state
    while fight.can_undo:
        fight.undo()
    assert fight.state == first


# ---------------------------------------------------------------- the log kept once; damaged files refused


def test_undo_past_the_kept_states_gives_the_state_a_replay_gives():
    fight = Fight(platoon(3))
    fight.start_round()
    unit = next(u.name for u in fight.units if u.kind != "hero")
    for n in range(150):
        fight.damage(unit, 1) if n % 2 == 0 else fight.heal(unit, 1)
    for left in (150, 130, 129, 128, 65, 64, 63, 1):
        while len(fight.events) > left:
            fight.undo()
        replayed = Fight.from_data(fight.to_data())
        assert fight.state == replayed.state
    fight.damage(unit, 2)
    assert fight.state == Fight.from_data(fight.to_data()).state


@pytest.mark.parametrize("change", [
    {"victories": "1/0"},
    {"victories": None},
    {"monsters": None},
    {"monsters": [None]},
    {"encounter": "no"},
    {"events": [{"kind": None}]},
    {"events": [{"kind": "damage", "unit": [], "amount": "x"}]},
    {"events": "not a list"},
    {"hero_names": 7},
    {"durations": ["x"]},
])
def test_a_damaged_fight_file_is_refused_in_one_line(tmp_path, change):
    fight = boss_fight()
    fight.start_round()
    data = {**fight.to_data(), **change}
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        load_fight(path)
    assert len(str(caught.value).splitlines()) == 1


@pytest.mark.parametrize("path", [None, 7, ["a"], "", "a\0b", "x" * 1_000_000])
def test_a_fight_path_that_is_none_is_refused_by_name(tmp_path, path):
    for action in (lambda: load_fight(path), lambda: boss_fight().save(path)):
        with pytest.raises(InvalidInput) as caught:
            action()
        assert caught.value.field in ("path", "fight")


def test_a_fight_too_large_to_reopen_is_never_written(tmp_path, monkeypatch):
    from workbench.fight import fight as fight_module

    fight = boss_fight()
    path = tmp_path / "fight.json"
    fight.save(path)
    monkeypatch.setattr(fight_module, "MAX_FILE_BYTES", path.stat().st_size + 10)
    fight.start_round()
    fight.end_round()
    with pytest.raises(InvalidInput) as caught:
        fight.save(path)
    assert "nothing was written" in str(caught.value)
    assert len(load_fight(path).events) == 0


def test_a_fight_of_a_hundred_heroes_and_a_hundred_creatures_runs_a_round_within_two_seconds():
    import time

    started = time.perf_counter()
    enc = wb.Encounter(party=wb.make_party(heroes=100, level=5))
    enc = enc.adding(*[f"level {1 + i % 10} {('platoon', 'elite', 'minion', 'horde')[i % 4]} brute" for i in range(100)])
    fight = Fight(enc)
    fight.start_round()
    for actor in fight.actors[:20]:
        fight.start_turn(actor.key)
        fight.end_turn()
    assert time.perf_counter() - started < 2
    assert len([u for u in fight.units if u.kind == "hero"]) == 100


def test_a_duration_set_later_plays_the_fight_again_with_its_difficulty_and_victories(tmp_path):
    # Hold Them Off: "one category harder if the encounter duration is 5 rounds or greater"
    fight = Fight(platoon(4, "hold_them_off"))
    fight.start_round()
    fight.dies("Orc 1")
    six = fight.with_durations({"hold_them_off": 6})
    direct = Fight(platoon(4, "hold_them_off"), durations={"hold_them_off": 6})
    assert (six.outcome.difficulty, six.victories_for_success) == (direct.outcome.difficulty,
                                                                    direct.victories_for_success)
    assert six.outcome.difficulty != fight.outcome.difficulty
    assert six.events == fight.events and six.state.objectives[0].duration == 6
    assert six.durations == {"hold_them_off": 6} and fight.durations == {}  # the old one is unchanged
    four = six.with_durations({"hold_them_off": 4})  # back under 5: the condition is cleared again
    assert four.outcome.difficulty == fight.outcome.difficulty and four.given_encounter == fight.given_encounter
    path = six.save(tmp_path / "fight.json")
    again = load_fight(path)
    assert again.durations == {"hold_them_off": 6} and again.given_encounter == fight.given_encounter
    assert again.outcome.difficulty == six.outcome.difficulty


def test_a_duration_is_refused_for_an_objective_without_one_or_one_the_fight_cannot_keep():
    fight = Fight(platoon(4, "hold_them_off"))
    assert refusal(lambda: fight.with_durations({"escort": 4})).field == "durations"
    for _ in range(3):
        fight.start_round()
    fight.end_round()  # held 3 rounds: over
    assert fight.ended
    assert "event 4 (end_round)" in refusal(lambda: fight.with_durations({"hold_them_off": 2})).reason


def test_the_things_stamina_is_divided_between_the_things_the_director_sets():
    # "Divide the thing's Stamina between all the individual things"; sturdy: "Stamina 50 × the heroes' level"
    fight = Fight(platoon(4, "destroy_the_thing", multiple=True, sturdy=True))
    fight.set_things("destroy_the_thing", 3)
    assert sum(fight.thing_staminas()) == 50 and len(fight.thing_staminas()) == 3
    assert Fight(platoon(4)).thing_staminas() == ()
