"""The homebrew library: monsters a Director built, kept as one JSON file per monster in a folder.

A file holds the inputs that chose the numbers (level, organization, role, extra Stamina, targets), the text
a homebrewer typed, the whole stat block (characteristics, abilities, ...) and the numbers as they were when
saved. Loading rebuilds the numbers from the inputs with the current ruleset, so a library follows the rules
(a formula monster's signature ability and characteristic with them, `Monster.model_copy`); `Entry.changed`
names any number that moved since. A monster whose numbers are its own (a published stat block read whole,
a re-levelled one) is saved with `keep_numbers` and comes back with them. File format version 2 adds the
whole stat block; version 3 files hold a formula monster's signature ability and characteristic in it. A
version 1 or 2 file kept them as two choices beside the monster (`characteristic`, `strike`): it loads with
them written into the monster (`signature.with_signature`), showing what it showed.

Nothing saved is lost: a save goes through `workbench.io.writing.write_atomic` (the folder's lock, a temporary file
moved into place in one step), so a crash or a kill leaves the old file whole; an existing file is never
replaced without `overwrite=True`, and never when it is not a homebrew monster file; `save_monsters` saves a
batch all or none. Names are compared as Unicode NFC, case-folded ("Café" typed either way, "Goblin" and
"GOBLIN", the Kelvin sign and K are one name); a save looks the name up in a listing of the folder kept
while the folder is unchanged, so a library of thousands of monsters is not listed at every save. A corrupt
or foreign file in the folder is reported by name while the others load.
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from workbench.errors import InvalidInput, NotFound, WorkbenchError
from workbench.io.home import library_folder
from workbench.io.lock import Journal, folder_generation, folder_lock
from workbench.io.problem import FileProblem, os_reason
from workbench.io.reading import MAX_FILE_BYTES, is_inside
from workbench.io.saved import NotThisKind, is_tagged, read_tagged
from workbench.io.writing import make_folder, read_current, require_switch, write_group, write_locked
from workbench.model import (
    Characteristic,
    Monster,
    MonsterText,
    StatBlockParts,
    Tiers,
    require_monster,
)
from workbench.monster.formulas import build_monster
from workbench.monster.signature import signature_choices, with_signature
from workbench.monster.solo import instant_solo, is_instant_solo, restore_instant_solo
from workbench.rules.ruleset import DATA_DIR, Ruleset, core_ruleset

__all__ = [
    "NameTaken",
    "FORMAT",
    "Entry",
    "HomebrewRecord",
    "LibraryContents",
    "LibraryError",
    "Numbers",
    "OLD_CHECKOUT_FOLDER",
    "check_name",
    "suggest_name",
    "schema_text",
    "delete_monster",
    "entry_of_record",
    "homebrew_schema",
    "list_monsters",
    "load_entry",
    "load_library",
    "load_monster",
    "read_record",
    "record_of",
    "rename_monster",
    "name_key",
    "save_monster",
    "save_monsters",
    "SCHEMA_PATH",
]

# Where a checkout kept its library before the workspace: still writable, so its monsters can be moved out.
OLD_CHECKOUT_FOLDER = DATA_DIR / "homebrew"
SCHEMA_PATH = DATA_DIR / "schema" / "homebrew-monster.schema.json"
FORMAT: Final = "drawsteel-workbench/homebrew-monster"
VERSION: Final = 3
SUFFIX = ".json"
NAME_PUNCTUATION = " -_'"
NAME_ACCEPTS = (
    "1 to 64 letters, digits, spaces, hyphens, underscores or apostrophes, "
    "starting with a letter or digit"
)

# Windows refuses these as file names (with any extension), so a library holding one cannot be copied there.
RESERVED_NAMES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{port}{n}" for port in ("COM", "LPT") for n in (*"123456789", "¹", "²", "³")]
)


class Numbers(BaseModel):
    """The numbers as saved (for reading the file without the workbench; rebuilt on load)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ev: int
    stamina: int
    free_strike: int
    echelon: int
    highest_characteristic: int
    damage: Tiers
    non_strike_damage: Tiers
    potency: Tiers


class HomebrewRecord(MonsterText, StatBlockParts):
    """One homebrew monster file. `format` and `version` mark the file as ours.

    Version 2 adds the whole stat block (`StatBlockParts`: characteristics, abilities, size,
    movement, immunities, ...) and `keep_numbers`; a version 1 file has none of them and loads as before
    (its schema stays published as `homebrew-monster-v1.schema.json`). From version 3 the stat block holds
    a formula monster's characteristic and signature ability; `characteristic` and `strike` repeat its
    choices (before, they were the only place the choices were kept).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", title="Draw Steel workbench homebrew monster")

    format: Literal["drawsteel-workbench/homebrew-monster"] = FORMAT
    version: Literal[1, 2, 3] = VERSION
    # inputs: the numbers are rebuilt from these on load
    level: int = Field(ge=1)
    organization: str
    role: str | None = None
    extra_stamina: bool = False
    targets: int = Field(ge=1)
    # a leader or elite made a solo by "Instant Solo Creature" (files saved before this field: see
    # restore_instant_solo)
    instant_solo: bool = False
    # the text a homebrewer fills in comes from MonsterText
    # a formula monster's choices: written into the monster by build_monster (version 3), kept beside it
    # before
    characteristic: Characteristic = "might"
    strike: bool = True
    # the numbers when saved, and the ruleset that gave them
    ruleset: str
    numbers: Numbers
    # True when the numbers are the monster's own (a published stat block, a design departing from the
    # formulas): loading keeps them instead of rebuilding them from the inputs
    keep_numbers: bool = False
    # a re-levelled monster's design, as it was before any re-levelling (workbench.monster.relevel)
    relevelled_from: Monster | None = None


class Entry(BaseModel):
    """A monster loaded from a library file, with the choices its file records (`HomebrewRecord`)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    name: str
    file: str
    monster: Monster
    characteristic: Characteristic = "might"
    strike: bool = True
    changed: tuple[str, ...] = ()

    @property
    def named(self) -> Monster:
        """The monster under its library name when it has no name of its own, as lists and views name it."""
        if self.monster.name.strip():
            return self.monster
        named = self.monster.model_copy(update={"name": self.name})
        named._rules = self.monster.rules
        return named


class LibraryContents(BaseModel):
    """Everything a folder holds: the monsters that loaded and (file name, reason) for those that did not."""

    model_config = ConfigDict(frozen=True)
    entries: tuple[Entry, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()

    def names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries)

    def named_monsters(self) -> list[Monster]:
        """Every monster that loaded, under its library name when it has none (`Entry.named`)."""
        return [e.named for e in self.entries]

    def problem_lines(self) -> list[str]:
        """"file (reason)" for each file that did not load, as the pages name them."""
        return [f"{file} ({reason})" for file, reason in self.problems]

    def __getitem__(self, name: str) -> Monster:
        for entry in self.entries:
            if entry.name == name:
                return entry.monster
        raise NotFound("monster", name, self.names(), where="the library")


TEXT_FIELDS = tuple(MonsterText.model_fields)
PART_FIELDS = tuple(StatBlockParts.model_fields)
DESIGN_FIELDS = ("relevelled_from",)
NUMBER_FIELDS = tuple(Numbers.model_fields)


# ---------------------------------------------------------------- names and paths


def _folder(folder: str | Path | None) -> Path:
    if folder is None:
        return library_folder()
    if not isinstance(folder, (str, os.PathLike)) or not str(folder).strip() or "\0" in str(folder):
        raise InvalidInput("folder", folder, "a folder path")
    return Path(folder).expanduser()


def _writable_folder(folder: str | Path | None) -> Path:
    """A folder a save may write to: anywhere but the workbench's shipped data (except the default library)."""
    where = _folder(folder)
    if is_inside(where, DATA_DIR) and not is_inside(where, OLD_CHECKOUT_FOLDER):
        raise InvalidInput("folder", str(where), "a folder outside the workbench's shipped data",
                           f"{DATA_DIR} holds the rules and stat blocks the workbench ships")
    return where


def name_key(name: str) -> str:
    """What two names must share to be one monster: Unicode NFC, case-folded (then NFC again: folding can
    decompose)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def check_name(name: object) -> str:
    """A library name is a file name stem: safe on every system, no folders, no hidden files; as NFC, so a
    name typed with combining accents is the same file as the one typed with precomposed letters."""
    if not isinstance(name, str):
        raise InvalidInput("name", name, NAME_ACCEPTS)
    stripped = unicodedata.normalize("NFC", name).strip()
    if not (1 <= len(stripped) <= 64) or not stripped[0].isalnum():
        raise InvalidInput("name", name, NAME_ACCEPTS)
    bad = sorted({c for c in stripped if not (c.isalnum() or c in NAME_PUNCTUATION)})
    if bad:
        raise InvalidInput("name", name, NAME_ACCEPTS, "contains " + " ".join(repr(c) for c in bad))
    if stripped.upper() in RESERVED_NAMES:
        raise InvalidInput("name", name, NAME_ACCEPTS, "a name Windows reserves for a device")
    return stripped


def suggest_name(text: str) -> str:
    """A library name made from any text (a monster's name): disallowed characters dropped, "" if none left."""
    kept = "".join(c for c in unicodedata.normalize("NFC", text) if c.isalnum() or c in NAME_PUNCTUATION)
    kept = " ".join(kept.split())
    while kept and not kept[0].isalnum():
        kept = kept[1:]
    kept = kept[:64].rstrip()
    return kept[:63] + "_" if kept.upper() in RESERVED_NAMES else kept


def _path(name: str, folder: Path) -> Path:
    return folder / (check_name(name) + SUFFIX)


# ---------------------------------------------------------------- records


def record_of(monster: Monster) -> HomebrewRecord:
    """The file contents for a monster: its inputs, its text and stat block parts, its numbers.

    When the monster's numbers are not what its inputs rebuild (a published stat block, a re-levelled one,
    a Director's departure), the file says `keep_numbers` and loading keeps them.
    """
    characteristic, strike = signature_choices(require_monster(monster)) or ("might", True)
    data = monster.model_dump()
    try:
        record = HomebrewRecord(
            level=monster.level,
            organization=monster.organization,
            role=monster.role,
            extra_stamina=monster.extra_stamina,
            targets=monster.targets,
            instant_solo=is_instant_solo(monster),
            characteristic=characteristic,
            strike=strike,
            ruleset=monster.ruleset,
            numbers=Numbers(**{k: data[k] for k in NUMBER_FIELDS}),
            **{k: data[k] for k in TEXT_FIELDS + PART_FIELDS + DESIGN_FIELDS},
        )
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0])
        raise InvalidInput(field, error.get("input"), error["msg"]) from None
    rebuilt = _monster_of(record, monster.rules).model_dump()
    if any(rebuilt[k] != data[k] for k in NUMBER_FIELDS):
        record = record.model_copy(update={"keep_numbers": True})
    return record


def _monster_of(record: HomebrewRecord, rules: Ruleset) -> Monster:
    monster = build_monster(record.level, record.organization, record.role, record.extra_stamina, record.targets,
                            rules, characteristic=record.characteristic, strike=record.strike)
    saved = {k: getattr(record, k) for k in TEXT_FIELDS + PART_FIELDS + DESIGN_FIELDS}
    as_saved = monster.model_copy(update={**saved, **{k: getattr(record.numbers, k) for k in NUMBER_FIELDS}})
    as_saved._rules = monster.rules
    if record.version < 3:  # the choices were kept beside the monster: written in, it shows what it showed
        as_saved = with_signature(as_saved, record.characteristic, record.strike)
    # the current rules' numbers, a formula monster's signature ability and characteristic with them
    rebuilt = as_saved.model_copy(update={k: getattr(monster, k) for k in NUMBER_FIELDS})
    if record.instant_solo:
        rebuilt = instant_solo(rebuilt)
    else:
        # a file saved before `instant_solo` existed says only "leader" or "elite": it comes back as the same
        # instant solo when its traits and numbers show it was one (solo.py)
        rebuilt = restore_instant_solo(rebuilt, record.numbers.ev, record.numbers.stamina)
    if record.keep_numbers:
        return rebuilt.model_copy(update={k: getattr(record.numbers, k) for k in NUMBER_FIELDS})
    return rebuilt


def _not_whole_numbers(data: dict[str, Any]) -> list[str]:
    """Where a number the formulas use is not written as a whole number (pydantic would read `true` or "3"
    as a level); `level`, `targets`, `version` and every saved number."""
    found: list[str] = [k for k in ("level", "targets", "version") if k in data and type(data[k]) is not int]
    stack: list[tuple[str, Any]] = [("numbers", data.get("numbers"))]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{where}.{k}", v) for k, v in value.items())
        elif type(value) is not int and value is not None and where != "numbers":
            found.append(where)
    return sorted(found)


def _entry(path: Path, rules: Ruleset) -> Entry:
    """Read one file; raises `_Unreadable` with a reason a person understands."""
    try:
        # every version the record reads: a wrong one is refused by the record, naming the field
        data = read_tagged(path, FORMAT, inside=path.parent)
    except NotThisKind:
        raise _Unreadable("foreign: not a monster the workbench saved (a stat block from elsewhere opens with "
                          "“Open a file” in the builder)") from None
    except FileProblem as exc:
        corrupt = exc.reason.startswith(("not valid", "not UTF-8"))
        raise _Unreadable(f"corrupt: {exc.reason}" if corrupt else exc.reason) from None
    record, monster, changed = _record_monster(data, rules)
    return Entry(
        name=path.stem,
        file=path.name,
        monster=monster,
        characteristic=record.characteristic,
        strike=record.strike,
        changed=changed,
    )


def _record_monster(data: Any, rules: Ruleset) -> tuple[HomebrewRecord, Monster, tuple[str, ...]]:
    """A monster file's contents checked and built: the record, its Monster, and the saved numbers the inputs
    no longer give (`Entry.changed`); raises `_Unreadable` with a reason a person understands."""
    loose = _not_whole_numbers(data) if isinstance(data, dict) else []
    if loose:
        raise _Unreadable(f"invalid: {loose[0]}: not a whole number (true, false and \"3\" are not)")
    try:
        record = HomebrewRecord.model_validate(data)
    except ValidationError as exc:
        where = "; ".join(
            ".".join(str(p) for p in e["loc"]) + f": {e['msg']}" for e in exc.errors()[:3]
        )
        raise _Unreadable(f"invalid: {where}") from None
    try:
        monster = _monster_of(record, rules)
    except InvalidInput as exc:
        raise _Unreadable(f"not buildable with the {rules.name!r} ruleset: {exc}") from None
    saved = record.numbers.model_dump()
    now = monster.model_dump()
    return record, monster, tuple(k for k in NUMBER_FIELDS if saved[k] != now[k])


def read_record(data: Any, rules: Ruleset | None = None) -> tuple[Monster, tuple[str, ...]]:
    """A monster file's contents held inside another file (an encounter's creature) as its Monster, checked
    as a library file is, and the saved numbers its inputs no longer give (empty unless the numbers were
    edited or the rules changed). Refused with `InvalidInput` on the field "monster", with the reason."""
    try:
        _, monster, changed = _record_monster(data, rules or core_ruleset())
    except _Unreadable as exc:
        raise InvalidInput("monster", "the saved stat block", "a monster as the homebrew library saves it",
                           str(exc)) from None
    return monster, changed


def entry_of_record(data: dict[str, Any], ruleset: Ruleset | None = None, name: str = "") -> Entry:
    """A homebrew monster file's content, already parsed (a share code's), as the library loads a file: its
    numbers rebuilt with `ruleset` (the core rules by default) unless it keeps its own. Anything a file would
    be refused for is an `InvalidInput` on "monster" saying what is wrong."""
    try:
        record, monster, changed = _record_monster(data, ruleset or core_ruleset())
    except _Unreadable as exc:
        raise InvalidInput("monster", "the shared stat block", "a monster as the homebrew library saves it",
                           str(exc)) from None
    return Entry(name=name, file=f"{name}{SUFFIX}" if name else "", monster=monster,
                 characteristic=record.characteristic, strike=record.strike, changed=changed)


class _Unreadable(Exception):
    pass


class LibraryError(WorkbenchError):
    """A library file exists but cannot be loaded (the reason says why)."""

    code = "library-file"


# ---------------------------------------------------------------- writing


class NameTaken(InvalidInput):
    """Saving or renaming refused because the library already has a file of that name; `path` is that file.

    An app tells the Director how to replace it from this type, never from the message's words.
    """

    def __init__(self, name: str, path: Path) -> None:
        super().__init__(
            "name",
            name,
            "a name not already in the library, or overwrite=True",
            f"{path.name} already exists in {path.parent}",
        )
        self.path = path


def _exists(name: str, path: Path) -> NameTaken:
    return NameTaken(name, path)


_LISTINGS: dict[str, tuple[tuple[int, int], dict[str, list[str]]]] = {}


def _stamp(folder: Path, generation: int | None = None) -> tuple[int, int] | None:
    """What tells a kept listing is still the folder's: its modification time (any name added, removed or
    renamed changes it) and the workbench's count of saves in it (a save in the same clock tick does not)."""
    try:
        changed = os.stat(folder).st_mtime_ns
    except OSError:
        return None
    return changed, folder_generation(folder) if generation is None else generation


def _names_by_key(folder: Path, generation: int | None = None) -> dict[str, list[str]]:
    """The folder's visible file names by `name_key`, listed again only when the folder changed."""
    stamp = _stamp(folder, generation)
    if stamp is None:
        return {}
    where = str(folder.absolute())
    kept = _LISTINGS.get(where)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    names: dict[str, list[str]] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.name.startswith("."):
                    names.setdefault(name_key(entry.name), []).append(entry.name)
    except OSError:
        return {}
    _LISTINGS[where] = (stamp, names)
    return names


def _note_saved(folder: Path, journal: Journal, added: Sequence[Path], removed: Sequence[Path] = ()) -> None:
    """After this process's own save under the lock: the kept listing with the names it added and removed,
    so the next save need not list the folder again."""
    where = str(folder.absolute())
    kept = _LISTINGS.pop(where, None)
    stamp = _stamp(folder, journal.generation)
    if kept is None or stamp is None:
        return
    names = kept[1]
    for path in removed:
        found = names.get(name_key(path.name), [])
        if path.name in found:
            found.remove(path.name)
    for path in added:
        found = names.setdefault(name_key(path.name), [])
        if path.name not in found:
            found.append(path.name)
    _LISTINGS[where] = (stamp, names)


def _variants(path: Path, generation: int | None = None) -> list[Path]:
    """The library files whose names differ from `path`'s only by case or Unicode form (itself included if
    it exists).

    Names differing only by case are one monster: on macOS and Windows they are one file, so a library
    copied there must not hold two; "Café" with a precomposed é and with e + U+0301 look the same to a
    Director, so they are one monster too.
    """
    found = _names_by_key(path.parent, generation).get(name_key(path.name), [])
    return sorted(p for p in (path.parent / name for name in found) if p.is_file())


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _drop_variants(path: Path, keep: Path, generation: int | None = None) -> list[Path]:
    """After `path` was written with overwrite: remove its case variants (never `path` or `keep` itself);
    the files removed."""
    dropped = []
    for other in _variants(path, generation):
        if not (_same_file(other, path) or _same_file(other, keep)):
            other.unlink(missing_ok=True)
            dropped.append(other)
    return dropped


def _write_error(exc: FileProblem) -> LibraryError:
    return LibraryError(f"{Path(exc.file).name}: {exc.reason}")


def _not_a_monster_file(raw: bytes) -> str | None:
    """Why a file a save would replace is no homebrew monster file (then it is kept), or None."""
    if is_tagged(raw, FORMAT):
        return None
    return "it is not a homebrew monster file, so it is kept (only a saved monster is replaced)"


def _file_text(monster: Monster, name: str) -> str:
    """The library file of `monster`; refused before anything is written when it would be larger than a library
    file is read back from (`MAX_FILE_BYTES`): a pasted block whose lists run long is said so, not saved unreadable."""
    text = record_of(monster).model_dump_json(indent=2) + "\n"
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise InvalidInput("monster", name, "a monster whose file can be read back",
                           f"its file would take {size:,} bytes, more than the {MAX_FILE_BYTES // 1_048_576} MiB a "
                           "library file is read back from (shorten its lists of traits, abilities or keywords); "
                           "nothing was written")
    return text


def save_monster(
    monster: Monster,
    name: str | None = None,
    folder: str | Path | None = None,
    *,
    overwrite: bool = False,
) -> Path:
    """Save `monster` as `<folder>/<name>.json` (name defaults to the monster's name); returns the path.

    Refuses (InvalidInput on `name`) if the file exists, or one whose name differs only by case or Unicode
    form, unless `overwrite=True` (a real bool: "no" or 1 is refused), which then replaces it: one monster,
    one file. A file that is not a homebrew monster file is never replaced, and no file in the workbench's
    shipped data. A file-system failure (a full disk, a read-only folder) is a `LibraryError` naming the
    file; the old file stays whole.
    """
    require_monster(monster)
    require_switch("overwrite", overwrite)
    target_name = check_name(monster.name if name is None else name)
    where = _writable_folder(folder)
    path = _path(target_name, where)
    text = _file_text(monster, target_name)
    try:
        make_folder(path)
        with folder_lock(where, path) as journal:
            taken = _variants(path, journal.generation)
            if taken and not overwrite:
                raise _exists(target_name, taken[0])
            write_locked(journal, path, text, overwrite=overwrite, same_kind=_not_a_monster_file)
            _note_saved(where, journal, [path])
            dropped = _drop_variants(path, path, journal.generation) if overwrite else []
            if dropped:
                _note_saved(where, journal, [path], dropped)
    except FileExistsError:
        raise _exists(target_name, path) from None
    except FileProblem as exc:
        raise _write_error(exc) from None
    except OSError as exc:
        raise LibraryError(f"{path.name}: cannot save the file: {os_reason(exc)}") from None
    return path


def save_monsters(
    named: Sequence[tuple[str, Monster]], folder: str | Path | None = None, *, overwrite: bool = False
) -> list[Path]:
    """Save several monsters as one transaction: every one, or (any refusal, any failure) none.

    Every name is checked first (two of the batch, or one of the batch and one in the library, the same
    once NFC and case-folded are refused unless `overwrite`), every file is written to a temporary file,
    and only then are they moved into place; a full disk or a refused file leaves the library exactly as it
    was, with `overwrite` too (the old monsters are kept until all the new ones are in place).
    """
    require_switch("overwrite", overwrite)
    if isinstance(named, (str, bytes)) or not isinstance(named, Sequence):
        raise InvalidInput("named", named, "a list of (name, Monster) pairs")
    where = _writable_folder(folder)
    checked: list[tuple[str, Monster]] = []
    seen: dict[str, str] = {}
    for item in named:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise InvalidInput("named", item, "a (name, Monster) pair")
        name, monster = check_name(item[0]), require_monster(item[1])
        key = name_key(name)
        if key in seen:
            raise InvalidInput("named", name, "monsters of different names",
                               f"{seen[key]!r} and {name!r} are one name once case and accents are compared")
        seen[key] = name
        checked.append((name, monster))
    files = [(_path(name, where).name, _file_text(monster, name)) for name, monster in checked]
    try:
        make_folder(where / "x")
        with folder_lock(where) as journal:
            for name, _monster in checked:
                taken = _variants(_path(name, where), journal.generation)
                if taken and not overwrite:
                    raise _exists(name, taken[0])
            paths = write_group(where, files, overwrite=overwrite, same_kind=_not_a_monster_file, journal=journal)
            _note_saved(where, journal, paths)
            dropped = [other for path in paths for other in _drop_variants(path, path, journal.generation)]
            if dropped:
                _note_saved(where, journal, paths, dropped)
    except FileExistsError as exc:
        raise _exists(Path(exc.filename or "").stem, Path(exc.filename or where)) from None
    except FileProblem as exc:
        raise _write_error(exc) from None
    except OSError as exc:
        raise LibraryError(f"{where}: cannot save the files: {os_reason(exc)}") from None
    return paths


# ---------------------------------------------------------------- reading


def _library_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def list_monsters(folder: str | Path | None = None) -> list[str]:
    """The names of the `.json` files in the folder (loadable or not), sorted."""
    return [p.stem for p in _library_files(_folder(folder)) if p.suffix == SUFFIX]


def load_entry(name: str, folder: str | Path | None = None, ruleset: Ruleset | None = None) -> Entry:
    """One saved monster with what its file records; `LibraryError` says why a file cannot be loaded."""
    path = _saved(name, _folder(folder))
    try:
        return _entry(path, ruleset or core_ruleset())
    except _Unreadable as exc:
        raise LibraryError(f"{path.name}: {exc}") from None


def load_monster(name: str, folder: str | Path | None = None, ruleset: Ruleset | None = None) -> Monster:
    """One saved monster, its numbers rebuilt from its inputs with `ruleset` (the core rules by default)."""
    return load_entry(name, folder, ruleset).monster


def load_library(folder: str | Path | None = None, ruleset: Ruleset | None = None) -> LibraryContents:
    """Every monster in the folder; each file that is corrupt, foreign or unbuildable is reported by name."""
    rules = ruleset or core_ruleset()
    entries: list[Entry] = []
    problems: list[tuple[str, str]] = []
    for path in _library_files(_folder(folder)):
        if path.suffix != SUFFIX:
            problems.append((path.name, f"foreign: not a homebrew monster file (not {SUFFIX})"))
            continue
        try:
            entries.append(_entry(path, rules))
        except _Unreadable as exc:
            problems.append((path.name, str(exc)))
        except (WorkbenchError, ValueError, TypeError, ArithmeticError, RecursionError, MemoryError) as exc:
            # whatever a hostile file provokes beyond the checks above, it never takes the library down
            problems.append((path.name, f"cannot be loaded ({type(exc).__name__})"))
    return LibraryContents(entries=tuple(entries), problems=tuple(problems))


# ---------------------------------------------------------------- rename and delete


def _saved(name: str, folder: Path) -> Path:
    """The file of a saved monster, found whatever the case of `name`; InvalidInput if there is none."""
    path = _path(name, folder)
    if path.is_file():
        return path
    variants = _variants(path)
    if len(variants) == 1:
        return variants[0]
    raise InvalidInput("name", name, "the name of a saved monster", f"no {path.name} in {folder}")


def rename_monster(
    old: str, new: str, folder: str | Path | None = None, *, overwrite: bool = False
) -> Path:
    """Give a saved monster a new file name (its `name` text is unchanged); refuses to replace a file.

    A new name differing only by case re-spells the same file; with `overwrite`, the monster moved never
    disappears, even where two spellings are one file (macOS, Windows). Only a saved monster is ever
    replaced: a link, a folder or another kind of file under the new name is refused. Done under the
    folder's lock, as a save is.
    """
    require_switch("overwrite", overwrite)
    where = _writable_folder(folder)
    target = _path(new, where)
    _saved(old, where)  # no such monster: refused before anything is locked
    try:
        with folder_lock(where, target) as journal:
            source = _saved(old, where)
            if source == target:
                return target
            if os.path.lexists(target) and not _same_file(source, target):
                if not overwrite:
                    raise _exists(new, target)
                refusal = _not_a_monster_file(read_current(target) or b"")
                if refusal:
                    raise FileProblem(target, f"cannot replace it: {refusal}")
            journal.saved()
            if source.name.casefold() == target.name.casefold():  # a new spelling of the same monster
                os.replace(source, target)  # one file either way: a rename, never a delete
                return target
            taken = _variants(target, journal.generation)
            if taken and not overwrite:
                raise _exists(new, taken[0])
            if os.path.lexists(target) and not overwrite:
                raise _exists(new, target)
            # one rename, under the lock every save takes: a kill leaves the monster under the old name or the
            # new one, never both, never neither
            os.replace(source, target)
            _drop_variants(target, target, journal.generation)
    except FileProblem as exc:
        raise _write_error(exc) from None
    except OSError as exc:
        raise LibraryError(f"{target.name}: cannot rename {old}: {os_reason(exc)}") from None
    return target


def delete_monster(name: str, folder: str | Path | None = None) -> Path:
    """Remove a saved monster's file; returns the path it had (a refusal raises, so a caller that gets a path
    back knows the file is gone)."""
    where = _folder(folder)
    path = _saved(name, where)  # no such monster: refused before anything is locked
    try:
        with folder_lock(where, path) as journal:
            path = _saved(name, where)
            journal.saved()
            path.unlink()
    except FileProblem as exc:
        raise _write_error(exc) from None
    except OSError as exc:
        raise LibraryError(f"{name}: cannot delete it: {os_reason(exc)}") from None
    return path


# ---------------------------------------------------------------- schema


def homebrew_schema() -> dict[str, Any]:
    """The JSON schema of a homebrew monster file (published as `data/schema/homebrew-monster.schema.json`)."""
    schema = HomebrewRecord.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def schema_text() -> str:
    """The schema file's exact text (a test checks the published file is up to date)."""
    return json.dumps(homebrew_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
