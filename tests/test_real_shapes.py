"""Every variation met in the real collections (Foundry's packs, the Steel Compendium bestiary, Forge Steel's
monsters) opens whole: a small file of our own in each shape (tests/data/real_shapes/), and what it must give.

The expected numbers are worked out here from the rules and the Foundry system's own code, not read off the
reader: a Foundry potency is the highest characteristic (at least 0) −2, −1 or +0 for weak, average, strong
(creature.mjs), a blank tier-1 damage is 2 + the rolled characteristic, a blank later tier repeats tier 1's,
and a blank applied text or potency characteristic repeats the tier before (damage-effect.mjs,
applied-effect.mjs). A part the model cannot structure stays as its words and is listed in `kept_as_text`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import workbench as wb
from workbench.formats.reader import ImportRefused, import_monster, read_monsters
from workbench.model import Distance

SHAPES = Path(__file__).parent / "data" / "real_shapes"


def kept(monster) -> list[tuple[str, str, str]]:
    return [(k.where, k.part, k.text) for k in monster.kept_as_text]


# ---------------------------------------------------------------- Foundry


def test_foundry_potency_formulas_read_from_the_highest_characteristic():
    monster = import_monster(SHAPES / "foundry-potency-formulas.json")
    claw = monster.abilities[0]
    # highest characteristic: Might 2 -> weak 0, average 1, strong 2, "strong+1" 3
    assert [str(t) for t in claw.power_roll.tiers] == ["4 damage; M < 0 grabbed", "7 damage; M < 1 grabbed",
                                                       "9 damage; M < 3 grabbed"]
    assert claw.power_roll.bonus == 2 and claw.power_roll.characteristics == ("might",)
    assert monster.kept_as_text == ()


def test_foundry_blank_tiers_formulas_and_forced_movement_as_foundry_shows_them():
    monster = import_monster(SHAPES / "foundry-missing-tier-and-formulas.json")
    thorn = monster.abilities[0]
    # Intuition 2 rolled: tier 1's blank damage is 2 + 2; "7+5" is 12; "2d6" is no number: kept as words.
    # The applied effect's blank tier 2 and missing tier 3 repeat tier 1's words and characteristic, with the
    # tier's own default potency (average 1, strong 2).
    assert [str(t) for t in thorn.power_roll.tiers] == [
        "4 poison damage; I < 0 slowed (save ends); push 1",
        "12 poison damage; I < 1 slowed (save ends); push or pull 2",
        "2d6 poison damage; I < 2 slowed (save ends); vertical slide 3",
    ]
    assert str(thorn.distance) == "Ranged 10"  # "5+5"
    assert kept(monster) == [("ability 'Curse Thorn'", "tier 3 damage", "2d6")]


@pytest.mark.parametrize("name, organization, role", [
    ("foundry-minion-role.json", "minion", None),  # role "minion": the organization again
    ("foundry-leader-role.json", "leader", None),
    ("foundry-no-organization.json", None, "brute"),  # organization ""
])
def test_foundry_role_or_organization_left_blank_opens_with_a_note(name, organization, role):
    monster = import_monster(SHAPES / name)
    if organization == "leader":
        assert (monster.organization, monster.role, monster.kept_as_text) == ("leader", None, ())
        return
    assert monster.organization == (organization or monster.organization)
    assert monster.role == (role or monster.role) and monster.role is not None
    (note,) = monster.kept_as_text
    assert note.part == "organization and role" and "closest to the printed" in note.text
    raw = json.loads((SHAPES / name).read_text())["system"]
    assert (monster.stamina, monster.ev, monster.free_strike) == (raw["stamina"]["max"], raw["monster"]["ev"],
                                                                   raw["monster"]["freeStrike"])


def test_foundry_level_zero_is_refused_by_name_and_part():
    with pytest.raises(ImportRefused) as caught:
        import_monster(SHAPES / "foundry-level-zero.json")
    assert caught.value.part == "system.monster.level" and "from 1 to 100" in caught.value.reason
    assert "foundry-level-zero.json" in str(caught.value)


# ---------------------------------------------------------------- Steel Compendium


def test_steel_compendium_distances_in_words_are_kept_exactly():
    monster = import_monster(SHAPES / "sc-distances-in-words.json")
    words = ["Two 3 cubes within 10", "1 burst, or 3 cube within 5", "2 cube of unoccupied space within 10"]
    assert [str(a.distance) for a in monster.abilities[:3]] == words
    assert all(a.distance == Distance(kind="special", text=w) for a, w in zip(monster.abilities, words, strict=False))
    assert monster.abilities[3].distance is None  # "-": no distance
    assert [(k.part, k.text) for k in monster.kept_as_text] == [("distance", w) for w in words]


def test_steel_compendium_second_power_roll_kept_as_a_paragraph_with_tiers():
    monster = import_monster(SHAPES / "sc-second-power-roll.json")
    rise = monster.abilities[0]
    assert rise.power_roll.bonus == 4 and str(rise.power_roll.tier3) == "9 damage; push 3"
    lead, second = rise.effects_after
    assert lead.text.startswith("The warden then makes a second power roll")
    assert second.text == "Power Roll + 4"
    assert [str(t) for t in second.tiers] == ["2 damage; vertical slide 2", "3 damage; vertical slide 4",
                                              "4 damage; vertical slide 6"]
    assert [k.part for k in monster.kept_as_text] == ["a second power roll"]


def test_steel_compendium_malice_traits_costs_in_words_and_modifiers_without_value():
    monster = import_monster(SHAPES / "sc-malice-traits-and-costs.json")
    assert [(t.name, t.cost) for t in monster.malice_features] == [("Cold Hands", 3), ("Borrowed Tricks", None)]
    assert monster.traits == ()
    raise_ = monster.abilities[0]
    assert raise_.cost is None and (raise_.effects_before[0].name, raise_.effects_before[0].text) == (
        "Cost", "1 Malice per minion")
    assert [str(m) for m in monster.immunities] == ["Corruption 3"] and monster.weaknesses == ()
    assert kept(monster) == [
        ("ability 'Raise the Fallen'", "cost", "1 Malice per minion"),
        ("trait 'Borrowed Tricks'", "Malice cost", "3-7 Malice"),
        ("the stat block", "immunities", "Cold"),
        ("the stat block", "weaknesses", "holy"),
    ]


def test_steel_compendium_block_with_no_organization_and_no_ev():
    monster = import_monster(SHAPES / "sc-no-organization.json")
    assert monster.role == "controller" and monster.organization in ("minion", "horde", "platoon", "elite")
    assert monster.ev == 0 and monster.stamina == 20 and monster.free_strike == 3
    assert [k.part for k in monster.kept_as_text] == ["organization and role", "ev"]


# ---------------------------------------------------------------- Forge Steel


def test_forge_steel_retainer_condition_immunity_spend_and_two_distances():
    monster = import_monster(SHAPES / "fs-retainer-and-condition-immunity.ds-monster")
    assert monster.role == "defender" and monster.stamina == 21 and monster.ev == 6
    bash, wall = monster.abilities
    spend = bash.effects_after[0]
    assert (spend.name, spend.malice, spend.text) == ("Spend", 1, "The target is also knocked prone.")
    assert str(wall.distance) == "1 burst or 2 cube within 5"
    assert [(t.name, t.text) for t in monster.traits] == [("Steady", "Frightened")]
    assert [k.part for k in monster.kept_as_text] == ["organization and role", "Condition Immunity", "distance"]


# ---------------------------------------------------------------- hostile values inside a known format


def _foundry() -> dict:
    return json.loads((SHAPES / "foundry-potency-formulas.json").read_text())


def _forge_steel() -> dict:
    return json.loads((SHAPES / "fs-retainer-and-condition-immunity.ds-monster").read_text())


def _steel_compendium() -> dict:
    return json.loads((SHAPES / "sc-distances-in-words.json").read_text())


@pytest.mark.parametrize("make, change, part", [
    (_forge_steel, lambda d: d.update(description=5), "description"),
    (_forge_steel, lambda d: d.update(description=[1, 2]), "description"),
    (_forge_steel, lambda d: d["features"].append("a string"), "features[3]"),
    (_forge_steel, lambda d: d["features"][1]["data"].update(ability=[1]), "features['Shield Bash'].data.ability"),
    (_foundry, lambda d: d.update(flags="x"), None),
    (_foundry, lambda d: d.update(flags=[1]), None),
    (_foundry, lambda d: d["items"][0].update(flags="x"), "flags"),
    (_foundry, lambda d: d["items"][0]["system"].update(story=3), "story"),
    (_foundry, lambda d: d["items"][0]["system"]["power"].update(effects=[1]), "power.effects"),
    (_steel_compendium, lambda d: d.update(metadata="x"), None),
    (_steel_compendium, lambda d: d.update(metadata=[1]), None),
])
def test_wrong_types_inside_a_file_are_refused_by_field_or_ignored_never_a_python_error(make, change, part):
    data = make()
    change(data)
    if part is None:  # tool metadata of another shape: not the workbench's record, left alone
        assert read_monsters(data, "odd.json")[0].name == data["name"]
        return
    with pytest.raises(ImportRefused) as caught:
        read_monsters(data, "odd.json")
    assert part in caught.value.part, caught.value
    for python in ("AttributeError", "object has no attribute", "Traceback", "_Refusal", "('"):
        assert python not in str(caught.value)


@pytest.mark.parametrize("field, value, accepts", [
    ("stamina", 10**30, "from 1 to 1000000"),
    ("stamina", -5, "from 1 to 1000000"),
    ("stamina", int("9" * 39), "from 1 to 1000000"),
    ("encounterValue", -3, "from 0 to 1000000"),
    ("encounterValue", 10**30, "from 0 to 1000000"),
    ("freeStrikeDamage", 10**12, "from 0 to 1000000"),
])
def test_printed_numbers_out_of_range_are_refused_with_the_range(field, value, accepts):
    data = _forge_steel()
    data["role"]["organization"] = "Elite"
    data[field] = value
    with pytest.raises(ImportRefused) as caught:
        read_monsters(data, "big.ds-monster")
    assert accepts in caught.value.reason and len(str(caught.value)) < 300


def test_an_organization_no_tool_knows_is_refused_plainly_also_inside_the_record():
    data = _forge_steel()
    data["role"]["organization"] = "Boss"
    with pytest.raises(ImportRefused) as caught:
        read_monsters(data, "boss.ds-monster")
    assert caught.value.part == "role.organization" and "'Boss'" in caught.value.reason
    # the same organization written into the workbench record on the description's last line
    data = _forge_steel()
    data["role"]["organization"] = "Elite"
    record = {"version": 1, "monster": {"organization": "boss", "level": 1, "role": "defender"}}
    data["description"] = "Workbench record: " + json.dumps(record)
    with pytest.raises(ImportRefused) as caught:
        read_monsters(data, "boss.ds-monster")
    assert "_Refusal" not in str(caught.value) and "('" not in str(caught.value)


def test_a_monster_the_library_could_not_load_back_is_refused_on_import():
    data = _forge_steel()
    data["role"]["organization"] = "Elite"
    ability = data["features"][1]
    data["features"] = [{**ability, "id": f"f{i}", "name": f"Bash {i}",
                         "data": {"ability": {**ability["data"]["ability"], "name": f"Bash {i}"}}}
                        for i in range(3000)]
    with pytest.raises(ImportRefused) as caught:
        read_monsters(data, "many.ds-monster")
    assert "the library loads files of up to" in caught.value.reason


def test_parts_kept_as_text_are_marked_on_the_block_and_listed_in_a_note():
    from workbench.render.stat_block import stat_block_html, stat_block_markdown

    monster = import_monster(SHAPES / "sc-distances-in-words.json")
    block = stat_block_html(monster)
    assert '<div class="wb-kept-as-text"><h4>Kept as text</h4>' in block
    assert "<q>Two 3 cubes within 10</q>" in block and "ability &#39;Spit Globs&#39;, distance" in block
    markdown = stat_block_markdown(monster)
    assert "#### Kept as text" in markdown and "- ability 'Spit Globs', distance: “Two 3 cubes within 10”" in markdown
    whole = import_monster(SHAPES / "foundry-potency-formulas.json")
    assert "wb-kept-as-text" not in stat_block_html(whole) and "Kept as text" not in stat_block_markdown(whole)


def test_a_distance_kept_as_text_travels_in_words_to_each_tool():
    monster = import_monster(SHAPES / "sc-distances-in-words.json")
    forge = json.loads(wb.export_monster(monster, "forge-steel"))
    lash = next(f for f in forge["features"] if f["name"] == "Spit Globs")["data"]["ability"]
    assert lash["distance"][0]["type"] == "Special" and lash["distance"][0]["special"] == "Two 3 cubes within 10"
    compendium = json.loads(wb.export_monster(monster, "steel-compendium"))
    assert compendium["features"][0]["distance"] == "Two 3 cubes within 10"
    for fmt in ("forge-steel", "foundry", "steel-compendium"):  # and each comes back as it was
        assert read_monsters(json.loads(wb.export_monster(monster, fmt)), "again")[0] == monster


def test_forge_steel_movement_modes_in_capitals_read_and_an_unknown_word_kept_as_text():
    data = _forge_steel()
    data["speed"]["modes"] = ["Fly", "climb", "flying"]
    (monster,) = read_monsters(data, "hawk.ds-monster")
    assert monster.movement.modes == ("fly", "climb")
    assert ("the monster", "movement mode", "flying") in kept(monster)
