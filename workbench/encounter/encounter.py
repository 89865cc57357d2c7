"""An encounter: creatures and dynamic terrain objects bought with a party's budget, and initiative groups.

"Step 5: Spend Encounter Budget" as data and pure functions. Creatures come from Monsters (built, from the
library, read from a published stat block) or from typed specs ("2 × level 3 platoon brute", "8 x level 2
minion harrier"), and each entry carries the whole Monster it was added as, so the fight, the pace and the
packet use that stat block and nothing rebuilt in its place; minions cost their stat block's EV (the EV of
four) × count ÷ 4. The guidelines (`guidelines`), the initiative groups (`groups`), the report (`report`)
and the files (`files`) are the neighbouring modules.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import lru_cache
from numbers import Integral
from typing import Any, Literal

from pydantic import Field, field_serializer, model_validator

from workbench.arguments import checked_methods, checks_itself
from workbench.encounter.objective import ChosenObjective, objective_numbers
from workbench.encounter.party import Party
from workbench.errors import InvalidInput, shown
from workbench.frozen import Frozen
from workbench.model import Monster, require_monster
from workbench.monster.formulas import build_monster
from workbench.monster.library import read_record, record_of
from workbench.monster.solo import instant_solo, is_instant_solo, solo_source_organizations
from workbench.rules.encounter_tables import EncounterRules
from workbench.rules.limits import MAX_COUNT, MAX_LEVEL, MAX_NUMBER, whole
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = [
    "Creature",
    "TerrainObject",
    "InitiativeGroup",
    "Encounter",
    "StatBlockKey",
    "creature_from_monster",
    "creature_stamina",
    "carries_formulas",
    "encounter_objective_numbers",
    "formula_stat_blocks",
    "own_fields",
    "OWN_FIELDS",
    "parse_spec",
    "SPEC_ACCEPTS",
]


SPEC_ACCEPTS = (
    '"COUNT × level LEVEL ORGANIZATION [ROLE] [instant solo] [: NAME]", e.g. "2 × level 3 platoon brute", '
    '"8 x level 2 minion harrier: goblin runners" or "level 4 leader instant solo"'
)
_SPEC = re.compile(
    r"^\s*(?:(?P<count>[0-9]+)\s*(?:×|x|\*)\s*)?(?:level|lvl|l)\s*(?P<level>[0-9]+)\s+"
    r"(?P<organization>[A-Za-z]+)(?:\s+(?P<role>[A-Za-z]+))?(?P<instant>\s+instant[\s-]+solo)?"
    r"\s*(?::\s*(?P<name>.*\S))?\s*$",
    re.IGNORECASE,
)


# A creature's fields that are its monster's own (`own_fields`).
OWN_FIELDS = ("name", "level", "organization", "role", "ev", "stamina", "instant_solo", "own_ev")

# What makes two entries the same kind of stat block: name, level, organization, role, instant solo.
StatBlockKey = tuple[str, int, str, str | None, bool]


# A saved encounter is read and written whole at every change (a workspace holds one): each monster's record
# is read once per text and written once per Monster (held here, so its id stays its own while kept).
_CACHE_SIZE = 512
_MONSTERS: dict[str, Monster] = {}
_RECORDS: dict[int, tuple[Monster, str]] = {}


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[key] = value


def _monster_of_record(data: dict[str, Any]) -> Monster:
    """A saved monster record as its Monster, checked as a library file is (once per record's text)."""
    try:
        key = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError):
        return read_record(data)[0]
    monster = _MONSTERS.get(key)
    if monster is None:
        monster, _ = read_record(data)
        _remember(_MONSTERS, key, monster)
    return monster


class Creature(Frozen):
    """Some creatures of one stat block: the whole `monster` they were added as, and how many.

    `monster` is the stat block itself: a formula monster, a library monster with the Director's edits, a
    published block with its departures. The fields beside it (name, level, organization, role, EV, Stamina,
    instant solo) are the monster's own, filled from it and refused when they say otherwise; `ev` is one
    creature's EV, or a minion stat block's EV of four. A file saved before creatures carried their monster
    (no "monster") resolves as it always did: the formulas' stat block for its level, organization and role
    (an instant solo's when marked) with the saved name, EV and Stamina.

    `instant_solo` marks a leader or elite made a solo by "Instant Solo Creature": it keeps its organization
    (its other numbers are that leader's or elite's) but is a solo wherever the rules speak of solos. Files
    saved before the field existed cannot tell and load with it False.

    `attack` names the ability the Director marked for the pace of the fight ("" for the signature ability).
    `own_ev` marks a stat block whose EV is its own, not the formulas' (an imported or homebrew block that
    departs from them): an old file's unmarked creature's EV must be the formulas' (a hand-edited or
    corrupted number is refused).

    The ruleset that says how many minions one EV buys is the monster's own (`rules`).
    """

    name: str = ""
    level: int = Field(ge=1, le=MAX_LEVEL)
    organization: str
    role: str | None = None
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    ev: int = Field(ge=0, le=MAX_NUMBER)
    star: bool = False
    instant_solo: bool = False
    # one creature's Stamina: its monster's (an old entry saved without it: the formulas')
    stamina: int | None = Field(default=None, ge=1)
    own_ev: bool = False
    # the ability this stat block uses each turn in the fight's pace, as the Director marked it ("": its
    # signature ability); saved so a reopened encounter paces the fight the same way
    attack: str = Field(default="", max_length=200)
    monster: Monster

    @model_validator(mode="before")
    @classmethod
    def _the_monsters_own(cls, data: Any) -> Any:
        """The fields from the monster (a saved one read as a library file is); an old entry's monster from
        its fields."""
        if not isinstance(data, dict):
            return data
        monster = data.get("monster")
        if monster is None:
            built = _formula_monster(data)
            return data if built is None else {**data, **own_fields(built, stated=data), "monster": built}
        if isinstance(monster, dict):
            monster = _monster_of_record(monster)
        if not isinstance(monster, Monster):
            raise InvalidInput("monster", monster, "a Monster, or a stat block as the homebrew library saves it")
        own = own_fields(monster)
        for key, value in own.items():
            if key in data and (type(data[key]) is not type(value) or data[key] != value):
                raise InvalidInput(key, data[key], f"its monster's own: {shown(value)}",
                                   "the fields of a creature are those of the monster it carries")
        return {**data, **own, "monster": monster}

    @field_serializer("monster")
    def _saved_monster(self, monster: Monster) -> dict[str, Any]:
        """The monster as the homebrew library saves it, so it is read back and checked the same way (what a
        monster leaves at its defaults is left out, and read back as those defaults)."""
        kept = _RECORDS.get(id(monster))
        if kept is None or kept[0] is not monster:
            record = record_of(monster)
            kept = (monster, json.dumps({"format": record.format, "version": record.version,
                                         **record.model_dump(mode="json", exclude_defaults=True)}))
            _remember(_RECORDS, id(monster), kept)
        return dict(json.loads(kept[1]))

    @model_validator(mode="after")
    def _instant_solo_source(self) -> Creature:
        sources = solo_source_organizations()
        if self.instant_solo and self.organization not in sources:
            raise ValueError(
                f"instant_solo: only a {' or an '.join(sources)} is made an instant solo, "
                f"not a {self.organization}"
            )
        return self

    @property
    def rules(self) -> Ruleset:
        """The ruleset this stat block's numbers come from: its monster's."""
        return self.monster.rules

    @property
    def minion(self) -> bool:
        return self.organization == "minion"

    @property
    def solo(self) -> bool:
        """A solo creature: built as one, or an instant solo."""
        return self.organization == "solo" or self.instant_solo

    @property
    def label(self) -> str:
        """The name, or the stat block's description when it has none."""
        return self.name or " ".join(
            part for part in (f"level {self.level}", self.organization, self.role or "") if part
        ) + (" (instant solo)" if self.instant_solo else "")

    @property
    def stat_block(self) -> StatBlockKey:
        """What makes two entries the same kind of stat block."""
        return (self.name.strip().lower(), self.level, self.organization, self.role, self.instant_solo)

    def cost(self, count: int | None = None) -> Fraction:
        """EV of `count` of these creatures (all of them by default); minions by fours (the stat block's EV
        is the EV of `minions_per_ev` minions of its ruleset, 4 in the core rules)."""
        n = self.count if count is None else count
        if self.minion:
            return Fraction(self.ev * n, self.rules.formulas.minions_per_ev)
        return Fraction(self.ev * n)


class TerrainObject(Frozen):
    """A dynamic terrain object bought with the budget, at the EV the Director gives it."""

    name: str = Field(min_length=1)
    ev: int = Field(ge=0)
    level: int | None = Field(default=None, ge=1)


class InitiativeGroup(Frozen):
    """Creatures acting on the same turn: (index into `Encounter.creatures`, how many of them)."""

    members: tuple[tuple[int, int], ...] = Field(min_length=1)


@checked_methods
class Encounter(Frozen):
    """A party, the foes bought for it, terrain objects, initiative groups and objectives."""

    name: str = ""
    party: Party
    creatures: tuple[Creature, ...] = ()
    terrain: tuple[TerrainObject, ...] = ()
    groups: tuple[InitiativeGroup, ...] = ()
    objectives: tuple[ChosenObjective, ...] = ()
    # how several objectives go together (files saved before this field: combined, as they were computed)
    objective_mode: Literal["combined", "alternative"] = "combined"
    # the difficulty the Director aims for ("Aim for"), kept with the encounter ("": not said, files saved
    # before this field)
    aim: Literal["", "trivial", "easy", "standard", "hard", "extreme"] = ""

    def adding(self, *items: Creature | Monster | TerrainObject | str, count: int = 1) -> Encounter:
        """A copy with creatures (Creature, Monster, or a typed spec) or terrain objects added.

        Adding creatures clears the initiative groups (they no longer cover every creature); terrain keeps them.
        """
        creatures = list(self.creatures)
        terrain = list(self.terrain)
        for item in items:
            if isinstance(item, TerrainObject):
                terrain.append(item)
            elif isinstance(item, Creature):
                creatures.append(item)
            elif isinstance(item, Monster):
                creatures.append(creature_from_monster(item, count))
            elif isinstance(item, str):
                creatures.append(parse_spec(item))
            else:
                raise InvalidInput("item", item, "a Creature, a Monster, a typed spec or a TerrainObject")
        groups = self.groups if len(creatures) == len(self.creatures) else ()  # new creatures: regroup
        return self.model_copy(update={"creatures": tuple(creatures), "terrain": tuple(terrain), "groups": groups})

    @checks_itself
    def without_creature(self, index: int) -> Encounter:
        if isinstance(index, bool) or not isinstance(index, Integral) or not 0 <= index < len(self.creatures):
            raise InvalidInput("index", index, f"a creature index from 0 to {len(self.creatures) - 1}")
        creatures = self.creatures[:index] + self.creatures[index + 1 :]
        return self.model_copy(update={"creatures": creatures, "groups": ()})

    @checks_itself
    def without_terrain(self, index: int) -> Encounter:
        if isinstance(index, bool) or not isinstance(index, Integral) or not 0 <= index < len(self.terrain):
            raise InvalidInput("index", index, f"a terrain index from 0 to {len(self.terrain) - 1}")
        return self.model_copy(update={"terrain": self.terrain[:index] + self.terrain[index + 1 :]})

    @property
    def creature_ev(self) -> Fraction:
        return sum((c.cost() for c in self.creatures), Fraction(0))

    @property
    def terrain_ev(self) -> Fraction:
        return Fraction(sum(t.ev for t in self.terrain))

    @property
    def total_ev(self) -> Fraction:
        return self.creature_ev + self.terrain_ev

    @property
    def creature_count(self) -> int:
        return sum(c.count for c in self.creatures)


def creature_from_monster(monster: Monster, count: int = 1, star: bool = False) -> Creature:
    """A Monster (built, from the library, read from a published stat block) as `count` creatures carrying
    that whole stat block."""
    monster = require_monster(monster)
    count = whole("count", count, 1, MAX_COUNT, f"a whole number of creatures from 1 to {MAX_COUNT}")
    return Creature.model_validate({"monster": monster, "count": int(count), "star": bool(star)})


def _formula_monster(data: dict[str, Any]) -> Monster | None:
    """An old entry's stat block: the formulas' for its level, organization and role (an instant solo's when
    marked), with its saved name, EV and Stamina; None when the fields are not such (their checks say why)."""
    level, organization, role = data.get("level"), data.get("organization"), data.get("role")
    if (type(level) is not int or not 1 <= level <= MAX_LEVEL or not isinstance(organization, str)
            or not (role is None or isinstance(role, str))):
        return None
    built, solo = formula_stat_blocks(level, organization, role)
    if data.get("instant_solo") is True and solo is not None:
        built = solo
    update: dict[str, Any] = {}
    if isinstance(data.get("name"), str):
        update["name"] = data["name"]
    for key, least in (("ev", 0), ("stamina", 1)):
        if type(data.get(key)) is int and data[key] >= least:
            update[key] = data[key]
    kept = built.model_copy(update=update)
    kept._rules = built.rules
    return kept


def own_fields(monster: Monster, stated: dict[str, Any] | None = None) -> dict[str, Any]:
    """A creature's fields (`OWN_FIELDS`) as its monster gives them; an old entry (`stated`) keeps its saved
    marks (instant solo, own EV)."""
    own: dict[str, Any] = {
        "name": monster.name, "level": monster.level, "organization": monster.organization, "role": monster.role,
        "ev": monster.ev, "stamina": monster.stamina,
    }
    if stated is not None:
        return own
    try:
        built, solo = formula_stat_blocks(monster.level, monster.organization, monster.role, monster.rules)
        formula_evs = {built.ev, *([solo.ev] if solo else [])}
    except InvalidInput:
        formula_evs = set()
    return {**own, "instant_solo": is_instant_solo(monster), "own_ev": monster.ev not in formula_evs}


def carries_formulas(creature: Creature) -> bool:
    """True when the entry's monster is only the formulas' stat block for its level, organization and role
    (an instant solo's when marked) with a name, EV and Stamina: an entry of a file saved before creatures
    carried their monster, or a typed spec. Nothing of its own is lost when another stands in for it."""
    fields = {k: getattr(creature, k) for k in ("name", "level", "organization", "role", "ev", "stamina")}
    return _formula_monster({**fields, "instant_solo": creature.instant_solo}) == creature.monster


def formula_stat_blocks(
    level: int, organization: str, role: str | None, ruleset: Ruleset | None = None
) -> tuple[Monster, Monster | None]:
    """The formulas' stat block for these inputs under `ruleset` (the core rules by default), and its instant
    solo where the rules make one."""
    if ruleset is None or ruleset is core_ruleset():
        return _core_stat_blocks(level, organization, role)
    return _stat_blocks(level, organization, role, ruleset)


@lru_cache(maxsize=256)
def _core_stat_blocks(level: int, organization: str, role: str | None) -> tuple[Monster, Monster | None]:
    """The core rules' stat blocks, kept: a Monster never changes, and lists of creatures ask again and again."""
    return _stat_blocks(level, organization, role, core_ruleset())


def _stat_blocks(level: int, organization: str, role: str | None, ruleset: Ruleset) -> tuple[Monster, Monster | None]:
    built = build_monster(level, organization, role, ruleset=ruleset)
    return built, instant_solo(built) if organization in solo_source_organizations() else None


def creature_stamina(creature: Creature) -> int:
    """One creature's Stamina: its stat block's."""
    return creature.monster.stamina


def encounter_objective_numbers(
    encounter: Encounter, key: str, rules: EncounterRules | None = None
) -> tuple[str, ...]:
    """`objective_numbers` for this encounter's party and foes: the solos' fleeing Stamina, the foe counts
    from the creatures at the start (minions one by one), and the one-third shares of the creatures' EV (the
    opposing side's) and of the total EV (terrain objects included: "the encounter's total EV")."""
    solos = [(c.label, creature_stamina(c)) for c in encounter.creatures if c.solo]
    return objective_numbers(
        key, encounter.party, rules, solos=solos, foes=encounter.creature_count,
        opposing_ev=encounter.creature_ev, total_ev=encounter.total_ev,
    )


def parse_spec(text: str, ruleset: Ruleset | None = None) -> Creature:
    """A typed spec such as "2 × level 3 platoon brute" as creatures, with the EV the formulas give.

    Refuses anything else with `InvalidInput` on the field "spec", saying what it accepts and why.
    """
    rules = ruleset or core_ruleset()
    if not isinstance(text, str):
        raise InvalidInput("spec", text, SPEC_ACCEPTS)
    match = _SPEC.match(text)
    if not match:
        raise InvalidInput("spec", text, SPEC_ACCEPTS, "not in that form")
    # plain ASCII digits, a few of them: int() of 5,000 digits raises, and no table holds 10**30 goblins
    count = int(match["count"][:6]) if match["count"] else 1
    if not 1 <= count <= MAX_COUNT or (match["count"] and len(match["count"]) > 6):
        raise InvalidInput("spec", text, SPEC_ACCEPTS, f"the count must be at least 1 and at most {MAX_COUNT}")
    if len(match["level"]) > 6:
        raise InvalidInput("spec", text, SPEC_ACCEPTS, f"the level must be from 1 to {MAX_LEVEL}")
    level = int(match["level"])
    try:
        monster = build_monster(level, match["organization"], match["role"], ruleset=rules)
        if match["instant"]:
            monster = instant_solo(monster)
    except InvalidInput as exc:
        reason = f"{exc.field} {shown(exc.value)}: accepts {exc.accepts}"
        if exc.reason:
            reason = f"{exc.field} {shown(exc.value)}: {exc.reason}; accepts {exc.accepts}"
        raise InvalidInput("spec", text, SPEC_ACCEPTS, reason) from None
    return creature_from_monster(monster.model_copy(update={"name": match["name"] or ""}), count)
