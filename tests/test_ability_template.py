"""Abilities pre-filled from the formulas: every number the formulas' for the kind (rules_reference), so a
fresh template shows no departure."""

from __future__ import annotations

import pytest
import rules_reference as ref

from workbench import InvalidInput, build_monster
from workbench.monster.ability_template import TEMPLATES, suggest_ability
from workbench.monster.departure import ability_departures


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("level, organization, role", [(1, "horde", "harrier"), (5, "elite", "brute"),
                                                       (8, "leader", None), (3, "minion", "artillery")])
def test_a_template_starts_at_the_formulas(template, level, organization, role):
    monster = build_monster(level, organization, role)
    ability = suggest_ability(monster, template)
    assert ability_departures(monster, ability) == ()
    assert ability.power_roll.bonus == ref.highest_characteristic(level, organization)
    targets, strike = {
        "signature strike": (ref.expected_targets(organization), True),
        "two-target strike": (2, True),
        "malice": (1, True),
        "area": (ref.expected_targets(organization), False),
        "villain action": (ref.expected_targets(organization), False),
    }[template]
    assert ability.power_roll.damage == tuple(ref.damage(level, organization, role, t, targets, strike)
                                              for t in (1, 2, 3))
    if template in ("malice", "area", "villain action"):
        assert [t.potency.value for t in ability.power_roll.tiers] == [ref.potency(level, organization, t)
                                                                       for t in (1, 2, 3)]


def test_villain_actions_take_the_next_free_slot_and_refuse_a_fourth():
    monster = build_monster(4, "leader")
    for number in (1, 2, 3):
        ability = suggest_ability(monster, "villain action")
        assert ability.cost == f"villain {number}"
        monster = monster.model_copy(update={"abilities": (*monster.abilities, ability)})
    with pytest.raises(InvalidInput) as caught:
        suggest_ability(monster, "villain action")
    assert caught.value.field == "template"


def test_an_unknown_template_is_refused():
    with pytest.raises(InvalidInput) as caught:
        suggest_ability(build_monster(1, "horde", "brute"), "fireball")
    assert caught.value.field == "template"
