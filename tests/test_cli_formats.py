"""`workbench import` and `workbench export` (workbench/cli/importing.py, exporting.py), by the command line's
rules: bad input exits 2 with one line on stderr and nothing on stdout; nothing saved is lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import workbench as wb
from workbench.cli import main
from workbench.formats.bestiary import SAMPLE_DIR

ASSASSIN = SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Assassin.json"
WEREWOLF = next(SAMPLE_DIR.rglob("Werewolf.json"))


def _refused(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    return err


def test_import_saves_the_whole_monster_into_the_library(tmp_path, capsys):
    library = tmp_path / "library"
    assert main(["import", str(ASSASSIN), str(WEREWOLF), "--library", str(library)]) == 0
    out = capsys.readouterr().out
    assert "Goblin Assassin" in out and "Werewolf" in out
    assert sorted(wb.list_monsters(library)) == ["Goblin Assassin", "Werewolf"]
    assert wb.load_monster("Werewolf", library) == wb.read_stat_block(WEREWOLF)


def test_import_never_overwrites_without_overwrite(tmp_path, capsys):
    library = tmp_path / "library"
    assert main(["import", str(ASSASSIN), "--library", str(library)]) == 0
    saved = (library / "Goblin Assassin.json").read_text()
    capsys.readouterr()
    err = _refused(capsys, ["import", str(WEREWOLF), str(ASSASSIN), "--library", str(library)])
    assert "--overwrite" in err and "Goblin Assassin" in err
    assert (library / "Goblin Assassin.json").read_text() == saved
    assert wb.list_monsters(library) == ["Goblin Assassin"]  # the werewolf was not saved either: all or nothing
    assert main(["import", str(ASSASSIN), "--library", str(library), "--overwrite"]) == 0


def test_import_refuses_a_file_of_no_known_format(tmp_path, capsys):
    bad = tmp_path / "notes.json"
    bad.write_text('{"title": "shopping list"}')
    err = _refused(capsys, ["import", str(bad), "--library", str(tmp_path / "lib")])
    assert "notes.json" in err and "no known stat block format" in err
    assert not (tmp_path / "lib").exists()


@pytest.mark.parametrize("fmt, suffix", [("forge-steel", ".ds-monster"), ("foundry", ".json"),
                                          ("steel-compendium", ".json"), ("markdown", ".md"), ("html", ".html")])
def test_export_writes_one_file_that_reads_back(tmp_path, capsys, fmt, suffix):
    out = tmp_path / f"out{suffix}"
    assert main(["export", str(WEREWOLF), "--format", fmt, "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    if fmt in ("forge-steel", "foundry", "steel-compendium"):
        assert wb.import_monster(out) == wb.read_stat_block(WEREWOLF)
    else:
        assert "Werewolf" in out.read_text()


def test_export_by_library_name_and_to_a_folder(tmp_path, capsys):
    library = tmp_path / "library"
    main(["import", str(ASSASSIN), "--library", str(library)])
    capsys.readouterr()
    assert main(["export", "Goblin Assassin", "--library", str(library), "--format", "pdf", "-o", str(tmp_path)]) == 0
    assert (tmp_path / "Goblin Assassin.pdf").read_bytes().startswith(b"%PDF")


def test_export_of_a_group_keeps_every_monster_where_the_format_can(tmp_path, capsys):
    group = tmp_path / "raid.ds-monster-group"
    group.write_text(wb.export_monsters([wb.read_stat_block(ASSASSIN), wb.read_stat_block(WEREWOLF)], "forge-steel"))
    assert main(["export", str(group), "--format", "markdown", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert "Goblin Assassin" in out and "Werewolf" in out
    err = _refused(capsys, ["export", str(group), "--format", "foundry"])
    assert "--format" in err and "2 monsters" in err


@pytest.mark.parametrize(
    "argv, names",
    [
        (["export", "No Such Monster", "--format", "foundry"], "NAME_OR_FILE"),  # neither a file nor a library name
        (["export", str(ASSASSIN), "--format", "roll20"], "--format"),  # an unknown format (argparse)
        (["export", str(ASSASSIN), "--format", "pdf", "-o", "-"], "--output"),  # binary to stdout
        (["export", str(ASSASSIN), "--format", "png", "-o", "/no/such/folder/x.png"], "--output"),
    ],
)
def test_export_bad_input_exits_2_naming_the_argument(tmp_path, capsys, argv, names):
    err = _refused(capsys, argv + (["--library", str(tmp_path)] if "--library" not in argv else []))
    assert names in err


def test_the_console_script_round_trip_from_a_fresh_process(tmp_path):
    out = tmp_path / "assassin.ds-monster"
    run = subprocess.run([sys.executable, "-m", "workbench.cli", "export", str(ASSASSIN), "--format", "forge-steel",
                          "-o", str(out)], capture_output=True, text=True, check=True)
    assert run.stderr == ""
    data = json.loads(out.read_text())
    assert data["name"] == "Goblin Assassin" and data["role"] == {"type": "Ambusher", "organization": "Horde"}


# ---------------------------------------------------------------- pasted text, kept parts, big groups


PASTED = """\
Fen Lurker
Level 2 Platoon Ambusher
EV 8
Beast
Stamina 30  Speed 6  Size 1L  Stability 1
Free Strike 3
Might +2  Agility +1  Reason -1  Intuition 0  Presence -2
a caption the reader has no place for
Reed Snare (Signature Ability)
Melee, Strike, Weapon  Main action
Melee 2  One creature or object
Power Roll + 2:
\u226411 5 damage
12\u201316 8 damage
17+ 10 damage
"""


def test_import_text_saves_a_pasted_stat_block_and_names_the_lines_kept_as_text(tmp_path, capsys):
    pasted = tmp_path / "lurker.txt"
    pasted.write_text(PASTED, encoding="utf-8")
    library = tmp_path / "library"
    assert main(["import", "--text", str(pasted), "--library", str(library)]) == 0
    out = capsys.readouterr().out
    assert "saved Fen Lurker (level 2)" in out
    assert "kept as text: the text, line: a caption the reader has no place for" in out
    saved = wb.load_monster("Fen Lurker", library)
    assert [str(t) for t in saved.abilities[0].power_roll.tiers] == ["5 damage", "8 damage", "10 damage"]


def test_import_with_nothing_to_read_and_text_that_is_no_stat_block_exit_2(tmp_path, capsys):
    err = _refused(capsys, ["import", "--library", str(tmp_path / "lib")])
    assert "--text" in err
    letter = tmp_path / "letter.txt"
    letter.write_text("Dear friend,\nthe weather is fine.\n", encoding="utf-8")
    err = _refused(capsys, ["import", "--text", str(letter), "--library", str(tmp_path / "lib")])
    assert "text" in err and "Level N" in err
    assert not (tmp_path / "lib").exists()


def test_import_names_the_parts_of_a_real_file_kept_as_text(tmp_path, capsys):
    shape = Path(__file__).parent / "data" / "real_shapes" / "sc-distances-in-words.json"
    assert main(["import", str(shape), "--library", str(tmp_path / "lib")]) == 0
    out = capsys.readouterr().out
    assert "kept as text: ability 'Spit Globs', distance: Two 3 cubes within 10" in out


def test_export_of_a_builder_monster_from_the_library_carries_its_block(tmp_path, capsys):
    library = tmp_path / "library"
    ogre = wb.build_monster(level=4, organization="elite", role="brute", characteristic="agility",
                            strike=False).model_copy(update={"name": "Bridge Ogre", "signature_name": "Club Sweep"})
    wb.save_monster(ogre, folder=library)
    out = tmp_path / "ogre.ds-monster"
    assert main(["export", "Bridge Ogre", "--library", str(library), "--format", "forge-steel", "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    values = {e["characteristic"]: e["value"] for e in data["characteristics"]}
    assert values["Agility"] == ogre.highest_characteristic and values["Might"] == 0
    (ability,) = [f["data"]["ability"] for f in data["features"] if f["type"] == "Ability"]
    roll = next(s["roll"] for s in ability["sections"] if s["type"] == "roll")
    assert ability["name"] == "Club Sweep" and "Strike" not in ability["keywords"]
    assert roll["tier1"].startswith(f"{ogre.non_strike_damage.tier1} damage; A < ")
