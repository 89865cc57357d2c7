"""`workbench suggest`: the JSON contract, the bestiary folder, reproducibility and refusals (exit 2)."""

from __future__ import annotations

import json
import shutil

from cli_process import run_entry_point

from workbench.cli import main
from workbench.encounter.encounter import Creature, Encounter
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.formats.bestiary import SAMPLE_DIR

ARGS = ["suggest", "--heroes", "5", "--level", "3", "--difficulty", "hard"]


def suggest_json(capsys, *extra: str) -> dict:
    assert main([*ARGS, *extra, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_contract(capsys):
    data = suggest_json(capsys, "--count", "3")
    assert list(data) == ["encounters"]
    assert len(data["encounters"]) == 3
    for encounter in data["encounters"]:
        assert list(encounter) == ["creatures", "ev", "difficulty", "victories", "broken"]
        assert encounter["difficulty"] == "hard" and encounter["victories"] == 2
        assert 61 <= encounter["ev"] <= 80  # hard for five level 3 heroes (ES 50, one hero 10)
        assert encounter["broken"] == []
        for creature in encounter["creatures"]:
            assert list(creature) == ["name", "level", "organization", "role", "count", "ev"]


def test_the_json_rebuilds_an_encounter_the_checker_accepts(capsys):
    data = suggest_json(capsys, "--count", "2", "--seed", "5")
    for encounter in data["encounters"]:
        creatures = tuple(Creature(**c) for c in encounter["creatures"])
        rebuilt = Encounter(party=make_party(heroes=5, level=3), creatures=creatures)
        r = report(rebuilt)
        assert r.total_ev == encounter["ev"] and r.difficulty == "hard"
        # every creature guideline holds (initiative groups are the Director's to place from the list)
        assert not [c.key for c in r.broken if c.key not in ("group_ev", "group_count")]


def test_the_seed_makes_it_reproducible(capsys):
    first = suggest_json(capsys, "--count", "3", "--seed", "11")
    again = suggest_json(capsys, "--count", "3", "--seed", "11")
    other = suggest_json(capsys, "--count", "3", "--seed", "12")
    assert first == again
    assert first != other


def test_keyword_and_bestiary_folder(tmp_path, capsys):
    for path in SAMPLE_DIR.rglob("Kobold*.json"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    # the kobolds are level 1: for level 1 heroes (a hard encounter takes creatures of the heroes' level and up)
    level_1 = ["suggest", "--heroes", "5", "--level", "1", "--difficulty", "hard"]
    assert main([*level_1, "--bestiary", str(tmp_path), "--keyword", "kobold", "--count", "2", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    names = {c["name"] for e in data["encounters"] for c in e["creatures"]}
    assert names and all(name.startswith("Kobold") for name in names)
    assert "broken.json" in captured.err  # the file that did not load is named, the rest are used


def test_levels_keep_to_the_quick_method_unless_told_not_to(capsys):
    # Quick Encounter Building, hard: "creatures of the heroes' level and up to two levels higher, or up to one
    # level higher for solo creatures"; the heroes are level 3
    def outside(data: dict) -> list[str]:
        return [f"{c['name']} {c['level']}" for e in data["encounters"] for c in e["creatures"]
                if not 3 <= c["level"] <= (4 if c["organization"] == "solo" else 5)]

    assert outside(suggest_json(capsys, "--count", "5")) == []
    # held to the Guidelines only, the sample's level 1 creatures come back
    assert outside(suggest_json(capsys, "--count", "5", "--guidelines-levels-only")) != []


def test_text_for_a_person(capsys):
    assert main([*ARGS, "--count", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 hard encounter(s) for 5 level 3 heroes")
    assert "Initiative groups" in out and "EV " in out
    assert "None" not in out


def test_impossible_request_is_refused_with_the_reason():
    result = run_entry_point(*ARGS, "--keyword", "Dragon")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "--keyword" in result.stderr and "dragon" in result.stderr


def test_no_stat_block_within_the_level_limits(tmp_path, capsys):
    shutil.copy(SAMPLE_DIR / "Medusas" / "Statblocks" / "Medusa.json", tmp_path)  # a level 5 solo
    assert main(["suggest", "--heroes", "4", "--level", "1", "--difficulty", "hard",
                 "--bestiary", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "level limits" in captured.err


def test_bad_arguments_exit_2(capsys):
    for bad in (["--count", "0"], ["--count", "51"], ["--seed", "-1"], ["--bestiary", "/no/such/folder"]):
        assert_exit_2(capsys, [*ARGS, *bad])
    assert_exit_2(capsys, ["suggest", "--heroes", "5", "--level", "3", "--difficulty", "deadly"])


def assert_exit_2(capsys, argv: list[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    assert code == 2, argv
    assert captured.out == "" and captured.err.strip() and captured.err.count("\n") == 1, argv
