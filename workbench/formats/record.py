"""What every format carries besides its own fields: the workbench record, and a monster assembled on import.

Each tool has fields for the stat block it shows (name, numbers, abilities …) and none for what only the
workbench knows (the formulas' inputs, a homebrew rule module, the exact book spelling of a distance). An
exported file therefore carries both: the tool's own fields, which the tool reads and a Director may edit
there, and a *workbench record* — the monster as the workbench saves it — where the format has room for it
(Steel Compendium `metadata`, Foundry `flags`, the Forge Steel description's last line).

On import the tool's fields win wherever they were changed in the tool: the record is exported again, read
back through the format, and any top-level field whose file value differs from that is taken from the file.
So an unedited file comes back exactly as exported, and an edit made in Forge Steel or Foundry is kept. A
file with no record (written by the tool itself, or by hand) gets the formulas' numbers for everything the
format does not print, and the printed numbers as printed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from workbench.errors import InvalidInput, WorkbenchError
from workbench.io.problem import FileProblem
from workbench.io.reading import MAX_FILE_BYTES as LIBRARY_FILE_BYTES
from workbench.io.reading import parse_json
from workbench.model import Ability, Characteristics, Monster, Tiers
from workbench.model.base import invalid_input
from workbench.monster.formulas import build_monster
from workbench.monster.library import record_of as library_record
from workbench.rules.limits import MAX_LEVEL, MAX_NUMBER, whole

__all__ = ["PRINTED_RANGES", "RECORD_KEY", "UNNAMED", "WRONG_KIND", "ImportRefused", "PartRefused", "assemble",
           "check_monster", "object_part", "quoted", "text_part",
           "record_of", "record_line", "split_record_line"]

RECORD_KEY = "drawsteel-workbench"
RECORD_VERSION = 1
RECORD_PREFIX = "Workbench record: "  # the Forge Steel description's last line
# Lists of parts compared one by one: an edit to one ability in the tool leaves the others as recorded.
PART_LISTS = ("abilities", "traits", "malice_features", "villain_actions")
UNNAMED = "Unnamed monster"  # every tool needs a name; the record keeps a builder monster's empty one
# What a refusal says for a value of a type the format never holds there (no Python exception text).
WRONG_KIND = "a value of the wrong kind (not what this format holds there)"
# The printed numbers a stat block may hold, the workbench's ranges (workbench.rules.limits): a level of the
# tables, a Stamina of at least 1, the rest from 0; every other part of the workbench reads them in these.
PRINTED_RANGES = {"level": (1, MAX_LEVEL), "ev": (0, MAX_NUMBER), "stamina": (1, MAX_NUMBER),
                  "free_strike": (0, MAX_NUMBER), "stability_value": (0, MAX_NUMBER)}


class ImportRefused(WorkbenchError, ValueError):
    """A file the workbench will not read: the file, the format it looked like and the part that failed."""

    code = "import-refused"

    def __init__(self, source: str, fmt: str, part: str, reason: str) -> None:
        self.source = source
        self.format = fmt
        self.part = part
        self.reason = reason
        super().__init__(f"{source}: looks like {fmt}; {part}: {reason}")


def record_of(monster: Monster, leave_out: Iterable[str] = ()) -> dict[str, Any]:
    """The monster as a JSON-ready dict, tagged with the record's version; `leave_out` names fields the
    format already carries exactly, which are then not repeated."""
    return {"version": RECORD_VERSION, "monster": monster.model_dump(mode="json", exclude=set(leave_out))}


def record_line(record: Mapping[str, Any]) -> str:
    return RECORD_PREFIX + json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def split_record_line(text: str) -> tuple[str, dict[str, Any] | None]:
    """A description and the record on its last line (None when it has none)."""
    head, _, last = text.rpartition("\n")
    if not last.startswith(RECORD_PREFIX):
        return text, None
    try:  # with the file readers' caps: a record nested 100,000 deep or holding a 5,000-digit number is damaged
        record = parse_json(last[len(RECORD_PREFIX):], "the workbench record")
    except FileProblem:
        return text, None
    return head.rstrip("\n"), record if isinstance(record, dict) else None


def _check_printed(data: Mapping[str, Any], source: str, fmt: str) -> None:
    """Each printed number in its range, or a refusal naming the field and the range."""
    for field, (lowest, highest) in PRINTED_RANGES.items():
        value = data.get(field)
        if field == "stability_value" and value is None:
            continue
        try:
            whole(field, value, lowest, highest)
        except InvalidInput as exc:
            shown = str(value) if len(str(value)) <= 20 else str(value)[:17] + "..."
            raise ImportRefused(source, fmt, field, f"got {shown}; accepts {exc.accepts}") from None


def check_monster(monster: Monster, source: str, fmt: str) -> Monster:
    """The monster, if the homebrew library can keep it: its printed numbers in range, and its saved file
    within the size the library loads (so a monster that imports also loads back)."""
    _check_printed(monster.model_dump(include=set(PRINTED_RANGES)), source, fmt)
    try:
        size = len(library_record(monster).model_dump_json(indent=2).encode()) + 1
    except InvalidInput as exc:  # an input the formulas refuse (a record's target count, a leader's role ...)
        raise ImportRefused(source, fmt, exc.field, str(exc).split(": ", 1)[-1]) from None
    if size > LIBRARY_FILE_BYTES:
        raise ImportRefused(source, fmt, "monster", f"its library file would be {size:,} bytes; the library "
                            f"loads files of up to {LIBRARY_FILE_BYTES:,} bytes (fewer or shorter parts)")
    return monster


def _monster(data: Mapping[str, Any], source: str, fmt: str) -> Monster:
    _check_printed(data, source, fmt)
    try:
        return Monster.model_validate(dict(data))
    except InvalidInput as exc:
        raise ImportRefused(source, fmt, exc.field, str(exc).split(": ", 1)[-1]) from None
    except ValidationError as exc:  # the first problem, named by its field, in the workbench's words
        problem = invalid_input(exc)
        raise ImportRefused(source, fmt, problem.field, str(problem).split(": ", 1)[-1]) from None


def _signature_damage(abilities: Iterable[Ability]) -> Tiers | None:
    for ability in abilities:
        if ability.is_signature:
            damage = ability.power_roll.damage if ability.power_roll else (None, None, None)
            first, second, third = damage
            if first is None or second is None or third is None:
                return None
            return Tiers(tier1=first, tier2=second, tier3=third)
    return None


def from_formulas(native: Mapping[str, Any], source: str, fmt: str) -> Monster:
    """A monster from a file with no record, read as `wb.read_stat_block` reads a published block: the
    formulas' numbers for its level, organization and role, the printed ones over them (EV, Stamina, free
    strike, the highest of the printed characteristics, the first signature ability's damage)."""
    _check_printed(native, source, fmt)
    try:
        base = build_monster(level=native["level"], organization=native["organization"], role=native.get("role"))
    except InvalidInput as exc:
        raise ImportRefused(source, fmt, exc.field, str(exc).split(": ", 1)[-1]) from None
    data = {**base.model_dump(), **native}
    characteristics = native.get("characteristics")
    if isinstance(characteristics, Characteristics) and characteristics.highest is not None:
        data["highest_characteristic"] = characteristics.highest
    signature = _signature_damage(native.get("abilities") or ())
    if signature is not None:
        data["damage"] = signature
    return _monster(data, source, fmt)


def assemble(
    native: Mapping[str, Any],
    record: Mapping[str, Any] | None,
    reread: Callable[[Monster], Mapping[str, Any]],
    source: str,
    fmt: str,
) -> Monster:
    """The imported monster: the record where the file is as exported, the file's own fields where not.

    `native` holds the Monster fields the format's own fields give; `reread(monster)` is what those fields
    would give for a monster exported now (the same reading, of a fresh export without a record).
    """
    if not isinstance(record, Mapping) or not isinstance(record.get("monster"), Mapping):
        return from_formulas(native, source, fmt)
    if record.get("version") != RECORD_VERSION:
        raise ImportRefused(source, fmt, f"{RECORD_KEY} record", f"version {record.get('version')!r} unknown")
    candidate = _monster({**native, **record["monster"]}, source, fmt)
    try:
        as_exported = reread(candidate)
    except (WorkbenchError, ValueError, KeyError, TypeError, AttributeError) as exc:
        # the record holds what this format cannot carry (an organization it has no name for ...)
        raise ImportRefused(source, fmt, f"{RECORD_KEY} record", getattr(exc, "reason", None) or WRONG_KIND) \
            from None
    edited: dict[str, Any] = {}
    for key, value in native.items():
        before = as_exported.get(key)
        if before == value:
            continue
        if key in PART_LISTS and isinstance(value, tuple) and isinstance(before, tuple) and len(value) == len(before):
            # one ability changed in the tool: the others keep what only the record holds
            recorded = getattr(candidate, key)
            edited[key] = tuple(r if b == v else v for r, b, v in zip(recorded, before, value, strict=True))
        else:
            edited[key] = value
    if not edited:
        return candidate
    return _monster({**candidate.model_dump(), **edited}, source, fmt)


class PartRefused(ValueError):
    """One part of a tool's file that cannot be read: the part's path and why (the reader names both)."""

    def __init__(self, part: str, reason: str) -> None:
        super().__init__(f"{part}: {reason}")
        self.part, self.reason = part, reason


def quoted(value: Any) -> str:
    """A value as a refusal quotes it: short, never a Python type's repr."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def object_part(value: Any, where: str) -> Mapping[str, Any]:
    """`value` if it is an object; {} for a missing one (the tools fill a missing part with their defaults)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise PartRefused(where, f"got {quoted(value)}; accepts an object")
    return value


def text_part(value: Any, where: str) -> str:
    """`value` if it is text; "" for a missing one."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise PartRefused(where, f"got {quoted(value)}; accepts text")
    return value
