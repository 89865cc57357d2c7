"""`workbench malice`: the JSON contract, the table for people, deaths, and refusals (exit 2, one stderr line)."""

from __future__ import annotations

import json

import pytest
from cli_process import run_cli, run_entry_point

from workbench.cli import main


def test_book_example_as_json():
    # "five heroes with three Victories each ... 9 Malice ... 7 ... 8 ... 9 ... and so on" (round 5: 5 + 5).
    result = run_entry_point("malice", "--heroes", "5", "--victories", "3", "--rounds", "5", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rounds"] == [
        {"round": 1, "gain": 9, "total": 9},
        {"round": 2, "gain": 7, "total": 16},
        {"round": 3, "gain": 8, "total": 24},
        {"round": 4, "gain": 9, "total": 33},
        {"round": 5, "gain": 10, "total": 43},
    ]


@pytest.mark.parametrize(
    ("deaths", "gains"),
    [
        (["--deaths", "2:1"], [9, 6, 7]),                      # 3+5+1, 4+2, 4+3
        (["--deaths", "2:1", "--deaths", "3:2"], [9, 6, 5]),   # 3+5+1, 4+2, 2+3
        (["--deaths", "1:5"], [4, 2, 3]),                      # everyone down before the first gain: 3+0+1
        (["--deaths", "3:0"], [9, 7, 8]),                      # a zero count changes nothing
    ],
)
def test_deaths_count_before_that_rounds_gain(deaths, gains, capsys):
    assert main(["malice", "--heroes", "5", "--victories", "3", "--rounds", "3", *deaths, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["gain"] for r in data["rounds"]] == gains
    running, totals = 0, []
    for g in gains:
        running += g
        totals.append(running)
    assert [r["total"] for r in data["rounds"]] == totals


def test_text_output_shows_the_working(capsys):
    assert main(["malice", "--heroes", "5", "--victories", "3", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "3 + 5 + 1" in out and "5 + 2" in out


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--heroes", "0", "--victories", "3", "--rounds", "5"], "--heroes"),
        (["--heroes", "5", "--victories", "-1", "--rounds", "5"], "--victories"),
        (["--heroes", "5", "--victories", "3", "--rounds", "0"], "--rounds"),
        (["--heroes", "5", "--victories", "3", "--rounds", "2", "--deaths", "3:1"], "--deaths"),  # no round 3
        (["--heroes", "5", "--victories", "3", "--rounds", "2", "--deaths", "2:6"], "--deaths"),  # 6 of 5
        (["--heroes", "5", "--victories", "3", "--rounds", "2", "--deaths", "two"], "--deaths"),
        (["--heroes", "5", "--victories", "3", "--rounds", "2", "--deaths", "0:1"], "--deaths"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_flag(args, flag):
    result = run_cli("malice", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and "accepts" in lines[0]


def test_a_fractional_average_is_rounded_down_as_the_budget_does(capsys):
    # "At the start of combat, you gain Malice equal to the average number of Victories per hero": an average of
    # 2.5 gives 2 (rounded down, RULES-READINGS.md), and `budget` takes the same 2.5
    assert main(["malice", "--heroes", "5", "--victories", "2.5", "--rounds", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["victories"] == 2.5
    assert [r["gain"] for r in data["rounds"]] == [2 + 5 + 1, 5 + 2]
    assert main(["budget", "--heroes", "5", "--level", "3", "--victories", "2.5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["victories_bonus"] == 10  # floor(2.5 / 2) = 1 hero's ES
