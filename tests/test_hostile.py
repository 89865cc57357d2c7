"""Hostile input, as an attacker and a careless user would give it (issue 16): every row is refused with the
project's error — its code and a fragment of the message a person reads — or, for the folder loaders, reported
by file name while the good file beside it still loads.

The table is built from small adapters (one per loader, the CLI, the API) so each row reads as
(input, expected code, expected message fragment). Hypothesis then fuzzes every loader with malformed JSON
and TOML, and real processes race to save one name in the library and in an encounter folder.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.calibration.bestiary import SAMPLE_DIR, load_bestiary
from workbench.encounter.encounter import Encounter, load_encounter, save_encounter
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput, WorkbenchError
from workbench.homebrew.rule import RULES_DIR, load_rules
from workbench.monster.formulas import build_monster
from workbench.monster.library import LibraryError, load_library, load_monster, save_monster
from workbench.rules.datafile import read_toml
from workbench.rules.safe_file import MAX_FILE_BYTES

GOOD_STAT_BLOCK = sorted(SAMPLE_DIR.rglob("*.json"))[0]
GOOD_MODULE = RULES_DIR / "generic-swarm.toml"


@dataclass(frozen=True)
class Row:
    """One hostile input: what is tried (given a scratch folder), the error code and a message fragment."""

    case: str
    attempt: Callable[[Path], tuple[str, str] | None]
    code: str
    fragment: str


def outcome(attempt: Callable[[Path], tuple[str, str] | None], folder: Path) -> tuple[str, str]:
    """(code, message) of a refusal: raised as a WorkbenchError, or reported by an adapter."""
    try:
        reported = attempt(folder)
    except WorkbenchError as exc:
        return exc.code, str(exc)
    assert reported is not None, "the hostile input was accepted"
    return reported


# ---------------------------------------------------------------- loader adapters


def in_library(content: bytes) -> Callable[[Path], tuple[str, str]]:
    """Beside a good monster in a library folder: the library opens, the good one loads, the bad is named."""

    def attempt(folder: Path) -> tuple[str, str]:
        save_monster(build_monster(3, "platoon", "brute"), "Good", folder)
        (folder / "Hostile.json").write_bytes(content)
        contents = load_library(folder)
        assert contents.names() == ("Good",)
        problems = dict(contents.problems)
        assert list(problems) == ["Hostile.json"]
        return LibraryError.code, "Hostile.json: " + problems["Hostile.json"]

    return attempt


def as_encounter(content: bytes) -> Callable[[Path], None]:
    def attempt(folder: Path) -> None:
        (folder / "hostile.json").write_bytes(content)
        load_encounter(folder / "hostile.json")

    return attempt


def in_rules(content: bytes, suffix: str) -> Callable[[Path], tuple[str, str]]:
    """Beside a good module: every problem named by the hostile file, none by the good one."""

    def attempt(folder: Path) -> tuple[str, str]:
        shutil.copy(GOOD_MODULE, folder / GOOD_MODULE.name)
        (folder / f"hostile{suffix}").write_bytes(content)
        try:
            load_rules(folder)
        except WorkbenchError as exc:
            problems = exc.problems  # type: ignore[attr-defined]
            assert problems and all(p.startswith(f"hostile{suffix}: ") for p in problems), problems
            return exc.code, "; ".join(problems)
        raise AssertionError("the hostile module loaded")

    return attempt


def in_bestiary(content: bytes) -> Callable[[Path], tuple[str, str]]:
    def attempt(folder: Path) -> tuple[str, str]:
        shutil.copy(GOOD_STAT_BLOCK, folder / "good.json")
        (folder / "hostile.json").write_bytes(content)
        bestiary = load_bestiary(folder)
        assert len(bestiary.monsters) == 1
        assert [f.file for f in bestiary.failures] == ["hostile.json"]
        return "invalid-stat-block", "hostile.json: " + bestiary.failures[0].reason

    return attempt


def as_data_file(content: bytes) -> Callable[[Path], None]:
    def attempt(folder: Path) -> None:
        (folder / "table.toml").write_bytes(content)
        read_toml(folder / "table.toml")

    return attempt


DEEP = 100_000
JSON_FILES = [
    # (what, content, fragment)
    ("arrays nested 100,000 deep", b"[" * DEEP, "nested deeper than 64 levels"),
    ("objects nested 100,000 deep", b'{"a":' * DEEP, "nested deeper than 64 levels"),
    ("arrays nested 70 deep, closed", b"[" * 70 + b"]" * 70, "nested deeper than 64 levels"),
    ("objects nested 70 deep, closed", b'{"a":' * 70 + b"1" + b"}" * 70, "nested deeper than 64 levels"),
    ("an integer of 4,400 digits", b'{"level": ' + b"9" * 4400 + b"}", "a number longer than 40 characters"),
    ("an integer of 50 digits", b'{"level": ' + b"7" * 50 + b"}", "a number longer than 40 characters"),
    ("a float of 60 digits", b'{"ev": 1.' + b"3" * 60 + b"}", "a number longer than 40 characters"),
    ("1e400 (infinite as a float)", b'{"level": 1e400}', "infinite, not a number, or beyond"),
    ("1e-50", b'{"level": 1e-50}', "beyond"),
    ("NaN", b'{"level": NaN}', "NaN is not a number"),
    ("Infinity", b'{"level": Infinity}', "Infinity is not a number"),
    ("-Infinity", b'{"level": -Infinity}', "-Infinity is not a number"),
    ("over 1 MiB", b"{" + b" " * MAX_FILE_BYTES + b"}", "too large: more than 1 MiB"),
    ("Latin-1 text", '{"name": "Orc café"}'.encode("latin-1"), "not UTF-8 text"),
    ("a lone surrogate in a text", b'{"name": "\\ud800"}', "lone surrogate"),
    ("a lone surrogate in a key", b'{"\\udfff": 1}', "lone surrogate"),
    ("truncated", b'{"format": "drawst', "not valid JSON"),
    ("empty", b"", "not valid JSON"),
    ("NUL bytes", b"\x00" * 16, "not valid JSON"),
]

TOML_FILES = [
    ("arrays nested 100,000 deep", b"a = " + b"[" * DEEP, "nested deeper than 64 levels"),
    ("inline tables nested 70 deep", b"a = " + b"{b = " * 70 + b"1" + b"}" * 70, "nested deeper than 64 levels"),
    ("table headers 70 deep", ("[" + ".".join(["t"] * 70) + "]\nx = 1\n").encode(), "nested deeper than 64 levels"),
    ("an integer of 4,400 digits", b"a = " + b"9" * 4400, "a number longer than 40 characters"),
    ("an integer of 50 digits", b"a = " + b"7" * 50, "a number longer than 40 characters"),
    ("inf", b"a = inf", "infinite, not a number, or beyond"),
    ("nan", b"a = nan", "infinite, not a number, or beyond"),
    ("-inf", b"a = -inf", "infinite, not a number, or beyond"),
    ("1e99999999", b"a = 1e99999999", "infinite, not a number, or beyond"),
    ("over 1 MiB", b"# " + b"x" * MAX_FILE_BYTES, "too large: more than 1 MiB"),
    ("Latin-1 text", 'a = "café"'.encode("latin-1"), "not UTF-8 text"),
    ("truncated", b'a = "', "not valid TOML"),
    ("NUL bytes", b"\x00", "not valid TOML"),
    ("a key twice", b"a = 1\na = 2\n", "not valid TOML"),
]

LOADER_ROWS = (
    [Row(f"library: {what}", in_library(content), "library-file", fragment) for what, content, fragment in JSON_FILES]
    + [Row(f"encounter: {what}", as_encounter(content), "invalid-file", fragment)
       for what, content, fragment in JSON_FILES]
    + [Row(f"rule module (.json): {what}", in_rules(content, ".json"), "invalid-ruleset", fragment)
       for what, content, fragment in JSON_FILES]
    + [Row(f"bestiary: {what}", in_bestiary(content), "invalid-stat-block", fragment)
       for what, content, fragment in JSON_FILES]
    + [Row(f"rule module (.toml): {what}", in_rules(content, ".toml"), "invalid-ruleset", fragment)
       for what, content, fragment in TOML_FILES]
    + [Row(f"data file: {what}", as_data_file(content), "invalid-ruleset", fragment)
       for what, content, fragment in TOML_FILES]
)


# ---------------------------------------------------------------- links, pipes and folders


def outside_link(kind: str) -> Callable[[Path], tuple[str, str]]:
    """A symlink in the folder to a perfectly good file outside it: refused (files inside the folder only)."""

    def attempt(folder: Path) -> tuple[str, str]:
        outside = folder / "elsewhere"
        inside = folder / "lib"
        inside.mkdir()
        if kind == "library":
            save_monster(build_monster(2, "horde", "harrier"), "Stray", outside)
            (inside / "Stray.json").symlink_to(outside / "Stray.json")
            return in_library_link(inside)
        if kind == "rules":
            outside.mkdir()
            shutil.copy(RULES_DIR / "exploitable-weakness.toml", outside / "w.toml")
            (inside / "w.toml").symlink_to(outside / "w.toml")
            return in_rules_link(inside)
        outside.mkdir()
        shutil.copy(GOOD_STAT_BLOCK, outside / "s.json")
        (inside / "s.json").symlink_to(outside / "s.json")
        bestiary = load_bestiary(inside)
        assert not bestiary.monsters
        return "invalid-stat-block", bestiary.failures[0].reason

    return attempt


def in_library_link(folder: Path) -> tuple[str, str]:
    contents = load_library(folder)
    assert not contents.entries
    return LibraryError.code, "; ".join(reason for _, reason in contents.problems)


def in_rules_link(folder: Path) -> tuple[str, str]:
    try:
        load_rules(folder)
    except WorkbenchError as exc:
        return exc.code, str(exc)
    raise AssertionError("a module outside the folder loaded")


def fifo_encounter(folder: Path) -> None:
    os.mkfifo(folder / "pipe.json")
    load_encounter(folder / "pipe.json")  # must not wait for a writer


def fifo_bestiary(folder: Path) -> None:
    os.mkfifo(folder / "pipe.json")
    load_bestiary(folder / "pipe.json")


def folder_as_encounter(folder: Path) -> None:
    (folder / "dir.json").mkdir()
    load_encounter(folder / "dir.json")


def save_through_a_file(folder: Path) -> None:
    (folder / "plain").write_text("not a folder")
    save_monster(build_monster(1, "minion", "brute"), "Kept", folder / "plain" / "lib")


def save_encounter_through_a_file(folder: Path) -> None:
    (folder / "plain").write_text("not a folder")
    save_encounter(Encounter(party=make_party(heroes=4, level=1)), folder / "plain" / "e.json")


FILE_SYSTEM_ROWS = [
    Row("library: a symlink to a monster outside the folder", outside_link("library"), "library-file",
        "a link to a file outside the folder"),
    Row("rule modules: a symlink to a module outside the folder", outside_link("rules"), "invalid-ruleset",
        "a link to a file outside the folder"),
    Row("bestiary: a symlink to a stat block outside the folder", outside_link("bestiary"), "invalid-stat-block",
        "a link to a file outside the folder"),
    Row("encounter: a FIFO given as the file", fifo_encounter, "invalid-file", "not a regular file"),
    Row("bestiary: a FIFO given as the path", fifo_bestiary, "invalid-path", "not a regular file or folder"),
    Row("encounter: a folder given as the file", folder_as_encounter, "invalid-file", "not a regular file (a folder)"),
    Row("save_monster: the folder path runs through a file", save_through_a_file, "library-file",
        "a part of the path is a file, not a folder"),
    Row("save_encounter: the path runs through a file", save_encounter_through_a_file, "invalid-file",
        "a part of the path is a file, not a folder"),
]


ROWS = LOADER_ROWS + FILE_SYSTEM_ROWS


def test_the_cases_of_the_table_are_distinct():
    assert len({row.case for row in ROWS}) == len(ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[row.case for row in ROWS])
def test_hostile_input_is_refused_with_the_projects_error(row: Row, tmp_path: Path):
    code, message = outcome(row.attempt, tmp_path)
    assert code == row.code, message
    assert row.fragment in message
    assert "Traceback" not in message and len(message) < 2_000


# ---------------------------------------------------------------- fuzzing every loader


def _mutations(draw, text: bytes) -> bytes:
    choice = draw(st.sampled_from(["truncate", "insert", "delete", "nest", "replace", "whole"]))
    if choice == "truncate":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if choice == "insert":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.binary(min_size=1, max_size=8)) + text[at:]
    if choice == "delete":
        at = draw(st.integers(0, max(0, len(text) - 1)))
        return text[:at] + text[at + draw(st.integers(1, 8)):]
    if choice == "nest":
        depth = draw(st.integers(1, 300))
        return b"[" * depth + text + b"]" * draw(st.integers(0, depth))
    if choice == "replace":
        at = draw(st.integers(0, max(0, len(text) - 1)))
        return text[:at] + draw(st.sampled_from([b"true", b"null", b"1e999", b"-0", b"9" * 60, b'"', b"{", b"NaN"])) + text[at + 1:]
    return draw(st.binary(max_size=64))


@st.composite
def malformed_json(draw, base: bytes) -> bytes:
    """A valid file of the loader's own kind, mutated, or random JSON-ish bytes."""
    leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    if draw(st.booleans()):
        import json

        tree = draw(st.recursive(leaves, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4), max_leaves=20))
        return json.dumps(tree).encode()
    return _mutations(draw, base)


@st.composite
def malformed_toml(draw, base: bytes) -> bytes:
    return _mutations(draw, base)


FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

def _library_base(folder: Path) -> bytes:
    return save_monster(build_monster(5, "elite", "brute"), "Base", folder / "base").read_bytes()


def _encounter_base(folder: Path) -> bytes:
    encounter = Encounter(party=make_party(heroes=4, level=3)).adding("2 x level 3 platoon brute")
    return save_encounter(encounter, folder / "base" / "e.json").read_bytes()


@FUZZ
@given(data=st.data())
def test_fuzzed_library_files_never_take_the_library_down(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("lib")
    content = data.draw(malformed_json(_library_base(folder)))
    save_monster(build_monster(3, "platoon", "brute"), "Good", folder)
    (folder / "Fuzzed.json").write_bytes(content)
    contents = load_library(folder)
    assert "Good" in contents.names()
    assert {name for name, _ in contents.problems} <= {"Fuzzed.json"}


@FUZZ
@given(data=st.data())
def test_fuzzed_encounter_files_are_refused_or_loaded_never_raise_raw(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("enc")
    content = data.draw(malformed_json(_encounter_base(folder)))
    (folder / "fuzzed.json").write_bytes(content)
    try:
        load_encounter(folder / "fuzzed.json")
    except InvalidInput as exc:
        assert exc.field == "file" and "fuzzed.json" in str(exc)


@FUZZ
@given(data=st.data())
def test_fuzzed_rule_modules_are_reported_by_name(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("rules")
    suffix = data.draw(st.sampled_from([".toml", ".json"]))
    base = GOOD_MODULE.read_bytes()
    content = data.draw(malformed_toml(base) if suffix == ".toml" else malformed_json(b'{"format": 1}'))
    shutil.copy(RULES_DIR / "exploitable-weakness.toml", folder / "good.toml")
    (folder / f"fuzzed{suffix}").write_bytes(content)
    try:
        rules = load_rules(folder)
    except WorkbenchError as exc:
        assert all(p.startswith(f"fuzzed{suffix}: ") for p in exc.problems)  # type: ignore[attr-defined]
    else:
        assert "exploitable-weakness" in rules


@FUZZ
@given(data=st.data())
def test_fuzzed_stat_blocks_are_reported_by_name(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("best")
    content = data.draw(malformed_json(GOOD_STAT_BLOCK.read_bytes()))
    shutil.copy(GOOD_STAT_BLOCK, folder / "good.json")
    (folder / "fuzzed.json").write_bytes(content)
    bestiary = load_bestiary(folder)
    assert any(m.name for m in bestiary.monsters)
    assert {f.file for f in bestiary.failures} <= {"fuzzed.json"}


@FUZZ
@given(data=st.data())
def test_fuzzed_data_files_are_refused_by_name(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("toml")
    content = data.draw(malformed_toml((RULES_DIR.parent / "encounters.toml").read_bytes()[:2000]))
    (folder / "table.toml").write_bytes(content)
    try:
        read_toml(folder / "table.toml")
    except WorkbenchError as exc:
        assert "table.toml" in str(exc)


# ---------------------------------------------------------------- real processes racing to save one name

RACERS = 12


def _race_library(folder: str, level: int, barrier, results) -> None:
    barrier.wait()
    try:
        save_monster(build_monster(level, "platoon", "brute"), "Contested", folder)
        results.put(("saved", level))
    except InvalidInput as exc:
        results.put(("refused", exc.code))


def _race_encounter(path: str, heroes: int, barrier, results) -> None:
    barrier.wait()
    try:
        save_encounter(Encounter(party=make_party(heroes=heroes, level=1)), path)
        results.put(("saved", heroes))
    except InvalidInput as exc:
        results.put(("refused", exc.code))


def _race(target, first_arg: str) -> list[tuple[str, object]]:
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(RACERS), context.Queue()
    processes = [context.Process(target=target, args=(first_arg, n, barrier, results)) for n in range(1, RACERS + 1)]
    for p in processes:
        p.start()
    outcomes = [results.get(timeout=60) for _ in processes]
    for p in processes:
        p.join(timeout=60)
        assert p.exitcode == 0
    return outcomes


def test_processes_saving_one_new_monster_name_exactly_one_wins(tmp_path):
    outcomes = _race(_race_library, str(tmp_path))
    saved = [value for kind, value in outcomes if kind == "saved"]
    assert len(saved) == 1
    assert sorted(kind for kind, _ in outcomes).count("refused") == RACERS - 1
    assert load_monster("Contested", tmp_path).level == saved[0]  # the winner's monster, whole
    assert [p.name for p in tmp_path.iterdir()] == ["Contested.json"]


def test_processes_saving_one_new_encounter_file_exactly_one_wins(tmp_path):
    path = tmp_path / "contested.json"
    outcomes = _race(_race_encounter, str(path))
    saved = [value for kind, value in outcomes if kind == "saved"]
    assert len(saved) == 1
    assert all(value == "invalid-file" for kind, value in outcomes if kind == "refused")
    assert load_encounter(path).party.size == saved[0]
    assert [p.name for p in tmp_path.iterdir()] == ["contested.json"]


# ---------------------------------------------------------------- helpers for the rows below


def cli(*argv: str) -> Callable[[Path], tuple[str, str]]:
    """Run `workbench ARGV` in-process: (exit-N, stderr); a refusal is exit 2, one line, nothing on stdout."""

    def attempt(folder: Path) -> tuple[str, str]:
        from workbench.cli import main

        out, err = io.StringIO(), io.StringIO()
        args = [a.replace("{tmp}", str(folder)) for a in argv]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(args)
            except SystemExit as exc:
                status = exc.code
        assert out.getvalue() == "" or status == 0, out.getvalue()
        if status == 2:
            assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
        return f"exit-{status}", err.getvalue()

    return attempt
