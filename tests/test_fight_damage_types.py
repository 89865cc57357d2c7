"""A stat block's weakness and immunity for one hit of a damage type (`workbench.fight.damage_types`)."""

from __future__ import annotations

from fight_setups import named, refusal

from workbench.fight.damage_types import type_modifiers
from workbench.model import DamageModifier

FIRE_WEAK = named(1, "minion", "brute", "Ice imp").model_copy(update={
    "weaknesses": (DamageModifier(type="fire", value=5),),
    "immunities": (DamageModifier(type="cold", value=3), DamageModifier(type="all", value=1)),
})


def test_a_typed_modifier_meets_its_type_only_and_all_meets_every_hit():
    assert type_modifiers(FIRE_WEAK, "fire") == (5, 1)
    assert type_modifiers(FIRE_WEAK, "cold") == (0, 3)  # the highest immunity that applies, not the sum
    assert type_modifiers(FIRE_WEAK, "") == (0, 1)  # untyped damage meets "all" only
    assert type_modifiers(None, "fire") == (0, 0)  # a hero: no stat block


def test_an_unknown_damage_type_is_refused_by_name():
    refused = refusal(lambda: type_modifiers(FIRE_WEAK, "plasma"))
    assert refused.field == "damage_type" and "fire" in refused.accepts
