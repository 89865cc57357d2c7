"""The lock of a folder the workbench saves in, and the journal that lets the next save undo a killed one.

Saves of all processes in one folder take turns under `folder_lock`: a `filelock.FileLock` on
`.workbench.lock` (flock on POSIX, LockFileEx on Windows), waited on for at most `LOCK_WAIT` seconds. The lock
file belongs to filelock (on Windows it is removed on release), so what the lock protects is kept beside it
in `.workbench.journal`: the count of saves made in the folder, then the temporary files and backups of the
save under way. A process killed in the middle of a save cannot clean up after itself; the next one to take
the lock reads the journal and removes what it names (or, for an unfinished group of saves or folder
replacement, puts the old files back), so nothing half-written stays. What a writer without the lock leaves
(an export's temporary file, a bestiary's folder being built) carries its process id in its name, and the next
such write into the folder removes it once that process is no longer running (a locked save lists no folder:
its journal names all it leaves).
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from workbench.io.problem import FileProblem, os_reason
from workbench.io.process import process_alive
from workbench.io.reading import MAX_FILE_BYTES

__all__ = [
    "JOURNAL_NAME",
    "LOCK_NAME",
    "LOCK_WAIT",
    "Journal",
    "aside_name",
    "backup_name",
    "building_name",
    "clean_dead_leftovers",
    "folder_generation",
    "folder_lock",
    "settle_folder",
    "temporary_name",
]

LOCK_NAME = ".workbench.lock"  # one per folder written to: filelock's
JOURNAL_NAME = ".workbench.journal"  # beside it: the folder's save count and the journal of unfinished writes
LOCK_WAIT = 20.0  # seconds a save waits for another process's save in the same folder before giving up
_TEMP = re.compile(r"\.(?P<target>.+)\.(?P<pid>[0-9]+)-[0-9a-f]{8}\.tmp", re.DOTALL)
_BACKUP = re.compile(r"\..+\.[0-9]+-[0-9a-f]{8}\.bak", re.DOTALL)
_ASIDE = re.compile(r"\..+\.[0-9]+-[0-9a-f]{8}\.old", re.DOTALL)
# what a writer without the lock leaves when killed: a temporary file, a folder being built
_LEFTOVER = re.compile(r"\.(?P<target>.+)\.(?P<pid>[0-9]+)-[0-9a-f]{8}\.(?P<kind>tmp|build)", re.DOTALL)
# a journal or temporary file is never opened through a symbolic link, nor inherited by a child process, and
# on Windows never in text mode (which would rewrite its newlines)
_NO_INHERIT_OR_FOLLOW = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
_GENERATION_BYTES = 20  # the journal starts with the folder's save count, 19 digits and a newline


def temporary_name(target: Path) -> Path:
    """A fresh hidden name beside `target` for its temporary file, of the shape the journal recognises."""
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")


def backup_name(target: Path) -> Path:
    """A fresh hidden name beside `target` for the backup of its old file during a group of saves."""
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.bak")


def aside_name(target: Path) -> Path:
    """A fresh hidden name beside `target` for the old folder it replaces, until the new one is in place."""
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.old")


def building_name(target: Path) -> Path:
    """A fresh hidden name beside `target` for the folder being built to take its place."""
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.build")


def _read_at(fd: int, size: int, offset: int) -> bytes:
    """Up to `size` bytes from `offset` (pread; on Windows, which has none, seek and read)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(fd, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _write_at(fd: int, data: bytes, offset: int) -> None:
    """`data` written at `offset` (pwrite; on Windows seek and write)."""
    if hasattr(os, "pwrite"):
        os.pwrite(fd, data, offset)
        return
    os.lseek(fd, offset, os.SEEK_SET)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Journal:
    """The open journal of a folder: the count of saves made in it, then the temporary files and backups of
    the save under way.

    The count (`generation`) goes up with every save, so a process that keeps a listing of the folder knows
    whether another process has saved there since (`folder_generation`), whatever the clock's resolution.
    A journal opened on no file (`fd` None: an export to a user's folder, which takes no lock) notes nothing.
    """

    def __init__(self, folder: Path, fd: int | None) -> None:
        self.folder = folder
        self._fd = fd
        self._offset = _GENERATION_BYTES
        self.generation = _generation_of(_read_at(fd, _GENERATION_BYTES, 0)) if fd is not None else 0

    def note(self, *entry: str) -> None:
        """Append one entry (kind, file names), written before the file it names is made."""
        if self._fd is None:
            return
        line = (json.dumps(entry, ensure_ascii=True) + "\n").encode("ascii")
        _write_at(self._fd, line, self._offset)
        self._offset += len(line)

    def saved(self) -> None:
        """Count one more save in the folder (called before the file is placed, so no save goes uncounted)."""
        if self._fd is None:
            return
        self.generation += 1
        _write_at(self._fd, f"{self.generation:019d}\n".encode("ascii"), 0)

    def _entries(self) -> list[list[str]]:
        if self._fd is None:
            return []
        raw = _read_at(self._fd, MAX_FILE_BYTES, 0)
        entries = []
        for line in raw.decode("ascii", "replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, list) and entry and all(isinstance(e, str) and "/" not in e for e in entry):
                entries.append(entry)
        return entries

    def recover(self) -> None:
        """Undo what a killed holder of the lock left: its temporary files, an unfinished group's changes."""
        entries = self._entries()
        committed = ["commit"] in entries
        for kind, *names in reversed(entries):
            try:
                # only names of the shapes this module makes: a damaged journal cannot remove a user's file
                if kind == "tmp" and names and _TEMP.fullmatch(names[0]):
                    (self.folder / names[0]).unlink(missing_ok=True)
                elif kind == "bak" and len(names) == 2 and _BACKUP.fullmatch(names[0]):
                    backup = self.folder / names[0]
                    if committed:
                        backup.unlink(missing_ok=True)
                    elif backup.exists():
                        os.replace(backup, self.folder / names[1])
                        backup.unlink(missing_ok=True)  # a rename onto its own hard link does nothing
                elif kind == "new" and names and not committed:
                    (self.folder / names[0]).unlink(missing_ok=True)
                elif kind == "aside" and len(names) == 2 and _ASIDE.fullmatch(names[0]) and "/" not in names[1]:
                    self._settle_aside(self.folder / names[0], self.folder / names[1], committed)
            except OSError:
                continue
        self.clear()

    @staticmethod
    def _settle_aside(aside: Path, final: Path, committed: bool) -> None:
        """A folder replacement cut short: the old folder back if the new one never took its place, else the
        old one removed, so the name holds the old or the new folder, never neither or both."""
        if not _is_real_folder(aside):
            return
        if not committed and not os.path.lexists(final):
            os.rename(aside, final)
        else:
            shutil.rmtree(aside)

    def clear(self) -> None:
        if self._fd is not None:
            _write_at(self._fd, f"{self.generation:019d}\n".encode("ascii"), 0)
            os.ftruncate(self._fd, _GENERATION_BYTES)
            self._offset = _GENERATION_BYTES


def _generation_of(head: bytes) -> int:
    text = head[: _GENERATION_BYTES - 1]
    return int(text) if len(text) == _GENERATION_BYTES - 1 and text.isdigit() else 0


def folder_generation(folder: str | Path) -> int:
    """How many saves the workbench has made in `folder` (0 if none, or unknown): read without the lock."""
    try:
        fd = os.open(Path(folder) / JOURNAL_NAME, os.O_RDONLY | _NO_INHERIT_OR_FOLLOW)
    except OSError:
        return 0
    try:
        return _generation_of(_read_at(fd, _GENERATION_BYTES, 0))
    except OSError:
        return 0
    finally:
        os.close(fd)


def _refuse_odd_file(path: Path, named: Path) -> None:
    """A link, a folder, a pipe or a device under the lock's or the journal's name is never opened."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise FileProblem(named, f"cannot save the file: {os_reason(exc)}") from None
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem(named, f"cannot save the file: {path} is not a regular file")


@contextmanager
def folder_lock(
    folder: str | Path, target: str | Path | None = None, *, wait: float | None = None
) -> Iterator[Journal]:
    """Hold the folder's write lock (`filelock` on `.workbench.lock`), after undoing what a killed save left.

    Saves of all processes in one folder take turns; a problem (a missing or read-only folder, a lock held
    longer than `wait` seconds, `LOCK_WAIT` by default) is a FileProblem naming `target` (the file being
    saved) or the folder.
    """
    wait = LOCK_WAIT if wait is None else wait
    folder = Path(folder)
    named = Path(target) if target is not None else folder
    try:
        if not stat.S_ISDIR(os.stat(folder).st_mode):
            raise NotADirectoryError(errno.ENOTDIR, "Not a directory", str(folder))
    except OSError as exc:
        raise FileProblem(named, f"cannot save the file: {os_reason(exc)}") from None
    for name in (LOCK_NAME, JOURNAL_NAME):
        _refuse_odd_file(folder / name, named)
    lock = FileLock(folder / LOCK_NAME, timeout=wait)
    try:
        lock.acquire()
    except Timeout:
        raise FileProblem(named, f"cannot save the file: another process has been saving in {folder} for more "
                          f"than {wait:.0f} s") from None
    except OSError as exc:
        raise FileProblem(named, f"cannot save the file: {os_reason(exc)}") from None
    try:
        try:
            fd = os.open(folder / JOURNAL_NAME, os.O_RDWR | os.O_CREAT | _NO_INHERIT_OR_FOLLOW, 0o666)
        except OSError as exc:
            raise FileProblem(named, f"cannot save the file: {os_reason(exc)}") from None
        try:
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise FileProblem(named, f"cannot save the file: {folder / JOURNAL_NAME} is not a regular file")
                journal = Journal(folder, fd)
                journal.recover()
            except OSError as exc:
                raise FileProblem(named, f"cannot save the file: {os_reason(exc)}") from None
            try:
                yield journal
            finally:
                journal.clear()
        finally:
            os.close(fd)
    finally:
        lock.release()


def _is_real_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def clean_dead_leftovers(folder: Path) -> None:
    """Remove what writers no longer running left in `folder`: temporary files and folders being built (the
    process id in their names says whose). A process still running, or a name of any other shape, is left."""
    try:
        with os.scandir(folder) as entries:
            found = [entry.name for entry in entries if entry.name.startswith(".")]
    except OSError:
        return
    for name in found:
        match = _LEFTOVER.fullmatch(name)
        if not match or process_alive(int(match["pid"])):
            continue
        path = folder / name
        try:
            if match["kind"] == "build":
                if _is_real_folder(path):
                    shutil.rmtree(path)
            elif stat.S_ISREG(os.lstat(path).st_mode):
                path.unlink()
        except OSError:
            continue


def settle_folder(folder: str | Path) -> None:
    """Before a folder is listed: finish what a killed save left in it (a folder replacement cut short, a
    folder half built), if no other process is saving there now. Nothing is said when that cannot be done
    (a read-only folder, a save under way): the listing goes on, and the next save settles it."""
    folder = Path(folder)
    try:
        unfinished = os.lstat(folder / JOURNAL_NAME).st_size > _GENERATION_BYTES
    except OSError:
        unfinished = False
    if unfinished:
        try:
            with folder_lock(folder, wait=0):
                pass
        except FileProblem:
            return
    clean_dead_leftovers(folder)
