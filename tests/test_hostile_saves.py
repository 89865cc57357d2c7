"""Hostile tries against what is saved and printed: imports as one transaction, switches that must be bools,
encounters never written over another kind of file, exports that replace only regular files and fail in one
line, names that cannot act on a terminal, printing refused before the browser when the text cannot fit, the
shipped rule modules read-only, names that look the same as one file, and a large library's save."""

from __future__ import annotations

import errno
import json
import os
import pty
import select
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import workbench as wb
from workbench.cli import main, one_line, terminal_safe
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.party import make_party
from workbench.io import writing
from workbench.io.lock import JOURNAL_NAME, LOCK_NAME
from workbench.monster import library as lib
from workbench.rules.ruleset import DATA_DIR

REPO = Path(__file__).resolve().parent.parent
CONTROLS = "\x1b\x07\u202e\r\x9b"


def _monster(name: str, level: int = 1) -> wb.Monster:
    return wb.build_monster(level, "platoon", "brute").model_copy(update={"name": name})


def _stat_file(folder: Path, name: str, built: int = 1, **changes: object) -> Path:
    """A Steel Compendium stat block file for `name` at level `built`; `changes` overwrite its fields as
    written."""
    data = json.loads(wb.export_monster(_monster(name, built), "steel-compendium"))
    data.update(changes)
    path = folder / f"{len(list(folder.glob('*.json'))):02}-{abs(hash(name)) % 10**6}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in (LOCK_NAME, JOURNAL_NAME)) if folder.exists() else []


def _refused(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


@pytest.fixture
def folders(tmp_path):
    files, library = tmp_path / "in", tmp_path / "library"
    files.mkdir()
    return files, library


# ---------------------------------------------------------------- import: all or nothing


def test_a_bad_value_in_the_last_file_saves_none_of_the_batch(folders, capsys):
    files, library = folders
    good = [_stat_file(files, name) for name in ("Alpha", "Beta")]
    bad = _stat_file(files, "Gamma", level="twelve")
    _refused(capsys, ["import", *map(str, good), str(bad), "--library", str(library)])
    assert _files(library) == []


@pytest.mark.parametrize(
    "first, second",
    [
        ("Alpha", "ALPHA"),  # by case
        ("Kobold", "\u212aobold"),  # the Kelvin sign folds to k
        ("Caf\u00e9", "Cafe\u0301"),  # NFC and NFD: the same name to a reader
    ],
)
def test_names_colliding_once_normalised_save_none(folders, capsys, first, second):
    files, library = folders
    paths = [_stat_file(files, "Zeta"), _stat_file(files, first), _stat_file(files, second)]
    err = _refused(capsys, ["import", *map(str, paths), "--library", str(library)])
    assert "different names" in err
    assert _files(library) == []


@pytest.mark.parametrize("obstacle", ["dangling symlink", "folder"])
@pytest.mark.parametrize("overwrite", [False, True])
def test_a_library_entry_that_is_no_file_stops_the_batch_before_anything_is_saved(folders, capsys, obstacle,
                                                                                    overwrite):
    files, library = folders
    library.mkdir()
    if obstacle == "folder":
        (library / "Omega.json").mkdir()
    else:
        (library / "Omega.json").symlink_to(library / "nowhere.json")
    paths = [_stat_file(files, "Alpha"), _stat_file(files, "Omega")]
    _refused(capsys, ["import", *map(str, paths), "--library", str(library)] + ["--overwrite"] * overwrite)
    assert _files(library) == ["Omega.json"]
    assert os.path.lexists(library / "Omega.json") and not (library / "Omega.json").is_file()


@pytest.mark.parametrize("obstacle", ["dangling symlink", "folder"])
def test_a_later_file_argument_that_is_no_file_saves_none(folders, capsys, obstacle):
    files, library = folders
    odd = files / "Omega.json"
    if obstacle == "folder":
        odd.mkdir()
    else:
        odd.symlink_to(files / "nowhere.json")
    _refused(capsys, ["import", str(_stat_file(files, "Alpha")), str(odd), "--library", str(library)])
    assert _files(library) == []


def test_a_full_disk_in_the_middle_of_a_batch_saves_none(folders, capsys, monkeypatch):
    files, library = folders
    paths = [_stat_file(files, f"Monster {n}") for n in range(12)]
    real = os.write
    count = {"n": 0}

    def write(fd, data):  # the seventh monster's file finds the disk full
        count["n"] += 1
        if count["n"] > 6:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(writing.os, "write", write)
    err = _refused(capsys, ["import", *map(str, paths), "--library", str(library)])
    assert "the disk is full" in err
    monkeypatch.undo()
    assert wb.list_monsters(library) == []


def test_overwrite_never_loses_the_old_monster_when_the_batch_is_refused(folders, capsys):
    files, library = folders
    wb.save_monster(_monster("Alpha", level=1), folder=library)
    old = (library / "Alpha.json").read_bytes()
    paths = [_stat_file(files, "Alpha", built=5), _stat_file(files, "Beta", level="bad")]
    _refused(capsys, ["import", *map(str, paths), "--library", str(library), "--overwrite"])
    assert (library / "Alpha.json").read_bytes() == old
    paths = [_stat_file(files, "Alpha", built=5), _stat_file(files, "ALPHA", built=6)]
    _refused(capsys, ["import", *map(str, paths), "--library", str(library), "--overwrite"])
    assert (library / "Alpha.json").read_bytes() == old
    assert _files(library) == ["Alpha.json"]


def test_a_taken_name_without_overwrite_saves_none_and_says_so(folders, capsys):
    files, library = folders
    wb.save_monster(_monster("Beta"), folder=library)
    paths = [_stat_file(files, "Alpha"), _stat_file(files, "BETA")]
    err = _refused(capsys, ["import", *map(str, paths), "--library", str(library)])
    assert "--overwrite" in err and "Beta.json" in err
    assert _files(library) == ["Beta.json"]


# ---------------------------------------------------------------- names on a terminal

EVIL = "Evil\x1b[2J\x1b]0;owned\x07\u202eeman\r\nsaved Fake (level 1) as /etc/passwd"


def test_one_line_escapes_controls_and_line_breaks():
    shown = one_line(EVIL)
    assert not any(c in shown for c in CONTROLS + "\n")
    assert "\\x1b[2J" in shown and "\\u202e" in shown and "\\r\\n" in shown
    assert "\n" in terminal_safe("a\nb")  # text output keeps its lines; one_line is for a name's line


def test_import_prints_a_hostile_name_on_one_inert_line(folders, capsys):
    files, library = folders
    path = _stat_file(files, EVIL)
    assert main(["import", str(path), "--library", str(library)]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in CONTROLS)
    assert len(out.splitlines()) == 1 and out.startswith("saved Evil\\x1b[2J")


def _on_a_terminal(argv: list[str]) -> str:
    """Run `workbench ARGV` with its stdout on a pseudo-terminal; what the terminal received."""
    leader, follower = pty.openpty()
    child = subprocess.Popen([sys.executable, "-m", "workbench.cli", *argv], stdout=follower,
                             stderr=subprocess.PIPE, cwd=REPO)
    os.close(follower)
    received = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        received += chunk
    child.wait(timeout=60)
    child.stderr.close()
    os.close(leader)
    assert child.returncode == 0
    return received.decode("utf-8")


@pytest.mark.timeout(120)
def test_export_markdown_to_a_terminal_escapes_the_name_and_to_a_pipe_writes_it_whole(folders):
    files, _library = folders
    path = _stat_file(files, EVIL)
    shown = _on_a_terminal(["export", str(path), "--format", "markdown", "-o", "-"])
    assert not any(c in shown for c in "\x1b\x07\u202e\x9b") and "Evil\\x1b" in shown
    piped = subprocess.run([sys.executable, "-m", "workbench.cli", "export", str(path), "--format", "markdown",
                            "-o", "-"], capture_output=True, cwd=REPO, timeout=120)
    assert piped.stdout.decode() == wb.export_monster(wb.import_monster(path), "markdown").rstrip("\n") + "\n"


def test_an_encounter_name_cannot_forge_a_line_of_the_report(tmp_path, capsys):
    name = "Ambush\nVictories: 99\r\x1b[2J"
    path = save_encounter(Encounter(name=name, party=make_party(heroes=4, level=3)).adding("level 3 platoon brute"),
                          tmp_path / "e.json")
    assert main(["encounter", str(path)]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in CONTROLS)
    assert [line for line in out.splitlines() if line.startswith("Victories:")] == ["Victories: 0"]
    assert out.startswith("Ambush\\nVictories: 99")


def test_a_file_named_with_escapes_is_named_inertly_on_stderr(tmp_path, capsys):
    folder = tmp_path / "bestiary"
    folder.mkdir()
    (folder / "evil\x1b[2J\u202e.json").write_text("{not json")
    _stat_file(folder, "Goblin")
    main(["suggest", "--heroes", "4", "--level", "1", "--difficulty", "standard", "--bestiary", str(folder)])
    err = capsys.readouterr().err
    named = [line for line in err.splitlines() if "not read" in line]
    assert len(named) == 1 and "evil\\x1b[2J\\u202e.json" in named[0]
    assert not any(c in err for c in CONTROLS)


# ---------------------------------------------------------------- switches are bools

SWITCHES = ["no", "False", -1, 1, 0, "", None]


@pytest.mark.parametrize("value", SWITCHES)
def test_save_encounter_overwrite_must_be_a_bool(tmp_path, value):
    path = save_encounter(Encounter(party=make_party(heroes=4, level=1)), tmp_path / "e.json")
    before = path.read_bytes()
    with pytest.raises(wb.InvalidInput) as caught:
        save_encounter(Encounter(party=make_party(heroes=5, level=9)), path, overwrite=value)
    assert caught.value.field == "overwrite"
    assert path.read_bytes() == before


@pytest.mark.parametrize("value", SWITCHES)
def test_save_monster_switches_must_be_bools(tmp_path, value):
    path = wb.save_monster(_monster("Alpha"), folder=tmp_path)
    before = path.read_bytes()
    with pytest.raises(wb.InvalidInput) as caught:
        wb.save_monster(_monster("Alpha", level=5), folder=tmp_path, overwrite=value)
    assert caught.value.field == "overwrite"
    assert path.read_bytes() == before


@pytest.mark.parametrize("value", SWITCHES)
def test_the_strike_choice_must_be_a_bool(value):
    with pytest.raises(wb.InvalidInput) as caught:
        wb.build_monster(1, "platoon", "brute", strike=value)
    assert caught.value.field == "strike"


@pytest.mark.parametrize("value", ["luck", "", None, 3, "<b>might</b>"])
def test_the_characteristic_choice_must_be_one_of_the_five(value):
    with pytest.raises(wb.InvalidInput) as caught:
        wb.build_monster(1, "platoon", "brute", characteristic=value)
    assert caught.value.field == "characteristic" and "might" in caught.value.accepts.lower()


@pytest.mark.parametrize("value", SWITCHES)
def test_rename_and_group_saves_take_bool_switches_only(tmp_path, value):
    wb.save_monster(_monster("Alpha"), folder=tmp_path)
    with pytest.raises(wb.InvalidInput, match="overwrite"):
        lib.save_monsters([("Beta", _monster("Beta"))], tmp_path, overwrite=value)
    assert wb.list_monsters(tmp_path) == ["Alpha"]


# ---------------------------------------------------------------- an encounter over another kind of file

SHIPPED = next(DATA_DIR.joinpath("bestiary-sample").rglob("*.json"))


def test_an_encounter_is_never_saved_over_a_monster_or_a_stat_block(tmp_path):
    monster = wb.save_monster(_monster("Alpha"), folder=tmp_path)
    before = monster.read_bytes()
    encounter = Encounter(party=make_party(heroes=4, level=1))
    with pytest.raises(wb.InvalidInput, match="not an encounter file"):
        save_encounter(encounter, monster, overwrite=True)
    assert monster.read_bytes() == before
    block = tmp_path / "block.json"
    block.write_bytes(SHIPPED.read_bytes())
    with pytest.raises(wb.InvalidInput, match="not an encounter file"):
        save_encounter(encounter, block, overwrite=True)
    assert block.read_bytes() == SHIPPED.read_bytes()


def test_a_shipped_stat_block_is_never_replaced(tmp_path):
    before = SHIPPED.read_bytes()
    encounter = Encounter(party=make_party(heroes=4, level=1))
    with pytest.raises(wb.InvalidInput, match="shipped data"):
        save_encounter(encounter, SHIPPED, overwrite=True)
    with pytest.raises(wb.InvalidInput, match="shipped data"):
        save_encounter(encounter, SHIPPED.with_name("new-encounter.json"))
    with pytest.raises(wb.InvalidInput, match="shipped data"):
        wb.save_monster(_monster("Alpha"), folder=SHIPPED.parent)
    assert SHIPPED.read_bytes() == before
    assert not SHIPPED.with_name("new-encounter.json").exists() and not (SHIPPED.parent / "Alpha.json").exists()


def test_the_encounter_page_saves_in_the_workspace_only(tmp_path):
    from workbench.apps.encounter import encounter_app

    home = tmp_path / "desk"
    shipped = SHIPPED.read_bytes()
    app = encounter_app(files_folder=home)
    app.controls["overwrite"].value = True
    for outside in (str(SHIPPED), str(tmp_path / "elsewhere.json"), "../escape.json"):
        app.controls["path"].value = outside
        app.controls["save"].click()
        assert "Saved" not in app.controls["file_message"].value
    assert SHIPPED.read_bytes() == shipped and not (tmp_path / "elsewhere.json").exists()
    assert not (tmp_path / "escape.json").exists()
    app.controls["path"].value = "encounters/gate.json"
    app.controls["save"].click()
    assert "Saved" in app.controls["file_message"].value
    assert load_encounter(home / "encounters" / "gate.json") == app.state()
    other = encounter_app(files_folder=home)
    other.controls["path"].value = "encounters/gate.json"
    other.controls["load"].click()
    assert other.state() == app.state()


def test_a_rename_with_overwrite_never_replaces_a_link_or_another_kind_of_file(tmp_path):
    wb.save_monster(_monster("Alpha"), folder=tmp_path)
    encounter = save_encounter(Encounter(party=make_party(heroes=4, level=1)), tmp_path / "Beta.json")
    before = encounter.read_bytes()
    with pytest.raises(lib.LibraryError, match="not a homebrew monster file"):
        wb.rename_monster("Alpha", "Beta", tmp_path, overwrite=True)
    assert encounter.read_bytes() == before
    (tmp_path / "Gamma.json").symlink_to(encounter)
    with pytest.raises(lib.LibraryError, match="symbolic link"):
        wb.rename_monster("Alpha", "Gamma", tmp_path, overwrite=True)
    assert (tmp_path / "Gamma.json").is_symlink() and wb.load_monster("Alpha", tmp_path).name == "Alpha"


# ---------------------------------------------------------------- export -o: only regular files


def _export(tmp_path: Path, target: str, capsys) -> str:
    source = _stat_file(tmp_path, "Alpha")
    return _refused(capsys, ["export", str(source), "--format", "markdown", "-o", target])


def test_export_refuses_to_replace_a_fifo_a_symlink_or_a_device(tmp_path, capsys):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    assert "named pipe" in _export(tmp_path, str(fifo), capsys)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    real = tmp_path / "real.md"
    real.write_text("kept")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert "symbolic link" in _export(tmp_path, str(link), capsys)
    assert link.is_symlink() and real.read_text() == "kept"
    before = os.lstat("/dev/null")
    assert "a device" in _export(tmp_path, "/dev/null", capsys)
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode) and os.lstat("/dev/null").st_ino == before.st_ino
    assert "symbolic link" in _export(tmp_path, "/dev/stdout", capsys)
    assert os.path.islink("/dev/stdout")


@pytest.mark.parametrize(
    "number, cause",
    [(errno.EROFS, "read-only file system"), (errno.ENOSPC, "the disk is full"), (errno.EACCES, "permission denied")],
)
def test_export_failures_are_one_line_naming_the_path(tmp_path, capsys, monkeypatch, number, cause):
    real_open = os.open

    def failing(path, *args, **kwargs):
        if str(path).endswith(".tmp"):
            raise OSError(number, os.strerror(number), str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(writing.os, "open", failing)
    target = tmp_path / "out.md"
    err = _export(tmp_path, str(target), capsys)
    assert str(target) in err and cause in err
    assert not target.exists() and not list(tmp_path.glob(".*.tmp"))


def test_an_export_gets_the_users_umask(tmp_path, capsys):
    old = os.umask(0o022)
    try:
        source = _stat_file(tmp_path, "Alpha")
        target = tmp_path / "alpha.md"
        assert main(["export", str(source), "--format", "markdown", "-o", str(target)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert not (tmp_path / LOCK_NAME).exists()  # no lock file left in the Director's folder
    assert not (tmp_path / JOURNAL_NAME).exists()


# ---------------------------------------------------------------- printing has limits


@pytest.mark.parametrize(
    "hostile",
    [
        {"name": "W" * 1_000_000},  # a 1,000,000-character name
        {"signature_text": "x" * 500_000},  # one 500,000-character word
        {"traits": tuple(wb.Trait(name=f"T{n}", text="t") for n in range(10_000))},  # 10,000 traits
        {"traits": (wb.Trait(name="Huge", text="word " * 40_000),)},  # one huge trait
    ],
    ids=["name", "word", "traits", "trait"],
)
@pytest.mark.parametrize("fmt", ["pdf", "png"])
def test_printing_refuses_text_the_page_cannot_hold_before_the_browser_starts(monkeypatch, hostile, fmt):
    from workbench.export import printout

    def no_browser():
        raise AssertionError("the browser was started")

    monkeypatch.setattr(printout, "_browser", no_browser)
    monster = wb.build_monster(3, "elite", "brute").model_copy(update=hostile)
    with pytest.raises(wb.InvalidInput) as caught:
        wb.export_monster(monster, fmt)
    assert caught.value.field == "monster" and "characters of text at most" in str(caught.value)


def test_every_sample_stat_block_fits_its_printed_page():
    from workbench.export.printout import PAGE_SIZES, _default_block, block_size, page_capacity

    blocks = [wb.read_stat_block(p) for p in DATA_DIR.joinpath("bestiary-sample").rglob("*.json")
              if "Statblocks" in p.parts]
    assert len(blocks) > 20
    for size in PAGE_SIZES.values():
        assert max(block_size(_default_block(m), size) for m in blocks) <= page_capacity(size), size.name


# ---------------------------------------------------------------- the shipped rule modules


def test_the_shipped_rules_cannot_be_changed_in_place():
    from workbench.homebrew.rule import shipped_rules

    rules = wb.shipped_rules()
    before = dict(rules)
    with pytest.raises(TypeError):
        rules["generic-swarm"] = rules["exploitable-weakness"]  # type: ignore[index]
    with pytest.raises(TypeError):
        del rules["generic-swarm"]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        rules.clear()  # type: ignore[attr-defined]
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen-instance error
        rules["generic-swarm"].name = "changed"  # type: ignore[misc]
    weakness = rules["exploitable-weakness"]
    with pytest.raises(TypeError):
        weakness.tags["escalation"] = ("anything",)
    with pytest.raises(TypeError):
        weakness.escalation.ladders.clear()
    with pytest.raises(TypeError):
        weakness.fill({"tag": "Silver"}).tags.update({"x": ()})
    assert dict(shipped_rules()) == before
    assert weakness.tags == dict(weakness.tags) and "escalation" in weakness.tags


# ---------------------------------------------------------------- names that look the same; a large library


def test_nfc_and_nfd_spellings_are_one_file(tmp_path):
    nfc, nfd = "Caf\u00e9", "Cafe\u0301"
    wb.save_monster(_monster(nfc), folder=tmp_path)
    with pytest.raises(lib.NameTaken):
        wb.save_monster(_monster(nfd), folder=tmp_path)
    wb.save_monster(_monster(nfd, level=4), folder=tmp_path, overwrite=True)
    assert _files(tmp_path) == [f"{nfc}.json"]
    assert wb.load_monster(nfd, tmp_path).level == 4
    (tmp_path / f"{nfc}.json").rename(tmp_path / f"{nfd}.json")  # a file written by another tool, as NFD
    with pytest.raises(lib.NameTaken):
        wb.save_monster(_monster(nfc), folder=tmp_path)
    assert wb.load_monster(nfc, tmp_path).level == 4


@pytest.mark.timeout(120)
def test_a_save_in_a_library_of_5000_monsters_does_not_list_the_folder(tmp_path, monkeypatch):
    text = lib.record_of(_monster("Seed")).model_dump_json()
    for n in range(5000):
        (tmp_path / f"Monster {n:04}.json").write_text(text)
    listed = []
    real_scandir, real_listdir = os.scandir, os.listdir

    def counted(real):
        def call(path="."):
            if Path(path) == tmp_path:
                listed.append(path)
            return real(path)

        return call

    monkeypatch.setattr(os, "scandir", counted(real_scandir))
    monkeypatch.setattr(os, "listdir", counted(real_listdir))
    wb.save_monster(_monster("First"), folder=tmp_path)  # the first save in this process lists it once
    assert len(listed) == 1
    for n in range(20):
        wb.save_monster(_monster(f"Monster {n:04}", level=2), folder=tmp_path, overwrite=True)
        with pytest.raises(lib.NameTaken):
            wb.save_monster(_monster(f"MONSTER {n:04}"), folder=tmp_path)  # a case variant is still found
        wb.save_monster(_monster(f"New {n}"), folder=tmp_path)
    assert len(listed) == 1
    # another process's save (the folder's save count moves) and a file copied in by hand (its time moves)
    # are seen: the next save lists the folder again and finds the case variant
    writing.write_atomic(tmp_path / "Goblin.json", text)
    with pytest.raises(lib.NameTaken):
        wb.save_monster(_monster("GOBLIN"), folder=tmp_path)
    os.utime(tmp_path, ns=(0, 5))
    (tmp_path / "Orc.json").write_text(text)
    with pytest.raises(lib.NameTaken):
        wb.save_monster(_monster("ORC"), folder=tmp_path)
    assert len(listed) == 3
    assert len(wb.list_monsters(tmp_path)) == 5000 + 1 + 20 + 2
