"""The one safe-write path (workbench/io/writing.py): the folder's lock and its journal, compare-and-swap on a
content hash, only regular files replaced, the user's umask, one-line failures, groups saved all or none, and
what killed saves leave (real processes killed with SIGKILL in the middle of a save)."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from workbench.errors import InvalidInput
from workbench.io import writing
from workbench.io.lock import JOURNAL_NAME, LOCK_NAME, folder_lock
from workbench.io.problem import FileProblem
from workbench.io.writing import (
    ABSENT,
    FileChanged,
    content_hash,
    read_current,
    replace_folder,
    require_switch,
    set_aside,
    write_atomic,
    write_group,
)

REPO = Path(__file__).resolve().parent.parent


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in (LOCK_NAME, JOURNAL_NAME))


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".bak")))


# ---------------------------------------------------------------- switches


@pytest.mark.parametrize("value", ["no", "False", "", -1, 0, 1, None, 1.0, [True]])
def test_a_switch_is_a_real_bool(value):
    with pytest.raises(InvalidInput) as caught:
        require_switch("overwrite", value)
    assert caught.value.field == "overwrite"


@pytest.mark.parametrize("value", ["no", "False", -1, 1])
def test_write_atomic_refuses_a_switch_that_is_no_bool_and_keeps_the_file(tmp_path, value):
    target = write_atomic(tmp_path / "a.txt", "old")
    with pytest.raises(InvalidInput, match="overwrite"):
        write_atomic(target, "new", overwrite=value)
    assert target.read_text() == "old"


# ---------------------------------------------------------------- only regular files are replaced


def test_a_fifo_a_symlink_and_a_device_are_never_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    real = write_atomic(tmp_path / "real.txt", "kept")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    for target in (fifo, link):
        with pytest.raises(FileProblem, match="only a regular file"):
            write_atomic(target, "x", overwrite=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert link.is_symlink() and real.read_text() == "kept"
    device = Path("/dev/null")
    before = os.lstat(device)
    with pytest.raises(FileProblem, match="a device"):
        write_atomic(device, "x", overwrite=True, lock=False)
    after = os.lstat(device)
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert _temporaries(tmp_path) == []


def test_a_file_of_another_kind_is_refused_by_same_kind(tmp_path):
    target = write_atomic(tmp_path / "a.json", '{"format": "monster"}')
    with pytest.raises(FileProblem, match="cannot replace it: not mine"):
        write_atomic(target, "{}", overwrite=True, same_kind=lambda old: None if b"mine" in old else "not mine")
    assert target.read_text() == '{"format": "monster"}'


# ---------------------------------------------------------------- compare-and-swap


def test_a_write_expecting_what_was_read_refuses_when_another_wrote_in_between(tmp_path):
    target = tmp_path / "w.json"
    assert content_hash(read_current(target)) == ABSENT
    write_atomic(target, "first", expected=ABSENT, overwrite=True)
    seen = content_hash(read_current(target))
    write_atomic(target, "someone else's", overwrite=True)
    with pytest.raises(FileChanged, match="changed since it was read"):
        write_atomic(target, "mine", overwrite=True, expected=seen)
    assert target.read_text() == "someone else's"
    write_atomic(target, "mine", overwrite=True, expected=content_hash(b"someone else's"))
    assert target.read_text() == "mine"


# ---------------------------------------------------------------- modes and failures


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_new_file_gets_the_users_umask_and_a_replaced_one_keeps_its_mode(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        target = write_atomic(tmp_path / "export.md", "x", lock=False)
        assert stat.S_IMODE(target.stat().st_mode) == mode
        target.chmod(0o640)
        write_atomic(target, "y", overwrite=True, lock=False)
        assert stat.S_IMODE(target.stat().st_mode) == 0o640
    finally:
        os.umask(old)


@pytest.mark.parametrize(
    "number, cause",
    [
        (errno.EROFS, "read-only file system"),  # a read-only file system
        (errno.ENOSPC, "the disk is full"),  # a full disk
        (errno.EACCES, "permission denied"),  # a folder the user may not write
    ],
)
@pytest.mark.parametrize("lock", [True, False])
def test_a_file_system_failure_is_one_line_naming_the_file_and_the_cause(tmp_path, monkeypatch, number, cause, lock):
    target = write_atomic(tmp_path / "kept.txt", "old")
    real_open = os.open

    def failing(path, *args, **kwargs):
        if str(path).endswith(".tmp"):
            raise OSError(number, os.strerror(number), str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(writing.os, "open", failing)
    with pytest.raises(FileProblem) as caught:
        write_atomic(target, "new", overwrite=True, lock=lock)
    message = str(caught.value)
    assert message.startswith(str(target)) and cause in message and "\n" not in message
    assert target.read_text() == "old"
    assert _temporaries(tmp_path) == []


# ---------------------------------------------------------------- a group: all or none


def _failing_write_after(monkeypatch, writes: int) -> None:
    """os.write succeeds `writes` times, then the disk is full."""
    real = os.write
    count = {"n": 0}

    def write(fd, data):
        count["n"] += 1
        if count["n"] > writes:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(writing.os, "write", write)


def test_a_full_disk_in_the_middle_of_a_group_saves_none(tmp_path, monkeypatch):
    files = [(f"m{n:02}.json", f"monster {n}") for n in range(12)]
    _failing_write_after(monkeypatch, 6)  # the case: 6 of 12 had stayed
    with pytest.raises(FileProblem, match="the disk is full; nothing was saved"):
        write_group(tmp_path, files)
    assert _names(tmp_path) == []


def test_a_failed_group_with_overwrite_keeps_every_old_file(tmp_path, monkeypatch):
    for n in range(4):
        write_atomic(tmp_path / f"m{n}.json", f"old {n}")
    real_replace = os.replace
    calls = {"n": 0}

    def replace(source, target):  # the third file cannot be placed
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(source, target)

    monkeypatch.setattr(writing.os, "replace", replace)
    with pytest.raises(FileProblem, match="nothing was saved"):
        write_group(tmp_path, [(f"m{n}.json", f"new {n}") for n in range(4)], overwrite=True)
    monkeypatch.undo()
    assert [(tmp_path / f"m{n}.json").read_text() for n in range(4)] == [f"old {n}" for n in range(4)]
    assert _names(tmp_path) == [f"m{n}.json" for n in range(4)]


def test_a_group_refused_on_a_taken_name_writes_nothing(tmp_path):
    write_atomic(tmp_path / "b.json", "old b")
    with pytest.raises(FileExistsError):
        write_group(tmp_path, [("a.json", "a"), ("b.json", "b"), ("c.json", "c")])
    assert _names(tmp_path) == ["b.json"] and (tmp_path / "b.json").read_text() == "old b"


# ---------------------------------------------------------------- killed saves (real processes, SIGKILL)

# Each save runs in a process of its own, forked for it by one saver process that imported the workbench once
# (not a new Python per save). The save stops for good just before the temporary file is moved into place (its
# fsync never returns) and says "writing" with its process id: a kill then lands in the middle of the save,
# every time. The saver waits for each save's process and says how it ended.
_SAVER = textwrap.dedent(
    """
    import os, sys, time
    from workbench.io import writing

    def stall(fd):
        print("writing", os.getpid(), flush=True)
        time.sleep(600)

    def save(target, mode, payload):
        writing.os.fsync = stall
        if mode == "group":
            real_place = writing.place
            placed = []

            def place(source, dest, overwrite):
                if len(placed) == 2:
                    stall(None)
                placed.append(dest)
                real_place(source, dest, overwrite)

            writing.place = place
            writing.os.fsync = lambda fd: None
            folder = os.path.dirname(target)
            writing.write_group(folder, [(f"g{n}.json", payload * 1000) for n in range(4)], overwrite=True)
        else:
            writing.write_atomic(target, payload * 100_000, overwrite=True, lock=(mode == "locked"))

    for line in sys.stdin:
        target, mode, payload = line.rstrip("\\n").split("\\t")
        pid = os.fork()
        if pid == 0:
            try:
                save(target, mode, payload)
            finally:
                os._exit(1)  # a save that was not stopped: "exited", never "killed"
        _, status = os.waitpid(pid, 0)
        ended = f"killed {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exited {os.WEXITSTATUS(status)}"
        print(ended, flush=True)
    """
)


@pytest.fixture(scope="module")
def saver():
    """The saver process (see `_SAVER`), for the killed saves of this module."""
    process = subprocess.Popen([sys.executable, "-c", _SAVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               cwd=REPO, text=True)
    yield process
    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()
    process.wait(timeout=30)
    process.stdout.close()
    assert process.returncode == 0


def _killed_save(saver: subprocess.Popen[str], target: Path, mode: str, payload: str) -> None:
    """Start a save in another process and kill it (SIGKILL) in the middle of it."""
    assert saver.stdin is not None and saver.stdout is not None
    saver.stdin.write(f"{target}\t{mode}\t{payload}\n")
    saver.stdin.flush()
    said, _, pid = saver.stdout.readline().strip().partition(" ")
    assert said == "writing", said
    os.kill(int(pid), signal.SIGKILL)
    assert saver.stdout.readline().strip() == f"killed {int(signal.SIGKILL)}"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("mode", ["locked", "export"])
def test_ten_killed_saves_leave_no_temporary_file_and_no_damaged_file(tmp_path, mode, saver):
    target = tmp_path / "saved.json"
    write_atomic(target, "whole " * 10, overwrite=True, lock=(mode == "locked"))
    for kill in range(10):
        _killed_save(saver, target, mode, f"kill {kill} ")
        left = _temporaries(tmp_path)
        assert len(left) == 1, left  # the killed save's own temporary file (the one before is gone)
        assert target.read_text() == "whole " * 10  # the old file whole
    write_atomic(target, "after the kills", overwrite=True, lock=(mode == "locked"))
    assert _temporaries(tmp_path) == []
    assert target.read_text() == "after the kills"


@pytest.mark.timeout(120)
def test_a_group_killed_half_placed_is_undone_by_the_next_save(tmp_path, saver):
    for n in range(4):
        write_atomic(tmp_path / f"g{n}.json", f"old {n}")
    _killed_save(saver, tmp_path / "g0.json", "group", "new ")
    assert (tmp_path / "g0.json").read_text().startswith("new")  # two were placed when it was killed
    with folder_lock(tmp_path):  # the next save in the folder takes the lock: the journal undoes the group
        pass
    assert [(tmp_path / f"g{n}.json").read_text() for n in range(4)] == [f"old {n}" for n in range(4)]
    assert _temporaries(tmp_path) == []


# ---------------------------------------------------------------- moving a file aside, placing a whole folder


def test_a_file_set_aside_takes_the_first_free_name_and_never_one_taken(tmp_path):
    first = tmp_path / "fight.json"
    first.write_text("one", encoding="utf-8")
    assert set_aside(first, "unreadable") == tmp_path / "fight.unreadable.json"
    first.write_text("two", encoding="utf-8")
    os.symlink(tmp_path / "nowhere", tmp_path / "fight.unreadable-2.json")  # a dangling link holds its name
    assert set_aside(first, "unreadable") == tmp_path / "fight.unreadable-3.json"
    assert (tmp_path / "fight.unreadable.json").read_text(encoding="utf-8") == "one"
    assert (tmp_path / "fight.unreadable-3.json").read_text(encoding="utf-8") == "two"
    assert (tmp_path / "fight.unreadable-2.json").is_symlink() and not (tmp_path / "nowhere").exists()
    assert not first.exists() and _temporaries(tmp_path) == []


def test_a_link_or_a_folder_is_never_set_aside_and_what_it_leads_to_is_untouched(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text("theirs", encoding="utf-8")
    folder = tmp_path / "desk"
    folder.mkdir()
    os.symlink(outside, folder / "fight.json")
    (folder / "sub.json").mkdir()
    for name, kind in (("fight.json", "symbolic link"), ("sub.json", "folder"), ("gone.json", "not there")):
        with pytest.raises(FileProblem) as caught:
            set_aside(folder / name, "unreadable")
        assert kind in caught.value.reason and len(str(caught.value).splitlines()) == 1
    assert (folder / "fight.json").is_symlink() and outside.read_text(encoding="utf-8") == "theirs"
    assert _names(folder) == ["fight.json", "sub.json"]


def test_a_folder_is_placed_whole_and_replaces_only_a_folder(tmp_path):
    def built(text):
        folder = Path(tempfile.mkdtemp(prefix=".building-", dir=tmp_path))
        (folder / "bestiary.json").write_text(text, encoding="utf-8")
        return folder

    final = tmp_path / "Goblins"
    replace_folder(built("first"), final, replace=False)
    with pytest.raises(FileExistsError):
        replace_folder(built("second"), final, replace=False)
    replace_folder(built("third"), final, replace=True)
    assert (final / "bestiary.json").read_text(encoding="utf-8") == "third"
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, tmp_path / "Planted")
    (tmp_path / "File").write_text("mine", encoding="utf-8")
    for name, kind in (("Planted", "symbolic link"), ("File", "a file")):
        with pytest.raises(FileProblem) as caught:
            replace_folder(built("x"), tmp_path / name, replace=True)
        assert kind in caught.value.reason and len(str(caught.value).splitlines()) == 1
    assert list(outside.iterdir()) == [] and (tmp_path / "File").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "Planted").is_symlink()
    with pytest.raises(InvalidInput):
        replace_folder(built("x"), final, replace="yes")


def test_a_folder_that_cannot_be_placed_is_one_line_and_the_old_one_stays(tmp_path, monkeypatch):
    final = tmp_path / "Goblins"
    final.mkdir()
    (final / "bestiary.json").write_text("old", encoding="utf-8")
    building = tmp_path / ".building"
    building.mkdir()
    real_rename = os.rename

    def full(src, dst):
        if Path(src) == building:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", full)
    with pytest.raises(FileProblem) as caught:
        replace_folder(building, final, replace=True)
    monkeypatch.undo()
    assert caught.value.reason == "cannot save the folder: the disk is full"
    assert (final / "bestiary.json").read_text(encoding="utf-8") == "old"
    assert _names(tmp_path) == [".building", "Goblins"]  # the old folder put back, nothing aside left
