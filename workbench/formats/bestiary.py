"""Published stat blocks, read from the Steel Compendium's JSON transcription of the Monsters book.

The calibration compares the formulas of "Adjusting Monster Levels" with the book's own monsters, so this
module reads only what the formulas predict: level, organization, role, EV, Stamina, free strike, the five
characteristics and the signature ability (keywords, target text, power-roll bonus, damage per tier), plus
the stat block's own keywords ("Goblin", "Humanoid": its `ancestry` list), which an encounter search
filters on. Everything else in a stat block is left alone.

A folder is searched recursively for `*.json` files. One bad file never stops the rest: it is reported by
name with the reason (`LoadFailure`) and the others load. Two shapes of the transcription are read: the
current one (`features` with `"ability_type": "Signature Ability"` and `tier1`..`tier3`) and the older one
(`abilities` with `"cost": "Signature Ability"` and `t1`..`t3`).

Readings (see data/rules/RULES-READINGS.md for the formulas' own):
- A minion's printed EV ("3 for four minions", "3 for 4 minions") is the EV of four minions, as the formula's.
- A tier's damage is the sum of every "N [type] damage" in the tier text before its first ";", so
  "8 damage, 4 corruption damage" is 12; a tier with no damage amount has none (the ability is then not
  compared).
- When a stat block has two signature abilities (the medusa), the first in book order is compared.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput, NotFound, WorkbenchError
from workbench.io.problem import FileProblem
from workbench.io.reading import MAX_NUMBER_CHARS, long_number, read_json
from workbench.model import CHARACTERISTICS
from workbench.rules.ruleset import DATA_DIR, Ruleset, core_ruleset

__all__ = [
    "CHARACTERISTICS",
    "SAMPLE_DIR",
    "Bestiary",
    "BestiaryShelf",
    "LoadFailure",
    "MAX_FOLDER_FILES",
    "PublishedMonster",
    "Signature",
    "StatBlockError",
    "load_bestiary",
    "parse_stat_block",
    "read_stat_block_file",
    "refuse_long_numbers",
    "whole_number",
    "sample_bestiary",
    "tier_damage",
]

SAMPLE_DIR = DATA_DIR / "bestiary-sample"
# Files a folder search looks at before it gives up: a Steel Compendium clone holds a few thousand (its .git
# too), a home folder typed by mistake holds hundreds of thousands and would keep the page waiting for minutes.
MAX_FOLDER_FILES = 100_000
SIGNATURE = "signature ability"

_EV = re.compile(r"^\s*(\d+)?\s*(?:for\s+(four|4)\s+minions)?\s*$", re.IGNORECASE)
_WHOLE = re.compile(r"^\s*(-?\d+)\s*$")
_ROLL = re.compile(r"power\s+roll\s*([+\-−])\s*(\d+)", re.IGNORECASE)
# "7 damage", "4 corruption damage", "4 corruption or fire damage"
_DAMAGE = re.compile(r"(\d+)\s+(?:[a-z]+\s+(?:or\s+[a-z]+\s+)?)?damage\b", re.IGNORECASE)


class StatBlockError(WorkbenchError, ValueError):
    """A stat block could not be read; `reason` says why in words a person can act on."""

    code = "invalid-stat-block"

    def __init__(self, source: str, reason: str) -> None:
        self.source = source
        self.reason = reason
        super().__init__(f"{source}: {reason}")


class Signature(BaseModel):
    """A monster's signature ability, as far as the damage formula reads it."""

    model_config = ConfigDict(frozen=True)
    name: str
    keywords: tuple[str, ...]
    target: str
    tier_text: tuple[str, str, str] | None
    damage: tuple[int, int, int] | None
    bonus: int | None = None  # "Power Roll + 2" -> 2; None when the ability prints no roll

    @property
    def is_strike(self) -> bool:
        """A strike adds the highest characteristic to its damage ("If the ability is a strike")."""
        return any(k.strip().lower() == "strike" for k in self.keywords)


class PublishedMonster(BaseModel):
    """One stat block's numbers as printed. `ev` of a minion is the EV of four minions, as printed."""

    model_config = ConfigDict(frozen=True)
    name: str
    file: str
    level: int
    organization: str
    role: str | None
    roles_text: str
    ev: int
    ev_text: str
    stamina: int
    free_strike: int
    characteristics: dict[str, int]
    signature: Signature | None
    signature_count: int
    keywords: tuple[str, ...] = ()
    shelf: str = ""  # the bestiary it is listed from, when several are listed together ("": a folder's own)

    @property
    def highest_characteristic(self) -> int:
        return max(self.characteristics.values())


class LoadFailure(BaseModel):
    """A file that did not load, and why."""

    model_config = ConfigDict(frozen=True)
    file: str
    reason: str


class BestiaryShelf(BaseModel):
    """One of several bestiaries listed together: its name, the folder its stat blocks' files are named from,
    and the attribution and licence line shown wherever its monsters are listed."""

    model_config = ConfigDict(frozen=True)
    name: str
    folder: str
    attribution: str = ""


class Bestiary(BaseModel):
    """What a folder held (or several, each a `BestiaryShelf`): the stat blocks read, and every file that was not,
    with the reason."""

    model_config = ConfigDict(frozen=True)
    source: str
    monsters: tuple[PublishedMonster, ...]
    failures: tuple[LoadFailure, ...]
    shelves: tuple[BestiaryShelf, ...] = ()

    def __len__(self) -> int:
        return len(self.monsters)

    def folder_of(self, monster: PublishedMonster) -> Path:
        """The folder the stat block's `file` is named from: its shelf's, else the bestiary's own."""
        for shelf in self.shelves:
            if shelf.name == monster.shelf:
                return Path(shelf.folder)
        root = Path(self.source)
        return root if root.is_dir() else root.parent

    def attribution_lines(self) -> tuple[str, ...]:
        """One line per shelf with monsters listed: its name, how many, and its attribution."""
        counts: dict[str, int] = {}
        for monster in self.monsters:
            counts[monster.shelf] = counts.get(monster.shelf, 0) + 1
        return tuple(
            f"{s.name} ({counts[s.name]} monsters)" + (f": {s.attribution}" if s.attribution else "")
            for s in self.shelves
            if counts.get(s.name)
        )

    def named(self, name: str) -> PublishedMonster:
        """The stat block of that name (case-insensitive)."""
        for monster in self.monsters:
            if monster.name.lower() == name.strip().lower():
                return monster
        raise NotFound("stat block", name, where="the bestiary")


# ---------------------------------------------------------------- fields


def whole_number(data: Mapping[str, Any], key: str, source: str) -> int:
    """A whole-number field, given as a number or as a numeral in a string ("15")."""
    value = data.get(key)
    if isinstance(value, bool):
        raise StatBlockError(source, f"{key!r} is {value!r}; expected a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and (match := _WHOLE.match(value)):
        return int(match.group(1))
    if value is None:
        raise StatBlockError(source, f"no {key!r}")
    raise StatBlockError(source, f"{key!r} is {value!r}; expected a whole number")


def _ev(data: Mapping[str, Any], organization: str, source: str) -> tuple[int, str]:
    raw = data.get("ev")
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw, str(raw)
    if not isinstance(raw, str):
        raise StatBlockError(source, "no 'ev'" if raw is None else f"'ev' is {raw!r}; expected a number")
    match = _EV.match(raw)
    if not match or match.group(1) is None:
        raise StatBlockError(
            source, f"'ev' is {raw!r}; expected a number, or for minions '3 for four minions'"
        )
    if match.group(2) and organization != "minion":
        raise StatBlockError(source, f"'ev' is {raw!r} but the stat block is a {organization}, not a minion")
    return int(match.group(1)), raw


def _organization_and_role(
    data: Mapping[str, Any], rules: Ruleset, source: str
) -> tuple[str, str | None, str]:
    roles = data.get("roles", data.get("role"))
    if isinstance(roles, str):
        roles = [roles]
    if not isinstance(roles, list) or not roles or not all(isinstance(r, str) for r in roles):
        raise StatBlockError(source, f"'roles' is {roles!r}; expected a list like ['Minion Brute']")
    text = " ".join(roles)
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
    organizations = [w for w in words if w in rules.organizations]
    role_words = [w for w in words if w in rules.roles]
    if len(organizations) != 1:
        raise StatBlockError(
            source,
            f"'roles' {text!r} names {'no' if not organizations else 'more than one'} organization "
            f"(accepts one of {', '.join(rules.organizations)})",
        )
    organization = organizations[0]
    needs_role = rules.organizations[organization].needs_role
    if needs_role and len(role_words) != 1:
        raise StatBlockError(
            source,
            f"'roles' {text!r}: a {organization} needs exactly one role (one of {', '.join(rules.roles)})",
        )
    if not needs_role and role_words:
        raise StatBlockError(source, f"'roles' {text!r}: a {organization} has no creature role")
    return organization, (role_words[0] if needs_role else None), text


def _roll_bonus(effects: Any) -> int | None:
    """The bonus of the first printed power roll ("Power Roll + 2"), or None when there is none."""
    if not isinstance(effects, list):
        return None
    for effect in effects:
        roll = effect.get("roll") if isinstance(effect, Mapping) else None
        if isinstance(roll, str) and (match := _ROLL.search(roll)):
            value = int(match.group(2))
            return value if match.group(1) == "+" else -value
    return None


def _keywords(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The stat block's keywords: `ancestry` in the current transcription, `keywords` in other shapes."""
    for key in ("ancestry", "keywords"):
        value = data.get(key)
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            return tuple(str(k).strip() for k in value if str(k).strip())
    return ()


def _tier_texts(effects: Any) -> tuple[str, str, str] | None:
    if not isinstance(effects, list):
        return None
    for effect in effects:
        if not isinstance(effect, Mapping):
            continue
        for keys in (("tier1", "tier2", "tier3"), ("t1", "t2", "t3")):
            first, second, third = (effect.get(k) for k in keys)
            if isinstance(first, str) and isinstance(second, str) and isinstance(third, str):
                return first, second, third
    return None


def tier_damage(text: str) -> int | None:
    """The damage a tier deals: every "N [type] damage" before the first ";" added up (None: no damage)."""
    head = text.split(";", 1)[0]
    amounts = [int(n) for n in _DAMAGE.findall(head)]
    return sum(amounts) if amounts else None


def _is_signature(feature: Mapping[str, Any]) -> bool:
    for key in ("ability_type", "cost"):
        value = feature.get(key)
        if isinstance(value, str) and value.strip().lower() == SIGNATURE:
            return True
    return False


def _signatures(data: Mapping[str, Any], source: str) -> list[Signature]:
    found: list[Signature] = []
    for key in ("features", "abilities"):
        entries = data.get(key) or []
        if not isinstance(entries, list):
            raise StatBlockError(source, f"{key!r} is not a list")
        for feature in entries:
            if not isinstance(feature, Mapping) or not _is_signature(feature):
                continue
            keywords = feature.get("keywords") or []
            if not isinstance(keywords, list):
                keywords = [str(keywords)]
            texts = _tier_texts(feature.get("effects"))
            damage = None
            if texts is not None:
                tier1, tier2, tier3 = (tier_damage(t) for t in texts)
                if tier1 is not None and tier2 is not None and tier3 is not None:
                    damage = (tier1, tier2, tier3)
            found.append(
                Signature(
                    name=str(feature.get("name", "")),
                    keywords=tuple(str(k) for k in keywords),
                    target=str(feature.get("target", "")),
                    tier_text=texts,
                    damage=damage,
                    bonus=_roll_bonus(feature.get("effects")),
                )
            )
    return found


def refuse_long_numbers(data: Any, source: str) -> None:
    """`StatBlockError` when a text of the stat block holds a number longer than any a stat block has
    (`MAX_NUMBER_CHARS` digits: "Stamina 999…", "Power Roll + 999…"). The JSON reader caps the file's own numbers;
    these are read out of its texts, where one of thousands of digits is more than Python converts."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, str) and (run := long_number(value)):
            raise StatBlockError(source, f"a number of {len(run):,} digits in a text: no stat block holds "
                                         f"one longer than {MAX_NUMBER_CHARS}")


def parse_stat_block(data: Any, source: str = "stat block", ruleset: Ruleset | None = None) -> PublishedMonster:
    """One stat block (already decoded JSON) as a `PublishedMonster`; `StatBlockError` says what is wrong."""
    rules = ruleset or core_ruleset()
    if not isinstance(data, Mapping):
        raise StatBlockError(source, f"not a stat block: the JSON is a {type(data).__name__}, not an object")
    refuse_long_numbers(data, source)
    kind = data.get("type")
    if kind is not None and str(kind).strip().lower() != "statblock":
        raise StatBlockError(source, f"not a stat block: its type is {kind!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise StatBlockError(source, "no 'name'")
    level = whole_number(data, "level", source)
    if level < 1:
        raise StatBlockError(source, f"'level' is {level}; expected a whole number from 1 upwards")
    organization, role, roles_text = _organization_and_role(data, rules, source)
    ev, ev_text = _ev(data, organization, source)
    characteristics = {key: whole_number(data, key, source) for key in CHARACTERISTICS}
    signatures = _signatures(data, source)
    return PublishedMonster(
        name=name.strip(),
        file=source,
        level=level,
        organization=organization,
        role=role,
        roles_text=roles_text,
        ev=ev,
        ev_text=ev_text,
        stamina=whole_number(data, "stamina", source),
        free_strike=whole_number(data, "free_strike", source),
        characteristics=characteristics,
        signature=signatures[0] if signatures else None,
        signature_count=len(signatures),
        keywords=_keywords(data),
    )


def read_stat_block_file(
    path: str | Path, source: str | None = None, ruleset: Ruleset | None = None, *, inside: str | Path | None = None
) -> PublishedMonster:
    """One JSON file as a `PublishedMonster`; `StatBlockError` names the file and the reason.

    Read through `workbench.io.reading` (size, depth, number caps; a FIFO refused, never waited on).
    """
    path = Path(path)
    source = source or path.name
    try:
        data = read_json(path, inside=inside, source=source)
    except FileProblem as exc:
        raise StatBlockError(source, exc.reason) from None
    return parse_stat_block(data, source, ruleset)


def _json_files(root: Path) -> Iterable[Path]:
    """Every .json file under `root`, sorted; `InvalidInput` once more than `MAX_FOLDER_FILES` files are seen."""
    found: list[Path] = []
    for seen, path in enumerate(root.rglob("*"), 1):
        if seen > MAX_FOLDER_FILES:
            raise InvalidInput("path", str(root), "a folder of stat block JSON files or one .json file",
                               f"more than {MAX_FOLDER_FILES} files in it: not a bestiary folder")
        if path.suffix.lower() == ".json" and path.is_file():
            found.append(path)
    return sorted(found)


def load_bestiary(
    path: str | Path, ruleset: Ruleset | None = None, *, progress: Callable[[int, int], None] | None = None
) -> Bestiary:
    """Every stat block under `path` (a folder searched recursively, or one .json file).

    Files are named relative to `path` (with "/" separators). A file that does not parse is in
    `failures` with the reason; the rest load. A path that does not exist raises `InvalidInput`.
    `progress(done, total)` is called once the files are found (done 0) and after each file, so an app can
    draw a bar for a big folder; this module keeps no clock (when a bar is worth showing is the app's call).
    """
    accepts = "a folder of stat block JSON files or one .json file"
    if not isinstance(path, (str, PathLike)) or not str(path).strip():
        raise InvalidInput("path", path, accepts)
    root = Path(path)
    if not root.exists():
        raise InvalidInput("path", str(path), accepts, "no such file or folder")
    if not (root.is_dir() or root.is_file()):  # a FIFO or a device: never waited on
        raise InvalidInput("path", str(path), accepts, "not a regular file or folder")
    files = [root] if root.is_file() else list(_json_files(root))
    monsters: list[PublishedMonster] = []
    failures: list[LoadFailure] = []
    if progress is not None:
        progress(0, len(files))
    for done, file in enumerate(files, 1):
        source = file.name if file == root else file.relative_to(root).as_posix()
        try:
            monsters.append(read_stat_block_file(file, source, ruleset, inside=None if file == root else root))
        except StatBlockError as exc:
            failures.append(LoadFailure(file=source, reason=exc.reason))
        except (ValueError, TypeError, ArithmeticError, RecursionError, MemoryError) as exc:
            # whatever a hostile file provokes beyond the checks, it is reported by name, never raised
            failures.append(LoadFailure(file=source, reason=f"cannot be loaded ({type(exc).__name__})"))
        if progress is not None:
            progress(done, len(files))
    return Bestiary(source=str(path), monsters=tuple(monsters), failures=tuple(failures))


def sample_bestiary(ruleset: Ruleset | None = None) -> Bestiary:
    """The 49 stat blocks shipped in `data/bestiary-sample/` (Steel Compendium; attribution in its README)."""
    if ruleset is None or ruleset is core_ruleset():
        return _shipped_sample()
    return load_bestiary(SAMPLE_DIR, ruleset)


@functools.cache
def _shipped_sample() -> Bestiary:
    """The sample under the core rules, loaded once as the core ruleset is: its files ship with the package,
    nothing writes them, and every page, suggestion and calibration lists it."""
    return load_bestiary(SAMPLE_DIR)
