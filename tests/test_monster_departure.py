"""A monster's own numbers beside the formulas': EV, Stamina and free strike that depart from them."""

from __future__ import annotations

import rules_reference as ref

from workbench.monster.departure import number_departures
from workbench.monster.formulas import build_monster


def test_a_formula_monster_departs_nowhere():
    assert number_departures(build_monster(4, "platoon", "brute")) == ()


def test_each_departing_number_with_the_formula_s_value_in_block_order():
    built = build_monster(1, "minion", "brute")
    printed = built.model_copy(update={"stamina": 7, "free_strike": 3})
    found = number_departures(printed)
    assert [(d.quantity, d.value, d.formula.value) for d in found] == [
        ("Stamina", 7, ref.stamina(1, "minion", "brute")),
        ("Free strike", 3, ref.free_strike(1, "minion", "brute")),
    ]
    stamina = found[0]
    assert stamina.difference == 7 - ref.stamina(1, "minion", "brute")
    assert str(stamina).startswith(f"Stamina 7: the formulas give {ref.stamina(1, 'minion', 'brute')} (")
    assert str(stamina).endswith(f"), {stamina.difference:+d}")


def test_compared_at_the_monster_s_own_inputs():
    printed = build_monster(3, "elite", "defender", extra_stamina=True).model_copy(update={"ev": 99})
    (ev,) = number_departures(printed)
    assert (ev.quantity, ev.value, ev.formula.value) == ("EV", 99, ref.ev(3, "elite"))
