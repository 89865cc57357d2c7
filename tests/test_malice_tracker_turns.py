"""Turns in the Malice tracker: villain actions once per encounter, one a
round across every creature, at the end of another creature's turn; a basic Malice feature "at the start of any
monster's turn", one per turn; a creature's own Malice features once per turn."""

from __future__ import annotations

import pytest

from workbench.errors import InvalidInput
from workbench.fight.malice_features import basic_malice_features
from workbench.fight.malice_tracker import MaliceTracker
from workbench.model import Trait
from workbench.monster.formulas import build_monster
from workbench.monster.solo import solo_action

BRUTAL, STRIKE = basic_malice_features()
OWN = Trait(name="Goblin Malice: Swarm", text="Every goblin shifts 2.", cost=3)
BOSS = build_monster(3, "leader")


def tracker(victories=3):
    t = MaliceTracker(heroes=5, victories=victories)
    t.start_round()  # 3 + 5 + 1 = 9 Malice
    return t


# ---------------------------------------------------------------- villain actions (item 9)


def test_each_villain_action_once_per_encounter():
    # "Each villain action can be used only once per encounter"
    t = tracker()
    t.start_turn("hero A", "hero")
    t.end_turn()
    t.villain_action("Baron", 1)
    t.start_round()
    t.start_turn("hero B", "hero")
    t.end_turn()
    with pytest.raises(InvalidInput, match="only once per encounter"):
        t.villain_action("Baron", 1)
    t.villain_action("Baron", 2)


def test_one_villain_action_a_round_across_every_creature():
    # "no more than one villain action can be used per round. (This holds even if you have two or more creatures
    # with villain actions in an encounter ...)"
    t = tracker()
    t.start_turn("hero A", "hero")
    t.end_turn()
    t.villain_action("Baron", 1)
    t.start_turn("hero B", "hero")
    t.end_turn()
    with pytest.raises(InvalidInput, match="Baron \\(1\\) used one in round 1"):
        t.villain_action("Witch", 1)
    before = t.state
    assert t.state == before  # a refusal changes nothing


def test_villain_action_at_the_end_of_another_creatures_turn():
    # "A creature can use a villain action at the end of any other creature's turn during combat."
    t = tracker()
    with pytest.raises(InvalidInput, match="at the end of any other creature's turn"):
        t.villain_action("Baron", 1)  # no turn has ended yet this round
    t.start_turn("Baron")
    with pytest.raises(InvalidInput, match="at the end of any other creature's turn"):
        t.villain_action("Baron", 1)  # during a turn
    t.end_turn()
    with pytest.raises(InvalidInput, match="another creature's turn"):
        t.villain_action("Baron", 1)  # at the end of its own turn
    t.start_turn("hero A", "hero")
    t.end_turn()
    assert t.villain_action("Baron", 1).villain_actions == (("Baron", 1, 1),)
    with pytest.raises(InvalidInput, match="number"):
        t.villain_action("Baron", 4)  # "A creature with villain actions always has three."


# ---------------------------------------------------------------- Malice per turn (item 10)


def test_one_basic_feature_at_the_start_of_a_monsters_turn():
    # "At the start of any monster's turn, you can spend Malice to activate one of the following features"
    t = tracker()
    t.start_turn("hero A", "hero")
    with pytest.raises(InvalidInput, match="monster's turn"):
        t.spend(BRUTAL)
    t.end_turn()
    t.start_turn("goblins")
    t.spend(BRUTAL)
    with pytest.raises(InvalidInput, match="one basic Malice feature per monster turn"):
        t.spend(STRIKE, 5, monster=BOSS)
    t.end_turn()
    t.start_turn("Baron")
    assert t.spend(BRUTAL).malice == 9 - 3 - 3  # another monster's turn: another basic feature


def test_a_creatures_own_malice_feature_once_per_turn():
    # "Specific types of monsters sometimes have other ways they can spend Malice once per turn"
    t = tracker(victories=10)  # 10 + 5 + 1 = 16
    t.start_turn("goblins")
    t.spend(OWN)
    with pytest.raises(InvalidInput, match="once per turn"):
        t.spend(OWN)
    t.spend(solo_action())  # a different feature of its own
    t.end_turn()
    t.start_turn("goblin boss")
    assert t.spend(OWN).malice == 16 - 3 - 5 - 3


def test_without_turns_the_round_rules_still_apply():
    t = tracker(victories=10)
    t.spend(BRUTAL)
    t.spend(BRUTAL)  # the Director is not tracking turns: only the Malice on hand limits it
    assert t.malice == 16 - 6




def test_tracker_view_shows_the_turn_and_the_villain_actions_used():
    from workbench.render.malice import tracker_html

    t = tracker()
    t.start_turn("<hero A>", "hero")
    assert "&lt;hero A&gt;&#39;s turn (hero)" in tracker_html(t.state)
    t.end_turn()
    t.villain_action("Baron", 1)
    assert "Villain actions used: Baron 1 (round 1)" in tracker_html(t.state)
