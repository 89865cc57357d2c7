"""`workbench solo`: the JSON contract, the text for people, refusals (exit 2, one line on stderr)."""

from __future__ import annotations

import json

import pytest
from cli_process import run_cli, run_entry_point

from workbench.cli import main


def test_json_leader_level_5():
    result = run_entry_point("solo", "--level", "5", "--organization", "leader", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # leader EV (2 × 5 + 4) × 2 = 28 -> × 3 = 84; Stamina (10 × 5 + 30) × 2 = 160 -> × 2.5 = 400
    assert (data["ev"], data["stamina"]) == (84, 400)
    assert data["instant_solo_of"] == {"organization": "leader", "role": None, "ev": 28, "stamina": 160}
    assert data["working"] == {"ev": "EV = ⌈28 × 3⌉ = 84", "stamina": "Stamina = ⌈160 × 2.5⌉ = 400"}
    assert [t["name"] for t in data["traits"]] == ["Solo Turns", "End Effect"]
    assert [{k: f[k] for k in ("name", "cost", "text")} for f in data["malice_features"]] == [
        {
            "name": "Solo Action",
            "cost": 5,
            "text": "The creature takes an additional main action on their turn. "
            "They can use this feature even if they are dazed.",
        }
    ]
    # the contract's keys, nested tiers
    for key in ("level", "organization", "free_strike", "highest_characteristic", "echelon", "potency"):
        assert key in data
    assert set(data["damage"]) == {"tier1", "tier2", "tier3"}


@pytest.mark.parametrize(
    ("args", "ev", "stamina"),
    [
        # level 2 elite brute with extra Stamina: EV 16 × 3 = 48; (20 + 30) × 2 + 9 = 109 × 2.5 = 272.5 -> 273
        (["--level", "2", "--organization", "elite", "--role", "brute", "--extra-stamina"], 48, 273),
        # level 1 elite hexer: EV 12 × 3 = 36; (10 + 10) × 2 = 40 × 2.5 = 100
        (["--level", "1", "--organization", "Elite", "--role", "hexer"], 36, 100),
    ],
)
def test_json_options(capsys, args, ev, stamina):
    assert main(["solo", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["ev"], data["stamina"]) == (ev, stamina)


def test_text_for_people(capsys):
    assert main(["solo", "--level", "5", "--organization", "leader"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Level 5 Leader, instant solo\n")
    assert "EV = ⌈28 × 3⌉ = 84" in out and "Stamina = ⌈160 × 2.5⌉ = 400" in out
    assert "Solo Turns" in out and "Solo Action (5 Malice)" in out
    # level 5 leader's highest characteristic 1 + 2 + 1 = 4: Malicious Strike +4 to +12
    assert "+4 to +12" in out
    # the basic Malice features, every monster: "Brutal Effectiveness (3 Malice)", "Malicious Strike (5+ Malice)"
    assert "Brutal Effectiveness (3 Malice, every monster)" in out
    assert "Malicious Strike (5+ Malice, every monster): +4 to +12" in out


@pytest.mark.parametrize(
    ("args", "flag", "words"),
    [
        (["--level", "5", "--organization", "platoon", "--role", "brute"], "--organization", "leader or an elite"),
        (["--level", "5", "--organization", "solo"], "--organization", "already a solo"),
        (["--level", "5", "--organization", "elite"], "--role", "needs a role"),
        (["--level", "5", "--organization", "leader", "--role", "brute"], "--role", "no role"),
        (["--level", "0", "--organization", "leader"], "--level", "from 1 to 100"),
        (["--level", "5", "--organization", "dragon"], "--organization", "one of"),
    ],
)
def test_refusals(args, flag, words):
    result = run_cli("solo", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and words in lines[0]
