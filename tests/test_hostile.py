"""Hostile input, as an attacker and a careless user would give it: every row is refused with the
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

from workbench.encounter.encounter import Encounter
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.party import make_party
from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.bestiary import SAMPLE_DIR, load_bestiary
from workbench.homebrew.rule import RULES_DIR, load_rules
from workbench.io.lock import JOURNAL_NAME, LOCK_NAME
from workbench.io.reading import MAX_FILE_BYTES
from workbench.monster.formulas import build_monster
from workbench.monster.library import LibraryError, load_library, load_monster, save_monster
from workbench.rules.datafile import read_toml

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
    assert [p.name for p in tmp_path.iterdir() if p.name not in (LOCK_NAME, JOURNAL_NAME)] == ["Contested.json"]


def test_processes_saving_one_new_encounter_file_exactly_one_wins(tmp_path):
    path = tmp_path / "contested.json"
    outcomes = _race(_race_encounter, str(path))
    saved = [value for kind, value in outcomes if kind == "saved"]
    assert len(saved) == 1
    assert all(value == "invalid-file" for kind, value in outcomes if kind == "refused")
    assert load_encounter(path).party.size == saved[0]
    assert [p.name for p in tmp_path.iterdir() if p.name not in (LOCK_NAME, JOURNAL_NAME)] == ["contested.json"]


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


BIG = "9" * 4300
NUMBER_CLI_ROWS = [
    # the command line reads an integer only as plain ASCII digits, in a range it names
    Row("budget --heroes with a full-width digit", cli("budget", "--heroes", "５", "--level", "3"), "exit-2", "got '５'; accepts a whole number from 1 to 100"),
    Row("budget --heroes 5_0", cli("budget", "--heroes", "5_0", "--level", "3"), "exit-2", "got '5_0'"),
    Row("budget --heroes ' 5'", cli("budget", "--heroes", " 5", "--level", "3"), "exit-2", "got ' 5'"),
    Row("budget --heroes 100000000", cli("budget", "--heroes", "100000000", "--level", "3"), "exit-2", "from 1 to 100"),
    Row("budget --level 0", cli("budget", "--heroes", "5", "--level", "0"), "exit-2", "--level: got '0'; accepts a whole number from 1 to 100"),
    Row("budget --level 101", cli("budget", "--heroes", "5", "--level", "101"), "exit-2", "from 1 to 100"),
    Row("budget --level of 4,300 digits", cli("budget", "--heroes", "5", "--level", BIG), "exit-2", "(4302 characters)"),
    Row("budget --victories 1e100000000", cli("budget", "--heroes", "5", "--level", "3", "--victories", "1e100000000"), "exit-2", "from 0 to 100"),
    Row("budget --victories nan", cli("budget", "--heroes", "5", "--level", "3", "--victories", "nan"), "exit-2", "got 'nan'"),
    Row("budget --victories inf", cli("budget", "--heroes", "5", "--level", "3", "--victories", "inf"), "exit-2", "got 'inf'"),
    Row("budget --victories -1", cli("budget", "--heroes", "5", "--level", "3", "--victories=-1"), "exit-2", "from 0 to 100"),
    Row("budget --victories 1/0", cli("budget", "--heroes", "5", "--level", "3", "--victories", "1/0"), "exit-2", "got '1/0'"),
    Row("budget --victories 101", cli("budget", "--heroes", "5", "--level", "3", "--victories", "101"), "exit-2", "from 0 to 100"),
    Row("budget --victories with an Arabic-Indic digit", cli("budget", "--heroes", "5", "--level", "3", "--victories", "٣"), "exit-2", "from 0 to 100"),
    Row("malice --rounds 1000000000", cli("malice", "--heroes", "5", "--victories", "3", "--rounds", "1000000000"), "exit-2", "--rounds: got '1000000000'; accepts a whole number from 1 to 100"),
    Row("malice --heroes 0", cli("malice", "--heroes", "0", "--victories", "3", "--rounds", "5"), "exit-2", "from 1 to 100"),
    Row("malice --victories 1e100000000", cli("malice", "--heroes", "5", "--victories", "1e100000000", "--rounds", "5"), "exit-2", "--victories"),
    Row("malice --deaths 3:９", cli("malice", "--heroes", "5", "--victories", "3", "--rounds", "5", "--deaths", "3:９"), "exit-2", "ROUND:COUNT"),
    Row("malice --deaths 0:1", cli("malice", "--heroes", "5", "--victories", "3", "--rounds", "5", "--deaths", "0:1"), "exit-2", "ROUND:COUNT"),
    Row("monster --level 10**30", cli("monster", "--level", "1" + "0" * 30, "--organization", "solo"), "exit-2", "from 1 to 100"),
    Row("monster --level -1", cli("monster", "--level=-1", "--organization", "solo"), "exit-2", "from 1 to 100"),
    Row("monster --level with an Arabic-Indic digit", cli("monster", "--level", "٣", "--organization", "solo"), "exit-2", "got '٣'"),
    Row("monster --targets 101", cli("monster", "--level", "3", "--organization", "elite", "--role", "brute", "--targets", "101"), "exit-2", "from 1 to 100"),
    Row("solo --level 101", cli("solo", "--level", "101", "--organization", "leader"), "exit-2", "from 1 to 100"),
    Row("suggest --seed 5_0", cli("suggest", "--heroes", "4", "--level", "1", "--difficulty", "standard", "--seed", "5_0"), "exit-2", "got '5_0'"),
    Row("app --port with a full-width digit", cli("app", "--port", "８０８０"), "exit-2", "got '８０８０'"),
]


def encounter_file(**changes) -> Callable[[Path], tuple[str, str]]:
    """`workbench encounter FILE` on a saved encounter with one creature's stored fields changed."""
    import json

    def attempt(folder: Path) -> tuple[str, str]:
        encounter = Encounter(party=make_party(heroes=4, level=3)).adding("level 10 solo")
        path = save_encounter(encounter, folder / "e.json")
        data = json.loads(path.read_text())
        for key, value in changes.items():
            target = data["encounter"]["party"] if key == "victories" else data["encounter"]["creatures"][0]
            target[key] = value
        text = json.dumps(data).replace('"__BIG__"', "1" + "0" * 30)
        path.write_text(text)
        return cli("encounter", str(path))(folder)

    return attempt


def fifo_cli(command: str) -> Callable[[Path], tuple[str, str]]:
    def attempt(folder: Path) -> tuple[str, str]:
        os.mkfifo(folder / "pipe.json")
        return cli(command, str(folder / "pipe.json"))(folder)

    return attempt


FILE_CLI_ROWS = [
    Row("encounter FILE: a FIFO", fifo_cli("encounter"), "exit-2", "error: FILE: got"),
    Row("calibrate PATH: a FIFO", fifo_cli("calibrate"), "exit-2", "error: PATH: got"),
    Row("encounter FILE: missing", cli("encounter", "{tmp}/missing.json"), "exit-2", "error: FILE: got"),
    Row("encounter FILE: a folder", cli("encounter", "{tmp}"), "exit-2", "not a regular file (a folder)"),
    Row('encounter file: "level": true', encounter_file(level=True), "exit-2", "creatures.0.level"),
    Row('encounter file: "count": "3"', encounter_file(count="3"), "exit-2", "creatures.0.count"),
    Row("encounter file: a level-10 solo stored with EV 0", encounter_file(ev=0), "exit-2", "the file says 0, the formulas give"),
    Row("encounter file: a level-10 solo stored with EV 1", encounter_file(ev=1), "exit-2", "the file says 1, the formulas give"),
    Row("encounter file: level 1000", encounter_file(level=1000), "exit-2", "creatures.0.level"),
    Row("encounter file: a count of 10**30", encounter_file(count="__BIG__"), "exit-2", "creatures.0.count"),
    Row('encounter file: victories "1e100000000"', encounter_file(victories="1e100000000"), "exit-2", "party.victories"),
    Row("encounter file: victories 101", encounter_file(victories="101"), "exit-2", "party.victories: got 101; accepts 0 to 100"),
    Row('encounter file: victories "NaN"', encounter_file(victories="NaN"), "exit-2", "party.victories"),
]


def api(call: Callable[[], object]) -> Callable[[Path], None]:
    def attempt(folder: Path) -> None:
        call()

    return attempt


def _api_rows() -> list[Row]:
    from decimal import Decimal

    from workbench.encounter.encounter import parse_spec
    from workbench.encounter.groups import parse_groups
    from workbench.encounter.quick_method import quick_plan
    from workbench.fight.malice_plan import spending_plan
    from workbench.fight.malice_schedule import malice_schedule
    from workbench.fight.squad import make_squad
    from workbench.homebrew.attach import attach_rule
    from workbench.homebrew.rule import rule_from_dict, shipped_rules
    from workbench.homebrew.weakness import weakness_wound

    party = make_party(heroes=4, level=3)
    brute = build_monster(3, "platoon", "brute")
    weakness = shipped_rules()["exploitable-weakness"]
    one = Encounter(party=party).adding("level 1 platoon brute")
    huge = 10**30
    return [
        Row("build_monster(level=10**30)", api(lambda: build_monster(huge, "solo")), "invalid-level", "a whole number from 1 to 100"),
        Row("build_monster(level=True)", api(lambda: build_monster(True, "solo")), "invalid-level", "got True"),
        Row("build_monster(level=101)", api(lambda: build_monster(101, "solo")), "invalid-level", "from 1 to 100"),
        Row("build_monster(level of 4,400 digits)", api(lambda: build_monster(10**4400, "solo")), "invalid-level", "a number of about"),
        Row("build_monster(targets=10**30)", api(lambda: build_monster(3, "elite", "brute", targets=huge)), "invalid-targets", "to 100"),
        Row('build_monster(ruleset="core")', api(lambda: build_monster(3, "platoon", "brute", ruleset="core")), "invalid-ruleset", "a Ruleset"),
        Row("make_party(heroes=100000000)", api(lambda: make_party(heroes=100_000_000, level=3)), "invalid-heroes", "from 1 to 100"),
        Row("make_party(level=10**30)", api(lambda: make_party(heroes=4, level=huge)), "invalid-level", "from 1 to 100"),
        Row('make_party(victories=Decimal("NaN"))', api(lambda: make_party(heroes=4, level=3, victories=Decimal("NaN"))), "invalid-victories", "from 0 to 100"),
        Row('make_party(victories=Decimal("Infinity"))', api(lambda: make_party(heroes=4, level=3, victories=Decimal("Infinity"))), "invalid-victories", "from 0 to 100"),
        Row('make_party(victories=Decimal("1e100000000"))', api(lambda: make_party(heroes=4, level=3, victories=Decimal("1e100000000"))), "invalid-victories", "from 0 to 100"),
        Row('make_party(victories="1e100000000")', api(lambda: make_party(heroes=4, level=3, victories="1e100000000")), "invalid-victories", "from 0 to 100"),
        Row("make_party(victories=-1)", api(lambda: make_party(heroes=4, level=3, victories=-1)), "invalid-victories", "from 0 to 100"),
        Row("make_party(heroes=3, retainers=5)", api(lambda: make_party(heroes=3, level=1, retainers=5)), "invalid-retainers", "a list of levels"),
        Row('make_party(allies="3")', api(lambda: make_party(heroes=3, level=1, allies="3")), "invalid-allies", "a list of levels"),
        Row("make_party(levels=[1] * 101)", api(lambda: make_party([1] * 101)), "invalid-levels", "at most 100"),
        Row("make_party(heroes=60, retainers=[1] * 60)", api(lambda: make_party(heroes=60, level=1, retainers=[1] * 60)), "invalid-heroes", "at most 100"),
        Row("malice_schedule(rounds=10**9)", api(lambda: malice_schedule(5, 3, 10**9)), "invalid-rounds", "from 1 to 100"),
        Row("malice_schedule(heroes=10**30)", api(lambda: malice_schedule(huge, 3, 5)), "invalid-heroes", "from 1 to 100"),
        Row('malice_schedule(victories=Decimal("1e100000000"))', api(lambda: malice_schedule(5, Decimal("1e100000000"), 5)), "invalid-victories", "from 0 to 100"),
        Row("make_squad(stamina=10**30)", api(lambda: make_squad(stamina=huge, free_strike=2)), "invalid-stamina", "from 1 to 1000000"),
        Row("make_squad(free_strike=10**30)", api(lambda: make_squad(stamina=5, free_strike=huge)), "invalid-free-strike", "from 0 to 1000000"),
        Row("save_monster(None)", api(lambda: save_monster(None)), "invalid-monster", "a Monster"),
        Row("save_monster(folder=123)", api(lambda: save_monster(brute, "X", folder=123)), "invalid-folder", "a folder path"),
        Row("load_rules(None)", api(lambda: load_rules(None)), "invalid-folder", "a folder of rule modules"),
        Row("load_encounter(None)", api(lambda: load_encounter(None)), "invalid-file", "an encounter JSON file"),
        Row("load_bestiary(None)", api(lambda: load_bestiary(None)), "invalid-path", "a folder of stat block JSON files"),
        Row('Encounter.without_creature("0")', api(lambda: one.without_creature("0")), "invalid-index", "a creature index"),
        Row("Encounter.without_terrain(True)", api(lambda: one.without_terrain(True)), "invalid-index", "a terrain index"),
        Row("spending_plan(schedule, None)", api(lambda: spending_plan(malice_schedule(4, 2, 3), None)), "invalid-wishes", "a list of Malice features"),
        Row('quick_plan(party, "standard", [None])', api(lambda: quick_plan(party, "standard", [None])), "invalid-creatures", "a list of Creatures"),
        Row('weakness_wound(rule, [], "hit", True)', api(lambda: weakness_wound(weakness, [], "hit", True)), "invalid-grip", "one of one_handed"),
        Row('weakness_wound(rule, "one_handed", None, True)', api(lambda: weakness_wound(weakness, "one_handed", None, True)), "invalid-outcome", "one of"),
        Row('attach_rule(monster, rule, "tag=Silver")', api(lambda: attach_rule(brute, weakness, "tag=Silver")), "invalid-values", "parse_attachments"),
        Row("attach_rule with a 20 KB tag", api(lambda: attach_rule(brute, weakness, {"tag": "x" * 20_000})), "invalid-tag", "longer than 100 characters"),
        Row('parse_spec("9" * 5000 + " x level 3 platoon brute")', api(lambda: parse_spec("9" * 5000 + " x level 3 platoon brute")), "invalid-spec", "at most 100"),
        Row("parse_spec with a full-width count", api(lambda: parse_spec("５ x level 3 platoon brute")), "invalid-spec", "not in that form"),
        Row("parse_spec with level 10**30", api(lambda: parse_spec("level " + "1" + "0" * 30 + " platoon brute")), "invalid-spec", "from 1 to 100"),
        Row("parse_spec with 101 creatures", api(lambda: parse_spec("101 x level 3 platoon brute")), "invalid-spec", "at most 100"),
        Row('parse_groups("9" * 5000)', api(lambda: parse_groups("9" * 5000, one)), "invalid-groups", "cannot read"),
        Row("a module of 12,000 placeholders", api(lambda: rule_from_dict({**weakness.model_dump(exclude_none=True), "text": "{tag} " * 3000})), "invalid-ruleset", "at most 100"),
        Row("a module with a 30,000-character text", api(lambda: rule_from_dict({**weakness.model_dump(exclude_none=True), "text": "x" * 30_000})), "invalid-ruleset", "at most 20000 characters"),
        Row('encounter app: Victories "1e100000000"', api(lambda: _party_from_controls(victories="1e100000000")), "invalid-victories", "from 0 to 100"),
        Row('encounter app: mixed levels "５ 3"', api(lambda: _party_from_controls(mixed="５ 3")), "invalid-levels", "levels separated by commas"),
        Row("encounter app: a retainer level of 5,000 digits", api(lambda: _party_from_controls(retainers="9" * 5000)), "invalid-retainers", "levels separated by commas"),
        Row("encounter app: mixed levels 101", api(lambda: _party_from_controls(mixed="3 101")), "invalid-levels", "from 1 to 100"),
        Row("a module with a 20 KB tag", api(lambda: rule_from_dict({**weakness.model_dump(exclude_none=True), "tags": {"escalation": ["x" * 20_000]}})), "invalid-ruleset", "longer than 200 characters"),
    ]


def _party_from_controls(victories: str = "0", mixed: str = "", retainers: str = "") -> object:
    from workbench.apps.encounter import party_from_controls

    return party_from_controls(4, 3, mixed, retainers, victories)


def saved_then(name: str) -> Callable[[Path], None]:
    """Save "Orc Brute", then try to save `name` (a case variant): one monster, one file."""

    def attempt(folder: Path) -> None:
        save_monster(build_monster(3, "platoon", "brute"), "Orc Brute", folder)
        save_monster(build_monster(4, "platoon", "brute"), name, folder)

    return attempt


def renamed_onto(name: str) -> Callable[[Path], None]:
    def attempt(folder: Path) -> None:
        from workbench.monster.library import rename_monster

        save_monster(build_monster(3, "platoon", "brute"), "Orc Brute", folder)
        save_monster(build_monster(1, "horde", "harrier"), "Goblin", folder)
        rename_monster("Goblin", name, folder)

    return attempt


def named(name: str) -> Callable[[Path], None]:
    return api(lambda: save_monster(build_monster(1, "minion", "brute"), name, Path("/nonexistent-never-created")))


NAME_ROWS = (
    [Row(f"monster name {name!r} (a Windows device)", named(name), "invalid-name", "a name Windows reserves")
     for name in ("CON", "NUL", "PRN", "AUX", "COM1", "LPT9", "con", "Nul", "COM¹", "Com9")]
    + [Row(f"monster name {name!r}", named(name), "invalid-name", fragment) for name, fragment in (
        ("../escape", "accepts 1 to 64"), ("a/b", "contains"), ("a\\b", "contains"), ("", "accepts 1 to 64"),
        ("   ", "accepts 1 to 64"), (".hidden", "accepts 1 to 64"), ("x" * 65, "accepts 1 to 64"),
        ("Orc\x1b[31m", "contains '\\x1b'"), ("Orc\x00", "contains '\\x00'"), ("Orc\u202e", "contains"),
    )]
    + [Row(f"save {name!r} beside 'Orc Brute'", saved_then(name), "invalid-name", "Orc Brute.json already exists")
       for name in ("orc brute", "ORC BRUTE", "Orc brute")]
    + [Row("rename onto a case variant of another monster", renamed_onto("ORC BRUTE"), "invalid-name",
           "Orc Brute.json already exists")]
)

def library_file(**changes) -> Callable[[Path], tuple[str, str]]:
    """A saved monster's file with fields changed, beside a good one: reported by name, the good one loads."""
    import json

    def attempt(folder: Path) -> tuple[str, str]:
        path = save_monster(build_monster(10, "solo"), "Hostile", folder)
        data = json.loads(path.read_text())
        for key, value in changes.items():
            if key.startswith("numbers_"):
                data["numbers"][key.removeprefix("numbers_")] = value
            else:
                data[key] = value
        text = json.dumps(data).replace('"__BIG__"', "1" + "0" * 30)
        path.unlink()
        return in_library(text.encode())(folder)

    return attempt


def failing_save(errno_code: int, kind: str) -> Callable[[Path], None]:
    """A save on a folder the system refuses to write (read-only, immutable, full): simulated, since the
    tests may run as root, which no permission bit stops."""

    def attempt(folder: Path) -> None:
        import errno as errnos
        from unittest import mock

        def refuse(*args: object, **kwargs: object) -> None:
            raise OSError(errno_code, os.strerror(errno_code))

        target = "os.link" if kind == "library" else "os.replace"
        with mock.patch(target, refuse), mock.patch("os.replace", refuse):
            if kind == "library":
                save_monster(build_monster(1, "minion", "brute"), "Kept", folder)
            else:
                save_encounter(Encounter(party=make_party(heroes=4, level=1)), folder / "e.json", overwrite=True)
        assert errnos  # the module is imported for the codes the rows name

    return attempt


TRUSTED_DATA_ROWS = [
    Row('library file: "level": true', library_file(level=True), "library-file", "level: not a whole number"),
    Row('library file: "targets": false', library_file(targets=False), "library-file", "targets: not a whole number"),
    Row('library file: "numbers.ev": true', library_file(numbers_ev=True), "library-file", "numbers.ev: not a whole number"),
    Row('library file: "level": 10**30', library_file(level="__BIG__"), "library-file", "Hostile.json"),
    Row('library file: "level": "3"', library_file(level="3"), "library-file", "level: not a whole number"),
    Row('library file: "level": 3.0', library_file(level=3.0), "library-file", "level: not a whole number"),
    Row("save_monster on a read-only file system", failing_save(30, "library"), "library-file", "read-only file system"),
    Row("save_monster on a protected folder", failing_save(13, "library"), "library-file", "permission denied"),
    Row("save_monster with the file size limit reached", failing_save(27, "library"), "library-file", "file size limit"),
    Row("save_encounter on a full disk", failing_save(28, "encounter"), "invalid-file", "the disk is full"),
    Row("save_encounter on an immutable file", failing_save(1, "encounter"), "invalid-file", "permission denied"),
]

ROWS = TRUSTED_DATA_ROWS + LOADER_ROWS + FILE_SYSTEM_ROWS + NUMBER_CLI_ROWS + FILE_CLI_ROWS + _api_rows() + NAME_ROWS


def test_the_table_is_large_enough_and_its_cases_distinct():
    assert len(ROWS) >= 150
    assert len({row.case for row in ROWS}) == len(ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[row.case for row in ROWS])
def test_hostile_input_is_refused_with_the_projects_error(row: Row, tmp_path: Path):
    code, message = outcome(row.attempt, tmp_path)
    assert code == row.code, message
    assert row.fragment in message
    assert "Traceback" not in message and len(message) < 2_000




# ---------------------------------------------------------------- handled, not refused


def test_rename_with_overwrite_onto_a_case_variant_never_deletes_the_monster(tmp_path):
    from workbench.monster.library import list_monsters, rename_monster

    save_monster(build_monster(3, "platoon", "brute"), "Orc Brute", tmp_path)
    rename_monster("Orc Brute", "orc brute", tmp_path, overwrite=True)
    assert list_monsters(tmp_path) == ["orc brute"]
    assert load_monster("ORC BRUTE", tmp_path).level == 3  # one monster, found whatever the case


def test_overwriting_a_case_variant_leaves_one_file(tmp_path):
    from workbench.monster.library import list_monsters, rename_monster

    save_monster(build_monster(3, "platoon", "brute"), "Orc Brute", tmp_path)
    save_monster(build_monster(5, "platoon", "brute"), "ORC BRUTE", tmp_path, overwrite=True)
    assert list_monsters(tmp_path) == ["ORC BRUTE"]
    assert load_monster("orc brute", tmp_path).level == 5
    save_monster(build_monster(2, "horde", "harrier"), "Goblin", tmp_path)
    rename_monster("Goblin", "orc BRUTE", tmp_path, overwrite=True)  # replaces the orc, keeps the goblin
    assert list_monsters(tmp_path) == ["orc BRUTE"]
    assert load_monster("orc brute", tmp_path).level == 2


def test_an_encounter_of_stat_blocks_with_their_own_numbers_loads_when_trusted(tmp_path):
    import json

    path = save_encounter(Encounter(party=make_party(heroes=4, level=3)).adding("level 10 solo"), tmp_path / "e.json")
    data = json.loads(path.read_text())
    data["encounter"]["creatures"][0]["ev"] = 150
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidInput, match="the file says 150"):
        load_encounter(path)
    assert load_encounter(path, trust_numbers=True).creatures[0].ev == 150


def _run_cli(*args: str):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, timeout=120)


def test_a_closed_pipe_ends_quietly(tmp_path):
    import subprocess
    import sys

    path = save_encounter(Encounter(party=make_party(heroes=4, level=3)).adding("level 3 platoon brute"), tmp_path / "e.json")
    reader = subprocess.Popen(["head", "-c", "0"], stdin=subprocess.PIPE)
    writer = subprocess.run([sys.executable, "-m", "workbench.cli", "encounter", str(path)], stdout=reader.stdin,
                            stderr=subprocess.PIPE, timeout=120)
    reader.stdin.close()
    reader.wait(timeout=30)
    assert b"Traceback" not in writer.stderr and b"BrokenPipe" not in writer.stderr, writer.stderr


def test_escape_sequences_in_names_never_reach_the_terminal(tmp_path):
    name = "Ambush \x1b[2J\x1b]0;owned\x07 \u202eevil \x9b31m"
    path = save_encounter(Encounter(name=name, party=make_party(heroes=4, level=3)).adding("level 3 platoon brute"),
                          tmp_path / "e.json")
    result = _run_cli("encounter", str(path))
    assert result.returncode == 0
    shown = result.stdout.decode()
    assert not any(c in shown for c in "\x1b\x07\u202e\x9b")
    assert "\\x1b[2J" in shown and "\\u202e" in shown  # visible, not acted on


def test_markdown_structure_in_user_text_stays_text():
    from workbench.model import Trait
    from workbench.render.stat_block import stat_block_markdown

    monster = build_monster(3, "elite", "brute").model_copy(update={
        "name": "Orc\n# Owned",
        "traits": (Trait(name="Fence", text="before\n~~~\nafter\n```\n# heading\n- item\n1. one\n---\n    code"),),
        "signature_text": "line\n~~~\n## inside\n+ plus\n===",
    })
    markdown = stat_block_markdown(monster)
    lines = markdown.splitlines()
    for line in lines:
        assert not line.startswith(("~~~", "```", "# ", "## ", "+ ", "===", "---", "    ", "1. ")), line
    assert lines.count("#### Traits") == 1
    assert sum(1 for line in lines if line.startswith("### ")) == 1  # the monster's own heading only
