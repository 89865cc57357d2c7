"""The stat block's parts as typed data: each reads the book's notation, prints it back, refuses bad values."""

from __future__ import annotations

import pytest

from workbench import InvalidInput, build_monster
from workbench.model import (
    Ability,
    Characteristics,
    DamageModifier,
    Distance,
    Effect,
    Movement,
    Potency,
    PowerRoll,
    Size,
    Target,
    Tier,
    parse_cost,
)

# ---------------------------------------------------------------- distance


@pytest.mark.parametrize(
    "text, kind, value, value2, within, note",
    [
        ("Melee 1", "melee", 1, None, None, ""),
        ("Ranged 10", "ranged", 10, None, None, ""),
        ("Melee 1 or ranged 5", "melee or ranged", 1, 5, None, ""),
        ("Melee 1 or Ranged 5", "melee or ranged", 1, 5, None, ""),  # the transcription's other spelling
        ("5 burst", "burst", 5, None, None, ""),
        ("3 aura", "aura", 3, None, None, ""),
        ("3 cube within 10", "cube", 3, None, 10, ""),
        ("1 x 2 line within 1", "line", 1, 2, 1, ""),
        ("5 × 1 line within 1", "line", 5, 1, 1, ""),
        ("10 wall within 10", "wall", 10, None, 10, ""),
        ("Self", "self", None, None, None, ""),
        ("Self; see below", "self", None, None, None, "see below"),
        ("Special", "special", None, None, None, ""),
    ],
)
def test_distance_is_read_and_printed_back_exactly(text, kind, value, value2, within, note):
    distance = Distance.parse(text)
    assert (distance.kind, distance.value, distance.value2, distance.within, distance.note) == (
        kind, value, value2, within, note)
    assert str(distance) == text


def test_a_distance_built_from_numbers_prints_the_books_spelling():
    assert str(Distance(kind="cube", value=3, within=10)) == "3 cube within 10"
    assert str(Distance(kind="melee or ranged", value=1, value2=10)) == "Melee 1 or ranged 10"


@pytest.mark.parametrize("text", ["12 furlongs", "Melee", "cube within 10", "burst 5", ""])
def test_a_distance_that_does_not_parse_is_refused(text):
    with pytest.raises(InvalidInput) as caught:
        Distance.parse(text)
    assert caught.value.field == "distance"


def test_a_distance_missing_a_number_for_its_kind_is_refused():
    with pytest.raises(InvalidInput, match="needs within"):
        Distance(kind="cube", value=3)


# ---------------------------------------------------------------- tiers


@pytest.mark.parametrize(
    "text, damage, damage_type, potency, effect",
    [
        ("3 damage", 3, None, None, ""),
        ("5 damage; M < 0 bleeding (save ends)", 5, None, ("might", 0), "M < 0 bleeding (save ends)"),
        ("4 corruption or fire damage", 4, "corruption or fire", None, ""),
        # two damage parts: the tier deals 12 (the calibration's reading)
        ("8 damage, 4 corruption damage", 12, None, None, ""),
        ("10 corruption damage, or if the target has P < 2 they are judged", 10, "corruption", ("presence", 2),
         ", or if the target has P < 2 they are judged"),
        # damage after the potency is the potency's effect, not the tier's
        ("11 damage; M < 3 4 poison damage, weakened (save ends)", 11, None, ("might", 3),
         "M < 3 4 poison damage, weakened (save ends)"),
        ("Slide 1; A < 2 3 damage", None, None, ("agility", 2), "Slide 1; A < 2 3 damage"),
        ("Frightened (EoT)", None, None, None, "Frightened (EoT)"),
        ("No effect", None, None, None, "No effect"),
    ],
)
def test_a_tier_is_read_into_damage_potency_and_words_and_printed_back(text, damage, damage_type, potency, effect):
    tier = Tier.parse(text)
    assert tier.damage == damage
    assert tier.damage_type == damage_type
    assert (None if tier.potency is None else (tier.potency.characteristic, tier.potency.value)) == potency
    assert tier.effect == effect
    assert str(tier) == text


def test_a_tier_built_from_parts_prints_like_the_book():
    tier = Tier(damage=5, damage_type="fire", potency=Potency(characteristic="might", value=1),
                effect="bleeding (save ends)")
    assert str(tier) == "5 fire damage; M < 1 bleeding (save ends)"
    assert str(Tier(damage=7)) == "7 damage"


def test_with_numbers_moves_damage_and_potency_and_keeps_the_words():
    tier = Tier.parse("8 damage, 4 corruption damage; M < 2 bleeding (save ends)")
    moved = tier.with_numbers(damage=15, potency=3)
    assert str(moved) == "11 damage, 4 corruption damage; M < 3 bleeding (save ends)"
    assert moved.damage == 15


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"damage": -1}, "damage"),  # negative damage
        ({"damage": "5"}, "damage"),  # a damage typed as text
        ({"damage": 2.5}, "damage"),
        ({"potency": "M < 7"}, "potency.value"),  # above the rules' maximum of 6
        ({"potency": "M < -6"}, "potency.value"),
        ({"potency": "Q < 1"}, "potency"),  # no such characteristic
        ({"text": "4 blorp damage"}, "types"),  # no such damage type
        ({"effect": "M < 9 prone"}, "potency.value"),
        ({"potency": "M < 1", "effect": "A < 1 prone"}, "potency"),  # the words and the data disagree
    ],
)
def test_bad_tier_values_are_refused_naming_the_field(kwargs, field):
    with pytest.raises(InvalidInput) as caught:
        Tier(**kwargs)
    assert caught.value.field == field


# ---------------------------------------------------------------- ability


def spear_charge(**changes):
    data = {
        "name": "Spear Charge",
        "cost": "Signature Ability",
        "action": "Main action",
        "keywords": ["Charge", "Melee", "Strike", "Weapon"],
        "distance": "Melee 1",
        "target": "One creature or object",
        "power_roll": {"bonus": 2, "tier1": "3 damage", "tier2": "4 damage", "tier3": "5 damage"},
    }
    return Ability(**{**data, **changes})


def test_an_ability_reads_the_books_parts():
    ability = spear_charge()
    assert ability.cost == "signature" and ability.cost_text == "Signature Ability"
    assert ability.action == "main action" and ability.action_text == "Main action"
    assert ability.is_strike
    assert ability.distance == Distance(kind="melee", value=1, text="Melee 1")
    assert ability.target == Target(text="One creature or object", count=1)
    assert ability.power_roll.bonus == 2
    assert ability.power_roll.damage == (3, 4, 5)
    assert str(ability.power_roll) == "Power Roll + 2"


@pytest.mark.parametrize(
    "text, cost",
    [
        ("Signature Ability", "signature"),
        ("Villain Action 2", "villain 2"),
        ("3 Malice", 3),
        (5, 5),
        (None, None),
    ],
)
def test_costs(text, cost):
    assert parse_cost(text) == cost


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"keywords": ["Melee", "Sneaky"]}, "keywords"),  # unknown keyword
        ({"distance": "far away"}, "distance"),
        ({"cost": "Signature"}, None),  # accepted: a short spelling of the same cost
        ({"cost": 0}, "cost"),
        ({"cost": "Villain Action 4"}, "cost"),
        ({"action": "Bonus action"}, "action"),
        ({"target": {"text": "None", "count": 0}}, "target.count"),
        ({"power_roll": {"bonus": 11, "tier1": "1 damage", "tier2": "2 damage", "tier3": "3 damage"}},
         "power_roll.bonus"),
        ({"power_roll": {"bonus": 2, "tier1": {"damage": -2}, "tier2": "2 damage", "tier3": "3 damage"}},
         "power_roll.tier1.damage"),
        ({"power_roll": {"bonus": 2, "characteristics": ["luck"], "tier1": "1 damage", "tier2": "2 damage",
                         "tier3": "3 damage"}}, "power_roll.characteristics"),
        ({"name": "  "}, "name"),
    ],
)
def test_bad_ability_values_are_refused_naming_the_field(changes, field):
    if field is None:
        spear_charge(**changes)
        return
    with pytest.raises(InvalidInput) as caught:
        spear_charge(**changes)
    assert caught.value.field == field


def test_no_keywords_and_no_action_are_the_books_dash():
    ability = spear_charge(keywords=["-"], action="-")
    assert ability.keywords == () and ability.keywords_text == "-"
    assert ability.action is None and ability.action_text == "-"


def test_an_effect_bought_with_malice():
    effect = Effect(text="The target is also slowed.", malice=2, malice_plus=True)
    assert effect.cost_text == "2+ Malice"
    assert Effect.parse_malice("5 Malice") == (5, False)
    with pytest.raises(InvalidInput):
        Effect.parse_malice("five Malice")


def test_the_power_roll_prints_a_negative_bonus():
    roll = PowerRoll(bonus=-1, tier1="1 damage", tier2="2 damage", tier3="3 damage")
    assert str(roll) == "Power Roll - 1"
    assert PowerRoll.parse_bonus("Power Roll - 1") == -1
    assert PowerRoll.parse_bonus("Power Roll + 4") == 4


# ---------------------------------------------------------------- header parts


@pytest.mark.parametrize("text, value, letter, other", [
    ("1T", 1, "T", None), ("1S", 1, "S", None), ("1M", 1, "M", None), ("1L", 1, "L", None),
    ("2", 2, None, None), ("3", 3, None, None), ("2 or 3", 2, None, 3),
])
def test_sizes(text, value, letter, other):
    size = Size.parse(text)
    assert (size.value, size.letter, size.or_value) == (value, letter, other)
    assert str(size) == text


@pytest.mark.parametrize("text", ["4T", "big", "0", "1X", ""])
def test_a_size_that_does_not_parse_is_refused(text):
    with pytest.raises(InvalidInput) as caught:
        Size.parse(text)
    assert caught.value.field in ("size", "value")


def test_movement_modes():
    movement = Movement.parse(6, "Fly, hover")
    assert movement.modes == ("fly", "hover")
    assert movement.modes_text == "Fly, hover"
    assert str(movement) == "6 (fly, hover)"
    assert Movement.parse(5, "").modes == ()
    with pytest.raises(InvalidInput) as caught:
        Movement.parse(5, "Walk")
    assert caught.value.field == "modes"


def test_immunities_and_weaknesses():
    assert DamageModifier.parse("Fire 5") == DamageModifier(type="fire", value=5)
    assert str(DamageModifier.parse("Acid 3")) == "Acid 3"
    for bad in ("Fire", "Blorp 3", "Fire -1"):
        with pytest.raises(InvalidInput):
            DamageModifier.parse(bad)


def test_characteristics_by_name_and_letter():
    characteristics = Characteristics(might=-2, agility=2, reason=0, intuition=0, presence=-1)
    assert characteristics["agility"] == 2
    assert characteristics["M"] == -2
    assert characteristics.highest == 2
    with pytest.raises(InvalidInput) as caught:
        characteristics["luck"]
    assert caught.value.field == "characteristic"
    with pytest.raises(InvalidInput) as caught:
        Characteristics(might=12)
    assert caught.value.field == "might"


# ---------------------------------------------------------------- the monster


def test_a_formula_monster_holds_its_block_and_its_old_numbers():
    monster = build_monster(5, "elite", "brute")
    assert monster.characteristics == Characteristics(might=3)  # 1 + echelon 2, Might unless chosen
    (signature,) = monster.abilities
    assert (signature.cost, signature.keywords, signature.power_roll.bonus) == ("signature", ("Strike",), 3)
    # tier 1 = ceil(11 x 0.6) + 3 = 10, tier 2 = 13 + 3, tier 3 = 16 + 3; potencies M < 1, 2, 3
    assert [str(t) for t in signature.power_roll.tiers] == ["10 damage; M < 1", "16 damage; M < 2",
                                                             "19 damage; M < 3"]
    assert monster.immunities == () and monster.size_class is None
    assert monster.damage.tier1 == build_monster(5, "elite", "brute").damage.tier1
