"""`workbench adventure FILE [--json]`: each encounter as the heroes meet it, Victories piling up."""

from __future__ import annotations

import json
import re

from cli_process import run_cli, run_entry_point

from workbench.encounter.adventure import Adventure, save_adventure
from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.party import make_party
from workbench.model import Trait
from workbench.monster.formulas import build_monster
from workbench.monster.library import save_monster


def day() -> Adventure:
    party = make_party(heroes=5, level=3)

    def fight(name: str, spec: str) -> Encounter:
        return Encounter(name=name, party=party).adding(spec)

    # 70 EV: hard at 0 Victories (ES 50) -> 2; then standard at 2 (ES 60) -> 1; a respite; hard again
    encounters = (fight("Gate", "7 x level 3 platoon brute"), fight("Hall", "7 x level 3 platoon brute"),
                  fight("Crypt", "7 x level 3 platoon brute"))
    return Adventure(name="The keep <b>", party=party, encounters=encounters, respites=(2,))


def test_json_gives_each_encounter_at_its_arrival(tmp_path):
    path = save_adventure(day(), tmp_path / "keep.json")
    result = run_cli("adventure", str(path), "--json")
    assert result.returncode == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    assert data["name"] == "The keep <b>" and data["respites"] == [2]
    rows = data["encounters"]
    assert [r["arrival_victories"] for r in rows] == [0, 2, 0]
    assert [r["encounter_strength"] for r in rows] == [50, 60, 50]
    assert [r["difficulty"] for r in rows] == ["hard", "standard", "hard"]
    assert [r["victories"] for r in rows] == [2, 1, 2]
    assert [r["starting_malice"] for r in rows] == [0, 2, 0]
    assert [r["first_round_malice"] for r in rows] == [6, 8, 6]  # + 5 heroes + round 1
    assert [r["respite_before"] for r in rows] == [False, False, True]
    assert [w["key"] for w in rows[1]["warnings"]] == ["drift"]
    assert rows[1]["warnings"][0]["rule"]


def test_text_for_a_person(tmp_path):
    path = save_adventure(day(), tmp_path / "keep.json")
    result = run_cli("adventure", str(path))
    assert result.returncode == 0
    out = result.stdout
    assert "The keep <b>: 5 heroes of level 3, 3 encounters" in out
    assert "2. Hall: arrive with 2 Victories; encounter strength 60, EV 70 → standard (built hard)" in out
    assert "-- respite: Victories back to 0 --" in out
    assert "Warning: Difficulty drifts with the Victories" in out


def test_bad_file_exits_2_with_one_line(tmp_path):
    foreign = tmp_path / "monster.json"
    foreign.write_text(json.dumps({"name": "goblin"}), encoding="utf-8")
    for path in (foreign, tmp_path / "missing.json"):
        result = run_cli("adventure", str(path))
        assert result.returncode == 2 and result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "FILE" in lines[0] and path.name in lines[0]


def test_entry_point(tmp_path):
    path = save_adventure(day(), tmp_path / "keep.json")
    result = run_entry_point("adventure", str(path), "--json")
    assert result.returncode == 0
    assert len(json.loads(result.stdout)["encounters"]) == 3


def test_a_name_finds_the_workspace_adventure_and_the_packet_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    save_adventure(day(), tmp_path / "desk" / "adventures" / "keep.json")
    packet = tmp_path / "keep.html"
    result = run_cli("adventure", "keep", "--packet", str(packet))
    assert result.returncode == 0, result.stderr
    assert f"Packet written to {packet}" in result.stdout
    page = packet.read_text(encoding="utf-8")
    assert page.count('class="wb-sheet"') == 3 and "The keep &lt;b&gt;" in page
    again = run_cli("adventure", "keep", "--packet", str(packet))  # never over a file
    assert again.returncode == 2 and "--packet" in again.stderr and "exists" in again.stderr
    assert packet.read_text(encoding="utf-8") == page
    wrong = run_cli("adventure", "keep", "--packet", str(tmp_path / "keep.docx"))
    assert wrong.returncode == 2 and ".html or .pdf" in wrong.stderr
    printed = run_cli("adventure", "keep", "--packet", str(tmp_path / "keep.pdf"))
    assert printed.returncode == 0 and (tmp_path / "keep.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["desk", "keep.html", "keep.pdf"]  # no lock file left
    missing = run_cli("adventure", "nothing-saved")
    assert missing.returncode == 2 and "nothing-saved.json" in missing.stderr


def test_the_packet_prints_the_workspace_monster_a_creature_names(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    warden = build_monster(level=4, organization="leader").model_copy(update={
        "name": "Warden", "malice_features": (Trait(name="Lock the Gates", text="Every door slams shut.", cost=4),)})
    save_monster(warden, folder=tmp_path / "desk" / "monsters")
    party = make_party(heroes=5, level=3)
    hall = Encounter(name="Hall", party=party).adding(creature_from_monster(warden))
    path = save_adventure(Adventure(party=party, encounters=(hall,)), tmp_path / "hall.json")
    assert run_cli("adventure", str(path), "--packet", str(tmp_path / "hall.html")).returncode == 0
    page = re.sub(r"<[^>]+>", "", (tmp_path / "hall.html").read_text(encoding="utf-8"))
    assert "Lock the Gates (Warden) (4 Malice): Every door slams shut." in page


def test_a_line_break_in_a_name_cannot_forge_a_line():
    from workbench.cli.adventure import plan_text
    from workbench.encounter.adventure import plan

    party = make_party(heroes=5, level=3)
    forged = Encounter(name="Gate\n2. Forged: arrive with 9 Victories\x1b[2K", party=party).adding(
        "7 x level 3 platoon brute")
    text = plan_text(plan(Adventure(name="Keep\r\nInjected", party=party, encounters=(forged,))))
    lines = text.splitlines()
    assert lines[0].startswith("Keep\\r\\nInjected: 5 heroes")
    assert [line for line in lines if line.startswith(("1.", "2."))] == [lines[1]]
    assert lines[1].startswith("1. Gate\\n2. Forged: arrive with 9 Victories\\x1b[2K: arrive with 0 Victories")
