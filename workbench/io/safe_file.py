"""Reading and writing a user's files safely: the one place every loader and every save goes through.

A Director's folders hold files from anywhere (downloads, shared libraries, a careless copy), so no file may
take a loader down or hang it. A file is read only if it is a regular file of at most `MAX_FILE_BYTES`,
inside the folder it was listed from (a symlink leading out is refused), as UTF-8 text; JSON and TOML are
parsed with caps on nesting depth (`MAX_DEPTH`) and number length (`MAX_NUMBER_CHARS`), NaN and Infinity
refused. Every refusal — and every exception a parser or the file system can raise — becomes a
`FileProblem` naming the file and saying why, which each loader reports beside the files that did load.

Saving goes through `write_atomic` (or `write_group` for several files at once): it holds the folder's lock,
can compare-and-swap on a content hash, replaces nothing but a regular file of the expected kind, writes a
fsynced temporary file beside the target and moves it into place in one step (without `overwrite`,
`os.link`: atomic, fails if the name is taken, so of two processes saving one new name exactly one wins;
with it, `os.replace`). A crash, a kill or a full disk leaves the old file whole, and the next save in the
folder removes what a killed one left. Every failure is one line naming the file and the cause.
"""

from __future__ import annotations

import errno
import glob
import hashlib
import json
import math
import os
import re
import secrets
import shutil
import stat
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from workbench.errors import InvalidInput, WorkbenchError
from workbench.io.process import process_alive

try:
    import fcntl
except ImportError:  # not on Windows: saves there go without the lock
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "ABSENT",
    "LOCK_NAME",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NUMBER_CHARS",
    "FileChanged",
    "FileProblem",
    "Journal",
    "content_hash",
    "folder_generation",
    "folder_lock",
    "is_inside",
    "make_folder",
    "read_bytes",
    "read_json",
    "read_text",
    "read_toml",
    "parse_json",
    "parse_toml",
    "place",
    "read_current",
    "replace_folder",
    "require_switch",
    "set_aside",
    "write_atomic",
    "write_group",
    "write_locked",
]

MAX_FILE_BYTES = 1_048_576  # 1 MiB: the largest file the project reads is ~25 KB
MAX_DEPTH = 64  # nesting of objects/arrays (tables); the deepest file the project writes has 6
MAX_NUMBER_CHARS = 40  # a number written with more characters than this is no number a rule needs


class FileProblem(WorkbenchError):
    """A file that cannot be read, parsed or written safely; `file` names it, `reason` says why."""

    code = "unreadable-file"

    def __init__(self, file: str | Path, reason: str) -> None:
        self.file = str(file)
        self.reason = reason
        super().__init__(f"{self.file}: {reason}")


def _size(limit: int) -> str:
    return f"{limit // 1_048_576} MiB" if limit % 1_048_576 == 0 else f"{limit:,} bytes"


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.EFBIG:
        return "the file would exceed the file size limit"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied (the file or folder is read-only or protected)"
    if exc.errno == errno.EROFS:
        return "the folder is on a read-only file system"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if exc.errno == errno.EISDIR:
        return "it is a folder, not a file"
    if exc.errno == errno.ENOENT:
        return "no such file or folder"
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop"
    return exc.strerror or str(exc) or type(exc).__name__


def is_inside(path: Path, folder: Path) -> bool:
    """Whether `path`, with every symlink followed, is inside `folder` (also resolved)."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop on older Pythons
        return False


def read_bytes(path: str | Path, *, inside: str | Path | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; `inside`: it must resolve into that folder.

    Opened non-blocking and checked with fstat before reading, so a FIFO or a device never hangs the
    caller; read `limit + 1` bytes at most, so a huge or growing file costs no memory.
    """
    path = Path(path)
    if inside is not None and not is_inside(path, Path(inside)):
        raise FileProblem(path, "a link to a file outside the folder (only files inside it are read)")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise FileProblem(path, f"cannot read the file: {_os_reason(exc)}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe, device or socket"
            raise FileProblem(path, f"not a regular file ({kind})")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileProblem(path, f"cannot read the file: {_os_reason(exc)}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileProblem(path, f"too large: more than {_size(limit)} (the limit for a file the workbench reads)")
    return b"".join(chunks)


def read_text(path: str | Path, *, inside: str | Path | None = None, limit: int = MAX_FILE_BYTES) -> str:
    """A file as UTF-8 text (a leading byte-order mark dropped), under the same rules as `read_bytes`."""
    raw = read_bytes(path, inside=inside, limit=limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileProblem(path, "not UTF-8 text") from None


_SURROGATE = re.compile("[\ud800-\udfff]")


class _TooLong(Exception):
    pass


class _OutOfRange(Exception):
    pass


def _number(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """A number hook for the parsers: refuses long literals, infinities, NaN and absurd exponents."""

    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise _TooLong(text)
        value = convert(text)
        if isinstance(value, Decimal):
            magnitude = value.adjusted() if value.is_finite() and value else 0
            if not value.is_finite() or not -MAX_NUMBER_CHARS <= magnitude < MAX_NUMBER_CHARS:
                raise _OutOfRange(text)
        elif isinstance(value, float) and value and not (
            math.isfinite(value) and 10.0**-MAX_NUMBER_CHARS <= abs(value) < 10.0**MAX_NUMBER_CHARS
        ):
            raise _OutOfRange(text)
        return value

    return parse


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


Parsed = TypeVar("Parsed")


def _check_tree(data: Parsed, source: str | Path) -> Parsed:
    """Depth and number caps on parsed data, walked without recursion (the parser may allow more)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    limit = 10**MAX_NUMBER_CHARS
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = [*value.keys(), *value.values()]
        elif isinstance(value, list):
            children = value
        else:
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= limit:
                raise FileProblem(source, f"a number longer than {MAX_NUMBER_CHARS} characters (the limit)")
            if isinstance(value, str) and _SURROGATE.search(value):
                raise FileProblem(source, "a text holding a lone surrogate (\\ud800-\\udfff), which is no character")
            continue
        if depth > MAX_DEPTH:
            raise FileProblem(source, f"nested deeper than {MAX_DEPTH} levels (the limit)")
        stack.extend((child, depth + 1) for child in children)
    return data


def _parse(kind: str, parse: Callable[[], Parsed], source: str | Path) -> Parsed:
    """Run a parser, turning every exception it can raise into a FileProblem naming `source`."""
    try:
        data = parse()
    except FileProblem:
        raise
    except RecursionError:
        raise FileProblem(source, f"nested deeper than {MAX_DEPTH} levels (the limit)") from None
    except _TooLong:
        raise FileProblem(source, f"a number longer than {MAX_NUMBER_CHARS} characters (the limit)") from None
    except _OutOfRange as exc:
        raise FileProblem(
            source, f"the number {str(exc)[:MAX_NUMBER_CHARS]} is infinite, not a number, or beyond ±10^{MAX_NUMBER_CHARS}"
        ) from None
    except json.JSONDecodeError as exc:
        raise FileProblem(source, f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except tomllib.TOMLDecodeError as exc:
        raise FileProblem(source, f"not valid TOML ({exc})") from None
    except (ValueError, ArithmeticError, MemoryError, TypeError) as exc:
        message = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        if "digits" in message:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
            raise FileProblem(source, f"a number longer than {MAX_NUMBER_CHARS} characters (the limit)") from None
        raise FileProblem(source, f"not valid {kind} ({message})") from None
    return _check_tree(data, source)


def parse_json(text: str, source: str | Path = "JSON text") -> Any:
    """JSON text as plain data (floats as `float`), with the caps above; NaN and Infinity refused."""
    return _parse(
        "JSON",
        lambda: json.loads(
            text, parse_int=_number(int), parse_float=_number(float), parse_constant=_no_constant
        ),
        source,
    )


def parse_toml(
    text: str, source: str | Path = "TOML text", parse_float: Callable[[str], Any] = Decimal
) -> dict[str, Any]:
    """TOML text as plain data (decimals exact by default), with the caps above."""
    return _parse("TOML", lambda: tomllib.loads(text, parse_float=_number(parse_float)), source)


def read_json(path: str | Path, *, inside: str | Path | None = None, source: str | Path | None = None) -> Any:
    """A JSON file read and parsed safely; problems name `source` (the path by default)."""
    return parse_json(read_text(path, inside=inside), path if source is None else source)


def read_toml(
    path: str | Path,
    *,
    inside: str | Path | None = None,
    source: str | Path | None = None,
    parse_float: Callable[[str], Any] = Decimal,
) -> dict[str, Any]:
    """A TOML file read and parsed safely; problems name `source` (the path by default)."""
    return parse_toml(read_text(path, inside=inside), path if source is None else source, parse_float)


# ---------------------------------------------------------------- writing

LOCK_NAME = ".workbench.lock"  # one per folder written to: the lock, and the journal of unfinished writes
ABSENT = "absent"  # the content hash of a file that is not there
LOCK_WAIT = 20.0  # seconds a save waits for another process's save in the same folder before giving up
_TEMP = re.compile(r"\.(?P<target>.+)\.(?P<pid>[0-9]+)-[0-9a-f]{8}\.tmp", re.DOTALL)
_BACKUP = re.compile(r"\..+\.[0-9]+-[0-9a-f]{8}\.bak", re.DOTALL)


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
        raise FileProblem(path, f"cannot save the file: {_os_reason(exc)}") from None


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


# a lock, journal or temporary file is never opened through a symbolic link, nor inherited by a child process
_NO_INHERIT_OR_FOLLOW = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
_GENERATION_BYTES = 20  # the lock file starts with the folder's save count, 19 digits and a newline


class Journal:
    """The open lock file of a folder: the count of saves made in it, then the temporary files and backups of
    the save under way.

    A process killed in the middle of a save cannot clean up after itself; the next process to take the
    lock reads what the journal names and removes the temporary files (or, for an unfinished group of
    saves, puts the old files back), so nothing half-written stays, and no folder is ever listed for it.
    The count (`generation`) goes up with every save, so a process that keeps a listing of the folder knows
    whether another process has saved there since (`folder_generation`), whatever the clock's resolution.
    """

    def __init__(self, folder: Path, fd: int | None) -> None:
        self.folder = folder
        self._fd = fd
        self._offset = _GENERATION_BYTES
        self.generation = _generation_of(os.pread(fd, _GENERATION_BYTES, 0)) if fd is not None else 0

    def note(self, *entry: str) -> None:
        """Append one entry (kind, file names), written before the file it names is made."""
        if self._fd is None:
            return
        line = (json.dumps(entry, ensure_ascii=True) + "\n").encode("ascii")
        os.pwrite(self._fd, line, self._offset)
        self._offset += len(line)

    def saved(self) -> None:
        """Count one more save in the folder (called before the file is placed, so no save goes uncounted)."""
        if self._fd is None:
            return
        self.generation += 1
        os.pwrite(self._fd, f"{self.generation:019d}\n".encode("ascii"), 0)

    def _entries(self) -> list[list[str]]:
        if self._fd is None:
            return []
        raw = os.pread(self._fd, MAX_FILE_BYTES, 0)
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
            except OSError:
                continue
        self.clear()

    def clear(self) -> None:
        if self._fd is not None:
            os.pwrite(self._fd, f"{self.generation:019d}\n".encode("ascii"), 0)
            os.ftruncate(self._fd, _GENERATION_BYTES)
            self._offset = _GENERATION_BYTES


def _generation_of(head: bytes) -> int:
    text = head[: _GENERATION_BYTES - 1]
    return int(text) if len(text) == _GENERATION_BYTES - 1 and text.isdigit() else 0


def folder_generation(folder: str | Path) -> int:
    """How many saves the workbench has made in `folder` (0 if none, or unknown): read without the lock."""
    try:
        fd = os.open(Path(folder) / LOCK_NAME, os.O_RDONLY | _NO_INHERIT_OR_FOLLOW)
    except OSError:
        return 0
    try:
        return _generation_of(os.pread(fd, _GENERATION_BYTES, 0))
    except OSError:
        return 0
    finally:
        os.close(fd)


@contextmanager
def folder_lock(folder: str | Path, target: str | Path | None = None) -> Iterator[Journal]:
    """Hold the folder's write lock (flock on `.workbench.lock`), after undoing what a killed save left.

    Saves of all processes in one folder take turns; a problem (a read-only folder, a lock held too long)
    is a FileProblem naming `target` (the file being saved) or the folder.
    """
    folder = Path(folder)
    named = Path(target) if target is not None else folder
    if fcntl is None:  # Windows: no flock, no pread; saves there go without the lock and its journal
        yield Journal(folder, None)
        return
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | _NO_INHERIT_OR_FOLLOW, 0o666)
    except OSError as exc:
        raise FileProblem(named, f"cannot save the file: {_os_reason(exc)}") from None
    try:
        journal = _acquire(fd, folder, named)
        try:
            yield journal
        finally:
            journal.clear()
    finally:
        os.close(fd)  # releases the lock


def _acquire(fd: int, folder: Path, named: Path) -> Journal:
    """Take the lock on the open lock file `fd` (waiting at most LOCK_WAIT) and undo a killed save's leftovers."""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileProblem(named, f"cannot save the file: {folder / LOCK_NAME} is not a regular file")
        if fcntl is not None:
            deadline = time.monotonic() + LOCK_WAIT
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise FileProblem(named, f"cannot save the file: another process has been saving in "
                                          f"{folder} for more than {LOCK_WAIT:.0f} s") from None
                    time.sleep(0.005)
        journal = Journal(folder, fd)
        journal.recover()
    except OSError as exc:
        raise FileProblem(named, f"cannot save the file: {_os_reason(exc)}") from None
    return journal


def _clean_dead_temporaries(target: Path) -> None:
    """Without a lock (exports): remove this target's temporary files left by processes no longer running."""
    try:
        found = list(target.parent.glob(f".{glob.escape(target.name)}.*.tmp"))
    except OSError:
        return
    for path in found:
        match = _TEMP.fullmatch(path.name)
        if match and match["target"] == target.name and not process_alive(int(match["pid"])):
            path.unlink(missing_ok=True)


def _temporary(journal: Journal, target: Path, data: bytes, mode: int | None) -> Path:
    """A fully written, fsynced hidden file beside `target`, named in the journal before it exists.

    Created with mode 0o666 less the umask (a new file gets the user's usual mode), or `mode` (the
    permissions of the file it will replace).
    """
    for _ in range(16):
        temp = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
        journal.note("tmp", temp.name)
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_INHERIT_OR_FOLLOW, 0o666)
        except FileExistsError:
            continue
        try:
            if mode is not None:
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
        raise FileProblem(path, f"cannot save the file: {_os_reason(exc)}") from None


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
        raise FileProblem(path, f"cannot save the file: {_os_reason(exc)}") from None
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
        _clean_dead_temporaries(path)
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
                backup = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.bak")
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
            raise FileProblem(failed, f"cannot save the file: {_os_reason(exc)}; nothing was saved") from None
        raise
    for _target, backup in placed:
        if backup is not None:
            backup.unlink(missing_ok=True)
    _sync_folder(folder)
    return [target for _temp, target, _replaces in staged]


# ---------------------------------------------------------------- moving a file aside, placing a whole folder


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
                raise FileProblem(path, f"cannot move it aside: {_os_reason(exc)}") from None
            _sync_folder(path.parent)
            return aside
    raise FileProblem(path, f"cannot move it aside: {path.stem}.{label}-999{path.suffix} and every name before "
                      "it are taken")


def replace_folder(building: str | Path, final: str | Path, replace: bool) -> Path:
    """Move the finished folder `building` to `final` (both in one folder) holding that folder's lock.

    A folder already at `final` is replaced only with `replace`: it is moved aside first, put back if the
    move fails, and removed once the new one is in place. Anything else under that name (a link, wherever it
    leads, a file, a pipe) is refused and left as it is, so nothing is ever written through it. Without
    `replace` a taken name raises FileExistsError. Every failure is a one-line FileProblem naming `final`.
    """
    building, final = Path(building), Path(final)
    require_switch("replace", replace)
    with folder_lock(final.parent, final):
        info = _existing(final)
        if info is not None and not stat.S_ISDIR(info.st_mode):
            kind = "a file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)
            raise FileProblem(final, f"cannot save the folder: it is {kind}, and only a folder is ever replaced")
        if info is not None and not replace:
            raise FileExistsError(errno.EEXIST, "File exists", str(final))
        aside = final.with_name(f".{final.name}.{os.getpid()}-{secrets.token_hex(4)}.old")
        try:
            if info is not None:
                os.rename(final, aside)
            try:
                os.rename(building, final)
            except OSError:
                if info is not None:
                    os.rename(aside, final)
                raise
        except OSError as exc:
            raise FileProblem(final, f"cannot save the folder: {_os_reason(exc)}") from None
        _sync_folder(final.parent)
        if info is not None:
            shutil.rmtree(aside, ignore_errors=True)
    return final
