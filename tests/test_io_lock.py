"""The folder lock (workbench/io/lock.py): filelock on `.workbench.lock`, the journal beside it, a wait with a
deadline whose failure names the folder, and no odd file under either name ever opened."""

from __future__ import annotations

import os
import threading

import pytest

from workbench.io import lock
from workbench.io.lock import JOURNAL_NAME, LOCK_NAME, folder_generation, folder_lock
from workbench.io.problem import FileProblem
from workbench.io.writing import write_atomic


def test_a_damaged_journal_never_removes_a_users_file(tmp_path):
    kept = write_atomic(tmp_path / "Goblin.json", "mine")
    (tmp_path / JOURNAL_NAME).write_text('0000000000000000007\n["tmp", "Goblin.json"]\n["bak", "Goblin.json", "x"]\n'
                                      '["tmp", "../outside"]\nnot json\n')
    with folder_lock(tmp_path) as journal:
        assert journal.generation == 7
    assert kept.read_text() == "mine"
    assert (tmp_path / JOURNAL_NAME).read_text() == "0000000000000000007\n"  # the journal emptied, the count kept


def test_each_save_counts_in_the_journal_not_in_the_lock_file(tmp_path):
    assert folder_generation(tmp_path) == 0
    write_atomic(tmp_path / "a.json", "one")
    write_atomic(tmp_path / "a.json", "two", overwrite=True)
    assert folder_generation(tmp_path) == 2
    assert (tmp_path / JOURNAL_NAME).read_text() == "0000000000000000002\n"


def test_a_lock_held_past_the_wait_names_the_folder_and_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(lock, "LOCK_WAIT", 0.05)
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with folder_lock(tmp_path):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(10)
        with pytest.raises(FileProblem) as caught:
            write_atomic(tmp_path / "Goblin.json", "x")
    finally:
        release.set()
        thread.join()
    assert caught.value.file == str(tmp_path / "Goblin.json")
    assert f"another process has been saving in {tmp_path}" in caught.value.reason
    assert not (tmp_path / "Goblin.json").exists()
    write_atomic(tmp_path / "Goblin.json", "x")  # released: the next save goes through
    assert (tmp_path / "Goblin.json").read_text() == "x"


@pytest.mark.parametrize("name", [LOCK_NAME, JOURNAL_NAME])
@pytest.mark.parametrize("odd", ["folder", "link", "fifo"])
def test_an_odd_file_under_the_lock_or_journal_name_is_refused_and_kept(tmp_path, name, odd):
    outside = tmp_path / "outside.txt"
    outside.write_text("not the workbench's")
    folder = tmp_path / "saves"
    folder.mkdir()
    if odd == "folder":
        (folder / name).mkdir()
    elif odd == "link":
        os.symlink(outside, folder / name)
    else:
        os.mkfifo(folder / name)
    with pytest.raises(FileProblem, match="is not a regular file") as caught:
        write_atomic(folder / "Goblin.json", "x")
    assert caught.value.file == str(folder / "Goblin.json")
    assert outside.read_text() == "not the workbench's"
    assert not (folder / "Goblin.json").exists()


@pytest.mark.parametrize("where", ["missing", "file"])
def test_a_lock_on_no_folder_is_refused_and_makes_none(tmp_path, where):
    folder = tmp_path / "nowhere"
    if where == "file":
        folder.write_text("a file")
    with pytest.raises(FileProblem, match="no such file or folder|a part of the path is a file"):
        with folder_lock(folder, folder / "a.json"):
            pass
    assert folder.is_file() if where == "file" else not folder.exists()
