"""The fight runner, driven without a browser: turns from the strip, damage typed per creature, area damage on
a squad, Malice spent, villain actions offered and refused with the rule's words, undo, the end's Victories,
and the page resuming the saved fight when it is built again."""

from __future__ import annotations

import os

import pytest
from widget_tree import inner

from workbench.apps import pages
from workbench.apps.fight import fight_file, open_fight
from workbench.apps.fight_runner import fight_runner
from workbench.encounter.encounter import Encounter, InitiativeGroup, creature_from_monster
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.fight.fight import Fight, load_fight
from workbench.monster.formulas import build_monster
from workbench.workspace.state import Workspace, remember_encounter, save_workspace


def named(level, organization, role, name):
    return build_monster(level, organization, role).model_copy(update={"name": name})


BOSS = named(3, "leader", None, "Goblin boss")
MINION = named(3, "minion", "brute", "Goblin spinecleaver")
ORC = named(3, "platoon", "brute", "Orc <raider>")  # a name that must be escaped


def encounter():
    enc = Encounter(party=make_party(heroes=4, level=3, victories=2))
    for monster, count in ((BOSS, 1), (MINION, 8), (ORC, 2)):
        enc = enc.adding(creature_from_monster(monster, count))
    groups = (InitiativeGroup(members=((0, 1),)), InitiativeGroup(members=((1, 8),)),
              InitiativeGroup(members=((2, 2),)))
    return enc.model_copy(update={"groups": groups, "objectives": (choose_objective("hold_them_off"),)})


@pytest.fixture
def app(tmp_path):
    return fight_runner(Fight(encounter(), [BOSS, MINION, ORC]), tmp_path / "fight.json")


def click(app, name):
    app.controls["buttons"][name].click()


def test_a_round_from_the_strip_with_damage_and_undo(app, tmp_path):
    c = app.controls
    click(app, "round")
    assert "Round 1" in c["strip"].value
    assert app.fight.malice == 2 + 4 + 1  # "the average number of Victories per hero" + heroes + round
    c["actor"].value = "group:2"
    click(app, "turn")
    assert 'class="wb-monster wb-acting">Group 2' in c["strip"].value
    assert "wb-stat-block" in c["acting"].value and "Goblin spinecleaver" in c["acting"].value
    click(app, "end_turn")
    c["target"].value = "Goblin spinecleaver"
    squad = app.fight.unit("Goblin spinecleaver").squad
    c["amount"].value = squad.minion_stamina * 2
    click(app, "damage")
    assert app.fight.unit("Goblin spinecleaver").squad.alive == 6
    c["amount"].value = squad.minion_stamina + 3
    c["in_area"].value = 2
    click(app, "area")  # each minion in the area loses at most its own Stamina
    assert app.fight.unit("Goblin spinecleaver").squad.alive == 4
    assert c["in_area"].max == 4
    click(app, "undo")
    assert app.fight.unit("Goblin spinecleaver").squad.alive == 6
    assert load_fight(tmp_path / "fight.json").state == app.fight.state  # saved after every click


def test_damage_and_healing_typed_per_creature_with_the_stamina_bar(app):
    c = app.controls
    click(app, "round")
    c["target"].value = "Orc <raider> 1"
    full = app.fight.unit("Orc <raider> 1").maximum
    c["amount"].value = full // 2
    click(app, "damage")
    assert app.fight.unit("Orc <raider> 1").winded
    assert "Orc &lt;raider&gt; 1" in c["roster"].value and "<raider>" not in c["roster"].value
    assert "wb-bar wb-winded" in c["roster"].value
    c["amount"].value = 3
    click(app, "heal")
    assert app.fight.unit("Orc <raider> 1").current == full - full // 2 + 3
    c["target"].value = "Goblin spinecleaver"
    click(app, "heal")
    assert "Minions can&#39;t gain Stamina during a battle." in c["refusal"].value


def test_villain_actions_offered_when_allowed_and_refused_with_the_rules_words(app):
    c = app.controls
    click(app, "round")
    assert "allowed now" not in c["villain_note"].value
    c["actor"].value = "hero:Hero 1"
    click(app, "turn")
    click(app, "end_turn")
    assert "Goblin boss: villain action 1" in c["villain_note"].value
    c["villain"].value = ("Goblin boss", 1)
    click(app, "villain")
    assert c["refusal"].value == ""
    c["villain"].value = ("Goblin boss", 2)
    click(app, "villain")
    assert "no more than one villain action can be used per round" in c["refusal"].value
    assert "no more than one villain action can be used per round" in c["villain_note"].value


def test_malice_spent_from_the_features_on_a_monsters_turn(app):
    c = app.controls
    click(app, "round")
    c["actor"].value = "group:1"
    click(app, "turn")
    c["feature"].value = "Brutal Effectiveness"
    assert c["malice"].value == 3
    c["spender"].value = "Goblin boss"
    click(app, "spend")
    assert app.fight.malice == 7 - 3
    assert "Malice: 4" in c["malice_line"].value and "Malice: 4" in c["players"].value
    c["shown"].value = False
    assert "Malice" not in c["players"].value


def test_the_player_view_shows_winded_without_numbers(app):
    c = app.controls
    click(app, "round")
    c["target"].value = "Goblin boss"
    c["amount"].value = app.fight.unit("Goblin boss").maximum // 2 + 3
    click(app, "damage")
    assert "Goblin boss: winded" in c["players"].value
    left = app.fight.unit("Goblin boss").current
    assert left > 9 and str(left) not in c["players"].value and str(left) in c["roster"].value


def test_conditions_and_a_captain(app):
    c = app.controls
    click(app, "round")
    c["target"].value = "Orc <raider> 2"
    c["condition"].value = "dazed"
    c["ends"].value = "save ends"
    click(app, "condition")
    assert "dazed (save ends)" in c["roster"].value
    click(app, "end_condition")
    assert "dazed" not in c["roster"].value
    c["squad"].value, c["captain"].value = "Goblin spinecleaver", "Goblin boss"
    click(app, "captain")
    assert app.fight.unit("Goblin spinecleaver").squad.captain == "Goblin boss"


def test_hold_them_off_counter_and_the_end_with_its_victories(app):
    c = app.controls
    click(app, "round")
    c["counter"].value = ("hold_them_off", "through")
    click(app, "plus")
    assert "creatures through: 1" in c["objectives"].value
    for _ in range(2):
        click(app, "round")
    click(app, "end_round")
    assert app.fight.ended
    expected = app.fight.result().victories
    assert expected >= 1
    assert f"Each hero earns <b>{expected}</b>" in c["result"].value
    click(app, "round")
    assert "the fight is over" in c["refusal"].value.lower()


def test_a_refusal_names_the_rule_and_changes_nothing(app):
    click(app, "turn")  # before the first round
    assert "No round has started yet: start the first round. Allowed: a round that has started." in (
        app.controls["refusal"].value)
    assert not app.fight.can_undo


# ---------------------------------------------------------------- the page


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    workspace = remember_encounter(Workspace(encounter=encounter()), encounter(), [BOSS, MINION, ORC])
    save_workspace(workspace)
    return workspace


def _runner(page):
    return inner(page, "wb-fight-runner")


def test_the_page_resumes_the_fight_after_reopening(desk):
    runner = _runner(pages.fight_page())
    runner.controls["buttons"]["round"].click()
    runner.controls["target"].value = "Orc <raider> 1"
    runner.controls["amount"].value = 7
    runner.controls["buttons"]["damage"].click()
    again = _runner(pages.fight_page())  # the page opened again: a new kernel reads the file
    assert again.fight.state == runner.fight.state
    assert again.fight.round == 1 and again.fight.unit("Orc <raider> 1").current == runner.fight.unit(
        "Orc <raider> 1").current
    assert again.controls["buttons"]["undo"].disabled is False


def test_the_page_resumes_a_fight_whose_duration_moved_its_difficulty(desk):
    # Hold Them Off for 6 rounds: "one category harder if the encounter duration is 5 rounds or greater"
    runner = _runner(pages.fight_page())
    runner.controls["buttons"]["round"].click()
    runner.controls["durations"]["hold_them_off"].value = 6
    assert runner.fight.outcome.difficulty != Fight(encounter(), [BOSS, MINION, ORC]).outcome.difficulty
    again = _runner(pages.fight_page())
    assert again.fight.durations == {"hold_them_off": 6} and again.fight.round == 1
    assert again.controls["durations"]["hold_them_off"].value == 6
    assert again.fight.outcome == runner.fight.outcome


def test_an_unreadable_fight_file_is_kept_aside_and_a_new_fight_starts(desk):
    path = fight_file(desk)
    path.parent.mkdir(parents=True)
    path.write_text('{"format": "drawsteel-workbench/fight", "version": 1}')
    page = pages.fight_page()
    runner = _runner(page)
    assert runner.fight.round == 0
    assert path.with_name(path.stem + ".unreadable.json").exists()


def test_an_unreadable_fight_file_never_replaces_a_name_taken_even_by_a_dangling_link(desk, tmp_path):
    path = fight_file(desk)
    path.parent.mkdir(parents=True)
    path.write_text("{}")
    taken = path.with_name(path.stem + ".unreadable.json")
    os.symlink(tmp_path / "nowhere", taken)
    fight, note = open_fight(desk, path)
    assert fight is not None and fight.round == 0
    assert taken.is_symlink() and not (tmp_path / "nowhere").exists()  # the link is kept, nothing made through it
    assert path.with_name(path.stem + ".unreadable-2.json").read_text() == "{}"
    assert "unreadable-2.json" in note


def test_a_fight_file_that_is_a_link_is_left_as_it_is_and_said(desk, tmp_path):
    path = fight_file(desk)
    path.parent.mkdir(parents=True)
    outside = tmp_path / "outside.json"
    outside.write_text("not a fight")
    os.symlink(outside, path)
    fight, note = open_fight(desk, path)
    assert fight is None and "symbolic link" in note and "Traceback" not in note
    assert path.is_symlink() and outside.read_text() == "not a fight"
    assert not list(path.parent.glob("*.unreadable*"))


def test_the_forecast_beside_the_real_fight(app):
    from workbench.fight.pace import fight_pace

    c = app.controls
    assert "Give each hero's Stamina" in c["pace"].value
    c["hero_stamina"].value = 30
    c["party_damage"].value = 40
    click(app, "round")
    c["target"].value = "Orc <raider> 1"
    c["amount"].value = 9
    click(app, "damage")
    pace = fight_pace(app.fight.stat_blocks, [30] * 4, 40, victories=2)
    expected = pace.rounds[0].foe_damage + pace.rounds[0].malice_damage
    assert expected > 0
    assert "<td>1</td>" in c["pace"].value and "<td>9</td>" in c["pace"].value
    assert "The foes hit colder than forecast (0 against" in c["pace"].value  # no hero took damage yet
    assert "The heroes are behind the forecast (9 against 40)" in c["pace"].value


def test_reinforcements_by_mouse_join_the_pickers_and_the_strip(app):
    c = app.controls
    click(app, "round")
    c["stat_block"].value = "Orc <raider>"
    c["count"].value = 2
    click(app, "reinforce")
    assert ("Group 4", "group:4") in c["actor"].options
    assert "Orc <raider> 3" in c["target"].options and "Orc <raider> 4" in c["spender"].options
    assert "Group 4" in c["strip"].value
    click(app, "undo")
    assert ("Group 4", "group:4") not in c["actor"].options and "Orc <raider> 3" not in c["target"].options


def test_every_name_typed_by_a_director_is_escaped(tmp_path):
    fight = Fight(encounter(), [BOSS, MINION, ORC], hero_names=["<b>Ash</b>"])
    app = fight_runner(fight, tmp_path / "f.json")
    c = app.controls
    click(app, "round")
    c["target"].value = "Orc <raider> 1"
    c["condition"].value = "<i>cursed</i>"
    click(app, "condition")
    shown = c["strip"].value + c["roster"].value + c["players"].value + c["log"].value
    assert "&lt;b&gt;Ash&lt;/b&gt;" in c["strip"].value and "<b>Ash" not in shown
    assert "&lt;i&gt;cursed&lt;/i&gt;" in c["roster"].value and "<i>cursed" not in shown
    assert "Orc &lt;raider&gt; 1" in c["players"].value and "<raider>" not in shown
