"""The fight page as one board, driven without a browser: one Malice, one set of squads, one undo and one
"next round"; damage with its type; the Director's controls (temporary Stamina, held-back groups, the turn
order, a minion dying, the end by surrender); the player view on its own page; and the Victories travelling to
the workspace's party and the adventure the encounter was opened from."""

from __future__ import annotations

import pytest
from widget_tree import inner

from workbench.apps import pages
from workbench.encounter.adventure import Adventure, load_adventure, save_adventure
from workbench.encounter.encounter import Encounter, InitiativeGroup, creature_from_monster
from workbench.encounter.party import make_party
from workbench.model import Ability, DamageModifier
from workbench.monster.formulas import build_monster
from workbench.workspace.fight_victories import open_from_adventure
from workbench.workspace.state import Workspace, load_workspace, remember_encounter, save_workspace


def named(level, organization, role, name, **changes):
    return build_monster(level, organization, role).model_copy(update={"name": name, **changes})


BOSS = named(3, "leader", None, "Goblin boss", abilities=(Ability(name="Trample", cost=3, action="main action"),))
MINION = named(3, "minion", "brute", "Goblin spinecleaver", weaknesses=(DamageModifier(type="fire", value=5),))


def encounter(name="Goblin ambush"):
    enc = Encounter(name=name, party=make_party(heroes=4, level=3))
    for monster, count in ((BOSS, 1), (MINION, 8)):
        enc = enc.adding(creature_from_monster(monster, count))
    groups = (InitiativeGroup(members=((0, 1),)), InitiativeGroup(members=((1, 8),)))
    return enc.model_copy(update={"groups": groups})


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    workspace = remember_encounter(Workspace(encounter=encounter()), encounter(), [BOSS, MINION])
    save_workspace(workspace)
    return workspace


def board():
    return inner(pages.fight_page(), "wb-fight-runner")


def click(runner, name):
    runner.controls["buttons"][name].click()
    assert runner.controls["refusal"].value == "", runner.controls["refusal"].value


def buttons(page, text):
    found, stack = [], [page]
    while stack:
        w = stack.pop()
        if getattr(w, "description", None) == text and type(w).__name__ == "Button":
            found.append(w)
        stack.extend(getattr(w, "children", ()))
    return found


def test_one_board_one_undo_one_next_round_and_the_squads_read_from_the_fight(desk):
    page = pages.fight_page()
    assert len(buttons(page, "Undo")) == 1 and len(buttons(page, "Next round")) == 1
    assert not buttons(page, "Start next round") and not buttons(page, "Apply damage")
    runner = inner(page, "wb-fight-runner")
    click(runner, "round")
    runner.controls["target"].value = "Goblin spinecleaver"
    runner.controls["amount"].value = 6
    runner.controls["in_area"].value = 3
    runner.controls["damage_type"].value = "fire"
    click(runner, "area")
    squad = runner.fight.unit("Goblin spinecleaver").squad
    each = MINION.stamina
    assert squad.pool == 8 * each - (3 * min(6, each) + 5)  # the fire weakness, once, on the squad
    assert f"Pool {squad.pool} of {8 * each}" in runner.controls["squads"].value
    assert f"Malice: {runner.fight.malice}" in runner.controls["malice_line"].value
    gain = 4 + 2  # round 2: the living heroes + the round number
    assert f"round 2: +{gain}" in runner.controls["forecast"].value


def test_a_villain_action_used_leaves_no_red_refusal(desk):
    runner = board()
    click(runner, "round")
    runner.controls["actor"].value = "hero:Hero 1"
    click(runner, "turn")
    click(runner, "end_turn")
    runner.controls["villain"].value = ("Goblin boss", 1)
    click(runner, "villain")
    assert "wb-refusal" not in runner.controls["villain_note"].value


def test_the_directors_controls_by_mouse(desk):
    runner = board()
    c = runner.controls
    c["target"].value = "Goblin spinecleaver"
    click(runner, "hold_back")
    assert "Group 2 (held back)" in c["strip"].value
    click(runner, "round")
    c["target"].value = "Goblin boss"
    c["amount"].value = 7
    click(runner, "temporary")
    assert "+7 temporary" in c["roster"].value
    c["actor"].value = "group:1"
    c["place"].value = 1
    click(runner, "move")
    assert runner.fight.actors[0].label == "Group 1"
    click(runner, "round")
    c["target"].value = "Goblin spinecleaver"
    click(runner, "bring_in")
    assert runner.fight.unit("Goblin spinecleaver").joined == 2
    click(runner, "minion_dies")
    assert runner.fight.unit("Goblin spinecleaver").squad.alive == 7
    c["target"].value = "Hero 2"
    c["amount"].value = 30
    click(runner, "set_stamina")
    assert runner.fight.unit("Hero 2").current == 30


def test_the_board_offers_and_pays_the_stat_blocks_own_malice_ability(desk):
    runner = board()
    c = runner.controls
    offered = dict((name, label) for label, name in c["feature"].options)
    assert "Trample" in offered and "(3)" in offered["Trample"]
    click(runner, "round")
    click(runner, "round")  # Malice enough for Trample
    c["actor"].value = "group:1"
    click(runner, "turn")
    c["feature"].value = "Trample"
    assert c["spender"].value == "Goblin boss"  # the creature acting whose stat block has it
    before = runner.fight.malice
    click(runner, "spend")
    assert runner.fight.malice == before - 3 and "Trample: spend 3" in c["log"].value


def test_the_players_see_turns_and_winded_but_no_monster_stamina(desk):
    runner = board()
    click(runner, "round")
    boss = runner.fight.unit("Goblin boss")
    runner.controls["target"].value = "Goblin boss"
    runner.controls["amount"].value = boss.maximum // 2 + 1
    click(runner, "damage")
    players = inner(pages.players_page(), "wb-players-app")
    shown = players.view.value
    left = runner.fight.unit("Goblin boss").current
    assert "Goblin boss: winded" in shown and f"Malice: {runner.fight.malice}" in shown
    assert str(left) not in shown.replace("Round 1", "") and "Group 1" in shown
    runner.controls["shown"].value = False  # the Director hides the Malice: an event, saved
    players.refresh.click()
    assert "Malice" not in players.view.value


def test_ending_by_surrender_writes_the_directors_victories_into_the_party(desk):
    runner = board()
    click(runner, "round")
    runner.controls["end_how"].value = "The foes surrender"
    runner.controls["end_victories"].value = 2
    click(runner, "end")
    assert runner.fight.result().success and runner.fight.result().victories == 2
    assert load_workspace().encounter.party.victories == 2
    again = board()  # the page opened again: the same ended fight, the Victories not written twice
    assert again.fight.ended and load_workspace().encounter.party.victories == 2
    click(again, "undo")
    assert load_workspace().encounter.party.victories == 0  # the end taken back, the Victories with it


def test_a_fight_from_an_adventure_starts_at_its_arrival_and_its_victories_reach_the_next_encounter(desk, tmp_path):
    day = Adventure(party=make_party(heroes=4, level=3, victories=1),
                    encounters=(encounter("First"), encounter("Second"), encounter("Third")))
    path = save_adventure(day, tmp_path / "day.json")
    planned = day.plan().encounters
    open_from_adventure(path, 1, [BOSS, MINION])
    page = pages.fight_page()
    runner = inner(page, "wb-fight-runner")
    arrival = planned[1].arrival_victories
    assert runner.fight.victories == arrival
    assert f"the monsters start with {planned[1].starting_malice} Malice" in inner(page, "wb-fight").children[1].value
    click(runner, "round")
    assert runner.fight.malice == planned[1].first_round_malice
    runner.controls["end_how"].value = "The foes retreat"
    runner.controls["end_victories"].value = 1
    click(runner, "end")
    after = load_adventure(path)
    assert after.earned == ((1, 1),)
    assert after.plan().encounters[2].arrival_victories == arrival + 1
    assert load_workspace().encounter.party.victories == arrival + 1
    assert board().fight.ended  # the Victories written, the page reopens the same ended fight

