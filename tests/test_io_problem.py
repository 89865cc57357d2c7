"""What a file error means for a Director, said once (`os_reason`) and used wherever an OSError reaches a page,
the command line or a refusal: each place that turns one into words says the same plain words, on one line."""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import workbench as wb
from workbench.apps.bestiary import BestiaryBrowser
from workbench.apps.builder_library import refusal
from workbench.errors import InvalidInput, RulesetError, WorkbenchError
from workbench.io.home import open_workspace_folder
from workbench.io.problem import os_reason
from workbench.monster import library as lib
from workbench.rules.lore import load_lore
from workbench.server import site
from workbench.workspace.state import update_workspace

PACKAGE = Path(wb.__file__).parent
DENIED = "permission denied (the file or folder is read-only or protected)"


def _denied(*_args: object, **_kwargs: object) -> None:
    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))


def test_each_error_number_a_director_meets_is_said_in_words():
    said = {number: os_reason(OSError(number, os.strerror(number))) for number in (
        errno.ENOSPC, errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR, errno.EISDIR, errno.ENOENT)}
    assert said[errno.ENOSPC] == "the disk is full" and said[errno.EACCES] == said[errno.EPERM] == DENIED
    assert said[errno.ENOTDIR] == "a part of the path is a file, not a folder"
    assert said[errno.EISDIR] == "it is a folder, not a file" and said[errno.ENOENT] == "no such file or folder"
    assert os_reason(OSError(errno.EIO, "Input/output error")) == "Input/output error"  # the system's words else
    assert os_reason(OSError("no number")) == "no number"
    assert os_reason(OSError()) == "the system gave no reason"  # never a Python name


def _strerror_lines(root: Path) -> list[str]:
    return [f"{path.relative_to(root)}:{n}" for path in sorted(root.rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if ".strerror" in line]


def test_only_os_reason_reads_an_errors_own_words(tmp_path):
    found = _strerror_lines(PACKAGE)
    assert found and {line.split(":")[0] for line in found} == {"io/problem.py"}, found
    planted = tmp_path / "planted.py"
    planted.write_text("def said(exc):\n    return f'cannot save: {exc.strerror or exc}'\n", encoding="utf-8")
    assert _strerror_lines(tmp_path) == ["planted.py:2"]


def _saved_orc(folder: Path) -> None:
    lib.save_monster(wb.build_monster(1, "platoon", "brute").model_copy(update={"name": "Orc"}), folder=folder)


def _refusing(monkeypatch: pytest.MonkeyPatch, name: str, only: Callable[..., bool]) -> None:
    """`os.NAME` as the library calls it refused with EACCES when `only(*args)` holds, else done."""
    real = getattr(lib.os, name)

    def call(*args: object, **kwargs: object) -> object:
        if only(*args):
            _denied()
        return real(*args, **kwargs)

    monkeypatch.setattr(lib.os, name, call)


def test_a_library_save_rename_or_delete_the_system_refuses_says_why_in_words(tmp_path, monkeypatch):
    orc = wb.build_monster(2, "platoon", "brute").model_copy(update={"name": "Orc"})
    _saved_orc(tmp_path)
    monkeypatch.setattr(lib, "make_folder", _denied)
    with pytest.raises(lib.LibraryError, match=re.escape(f"Orc.json: cannot save the file: {DENIED}")):
        lib.save_monster(orc, folder=tmp_path, overwrite=True)
    with pytest.raises(lib.LibraryError, match=re.escape(f"cannot save the files: {DENIED}")):
        lib.save_monsters([("Orc", orc)], tmp_path, overwrite=True)
    monkeypatch.undo()
    _refusing(monkeypatch, "replace", lambda _src, dst, *rest: Path(dst).name == "Chief.json")
    with pytest.raises(lib.LibraryError, match=re.escape(f"Chief.json: cannot rename Orc: {DENIED}")):
        lib.rename_monster("Orc", "Chief", tmp_path)
    monkeypatch.undo()
    monkeypatch.setattr(Path, "unlink", lambda self, *a, **k: _denied() if self.name == "Orc.json" else None)
    with pytest.raises(lib.LibraryError, match=re.escape(f"Orc: cannot delete it: {DENIED}")):
        lib.delete_monster("Orc", tmp_path)
    monkeypatch.undo()
    assert lib.list_monsters(tmp_path) == ["Orc"]


def test_the_library_page_says_what_the_file_system_refused():
    assert refusal(PermissionError(errno.EACCES, "Permission denied")) == f"the file system refused ({DENIED})."
    assert refusal(OSError()) == "the file system refused (the system gave no reason)."


def test_a_lore_file_that_is_a_folder_is_named_so(tmp_path):
    with pytest.raises(RulesetError) as caught:
        load_lore(tmp_path)
    assert caught.value.problems == ["cannot read the file: it is a folder, not a file"]


def test_a_workspace_folder_the_system_refuses_to_make_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(Path, "mkdir", _denied)
    with pytest.raises(InvalidInput) as caught:
        open_workspace_folder(tmp_path / "new")
    assert caught.value.field == "folder" and caught.value.reason == f"cannot make it: {DENIED}"


def test_a_workspace_file_under_a_file_says_the_path_holds_a_file(tmp_path):
    (tmp_path / "a file").write_text("not a folder")
    with pytest.raises(InvalidInput, match="cannot make its folder: a part of the path is a file, not a folder"):
        update_workspace(lambda w: w, tmp_path / "a file" / "inside" / "workspace.json")


def test_an_unreadable_lessons_folder_or_notebook_says_why(tmp_path, monkeypatch):
    folder = tmp_path / "lessons"
    folder.mkdir()
    notebook = folder / "01_one.ipynb"
    notebook.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(Path, "glob", _denied)
    assert site.lessons_problem(folder) == f"The lessons folder {folder} cannot be read ({DENIED})."
    monkeypatch.undo()
    monkeypatch.setattr(Path, "read_text", _denied)
    assert [lesson.problem for lesson in site.lessons(folder)] == [f"it cannot be read ({DENIED})"]


def test_the_apps_folder_the_system_refuses_is_one_line_in_words(tmp_path, monkeypatch):
    monkeypatch.setattr(site, "_prepare", _denied)
    with pytest.raises(WorkbenchError) as caught:
        site.prepare_site(None, tmp_path / "site")
    assert str(caught.value).endswith(f"{DENIED} (set $XDG_CACHE_HOME to a folder you can write)")
    assert "\n" not in str(caught.value)


def test_the_bestiary_list_says_why_a_stat_block_could_not_reach_the_builder():
    def refused(*_args: object) -> str:
        raise PermissionError(errno.EACCES, "Permission denied")

    browser = BestiaryBrowser(on_open=refused)
    browser.rows.value = browser.rows.options[0][1]
    browser.open_builder.click()
    assert f"Could not hand it to the builder: {DENIED}" in browser.message.value
