"""Encounters saved to and loaded from JSON files: an atomic write that never overwrites unless asked, and a
load that refuses a corrupt, foreign or hand-edited file by name with the reason.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from workbench.encounter.encounter import Encounter, formula_stat_blocks
from workbench.encounter.groups import validate_groups
from workbench.encounter.objective import objective_rule, objective_with
from workbench.errors import InvalidInput
from workbench.io.problem import FileProblem
from workbench.io.reading import is_inside
from workbench.io.saved import read_saved
from workbench.io.writing import require_switch, write_atomic
from workbench.numbers import format_number
from workbench.rules.limits import MAX_VICTORIES
from workbench.rules.ruleset import DATA_DIR

__all__ = [
    "save_encounter",
    "load_encounter",
    "loaded_problems",
]


FILE_FORMAT = "drawsteel-workbench/encounter"
FILE_VERSION = 1


def _refuse_file(path: Path, reason: str) -> InvalidInput:
    return InvalidInput("file", str(path), "an encounter JSON file saved by the workbench", reason)


def _not_an_encounter(raw: bytes) -> str | None:
    """Why a file a save would replace is no encounter file (then it is kept), or None."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and data.get("format") == FILE_FORMAT:
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

    Numbers the formulas decide are not taken on trust: a creature's stored EV must be the one its stat
    block gives (or an instant solo's), else the file is refused naming the creature and both numbers. A
    creature saved from a stat block with an EV of its own (`own_ev`, set by `creature_from_monster`) keeps
    it; `trust_numbers=True` keeps every file EV (a file written by hand or by another tool).
    """
    path, encounter = read_saved(path, "encounter", FILE_FORMAT, FILE_VERSION, Encounter)
    problems = loaded_problems(encounter, trust_numbers)
    if problems:
        raise _refuse_file(path, "; ".join(problems))
    return encounter


def loaded_problems(encounter: Encounter, trust_numbers: bool = False) -> list[str]:
    """What the JSON shape cannot catch, every problem at once: Victories out of range, a stat block the
    formulas cannot build (an unknown organization or role), a stored EV the formulas do not give (unless
    `trust_numbers`), an unknown objective or condition, a group naming a creature that is not there."""
    problems: list[str] = []
    if not 0 <= encounter.party.victories <= MAX_VICTORIES:
        problems.append(
            f"party.victories: got {format_number(encounter.party.victories)}; accepts 0 to {MAX_VICTORIES}"
        )
    for number, c in enumerate(encounter.creatures):
        try:
            # a leader or elite saved as an instant solo before the flag existed has the solo's EV
            built, solo = formula_stat_blocks(c.level, c.organization, c.role, c.rules)
        except InvalidInput as exc:
            problems.append(f"creatures.{number}: {exc}")
            continue
        if c.instant_solo and solo is not None:
            built = solo
        allowed = {built.ev} | ({solo.ev} if solo is not None and not c.instant_solo else set())
        if c.ev not in allowed and not (trust_numbers or c.own_ev):
            kind = " ".join(p for p in (f"level {c.level}", c.organization, c.role or "") if p)
            problems.append(
                f"creatures.{number}.ev: the file says {c.ev}, the formulas give {built.ev} for a {kind}"
                f"{' instant solo' if c.instant_solo else ''} (a stat block with numbers of its own: "
                "load_encounter(..., trust_numbers=True))"
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
