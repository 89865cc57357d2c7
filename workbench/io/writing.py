"""Writing a user's files safely: the one way every save goes.

Saving goes through `write_atomic` (or `write_group` for several files at once): it holds the folder's lock
(`workbench.io.lock`), can compare-and-swap on a content hash, replaces nothing but a regular file of the
expected kind, writes a fsynced temporary file beside the target and moves it into place in one step
(without `overwrite`, `os.link`: atomic, fails if the name is taken, so of two processes saving one new name
exactly one wins; with it, `os.replace`). A crash, a kill or a full disk leaves the old file whole, and the
next save in the folder removes what a killed one left. Every failure is one line naming the file and the
cause. `set_aside` and `replace_folder` move a file or a whole folder under the same rules.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from workbench.errors import InvalidInput
from workbench.io.lock import (
    Journal,
    aside_name,
    backup_name,
    clean_dead_leftovers,
    folder_lock,
    temporary_name,
)
from workbench.io.problem import FileProblem, os_reason
from workbench.io.reading import read_bytes

__all__ = [
    "ABSENT",
    "FileChanged",
    "SameKind",
    "content_hash",
    "make_folder",
    "place",
    "read_current",
    "replace_folder",
    "require_switch",
    "set_aside",
    "write_atomic",
    "write_group",
    "write_locked",
]

ABSENT = "absent"  # the content hash of a file that is not there
# a temporary file is never opened through a symbolic link, nor inherited by a child process, nor (Windows) in
# text mode
_NO_INHERIT_OR_FOLLOW = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


class FileChanged(FileProblem):
    """A save refused because the file changed after it was read (another page or process saved it)."""

    code = "file-changed"


def content_hash(data: bytes | None) -> str:
    """The identity of a file's contents for compare-and-swap: SHA-256 of the bytes, `ABSENT` for no file."""
    return ABSENT if data is None else hashlib.sha256(data).hexdigest()


def require_switch(name: str, value: object) -> bool:
    """`value` if it is a real `bool`; a switch given as 'no', 'False', 0, 1 or -1 is refused by name.

    A truthy string would otherwise turn `overwrite` on: the one switch that decides whether a file is lost.
    """
    if not isinstance(value, bool):
        raise InvalidInput(name, value, "True or False (a bool, not a text or a number)")
    return value


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _existing(path: Path) -> os.stat_result | None:
    """The target's own status (links not followed), or None when nothing has that name."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FileProblem(path, f"cannot save the file: {os_reason(exc)}") from None


def read_current(path: str | Path) -> bytes | None:
    """The bytes of the regular file at `path` as it is now, None when there is none (for compare-and-swap).

    Anything else under that name (a link, a pipe, a device, a folder) is a FileProblem: it is never read
    as if it were the file, and never replaced.
    """
    path = Path(path)
    info = _existing(path)
    if info is None:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem(path, f"it is {_kind(info.st_mode)}; only a regular file is read or replaced")
    return read_bytes(path)


def _temporary(journal: Journal, target: Path, data: bytes, mode: int | None) -> Path:
    """A fully written, fsynced hidden file beside `target`, named in the journal before it exists.

    Created with mode 0o666 less the umask (a new file gets the user's usual mode), or `mode` (the
    permissions of the file it will replace).
    """
    for _ in range(16):
        temp = temporary_name(target)
        journal.note("tmp", temp.name)
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_INHERIT_OR_FOLLOW, 0o666)
        except FileExistsError:
            continue
        try:
            if mode is not None and hasattr(os, "fchmod"):  # Windows has no fchmod before Python 3.13
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            temp.unlink(missing_ok=True)
            raise
        os.close(fd)
        return temp
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))


def place(source: Path, target: Path, overwrite: bool) -> None:
    """Move a finished file into place in one step; without `overwrite` raise FileExistsError if taken.

    OSError other than FileExistsError is the caller's to report (see `write_atomic`).
    """
    if overwrite:
        os.replace(source, target)
        return
    try:
        os.link(source, target)  # atomic, and fails if the name is taken
    except FileExistsError:
        raise
    except OSError as exc:  # a file system without hard links: check, then replace (still one atomic step)
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.replace(source, target)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


SameKind = Callable[[bytes], "str | None"]


def _check_target(path: Path, overwrite: bool, expected: str | None, same_kind: SameKind | None) -> int | None:
    """Refuse what must not be replaced; the permission bits to keep when a file is replaced, else None."""
    info = _existing(path)
    if info is not None and not overwrite:
        raise FileExistsError(errno.EEXIST, "File exists", str(path))
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise FileProblem(path, f"cannot save the file: it is {_kind(info.st_mode)}, and only a regular file "
                          "is ever replaced")
    if expected is not None or (info is not None and same_kind is not None):
        current = read_current(path)
        if expected is not None and content_hash(current) != expected:
            raise FileChanged(path, "it changed since it was read (another page or process saved it); "
                              "nothing was written")
        if current is not None and same_kind is not None:
            refusal = same_kind(current)
            if refusal:
                raise FileProblem(path, f"cannot replace it: {refusal}")
    return stat.S_IMODE(info.st_mode) if info is not None else None


def _encoded(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def make_folder(path: Path) -> None:
    """Make the folder `path` is to be saved in; a failure is a FileProblem naming `path`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # FileExistsError here: a part of the folder path is a file
        if isinstance(exc, FileExistsError):
            exc.errno = errno.ENOTDIR
        raise FileProblem(path, f"cannot save the file: {os_reason(exc)}") from None


def write_locked(
    journal: Journal,
    path: str | Path,
    data: str | bytes,
    *,
    overwrite: bool = False,
    expected: str | None = None,
    same_kind: SameKind | None = None,
) -> Path:
    """`write_atomic` for a caller already holding the folder's lock (`folder_lock`), e.g. to read, change and
    write a file as one step."""
    path = Path(path)
    require_switch("overwrite", overwrite)
    try:
        keep_mode = _check_target(path, overwrite, expected, same_kind)
        temp = _temporary(journal, path, _encoded(data), keep_mode)
        journal.saved()
        try:
            place(temp, path, overwrite)
        finally:
            temp.unlink(missing_ok=True)
        _sync_folder(path.parent)
    except (FileExistsError, FileProblem):
        raise
    except OSError as exc:
        raise FileProblem(path, f"cannot save the file: {os_reason(exc)}") from None
    return path


def write_atomic(
    path: str | Path,
    data: str | bytes,
    *,
    overwrite: bool = False,
    expected: str | None = None,
    same_kind: SameKind | None = None,
    lock: bool = True,
) -> Path:
    """Write `data` to `path` in one atomic step: the one way the workbench writes a file.

    - The folder's lock is held (`lock`; an export to a user's folder goes without, leaving no lock file
      there), so saves in one folder take turns, and temporary files a killed save left are removed.
    - `expected`: compare-and-swap; the write happens only if the file's content hash (`content_hash` of
      what `read_current` gave when it was read, `ABSENT` for no file) is unchanged, else `FileChanged`.
    - Only a regular file is ever replaced: a link, a pipe, a device or a folder under that name is
      refused, and `same_kind(old bytes)` may refuse a file of another kind (its reason is the message).
    - Without `overwrite` an existing name raises FileExistsError (`os.link`: of two processes saving one
      new name exactly one wins). A new file gets the user's usual mode (0o666 less the umask), a replaced
      one keeps its permissions.
    - Every file-system failure (a full disk, a read-only folder, a path through a file) is a one-line
      FileProblem naming the file and the cause; the old file, if any, is left whole.
    """
    path = Path(path)
    require_switch("overwrite", overwrite)
    require_switch("lock", lock)
    make_folder(path)
    if not lock:
        clean_dead_leftovers(path.parent)
        return write_locked(Journal(path.parent, None), path, data, overwrite=overwrite, expected=expected,
                            same_kind=same_kind)
    with folder_lock(path.parent, path) as journal:
        return write_locked(journal, path, data, overwrite=overwrite, expected=expected, same_kind=same_kind)


def write_group(
    folder: str | Path,
    files: Sequence[tuple[str, str | bytes]],
    *,
    overwrite: bool = False,
    same_kind: SameKind | None = None,
    journal: Journal | None = None,
) -> list[Path]:
    """Write several files into one folder as one transaction: all of them, or (on any refusal or failure,
    a full disk included) none, every old file as it was.

    Every target is checked and every temporary file written before the first file is placed; the old
    files are kept as hidden hard links until all are placed. A process killed in between is undone by
    the next save in the folder (the journal names the backups). `journal`: the folder's lock, when the
    caller holds it already (`folder_lock`).
    """
    folder = Path(folder)
    require_switch("overwrite", overwrite)
    if journal is not None:
        return _write_group(journal, folder, files, overwrite, same_kind)
    make_folder(folder / "x")
    with folder_lock(folder) as held:
        return _write_group(held, folder, files, overwrite, same_kind)


def _write_group(
    journal: Journal, folder: Path, files: Sequence[tuple[str, str | bytes]], overwrite: bool,
    same_kind: SameKind | None,
) -> list[Path]:
    """`write_group`'s transaction, the folder's lock held."""
    staged: list[tuple[Path, Path, bool]] = []  # (temporary, target, replaces an old file)
    placed: list[tuple[Path, Path | None]] = []  # (target, backup of its old file)
    try:
        for name, data in files:
            target = folder / name
            keep = _check_target(target, overwrite, None, same_kind)
            staged.append((_temporary(journal, target, _encoded(data), keep), target, keep is not None))
        journal.saved()
        for temp, target, replaces in staged:
            backup = None
            if replaces:
                backup = backup_name(target)
                journal.note("bak", backup.name, target.name)
                os.link(target, backup)
                placed.append((target, backup))  # a failed place leaves the old file: putting it back is no harm
                place(temp, target, overwrite)
            else:
                journal.note("new", target.name)
                place(temp, target, overwrite)  # a name taken meanwhile by another program is not ours to remove
                placed.append((target, None))
        journal.note("commit")
    except BaseException as exc:
        for target, backup in reversed(placed):
            try:
                if backup is not None:
                    os.replace(backup, target)
                    backup.unlink(missing_ok=True)  # a rename onto its own hard link does nothing
                else:
                    target.unlink(missing_ok=True)
            except OSError:
                continue
        for temp, _target, _replaces in staged:
            temp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, FileExistsError):
            failed = placed[-1][0] if placed else Path(exc.filename or folder)
            raise FileProblem(failed, f"cannot save the file: {os_reason(exc)}; nothing was saved") from None
        raise
    for _target, backup in placed:
        if backup is not None:
            backup.unlink(missing_ok=True)
    _sync_folder(folder)
    return [target for _temp, target, _replaces in staged]



def set_aside(path: str | Path, label: str) -> Path:
    """Rename the file at `path` to the first free name beside it (`<stem>.<label><suffix>`, then
    `<stem>.<label>-2<suffix>`, ...) and return that name: a file the workbench cannot use is kept for the
    Director, never overwritten and never overwriting.

    The folder's lock is held and the move is `place` (atomic, fails when the name is taken). Only a regular
    file is moved: a link, a folder or a device under that name is refused, never followed. Every failure is
    a one-line FileProblem naming `path`.
    """
    path = Path(path)
    if not isinstance(label, str) or not re.fullmatch(r"[\w.-]+", label):
        raise InvalidInput("label", label, "a short name of letters, digits, dots and dashes")
    with folder_lock(path.parent, path):
        info = _existing(path)
        if info is None or not stat.S_ISREG(info.st_mode):
            kind = "not there" if info is None else f"{_kind(info.st_mode)}, and only a regular file is moved"
            raise FileProblem(path, f"cannot move it aside: it is {kind}")
        for number in range(1, 1000):
            aside = path.with_name(f"{path.stem}.{label}{'' if number == 1 else f'-{number}'}{path.suffix}")
            try:
                place(path, aside, overwrite=False)
                if os.path.lexists(path):  # placed by a hard link: the old name goes now
                    os.unlink(path)
            except FileExistsError:
                continue
            except OSError as exc:
                raise FileProblem(path, f"cannot move it aside: {os_reason(exc)}") from None
            _sync_folder(path.parent)
            return aside
    raise FileProblem(path, f"cannot move it aside: {path.stem}.{label}-999{path.suffix} and every name before "
                      "it are taken")


def replace_folder(building: str | Path, final: str | Path, replace: bool) -> Path:
    """Move the finished folder `building` to `final` (both in one folder) holding that folder's lock.

    A folder already at `final` is replaced only with `replace`: it is moved aside first (the journal names
    it), put back if the move fails, and removed once the new one is in place; a process killed in between
    is settled by the next save in the folder, which puts the old folder back if the new one never took its
    place, so the name holds the old or the new bestiary, never neither or both. Anything else under that
    name (a link, wherever it leads, a file, a pipe) is refused and left as it is, so nothing is ever written
    through it. Without `replace` a taken name raises FileExistsError. Every failure is a one-line
    FileProblem naming `final`.
    """
    building, final = Path(building), Path(final)
    require_switch("replace", replace)
    with folder_lock(final.parent, final) as journal:
        info = _existing(final)
        if info is not None and not stat.S_ISDIR(info.st_mode):
            kind = "a file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)
            raise FileProblem(final, f"cannot save the folder: it is {kind}, and only a folder is ever replaced")
        if info is not None and not replace:
            raise FileExistsError(errno.EEXIST, "File exists", str(final))
        aside = aside_name(final)
        try:
            journal.saved()
            if info is not None:
                journal.note("aside", aside.name, final.name)
                os.rename(final, aside)
            try:
                os.rename(building, final)
            except OSError:
                if info is not None:
                    os.rename(aside, final)
                raise
            journal.note("commit")
        except OSError as exc:
            raise FileProblem(final, f"cannot save the folder: {os_reason(exc)}") from None
        _sync_folder(final.parent)
        if info is not None:
            shutil.rmtree(aside, ignore_errors=True)
    return final
