"""Forge Steel, Foundry and Steel Compendium files, both ways (workbench/formats/).

Round trips: every sample stat block and homebrew monsters with every kind of part, exported to each format
and imported back, equal in every field. Each format's own fields are also checked on their own (the file
with the workbench record taken out), against the tools' field names, types and enum spellings as
the tools' published formats give them. Test files of the tools' shapes are written here by hand, never copied.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import workbench as wb
from workbench.formats import forge_steel, foundry, steel_compendium
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.reader import detect_format, import_monsters, read_monsters
from workbench.formats.record import RECORD_KEY, RECORD_PREFIX, ImportRefused
from workbench.model import (
    Ability,
    AttachedRule,
    Characteristics,
    DamageModifier,
    Effect,
    Movement,
    Size,
    Trait,
)

SAMPLE_FILES = sorted(SAMPLE_DIR.rglob("*.json"))
FILE_FORMATS = ("forge-steel", "foundry", "steel-compendium")


def published(path: Path) -> wb.Monster:
    return wb.read_stat_block(path)


def _roll(bonus: int, *tiers: str, characteristics: tuple[str, ...] = ()) -> dict:
    return {"characteristics": characteristics, "bonus": bonus, "tier1": tiers[0], "tier2": tiers[1],
            "tier3": tiers[2]}


def homebrew_every_part() -> wb.Monster:
    """A leader with every kind of part the model holds: each cost, action, distance kind, effect kind."""
    base = wb.build_monster(level=4, organization="leader", extra_stamina=True, targets=3)
    abilities = (
        Ability(name="Cleave", cost="signature", action="main action",
                keywords=["Melee", "Strike", "Weapon"], distance="Melee 2", target="Two creatures or objects",
                power_roll=_roll(4, "8 damage", "12 damage; M < 2 prone", "15 damage, 3 fire damage; M < 3 prone"),
                effects_after=(Effect(name="Effect", text="The target is pushed 1."),)),
        Ability(name="Hex Bolt", flavour="Green fire leaps.", cost=3, action="main action",
                keywords=["Magic", "Ranged", "Strike"], distance="Melee 1 or ranged 10", target="One creature",
                power_roll=_roll(4, "5 corruption or fire damage; P < 2 weakened (save ends)",
                                 "8 corruption or fire damage; P < 3 weakened (save ends)",
                                 "10 corruption or fire damage; P < 4 weakened (save ends)",
                                 characteristics=("presence",)),
                effects_after=(Effect(malice=2, malice_plus=True, text="One more target for each 2 Malice."),)),
        Ability(name="Ground Slam", cost="villain 1", keywords=["Area"], distance="3 burst",
                target="Each enemy in the area",
                effects_before=(Effect(text="The ground shakes."),),
                power_roll=_roll(4, "3 damage; push 1", "6 damage; push 2", "9 damage; push 4")),
        Ability(name="Fume", cost="villain 2", action="maneuver", keywords=["Area", "Magic"],
                distance="4 cube within 10", target="Each creature in the area",
                power_roll=_roll(4, "I < 2 dazed (save ends)", "I < 3 dazed (save ends)", "I < 4 dazed (save ends)")),
        Ability(name="Spit Line", cost="villain 3", action="main action", keywords=["Area"],
                distance="10 × 2 line within 1", target="Each enemy in the area",
                power_roll=_roll(4, "4 acid damage", "7 acid damage", "10 acid damage")),
        Ability(name="Stone Wall", action="maneuver", keywords=["Magic"], distance="6 wall within 10",
                target="Special", effects_before=(Effect(text="A wall of stone rises."),)),
        Ability(name="Menace", action="free maneuver", keywords=["Magic"], distance="2 aura", target="Each enemy in the area",
                effects_before=(Effect(name="Aura", text="Enemies in the aura take a bane on strikes."),)),
        Ability(name="Parry", action="triggered action", keywords=[], distance="Self", target="Self",
                trigger="A creature strikes the leader.",
                effects_before=(Effect(text="The damage is halved."),)),
        Ability(name="Dodge", action="free triggered action", distance="Self", target="Self",
                trigger="The leader takes damage.", effects_before=(Effect(text="The leader shifts 2."),)),
        Ability(name="Stride", action="move action", distance="Self", target="Self",
                effects_before=(Effect(text="The leader moves up to their speed."),)),
        Ability(name="Command", action="no action", distance="Special", target="One ally",
                effects_before=(Effect(name="Test", text="An ally makes a Might test.",
                                       tiers=("the ally falls prone", "the ally slides 1", "the ally shifts 2")),)),
    )
    return base.model_copy(update={
        "name": "Stonecaller <b>Vex</b> & Co",
        "keywords": ("Humanoid", "Orc"),
        "ev": 30,
        "stamina": 130,
        "free_strike": 5,
        "characteristics": Characteristics(might=4, agility=1, reason=0, intuition=-1, presence=2),
        "size_class": Size.parse("1L"),
        "size": "1L",
        "movement": Movement.parse(6, "Climb, fly, hover"),
        "speed": "6 (climb, fly, hover)",
        "stability_value": 3,
        "stability": "3",
        "immunities": (DamageModifier(type="fire", value=5), DamageModifier(type="psychic", value=3)),
        "weaknesses": (DamageModifier(type="all", value=2),),
        "abilities": abilities,
        "traits": (Trait(name="Stonebound", text="The leader can't be moved by a slide."),
                   Trait(name="Leader Monster", effects=(Effect(name="End Effect", text="Ends one effect."),
                                                         Effect(name="Turns", text="Takes one turn."))),),
        "malice_features": (Trait(name="Rockfall", text="Each enemy in a 3 cube takes 4 damage.", cost=5),),
        "villain_actions": (Trait(name="Rally", text="Each ally shifts 2."),),
        "homebrew_rules": (AttachedRule(rule="exploitable-weakness", values=(("damage_type", "fire"), ("value", 5))),),
        "signature_name": "Cleave",
        "signature_text": "A wide swing.",
    })


def homebrew_minion() -> wb.Monster:
    """A minion with a With Captain benefit, a formula monster's unset characteristics and text-only size."""
    base = wb.build_monster(level=2, organization="minion", role="harrier")
    return base.model_copy(update={
        "name": "Cave Skitter",
        "keywords": ("Animal",),
        "size": "1T",
        "speed": "7",
        "stability": "0",
        "with_captain": "+2 bonus to speed",
        "traits": (Trait(name="Swarm", text="Skitters can share a space."),),
    })


def homebrew_formula_only() -> wb.Monster:
    """A monster straight from the formulas: no parts at all."""
    return wb.build_monster(level=7, organization="elite", role="artillery")


HOMEBREW = {"every part": homebrew_every_part, "minion": homebrew_minion, "formulas only": homebrew_formula_only}


def _roundtrip(monster: wb.Monster, fmt: str) -> wb.Monster:
    text = wb.export_monster(monster, fmt)
    assert isinstance(text, str)
    (back,) = read_monsters(json.loads(text), f"test.{fmt}")
    return back


def _differences(a: wb.Monster, b: wb.Monster) -> list[str]:
    return [k for k in type(a).model_fields if getattr(a, k) != getattr(b, k)]


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("fmt", FILE_FORMATS)
def test_every_sample_stat_block_round_trips_equal(fmt):
    problems = []
    for path in SAMPLE_FILES:
        monster = published(path)
        back = _roundtrip(monster, fmt)
        if back != monster:
            problems.append(f"{path.name}: {_differences(monster, back)}")
    assert problems == []


@pytest.mark.parametrize("fmt", FILE_FORMATS)
@pytest.mark.parametrize("kind", sorted(HOMEBREW))
def test_homebrew_monsters_round_trip_equal(fmt, kind):
    monster = HOMEBREW[kind]()
    back = _roundtrip(monster, fmt)
    assert _differences(monster, back) == []
    assert back == monster


def test_the_every_part_monster_really_has_every_part():
    monster = homebrew_every_part()
    kinds = {a.distance.kind for a in monster.abilities}
    assert kinds == {"melee", "melee or ranged", "burst", "cube", "line", "wall", "aura", "self", "special"}
    assert {a.action for a in monster.abilities} == {
        None, "main action", "maneuver", "free maneuver", "triggered action", "free triggered action", "move action",
        "no action"}
    assert {a.cost for a in monster.abilities} == {"signature", 3, "villain 1", "villain 2", "villain 3", None}


# ---------------------------------------------------------------- each tool's own fields


def _without_record(fmt: str, data: dict) -> dict:
    if fmt == "steel-compendium":
        data.pop("metadata", None)
    elif fmt == "foundry":
        data["flags"] = {}
    else:
        data["description"] = data["description"].rpartition(RECORD_PREFIX)[0].rstrip("\n")
    return data


# What a tool's own fields cannot hold, seen in the sample (the record carries it; each is in the report):
KNOWN_LOSSES = {
    "steel-compendium": set(),
    # Forge Steel's size is one value and a letter: the book's "2 or 3" doesn't fit
    "forge-steel": {"Shieldscale Drangolin.json size_class"},
    # Foundry: the same size, movement modes a set with hover a flag (their order is lost), and a distance
    # has no words beside its numbers ("Self; see below")
    "foundry": {"Shieldscale Drangolin.json size_class", "Hobgoblin War Mage.json movement",
                "Shieldscale Drangolin.json Drangolin Plume: ('Drangolin Plume', (), '', 'Self', 'Self; see below', "
                "'main action') != ('Drangolin Plume', (), '', 'Self', 'Self', 'main action')"},
}


@pytest.mark.parametrize("fmt", FILE_FORMATS)
def test_the_tools_own_fields_carry_every_printed_number_and_text(fmt):
    """Without the workbench record, what the tool itself reads still gives every number, text and tier."""
    problems = []
    for path in SAMPLE_FILES:
        monster = published(path)
        data = _without_record(fmt, json.loads(wb.export_monster(monster, fmt)))
        (back,) = read_monsters(data, path.name)
        for field in ("name", "level", "organization", "role", "ev", "stamina", "free_strike", "keywords",
                      "characteristics", "size_class", "movement", "stability_value", "immunities", "weaknesses",
                      "with_captain"):
            if getattr(back, field) != getattr(monster, field):
                problems.append(f"{path.name} {field}")
        for mine, theirs in zip(monster.abilities, back.abilities, strict=True):
            same = (mine.name, mine.keywords, mine.trigger, str(mine.target), mine.distance.canonical
                    if mine.distance else None, mine.action if not mine.villain_action else None)
            other = (theirs.name, theirs.keywords, theirs.trigger, str(theirs.target), theirs.distance.canonical
                     if theirs.distance else None, theirs.action if not theirs.villain_action else None)
            if same != other:
                problems.append(f"{path.name} {mine.name}: {same} != {other}")
            if (mine.power_roll is None) != (theirs.power_roll is None):
                problems.append(f"{path.name} {mine.name}: power roll")
            elif mine.power_roll and [str(t) for t in mine.power_roll.tiers] != [str(t) for t in theirs.power_roll.tiers]:
                problems.append(f"{path.name} {mine.name}: tiers")
        if [t.name for t in back.traits] != [t.name for t in monster.traits]:
            problems.append(f"{path.name} traits")
    assert set(problems) == KNOWN_LOSSES[fmt]


def test_steel_compendium_fields_have_the_sample_shape():
    source = SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Assassin.json"
    original = json.loads(source.read_text())
    data = json.loads(wb.export_monster(published(source), "steel-compendium"))
    for key in ("type", "name", "level", "roles", "ancestry", "ev", "stamina", "speed", "movement", "size",
                "stability", "free_strike", "might", "agility", "reason", "intuition", "presence"):
        assert data[key] == original[key], key
    mine = {f["name"]: f for f in data["features"]}
    for feature in original["features"]:
        for key, value in feature.items():
            assert mine[feature["name"]][key] == value, (feature["name"], key)


def test_forge_steel_fields_types_and_enum_spellings():
    data = json.loads(wb.export_monster(homebrew_every_part(), "forge-steel"))
    for key, kind in (("id", str), ("name", str), ("description", str), ("level", int), ("keywords", list),
                      ("encounterValue", int), ("stamina", int), ("stability", int), ("freeStrikeDamage", int),
                      ("withCaptain", str), ("features", list)):
        assert isinstance(data[key], kind), key
    assert data["picture"] is None and data["retainer"] is None
    assert data["role"] == {"type": "No Role", "organization": "Leader"}
    assert data["size"] == {"value": 1, "mod": "L"}
    assert data["speed"] == {"value": 6, "modes": ["climb", "fly", "hover"]}
    assert data["freeStrikeType"] == "Damage"
    assert [c["characteristic"] for c in data["characteristics"]] == ["Might", "Agility", "Reason", "Intuition",
                                                                      "Presence"]
    assert data["state"] == {"staminaDamage": 0, "staminaTemp": 0, "recoveriesUsed": 0, "conditions": [],
                             "reactionUsed": False, "hidden": False, "defeated": False}
    by_type: dict[str, list] = {}
    for feature in data["features"]:
        assert set(feature) == {"id", "name", "description", "type", "data"}
        by_type.setdefault(feature["type"], []).append(feature)
    assert sorted(by_type) == ["Ability", "Damage Modifier", "Malice", "Text"]
    modifiers = [m for f in by_type["Damage Modifier"] for m in f["data"]["modifiers"]]
    assert {(m["damageType"], m["type"], m["value"]) for m in modifiers} == {
        ("Fire", "Immunity", 5), ("Psychic", "Immunity", 3), ("Damage", "Weakness", 2)}
    abilities = {f["name"]: f["data"]["ability"] for f in by_type["Ability"]}
    assert abilities["Cleave"]["cost"] == "signature"
    assert abilities["Hex Bolt"]["cost"] == 3
    assert abilities["Hex Bolt"]["distance"] == [
        {"type": "Melee", "value": 1, "value2": 0, "within": 0, "special": "", "qualifier": ""},
        {"type": "Ranged", "value": 10, "value2": 0, "within": 0, "special": "", "qualifier": ""}]
    assert abilities["Spit Line"]["distance"][0] | {} == {"type": "Line", "value": 10, "value2": 2, "within": 1,
                                                         "special": "", "qualifier": ""}
    assert abilities["Fume"]["type"]["usage"] == "Villain Action" and abilities["Fume"]["type"]["order"] == 2
    assert abilities["Dodge"]["type"]["usage"] == "Triggered Action" and abilities["Dodge"]["type"]["free"] is True
    assert abilities["Menace"]["type"]["usage"] == "Maneuver" and abilities["Menace"]["type"]["free"] is True
    roll = next(s for s in abilities["Hex Bolt"]["sections"] if s["type"] == "roll")["roll"]
    assert roll == {"characteristic": ["Presence"], "bonus": 4,
                    "tier1": "5 corruption or fire damage; P < 2 weakened (save ends)",
                    "tier2": "8 corruption or fire damage; P < 3 weakened (save ends)",
                    "tier3": "10 corruption or fire damage; P < 4 weakened (save ends)"}
    field = next(s for s in abilities["Hex Bolt"]["sections"] if s["type"] == "field")
    assert field == {"type": "field", "name": "", "value": 2, "repeatable": True,
                     "effect": "One more target for each 2 Malice."}
    malice = by_type["Malice"][0]["data"]
    assert malice["cost"] == 5 and malice["sections"] == ["Each enemy in a 3 cube takes 4 damage."]
    # the homebrew rule module has no place in Forge Steel: it is in the description, in words
    assert "Homebrew rule: exploitable-weakness (damage_type fire, value 5)" in data["description"]


def test_foundry_fields_types_and_enum_spellings():
    data = json.loads(wb.export_monster(homebrew_every_part(), "foundry"))
    assert data["type"] == "npc" and data["effects"] == [] and isinstance(data["img"], str)
    system = data["system"]
    assert system["stamina"] == {"value": 130, "max": 130, "temporary": 0}
    assert system["characteristics"]["might"] == {"value": 4}
    assert system["combat"]["size"] == {"value": 1, "letter": "L"} and system["combat"]["stability"] == 3
    assert system["combat"]["save"] == {"threshold": 6, "bonus": ""}
    assert system["movement"] == {"value": 6, "types": ["walk", "climb", "fly"], "hover": True, "disengage": 1}
    assert system["damage"]["immunities"]["fire"] == 5 and system["damage"]["immunities"]["all"] == 0
    assert system["damage"]["weaknesses"]["all"] == 2
    assert set(system["damage"]["immunities"]) == {"all", "acid", "cold", "corruption", "fire", "holy", "lightning",
                                                   "poison", "psychic", "sonic"}
    assert system["monster"] == {"freeStrike": 5, "keywords": ["humanoid", "orc"], "level": 4, "ev": 30,
                                 "role": "", "organization": "leader"}
    assert system["ev"] == 30
    assert system["biography"]["languages"] == [] and "exploitable-weakness" in system["biography"]["value"]
    assert set(system["negotiation"]) == {"interest", "patience", "motivations", "pitfalls", "impression"}
    items = {i["name"]: i for i in data["items"]}
    assert all(len(i["_id"]) == 16 and i["_id"].isalnum() for i in data["items"])
    cleave = items["Cleave"]["system"]
    assert items["Cleave"]["type"] == "ability"
    assert (cleave["type"], cleave["category"], cleave["resource"]) == ("main", "signature", None)
    assert cleave["keywords"] == ["melee", "strike", "weapon"]
    assert cleave["distance"] == {"type": "melee", "primary": "2", "secondary": "", "tertiary": ""}
    assert cleave["target"] == {"type": "creatureObject", "custom": "Two creatures or objects", "value": 2}
    effects = list(cleave["power"]["effects"].values())
    first, second = (e["damage"] for e in effects if e["type"] == "damage")  # "15 damage, 3 fire damage": two parts
    assert [first[f"tier{n}"]["value"] for n in (1, 2, 3)] == ["8", "12", "15"]
    assert [second[f"tier{n}"]["value"] for n in (1, 2, 3)] == ["0", "0", "3"]  # "0": Foundry fills "" from tier 1
    assert second["tier3"]["types"] == ["fire"] and first["tier3"]["types"] == []
    other = next(e for e in effects if e["type"] == "other")["other"]
    assert other["tier2"]["display"] == "{{potency}} prone"
    assert other["tier2"]["potency"] == {"value": "2", "characteristic": "might"}
    hex_bolt = items["Hex Bolt"]["system"]
    assert (hex_bolt["type"], hex_bolt["category"], hex_bolt["resource"]) == ("main", "heroic", 3)
    assert hex_bolt["distance"] == {"type": "meleeRanged", "primary": "1", "secondary": "10", "tertiary": ""}
    assert hex_bolt["power"]["roll"]["characteristics"] == ["presence"]
    assert items["Spit Line"]["system"]["distance"] == {"type": "line", "primary": "10", "secondary": "2",
                                                       "tertiary": "1"}
    assert items["Fume"]["system"]["type"] == "villain" and items["Fume"]["system"]["category"] == "villain"
    assert items["Dodge"]["system"]["type"] == "freeTriggered"
    assert items["Menace"]["system"]["type"] == "freeManeuver"
    assert items["Stride"]["system"]["type"] == "move"
    assert items["Command"]["system"]["type"] == "none"
    assert items["Stonebound"]["type"] == "feature"
    assert items["Stonebound"]["system"]["description"]["value"] == "<p>The leader can&#39;t be moved by a slide.</p>"
    assert "Rockfall (5 Malice)" in items


def test_a_published_rolls_bonus_becomes_the_characteristic_foundry_rolls():
    monster = published(SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Assassin.json")
    data = json.loads(wb.export_monster(monster, "foundry"))
    sword = next(i for i in data["items"] if i["name"] == "Sword Stab")
    assert sword["system"]["power"]["roll"]["characteristics"] == ["agility"]  # agility +2, the printed bonus


FOUNDRY_NPC = {  # a hand-made actor in the system's shape, as Foundry's "Export Data" writes one
    "name": "Bog Lurker",
    "type": "npc",
    "img": "icons/svg/mystery-man.svg",
    "system": {
        "stamina": {"value": 40, "max": 40, "temporary": 0},
        "characteristics": {"might": {"value": 2}, "agility": {"value": 1}, "reason": {"value": -1},
                            "intuition": {"value": 0}, "presence": {"value": -2}},
        "combat": {"save": {"threshold": 6, "bonus": ""}, "size": {"value": 2, "letter": "M"}, "stability": 2,
                   "turns": 1},
        "movement": {"value": 5, "types": ["walk", "swim"], "hover": False, "disengage": 1},
        "damage": {"immunities": {"all": 0, "acid": 0, "cold": 0, "corruption": 0, "fire": 0, "holy": 0,
                                  "lightning": 0, "poison": 4, "psychic": 0, "sonic": 0},
                   "weaknesses": {"all": 0, "acid": 0, "cold": 0, "corruption": 0, "fire": 3, "holy": 0,
                                  "lightning": 0, "poison": 0, "psychic": 0, "sonic": 0}},
        "biography": {"value": "", "director": "", "languages": []},
        "source": {"book": "", "page": "", "license": ""},
        "negotiation": {"interest": 5, "patience": 5, "motivations": [], "pitfalls": [], "impression": 1},
        "ev": 8,
        "monster": {"freeStrike": 3, "keywords": ["beast"], "level": 2, "ev": 8, "role": "brute",
                    "organization": "platoon"},
    },
    "items": [
        {"_id": "aaaaaaaaaaaaaaa1", "name": "Mire Grip", "type": "ability", "sort": 0, "system": {
            "type": "main", "category": "signature", "resource": None, "keywords": ["melee", "strike"],
            "trigger": "", "distance": {"type": "melee", "primary": "1", "secondary": "", "tertiary": ""},
            "target": {"type": "creature", "custom": "One creature", "value": 1},
            "power": {"roll": {"formula": "@chr", "characteristics": ["might"]}, "effects": {
                "d1": {"_id": "d1", "type": "damage", "damage": {
                    "tier1": {"value": "5", "types": [], "potency": {"value": "", "characteristic": "none"}},
                    "tier2": {"value": "7", "types": [], "potency": {"value": "", "characteristic": "none"}},
                    "tier3": {"value": "9", "types": ["poison"], "potency": {"value": "", "characteristic": "none"}}}},
                "o1": {"_id": "o1", "type": "other", "other": {
                    "tier1": {"display": "", "potency": {"value": "", "characteristic": "none"}},
                    "tier2": {"display": "{{potency}} restrained (save ends)",
                              "potency": {"value": "1", "characteristic": "might"}},
                    "tier3": {"display": "{{potency}} restrained (save ends)",
                              "potency": {"value": "2", "characteristic": "might"}}}}}},
            "effect": {"before": "", "after": "<p>The lurker sinks back into the mud.</p>"},
            "spend": {"value": None, "text": ""}, "story": "Hands from the bog."}},
        {"_id": "aaaaaaaaaaaaaaa2", "name": "Murk", "type": "feature", "sort": 100,
         "system": {"description": {"value": "<p>The lurker is hidden while in water.</p>"}}},
    ],
    "effects": [],
    "flags": {},
}

# The fields of an actor the workbench models: what a Foundry → workbench → Foundry trip must keep.
MODELLED_ACTOR = ("name", "type", "system.stamina.max", "system.characteristics", "system.combat.size",
                  "system.combat.stability", "system.movement.value", "system.movement.types",
                  "system.movement.hover", "system.damage", "system.ev", "system.monster")
MODELLED_ABILITY = ("name", "type", "system.type", "system.category", "system.resource", "system.keywords",
                    "system.trigger", "system.distance", "system.target", "system.power.roll.characteristics",
                    "system.effect", "system.story")


def _at(data: dict, path: str):
    for key in path.split("."):
        data = data[key]
    return data


def test_foundry_to_workbench_to_foundry_keeps_every_modelled_field():
    monster = foundry.read_foundry(json.loads(json.dumps(FOUNDRY_NPC)), "bog-lurker.json")
    assert (monster.level, monster.organization, monster.role, monster.ev, monster.stamina) == (2, "platoon", "brute",
                                                                                                8, 40)
    assert monster.abilities[0].power_roll.bonus == 2  # Foundry rolls might (+2)
    assert str(monster.abilities[0].power_roll.tier3) == "9 poison damage; M < 2 restrained (save ends)"
    again = json.loads(wb.export_monster(monster, "foundry"))
    for path in MODELLED_ACTOR:
        assert _at(again, path) == _at(FOUNDRY_NPC, path), path
    mine = next(i for i in again["items"] if i["name"] == "Mire Grip")
    for path in MODELLED_ABILITY:
        assert _at(mine, path) == _at(FOUNDRY_NPC["items"][0], path), path
    tiers = {e["type"]: e for e in mine["system"]["power"]["effects"].values()}
    original = {e["type"]: e for e in FOUNDRY_NPC["items"][0]["system"]["power"]["effects"].values()}
    for n in (1, 2, 3):
        for key in ("value", "types"):
            assert tiers["damage"]["damage"][f"tier{n}"][key] == original["damage"]["damage"][f"tier{n}"][key]
        assert tiers["other"]["other"][f"tier{n}"] == original["other"]["other"][f"tier{n}"]
    trait = next(i for i in again["items"] if i["name"] == "Murk")
    assert trait["system"]["description"]["value"] == FOUNDRY_NPC["items"][1]["system"]["description"]["value"]


FORGE_STEEL_MONSTER = {  # a hand-made .ds-monster in Forge Steel's shape
    "id": "my-own-id", "name": "Reed Sprite", "description": "Small and quick.", "picture": None, "level": 1,
    "role": {"type": "Harrier", "organization": "Minion"}, "keywords": ["Fey"], "encounterValue": 3,
    "size": {"value": 1, "mod": "T"}, "speed": {"value": 6, "modes": ["fly"]}, "stamina": 4, "stability": 0,
    "freeStrikeDamage": 1, "freeStrikeType": "Damage",
    "characteristics": [{"characteristic": c, "value": v} for c, v in
                        (("Might", -1), ("Agility", 2), ("Reason", 0), ("Intuition", 1), ("Presence", 0))],
    "withCaptain": "+1 damage bonus to strikes",
    "features": [
        {"id": "f1", "name": "Prick", "description": "", "type": "Ability", "data": {"ability": {
            "id": "a1", "name": "Prick", "description": "", "type": {"usage": "Main Action", "free": False,
                                                                     "trigger": "", "time": "", "qualifiers": [],
                                                                     "freeStrike": False},
            "keywords": ["Melee", "Strike", "Weapon"],
            "distance": [{"type": "Melee", "value": 1, "value2": 0, "within": 0, "special": "", "qualifier": ""}],
            "target": "One creature or object per minion", "cost": "signature", "repeatable": False, "minLevel": 1,
            "sections": [{"type": "roll", "roll": {"characteristic": ["Agility"], "bonus": 2, "tier1": "1 damage",
                                                   "tier2": "2 damage", "tier3": "3 damage; A < 1 slowed (save ends)"}}]}}},
        {"id": "f2", "name": "Glimmer", "description": "The sprite sheds dim light.", "type": "Text", "data": None},
    ],
    "retainer": None,
    "state": {"staminaDamage": 0, "staminaTemp": 0, "recoveriesUsed": 0, "conditions": [], "reactionUsed": False,
              "hidden": False, "defeated": False},
}


def test_a_forge_steel_malice_ability_reads_as_an_ability_and_an_unknown_feature_is_kept_as_text():
    data = json.loads(json.dumps(FORGE_STEEL_MONSTER))
    data["features"][0]["type"] = "Malice Ability"
    data["features"][0]["data"]["ability"]["cost"] = 3
    monster = forge_steel.read_forge_steel(data, "reed.ds-monster")[0]
    assert monster.abilities[0].cost == 3
    data["features"][1]["type"] = "Condition Immunity"
    monster = forge_steel.read_forge_steel(data, "reed.ds-monster")[0]
    kept = monster.kept_as_text
    assert [(k.where, k.part) for k in kept] == [("feature 'Glimmer'", "Condition Immunity")]
    assert "Glimmer" in [t.name for t in monster.traits]


def test_a_forge_steel_file_of_its_own_reads_whole_and_exports_back():
    monster = forge_steel.read_forge_steel(json.loads(json.dumps(FORGE_STEEL_MONSTER)), "reed.ds-monster")[0]
    assert (monster.organization, monster.role, monster.ev, monster.stamina) == ("minion", "harrier", 3, 4)
    assert monster.with_captain == "+1 damage bonus to strikes"
    assert str(monster.size_class) == "1T" and monster.movement.modes == ("fly",)
    assert str(monster.abilities[0].power_roll.tier3) == "3 damage; A < 1 slowed (save ends)"
    again = json.loads(wb.export_monster(monster, "forge-steel"))
    for key in ("name", "level", "role", "keywords", "encounterValue", "size", "speed", "stamina", "stability",
                "freeStrikeDamage", "freeStrikeType", "characteristics", "withCaptain", "retainer", "state"):
        assert again[key] == FORGE_STEEL_MONSTER[key], key
    ability = next(f for f in again["features"] if f["type"] == "Ability")["data"]["ability"]
    original = FORGE_STEEL_MONSTER["features"][0]["data"]["ability"]
    for key in ("name", "type", "keywords", "distance", "target", "cost", "sections"):
        assert ability[key] == original[key], key


# ---------------------------------------------------------------- ids, groups, edits


@pytest.mark.parametrize("fmt", FILE_FORMATS)
def test_exports_are_stable_so_a_reimport_is_not_a_second_copy(fmt):
    monster = homebrew_every_part()
    assert wb.export_monster(monster, fmt) == wb.export_monster(monster, fmt)
    edited = monster.model_copy(update={"stamina": 140})
    first, second = json.loads(wb.export_monster(monster, fmt)), json.loads(wb.export_monster(edited, fmt))
    if fmt == "forge-steel":
        assert first["id"] == second["id"]
        assert [f["id"] for f in first["features"]] == [f["id"] for f in second["features"]]
    elif fmt == "foundry":
        assert first["_id"] == second["_id"]
        assert [i["_id"] for i in first["items"]] == [i["_id"] for i in second["items"]]
    relevelled = monster.model_copy(update={"level": 5})
    assert json.loads(wb.export_monster(relevelled, fmt)) != first  # another monster, another file


def test_a_forge_steel_group_holds_every_monster_and_reads_back():
    monsters = [published(p) for p in SAMPLE_FILES[:5]] + [homebrew_minion()]
    text = wb.export_monsters(monsters, "forge-steel", name="Cave Raid")
    data = json.loads(text)
    assert set(data) == {"id", "name", "description", "picture", "information", "malice", "monsters", "addOns"}
    assert data["name"] == "Cave Raid" and len(data["monsters"]) == 6
    assert detect_format(data) == "forge-steel-group"
    assert read_monsters(data, "raid.ds-monster-group") == monsters


def test_an_edit_made_in_the_tool_wins_over_the_record():
    monster = homebrew_every_part()
    data = json.loads(wb.export_monster(monster, "foundry"))
    data["system"]["stamina"]["max"] = 150
    data["system"]["characteristics"]["agility"]["value"] = 3
    back = foundry.read_foundry(data, "edited.json")
    assert back.stamina == 150 and back.characteristics["agility"] == 3
    assert back.homebrew_rules == monster.homebrew_rules and back.abilities == monster.abilities
    data = json.loads(wb.export_monster(monster, "forge-steel"))
    data["encounterValue"] = 40
    assert forge_steel.read_forge_steel(data, "edited.ds-monster")[0].ev == 40


def test_an_edit_to_one_ability_in_foundry_leaves_the_others_as_recorded():
    monster = homebrew_every_part()
    data = json.loads(wb.export_monster(monster, "foundry"))
    cleave = next(i for i in data["items"] if i["name"] == "Cleave")
    damage = next(e for e in cleave["system"]["power"]["effects"].values() if e["type"] == "damage")
    damage["damage"]["tier1"]["value"] = "9"
    back = foundry.read_foundry(data, "edited.json")
    assert back.abilities[0].power_roll.tier1.damage == 9
    assert back.abilities[1:] == monster.abilities[1:]  # Hex Bolt keeps its "2+ Malice" paragraph exactly


def test_the_format_is_told_from_the_content_not_the_extension(tmp_path):
    monster = homebrew_minion()
    for fmt in FILE_FORMATS:
        path = tmp_path / f"{fmt}.txt"
        path.write_text(wb.export_monster(monster, fmt))
        assert wb.import_monster(path) == monster
    assert import_monsters(tmp_path / "foundry.txt") == [monster]


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "content, looks_like, part",
    [
        ("not json at all", "no known stat block format", "file"),  # not JSON
        ('{"hello": 1}', "no known stat block format", "top level"),  # JSON of no known shape
        ('[1, 2]', "no known stat block format", "top level"),  # a list
        # a stat block whose organization the model doesn't know
        ('{"type": "statblock", "name": "X", "level": 1, "roles": ["Boss Brute"], "ev": "3", "stamina": "5",'
         ' "speed": 5, "size": "1M", "stability": 0, "free_strike": 1, "might": 0, "agility": 0, "reason": 0,'
         ' "intuition": 0, "presence": 0, "features": []}', "Steel Compendium stat block", "roles"),
        # a Forge Steel monster of an organization neither Forge Steel nor the rules know
        ('{"name": "X", "withCaptain": "", "features": [], "role": {"type": "Brute", "organization": "Boss"}}',
         "Forge Steel .ds-monster", "role.organization"),
        # a Foundry actor with a distance kind the system does not have
        (json.dumps({**FOUNDRY_NPC, "items": [{**FOUNDRY_NPC["items"][0], "system": {
            **FOUNDRY_NPC["items"][0]["system"], "distance": {"type": "teleport", "primary": 3}}}]}),
         "Foundry VTT Draw Steel NPC", "distance.type"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_naming_file_format_and_part(tmp_path, content, looks_like, part):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ImportRefused) as caught:
        wb.import_monster(path)
    assert caught.value.source == str(path)
    assert caught.value.format == looks_like
    assert part in caught.value.part
    assert str(path) in str(caught.value) and looks_like in str(caught.value)


def test_a_refused_ability_names_the_ability():
    data = json.loads(wb.export_monster(homebrew_minion(), "steel-compendium"))
    data.pop("metadata")
    data["features"].append({"type": "feature", "feature_type": "ability", "name": "Odd", "usage": "Main action",
                             "keywords": ["Unheard"], "effects": [{"effect": "x"}]})
    with pytest.raises(ImportRefused) as caught:
        steel_compendium.read_steel_compendium(data, "odd.json")
    assert "'Odd'" in caught.value.part and "keywords" in caught.value.part


def test_export_refuses_an_unknown_format_naming_what_it_accepts():
    with pytest.raises(wb.InvalidInput) as caught:
        wb.export_monster(homebrew_minion(), "roll20")
    assert caught.value.field == "format" and "forge-steel" in caught.value.accepts


def test_text_formats_are_str_and_markdown_html_escape_user_text():
    monster = homebrew_every_part()
    page = wb.export_monster(monster, "html")
    assert isinstance(page, str) and page.startswith("<!DOCTYPE html>")
    assert "Stonecaller &lt;b&gt;Vex&lt;/b&gt; &amp; Co" in page and "<b>Vex</b>" not in page
    markdown = wb.export_monster(monster, "markdown")
    assert "<b>Vex</b>" not in markdown and "Vex" in markdown


def test_the_record_key_is_where_each_format_keeps_it():
    monster = homebrew_minion()
    assert RECORD_KEY in json.loads(wb.export_monster(monster, "steel-compendium"))["metadata"]
    assert RECORD_KEY in json.loads(wb.export_monster(monster, "foundry"))["flags"]
    assert json.loads(wb.export_monster(monster, "forge-steel"))["description"].splitlines()[-1].startswith(
        RECORD_PREFIX)
