"""An encounter: creatures and dynamic terrain objects bought with a party's budget, checked against the book.

"Step 5: Spend Encounter Budget" and "Step 6: Build Initiative Groups" as pure functions. Creatures come from
built Monsters or from typed specs ("2 × level 3 platoon brute", "8 x level 2 minion harrier"); minions cost
their stat block's EV (the EV of four) × count ÷ 4. `report(encounter)` gives the total EV, the band, the
difficulty and Victories after any objectives, and every guideline as a live `Check` carrying the rule's own
words. Encounters save to and load from JSON files (atomic write, never overwriting unless asked).

Readings (the text leaves these open): "the heroes' level" of a mixed party is its exact average level;
"creatures per hero" counts the heroes actually present (retainers and allies included); the star of the
show's "encounter budget" is the encounter's total EV; "a lot of Victories" (a group worth more than two
heroes) is 6 or more, the number the rules use to let creature levels go higher.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from numbers import Integral
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError, model_validator

from workbench.encounter.objective import (
    ChosenObjective,
    ObjectiveOutcome,
    added_heroes,
    apply_objectives,
    objective_numbers,
    objective_rule,
    objective_with,
)
from workbench.encounter.party import Budget, Party, budget, format_number
from workbench.errors import InvalidInput, shown
from workbench.frozen import Frozen
from workbench.io.problem import FileProblem
from workbench.io.reading import is_inside, read_json
from workbench.io.writing import require_switch, write_atomic
from workbench.model import Monster, require_monster
from workbench.monster.formulas import build_monster
from workbench.monster.solo import instant_solo, is_instant_solo, solo_source_organizations
from workbench.rules.encounter_tables import EncounterRules, encounter_rules
from workbench.rules.limits import MAX_COUNT, MAX_LEVEL, MAX_NUMBER, MAX_VICTORIES, whole
from workbench.rules.ruleset import DATA_DIR, Ruleset, core_ruleset

__all__ = [
    "Creature",
    "TerrainObject",
    "InitiativeGroup",
    "Encounter",
    "Check",
    "EncounterReport",
    "read_saved",
    "creature_from_monster",
    "creature_stamina",
    "encounter_objective_numbers",
    "parse_spec",
    "report",
    "check_guidelines",
    "check_groups",
    "suggest_groups",
    "group_ev",
    "parse_groups",
    "format_groups",
    "GROUPS_ACCEPTS",
    "save_encounter",
    "load_encounter",
    "SPEC_ACCEPTS",
]

Saved = TypeVar("Saved", bound=BaseModel)

FILE_FORMAT = "drawsteel-workbench/encounter"
FILE_VERSION = 1
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


# What makes two entries the same kind of stat block: name, level, organization, role, instant solo.
StatBlockKey = tuple[str, int, str, str | None, bool]


class Creature(Frozen):
    """Some creatures of one stat block. `ev` is one creature's EV, or a minion stat block's EV of four.

    `instant_solo` marks a leader or elite made a solo by "Instant Solo Creature": it keeps its organization
    (its other numbers are that leader's or elite's) but is a solo wherever the rules speak of solos. Files
    saved before the field existed cannot tell and load with it False.

    `attack` names the ability the Director marked for the pace of the fight ("" for the signature ability).
    `own_ev` marks a stat block whose EV is its own, not the formulas' (an imported or homebrew block that
    departs from them): loading then keeps the file's EV, where an unmarked creature's EV must be the
    formulas' (a hand-edited or corrupted number is refused).
    """

    name: str = ""
    level: int = Field(ge=1, le=MAX_LEVEL)
    organization: str
    role: str | None = None
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    ev: int = Field(ge=0, le=MAX_NUMBER)
    star: bool = False
    instant_solo: bool = False
    # one creature's Stamina as its stat block gives it (files saved before this field: the formulas')
    stamina: int | None = Field(default=None, ge=1)
    own_ev: bool = False
    # the ability this stat block uses each turn in the fight's pace, as the Director marked it ("": its
    # signature ability); saved so a reopened encounter paces the fight the same way
    attack: str = Field(default="", max_length=200)

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
        is the EV of `minions_per_ev` minions, 4 in the core ruleset)."""
        n = self.count if count is None else count
        if self.minion:
            return Fraction(self.ev * n, core_ruleset().formulas.minions_per_ev)
        return Fraction(self.ev * n)


class TerrainObject(Frozen):
    """A dynamic terrain object bought with the budget, at the EV the Director gives it."""

    name: str = Field(min_length=1)
    ev: int = Field(ge=0)
    level: int | None = Field(default=None, ge=1)


class InitiativeGroup(Frozen):
    """Creatures acting on the same turn: (index into `Encounter.creatures`, how many of them)."""

    members: tuple[tuple[int, int], ...] = Field(min_length=1)


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

    def without_creature(self, index: int) -> Encounter:
        if isinstance(index, bool) or not isinstance(index, Integral) or not 0 <= index < len(self.creatures):
            raise InvalidInput("index", index, f"a creature index from 0 to {len(self.creatures) - 1}")
        creatures = self.creatures[:index] + self.creatures[index + 1 :]
        return self.model_copy(update={"creatures": creatures, "groups": ()})

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


# ---------------------------------------------------------------- creatures


def creature_from_monster(monster: Monster, count: int = 1, star: bool = False) -> Creature:
    """A builder's (or the homebrew library's) Monster as `count` creatures of that stat block."""
    monster = require_monster(monster)
    count = whole("count", count, 1, MAX_COUNT, f"a whole number of creatures from 1 to {MAX_COUNT}")
    built, solo = _formula_stat_blocks(monster.level, monster.organization, monster.role)
    return Creature(
        name=monster.name,
        level=monster.level,
        organization=monster.organization,
        role=monster.role,
        count=int(count),
        ev=monster.ev,
        star=bool(star),
        instant_solo=is_instant_solo(monster),
        stamina=monster.stamina,
        own_ev=monster.ev not in {built.ev, *([solo.ev] if solo else [])},
    )


def _formula_stat_blocks(level: int, organization: str, role: str | None) -> tuple[Monster, Monster | None]:
    """The formulas' stat block for these inputs, and its instant solo where the rules make one."""
    built = build_monster(level, organization, role)
    return built, instant_solo(built) if organization in solo_source_organizations() else None


def creature_stamina(creature: Creature) -> int:
    """One creature's Stamina: the stat block's when it was saved with it, else the formulas' for its level,
    organization and role (× 2.5 for an instant solo, as "Instant Solo Creature" adapts it)."""
    if creature.stamina is not None:
        return creature.stamina
    monster = build_monster(creature.level, creature.organization, creature.role)
    return instant_solo(monster).stamina if creature.instant_solo else monster.stamina


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


# ---------------------------------------------------------------- checks


class Check(Frozen):
    """One guideline of the book: does it apply, is it kept, and the rule's own words to show if not."""

    key: str
    title: str
    section: str
    rule: str
    applies: bool
    ok: bool
    detail: str

    @property
    def broken(self) -> bool:
        return self.applies and not self.ok


def _check(key: str, title: str, applies: bool, ok: bool, detail: str, rules: EncounterRules) -> Check:
    text = rules.guidelines.text[key]
    return Check(
        key=key,
        title=title,
        section=text.section,
        rule=text.rule,
        applies=applies,
        ok=ok or not applies,
        detail=detail,
    )


def _names(creatures: Iterable[Creature]) -> str:
    return ", ".join(sorted({c.label for c in creatures}))


def check_guidelines(
    encounter: Encounter, difficulty: str, rules: EncounterRules | None = None
) -> tuple[Check, ...]:
    """Every Step 5 guideline and the party-size advice, each applied to this encounter."""
    rules = rules or encounter_rules()
    g = rules.guidelines
    party = encounter.party
    n = party.size
    avg = party.average_level
    creatures = encounter.creatures
    checks: list[Check] = []

    above = g.level_above_party_victories if party.victories >= g.victories_for_higher_level else g.level_above_party
    limit = avg + above
    others = [c for c in creatures if not c.solo]
    too_high = [c for c in others if c.level > limit]
    checks.append(
        _check(
            "creature_level",
            f"Creature level at most the heroes' level + {above}",
            bool(others),
            not too_high,
            f"limit: level {format_number(limit)} (heroes' {'' if party.heroes_uniform else 'average '}level "
            f"{format_number(avg)} + {above}"
            + (f", {format_number(party.victories)} Victories" if above != g.level_above_party else "")
            + ")"
            + (f"; above it: {_names(too_high)}" if too_high else ""),
            rules,
        )
    )
    solos = [c for c in creatures if c.solo]
    solo_limit = avg + g.solo_level_above_party
    solo_high = [c for c in solos if c.level > solo_limit]
    checks.append(
        _check(
            "solo_level",
            f"Solo level at most the heroes' average level + {g.solo_level_above_party}",
            bool(solos),
            not solo_high,
            f"limit: level {format_number(solo_limit)} (heroes' average level {format_number(avg)} "
            f"+ {g.solo_level_above_party})"
            + (f"; above it: {_names(solo_high)}" if solo_high else ""),
            rules,
        )
    )
    count = encounter.creature_count
    checks.append(
        _check(
            "creatures_per_hero",
            f"At most {g.creatures_per_hero} creatures per hero",
            bool(creatures),
            count <= g.creatures_per_hero * n,
            f"{count} creatures for {n} heroes (at most {g.creatures_per_hero * n})",
            rules,
        )
    )
    minions = sum(c.count for c in creatures if c.minion)
    checks.append(
        _check(
            "minion_half",
            f"More than {g.minion_half_above_per_hero} creatures per hero: at least half minions",
            count > g.minion_half_above_per_hero * n,
            2 * minions >= count,
            f"{count} creatures for {n} heroes, {minions} of them minions",
            rules,
        )
    )
    kinds = {c.stat_block for c in creatures}
    checks.append(
        _check(
            "stat_blocks",
            f"At most {g.stat_blocks} kinds of stat block",
            bool(creatures),
            len(kinds) <= g.stat_blocks,
            f"{len(kinds)} kinds of stat block",
            rules,
        )
    )
    per_block: dict[StatBlockKey, int] = {}
    labels: dict[StatBlockKey, str] = {}
    for c in creatures:
        if c.minion:
            per_block[c.stat_block] = per_block.get(c.stat_block, 0) + c.count
            labels[c.stat_block] = c.label
    odd = [f"{labels[k]} ({v})" for k, v in per_block.items() if v % g.minions_per_set]
    checks.append(
        _check(
            "minions_by_four",
            f"Minions bought {g.minions_per_set} at a time",
            bool(per_block),
            not odd,
            "not a multiple of " + str(g.minions_per_set) + ": " + ", ".join(sorted(odd))
            if odd
            else f"{minions} minions",
            rules,
        )
    )
    sets = Fraction(minions, g.minions_per_set)
    checks.append(
        _check(
            "minion_sets",
            f"At least {g.minion_sets} sets of minions",
            bool(per_block),
            sets >= g.minion_sets,
            f"{format_number(sets)} set(s) of {g.minions_per_set}",
            rules,
        )
    )
    stars = [c for c in creatures if c.star]
    total = encounter.total_ev
    if stars:
        # "a leader or solo creature with an EV that is at least one-third": one creature's EV, however many
        # of it the entry holds; the best candidate among those marked is the one judged
        star = max(stars, key=lambda c: (c.organization == "leader" or c.solo, c.cost(1)))
        star_ok = (
            difficulty == "hard"
            and (star.organization == "leader" or star.solo)
            and star.cost(1) >= g.star_share * total
        )
        star_detail = (
            f"{star.label}: {star.organization}, EV {format_number(star.cost(1))} of "
            f"{format_number(total)} (at least {format_number(g.star_share * total)}; reading: the "
            f"\"encounter budget\" is the encounter's total EV); the encounter is {difficulty}"
        )
    else:
        star_ok, star_detail = True, "no creature is marked as the star of the show"
    checks.append(
        _check("star_of_the_show", "Star of the show", bool(stars), star_ok, star_detail, rules)
    )
    checks.append(
        _check(
            "small_party",
            f"Party of {g.small_party} or fewer heroes",
            True,
            n > g.small_party,
            f"{n} heroes",
            rules,
        )
    )
    checks.append(_large_party_check(encounter, difficulty, rules))
    checks.append(_terrain_level_check(encounter, rules))
    checks.extend(_role_checks(encounter, rules))
    checks.append(_villain_action_check(encounter, rules))
    return tuple(checks)


def _villain_action_check(encounter: Encounter, rules: EncounterRules) -> Check:
    """Two or more creatures with villain actions (leaders and solos, instant solos too) share one villain
    action a round between them: "no more than one villain action can be used per round. (This holds even if
    you have two or more creatures with villain actions in an encounter…)". A warning, shown as broken."""
    villains = [c for c in encounter.creatures if c.solo or c.organization == "leader"]
    count = sum(c.count for c in villains)
    return _check(
        "villain_actions",
        "One villain action a round across every creature",
        count > 1,
        False,
        f"{count} creatures with villain actions ({_counted(villains)}) share one villain action a round; "
        "each of theirs once per encounter",
        rules,
    )


def _counted(creatures: Iterable[Creature]) -> str:
    return ", ".join(f"{c.count} × {c.label}" for c in creatures)


def _role_checks(encounter: Encounter, rules: EncounterRules) -> list[Check]:
    """"Using Creature Roles and Organization" as live checks: at most two controllers; at most one leader or
    support creature (together: "more than one leader or support creature"); a mix of roles; minions within
    two levels of the heroes' average level. Every creature counts, minions one by one; an instant solo is a
    solo, not a leader (reading)."""
    g = rules.guidelines
    creatures = encounter.creatures
    controllers = [c for c in creatures if c.role == "controller"]
    n_controllers = sum(c.count for c in controllers)
    leaders = [c for c in creatures if c.organization == "leader" and not c.solo]
    support = [c for c in creatures if c.role == "support"]
    n_lead = sum(c.count for c in leaders + support)
    # a creature without a role (leader, solo) is its own kind for the mix
    kinds = {c.role or ("solo" if c.solo else c.organization) for c in creatures}
    avg = encounter.party.average_level
    minions = [c for c in creatures if c.minion]
    far = [c for c in minions if abs(c.level - avg) > g.minion_level_within]
    return [
        _check(
            "controllers",
            f"At most {g.max_controllers} controllers",
            bool(controllers),
            n_controllers <= g.max_controllers,
            f"{n_controllers} controller(s): {_counted(controllers)}",
            rules,
        ),
        _check(
            "leaders_and_support",
            f"At most {g.max_leaders_or_support} leader or support creature",
            bool(leaders or support),
            n_lead <= g.max_leaders_or_support,
            f"{n_lead} leader or support creature(s): {_counted(leaders + support)}",
            rules,
        ),
        _check(
            "role_mix",
            "A variety of creature roles",
            encounter.creature_count > 1,
            len(kinds) > 1,
            f"roles: {', '.join(sorted(kinds))}",
            rules,
        ),
        _check(
            "minion_level",
            f"Minions within {g.minion_level_within} levels of the heroes' average level",
            bool(minions),
            not far,
            f"heroes' average level {format_number(avg)}: minions of level {format_number(avg - g.minion_level_within)}"
            f" to {format_number(avg + g.minion_level_within)}"
            + (f"; outside it: {_names(far)}" if far else ""),
            rules,
        ),
    ]


def _large_party_check(encounter: Encounter, difficulty: str, rules: EncounterRules) -> Check:
    """"For a party of seven or more heroes, you'll find that solo creatures don't quite live up to their
    name. So give the solo creatures some lackeys or a few more dynamic terrain objects": advice about solos,
    so it applies only when a solo is there. Kept when the solo has lackeys (any creature that is not a solo)
    or more terrain objects than Step 3 advises for the difficulty (reading of "a few more")."""
    g = rules.guidelines
    n = encounter.party.size
    solos = [c for c in encounter.creatures if c.solo]
    lackeys = sum(c.count for c in encounter.creatures if not c.solo)
    usual = rules.quick.difficulty[difficulty].terrain_objects[1]
    objects = len(encounter.terrain)
    return _check(
        "large_party",
        f"Party of {g.large_party} or more heroes against a solo",
        n >= g.large_party and bool(solos),
        lackeys > 0 or objects > usual,
        f"{n} heroes; solo(s): {_names(solos) or 'none'}; {lackeys} lackey(s); {objects} dynamic terrain "
        f"object(s) (Step 3 advises up to {usual} for {difficulty})",
        rules,
    )


def _terrain_level_check(encounter: Encounter, rules: EncounterRules) -> Check:
    """Step 3 of Quick Encounter Building: "Use only objects of the heroes' level or lower" (the average
    level for a mixed party). Objects without a level are not checked."""
    avg = encounter.party.average_level
    levelled = [t for t in encounter.terrain if t.level is not None]
    high = [t for t in levelled if t.level is not None and t.level > avg]
    return _check(
        "terrain_level",
        "Dynamic terrain objects of the heroes' level or lower",
        bool(levelled),
        not high,
        f"heroes' {'' if encounter.party.heroes_uniform else 'average '}level {format_number(avg)}"
        + (f"; above it: {', '.join(sorted(f'{t.name} (level {t.level})' for t in high))}" if high else ""),
        rules,
    )


def group_ev(encounter: Encounter, group: InitiativeGroup) -> Fraction:
    return sum(
        (encounter.creatures[i].cost(count) for i, count in group.members), Fraction(0)
    )


def _validate_groups(encounter: Encounter, groups: Sequence[InitiativeGroup]) -> dict[int, int]:
    placed: dict[int, int] = {}
    for group in groups:
        for index, count in group.members:
            if not 0 <= index < len(encounter.creatures):
                raise InvalidInput(
                    "groups", index, f"creature indexes from 0 to {len(encounter.creatures) - 1}"
                )
            if count < 1:
                raise InvalidInput("groups", count, "a count of creatures from 1 upwards")
            placed[index] = placed.get(index, 0) + count
    for index, count in placed.items():
        if count > encounter.creatures[index].count:
            c = encounter.creatures[index]
            raise InvalidInput(
                "groups", count, f"at most {c.count} of {c.label} across all groups"
            )
    return placed


GROUPS_ACCEPTS = (
    'groups separated by ";", each a list of ENTRY or ENTRY×COUNT (entries numbered from 1 as listed), '
    'e.g. "1×2, 2×4; 1×2; 3"'
)


def parse_groups(text: str, encounter: Encounter) -> tuple[InitiativeGroup, ...]:
    """Initiative groups typed by the Director: "1×2, 2×4; 1×2; 3" (an entry alone means all of it).

    Refuses a malformed text or an entry that does not exist with `InvalidInput` on the field "groups".
    """
    if not isinstance(text, str):
        raise InvalidInput("groups", text, GROUPS_ACCEPTS)
    groups: list[InitiativeGroup] = []
    for part in text.split(";"):
        if not part.strip():
            continue
        members: dict[int, int] = {}
        for item in part.split(","):
            match = re.fullmatch(r"\s*([0-9]{1,6})\s*(?:(?:×|x|\*)\s*([0-9]{1,6}))?\s*", item, re.IGNORECASE)
            if not match:
                raise InvalidInput("groups", text, GROUPS_ACCEPTS, f"cannot read {shown(item.strip())}")
            entry = int(match[1])
            if not 1 <= entry <= len(encounter.creatures):
                raise InvalidInput(
                    "groups", text, GROUPS_ACCEPTS,
                    f"entry {entry} does not exist (there are {len(encounter.creatures)})",
                )
            count = int(match[2]) if match[2] else encounter.creatures[entry - 1].count
            members[entry - 1] = members.get(entry - 1, 0) + count
        groups.append(InitiativeGroup(members=tuple(sorted(members.items()))))
    _validate_groups(encounter, groups)
    return tuple(groups)


def format_groups(groups: Sequence[InitiativeGroup]) -> str:
    """Groups in the syntax `parse_groups` reads (entries numbered from 1)."""
    return "; ".join(", ".join(f"{i + 1}×{count}" for i, count in g.members) for g in groups)


def check_groups(
    encounter: Encounter, hero_strength: Fraction, rules: EncounterRules | None = None
) -> tuple[Check, ...]:
    """Step 6: each group's EV against one to two heroes' ES, and the number of groups against the heroes."""
    rules = rules or encounter_rules()
    g = rules.guidelines
    groups = encounter.groups
    placed = _validate_groups(encounter, groups)
    n = encounter.party.size
    low, high = g.group_heroes_low * hero_strength, g.group_heroes_high * hero_strength
    below: list[int] = []
    over: list[int] = []
    for number, group in enumerate(groups, start=1):
        value = group_ev(encounter, group)
        single = len(group.members) == 1 and group.members[0][1] == 1
        many = encounter.party.victories >= g.many_victories
        if value < low:
            below.append(number)
        elif value > high and not (single or many):
            over.append(number)
    unplaced = [
        c.label for i, c in enumerate(encounter.creatures) if placed.get(i, 0) < c.count
    ]
    values = ", ".join(format_number(group_ev(encounter, grp)) for grp in groups)
    detail = f"group EVs {values}; aim for {format_number(low)} to {format_number(high)}"
    if len(below) > 1:
        detail += f"; groups {', '.join(map(str, below))} are below (only one may be)"
    if over:
        detail += f"; groups {', '.join(map(str, over))} are above and not a single creature"
    if unplaced:
        detail += f"; not in a group yet: {', '.join(unplaced)}"
    has_solo = any(c.solo for c in encounter.creatures)
    k = len(groups)
    return (
        _check(
            "group_ev",
            "Initiative group EV between one and two heroes' ES",
            bool(groups),
            len(below) <= 1 and not over and not unplaced,
            detail,
            rules,
        ),
        _check(
            "group_count",
            f"About as many initiative groups as heroes (± {g.groups_spread})",
            bool(groups) and not has_solo,
            abs(k - n) <= g.groups_spread,
            f"{k} groups for {n} heroes (aim for {max(1, n - g.groups_spread)} to {n + g.groups_spread})",
            rules,
        ),
    )


_Unit = tuple[Fraction, int, int]  # (EV, creature index, how many): one creature, or a set of minions


def _spread(units: Sequence[_Unit], k: int) -> list[list[_Unit]]:
    """Largest EV first, each into the group with the least EV so far."""
    bins: list[list[_Unit]] = [[] for _ in range(k)]
    for unit in sorted(units, key=lambda u: (-u[0], u[1])):
        emptiest = min(range(k), key=lambda b: (sum(u[0] for u in bins[b]), b))
        bins[emptiest].append(unit)
    return bins


class _Grouping:
    """Groups of units with their EV totals kept up to date, so a move or swap is judged in constant time.

    EVs are scaled to whole numbers (a minion's quarter EV by 4) so the many trial sums are plain integers.
    """

    def __init__(self, bins: Sequence[Sequence[_Unit]], low: Fraction, high: Fraction, many: bool,
                 fixed_below: int) -> None:
        self.bins = [list(b) for b in bins]
        scale = math.lcm(low.denominator, high.denominator, *(u[0].denominator for b in bins for u in b))
        self.value = {u: int(u[0] * scale) for b in bins for u in b}
        self.low, self.high, self.many = int(low * scale), int(high * scale), many
        self.sums = [sum(self.value[u] for u in b) for b in self.bins]
        flags = [self._flags(self.sums[i], self._single(self.bins[i])) for i in range(len(self.bins))]
        self.below = fixed_below + sum(f[0] for f in flags)
        self.over = sum(f[1] for f in flags)

    @staticmethod
    def _single(units: Sequence[_Unit]) -> bool:
        """A group of one creature (a set of minions is not one)."""
        return len(units) == 1 and units[0][2] == 1

    def _flags(self, total: int, single: bool) -> tuple[int, int]:
        """(below one hero, above two heroes without being a single creature) for a group."""
        if total < self.low:
            return 1, 0
        return 0, int(total > self.high and not self.many and not single)

    @property
    def cost(self) -> int:
        return max(0, self.below - 1) + self.over

    def _cost_with(self, a: int, sum_a: int, single_a: bool, b: int, sum_b: int, single_b: bool) -> int:
        old_a = self._flags(self.sums[a], self._single(self.bins[a]))
        old_b = self._flags(self.sums[b], self._single(self.bins[b]))
        new_a, new_b = self._flags(sum_a, single_a), self._flags(sum_b, single_b)
        below = self.below - old_a[0] - old_b[0] + new_a[0] + new_b[0]
        over = self.over - old_a[1] - old_b[1] + new_a[1] + new_b[1]
        return max(0, below - 1) + over

    def _apply(self, a: int, units_a: list[_Unit], b: int, units_b: list[_Unit]) -> None:
        for i, units in ((a, units_a), (b, units_b)):
            old = self._flags(self.sums[i], self._single(self.bins[i]))
            self.bins[i] = units
            self.sums[i] = sum(self.value[u] for u in units)
            new = self._flags(self.sums[i], self._single(units))
            self.below += new[0] - old[0]
            self.over += new[1] - old[1]

    def step(self) -> bool:
        """Make the first move of one unit to another group (never emptying one), or swap of two units between
        groups, that lowers the cost; False when none does."""
        best = self.cost
        for a, from_a in enumerate(self.bins):
            for b, into_b in enumerate(self.bins):
                if a == b:
                    continue
                for i, unit in enumerate(from_a):
                    v = self.value[unit]
                    if len(from_a) > 1:
                        left_single = len(from_a) == 2 and from_a[1 - i][2] == 1
                        if self._cost_with(a, self.sums[a] - v, left_single, b, self.sums[b] + v, False) < best:
                            self._apply(a, from_a[:i] + from_a[i + 1:], b, [*into_b, unit])
                            return True
                    for j, other in enumerate(into_b):
                        w = self.value[other]
                        if v == w and unit[2] == other[2]:
                            continue
                        single_a = len(from_a) == 1 and other[2] == 1
                        single_b = len(into_b) == 1 and unit[2] == 1
                        if self._cost_with(a, self.sums[a] - v + w, single_a, b, self.sums[b] - w + v,
                                           single_b) < best:
                            self._apply(a, [*from_a[:i], other, *from_a[i + 1:]],
                                        b, [*into_b[:j], unit, *into_b[j + 1:]])
                            return True
        return False


def _improve(bins: Sequence[Sequence[_Unit]], low: Fraction, high: Fraction, many: bool,
             fixed_below: int) -> tuple[list[list[_Unit]], int]:
    """Move or swap units between groups while that brings the grouping nearer the EV guideline; the groups
    and what is left of the cost (0: the guideline is kept)."""
    grouping = _Grouping(bins, low, high, many, fixed_below)
    while grouping.cost and grouping.step():
        pass
    return grouping.bins, grouping.cost


def suggest_groups(
    encounter: Encounter, hero_strength: Fraction | None = None, rules: EncounterRules | None = None
) -> tuple[InitiativeGroup, ...]:
    """A suggested grouping: each solo alone; the rest split into about as many groups as heroes.

    Minions go in sets of four (a set never splits); other creatures one by one, largest EV first, each into
    the group with the least EV so far. The number of groups is the total EV ÷ 1.5 heroes' ES, kept within
    the heroes ± 2 and never more than there are pieces to place; then groups below one hero's ES are
    merged until only one is ("It's okay to have one initiative group with a total EV of less than the
    recommendation"). When that grouping still breaks the EV guideline, the other group counts the heroes
    allow are tried too, moving or swapping pieces between groups, and the first grouping that keeps the
    guideline is suggested (the first one, if none does: the guidelines can conflict, as with many minions
    for a large party). A suggestion: check it with `check_groups`.
    """
    rules = rules or encounter_rules()
    g = rules.guidelines
    h = hero_strength if hero_strength is not None else budget(encounter.party, rules=rules).hero_strength
    n = encounter.party.size
    solos: list[InitiativeGroup] = []
    units: list[_Unit] = []
    for index, c in enumerate(encounter.creatures):
        if c.solo:
            solos.extend(InitiativeGroup(members=((index, 1),)) for _ in range(c.count))
        elif c.minion:
            left = c.count
            while left:
                take = min(g.minions_per_set, left)
                units.append((c.cost(take), index, take))
                left -= take
        else:
            units.extend((c.cost(1), index, 1) for _ in range(c.count))
    if not units:
        return tuple(solos)
    total = sum((u[0] for u in units), Fraction(0))
    low = g.group_heroes_low * h
    high = g.group_heroes_high * h
    lowest = 1 if solos else max(n - g.groups_spread, 1)
    highest = min(n + g.groups_spread, len(units))
    target = round(total / (Fraction(3, 2) * h)) if h else n
    k = min(max(target, n - g.groups_spread, 1), n + g.groups_spread, len(units))
    bins = _spread(units, k)
    # "It's okay to have one initiative group with a total EV of less than the recommendation above": only
    # one. Merge the two smallest groups below one hero's ES until at most one is left (two below one hero
    # stay below two heroes, so the merged group is within the recommendation or still the only low one);
    # without a solo, never below the heroes − 2 groups ("about as many initiative groups as the number of
    # heroes" applies "in a battle without a solo creature").
    while len(bins) > lowest:
        below = sorted((sum(u[0] for u in b), i) for i, b in enumerate(bins) if sum(u[0] for u in b) < low)
        if len(below) < 2:
            break
        (_, first), (_, second) = below[0], below[1]
        bins[first].extend(bins[second])
        del bins[second]
    many = encounter.party.victories >= g.many_victories
    solo_below = sum(1 for grp in solos if group_ev(encounter, grp) < low)
    if _Grouping(bins, low, high, many, solo_below).cost:
        for count in sorted(range(lowest, max(highest, lowest) + 1), key=lambda c: (abs(c - len(bins)), c)):
            candidate, left = _improve(_spread(units, count), low, high, many, solo_below)
            if not left:
                bins = candidate
                break
    groups: list[InitiativeGroup] = []
    for content in bins:
        merged: dict[int, int] = {}
        for _, index, take in content:
            merged[index] = merged.get(index, 0) + take
        groups.append(InitiativeGroup(members=tuple(sorted(merged.items()))))
    return tuple(solos) + tuple(groups)


# ---------------------------------------------------------------- report


class EncounterReport(Frozen):
    """Everything the editor shows: EV, band, difficulty and Victories after objectives, every check."""

    budget: Budget
    creature_ev: Fraction
    terrain_ev: Fraction
    total_ev: Fraction
    band: str
    outcome: ObjectiveOutcome
    checks: tuple[Check, ...]
    # each chosen objective's numbers for this encounter (objective key, the lines `objective_numbers` gives)
    objective_numbers: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def difficulty(self) -> str:
        return self.outcome.difficulty

    @property
    def victories(self) -> int:
        return self.outcome.victories

    @property
    def broken(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.broken)

    def left_to_spend(self, difficulty: str) -> Fraction | None:
        """EV still to spend before the total leaves `difficulty`'s band (None: no upper end)."""
        return self.budget.left_to_spend(self.total_ev, difficulty)


def report(encounter: Encounter, rules: EncounterRules | None = None) -> EncounterReport:
    """The encounter's EV, band, difficulty, Victories and every guideline check, computed afresh."""
    rules = rules or encounter_rules()
    if not isinstance(encounter, Encounter):
        raise InvalidInput("encounter", encounter, "an Encounter")
    mode = encounter.objective_mode
    total = encounter.total_ev
    if mode == "alternative" and len(encounter.objectives) > 1:
        # each alternative at its own band: Save Another's added heroes are Save Another's alone
        own = [added_heroes(o, rules) for o in encounter.objectives]
        bases = [budget(encounter.party, added_heroes=a, rules=rules).difficulty(total) for a in own]
        outcome = apply_objectives(bases[0], encounter.objectives, rules, mode, bases=bases)
        b = budget(encounter.party, added_heroes=outcome.added_heroes, rules=rules)
        band = outcome.base
    else:
        added = apply_objectives("standard", encounter.objectives, rules, mode).added_heroes
        b = budget(encounter.party, added_heroes=added, rules=rules)
        band = b.difficulty(total)
        outcome = apply_objectives(band, encounter.objectives, rules, mode)
    checks = check_guidelines(encounter, outcome.difficulty, rules) + check_groups(
        encounter, b.hero_strength, rules
    )
    return EncounterReport(
        budget=b,
        creature_ev=encounter.creature_ev,
        terrain_ev=encounter.terrain_ev,
        total_ev=total,
        band=band,
        outcome=outcome,
        checks=checks,
        objective_numbers=tuple(
            (o.key, encounter_objective_numbers(encounter, o.key, rules)) for o in encounter.objectives
        ),
    )


# ---------------------------------------------------------------- files


def read_saved(path: object, key: str, file_format: str, version: int, model: type[Saved]) -> tuple[Path, Saved]:
    """The `key` part of a workbench file of this format and version, as `model`; a corrupt, foreign or hostile
    file is refused naming the file and what is wrong (the encounter and adventure files share this shape)."""
    accepts = f"an {key} JSON file saved by the workbench"
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise InvalidInput("file", path, accepts)
    path = Path(path)

    def refuse(reason: str) -> InvalidInput:
        return InvalidInput("file", str(path), accepts, reason)

    try:
        data = read_json(path)
    except FileProblem as exc:
        raise refuse(exc.reason) from None
    if not isinstance(data, dict) or data.get("format") != file_format:
        raise refuse(f"no \"format\": \"{file_format}\" marker")
    if data.get("version") != version or isinstance(data.get("version"), bool):
        raise refuse(f"version {shown(data.get('version'))}; this workbench reads {version}")
    try:
        # strict: `true` is no level and "3" no count (JSON mode still reads arrays as tuples)
        return path, model.model_validate_json(json.dumps(data.get(key)), strict=True)
    except ValidationError as exc:
        raise refuse("; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or key}: {e['msg']}" for e in exc.errors()[:5]
        )) from None


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
    problems = _loaded_problems(encounter, trust_numbers)
    if problems:
        raise _refuse_file(path, "; ".join(problems))
    return encounter


def _loaded_problems(encounter: Encounter, trust_numbers: bool = False) -> list[str]:
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
            built, solo = _formula_stat_blocks(c.level, c.organization, c.role)
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
        _validate_groups(encounter, encounter.groups)
    except InvalidInput as exc:
        problems.append(str(exc))
    return problems

