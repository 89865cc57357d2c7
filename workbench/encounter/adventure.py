"""An adventure: one party's encounters in order, with respites between them and Victories piling up.

A Director prepares a day, not one fight. Each encounter is met with the Victories the heroes earned in the
encounters before it since the last respite, and those Victories change the encounter: "For every 2
Victories the heroes have earned on average, increase the party's encounter strength as if there were another
hero in the party", and "At the start of combat, you gain Malice equal to the average number of Victories per
hero". So an encounter built as hard for fresh heroes may be standard by the time they reach it.

`plan(adventure)` walks the encounters in order. For each it takes the arrival Victories, computes the
encounter's report with the adventure's party at those Victories (its encounter strength, its budget band,
its difficulty and Victories after its objectives, by the objective rules), the Malice the monsters start
with, and the advice the rules give for a day:
- "A group of heroes can generally handle from 4 to 6 Victories' worth of combat encounters before needing to
  stop for a respite" (`respite_check` over the encounters since the last respite);
- the difficulty drifting from the one the encounter was built at ("keep a list of monsters with an EV cost
  worth roughly the encounter strength of two, four, and six Victories");
- a solo fought early in the day ("The solo and leader creatures presented in this book are designed to be
  fought in climactic battles at the end of an adventure or campaign").

Readings (the text leaves these open):
- The Victories an encounter adds are those its report gives at the arrival Victories (its band then, and its
  objectives' Victories): every hero earns them, so the average grows by that much.
- A respite resets the Victories to 0: at a respite the heroes turn their Victories into experience.
  The party's own Victories are what it holds before the first encounter (earned before this adventure).
- The Victories carried in count toward "4 to 6 Victories' worth" until the first respite.
- An encounter "built at" a difficulty is the one its own saved party's Victories give (the Victories it was
  built for), with the adventure's heroes.
- "Few Victories" for a solo: fewer than the lower end of the respite range (4), the Victories a day has
  earned by its climax.
- The Malice at the start is the average Victories rounded down (as the budget and the Malice planner read
  it); the first round adds the heroes (not retainers or allies) and 1, as the rules' example counts.

Adventures save to and load from JSON files (atomic write, never overwriting unless asked); every encounter
in a file gets the same checks as an encounter file of its own.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from fractions import Fraction
from numbers import Integral
from pathlib import Path
from typing import Any

from pydantic import Field, model_validator

from workbench.arguments import checked_methods
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import loaded_problems, saved_creature_problems
from workbench.encounter.guidelines import Check
from workbench.encounter.party import Party
from workbench.encounter.report import EncounterReport, report
from workbench.encounter.respite import respite_check
from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.io.problem import FileProblem
from workbench.io.saved import read_saved, saved_part
from workbench.io.writing import write_atomic
from workbench.numbers import format_number
from workbench.rules.encounter_tables import EncounterRules, encounter_rules
from workbench.rules.limits import MAX_COUNT

__all__ = [
    "Adventure",
    "adventure_of_data",
    "AdventurePlan",
    "EncounterPlan",
    "MAX_ENCOUNTERS",
    "MALICE_RULE",
    "SOLO_RULE",
    "adventure_of",
    "load_adventure",
    "plan",
    "save_adventure",
]

FILE_FORMAT = "drawsteel-workbench/adventure"
FILE_VERSION = 2  # version 2: each creature carries its whole monster (see encounter.files)
READS = (1, 2)
MAX_ENCOUNTERS = MAX_COUNT  # far beyond a campaign's day; a hostile file of a million encounters is refused

# The rules' words the warnings and the Malice quote (from "Malice" and "Villain Actions" in the rules).
MALICE_RULE = (
    "At the start of combat, you gain Malice equal to the average number of Victories per hero. Then at the "
    "start of each combat round, you gain Malice equal to the number of heroes in the battle, plus the combat "
    "round number."
)
SOLO_RULE = (
    "The solo and leader creatures presented in this book are designed to be fought in climactic battles at "
    "the end of an adventure or campaign."
)
MALICE_SECTION = "Malice"
SOLO_SECTION = "Villain Actions"


@checked_methods
class Adventure(Frozen):
    """One party's encounters in the order they are met, and where the respites fall.

    `party` is the heroes (retainers and allies too) with the Victories they hold before the first encounter.
    `respites` are positions: a respite at `i` comes before encounter `i` (0 before the first, which clears
    the Victories carried in; `len(encounters)` after the last). Reordering encounters keeps the respites
    where they are in the day.
    """

    name: str = Field(default="", max_length=200)
    party: Party
    encounters: tuple[Encounter, ...] = Field(default=(), max_length=MAX_ENCOUNTERS)
    respites: tuple[int, ...] = ()
    # (encounter, Victories each hero earned in its fight): a fought encounter counts what it earned
    earned: tuple[tuple[int, int], ...] = ()

    @model_validator(mode="after")
    def _respites_in_order(self) -> Adventure:
        n = len(self.encounters)
        if any(not 0 <= r <= n for r in self.respites) or list(self.respites) != sorted(set(self.respites)):
            raise ValueError(
                f"respites: positions from 0 to {n} (a respite before that encounter), each once, in order; "
                f"got {list(self.respites)}"
            )
        if any(not 0 <= i < n or not 0 <= v <= MAX_COUNT for i, v in self.earned) or (
                [i for i, _ in self.earned] != sorted({i for i, _ in self.earned})):
            raise ValueError(f"earned: (encounter number from 0 to {n - 1}, Victories from 0), each encounter once, "
                             f"in order; got {list(self.earned)}")
        return self

    # ------------------------------------------------------------ changes (each a new Adventure)

    def fought(self, index: int, victories: int) -> Adventure:
        """A copy where encounter `index` was fought and earned each hero `victories`: the encounters after
        it are met with those, not the ones its plan gave."""
        index = _index(index, len(self.encounters))
        if isinstance(victories, bool) or not isinstance(victories, Integral) or not 0 <= int(victories) <= MAX_COUNT:
            raise InvalidInput("victories", victories, "each hero's Victories from the fight, a whole number from 0")
        earned = dict(self.earned)
        earned[index] = int(victories)
        return self.model_copy(update={"earned": tuple(sorted(earned.items()))})

    def _renumbered(self, order: Sequence[int | None]) -> tuple[tuple[int, int], ...]:
        """The earned Victories following the encounters: `order[old]` is each one's new place (None: gone)."""
        moved = [(order[i], v) for i, v in self.earned if order[i] is not None]
        return tuple(sorted((i, v) for i, v in moved if i is not None))

    def adding(self, encounter: Encounter, at: int | None = None) -> Adventure:
        """A copy with `encounter` put at position `at` (at the end by default): a respite at `at` comes
        before it, later respites move with the encounters after them."""
        if not isinstance(encounter, Encounter):
            raise InvalidInput("encounter", encounter, "an Encounter")
        n = len(self.encounters)
        if n >= MAX_ENCOUNTERS:
            raise InvalidInput("encounter", encounter.name or "an encounter", f"at most {MAX_ENCOUNTERS} encounters")
        at = n if at is None else _position("at", at, n)
        encounters = self.encounters[:at] + (encounter,) + self.encounters[at:]
        respites = tuple(r if r <= at else r + 1 for r in self.respites)
        earned = self._renumbered([i if i < at else i + 1 for i in range(n)])
        return self.model_copy(update={"encounters": encounters, "respites": respites, "earned": earned})

    def without_encounter(self, index: int) -> Adventure:
        """A copy without encounter `index`; a respite on either side of it stays (two merge into one)."""
        index = _index(index, len(self.encounters))
        encounters = self.encounters[:index] + self.encounters[index + 1 :]
        respites = tuple(sorted({r if r <= index else r - 1 for r in self.respites}))
        earned = self._renumbered([None if i == index else i if i < index else i - 1
                                   for i in range(len(self.encounters))])
        return self.model_copy(update={"encounters": encounters, "respites": respites, "earned": earned})

    def moving(self, index: int, to: int) -> Adventure:
        """A copy with encounter `index` moved to position `to`; the respites stay at their positions."""
        n = len(self.encounters)
        index = _index(index, n)
        to = _index(to, n, "to")
        places = list(range(n))
        places.insert(to, places.pop(index))
        order = [self.encounters[i] for i in places]
        earned = self._renumbered([places.index(i) for i in range(n)])
        return self.model_copy(update={"encounters": tuple(order), "earned": earned})

    def with_respite(self, before: int) -> Adventure:
        """A copy with a respite before encounter `before` (`len(encounters)`: after the last)."""
        before = _position("before", before, len(self.encounters))
        return self.model_copy(update={"respites": tuple(sorted({*self.respites, before}))})

    def without_respite(self, before: int) -> Adventure:
        """A copy without the respite before encounter `before`; refused when there is none there."""
        before = _position("before", before, len(self.encounters))
        if before not in self.respites:
            raise InvalidInput("before", before, f"a respite's position: {list(self.respites) or 'there is none'}")
        return self.model_copy(update={"respites": tuple(r for r in self.respites if r != before)})

    def replacing(self, index: int, encounter: Encounter) -> Adventure:
        """A copy with encounter `index` changed (its objective chosen, a creature added)."""
        index = _index(index, len(self.encounters))
        if not isinstance(encounter, Encounter):
            raise InvalidInput("encounter", encounter, "an Encounter")
        encounters = self.encounters[:index] + (encounter,) + self.encounters[index + 1 :]
        earned = self._renumbered([None if i == index else i for i in range(len(self.encounters))])
        return self.model_copy(update={"encounters": encounters, "earned": earned})

    # ------------------------------------------------------------ reading

    def plan(self, rules: EncounterRules | None = None) -> AdventurePlan:
        """Each encounter as the heroes meet it (`plan(adventure)`)."""
        return plan(self, rules)

    def save(self, path: str | Path, overwrite: bool = False) -> Path:
        """Write the adventure as JSON (`save_adventure`)."""
        return save_adventure(self, path, overwrite)

    @classmethod
    def load(cls, path: str | Path, *, trust_numbers: bool = False) -> Adventure:
        """Read an adventure file (`load_adventure`)."""
        return load_adventure(path, trust_numbers=trust_numbers)

    def at_victories(self, index: int, victories: Fraction | int) -> Encounter:
        """Encounter `index` as the adventure's party meets it holding `victories` (average per hero)."""
        index = _index(index, len(self.encounters))
        party = self.party.model_copy(update={"victories": Fraction(victories)})
        return self.encounters[index].model_copy(update={"party": party})

    def arrival(self, index: int, rules: EncounterRules | None = None) -> tuple[Encounter, Fraction]:
        """(encounter `index` as the heroes meet it, the Victories they arrive with): what a fight needs to
        start it (its party holds those Victories, so the Malice and the budget follow)."""
        index = _index(index, len(self.encounters))
        victories = _walk(self, rules or encounter_rules(), stop=index)[index][0]
        return self.at_victories(index, victories), victories


def _index(value: Any, n: int, field: str = "index") -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or not 0 <= int(value) < n:
        accepts = f"an encounter number from 0 to {n - 1}" if n else "an encounter number (the adventure has none)"
        raise InvalidInput(field, value, accepts)
    return int(value)


def _position(field: str, value: Any, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or not 0 <= int(value) <= n:
        raise InvalidInput(field, value, f"a position from 0 to {n} (before that encounter; {n}: after the last)")
    return int(value)


def _walk(
    adventure: Adventure, rules: EncounterRules, stop: int | None = None
) -> list[tuple[Fraction, EncounterReport]]:
    """(arrival Victories, report at them) for each encounter up to `stop` (all by default), in order."""
    carried = Fraction(adventure.party.victories)
    out: list[tuple[Fraction, EncounterReport]] = []
    last = len(adventure.encounters) - 1 if stop is None else stop
    earned = dict(adventure.earned)
    for index in range(last + 1):
        if index in adventure.respites:
            carried = Fraction(0)
        found = report(adventure.at_victories(index, carried), rules)
        out.append((carried, found))
        carried += earned.get(index, found.victories)
    return out


# ---------------------------------------------------------------- the plan


class EncounterPlan(Frozen):
    """One encounter of the day as the heroes meet it."""

    index: int
    name: str
    respite_before: bool
    arrival_victories: Fraction
    encounter_strength: Fraction
    total_ev: Fraction
    band: str
    difficulty: str
    victories: int  # earned in its fight when `fought`, else what its difficulty and objectives give
    built_victories: Fraction
    built_difficulty: str
    starting_malice: int
    first_round_malice: int
    since_respite: Fraction  # the Victories since the last respite once this encounter is won
    report: EncounterReport
    warnings: tuple[Check, ...] = ()
    fought: bool = False

    @property
    def drifted(self) -> bool:
        return self.difficulty != self.built_difficulty


class AdventurePlan(Frozen):
    """Every encounter of the adventure in order, computed afresh from the adventure."""

    adventure: Adventure
    encounters: tuple[EncounterPlan, ...]

    @property
    def warnings(self) -> tuple[tuple[int, Check], ...]:
        return tuple((e.index, w) for e in self.encounters for w in e.warnings)


def _heroes(party: Party) -> int:
    """"the number of heroes in the battle": the heroes themselves, not retainers or allied NPCs."""
    return sum(1 for m in party.members if m.kind == "hero") or party.size


def _victories_text(value: Fraction | int) -> str:
    return f"{format_number(value)} {'Victory' if value == 1 else 'Victories'}"


def _drift(
    index: int, arrival: Fraction, found: EncounterReport, built_at: Fraction, built: EncounterReport,
    rules: EncounterRules,
) -> Check:
    """The encounter's difficulty at arrival against the one it was built at, with the EV that would keep it."""
    band = found.budget.band(built.band)
    keep = (
        f"{band.span} EV at {_victories_text(arrival)}"
        if not band.empty
        else "no EV total at these Victories"
    )
    text = rules.strength
    return Check(
        key="drift",
        title="Difficulty drifts with the Victories",
        section="Factor in Victories",
        rule=text.keep_list_rule,
        applies=True,
        ok=found.difficulty == built.difficulty,
        detail=(
            f"built {built.difficulty} at {_victories_text(built_at)}, met {found.difficulty} at "
            f"{_victories_text(arrival)} (EV {format_number(found.total_ev)}, encounter strength "
            f"{format_number(found.budget.encounter_strength)}); {built.band} is {keep}"
        ),
    )


def _solo_check(arrival: Fraction, found: EncounterReport, encounter: Encounter, low: int) -> Check | None:
    solos = [c for c in encounter.creatures if c.solo]
    if not solos:
        return None
    names = ", ".join(sorted({c.label for c in solos}))
    return Check(
        key="solo_early",
        title="A solo fought early in the day",
        section=SOLO_SECTION,
        rule=SOLO_RULE,
        applies=True,
        ok=arrival >= low,
        detail=(
            f"{names} met at {_victories_text(arrival)} (reading: fewer than {low}, the lower end of the "
            "Victories before a respite, is early)"
        ),
    )


def plan(adventure: Adventure, rules: EncounterRules | None = None) -> AdventurePlan:
    """Each encounter with its arrival Victories, encounter strength, band, difficulty and Victories after
    objectives, the Malice the monsters start with, and the advice broken for the day (only broken checks
    are kept as warnings)."""
    if not isinstance(adventure, Adventure):
        raise InvalidInput("adventure", adventure, "an Adventure")
    rules = rules or encounter_rules()
    low, _high = rules.guidelines.respite_victories
    heroes = _heroes(adventure.party)
    walked = _walk(adventure, rules)
    rows: list[EncounterPlan] = []
    stretch: list[EncounterReport] = []
    carried_in = Fraction(adventure.party.victories)
    earned = dict(adventure.earned)
    won: list[int] = []  # the Victories of the stretch's encounters: earned in the fight, else planned
    for index, (arrival, found) in enumerate(walked):
        encounter = adventure.encounters[index]
        respite = index in adventure.respites
        if respite:
            stretch, carried_in, won = [], Fraction(0), []
        stretch.append(found)
        won.append(earned.get(index, found.victories))
        built_at = Fraction(encounter.party.victories)
        built = found if built_at == arrival else report(adventure.at_victories(index, built_at), rules)
        warnings: list[Check] = []
        # whole Victories for the respite check: a fractional carried average counts its whole part
        rest = respite_check(stretch, math.floor(carried_in), rules)
        checks = [rest, _drift(index, arrival, found, built_at, built, rules)]
        solo = _solo_check(arrival, found, encounter, low)
        if solo is not None:
            checks.append(solo)
        warnings.extend(c for c in checks if c.broken)
        start = math.floor(arrival)
        rows.append(
            EncounterPlan(
                index=index,
                name=encounter.name,
                respite_before=respite,
                arrival_victories=arrival,
                encounter_strength=found.budget.encounter_strength,
                total_ev=found.total_ev,
                band=found.band,
                difficulty=found.difficulty,
                victories=won[-1],
                fought=index in earned,
                built_victories=built_at,
                built_difficulty=built.difficulty,
                starting_malice=start,
                first_round_malice=start + heroes + 1,
                since_respite=carried_in + sum(won),
                report=found,
                warnings=tuple(warnings),
            )
        )
    return AdventurePlan(adventure=adventure, encounters=tuple(rows))


# ---------------------------------------------------------------- files


def save_adventure(adventure: Adventure, path: str | Path, overwrite: bool = False) -> Path:
    """Write the adventure as JSON, atomically; an existing file is replaced only with `overwrite=True`."""
    if not isinstance(adventure, Adventure):
        raise InvalidInput("adventure", adventure, "an Adventure")
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise InvalidInput("file", path, "a file name ending in .json")
    path = Path(path)
    if path.suffix != ".json":
        raise InvalidInput("file", str(path), "a file name ending in .json")
    payload = {"format": FILE_FORMAT, "version": FILE_VERSION, "adventure": adventure.model_dump(mode="json")}
    text = json.dumps(payload, ensure_ascii=False, indent=1) + "\n"
    exists = InvalidInput("file", str(path), "a new file name, or overwrite=True", "the file exists")
    try:
        return write_atomic(path, text, overwrite=overwrite)
    except FileExistsError:
        raise exists from None
    except FileProblem as exc:
        if not overwrite and os.path.lexists(path):  # the refusal, however the lock reports it
            raise exists from None
        raise InvalidInput("file", str(path), "a file the workbench can write", exc.reason) from None


def _creature_problems(part: Any, trust_numbers: bool) -> list[str]:
    encounters = part.get("encounters") if isinstance(part, dict) else None
    return [f"encounters.{number}.{problem}"
            for number, encounter in enumerate(encounters if isinstance(encounters, list) else [])
            for problem in saved_creature_problems(encounter, trust_numbers)]


def _encounter_problems(adventure: Adventure) -> list[str]:
    return [f"encounters.{number}.{problem}"
            for number, encounter in enumerate(adventure.encounters)
            for problem in loaded_problems(encounter)]


def load_adventure(path: str | Path, *, trust_numbers: bool = False) -> Adventure:
    """Read an adventure file; a corrupt, foreign or hostile file is refused by name with every reason.

    Each encounter is checked as `load_encounter` checks an encounter file (a stored EV the formulas do not
    give is refused unless the creature keeps its own or `trust_numbers=True`).
    """
    _, adventure = read_saved(path, "adventure", FILE_FORMAT, READS, Adventure,
                              prepare=lambda part: _creature_problems(part, trust_numbers), check=_encounter_problems)
    return adventure


def adventure_of_data(data: Any) -> tuple[Adventure | None, list[str]]:
    """An adventure file's parsed JSON (a share code's) as its Adventure, checked as `load_adventure` checks a
    file, and every problem found (none: the adventure is good)."""
    return saved_part(data, "adventure", FILE_FORMAT, READS, Adventure,
                      prepare=lambda part: _creature_problems(part, False), check=_encounter_problems)


def adventure_of(encounters: Sequence[Encounter], party: Party | None = None, name: str = "") -> Adventure:
    """An adventure of these encounters in order, for `party` (the first encounter's party by default)."""
    items = list(encounters)
    if not items or not all(isinstance(e, Encounter) for e in items):
        raise InvalidInput("encounters", encounters, "one or more Encounters")
    return Adventure(name=name, party=party or items[0].party, encounters=tuple(items))
