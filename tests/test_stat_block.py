"""Published stat blocks read whole: every number and text equal to the file's, for all 49 samples.

The expected values come from the raw JSON read here with the json module and this file's own small
regular expressions, never from the reader's helpers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from workbench.formats.bestiary import SAMPLE_DIR, StatBlockError
from workbench.formats.stat_block import read_stat_block
from workbench.model import Effect, PowerRoll

SAMPLES = sorted(SAMPLE_DIR.rglob("*.json"))
GOBLIN_WARRIOR = SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Warrior.json"


def test_there_are_49_samples():
    assert len(SAMPLES) == 49


def leading_damage(text: str) -> int | None:
    head = text.split(";", 1)[0]
    amounts = [int(n) for n in re.findall(r"(\d+) (?:[a-z]+ (?:or [a-z]+ )?)?damage", head)]
    return sum(amounts) if amounts else None


def first_potency(text: str) -> tuple[str, int] | None:
    match = re.search(r"\b([MARIP]) < (-?\d+)", text)
    return (match.group(1), int(match.group(2))) if match else None


def check_sections(raw_effects, ability, where):
    sections = [*ability.effects_before, *([ability.power_roll] if ability.power_roll else []),
                *ability.effects_after]
    assert len(sections) == len(raw_effects), where
    for raw, section in zip(raw_effects, sections, strict=True):
        if "roll" in raw:
            assert isinstance(section, PowerRoll), where
            sign, number = re.fullmatch(r"Power Roll ([+-]) (\d+)", raw["roll"]).groups()
            assert section.bonus == int(number) * (1 if sign == "+" else -1), where
            assert section.roll_text == raw["roll"]
            tiers = section.tiers
        else:
            assert isinstance(section, Effect), where
            assert section.text == raw.get("effect", "") and section.name == raw.get("name"), where
            assert section.cost_text == raw.get("cost", ""), where
            tiers = section.tiers or ()
        for number, tier in enumerate(tiers, start=1):
            text = raw[f"tier{number}"]
            assert str(tier) == text, where
            assert tier.damage == leading_damage(text), (where, text)
            potency = first_potency(text)
            assert (None if tier.potency is None else (tier.potency.letter, tier.potency.value)) == potency, text


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_is_read_whole_with_the_files_numbers_and_words(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    monster = read_stat_block(path)
    assert monster.name == raw["name"] and monster.level == raw["level"]
    assert monster.ev == int(re.match(r"\d+", raw["ev"]).group())
    assert (monster.stamina, monster.free_strike) == (int(raw["stamina"]), raw["free_strike"])
    for key in ("might", "agility", "reason", "intuition", "presence"):
        assert monster.characteristics[key] == raw[key], key
    assert monster.highest_characteristic == max(raw[k] for k in ("might", "agility", "reason", "intuition",
                                                                   "presence"))
    assert str(monster.size_class) == raw["size"]
    assert monster.movement.speed == raw["speed"]
    assert monster.movement.modes_text == raw.get("movement", "")
    assert monster.stability_value == raw["stability"]
    assert [str(m) for m in monster.immunities] == raw.get("immunities", [])
    assert [str(m) for m in monster.weaknesses] == raw.get("weaknesses", [])
    assert monster.with_captain == raw.get("with_captain", "")
    assert list(monster.keywords) == raw["ancestry"]
    raw_abilities = [f for f in raw["features"] if f["feature_type"] == "ability"]
    raw_traits = [f for f in raw["features"] if f["feature_type"] == "trait"]
    assert [a.name for a in monster.abilities] == [f["name"] for f in raw_abilities]
    assert [t.name for t in monster.traits] == [f["name"] for f in raw_traits]
    for feature, ability in zip(raw_abilities, monster.abilities, strict=True):
        where = f"{path.stem}: {ability.name}"
        assert ability.cost_text == feature.get("ability_type", feature.get("cost", "")), where
        assert ability.action_text.lower() == feature["usage"].lower(), where
        assert list(ability.keywords) == ([] if feature["keywords"] == ["-"] else feature["keywords"]), where
        assert str(ability.distance) == feature["distance"], where
        assert str(ability.target) == feature["target"], where
        assert ability.trigger == feature.get("trigger", ""), where
        check_sections(feature["effects"], ability, where)
    for feature, trait in zip(raw_traits, monster.traits, strict=True):
        assert [(e.name, e.text) for e in trait.effects] == [(e.get("name"), e["effect"]) for e in feature["effects"]]


def test_the_public_contract_on_the_goblin_warrior():
    import workbench as wb

    p = wb.read_stat_block(GOBLIN_WARRIOR)
    assert (p.name, p.level, p.organization, p.role, p.ev, p.stamina, p.free_strike) == (
        "Goblin Warrior", 1, "horde", "harrier", 3, 15, 1)
    assert p.characteristics["agility"] == 2
    a = p.abilities[0]
    assert (a.name, a.cost, a.power_roll.bonus, a.power_roll.tier1.damage) == ("Spear Charge", "signature", 2, 3)
    assert p.abilities[1].cost == 2  # Bury the Point, 2 Malice
    assert (p.damage.tier1, p.damage.tier2, p.damage.tier3) == (3, 4, 5)  # the signature's own


def older_shape(raw: dict) -> dict:
    """The transcription's older shape: `abilities` with `cost` and `t1`..`t3`; traits stay in features."""
    out = {k: v for k, v in raw.items() if k != "features"}
    out["features"] = [f for f in raw["features"] if f["feature_type"] == "trait"]
    out["abilities"] = []
    for feature in raw["features"]:
        if feature["feature_type"] != "ability":
            continue
        ability = {k: v for k, v in feature.items() if k not in ("ability_type", "feature_type")}
        if "ability_type" in feature:
            ability["cost"] = feature["ability_type"]
        ability["effects"] = [
            {{"tier1": "t1", "tier2": "t2", "tier3": "t3"}.get(k, k): v for k, v in e.items()}
            for e in feature["effects"]
        ]
        out["abilities"].append(ability)
    return out


def test_the_older_shape_reads_the_same(tmp_path):
    raw = json.loads(GOBLIN_WARRIOR.read_text(encoding="utf-8"))
    path = tmp_path / "Goblin Warrior.json"
    path.write_text(json.dumps(older_shape(raw)), encoding="utf-8")
    assert read_stat_block(path) == read_stat_block(GOBLIN_WARRIOR)


def spoiled(tmp_path: Path, change) -> Path:
    raw = json.loads(GOBLIN_WARRIOR.read_text(encoding="utf-8"))
    change(raw)
    path = tmp_path / "Spoiled Goblin.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def set_in_first_ability(key, value):
    def change(raw):
        raw["features"][0][key] = value
    return change


@pytest.mark.parametrize(
    "change, part",
    [
        (set_in_first_ability("keywords", ["Melee", "Sneaky"]), "ability 'Spear Charge': keywords"),
        (set_in_first_ability("usage", "Bonus action"), "ability 'Spear Charge': action"),
        (set_in_first_ability("effects", [{"roll": "Power Roll + 2", "tier1": "3 blorp damage",
                                           "tier2": "4 damage", "tier3": "5 damage"}]),
         "ability 'Spear Charge', effect 1, tier 1: types"),
        (set_in_first_ability("effects", [{"roll": "Power Roll + 2", "tier1": "3 damage; M < 9 prone",
                                           "tier2": "4 damage", "tier3": "5 damage"}]),
         "ability 'Spear Charge', effect 1, tier 1: potency.value"),
        (set_in_first_ability("effects", [{"roll": "Power Roll + lots", "tier1": "3 damage",
                                           "tier2": "4 damage", "tier3": "5 damage"}]),
         "ability 'Spear Charge', effect 1, roll"),
        (set_in_first_ability("range", "far"), "features 1: unknown key(s) 'range'"),
        (lambda raw: raw.update(size="huge"), "size"),
        (lambda raw: raw.update(movement="Walk"), "speed: modes"),
        (lambda raw: raw.update(immunities=["Fire 5 or so"]), "immunities"),
        (lambda raw: raw.update(lair="a cave"), "unknown key(s) 'lair'"),
        (lambda raw: raw.update(might="strong"), "'might'"),
    ],
)
def test_a_file_it_cannot_read_fully_is_refused_naming_the_file_and_the_part(tmp_path, change, part):
    with pytest.raises(StatBlockError) as caught:
        read_stat_block(spoiled(tmp_path, change))
    assert caught.value.source == "Spoiled Goblin.json"
    assert part in caught.value.reason, caught.value.reason
