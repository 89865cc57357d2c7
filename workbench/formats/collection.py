"""A bestiary added to the Director's workspace from a folder, a .zip or .tar.gz file, or a URL.

`add_bestiary(source, into)` reads every stat block file of the source through the importer (Steel Compendium,
Forge Steel `.ds-monster` / `.ds-monster-group`, Foundry VTT actors: the format told from the content) and keeps
the bestiary in a folder of its own under `into`:
- `bestiary.json`: its name, where it came from, its attribution and licence files, every monster read (as the
  workbench's own Monster), and every file that failed with the reason, or that held no stat block;
- `sources/`: the files that read, and the licence files, as the source had them (relative paths kept), so a
  published stat block stays readable by the calibration's own reader;
- `ATTRIBUTION.txt`: where the monsters come from and under which licence, beside them.

A source is not trusted. An archive is read member by member in memory, never extracted as it says: a member
whose path is absolute, climbs out with "..", or names a drive is refused by name; links, devices and folders
are not followed; each member is read up to a size cap and the whole up to another, with a cap on the count, so
a "zip bomb" costs at most the caps. A folder is walked without following links, and a file that resolves
outside it is refused. A URL is fetched only by `add_bestiary` (the Director asked), over http or https, up to
a size cap; when it cannot be reached the message names the manual route: download the file and add it.

The bestiary is built in a hidden folder beside its place and moved into place in one step: a failure leaves
nothing half-added, and an existing bestiary of that name is never replaced unless asked.

`gather_bestiary` lists the shipped sample, every added bestiary and the Director's library together, each
monster with the shelf it came from, and each shelf with its attribution, so wherever monsters are listed the
attribution can be shown beside them.

Also here: the old folders a library lived in before the workspace (`data/homebrew` in a checkout,
`~/drawsteel-homebrew`): `old_library_monsters` finds what they hold, `move_old_monsters` copies each monster
into the workspace's library (never over a file there; the old file is removed only once its copy is in place).
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import stat
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import IO, Final, Literal

from pydantic import Field, ValidationError

from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.bestiary import (
    SAMPLE_DIR,
    Bestiary,
    BestiaryShelf,
    LoadFailure,
    PublishedMonster,
    StatBlockError,
    load_bestiary,
    read_stat_block_file,
)
from workbench.formats.reader import MAX_FILE_BYTES, detect_format, read_monsters
from workbench.formats.record import ImportRefused
from workbench.frozen import Frozen
from workbench.io.safe_file import (
    FileProblem,
    is_inside,
    parse_json,
    read_bytes,
    read_text,
    replace_folder,
    write_atomic,
)
from workbench.model import Monster
from workbench.monster.library import OLD_CHECKOUT_FOLDER, load_library
from workbench.rules.ruleset import Ruleset

__all__ = [
    "AddedBestiary",
    "BESTIARY_FILE",
    "FORMAT",
    "FetchFailed",
    "ListedMonster",
    "MAX_DOWNLOAD_BYTES",
    "MAX_MEMBERS",
    "MAX_TOTAL_BYTES",
    "OldMonster",
    "Progress",
    "Shelf",
    "SourceFile",
    "WorkspaceBestiary",
    "add_bestiary",
    "bestiary_name",
    "gather_bestiary",
    "is_url",
    "list_bestiaries",
    "load_added_bestiary",
    "move_old_monsters",
    "old_library_folders",
    "old_library_monsters",
    "published_stat_blocks",
    "source_files",
]

FORMAT: Final = "drawsteel-workbench/bestiary"
VERSION: Final = 1
BESTIARY_FILE = "bestiary.json"
SOURCES = "sources"
ATTRIBUTION_FILE = "ATTRIBUTION.txt"
MAX_MEMBERS = 50_000  # files an archive or a folder may hold (a whole bestiary repository has a few thousand)
MAX_TOTAL_BYTES = 256 * 1_048_576  # what the stat block and licence files may add up to, uncompressed
MAX_DOWNLOAD_BYTES = 128 * 1_048_576
MAX_LICENCE_BYTES = 256 * 1024
URL_TIMEOUT = 30.0
STAT_BLOCK_SUFFIXES = (".json", ".ds-monster", ".ds-monster-group")
LICENCE_NAMES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "ATTRIBUTION", "COPYRIGHT")
SKIPPED_FOLDERS = frozenset({".git", "node_modules", "__MACOSX"})
NAME_ACCEPTS = "1 to 64 letters, digits, spaces, hyphens or underscores, starting with a letter or digit"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,63}")
SOURCE_ACCEPTS = "a folder, a .zip or .tar.gz file, a stat block .json file, or an http(s) URL to one of them"
MANUAL_ROUTE = "download the file in a browser and add it: workbench bestiary add FILE"

# (stage, done, total): stage "download" counts bytes (total 0 when the server gives no size), "read" files
Progress = Callable[[str, int, int], None]


class SourceFile(Frozen):
    """A file of a source: its path inside the source ("/" separators) and its bytes."""

    path: str
    data: bytes


class FileNote(Frozen):
    """A file not read as monsters, and why."""

    file: str
    reason: str


class AddedBestiary(Frozen):
    """A bestiary in the workspace, as its `bestiary.json` holds it."""

    format: Literal["drawsteel-workbench/bestiary"] = FORMAT
    version: int = VERSION
    name: str
    source: str
    attribution: str = ""
    licence_files: tuple[str, ...] = ()
    monsters: tuple[Monster, ...] = ()
    monster_files: tuple[str, ...] = ()  # the source file of each monster, in the same order
    monster_formats: tuple[str, ...] = ()  # the format of each monster's file ("steel-compendium", ...)
    failures: tuple[FileNote, ...] = ()  # files that looked like stat blocks and did not read
    skipped: tuple[FileNote, ...] = ()  # files that hold no stat block (an index, a feature list, a link)
    folder: str = Field(default="", exclude=True)  # where it was loaded from (not saved)


# ---------------------------------------------------------------- reading a source


def is_url(source: object) -> bool:
    return isinstance(source, str) and source.strip().lower().startswith(("http://", "https://"))


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


def _wanted(path: str) -> bool:
    """A stat block file or a licence file: the only members worth reading."""
    name = path.rsplit("/", 1)[-1]
    if any(part in SKIPPED_FOLDERS for part in path.split("/")[:-1]):
        return False
    return name.lower().endswith(STAT_BLOCK_SUFFIXES) or _is_licence(name)


def _is_licence(name: str) -> bool:
    stem = name.upper().split(".", 1)[0]
    return any(stem == n or stem.startswith(n + "-") or stem.startswith(n + "_") for n in LICENCE_NAMES)


class _Budget:
    """The caps a source's reading stays within: files seen, and bytes read in all."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.members = 0
        self.total = 0

    def member(self) -> None:
        self.members += 1
        if self.members > MAX_MEMBERS:
            raise InvalidInput("source", self.source, SOURCE_ACCEPTS,
                               f"more than {MAX_MEMBERS} files in it: not a bestiary")

    def spend(self, size: int) -> None:
        self.total += size
        if self.total > MAX_TOTAL_BYTES:
            raise InvalidInput("source", self.source, SOURCE_ACCEPTS,
                               f"more than {_size(MAX_TOTAL_BYTES)} of stat block files in it")


def _size(count: int) -> str:
    return f"{count // 1_048_576} MiB" if count >= 1_048_576 else f"{count // 1024} KiB"


def _limit(path: str) -> int:
    return MAX_LICENCE_BYTES if _is_licence(path.rsplit("/", 1)[-1]) else MAX_FILE_BYTES


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
        raise InvalidInput("source", budget.source, SOURCE_ACCEPTS,
                           f"more than {MAX_MEMBERS} files in it: not a bestiary")
    try:
        archive = zipfile.ZipFile(handle)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise InvalidInput("source", budget.source, SOURCE_ACCEPTS, f"not a readable .zip file ({exc})") from None
    with archive:
        for info in archive.infolist():
            budget.member()
            if info.is_dir():
                continue
            mode = info.external_attr >> 16
            regular = not stat.S_IFMT(mode) or stat.S_ISREG(mode)  # no type bits: a plain file (writestr's)
            checked = _member_to_read(info.filename, regular, info.file_size, notes)
            if checked is None:
                continue
            path, limit = checked
            try:
                with archive.open(info) as member:
                    data = _read_capped(member, limit)
            # NotImplementedError: zipfile's answer to a compression method it does not have
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as exc:
                notes.append(FileNote(file=path, reason=f"cannot be read from the archive ({exc})"))
                continue
            if data is None:
                notes.append(FileNote(file=path, reason=f"too large: more than {_size(limit)}"))
                continue
            budget.spend(len(data))
            yield SourceFile(path=path, data=data)


def _member_to_read(name: str, regular: bool, size: int, notes: list[FileNote]) -> tuple[str, int] | None:
    """An archive member's safe path and size limit when it is a file to read; else None, with the reason noted
    (a path that climbs out, a link or special file, a file over its limit) or silently for a file of no
    interest."""
    path = _safe_member_path(name)
    if path is None:
        notes.append(FileNote(file=name, reason="a path outside the archive: not read"))
        return None
    if not _wanted(path):
        return None
    if not regular:
        notes.append(FileNote(file=path, reason="a link or special file in the archive: not followed"))
        return None
    limit = _limit(path)
    if size > limit:
        notes.append(FileNote(file=path, reason=f"too large: more than {_size(limit)}"))
        return None
    return path, limit


def _tar_files(handle: IO[bytes], budget: _Budget, notes: list[FileNote]) -> Iterator[SourceFile]:
    try:
        archive = tarfile.open(fileobj=handle, mode="r:*")
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise InvalidInput("source", budget.source, SOURCE_ACCEPTS, f"not a readable .tar.gz file ({exc})") from None
    declared = 0
    with archive:
        try:
            for info in archive:
                budget.member()
                declared += max(info.size, 0)
                if declared > MAX_TOTAL_BYTES * 4:
                    raise InvalidInput("source", budget.source, SOURCE_ACCEPTS,
                                       "its files add up to more than the workbench reads from one source")
                if info.isdir():
                    continue
                checked = _member_to_read(info.name, info.isreg(), info.size, notes)
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
            raise InvalidInput("source", budget.source, SOURCE_ACCEPTS,
                               f"the archive is damaged ({type(exc).__name__}: {exc})") from None


def _folder_files(root: Path, budget: _Budget, notes: list[FileNote]) -> Iterator[SourceFile]:
    for folder, subfolders, names in os.walk(root, followlinks=False):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_FOLDERS)
        for name in sorted(names):
            budget.member()
            full = Path(folder) / name
            path = full.relative_to(root).as_posix()
            if not _wanted(path):
                continue
            if full.is_symlink() and not is_inside(full, root):
                notes.append(FileNote(file=path, reason="a link to a file outside the folder: not followed"))
                continue
            try:
                data = read_bytes(full, inside=root, limit=_limit(path))
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
    source: str | os.PathLike[str] | IO[bytes], notes: list[FileNote] | None = None, label: str | None = None
) -> Iterator[SourceFile]:
    """Every stat block and licence file of a folder, an archive (a path or an open binary file) or one file.

    What is not read (an unsafe path, a link, a file past its cap) is added to `notes` by name.
    """
    notes = notes if notes is not None else []
    if isinstance(source, (str, os.PathLike)):
        if not str(source).strip() or "\0" in str(source):
            raise InvalidInput("source", source, SOURCE_ACCEPTS)
        path = Path(source).expanduser()
        budget = _Budget(label or str(source))
        if path.is_dir():
            yield from _folder_files(path, budget, notes)
            return
        if not path.exists():
            raise InvalidInput("source", str(source), SOURCE_ACCEPTS, "no such file or folder")
        if not path.is_file():
            raise InvalidInput("source", str(source), SOURCE_ACCEPTS, "not a regular file or folder")
        if path.stat().st_size > MAX_DOWNLOAD_BYTES:
            raise InvalidInput("source", str(source), SOURCE_ACCEPTS,
                               f"larger than {_size(MAX_DOWNLOAD_BYTES)}, the most the workbench reads as one source")
        with open(path, "rb") as handle:
            kind = _archive_kind(handle.read(4))
            handle.seek(0)
            if kind == "zip":
                yield from _zip_files(handle, budget, notes)
            elif kind == "tar":
                yield from _tar_files(handle, budget, notes)
            elif path.name.lower().endswith(STAT_BLOCK_SUFFIXES):
                data = _read_capped(handle, MAX_FILE_BYTES)
                if data is None:
                    raise InvalidInput("source", str(source), SOURCE_ACCEPTS, "too large for a stat block file")
                yield SourceFile(path=path.name, data=data)
            else:
                raise InvalidInput("source", str(source), SOURCE_ACCEPTS,
                                   "neither a .zip or .tar.gz archive nor a stat block file")
        return
    budget = _Budget(label or "the download")
    head = source.read(4)
    source.seek(0)
    kind = _archive_kind(head)
    if kind == "zip":
        yield from _zip_files(source, budget, notes)
    elif kind == "tar":
        yield from _tar_files(source, budget, notes)
    else:
        data = _read_capped(source, MAX_FILE_BYTES)
        if data is None:
            raise InvalidInput("source", budget.source, SOURCE_ACCEPTS, "neither an archive nor a stat block file")
        yield SourceFile(path=_url_file_name(budget.source), data=data)


# ---------------------------------------------------------------- fetching a URL


def _url_file_name(url: str) -> str:
    name = PurePosixPath(urllib.parse.urlparse(url).path).name
    return name if name.lower().endswith(STAT_BLOCK_SUFFIXES) else "download.json"


class FetchFailed(InvalidInput):
    """A URL that could not be fetched (offline, no such server, an error answer): `why` says what happened,
    and the message names the manual route (download the file in a browser, then add the file)."""

    def __init__(self, url: str, why: str) -> None:
        self.why = why
        super().__init__("source", url, SOURCE_ACCEPTS, f"cannot fetch it ({why}); {MANUAL_ROUTE}")


def _offline(url: str, why: str) -> InvalidInput:
    return FetchFailed(url, why)


def fetch(url: str, into: IO[bytes], progress: Progress | None = None, timeout: float = URL_TIMEOUT) -> None:
    """Download `url` into an open binary file, up to `MAX_DOWNLOAD_BYTES`; `InvalidInput` on "source" naming
    the manual route when it cannot be fetched."""
    parsed = urllib.parse.urlparse(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise InvalidInput("source", url, SOURCE_ACCEPTS)
    request = urllib.request.Request(url.strip(), headers={"User-Agent": "drawsteel-workbench"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - http(s) checked above
            total = int(response.headers.get("Content-Length") or 0)
            if total > MAX_DOWNLOAD_BYTES:
                raise InvalidInput("source", url, SOURCE_ACCEPTS,
                                   f"it is larger than {_size(MAX_DOWNLOAD_BYTES)}")
            done = 0
            if progress is not None:
                progress("download", 0, total)
            while True:
                chunk = response.read(1 << 16)
                if not chunk:
                    break
                done += len(chunk)
                if done > MAX_DOWNLOAD_BYTES:
                    raise InvalidInput("source", url, SOURCE_ACCEPTS,
                                       f"it is larger than {_size(MAX_DOWNLOAD_BYTES)}")
                into.write(chunk)
                if progress is not None:
                    progress("download", done, total)
    except urllib.error.HTTPError as exc:
        raise _offline(url, f"the server answered {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise _offline(url, f"no connection: {exc.reason}") from None
    except TimeoutError:
        raise _offline(url, f"no answer within {timeout:.0f} s") from None
    except (ConnectionError, OSError) as exc:
        raise _offline(url, f"the connection failed: {exc}") from None
    into.flush()
    into.seek(0)


# ---------------------------------------------------------------- adding


def bestiary_name(source: str) -> str:
    """A bestiary's default name from its source: the folder's or file's name without its archive suffix."""
    text = str(source).strip().rstrip("/\\")
    if is_url(text):
        text = urllib.parse.urlparse(text).path.rstrip("/") or urllib.parse.urlparse(text).netloc
    name = re.split(r"[/\\]", text)[-1]
    for suffix in (".tar.gz", ".tgz", ".zip", ".json", ".ds-monster-group", ".ds-monster"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    name = " ".join(re.sub(r"[^A-Za-z0-9 _-]+", " ", name).split()).strip(" -_")[:64].strip(" -_")
    return name or "bestiary"


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name.strip()):
        raise InvalidInput("name", name, NAME_ACCEPTS)
    return name.strip()


def _first_paragraph(text: str) -> str:
    """A licence's first paragraph of prose: headings ("# Game Rules", a line underlined with = or -) are not
    the attribution."""
    for paragraph in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        lines = [line for line in paragraph.strip().splitlines() if line.strip()]
        prose = [line for line in lines if not line.lstrip().startswith("#") and not re.fullmatch(r"\s*[=-]{3,}\s*", line)]
        if len(lines) == 2 and len(prose) == 1 and prose[0] == lines[0]:  # a heading underlined
            continue
        if prose:
            words = " ".join(" ".join(prose).split())
            return words if len(words) <= 400 else words[:399] + "…"
    return ""


def _attribution_text(licences: Sequence[SourceFile], given: str) -> str:
    """The attribution shown beside the monsters: the one given, else the first licence's first paragraph."""
    if given.strip():
        return " ".join(given.split())
    for licence in licences:
        first = _first_paragraph(licence.data.decode("utf-8", errors="replace"))
        if first:
            return first
    return ""


def _read(files: Sequence[SourceFile], progress: Progress | None) -> tuple[
    list[tuple[str, str, Monster]], list[FileNote], list[FileNote], list[SourceFile]
]:
    monsters: list[tuple[str, str, Monster]] = []
    failures: list[FileNote] = []
    skipped: list[FileNote] = []
    kept: list[SourceFile] = []
    stat_blocks: list[SourceFile] = []
    seen: set[str] = set()
    for f in files:
        if f.path in seen:  # an archive may hold one path twice: the first is read, as an extraction keeps one
            skipped.append(FileNote(file=f.path, reason="a second file of the same path: the first is read"))
        elif not _is_licence(f.path.rsplit("/", 1)[-1]):
            stat_blocks.append(f)
        seen.add(f.path)
    if progress is not None:
        progress("read", 0, len(stat_blocks))
    for done, file in enumerate(stat_blocks, 1):
        try:
            data = parse_json(file.data.decode("utf-8-sig"), file.path)
            kind = detect_format(data)
            if kind is None:
                skipped.append(FileNote(file=file.path, reason="no stat block in it (no known format)"))
            else:
                read = read_monsters(data, file.path)
                monsters.extend((file.path, kind, m) for m in read)
                kept.append(file)
        except UnicodeDecodeError:
            failures.append(FileNote(file=file.path, reason="not UTF-8 text"))
        except ImportRefused as exc:
            failures.append(FileNote(file=file.path, reason=f"{exc.part}: {exc.reason}"))
        except FileProblem as exc:
            failures.append(FileNote(file=file.path, reason=exc.reason))
        except (WorkbenchError, ValueError, TypeError, ArithmeticError, RecursionError) as exc:
            failures.append(FileNote(file=file.path, reason=f"cannot be read ({type(exc).__name__})"))
        if progress is not None:
            progress("read", done, len(stat_blocks))
    return monsters, failures, skipped, kept


def _write_file(folder: Path, relative: str, data: bytes | str) -> None:
    """One file of the bestiary being built, written as every file is (`write_atomic`: new, never through a
    link); the folder is the workbench's own hidden one, so it takes no lock."""
    target = folder / relative
    if not target.resolve().is_relative_to(folder.resolve()):  # _safe_member_path already refused these
        raise InvalidInput("source", relative, SOURCE_ACCEPTS, "a path outside the bestiary")
    write_atomic(target, data, lock=False)


def _attribution_file(bestiary: AddedBestiary, licences: Sequence[SourceFile]) -> str:
    lines = [
        f"{bestiary.name}: {len(bestiary.monsters)} monsters added to the workbench from {bestiary.source}",
        "",
        "Attribution: " + (bestiary.attribution or "none found in the source and none given"),
    ]
    for licence in licences:
        lines += ["", f"--- {SOURCES}/{licence.path} ---", licence.data.decode("utf-8", errors="replace").strip()]
    return "\n".join(lines) + "\n"


def add_bestiary(
    source: str | os.PathLike[str],
    into: str | os.PathLike[str],
    *,
    name: str | None = None,
    attribution: str = "",
    licence: str | os.PathLike[str] | None = None,
    replace: bool = False,
    progress: Progress | None = None,
    timeout: float = URL_TIMEOUT,
    source_label: str | None = None,
) -> AddedBestiary:
    """Read every monster of `source` (a folder, a .zip or .tar.gz file, a stat block file, or an http(s) URL,
    fetched now) and keep them as a bestiary in `into/<name>/`, with the source's licence and attribution.

    `attribution` (a text) and `licence` (a file) add to or stand for what the source holds. `progress(stage,
    done, total)` is called from the first byte downloaded and the first file read. A bestiary of that name
    already there is kept unless `replace=True`. Files that fail are named in the result (`failures`).
    `source_label` is what the bestiary records as where it came from, when the path is a stand-in (a file
    uploaded to a page is read from a temporary copy).
    """
    if not isinstance(source, (str, os.PathLike)) or not str(source).strip():
        raise InvalidInput("source", source, SOURCE_ACCEPTS)
    if not isinstance(attribution, str):
        raise InvalidInput("attribution", attribution, "a text naming the source and its licence")
    if not isinstance(replace, bool):
        raise InvalidInput("replace", replace, "True or False")
    label = str(source).strip()
    chosen = _check_name(name if name is not None else bestiary_name(label))
    root = Path(into).expanduser()
    final = root / chosen
    if final.exists() and not replace:
        raise InvalidInput("name", chosen, "a name no added bestiary has, or replace", f"{final} exists")
    extra: list[SourceFile] = []
    if licence is not None:
        try:
            extra.append(SourceFile(path=f"given-{Path(licence).name}",
                                    data=read_bytes(Path(licence).expanduser(), limit=MAX_LICENCE_BYTES)))
        except FileProblem as exc:
            raise InvalidInput("licence", str(licence), "a licence text file", exc.reason) from None
    notes: list[FileNote] = []
    with tempfile.TemporaryFile() as download:
        if is_url(label):
            fetch(label, download, progress, timeout)
            files = list(source_files(download, notes, label=label))
        else:
            files = list(source_files(source, notes, label=label))
    firsts = list({f.path: f for f in reversed(files)}.values())[::-1]  # one file per path, the first
    licences = [f for f in firsts if _is_licence(f.path.rsplit("/", 1)[-1])] + extra
    read, failures, skipped, kept = _read(files, progress)
    if not read:
        found = f"{len(failures)} file(s) failed" if failures else "no stat block files in it"
        raise InvalidInput("source", label, SOURCE_ACCEPTS, f"no monster could be read ({found})")
    bestiary = AddedBestiary(
        name=chosen,
        source=(source_label.strip() if isinstance(source_label, str) and source_label.strip()
                else label if is_url(label) else str(Path(label).expanduser().absolute())),
        attribution=_attribution_text(licences, attribution),
        licence_files=tuple(f"{SOURCES}/{f.path}" for f in licences),
        monsters=tuple(m for _, _, m in read),
        monster_files=tuple(f"{SOURCES}/{path}" for path, _, _ in read),
        monster_formats=tuple(kind for _, kind, _ in read),
        failures=tuple(failures),
        skipped=tuple([*notes, *skipped]),
    )
    _place(root, final, bestiary, [*kept, *licences], replace)
    return bestiary.model_copy(update={"folder": str(final)})


def _place(root: Path, final: Path, bestiary: AddedBestiary, files: Sequence[SourceFile], replace: bool) -> None:
    """Build the bestiary's folder hidden beside its place, then move it there in one step."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=f".adding-{final.name}-", dir=root))
    except OSError as exc:
        raise InvalidInput("into", str(root), "a folder the workbench can write", str(exc)) from None
    try:
        sources = building / SOURCES
        sources.mkdir()
        for file in files:
            _write_file(sources, file.path, file.data)
        payload = bestiary.model_dump(mode="json")
        _write_file(building, BESTIARY_FILE, json.dumps(payload, ensure_ascii=False) + "\n")
        _write_file(building, ATTRIBUTION_FILE, _attribution_file(bestiary, [
            f for f in files if _is_licence(f.path.rsplit("/", 1)[-1])
        ]))
        replace_folder(building, final, replace)
    except FileExistsError:
        raise InvalidInput("name", final.name, "a name no added bestiary has, or replace", f"{final} exists") from None
    except FileProblem as exc:
        raise InvalidInput("into", str(root), "a folder the workbench can write", exc.reason) from None
    except OSError as exc:
        raise InvalidInput("into", str(root), "a folder the workbench can write", str(exc)) from None
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)


# ---------------------------------------------------------------- the workspace's bestiaries


# (folder, file size, modification time in ns) -> the bestiary read from it: a page lists the workspace's monsters
# at each visit, and an unchanged file need not be validated again (the models are immutable, so one is shared)
_LOADED: dict[tuple[str, int, int], AddedBestiary] = {}
_LOADED_KEPT = 32


def load_added_bestiary(folder: str | os.PathLike[str]) -> AddedBestiary:
    """One added bestiary from its folder; `InvalidInput` on "bestiary" names the folder and the reason.

    The file is the workbench's own, but read as untrusted: a size cap, then pydantic's JSON parser (its
    nesting limit) straight into the model, which checks every field.
    """
    folder = Path(folder)
    path = folder / BESTIARY_FILE
    refused = functools.partial(InvalidInput, "bestiary", str(folder), "a bestiary added by the workbench")
    try:
        info = path.stat()
    except OSError:
        raise refused(f"no {BESTIARY_FILE}") from None
    key = (str(folder.absolute()), info.st_size, info.st_mtime_ns)
    if key in _LOADED:
        return _LOADED[key]
    try:
        text = read_text(path, limit=MAX_TOTAL_BYTES)
        loaded = AddedBestiary.model_validate_json(text).model_copy(update={"folder": str(folder)})
    except FileProblem as exc:
        raise refused(exc.reason) from None
    except ValidationError as exc:
        where = "; ".join(".".join(str(p) for p in e["loc"]) or e["msg"] for e in exc.errors()[:3])
        raise refused(f"{BESTIARY_FILE} is not one ({where})") from None
    if len(_LOADED) >= _LOADED_KEPT:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = loaded
    return loaded


def list_bestiaries(into: str | os.PathLike[str]) -> tuple[tuple[AddedBestiary, ...], tuple[tuple[str, str], ...]]:
    """Every bestiary added under `into`, by name, and (folder, reason) for each that does not load."""
    root = Path(into).expanduser()
    found: list[AddedBestiary] = []
    problems: list[tuple[str, str]] = []
    if not root.is_dir():
        return (), ()
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            found.append(load_added_bestiary(folder))
        except InvalidInput as exc:
            problems.append((folder.name, exc.reason or str(exc)))
    return tuple(found), tuple(problems)


class Shelf(Frozen):
    """Where listed monsters come from: the shipped sample, an added bestiary, or the Director's library."""

    name: str
    kind: Literal["sample", "bestiary", "library"]
    attribution: str = ""
    count: int = 0


class ListedMonster(Frozen):
    """A monster as listed, with the shelf it came from."""

    monster: Monster | PublishedMonster
    shelf: str


class WorkspaceBestiary(Frozen):
    """Every monster at hand: the sample, the added bestiaries and the library, each with its shelf."""

    shelves: tuple[Shelf, ...] = ()
    entries: tuple[ListedMonster, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()  # (what, why) for a bestiary or a library file that did not load

    @property
    def monsters(self) -> tuple[Monster | PublishedMonster, ...]:
        return tuple(e.monster for e in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def attribution_lines(self) -> tuple[str, ...]:
        """One line per shelf that has monsters: its name, how many, and its attribution."""
        return tuple(
            f"{s.name} ({s.count} monsters)" + (f": {s.attribution}" if s.attribution else "")
            for s in self.shelves
            if s.count
        )


SAMPLE_SHELF = "Published sample (Steel Compendium)"
LIBRARY_SHELF = "Your library"


def _sample_attribution() -> str:
    try:
        text = read_bytes(SAMPLE_DIR / "LICENSE", limit=MAX_LICENCE_BYTES).decode("utf-8", errors="replace")
    except FileProblem:
        return ""
    return _first_paragraph(text)


def gather_bestiary(
    bestiaries: str | os.PathLike[str] | None,
    library: str | os.PathLike[str] | None,
    *,
    sample: bool = True,
    old_libraries: Sequence[str | os.PathLike[str]] = (),
    published: bool = True,
) -> WorkspaceBestiary:
    """The sample (unless `sample=False`), every bestiary added under `bestiaries`, the library folder's
    monsters and those still in `old_libraries` (saved before the workspace, not moved yet: offered too, on a
    shelf of their own), together; a bestiary or library file that does not load is in `problems` by name.
    A saved monster is listed under its library name when it has none of its own (`Entry.named`).

    `published=False` leaves out the added bestiaries' Steel Compendium stat blocks: a page listing those as
    published stat blocks (`published_stat_blocks`) lists the rest of the workspace's monsters with this."""
    shelves: list[Shelf] = []
    entries: list[ListedMonster] = []
    problems: list[tuple[str, str]] = []
    if sample:
        shipped = load_bestiary(SAMPLE_DIR)
        shelves.append(Shelf(name=SAMPLE_SHELF, kind="sample", attribution=_sample_attribution(),
                             count=len(shipped.monsters)))
        entries += [ListedMonster(monster=m, shelf=SAMPLE_SHELF) for m in shipped.monsters]
    if bestiaries is not None:
        added, broken = list_bestiaries(bestiaries)
        problems += [(f"bestiary {folder}", why) for folder, why in broken]
        for b in added:
            kinds = b.monster_formats if len(b.monster_formats) == len(b.monsters) else ("",) * len(b.monsters)
            kept = [m for m, kind in zip(b.monsters, kinds, strict=True) if published or kind != "steel-compendium"]
            shelves.append(Shelf(name=b.name, kind="bestiary", attribution=b.attribution, count=len(kept)))
            entries += [ListedMonster(monster=m, shelf=b.name) for m in kept]
    if library is not None:
        contents = load_library(Path(library))
        problems += [(f"library file {file}", why) for file, why in contents.problems]
        shelves.append(Shelf(name=LIBRARY_SHELF, kind="library", count=len(contents.entries)))
        entries += [ListedMonster(monster=e.named, shelf=LIBRARY_SHELF) for e in contents.entries]
    for folder in old_libraries:
        contents = load_library(Path(folder))
        if not contents.entries:
            continue
        name = f"Saved in {folder} (workbench workspace --move brings them into the library)"
        problems += [(f"library file {file}", why) for file, why in contents.problems]
        shelves.append(Shelf(name=name, kind="library", count=len(contents.entries)))
        entries += [ListedMonster(monster=e.named, shelf=name) for e in contents.entries]
    return WorkspaceBestiary(shelves=tuple(shelves), entries=tuple(entries), problems=tuple(problems))


def published_stat_blocks(
    bestiaries: str | os.PathLike[str] | None, *, sample: bool = True, ruleset: Ruleset | None = None
) -> Bestiary:
    """The published stat blocks at hand as the calibration and the bestiary browser read them
    (`PublishedMonster`): the sample and every Steel Compendium stat block of the added bestiaries, read from the
    files kept beside them. Each is on its bestiary's shelf (`PublishedMonster.shelf`, its file named from the
    shelf's folder) and each shelf carries its attribution, so wherever they are listed the attribution can be
    shown. One stat block found twice (the sample added as a bestiary too) counts once, so no fit weighs it
    double."""
    found: list[PublishedMonster] = []
    failures: list[LoadFailure] = []
    shelves: list[BestiaryShelf] = []
    if sample:
        published = load_bestiary(SAMPLE_DIR, ruleset)
        found += [m.model_copy(update={"shelf": SAMPLE_SHELF}) for m in published.monsters]
        failures += published.failures
        shelves.append(BestiaryShelf(name=SAMPLE_SHELF, folder=str(SAMPLE_DIR), attribution=_sample_attribution()))
    added = list_bestiaries(bestiaries)[0] if bestiaries is not None else ()
    for b in added:
        folder = Path(b.folder)
        files = sorted({f for f, kind in zip(b.monster_files, b.monster_formats, strict=False)
                        if kind == "steel-compendium"})
        for file in files:
            try:
                read = read_stat_block_file(folder / file, file, ruleset, inside=folder)
                found.append(read.model_copy(update={"shelf": b.name}))
            except StatBlockError as exc:
                failures.append(LoadFailure(file=f"{b.name}: {file}", reason=exc.reason))
        shelves.append(BestiaryShelf(name=b.name, folder=str(folder), attribution=b.attribution))
    seen: set[tuple[str, int, str, int, int]] = set()
    unique: list[PublishedMonster] = []
    for m in found:
        key = (m.name.casefold(), m.level, m.organization, m.ev, m.stamina)
        if key not in seen:
            seen.add(key)
            unique.append(m)
    return Bestiary(source=", ".join(s.name for s in shelves), monsters=tuple(unique), failures=tuple(failures),
                    shelves=tuple(shelves))


# ---------------------------------------------------------------- the old library folders


class OldMonster(Frozen):
    """A monster file in an old library folder, and what moving it would do."""

    file: str  # the file's full path
    name: str  # its file name
    status: Literal["move", "same", "conflict"]  # "same": the workspace has an identical file already


def old_library_folders(workspace_library: str | os.PathLike[str]) -> tuple[Path, ...]:
    """The folders a library lived in before the workspace: the checkout's `data/homebrew` and `~/drawsteel-homebrew`, without the workspace's own library folder."""
    here = Path(workspace_library).expanduser()
    candidates = [OLD_CHECKOUT_FOLDER, Path.home() / "drawsteel-homebrew"]
    out: list[Path] = []
    for folder in candidates:
        if folder.is_dir() and not _same_folder(folder, here) and all(not _same_folder(folder, o) for o in out):
            out.append(folder)
    return tuple(out)


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def old_library_monsters(
    workspace_library: str | os.PathLike[str], folders: Sequence[str | os.PathLike[str]] | None = None
) -> tuple[OldMonster, ...]:
    """Each monster file in the old folders, with what moving it into the workspace's library would do."""
    here = Path(workspace_library).expanduser()
    found: list[OldMonster] = []
    for folder in (old_library_folders(here) if folders is None else [Path(f) for f in folders]):
        for path in sorted(p for p in Path(folder).glob("*.json") if p.is_file() and not p.name.startswith(".")):
            target = here / path.name
            if not target.exists():
                status: Literal["move", "same", "conflict"] = "move"
            else:
                status = "same" if _same_bytes(path, target, here) else "conflict"
            found.append(OldMonster(file=str(path), name=path.name, status=status))
    return tuple(found)


def _same_bytes(a: Path, b: Path, b_inside: Path | None = None) -> bool:
    """Whether two files hold the same bytes (`b` read only inside `b_inside`: a link leading out is no copy)."""
    try:
        return read_bytes(a) == read_bytes(b, inside=b_inside)
    except FileProblem:
        return False


def move_old_monsters(
    workspace_library: str | os.PathLike[str], folders: Sequence[str | os.PathLike[str]] | None = None
) -> tuple[tuple[OldMonster, ...], tuple[OldMonster, ...]]:
    """Copy each old monster file into the workspace's library, then remove the old one: (moved, kept).

    A file whose name the workspace's library already has is kept where it is (a "conflict": both are
    the Director's, and neither is overwritten); an identical copy there is a move already done, so the old
    one is removed. The copy is made new (never over a file) and checked before the old file goes.
    """
    here = Path(workspace_library).expanduser()
    moved: list[OldMonster] = []
    kept: list[OldMonster] = []
    try:
        here.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInput("library", str(here), "a folder the workbench can write", str(exc)) from None
    for old in old_library_monsters(here, folders):
        source, target = Path(old.file), here / old.name
        if old.status == "conflict":
            kept.append(old)
            continue
        try:
            if old.status == "move":
                write_atomic(target, read_bytes(source))  # the library's lock, new, never through a link
            if not _same_bytes(source, target, here):
                kept.append(old.model_copy(update={"status": "conflict"}))
                continue
            source.unlink()
            moved.append(old)
        except (OSError, FileProblem):
            kept.append(old)
    return tuple(moved), tuple(kept)
