"""`workbench show`: its JSON keys, re-levelling on request, refusals (exit 2, one stderr
line, nothing on stdout)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import rules_reference as ref
from cli_process import run_cli, run_entry_point

from workbench.formats.bestiary import SAMPLE_DIR

GOBLIN_WARRIOR = SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Warrior.json"
V1_FILE = Path(__file__).parent / "data" / "library-v1" / "Bone Crusher.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("show", *args)


def test_json_has_the_contracts_keys():
    result = run_entry_point("show", str(GOBLIN_WARRIOR), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["name"], data["level"], data["organization"], data["role"], data["ev"], data["stamina"],
            data["free_strike"]) == ("Goblin Warrior", 1, "horde", "harrier", 3, 15, 1)
    assert data["characteristics"] == {"might": -2, "agility": 2, "reason": 0, "intuition": 0, "presence": -1}
    spear = data["abilities"][0]
    assert (spear["name"], spear["cost"], spear["power_roll"]["bonus"]) == ("Spear Charge", "signature", 2)
    assert [spear["power_roll"][f"tier{t}"]["damage"] for t in (1, 2, 3)] == [3, 4, 5]
    bury = data["abilities"][1]
    assert bury["cost"] == 2
    assert bury["power_roll"]["tier1"]["potency"] == {"characteristic": "might", "value": 0}
    assert set(data["damage"]) == {"tier1", "tier2", "tier3"} and "relevel" not in data


def test_level_moves_every_number_and_shows_the_working():
    result = run(str(GOBLIN_WARRIOR), "--level", "5", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["level"] == 5
    assert data["ev"] == 3 + ref.ev(5, "horde") - ref.ev(1, "horde")
    assert data["relevel"]["from_level"] == 1 and data["relevel"]["mode"] == "delta"
    moves = {m["quantity"]: m for m in data["relevel"]["moves"]}
    assert moves["EV"]["old"] == 3 and moves["EV"]["new"] == data["ev"]
    tier3 = data["abilities"][0]["power_roll"]["tier3"]["damage"]
    assert tier3 == 5 + ref.damage(5, "horde", "harrier", 3, 1) - ref.damage(1, "horde", "harrier", 3, 1)
    text = run(str(GOBLIN_WARRIOR), "--level", "5", "--mode", "formula")
    assert text.returncode == 0, text.stderr
    assert f"EV: 3 → {ref.ev(5, 'horde')}" in text.stdout
    assert "Spear Charge" in text.stdout


def test_a_library_file_of_version_1_is_shown():
    result = run(str(V1_FILE), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["name"], data["level"], data["organization"]) == ("Bone Crusher", 3, "elite")
    # as the builder shows it: the formula signature ability and the highest characteristic written in
    (ability,) = data["abilities"]
    assert (ability["name"], ability["cost"]) == ("Crushing Blow", "signature")
    assert ability["power_roll"]["bonus"] == max(v for v in data["characteristics"].values() if v is not None)


@pytest.mark.parametrize(
    "args, names",
    [
        (("missing.json",), "FILE"),
        ((str(GOBLIN_WARRIOR), "--level", "0"), "--level"),
        ((str(GOBLIN_WARRIOR), "--mode", "halfway"), "--mode"),
        ((str(GOBLIN_WARRIOR), "--level", "five"), "--level"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_stdout(args, names):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and names in result.stderr


def test_a_part_it_cannot_structure_opens_kept_as_text_and_named(tmp_path):
    raw = json.loads(GOBLIN_WARRIOR.read_text(encoding="utf-8"))
    raw["features"][0]["distance"] = "12 furlongs"
    path = tmp_path / "Odd Goblin.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    result = run(str(path))
    assert result.returncode == 0 and result.stderr == ""
    kept = result.stdout[result.stdout.index("Kept as text"):]
    assert "Spear Charge" in kept and "distance" in kept and "12 furlongs" in kept


def test_a_file_that_is_not_a_stat_block_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "Shopping.json"
    path.write_text(json.dumps({"eggs": 12}), encoding="utf-8")
    result = run(str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert "Shopping.json" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
