"""The reinforcements an objective brings each round (`workbench.fight.reinforcements`), as EV budgets."""

from __future__ import annotations

from fractions import Fraction

from fight_setups import BRUTE, SPINECLEAVER, encounter, group

from workbench.encounter.objective import choose_objective
from workbench.fight.fight import Fight


def test_hold_them_off_budget_is_what_got_past_plus_one_hero_with_the_rest_carried():
    # "Each new group of enemies should have an EV equal to that of all the enemies who got past the heroes
    # during the previous round, plus the EV of one hero ... If you don't spend all the EV for the new group,
    # the remainder can be added to reinforcements in a future round."
    enc = encounter((BRUTE, 4), objectives=[choose_objective("hold_them_off")])
    fight = Fight(enc, [BRUTE])
    assert fight.reinforcement_budget() is None  # before the first round
    fight.start_round()
    fight.count("hold_them_off", "through", unit="Orc 1")
    budget = fight.reinforcement_budget()
    ev = fight.encounter.creatures[0].ev
    assert budget is not None and budget.high == ev + 6  # four level 1 heroes: one hero's ES is 6
    fight.end_round()
    fight.reinforce("Orc", 1)  # spends ev, leaves 6
    assert fight.reinforcement_budget().spent == ev
    fight.start_round()
    assert fight.reinforcement_budget().high == 6 + 6  # nothing through, one hero, 6 carried


def test_escort_replacements_are_within_five_of_the_ev_killed_last_round():
    # "any enemies who were killed during the previous round are replaced by a new group of creatures whose
    # total EV is within 5 of the creatures lost"
    enc = encounter((BRUTE, 2), (SPINECLEAVER, 8), groups=[group((0, 2)), group((1, 8))],
                    objectives=[choose_objective("escort")])
    fight = Fight(enc, [BRUTE, SPINECLEAVER])
    fight.start_round()
    fight.dies("Orc 1")
    fight.damage("Goblin spinecleaver", 10)  # two minions drop
    assert fight.reinforcement_budget() is None  # round 1 replaces nothing
    fight.start_round()
    brute, minions = (c.ev for c in fight.encounter.creatures)
    lost = brute + Fraction(minions, 4) * 2
    budget = fight.reinforcement_budget()
    assert budget is not None and (budget.low, budget.high) == (max(Fraction(0), lost - 5), lost + 5)
