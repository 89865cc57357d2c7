"""`workbench monster`: the JSON contract, the stat block for people, and refusals (exit 2, one stderr line)."""

from __future__ import annotations

import json

import pytest
import rules_reference as ref
from cli_process import run_cli, run_entry_point

from workbench.cli import main


def test_json_has_the_contract_keys_and_the_rules_numbers():
    result = run_entry_point("monster", "--level", "5", "--organization", "elite", "--role", "brute", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ev"] == ref.ev(5, "elite")
    assert data["stamina"] == ref.stamina(5, "elite", "brute")
    assert data["free_strike"] == ref.free_strike(5, "elite", "brute")
    assert data["highest_characteristic"] == 3
    assert data["echelon"] == 2
    assert data["damage"] == {f"tier{t}": ref.damage(5, "elite", "brute", t) for t in (1, 2, 3)}
    assert data["potency"] == {"tier1": 1, "tier2": 2, "tier3": 3}


def test_options_reach_the_numbers(capsys):
    assert main(["monster", "--level", "4", "--organization", "platoon", "--role", "defender",
                 "--extra-stamina", "--targets", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stamina"] == ref.stamina(4, "platoon", "defender", extra=True)
    assert data["damage"]["tier2"] == ref.damage(4, "platoon", "defender", 2, targets=3)


def test_text_output_is_a_stat_block(capsys):
    assert main(["monster", "--level", "1", "--organization", "solo"]) == 0
    out = capsys.readouterr().out
    assert "Level 1 Solo" in out and "EV 36" in out and "Stamina 200" in out


@pytest.mark.parametrize(
    "args, flag",
    [
        (["--level", "0", "--organization", "platoon", "--role", "brute"], "--level"),
        (["--level", "-3", "--organization", "platoon", "--role", "brute"], "--level"),
        (["--level", "2.5", "--organization", "platoon", "--role", "brute"], "--level"),
        (["--level", "ten", "--organization", "platoon", "--role", "brute"], "--level"),
        (["--organization", "platoon", "--role", "brute"], "--level"),  # missing
        (["--level", "3", "--organization", "legion", "--role", "brute"], "--organization"),
        (["--level", "3", "--organization", "platoon", "--role", "wizard"], "--role"),
        (["--level", "3", "--organization", "platoon"], "--role"),  # a platoon needs a role
        (["--level", "3", "--organization", "leader", "--role", "brute"], "--role"),
        (["--level", "3", "--organization", "elite", "--role", "brute", "--targets", "0"], "--targets"),
        (["--level", "3", "--organization", "minion", "--role", "brute", "--extra-stamina"], "--extra-stamina"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_argument(args, flag):
    result = run_cli("monster", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert flag in lines[0]
