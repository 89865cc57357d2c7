"""`workbench budget` and `workbench encounter`: the JSON contract, text for people, refusals (exit 2)."""

from __future__ import annotations

import json

import pytest
from cli_process import run_cli, run_entry_point

from workbench.cli import main
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import save_encounter
from workbench.encounter.party import make_party


def test_budget_json_contract():
    result = run_entry_point("budget", "--heroes", "5", "--level", "3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # "a group of five 3rd-level heroes has an ES of 50"; one hero 4 + 2 x 3 = 10
    assert data["encounter_strength"] == 50
    assert data["hero_strength"] == 10
    # trivial < 40, easy < 50, standard <= 60, hard <= 80, extreme above (whole EV totals, inclusive)
    assert data["bands"] == {
        "trivial": {"min": 0, "max": 39},
        "easy": {"min": 40, "max": 49},
        "standard": {"min": 50, "max": 60},
        "hard": {"min": 61, "max": 80},
        "extreme": {"min": 81, "max": None},
    }


def test_budget_victories(capsys):
    # 2 average Victories: one more hero, "increase the ES by 10"
    assert main(["budget", "--heroes", "5", "--level", "3", "--victories", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["encounter_strength"] == 60 and data["hero_strength"] == 10
    assert data["bands"]["standard"] == {"min": 60, "max": 70}
    assert data["bands"]["extreme"] == {"min": 91, "max": None}


@pytest.mark.parametrize(
    "victories, strength",
    [
        ("1.5", 50),  # average 1.5: less than 2, no extra hero
        ("3.5", 60),  # "For every 2 Victories the heroes have earned on average": one extra hero of 10
        ("4", 70),  # two extra heroes
    ],
)
def test_budget_takes_average_victories_that_are_not_whole(capsys, victories, strength):
    assert main(["budget", "--heroes", "5", "--level", "3", "--victories", victories, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["encounter_strength"] == strength


def test_budget_text_shows_the_working(capsys):
    assert main(["budget", "--heroes", "4", "--level", "1"]) == 0
    out = capsys.readouterr().out
    assert "Party ES = 4 × (4 + 2 × 1) = 24" in out
    assert "Standard  EV 24 to 30" in out


@pytest.mark.parametrize(
    "args, flag",
    [
        (["--heroes", "0", "--level", "3"], "--heroes"),  # no heroes
        (["--heroes", "5", "--level", "zero"], "--level"),  # not a number
        (["--heroes", "5", "--level", "3", "--victories", "-1"], "--victories"),  # negative
        (["--heroes", "5", "--level", "3", "--victories", "some"], "--victories"),  # not a number
        (["--heroes", "5"], "--level"),  # missing
    ],
)
def test_budget_refusals(args, flag):
    result = run_cli("budget", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and flag in result.stderr


def test_encounter_command(tmp_path, capsys):
    e = Encounter(name="Gate", party=make_party(heroes=3, level=3)).adding(
        "3 x level 3 platoon brute", "6 x level 2 minion harrier"
    )
    path = save_encounter(e, tmp_path / "gate.json")
    assert main(["encounter", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # 30 + 6 x 4 / 4 = 36 against ES 30 (h 10): standard (30-40), worth 1 Victory
    assert (data["total_ev"], data["encounter_strength"], data["band"], data["victories"]) == (36, 30, "standard", 1)
    assert {b["key"] for b in data["broken"]} == {"minions_by_four", "minion_sets", "small_party"}
    assert all(b["rule"] for b in data["broken"])
    assert main(["encounter", str(path)]) == 0
    out = capsys.readouterr().out
    assert "3 guideline(s) broken" in out and "you buy them four at a time" in out


def test_encounter_command_refuses_a_foreign_file(tmp_path):
    path = tmp_path / "monster.json"
    path.write_text(json.dumps({"name": "goblin"}))
    result = run_cli("encounter", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert "monster.json" in result.stderr and len(result.stderr.strip().splitlines()) == 1
