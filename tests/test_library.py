"""The homebrew library: atomic saves, no silent overwrites, corrupt and foreign files reported by name."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import monsters

from workbench import InvalidInput, build_monster, core_ruleset
from workbench.io import writing
from workbench.io.lock import JOURNAL_NAME, LOCK_NAME
from workbench.model import CHARACTERISTICS
from workbench.monster import library as lib
from workbench.monster.library import (
    SCHEMA_PATH,
    LibraryError,
    NameTaken,
    delete_monster,
    list_monsters,
    load_entry,
    load_library,
    load_monster,
    rename_monster,
    save_monster,
    schema_text,
)
from workbench.monster.signature import signature_choices


def goblin(name: str = "Goblin Sneak", level: int = 1):
    return build_monster(level, "platoon", "ambusher").model_copy(
        update={"name": name, "keywords": ("Goblin", "Humanoid"), "speed": "6"}
    )


# ---------------------------------------------------------------- round trip


text = st.text(max_size=40)


@settings(max_examples=60)
@given(monster=monsters(words=text, names=text))
def test_any_valid_monster_round_trips(monster):
    with tempfile.TemporaryDirectory() as folder:
        save_monster(monster, "saved", folder)
        entry = load_entry("saved", folder)
        assert entry.monster == monster
        assert entry.changed == ()
        assert list_monsters(folder) == ["saved"]


@settings(max_examples=30)
@given(level=st.integers(1, 10), characteristic=st.sampled_from(CHARACTERISTICS), strike=st.booleans(),
       signature=st.sampled_from(("", "Club Sweep")))
def test_a_formula_monster_round_trips_with_its_characteristic_and_signature_ability(level, characteristic,
                                                                                     strike, signature):
    monster = build_monster(level, "elite", "brute", characteristic=characteristic, strike=strike).model_copy(
        update={"signature_name": signature})
    with tempfile.TemporaryDirectory() as folder:
        save_monster(monster, "saved", folder)
        entry = load_entry("saved", folder)
    assert entry.monster == monster
    assert (entry.characteristic, entry.strike) == (characteristic, strike)  # the file names them too
    assert signature_choices(entry.monster) == (characteristic, strike)


def test_file_stores_inputs_text_and_numbers(tmp_path):
    path = save_monster(goblin(), folder=tmp_path)
    assert path == tmp_path / "Goblin Sneak.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "drawsteel-workbench/homebrew-monster"
    assert (data["level"], data["organization"], data["role"], data["extra_stamina"], data["targets"]) == (
        1, "platoon", "ambusher", False, 1,
    )
    assert data["keywords"] == ["Goblin", "Humanoid"]
    # Level 1 platoon ambusher: EV = ((2 x 1) + 4) x 1 = 6; Stamina = (10 + 20) x 1 = 30
    assert (data["numbers"]["ev"], data["numbers"]["stamina"]) == (6, 30)


def test_saved_file_matches_the_published_schema(tmp_path):
    path = save_monster(goblin(), folder=tmp_path)
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format": "something else"}, schema)


def test_published_schema_is_up_to_date():
    # Regenerate with: .venv/bin/python -c "from workbench.monster.library import *; SCHEMA_PATH.write_text(schema_text())"
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


def test_numbers_are_rebuilt_with_the_current_ruleset(tmp_path):
    save_monster(build_monster(1, "solo").model_copy(update={"name": "Wyrm"}), folder=tmp_path)
    variant = core_ruleset().updated({"organizations": {"solo": {"stamina_modifier": 4}}})
    entry = load_entry("Wyrm", tmp_path, ruleset=variant)
    # Level 1 solo with a Stamina modifier of 4: (10 + 30) x 4 = 160 (core: x 5 = 200)
    assert entry.monster.stamina == 160
    assert entry.changed == ("stamina",)
    assert entry.monster.name == "Wyrm"
    assert load_monster("Wyrm", tmp_path).stamina == 200


# ---------------------------------------------------------------- nothing is lost


def test_no_overwrite_without_asking(tmp_path):
    save_monster(goblin(level=1), "Sneak", tmp_path)
    before = (tmp_path / "Sneak.json").read_bytes()
    with pytest.raises(InvalidInput) as caught:
        save_monster(goblin(level=9), "Sneak", tmp_path)
    assert caught.value.code == "invalid-name"
    assert "overwrite=True" in caught.value.accepts
    assert (tmp_path / "Sneak.json").read_bytes() == before
    save_monster(goblin(level=9), "Sneak", tmp_path, overwrite=True)
    assert load_monster("Sneak", tmp_path).level == 9
    assert _files(tmp_path) == ["Sneak.json"]  # no temporary file left


def _files(folder: Path) -> list[str]:
    """The folder's names, the folder's lock file aside (it stays, empty, between saves)."""
    return sorted(p.name for p in folder.iterdir() if p.name not in (LOCK_NAME, JOURNAL_NAME))


def _half_writer(real_write):
    """An `os.write` whose write stops half-way with a full disk."""

    def write(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(28, "No space left on device")

    return write


def test_crash_mid_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    save_monster(goblin(level=1), "Sneak", tmp_path)
    before = (tmp_path / "Sneak.json").read_bytes()
    monkeypatch.setattr(writing.os, "write", _half_writer(os.write))
    with pytest.raises(lib.LibraryError, match="Sneak.json: cannot save the file: the disk is full"):
        save_monster(goblin(level=7), "Sneak", tmp_path, overwrite=True)
    monkeypatch.undo()
    assert (tmp_path / "Sneak.json").read_bytes() == before
    assert load_monster("Sneak", tmp_path).level == 1
    assert _files(tmp_path) == ["Sneak.json"]


def test_crash_before_the_move_leaves_the_old_file_whole(tmp_path, monkeypatch):
    save_monster(goblin(level=1), "Sneak", tmp_path)
    before = (tmp_path / "Sneak.json").read_bytes()

    def crash(*args):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(lib.LibraryError, match="Sneak.json: cannot save the file: Input/output error"):
        save_monster(goblin(level=7), "Sneak", tmp_path, overwrite=True)
    monkeypatch.undo()
    assert (tmp_path / "Sneak.json").read_bytes() == before
    assert _files(tmp_path) == ["Sneak.json"]


# ---------------------------------------------------------------- corrupt and foreign files


def test_bad_files_are_reported_by_name_and_the_rest_load(tmp_path):
    save_monster(goblin("Alpha"), folder=tmp_path)
    save_monster(goblin("Omega"), folder=tmp_path)
    good = (tmp_path / "Alpha.json").read_text(encoding="utf-8")
    (tmp_path / "corrupt.json").write_text('{"format": "drawsteel', encoding="utf-8")
    (tmp_path / "truncated.json").write_text(good[: len(good) // 2], encoding="utf-8")
    (tmp_path / "noise.json").write_bytes(bytes(range(256)) * 3)
    (tmp_path / "foreign.json").write_text('{"name": "a shopping list"}', encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2, 3]", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    wizard = json.loads(good)
    wizard["role"] = "wizard"
    (tmp_path / "wizard.json").write_text(json.dumps(wizard), encoding="utf-8")
    negative = json.loads(good)
    negative["level"] = 0
    (tmp_path / "negative.json").write_text(json.dumps(negative), encoding="utf-8")
    (tmp_path / ".hidden.tmp").write_text("half a save", encoding="utf-8")

    contents = load_library(tmp_path)

    assert contents.names() == ("Alpha", "Omega")
    reasons = dict(contents.problems)
    assert sorted(reasons) == sorted(
        ["corrupt.json", "truncated.json", "noise.json", "foreign.json", "list.json", "notes.txt",
         "wizard.json", "negative.json"]
    )
    assert reasons["corrupt.json"].startswith("corrupt")
    assert reasons["truncated.json"].startswith("corrupt")
    assert reasons["noise.json"].startswith("corrupt")
    assert reasons["foreign.json"].startswith("foreign")
    assert reasons["list.json"].startswith("foreign")
    assert reasons["notes.txt"].startswith("foreign")
    assert "wizard" in reasons["wizard.json"] and "not buildable" in reasons["wizard.json"]
    assert reasons["negative.json"].startswith("invalid") and "level" in reasons["negative.json"]
    assert contents["Omega"].name == "Omega"


def test_loading_one_bad_file_says_why(tmp_path):
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(LibraryError, match="broken.json: corrupt"):
        load_monster("broken", tmp_path)


def test_missing_folder_is_an_empty_library(tmp_path):
    contents = load_library(tmp_path / "nowhere")
    assert contents.entries == () and contents.problems == ()
    assert list_monsters(tmp_path / "nowhere") == []


# ---------------------------------------------------------------- rename and delete


def test_rename(tmp_path):
    save_monster(goblin("Alpha"), folder=tmp_path)
    save_monster(goblin("Beta"), folder=tmp_path)
    rename_monster("Alpha", "Gamma", tmp_path)
    assert list_monsters(tmp_path) == ["Beta", "Gamma"]
    assert load_monster("Gamma", tmp_path).name == "Alpha"  # the file name changes, not the text
    before = (tmp_path / "Beta.json").read_bytes()
    with pytest.raises(InvalidInput) as caught:
        rename_monster("Gamma", "Beta", tmp_path)
    assert caught.value.code == "invalid-name"
    assert (tmp_path / "Beta.json").read_bytes() == before
    assert list_monsters(tmp_path) == ["Beta", "Gamma"]
    with pytest.raises(InvalidInput):
        rename_monster("Nobody", "Delta", tmp_path)


def test_delete(tmp_path):
    save_monster(goblin("Alpha"), folder=tmp_path)
    delete_monster("Alpha", tmp_path)
    assert list_monsters(tmp_path) == []
    with pytest.raises(InvalidInput) as caught:
        delete_monster("Alpha", tmp_path)
    assert caught.value.code == "invalid-name"


@pytest.mark.parametrize(
    "name",
    [
        "",  # empty
        "   ",  # blank
        "../escape",  # leaves the folder
        "a/b",  # a sub-folder
        "a\\b",  # a Windows separator
        ".hidden",  # hidden files are the library's temporaries
        "-dash",  # must start with a letter or digit
        "x" * 65,  # too long
        "what?",  # not portable
        "nul\x00byte",  # control character
        ["Sneak"],  # not text
        5,  # not text
    ],
)
def test_bad_names_are_refused(tmp_path, name):
    with pytest.raises(InvalidInput) as caught:
        save_monster(goblin(), name, tmp_path)
    assert caught.value.field == "name"
    assert "letters, digits" in caught.value.accepts
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["Goblin Sneak", "orc_brute-2", "Kobold's Pet", "Ödön"])
def test_good_names_are_accepted(tmp_path, name):
    save_monster(goblin(), name, tmp_path)
    assert list_monsters(tmp_path) == [name]


def test_default_name_is_the_monster_name_and_unnamed_is_refused(tmp_path):
    with pytest.raises(InvalidInput):
        save_monster(goblin(name=""), folder=tmp_path)
    with pytest.raises(InvalidInput):
        save_monster(goblin(name="<img src=x onerror=alert(1)>"), folder=tmp_path)


def test_the_default_folder_is_the_workspaces_monsters(tmp_path, monkeypatch):
    # One workspace: a monster saved without a folder lands where the app pages and the command line look.
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    saved = save_monster(goblin(name="Grisk"))
    assert saved == tmp_path / "home" / "monsters" / "Grisk.json"
    assert load_library().names() == ("Grisk",)


def test_the_old_checkout_folder_stays_writable_so_its_monsters_can_move_out():
    assert lib.OLD_CHECKOUT_FOLDER == Path(lib.__file__).resolve().parents[2] / "data" / "homebrew"
    assert (lib.OLD_CHECKOUT_FOLDER / ".gitkeep").is_file()


def test_every_text_field_of_a_monster_is_saved():
    # A field added to Monster later must be added to the file format too, or saving would lose it.
    from workbench.model import Monster

    optional = {name for name, info in Monster.model_fields.items() if not info.is_required()}
    saved = set(lib.TEXT_FIELDS + lib.PART_FIELDS + lib.DESIGN_FIELDS)
    assert optional == saved
    assert saved <= set(lib.HomebrewRecord.model_fields)


def test_attached_homebrew_rules_round_trip(tmp_path):
    from workbench.model import AttachedRule

    attached = (AttachedRule(rule="exploitable-weakness", values=(("tag", "Silver"),)),)
    monster = goblin().model_copy(update={"homebrew_rules": attached})
    save_monster(monster, folder=tmp_path)
    assert load_monster("Goblin Sneak", tmp_path).homebrew_rules == attached


@settings(max_examples=40)
@given(noise=st.binary(max_size=300))
def test_any_bytes_in_a_file_are_reported_and_the_rest_load(noise):
    with tempfile.TemporaryDirectory() as folder:
        save_monster(goblin("Keeper"), folder=folder)
        Path(folder, "noise.json").write_bytes(noise)
        contents = load_library(folder)
        assert contents.names() == ("Keeper",)
        assert [name for name, _ in contents.problems] == ["noise.json"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Orc Brute <b>", "Orc Brute b"),  # markup characters dropped
        ("<img src=x onerror=alert(1)>", "img srcx onerroralert1"),
        ("  --Goblin   Sneak!  ", "Goblin Sneak"),  # must start with a letter or digit; spaces squeezed
        ("../../etc/passwd", "etcpasswd"),  # no way out of the folder
        ("???", ""),  # nothing usable left
        ("x" * 80, "x" * 64),  # at most 64 characters
    ],
)
def test_suggested_names_are_valid(text, expected):
    assert lib.suggest_name(text) == expected
    if expected:
        assert lib.check_name(expected) == expected


@given(st.text(max_size=100))
def test_any_suggested_name_is_accepted_or_empty(text):
    name = lib.suggest_name(text)
    assert name == "" or lib.check_name(name) == name


# ---------------------------------------------------------------- format version 2: the whole stat block

V1_FILES = Path(__file__).parent / "data" / "library-v1"


@pytest.mark.parametrize("path", sorted(V1_FILES.glob("*.json")), ids=lambda p: p.stem)
def test_version_1_files_written_by_the_earlier_workbench_load_with_nothing_lost(path):
    # files written by main's library at format version 1 (commit 9525b2e), before the whole stat block
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["version"] == 1
    jsonschema.validate(saved, json.loads((SCHEMA_PATH.parent / "homebrew-monster-v1.schema.json").read_text()))
    entry = load_entry(path.stem, V1_FILES)
    monster = entry.monster.model_dump(mode="json")
    for key in lib.TEXT_FIELDS:
        # a v1 trait has name, text and cost; its paragraphs (`effects`, new) come back empty
        value = monster[key]
        if key in ("traits", "malice_features", "villain_actions"):
            value = [{k: t[k] for k in ("name", "text", "cost")} for t in value]
            assert all(t["effects"] == [] for t in monster[key])
        if key == "traits" and entry.monster.organization == "solo":
            continue  # an instant solo's traits gain Solo Turns and End Effect on load, as before
        assert value == saved[key], key
    for key in lib.NUMBER_FIELDS:
        assert monster[key] == saved["numbers"][key], key
    assert (entry.characteristic, entry.strike, entry.changed) == (saved["characteristic"], saved["strike"], ())
    # the choices kept beside the monster are written into it: it shows what it showed
    assert signature_choices(entry.monster) == (saved["characteristic"], saved["strike"])
    assert entry.monster.characteristics[saved["characteristic"]] == saved["numbers"]["highest_characteristic"]
    for key in ("level", "organization", "role", "extra_stamina", "targets"):
        assert monster[key] == saved[key], key


def test_a_version_1_file_saved_again_is_version_3_and_loads_the_same(tmp_path):
    before = load_monster("Bone Crusher", V1_FILES)
    save_monster(before, folder=tmp_path)
    saved = json.loads((tmp_path / "Bone Crusher.json").read_text(encoding="utf-8"))
    assert saved["version"] == 3 and saved["keep_numbers"] is False
    assert load_monster("Bone Crusher", tmp_path) == before


def whole_monster():
    from workbench.model import Ability, Characteristics, DamageModifier, Movement, Size

    base = build_monster(4, "elite", "controller")
    return base.model_copy(update={
        "name": "Stone Seer",
        "ev": base.ev + 2,  # the design's own numbers, departing from the formulas
        "stamina": 99,
        "characteristics": Characteristics(might=0, agility=1, reason=3, intuition=2, presence=-1),
        "size_class": Size.parse("1L"),
        "movement": Movement.parse(5, "Burrow"),
        "stability_value": 2,
        "immunities": (DamageModifier.parse("Acid 3"),),
        "weaknesses": (DamageModifier.parse("Sonic 5"),),
        "abilities": (
            Ability(name="Stone Gaze", cost="signature", action="Main action", keywords=["Magic", "Ranged"],
                    distance="Ranged 10", target="Two creatures",
                    power_roll={"bonus": 3, "tier1": "6 damage; R < 1 slowed (save ends)",
                                "tier2": "9 damage; R < 2 slowed (save ends)",
                                "tier3": "12 acid damage; R < 3 restrained (save ends)"}),
            Ability(name="Shard Storm", cost=3, action="Maneuver", keywords=["Area"], distance="3 cube within 10",
                    target="Each enemy in the area",
                    effects_after=({"name": "Effect", "text": "The area is difficult terrain."},)),
        ),
    })


def test_a_whole_monster_with_its_own_numbers_round_trips(tmp_path):
    monster = whole_monster()
    save_monster(monster, folder=tmp_path)
    saved = json.loads((tmp_path / "Stone Seer.json").read_text(encoding="utf-8"))
    jsonschema.validate(saved, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    assert saved["keep_numbers"] is True
    assert saved["abilities"][0]["power_roll"]["tier3"]["damages"] == [{"amount": 12, "types": ["acid"]}]
    entry = load_entry("Stone Seer", tmp_path)
    assert entry.monster == monster
    assert entry.changed == ()


def test_a_published_monster_re_levelled_is_saved_with_its_design(tmp_path):
    from workbench.formats.bestiary import SAMPLE_DIR
    from workbench.formats.stat_block import read_stat_block
    from workbench.monster.relevel import relevel

    knightmare = read_stat_block(SAMPLE_DIR / "Bugbears" / "Statblocks" / "Bugbear Knightmare.json")
    low = relevel(knightmare, 1)  # its tier 1 damage is kept at 0 there
    save_monster(low, folder=tmp_path)
    loaded = load_monster("Bugbear Knightmare", tmp_path)
    assert loaded == low
    assert relevel(loaded, 8) == knightmare


def test_a_taken_name_is_refused_as_name_taken_and_delete_returns_the_file(tmp_path):
    monster = build_monster(2, "platoon", "brute")
    path = save_monster(monster, "Bandit", tmp_path)
    with pytest.raises(NameTaken) as caught:  # an app words its hint from the type, not from the message
        save_monster(monster, "bandit", tmp_path)
    assert caught.value.path == path and caught.value.code == "invalid-name"
    assert delete_monster("Bandit", tmp_path) == path and not path.exists()


def test_an_entry_without_a_name_is_named_by_its_library_name(tmp_path):
    save_monster(goblin().model_copy(update={"name": ""}), name="Troll", folder=tmp_path)
    entry = load_entry("Troll", tmp_path)
    assert (entry.monster.name, entry.named.name) == ("", "Troll")
    assert entry.named.model_copy(update={"name": ""}) == entry.monster  # nothing else changed
    assert load_library(tmp_path).named_monsters() == [entry.named]
    assert load_entry("Troll", tmp_path).model_copy(update={"monster": goblin()}).named == goblin()


def test_a_pasted_block_too_long_to_read_back_is_refused_before_writing(tmp_path):
    import workbench as wb
    from workbench.io.reading import MAX_FILE_BYTES

    head = wb.export_monster(wb.build_monster(3, "elite", "brute"), "markdown").split("**Free Strike")[0]
    text = head + "#### Traits\n\n" + "".join(f"- **T{i}** " + "\x01" * 40 + "\n" for i in range(1900))
    monster = wb.parse_stat_block_text(text)  # the paste itself reads: its lists only run long
    assert len(monster.traits) >= 1900
    with pytest.raises(wb.InvalidInput) as caught:
        wb.save_monster(monster, "Long", tmp_path)
    assert caught.value.field == "monster" and "read back" in str(caught.value)
    assert len(str(caught.value).splitlines()) == 1 and f"{MAX_FILE_BYTES // 1_048_576} MiB" in str(caught.value)
    assert list(tmp_path.iterdir()) == [] or all(p.name.startswith(".workbench") for p in tmp_path.iterdir())
    from workbench.monster.library import save_monsters

    with pytest.raises(wb.InvalidInput):
        save_monsters([("Long", monster)], tmp_path)
