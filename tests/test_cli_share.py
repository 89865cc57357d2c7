"""`workbench share NAME_OR_FILE` and `workbench open CODE [--save]`: a code printed, read back, saved into the
workspace without ever replacing a file unasked."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_process import run_cli, run_entry_point

import workbench as wb
from workbench.encounter.adventure import save_adventure
from workbench.encounter.files import save_encounter
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.reader import import_monster
from workbench.formats.share_code import read_code
from workbench.render.stat_block import stat_block_markdown

MONARCH = SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Monarch.json"


@pytest.fixture
def desk(tmp_path, monkeypatch):
    """A fresh workspace of this test's own."""
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    return tmp_path / "desk"


def day() -> wb.Adventure:
    party = wb.make_party(heroes=4, level=2)
    gate = wb.Encounter(name="Gate", party=party).adding("4 x level 2 platoon brute")
    hall = wb.Encounter(name="Hall", party=party).adding("8 x level 2 minion harrier")
    return wb.Adventure(name="The keep", party=party, encounters=(gate, hall), respites=(1,))


def refused(*args: str) -> str:
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    return result.stderr


def test_a_stat_block_file_shared_and_opened_prints_its_block(desk):
    shared = run_cli("share", str(MONARCH))
    assert shared.returncode == 0 and shared.stderr == ""
    code = shared.stdout.strip()
    assert code.startswith("DSW1M.") and wb.open_code(code) == import_monster(MONARCH)
    opened = run_cli("open", f"look: https://example.org/voila/render/monster.ipynb#code={code}")
    assert opened.returncode == 0
    assert opened.stdout.strip() == stat_block_markdown(import_monster(MONARCH)).strip()


def test_a_library_monster_is_shared_by_name_with_its_characteristic_and_strike(desk):
    monster = wb.build_monster(4, "elite", "hexer", characteristic="reason", strike=False).model_copy(
        update={"name": "Hag"})
    wb.save_monster(monster, "Hag", desk / "monsters")
    result = run_cli("share", "hag", "--json")
    data = json.loads(result.stdout)
    assert data["kind"] == "monster" and data["characters"] == len(data["code"])
    shared = read_code(data["code"])
    assert shared.value == monster and shared.value.characteristics["reason"] == monster.highest_characteristic
    assert "Strike" not in shared.value.abilities[0].keywords


def test_an_unknown_name_is_refused_in_one_line(desk):
    assert "NAME_OR_FILE" in refused("share", "Nobody")


def test_open_save_puts_each_kind_in_its_folder_and_never_replaces_unasked(desk, tmp_path):
    encounter_file = save_encounter(day().encounters[0], tmp_path / "gate.json")
    adventure_file = save_adventure(day(), tmp_path / "keep.json")
    codes = {kind: run_cli("share", str(path)).stdout.strip()
             for kind, path in (("monster", MONARCH), ("encounter", encounter_file), ("adventure", adventure_file))}
    places = {"monster": desk / "monsters" / "Goblin Monarch.json", "encounter": desk / "encounters" / "Gate.json",
              "adventure": desk / "adventures" / "The keep.json"}
    for kind, code in codes.items():
        result = run_cli("open", code, "--save")
        assert result.returncode == 0 and str(places[kind]) in result.stdout
    assert wb.load_encounter(places["encounter"]) == day().encounters[0]
    assert wb.Adventure.load(places["adventure"]) == day()
    assert wb.load_monster("Goblin Monarch", desk / "monsters") == import_monster(MONARCH)
    before = {kind: path.read_bytes() for kind, path in places.items()}
    for code in codes.values():
        assert "--overwrite" in refused("open", code, "--save")
    assert {kind: path.read_bytes() for kind, path in places.items()} == before
    assert run_cli("open", codes["encounter"], "--save", "--overwrite").returncode == 0
    assert run_cli("open", codes["encounter"], "--save", "--name", "Gate again").returncode == 0
    assert wb.load_encounter(desk / "encounters" / "Gate again.json") == day().encounters[0]


def test_open_prints_an_encounters_report_and_an_adventures_plan(tmp_path):
    encounter_code = wb.share_code(day().encounters[0])
    assert run_cli("open", encounter_code).stdout.startswith("Gate: EV ")
    plan = run_cli("open", wb.share_code(day()), "--json")
    assert [e["name"] for e in json.loads(plan.stdout)["encounters"]] == ["Gate", "Hall"]


def test_a_bad_code_exits_2_with_one_line_and_saves_nothing(desk):
    code = wb.share_code(day())
    assert "cut short" in refused("open", code[:-4], "--save")
    assert "checksum does not match" in refused("open", code[:20] + ("A" if code[20] != "A" else "B") + code[21:])
    assert not desk.exists() or not any(desk.rglob("*.json"))


def test_the_entry_point_reads_a_code_from_standard_input(tmp_path):
    code = wb.share_code(day().encounters[1])
    result = subprocess.run([sys.executable, "-m", "workbench.cli", "open", "-"], input=code[:30] + "\n" + code[30:],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.startswith("Hall: EV ")
    assert run_entry_point("open", "nonsense").returncode == 2
