"""The fight at one moment (`workbench.fight.state`): a creature's Stamina, winded at half, and a squad
never winded."""

from __future__ import annotations

from fight_setups import boss_fight, refusal


def test_stamina_winded_at_half_and_dead_at_zero():
    fight = boss_fight()
    fight.start_round()
    assert fight.unit("Orc 1").maximum == 40
    fight.damage("Orc 1", 19)
    assert not fight.unit("Orc 1").winded  # 21 of 40 is more than half
    fight.damage("Orc 1", 1)
    assert fight.unit("Orc 1").winded  # 20 of 40: half
    fight.heal("Orc 1", 100)
    assert fight.unit("Orc 1").current == 40  # healing stops at the Stamina maximum
    fight.damage("Orc 1", 50, weakness=5)
    assert (fight.unit("Orc 1").current, fight.unit("Orc 1").status) == (0, "dead")
    assert "is dead" in refusal(lambda: fight.heal("Orc 1", 5)).reason


def test_a_squad_never_regains_stamina_nor_is_winded():
    # "minions can't be winded, can't regain Stamina, and can't gain temporary Stamina during a battle"
    fight = boss_fight()
    fight.start_round()
    fight.damage("Goblin spinecleaver", 30)
    assert not fight.unit("Goblin spinecleaver").winded
    assert "can't gain Stamina" in refusal(lambda: fight.heal("Goblin spinecleaver", 5)).reason
