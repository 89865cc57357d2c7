"""A bestiary added to the Director's workspace from a folder, a .zip or .tar.gz file, or a URL.

`add_bestiary(source, into)` reads every stat block file of the source through the importer (Steel Compendium,
Forge Steel `.ds-monster` / `.ds-monster-group`, Foundry VTT actors: the format told from the content) and keeps
the bestiary in a folder of its own under `into`:
- `bestiary.json`: its name, where it came from, its attribution and licence files, every monster read (as the
  workbench's own Monster), and every file that failed with the reason, or that held no stat block;
- `sources/`: the files that read, and the licence files, as the source had them (relative paths kept), so a
  published stat block stays readable by the calibration's own reader;
- `ATTRIBUTION.txt`: where the monsters come from and under which licence, beside them.

A source is not trusted: it is read through `workbench.io.archive` (member by member, in memory, within caps)
and a URL is fetched through `workbench.io.fetch` only when the Director asks. The bestiary is built in a
hidden folder beside its place and moved into place in one step: a failure leaves nothing half-added, and an
existing bestiary of that name is never replaced unless asked.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import tempfile
import urllib.parse
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Final, Literal

from pydantic import Field, ValidationError

from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.reader import MAX_FILE_BYTES, detect_format, read_monsters
from workbench.formats.record import ImportRefused
from workbench.frozen import Frozen
from workbench.io.archive import MAX_TOTAL_BYTES, FileNote, SourceFile, SourceRules, source_files
from workbench.io.fetch import URL_TIMEOUT, Progress, fetch, is_url
from workbench.io.lock import building_name, clean_dead_leftovers, settle_folder
from workbench.io.problem import FileProblem
from workbench.io.reading import parse_json, read_bytes, read_text
from workbench.io.writing import replace_folder, write_atomic
from workbench.model import Monster

__all__ = [
    "BESTIARY_FILE",
    "FORMAT",
    "MANUAL_ROUTE",
    "MAX_LICENCE_BYTES",
    "SOURCE_ACCEPTS",
    "AddedBestiary",
    "add_bestiary",
    "bestiary_name",
    "first_paragraph",
    "list_bestiaries",
    "load_added_bestiary",
    "remove_bestiary",
]

FORMAT: Final = "drawsteel-workbench/bestiary"
VERSION: Final = 1
BESTIARY_FILE = "bestiary.json"
SOURCES = "sources"
ATTRIBUTION_FILE = "ATTRIBUTION.txt"
MAX_LICENCE_BYTES = 256 * 1024
STAT_BLOCK_SUFFIXES = (".json", ".ds-monster", ".ds-monster-group")
LICENCE_NAMES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "ATTRIBUTION", "COPYRIGHT")
NAME_ACCEPTS = "1 to 64 letters, digits, spaces, hyphens or underscores, starting with a letter or digit"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,63}")
SOURCE_ACCEPTS = "a folder, a .zip or .tar.gz file, a stat block .json file, or an http(s) URL to one of them"
MANUAL_ROUTE = "download the file in a browser and add it: workbench bestiary add FILE"


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


def _is_licence(name: str) -> bool:
    stem = name.upper().split(".", 1)[0]
    return any(stem == n or stem.startswith(n + "-") or stem.startswith(n + "_") for n in LICENCE_NAMES)


def _limit(path: str) -> int | None:
    """A stat block file or a licence file: the only files of a source worth reading, each with its cap."""
    name = path.rsplit("/", 1)[-1]
    if _is_licence(name):
        return MAX_LICENCE_BYTES
    return MAX_FILE_BYTES if name.lower().endswith(STAT_BLOCK_SUFFIXES) else None


_RULES = SourceRules(accepts=SOURCE_ACCEPTS, file="stat block file", limit=_limit)


def _url_file_name(url: str) -> str:
    name = PurePosixPath(urllib.parse.urlparse(url).path).name
    return name if name.lower().endswith(STAT_BLOCK_SUFFIXES) else "download.json"


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


def first_paragraph(text: str) -> str:
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
        first = first_paragraph(licence.data.decode("utf-8", errors="replace"))
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
            fetch(label, download, accepts=SOURCE_ACCEPTS, manual=MANUAL_ROUTE, progress=progress, timeout=timeout)
            files = list(source_files(download, _RULES, notes, label=label, name=_url_file_name(label)))
        else:
            files = list(source_files(source, _RULES, notes, label=label))
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
        clean_dead_leftovers(root)
        building = building_name(final)
        building.mkdir()
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


# ---------------------------------------------------------------- the added bestiaries, read back


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
    settle_folder(root)
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            found.append(load_added_bestiary(folder))
        except InvalidInput as exc:
            problems.append((folder.name, exc.reason or str(exc)))
    return tuple(found), tuple(problems)


def remove_bestiary(name: object, into: str | os.PathLike[str]) -> AddedBestiary:
    """Remove the bestiary `name` added under `into` (its folder, sources and licence with it); returns what it was.

    Only a bestiary the workbench added goes: a name that is no added bestiary (another folder, a link, a name
    with a path in it) is refused by name (`InvalidInput` on "name") and nothing is touched. The folder is first
    moved aside in one step, so the bestiary is never half there.
    """
    checked = _check_name(name)
    root = Path(into).expanduser()
    folder = root / checked
    listed = ", ".join(b.name for b in list_bestiaries(root)[0]) or "none added yet"
    if folder.is_symlink() or not folder.is_dir():
        raise InvalidInput("name", checked, f"the name of an added bestiary ({listed})", "no such bestiary")
    try:
        bestiary = load_added_bestiary(folder)
    except InvalidInput as exc:
        raise InvalidInput("name", checked, f"the name of an added bestiary ({listed})", exc.reason) from None
    try:
        aside = Path(tempfile.mkdtemp(prefix=f".removing-{checked}-", dir=root))
        os.replace(folder, aside / checked)
    except OSError as exc:
        raise InvalidInput("into", str(root), "a folder the workbench can write", str(exc)) from None
    shutil.rmtree(aside, ignore_errors=True)
    return bestiary
