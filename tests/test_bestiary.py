"""Reading published stat blocks: every sample file parses, and a broken or foreign file is reported by name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.errors import InvalidInput
from workbench.formats.bestiary import (
    SAMPLE_DIR,
    StatBlockError,
    load_bestiary,
    parse_stat_block,
    sample_bestiary,
    tier_damage,
)

SAMPLE_FILES = sorted(p for p in SAMPLE_DIR.rglob("*.json"))


def _stat_block(**changes):
    """A minimal stat block in the sample's shape (the goblin runner's numbers)."""
    block = {
        "type": "statblock",
        "name": "Test Runner",
        "level": 1,
        "roles": ["Minion Harrier"],
        "ev": "3 for four minions",
        "stamina": "4",
        "free_strike": 1,
        "might": -2,
        "agility": 2,
        "reason": 0,
        "intuition": 0,
        "presence": -1,
        "features": [
            {
                "type": "feature",
                "feature_type": "ability",
                "name": "Club Charge",
                "ability_type": "Signature Ability",
                "keywords": ["Charge", "Melee", "Strike", "Weapon"],
                "target": "One creature or object per minion",
                "effects": [{"roll": "Power Roll + 2", "tier1": "1 damage", "tier2": "2 damage",
                             "tier3": "3 damage"}],
            }
        ],
    }
    block.update(changes)
    return block


def test_the_sample_holds_49_files_with_its_attribution():
    # README: "49 stat blocks from the Draw Steel Monsters book"; the LICENSE text is kept beside them.
    assert len(SAMPLE_FILES) == 49
    assert "DRAW STEEL Creator License" in (SAMPLE_DIR / "LICENSE").read_text()
    assert "Steel Compendium" in (SAMPLE_DIR / "README.md").read_text()


def test_every_sample_file_parses():
    bestiary = sample_bestiary()
    assert [f.file for f in bestiary.failures] == []
    assert len(bestiary.monsters) == len(SAMPLE_FILES)
    assert {m.file for m in bestiary.monsters} == {p.relative_to(SAMPLE_DIR).as_posix() for p in SAMPLE_FILES}


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_each_sample_file_reads_as_its_json_says(path: Path):
    raw = json.loads(path.read_text())
    monster = sample_bestiary().named(raw["name"])
    assert monster.level == raw["level"]
    assert monster.stamina == int(raw["stamina"])
    assert monster.free_strike == raw["free_strike"]
    assert monster.ev == int(raw["ev"].split()[0])  # "3 for four minions" -> 3 (the EV of four)
    words = raw["roles"][0].lower().split()
    assert monster.organization == words[0]
    assert monster.role == (words[1] if len(words) > 1 else None)
    assert monster.highest_characteristic == max(
        raw[k] for k in ("might", "agility", "reason", "intuition", "presence")
    )
    signatures = [f for f in raw["features"] if f.get("ability_type") == "Signature Ability"]
    assert monster.signature_count == len(signatures)
    assert monster.signature.name == signatures[0]["name"]
    assert monster.signature.target == signatures[0]["target"]
    assert monster.signature.damage is not None


@pytest.mark.parametrize(
    ("name", "organization", "role", "ev", "stamina", "free_strike", "damage", "strike"),
    [
        # Goblin Runner: "Minion Harrier", ev "3 for four minions", "1 damage" / "2 damage" / "3 damage"
        ("Goblin Runner", "minion", "harrier", 3, 4, 1, (1, 2, 3), True),
        # Werewolf: "Solo", ev "36", stamina "200", "9 damage; the target gains 2 rage" ...
        ("Werewolf", "solo", None, 36, 200, 5, (9, 13, 16), True),
        # Goblin Monarch: "Leader", ev "12", stamina "80", "7 damage" / "10 damage" / "13 damage"
        ("Goblin Monarch", "leader", None, 12, 80, 4, (7, 10, 13), True),
        # Death Captain: "8 damage" / "8 damage, 4 corruption damage" / "8 damage, 7 corruption damage"
        ("Hobgoblin Death Captain", "platoon", "support", 12, 60, 5, (8, 12, 15), True),
        # Burning Witch: "4 corruption or fire damage" / "6 corruption or fire damage" / "8 ..."
        ("Hobgoblin Burning Witch", "platoon", "controller", 12, 50, 5, (4, 6, 8), True),
        # Goblin Stinker: keywords Area, Magic, Ranged (no Strike); "1 poison damage; slide 1" ...
        ("Goblin Stinker", "horde", "controller", 3, 10, 1, (1, 2, 3), False),
    ],
)
def test_hand_read_stat_blocks(name, organization, role, ev, stamina, free_strike, damage, strike):
    m = sample_bestiary().named(name)
    assert (m.organization, m.role, m.ev, m.stamina, m.free_strike) == (
        organization, role, ev, stamina, free_strike,
    )
    assert m.signature.damage == damage
    assert m.signature.is_strike is strike


def test_medusa_has_two_signature_abilities_and_the_first_is_compared():
    medusa = sample_bestiary().named("medusa")
    assert medusa.signature_count == 2
    assert medusa.signature.name == "Snake Bites"  # first in book order; the second is Damning Gaze


@pytest.mark.parametrize(
    ("ev", "roles", "expected"),
    [
        ("3 for four minions", ["Minion Harrier"], 3),  # the sample's usual form
        ("7 for 4 minions", ["Minion Brute"], 7),  # the README's other form, "for 4 minions"
        ("12", ["Elite Brute"], 12),  # a plain number as text
        (12, ["Elite Brute"], 12),  # a JSON number
        (" 16 ", ["Platoon Hexer"], 16),  # stray spaces
    ],
)
def test_ev_forms(ev, roles, expected):
    assert parse_stat_block(_stat_block(ev=ev, roles=roles)).ev == expected


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"ev": "lots"}, "'ev'"),  # not a number
        ({"ev": "for four minions"}, "'ev'"),  # the count of minions but no EV
        ({"ev": "-"}, "'ev'"),  # a creature with no EV printed: nothing to compare
        ({"ev": "19/40"}, "'ev'"),  # two EVs in one field: which one the formula means is not known
        ({"ev": "3 for four minions", "roles": ["Horde Harrier"]}, "not a minion"),
        ({"roles": ["Captain"]}, "organization"),  # no organization word
        ({"roles": ["Minion"]}, "needs exactly one role"),  # a minion needs a role
        ({"roles": ["Solo Brute"]}, "has no creature role"),  # a solo takes none
        ({"stamina": "many"}, "'stamina'"),
        ({"level": 0}, "'level'"),
        ({"level": None}, "no 'level'"),
        ({"type": "Malice Features"}, "not a stat block"),
        ({"name": ""}, "no 'name'"),
    ],
)
def test_bad_stat_blocks_say_why(changes, words):
    with pytest.raises(StatBlockError) as caught:
        parse_stat_block(_stat_block(**changes), source="x.json")
    assert words in caught.value.reason
    assert caught.value.code == "invalid-stat-block"
    assert str(caught.value).startswith("x.json: ")


def test_a_single_role_field_is_read_too():
    block = _stat_block()
    del block["roles"]
    block["role"] = "Minion Artillery"
    assert parse_stat_block(block).role == "artillery"


def test_older_transcription_shape_is_read():
    # The transcription's older shape: "abilities", "cost": "Signature Ability", "t1".."t3".
    block = _stat_block(features=None)
    del block["type"]
    block["abilities"] = [
        {"name": "Natural Weapon", "cost": "Signature Ability", "keywords": ["Melee", "Strike", "Weapon"],
         "target": "Two creatures or objects",
         "effects": [{"roll": "Power Roll + 2", "t1": "7 damage", "t2": "10 damage; M < 1 prone",
                      "t3": "13 damage; M < 1 prone"}]}
    ]
    block.update(roles=["Elite Brute"], ev="12", stamina="80", free_strike=5)
    m = parse_stat_block(block)
    assert m.signature.damage == (7, 10, 13)
    assert m.signature.target == "Two creatures or objects"


def test_broken_and_foreign_files_are_reported_by_name_and_the_rest_load(tmp_path: Path):
    shutil.copytree(SAMPLE_DIR / "Goblins", tmp_path / "Goblins")
    (tmp_path / "broken.json").write_text('{"name": "Half a goblin", ')
    (tmp_path / "Goblins" / "Features").mkdir()
    (tmp_path / "Goblins" / "Features" / "Goblin Malice.json").write_text(
        json.dumps({"name": "Goblin Malice", "type": "Malice Features", "features": []})
    )
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "list.json").write_text("[1, 2]")
    (tmp_path / "deep" / "er" / "nameless.json").write_text(json.dumps(_stat_block(name=None)))
    (tmp_path / "notes.md").write_text("not JSON, not searched")
    (tmp_path / "latin1.json").write_bytes(b'{"name": "caf\xe9"}')

    bestiary = load_bestiary(tmp_path)
    reasons = {f.file: f.reason for f in bestiary.failures}
    assert set(reasons) == {
        "broken.json", "Goblins/Features/Goblin Malice.json", "deep/er/list.json", "deep/er/nameless.json",
        "latin1.json",
    }
    assert reasons["broken.json"].startswith("not valid JSON")
    assert "not a stat block" in reasons["Goblins/Features/Goblin Malice.json"]
    assert "not a stat block" in reasons["deep/er/list.json"]
    assert reasons["deep/er/nameless.json"] == "no 'name'"
    assert reasons["latin1.json"] == "not UTF-8 text"
    assert len(bestiary.monsters) == len(list((SAMPLE_DIR / "Goblins").rglob("*.json")))


def test_progress_is_told_once_the_files_are_found_and_after_each_file_bad_ones_too(tmp_path: Path):
    # an app draws its progress bar from these calls: (0, total) before the first file, then one per file
    shutil.copytree(SAMPLE_DIR / "Goblins", tmp_path / "Goblins")
    (tmp_path / "broken.json").write_text("{")
    total = len(list(tmp_path.rglob("*.json")))
    calls: list[tuple[int, int]] = []
    bestiary = load_bestiary(tmp_path, progress=lambda done, of: calls.append((done, of)))
    assert calls == [(done, total) for done in range(total + 1)]
    assert len(bestiary.monsters) + len(bestiary.failures) == total and len(bestiary.failures) == 1


def test_a_folder_far_too_big_is_refused_by_name_not_searched_for_minutes(tmp_path: Path, monkeypatch):
    # a home folder typed into the bestiary box by mistake: refused once the search passes the cap
    import workbench.formats.bestiary as bestiary_module

    monkeypatch.setattr(bestiary_module, "MAX_FOLDER_FILES", 5)
    for n in range(6):
        (tmp_path / f"notes {n}.txt").write_text("not a stat block")
    with pytest.raises(InvalidInput) as caught:
        load_bestiary(tmp_path)
    assert caught.value.field == "path" and "more than 5 files" in str(caught.value)
    (tmp_path / "notes 5.txt").unlink()
    assert load_bestiary(tmp_path).monsters == ()  # five files: searched


def test_one_file_can_be_loaded_and_a_missing_path_is_refused(tmp_path: Path):
    one = load_bestiary(SAMPLE_FILES[0])
    assert len(one.monsters) == 1 and one.failures == ()
    with pytest.raises(InvalidInput) as caught:
        load_bestiary(tmp_path / "nowhere")
    assert caught.value.code == "invalid-path"


def test_an_empty_folder_loads_nothing(tmp_path: Path):
    assert load_bestiary(tmp_path).monsters == ()


@pytest.mark.parametrize(
    ("text", "damage"),
    [
        ("7 damage; pull 2", 7),  # the usual form
        ("4 corruption or fire damage", 4),  # a choice of types
        ("8 damage, 7 corruption damage", 15),  # two amounts before the first ";" add up
        ("4 damage; A < 1 2 damage, prone", 4),  # amounts after ";" are effects, not the tier's damage
        ("M < 2 slowed (save ends)", None),  # no damage at all
        ("12 damage", 12),
    ],
)
def test_tier_damage(text, damage):
    assert tier_damage(text) == damage


@given(st.integers(0, 200), st.integers(0, 200), st.sampled_from(["fire", "corruption", "psychic"]))
def test_tier_damage_adds_every_amount_before_the_effects(a, b, kind):
    assert tier_damage(f"{a} damage, {b} {kind} damage; push {a + 1}") == a + b
