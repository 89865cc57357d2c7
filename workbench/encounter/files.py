"""Encounters saved to and loaded from JSON files: an atomic write that never overwrites unless asked, and a
load that refuses a corrupt, foreign or hand-edited file by name with the reason.

Version 2 embeds each creature's whole monster as the homebrew library saves one (read back and checked the
same way), so an encounter opens the same on another machine and no change to a library file changes it.
A version 1 file's creatures are the formulas' stat blocks for their level, organization and role.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from workbench.encounter.encounter import OWN_FIELDS, Encounter, formula_stat_blocks, own_fields
from workbench.encounter.groups import validate_groups
from workbench.encounter.objective import objective_rule, objective_with
from workbench.errors import InvalidInput, shown
from workbench.io.problem import FileProblem
from workbench.io.reading import is_inside
from workbench.io.saved import is_tagged, read_saved, saved_part
from workbench.io.writing import require_switch, write_atomic
from workbench.monster.library import read_record
from workbench.numbers import format_number
from workbench.rules.limits import MAX_VICTORIES
from workbench.rules.ruleset import DATA_DIR

__all__ = [
    "save_encounter",
    "load_encounter",
    "encounter_of_data",
    "loaded_problems",
    "saved_creature_problems",
]


FILE_FORMAT = "drawsteel-workbench/encounter"
FILE_VERSION = 2
READS = (1, 2)  # version 1: creatures without their monster


def _not_an_encounter(raw: bytes) -> str | None:
    """Why a file a save would replace is no encounter file (then it is kept), or None."""
    if is_tagged(raw, FILE_FORMAT):
        return None
    return "it is not an encounter file (a monster, a stat block or another file is never replaced by one)"


def save_encounter(
    encounter: Encounter, path: str | Path, overwrite: bool = False, *, inside: str | Path | None = None
) -> Path:
    """Write the encounter as JSON, atomically (temp file moved into place in the same folder).

    An existing file is never replaced unless `overwrite=True` (a real bool: "no" or 1 is refused), and
    then only if it is an encounter file: never a monster, a stat block, or any file in the workbench's
    shipped data. `inside`: the folder the file must be in (an app's box names a file in the Director's
    workspace; a relative path is taken inside it). The refusal of a taken name is atomic (`os.link`): of
    several processes saving one new file, exactly one succeeds. A failed write (a full disk, a read-only
    folder) is refused naming the file and leaves the old file whole.
    """
    if not isinstance(encounter, Encounter):
        raise InvalidInput("encounter", encounter, "an Encounter")
    require_switch("overwrite", overwrite)
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip() or "\0" in str(path):
        raise InvalidInput("file", path, "a file name ending in .json")
    path = Path(path)
    if path.suffix != ".json":
        raise InvalidInput("file", str(path), "a file name ending in .json")
    if inside is not None:
        folder = Path(inside).expanduser()
        path = path.expanduser() if path.expanduser().is_absolute() else folder / path
        if not is_inside(path.parent, folder):
            raise InvalidInput("file", str(path), f"a file inside {folder}", "it is outside the workspace")
    if is_inside(path.parent, DATA_DIR):
        raise InvalidInput("file", str(path), "a file outside the workbench's shipped data",
                           f"{DATA_DIR} holds the rules and stat blocks the workbench ships")
    payload = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "encounter": encounter.model_dump(mode="json"),
    }
    text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    try:
        return write_atomic(path, text, overwrite=overwrite, same_kind=_not_an_encounter)
    except FileExistsError:
        raise InvalidInput("file", str(path), "a new file name, or overwrite=True", "the file exists") from None
    except FileProblem as exc:
        raise InvalidInput("file", str(path), "a file the workbench can write", exc.reason) from None


def load_encounter(path: str | Path, *, trust_numbers: bool = False) -> Encounter:
    """Read an encounter file; a corrupt, foreign or hostile file is refused by name with the reason.

    Numbers the formulas decide are not taken on trust: a formula monster's saved numbers must be the ones
    its level, organization and role give, and a creature's fields its monster's, else the file is refused
    naming the creature and both numbers. A monster saved with numbers of its own (a published or edited
    stat block: `keep_numbers`, as in a library file) keeps them, as does a version 1 creature marked
    `own_ev`; `trust_numbers=True` keeps every file number (a file written by hand or by another tool).
    """
    _, encounter = read_saved(path, "encounter", FILE_FORMAT, READS, Encounter,
                              prepare=lambda part: saved_creature_problems(part, trust_numbers),
                              check=loaded_problems)
    return encounter


def encounter_of_data(data: Any) -> tuple[Encounter | None, list[str]]:
    """An encounter file's parsed JSON (a share code's) as its Encounter, checked as `load_encounter` checks a
    file, and every problem found (none: the encounter is good)."""
    return saved_part(data, "encounter", FILE_FORMAT, READS, Encounter, prepare=saved_creature_problems,
                      check=loaded_problems)


def _kind(level: object, organization: object, role: object, solo: bool = False) -> str:
    return " ".join(str(p) for p in (f"level {level}", organization, role or "") if p) + (" instant solo" if solo else "")


def _old_creature_problems(where: str, c: dict[str, Any], trust_numbers: bool) -> list[str]:
    """A version 1 creature's EV against the formulas' for its fields (their own checks come later)."""
    level, organization, role, ev = c.get("level"), c.get("organization"), c.get("role"), c.get("ev")
    if (type(level) is not int or type(ev) is not int or not isinstance(organization, str)
            or not (role is None or isinstance(role, str))):
        return []
    try:
        # a leader or elite saved as an instant solo before the flag existed has the solo's EV
        built, solo = formula_stat_blocks(level, organization, role)
    except InvalidInput:
        return []  # the creature's own check names the organization or role
    instant = c.get("instant_solo") is True
    if instant and solo is not None:
        built = solo
    allowed = {built.ev} | ({solo.ev} if solo is not None and not instant else set())
    if ev in allowed or trust_numbers or c.get("own_ev") is True:
        return []
    return [f"{where}.ev: the file says {ev}, the formulas give {built.ev} for a "
            f"{_kind(level, organization, role, instant)} (a stat block with numbers of its own: "
            "load_encounter(..., trust_numbers=True))"]


def _creature_problems(where: str, c: dict[str, Any], trust_numbers: bool) -> list[str]:
    """A creature with its monster: the monster checked as a library file, the fields against it. Settles
    `c` in place: numbers kept when trusted, the fields left for the monster to fill."""
    saved = c["monster"]
    try:
        monster, changed = read_record(saved)
    except InvalidInput as exc:
        return [f"{where}.monster: {exc.reason}"]
    kind = _kind(monster.level, monster.organization, monster.role)
    if changed and trust_numbers:
        saved["keep_numbers"] = True
        monster, _ = read_record(saved)
    elif changed:
        return [f"{where}.monster.numbers.{key}: the file says {saved['numbers'][key]}, the formulas give "
                f"{getattr(monster, key)} for a {kind} (a stat block with numbers of its own: "
                "load_encounter(..., trust_numbers=True))" for key in changed]
    problems = []
    own = own_fields(monster)
    for key in OWN_FIELDS:
        if key not in c:
            continue
        value = c.pop(key)
        if type(value) is type(own[key]) and value == own[key]:
            continue
        if key == "ev" and trust_numbers and type(value) is int:
            saved["keep_numbers"] = True
            saved["numbers"]["ev"] = value
        elif key == "ev":
            whose = "its stat block gives" if saved.get("keep_numbers") else "the formulas give"
            problems.append(f"{where}.ev: the file says {shown(value)}, {whose} {own[key]} for a {kind} (a stat "
                            "block with numbers of its own: load_encounter(..., trust_numbers=True))")
        elif key != "own_ev":
            problems.append(f"{where}.{key}: the file says {shown(value)}, its monster's is {shown(own[key])}")
    return problems


def saved_creature_problems(part: Any, trust_numbers: bool = False) -> list[str]:
    """What a saved encounter's creatures get wrong, every problem at once, read before the model reads
    them: a monster that is not one the library would load, a formula monster's numbers edited by hand, a
    creature's field that is not its monster's (unless `trust_numbers`: an EV is then kept), a version 1
    creature's EV the formulas do not give (unless marked `own_ev` or `trust_numbers`)."""
    creatures = part.get("creatures") if isinstance(part, dict) else None
    if not isinstance(creatures, list):
        return []
    problems: list[str] = []
    for number, c in enumerate(creatures):
        if not isinstance(c, dict):
            continue
        where = f"creatures.{number}"
        if "monster" in c:
            problems += _creature_problems(where, c, trust_numbers)
        else:
            problems += _old_creature_problems(where, c, trust_numbers)
    return problems


def loaded_problems(encounter: Encounter) -> list[str]:
    """What the JSON shape cannot catch, every problem at once: Victories out of range, an unknown objective
    or condition, a group naming a creature that is not there (the creatures: `saved_creature_problems`)."""
    problems: list[str] = []
    if not 0 <= encounter.party.victories <= MAX_VICTORIES:
        problems.append(
            f"party.victories: got {format_number(encounter.party.victories)}; accepts 0 to {MAX_VICTORIES}"
        )
    for number, chosen in enumerate(encounter.objectives):
        try:
            kinds = {cond.key: cond.kind for cond in objective_rule(chosen.key).conditions}
            values = {
                key: bool(value) if kinds.get(key) == "flag" and value in (0, 1) else value
                for key, value in chosen.conditions.items()
            }
            if objective_with(chosen.key, values, bonus=chosen.bonus) != chosen:
                raise InvalidInput("objective", chosen.key, "an objective key as the workbench saves it")
        except InvalidInput as exc:
            problems.append(f"objectives.{number}: {exc}")
    try:
        validate_groups(encounter, encounter.groups)
    except InvalidInput as exc:
        problems.append(str(exc))
    return problems
