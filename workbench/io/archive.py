"""The files of an untrusted source: a folder, a .zip or .tar.gz archive (a path or an open binary file), or one
file, read in memory and never extracted as the archive says.

A member whose path is absolute, climbs out with "..", or names a drive is refused by name; links, devices and
folders are not followed; each member is read up to its size cap and the whole up to `MAX_TOTAL_BYTES`, with a
cap on the count (`MAX_MEMBERS`); a .zip or a .tar.gz unpacking to more than `MAX_RATIO` times its compressed
size (past `RATIO_FLOOR`) is refused as soon as the ratio shows, so a compression bomb costs a few megabytes. A folder is walked without following
links, and a file that resolves outside it is refused. What is read is the caller's choice (`SourceRules`):
a member is read only when `limit` gives it a size cap.
"""

from __future__ import annotations

import io
import os
import re
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.io.problem import FileProblem
from workbench.io.reading import is_inside, read_bytes

__all__ = [
    "MAX_ARCHIVE_BYTES",
    "MAX_MEMBERS",
    "MAX_RATIO",
    "MAX_TOTAL_BYTES",
    "SKIPPED_FOLDERS",
    "FileNote",
    "SourceFile",
    "SourceRules",
    "source_files",
]

MAX_RATIO = 200  # bytes out per compressed byte in; JSON stat blocks compress about 10 to 1, a bomb 1000 to 1
RATIO_FLOOR = 8 * 1_048_576  # unpacked bytes before the ratio is judged (a small file may compress very well)
MAX_MEMBERS = 50_000  # files an archive or a folder may hold (a whole bestiary repository has a few thousand)
MAX_TOTAL_BYTES = 256 * 1_048_576  # what the files read may add up to, uncompressed
MAX_ARCHIVE_BYTES = 128 * 1_048_576  # the largest archive or file read as one source
SKIPPED_FOLDERS = frozenset({".git", "node_modules", "__MACOSX"})


class SourceFile(Frozen):
    """A file of a source: its path inside the source ("/" separators) and its bytes."""

    path: str
    data: bytes


class FileNote(Frozen):
    """A file not read, and why."""

    file: str
    reason: str


@dataclass(frozen=True)
class SourceRules:
    """What a source is read for: `accepts` (what the "source" field takes, said in every refusal), `file` (what
    one file read is called, "stat block file"), `limit` (a file's path -> the most bytes it may hold, or None
    when it is not read)."""

    accepts: str
    file: str
    limit: Callable[[str], int | None]


def _safe_member_path(name: str) -> str | None:
    """The member's path as a relative POSIX path inside the archive, or None when it would leave it."""
    if "\0" in name:
        return None
    text = name.replace("\\", "/")
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        return None
    parts = [p for p in PurePosixPath(text).parts if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    return "/".join(parts)


def _limit(rules: SourceRules, path: str) -> int | None:
    """The size cap of a file worth reading; None for one in a skipped folder or of no interest."""
    if any(part in SKIPPED_FOLDERS for part in path.split("/")[:-1]):
        return None
    return rules.limit(path)


class _Budget:
    """The caps a source's reading stays within: files seen, and bytes read in all."""

    def __init__(self, source: str, rules: SourceRules) -> None:
        self.source = source
        self.rules = rules
        self.members = 0
        self.total = 0

    def refuse(self, reason: str) -> InvalidInput:
        return InvalidInput("source", self.source, self.rules.accepts, reason)

    def member(self) -> None:
        self.members += 1
        if self.members > MAX_MEMBERS:
            raise self.refuse(f"more than {MAX_MEMBERS} files in it: more than the workbench reads from one source")

    def spend(self, size: int) -> None:
        self.total += size
        if self.total > MAX_TOTAL_BYTES:
            raise self.refuse(f"more than {_size(MAX_TOTAL_BYTES)} of {self.rules.file}s in it")


def _size(count: int) -> str:
    return f"{count // 1_048_576} MiB" if count >= 1_048_576 else f"{count // 1024} KiB"


def _read_capped(handle: IO[bytes], limit: int) -> bytes | None:
    """Up to `limit` bytes of `handle`; None when it holds more (its header's size is not trusted)."""
    data = handle.read(limit + 1)
    return None if len(data) > limit else data


def _zip_entries(handle: IO[bytes]) -> int | None:
    """How many entries a zip's end record declares (zip64 too), read before `zipfile` lists them all in
    memory; None when there is no end record (zipfile then refuses the file itself)."""
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    tail_length = min(size, 22 + 65_535)  # the end record and the longest comment after it
    handle.seek(size - tail_length)
    tail = handle.read(tail_length)
    handle.seek(0)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        return None
    total = int.from_bytes(tail[at + 10 : at + 12], "little")
    locator = tail.rfind(b"PK\x06\x07", 0, at)
    if total == 0xFFFF and locator >= 0 and locator + 20 <= len(tail):
        handle.seek(int.from_bytes(tail[locator + 8 : locator + 16], "little"))
        record = handle.read(56)
        handle.seek(0)
        if record[:4] == b"PK\x06\x06" and len(record) == 56:
            total = int.from_bytes(record[32:40], "little")
    return total


def _zip_files(handle: IO[bytes], budget: _Budget, notes: list[FileNote]) -> Iterator[SourceFile]:
    entries = _zip_entries(handle)
    if entries is not None and entries > MAX_MEMBERS:
        raise budget.refuse(f"more than {MAX_MEMBERS} files in it: more than the workbench reads from one source")
    try:
        archive = zipfile.ZipFile(handle)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise budget.refuse(f"not a readable .zip file ({exc})") from None
    packed = unpacked = 0  # compressed bytes of the members read, and what they unpacked to
    with archive:
        for info in archive.infolist():
            budget.member()
            if unpacked > RATIO_FLOOR and unpacked > MAX_RATIO * max(packed, 1):
                raise budget.refuse(f"it unpacks to {unpacked // max(packed, 1)} times its size, more than the "
                                    f"{MAX_RATIO} a real archive does (a compression bomb)")
            if info.is_dir():
                continue
            mode = info.external_attr >> 16
            regular = not stat.S_IFMT(mode) or stat.S_ISREG(mode)  # no type bits: a plain file (writestr's)
            checked = _member_to_read(budget.rules, info.filename, regular, info.file_size, notes)
            if checked is None:
                continue
            path, limit = checked
            packed += info.compress_size  # a size that lies low only makes the ratio show sooner
            try:
                with archive.open(info) as member:
                    data = _read_capped(member, limit)
                    unpacked += limit + 1 if data is None else len(data)
            # NotImplementedError: zipfile's answer to a compression method it does not have
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as exc:
                notes.append(FileNote(file=path, reason=f"cannot be read from the archive ({exc})"))
                continue
            if data is None:
                notes.append(FileNote(file=path, reason=f"too large: more than {_size(limit)}"))
                continue
            budget.spend(len(data))
            yield SourceFile(path=path, data=data)


def _member_to_read(
    rules: SourceRules, name: str, regular: bool, size: int, notes: list[FileNote]
) -> tuple[str, int] | None:
    """An archive member's safe path and size limit when it is a file to read; else None, with the reason noted
    (a path that climbs out, a link or special file, a file over its limit) or silently for a file of no
    interest."""
    path = _safe_member_path(name)
    if path is None:
        notes.append(FileNote(file=name, reason="a path outside the archive: not read"))
        return None
    limit = _limit(rules, path)
    if limit is None:
        return None
    if not regular:
        notes.append(FileNote(file=path, reason="a link or special file in the archive: not followed"))
        return None
    if size > limit:
        notes.append(FileNote(file=path, reason=f"too large: more than {_size(limit)}"))
        return None
    return path, limit


class _Bomb(Exception):
    """A compressed stream unpacking to more than `MAX_RATIO` times its size."""


class _GuardedGzip(io.RawIOBase):
    """A gzip stream unpacked as it is read, given up on (`_Bomb`) as soon as what comes out is more than
    `MAX_RATIO` times what went in (past `RATIO_FLOOR`), so a compression bomb costs a few megabytes."""

    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle
        self.unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.taken = 0
        self.given = 0
        self.pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self.pending:
            if self.unpack.eof:
                rest = self.unpack.unused_data
                if not rest.strip(b"\0"):
                    return 0
                self.unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)  # a gzip file of several members
                chunk = rest
            else:
                chunk = self.unpack.unconsumed_tail or self.handle.read(1 << 16)
                if not chunk:
                    return 0
                if not self.unpack.unconsumed_tail:
                    self.taken += len(chunk)
            self.pending = self.unpack.decompress(chunk, 1 << 16)
            self.given += len(self.pending)
            if self.given > RATIO_FLOOR and self.given > MAX_RATIO * max(self.taken, 1):
                raise _Bomb(self.given // max(self.taken, 1))
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size


def _tar_files(handle: IO[bytes], budget: _Budget, notes: list[FileNote]) -> Iterator[SourceFile]:
    try:
        yield from _tar_members(handle, budget, notes)
    except _Bomb as exc:
        raise budget.refuse(f"it unpacks to {exc} times its size, more than the {MAX_RATIO} a real archive "
                            "does (a compression bomb)") from None


def _tar_members(handle: IO[bytes], budget: _Budget, notes: list[FileNote]) -> Iterator[SourceFile]:
    try:
        archive = tarfile.open(fileobj=io.BufferedReader(_GuardedGzip(handle), 1 << 16), mode="r|")
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise budget.refuse(f"not a readable .tar.gz file ({exc})") from None
    declared = 0
    with archive:
        try:
            for info in archive:
                budget.member()
                declared += max(info.size, 0)
                if declared > MAX_TOTAL_BYTES * 4:
                    raise budget.refuse("its files add up to more than the workbench reads from one source")
                if info.isdir():
                    continue
                checked = _member_to_read(budget.rules, info.name, info.isreg(), info.size, notes)
                if checked is None:
                    continue
                path, limit = checked
                member = archive.extractfile(info)
                data = _read_capped(member, limit) if member is not None else None
                if data is None:
                    notes.append(FileNote(file=path, reason="cannot be read from the archive"))
                    continue
                budget.spend(len(data))
                yield SourceFile(path=path, data=data)
        except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
            raise budget.refuse(f"the archive is damaged ({type(exc).__name__}: {exc})") from None


def _folder_files(root: Path, budget: _Budget, notes: list[FileNote]) -> Iterator[SourceFile]:
    for folder, subfolders, names in os.walk(root, followlinks=False):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_FOLDERS)
        for name in sorted(names):
            budget.member()
            full = Path(folder) / name
            path = full.relative_to(root).as_posix()
            limit = _limit(budget.rules, path)
            if limit is None:
                continue
            if full.is_symlink() and not is_inside(full, root):
                notes.append(FileNote(file=path, reason="a link to a file outside the folder: not followed"))
                continue
            try:
                data = read_bytes(full, inside=root, limit=limit)
            except FileProblem as exc:
                notes.append(FileNote(file=path, reason=exc.reason))
                continue
            budget.spend(len(data))
            yield SourceFile(path=path, data=data)


def _archive_kind(head: bytes) -> str | None:
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "tar"
    return None

def source_files(
    source: str | os.PathLike[str] | IO[bytes],
    rules: SourceRules,
    notes: list[FileNote] | None = None,
    label: str | None = None,
    name: str = "download",
) -> Iterator[SourceFile]:
    """Every file `rules` reads of a folder, an archive (a path or an open binary file) or one file; `name` is
    the path given to an open file that is no archive (a download of one file).

    What is not read (an unsafe path, a link, a file past its cap) is added to `notes` by name.
    """
    notes = notes if notes is not None else []
    if isinstance(source, (str, os.PathLike)):
        if not str(source).strip() or "\0" in str(source):
            raise InvalidInput("source", source, rules.accepts)
        path = Path(source).expanduser()
        budget = _Budget(label or str(source), rules)
        if path.is_dir():
            yield from _folder_files(path, budget, notes)
            return
        if not path.exists():
            raise budget.refuse("no such file or folder")
        if not path.is_file():
            raise budget.refuse("not a regular file or folder")
        if path.stat().st_size > MAX_ARCHIVE_BYTES:
            raise budget.refuse(f"larger than {_size(MAX_ARCHIVE_BYTES)}, the most the workbench reads as one source")
        with open(path, "rb") as handle:
            yield from _one_source(handle, budget, notes, path.name)
        return
    yield from _one_source(source, _Budget(label or "the download", rules), notes, name)


def _one_source(handle: IO[bytes], budget: _Budget, notes: list[FileNote], name: str) -> Iterator[SourceFile]:
    """An open archive's files, or the open file itself when it is no archive and `name` is read."""
    kind = _archive_kind(handle.read(4))
    handle.seek(0)
    if kind == "zip":
        yield from _zip_files(handle, budget, notes)
    elif kind == "tar":
        yield from _tar_files(handle, budget, notes)
    else:
        limit = budget.rules.limit(name)
        if limit is None:
            raise budget.refuse(f"neither a .zip or .tar.gz archive nor a {budget.rules.file}")
        data = _read_capped(handle, limit)
        if data is None:
            raise budget.refuse(f"too large for a {budget.rules.file}: more than {_size(limit)}")
        yield SourceFile(path=name, data=data)
