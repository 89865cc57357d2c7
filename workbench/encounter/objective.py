"""Encounter objectives: the ten objectives of "Encounter Objectives" as data, and what choosing one does.

An objective can move the encounter's difficulty one category harder or easier (a delicate ward, a thing
that is hidden or held), add heroes for determining difficulty (Save Another's willing allies), and sets the
Victories each hero earns on success. The texts (difficulty modifier, success, Victories, failure) are the
book's own words from `data/encounters.toml`. Also here: the thing's and the ward's Stamina and the
reinforcement budgets of Escort and Hold Them Off.

Several objectives are either combined ("the heroes must meet the success conditions for each of the
encounter's combined objectives") or alternative ("you reward the heroes for the objective they completed the
most successfully"); the encounter says which (`OBJECTIVE_MODES`).

Readings (the text leaves these open): a trivial encounter earns 0 Victories whatever the objective
("Unless you determine otherwise"); where an objective names no Victories for extreme, the hard value (2)
carries on; combined objectives add their difficulty shifts and each earns its own Victories ("each hero
earns Victories as appropriate for each encounter"); alternative objectives are each taken at the
difficulty its own modifiers give, and the encounter is worth the most Victories any one of them earns (the
first listed wins a tie), shown at that objective's difficulty; the heroes Save Another adds for difficulty
count for Save Another alone (another alternative keeps the party's own band), while combined objectives add
them for the whole encounter; the difficulty never moves past trivial or extreme.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from numbers import Integral
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from workbench.encounter.party import Party, budget
from workbench.errors import InvalidInput
from workbench.numbers import format_number
from workbench.rules.encounter_tables import (
    DIFFICULTIES,
    EncounterRules,
    ObjectiveRule,
    check_difficulty,
    encounter_rules,
)

__all__ = [
    "OBJECTIVE_MODES",
    "AlternativeResult",
    "ChosenObjective",
    "ObjectiveOutcome",
    "objective_keys",
    "objective_rule",
    "choose_objective",
    "objective_with",
    "shift_difficulty",
    "check_objective_mode",
    "apply_objectives",
    "added_heroes",
    "objective_victories",
    "defense_count",
    "thing_stamina",
    "ward_stamina",
    "hold_reinforcement_ev",
    "escort_reinforcement_range",
    "objective_numbers",
    "solo_flee_stamina",
    "escort_start_distance",
    "hold_them_off_limit",
    "complete_the_action_succeeds",
    "complete_the_action_tasks",
    "DIMINISH_CONDITIONS",
    "diminish_numbers_over",
    "with_duration",
]


# Destroy the Thing! as saved before its defenses were ticked one by one: two flags, "no extra defenses"
# and "two or more"; neither ticked meant one defense (no shift).
_LEGACY_DEFENSES = {"no_extra_defenses": 0, "two_or_more_defenses": 2}
_LEGACY_NEITHER = 1


def _legacy_defenses(key: Any, conditions: dict[str, Any], rules: EncounterRules) -> dict[str, Any]:
    """Conditions saved in the old two-flag form, as the thing's defense count (the same difficulty shift)."""
    rule = rules.objectives.get(key) if isinstance(key, str) else None
    if rule is None or rule.defenses is None:
        return conditions
    defenses = [c for c in rule.conditions if c.defense]
    if any(c.key in conditions for c in defenses):
        return conditions
    conditions = dict(conditions)
    ticked = [k for k in _LEGACY_DEFENSES if conditions.pop(k, 0)]
    if len(ticked) > 1:
        raise ValueError("conditions: a thing cannot have no extra defenses and two or more at once")
    count = _LEGACY_DEFENSES[ticked[0]] if ticked else _LEGACY_NEITHER
    for c in defenses:
        conditions[c.key] = count if c.kind == "count" else 0
    return conditions


def _renamed(key: Any, conditions: Mapping[str, Any], rules: EncounterRules) -> dict[str, Any]:
    """Conditions saved under a key a condition has since been renamed from (its `was`), under today's key."""
    rule = rules.objectives.get(key.strip().lower().replace(" ", "_").replace("!", "")) if isinstance(
        key, str) else None
    conditions = dict(conditions)
    for condition in rule.conditions if rule else ():
        for old in condition.was:
            if old in conditions and condition.key not in conditions:
                conditions[condition.key] = conditions.pop(old)
    return conditions


class ChosenObjective(BaseModel):
    """An objective picked for an encounter, with the conditions the Director ticked or counted.

    Destroy the Thing! saved in its old form (a "no extra defenses" or "two or more defenses" flag) loads
    as that many unnamed extra defenses, so its difficulty is what it was; a condition saved under an older
    key (Hold Them Off's single "5 rounds or 3 positions" box) loads under the key that keeps its numbers.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    conditions: dict[str, int] = Field(default_factory=dict)
    bonus: bool = False

    @model_validator(mode="before")
    @classmethod
    def _old_thing(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("conditions"), dict | None):
            rules = encounter_rules()
            conditions = _renamed(data.get("key"), data.get("conditions") or {}, rules)
            conditions = _legacy_defenses(data.get("key"), conditions, rules)
            data = {**data, "conditions": conditions}
        return data


OBJECTIVE_MODES = ("combined", "alternative")


class AlternativeResult(BaseModel):
    """One alternative objective on its own: the difficulty its modifiers give and the Victories it earns."""

    model_config = ConfigDict(frozen=True)
    key: str
    name: str
    difficulty: str
    victories: int
    # the band its own EV test gives (with the heroes it adds, if any) and those heroes
    base: str = ""
    added_heroes: int = 0


class ObjectiveOutcome(BaseModel):
    """What the chosen objectives do to an encounter whose EV puts it in `base` difficulty.

    `mode` says how several objectives go together; with alternative objectives, `alternatives` holds each
    one's own result and the headline numbers are the best one's.
    """

    model_config = ConfigDict(frozen=True)
    base: str
    shift: int
    difficulty: str
    victories: int
    added_heroes: int
    notes: tuple[str, ...]
    mode: str = "combined"
    alternatives: tuple[AlternativeResult, ...] = ()


def objective_keys(rules: EncounterRules | None = None) -> tuple[str, ...]:
    return tuple((rules or encounter_rules()).objectives)


def objective_rule(key: str, rules: EncounterRules | None = None) -> ObjectiveRule:
    rules = rules or encounter_rules()
    name = key.strip().lower().replace(" ", "_").replace("!", "") if isinstance(key, str) else None
    if name not in rules.objectives:
        raise InvalidInput("objective", key, "one of " + ", ".join(rules.objectives))
    return rules.objectives[name]


def _key(key: str, rules: EncounterRules) -> str:
    objective_rule(key, rules)
    return key.strip().lower().replace(" ", "_").replace("!", "")


def choose_objective(
    key: str, bonus: bool = False, rules: EncounterRules | None = None, **conditions: object
) -> ChosenObjective:
    """An objective with its conditions: flags as True/False, Save Another's `willing_allies` as a count.

    >>> choose_objective("escort", delicate_ward=True).conditions
    {'delicate_ward': 1}
    """
    return objective_with(key, conditions, bonus=bonus, rules=rules)


def _legacy_flags(conditions: dict[str, object]) -> dict[str, bool]:
    """The old defense flags taken out of `conditions` (True/False each)."""
    legacy: dict[str, bool] = {}
    for k in _LEGACY_DEFENSES:
        if k in conditions:
            flag = conditions.pop(k)
            if not isinstance(flag, bool):
                raise InvalidInput(k, flag, "True or False")
            legacy[k] = flag
    return legacy


def objective_with(
    key: str, conditions: Mapping[str, object], bonus: bool = False, rules: EncounterRules | None = None
) -> ChosenObjective:
    """`choose_objective` with the conditions as a mapping: a condition may then have any name, even one
    of this function's own parameters (`bonus`, `rules`), as a file read back can hold."""
    rules = rules or encounter_rules()
    name = _key(key, rules)
    rule = rules.objectives[name]
    known = {c.key: c for c in rule.conditions}
    values: dict[str, int] = {}
    remaining = _renamed(name, conditions, rules)  # a copy: the caller's mapping is left as it was
    legacy = _legacy_flags(remaining) if rule.defenses else {}
    for ck, value in remaining.items():
        if ck not in known:
            accepts = ", ".join(known) or "no conditions"
            raise InvalidInput("condition", ck, f"for {rules.objectives[name].name}: {accepts}")
        if known[ck].kind == "flag":
            if not isinstance(value, bool):
                raise InvalidInput(ck, value, "True or False")
            values[ck] = int(value)
        else:
            if isinstance(value, bool) or not isinstance(value, Integral) or value < 0:
                raise InvalidInput(ck, value, "a whole number from 0 upwards")
            values[ck] = int(value)
    if not isinstance(bonus, bool):
        raise InvalidInput("bonus", bonus, "True or False")
    if rule.defenses:
        defenses = [c.key for c in rule.conditions if c.defense]
        if legacy:
            if any(values.get(k) for k in defenses):
                raise InvalidInput("condition", ", ".join(legacy), "the defenses ticked one by one, or the "
                                   "old no_extra_defenses / two_or_more_defenses flags, not both")
            try:
                values = _legacy_defenses(name, {**values, **{k: int(v) for k, v in legacy.items()}}, rules)
            except ValueError:
                raise InvalidInput("condition", "no_extra_defenses and two_or_more_defenses",
                                   "one of them", "a thing cannot have none and two or more") from None
        values = {**{k: 0 for k in defenses}, **values}
        for group in rule.defenses.exclusive:
            if sum(1 for k in group if values.get(k)) > 1:
                raise InvalidInput("condition", " and ".join(group), "at most one of them",
                                   rule.defenses.exclusive_rule)
    return ChosenObjective(key=name, conditions=values, bonus=bonus)


def defense_count(chosen: ChosenObjective, rules: EncounterRules | None = None) -> int | None:
    """How many extra defenses the Director gave the thing (None: the objective has no such rule)."""
    rules = rules or encounter_rules()
    rule = rules.objectives[_key(chosen.key, rules)]
    if rule.defenses is None:
        return None
    return sum(chosen.conditions.get(c.key, 0) for c in rule.conditions if c.defense)


def shift_difficulty(difficulty: str, shift: int) -> str:
    """Move a difficulty by whole categories, stopping at trivial and extreme."""
    index = DIFFICULTIES.index(check_difficulty(difficulty)) + shift
    return DIFFICULTIES[min(max(index, 0), len(DIFFICULTIES) - 1)]


def objective_victories(
    chosen: ChosenObjective, difficulty: str, rules: EncounterRules | None = None
) -> int:
    """Victories each hero earns when the objective's success condition is met at `difficulty`.

    The bonus counts when ticked, or when a ticked condition makes success the bonus outcome (Hold Them Off
    lasting 5 rounds or more: success is then "held off the enemy for an encounter duration of 5 rounds").
    """
    rules = rules or encounter_rules()
    difficulty = check_difficulty(difficulty)
    if difficulty == "trivial":
        return 0
    rule = rules.objectives[_key(chosen.key, rules)]
    value = rule.victories[difficulty]
    o = rules.objective_rules
    implied = any(c.implies_bonus and chosen.conditions.get(c.key) for c in rule.conditions)
    if (
        (chosen.bonus or implied)
        and rule.bonus
        and DIFFICULTIES.index(difficulty) >= DIFFICULTIES.index(o.bonus_min_difficulty)
    ):
        value = max(value, o.bonus_victories)
    return value


def check_objective_mode(mode: Any) -> str:
    """"combined" or "alternative" (how several objectives go together); anything else is refused."""
    key = mode.strip().lower() if isinstance(mode, str) else None
    if key not in OBJECTIVE_MODES:
        raise InvalidInput("objective_mode", mode, "one of " + ", ".join(OBJECTIVE_MODES))
    return key


def _modifiers(objective: ChosenObjective, rules: EncounterRules) -> tuple[int, int, list[str]]:
    """One objective's difficulty shift, the heroes it adds for difficulty, and a note per ticked condition."""
    rule = rules.objectives[_key(objective.key, rules)]
    shift = added = 0
    notes: list[str] = []
    if rule.defenses:
        d = rule.defenses
        count = defense_count(objective, rules) or 0
        step = d.none_shift if count == 0 else d.many_shift if count >= d.many else 0
        if step:
            shift += step
            way = "harder" if step > 0 else "easier"
            notes.append(f"{rule.name}: {count} extra defense(s): one category {way}")
    shifted: set[str] = set()
    for condition in rule.conditions:
        value = objective.conditions.get(condition.key, 0)
        if not value or condition.defense:
            continue
        if condition.kind == "allies":
            added += value
            notes.append(f"{rule.name}: {condition.label}: +{value} hero(es) for difficulty")
        elif condition.either and condition.either in shifted:
            notes.append(f"{rule.name}: {condition.label}: no further shift (the rule's \"or\")")
        else:
            if condition.either:
                shifted.add(condition.either)
            shift += condition.shift
            way = "harder" if condition.shift > 0 else "easier"
            notes.append(f"{rule.name}: {condition.label}: one category {way}")
    return shift, added, notes


def added_heroes(objective: ChosenObjective, rules: EncounterRules | None = None) -> int:
    """The heroes one objective adds "for the purpose of determining the encounter's difficulty" (Save
    Another's willing allies; 0 for the others)."""
    return _modifiers(objective, rules or encounter_rules())[1]


def apply_objectives(
    base: str,
    chosen: Iterable[ChosenObjective],
    rules: EncounterRules | None = None,
    mode: str = "combined",
    bases: Sequence[str] | None = None,
) -> ObjectiveOutcome:
    """The shown difficulty and Victories once the objectives' modifiers are applied to `base`.

    With no objective the band's own Victories apply. Combined objectives add their shifts and their
    Victories; alternative ones are each taken on their own and the best counts (see the module's readings).
    Heroes an objective adds (Save Another) change the budget itself, so `base` should already be computed
    with them (`budget(party, added_heroes=...)`). Alternatives: Save Another's heroes belong to Save Another,
    so each alternative has its own band, given in `bases` (one per objective, each computed with that
    objective's `added_heroes`); without `bases` every alternative starts from `base`.
    """
    rules = rules or encounter_rules()
    base = check_difficulty(base, "base")
    mode = check_objective_mode(mode)
    chosen = tuple(chosen)
    each = [_modifiers(o, rules) for o in chosen]
    notes = [note for _, _, ns in each for note in ns]
    if mode == "alternative" and len(chosen) > 1:
        own = [base] * len(chosen) if bases is None else [check_difficulty(b, "bases") for b in bases]
        if len(own) != len(chosen):
            raise InvalidInput("bases", bases, f"one band per objective ({len(chosen)})")
        results = tuple(
            AlternativeResult(
                key=o.key,
                name=rules.objectives[o.key].name,
                difficulty=shift_difficulty(start, shift),
                victories=objective_victories(o, shift_difficulty(start, shift), rules),
                base=start,
                added_heroes=added,
            )
            for o, (shift, added, _), start in zip(chosen, each, own, strict=True)
        )
        best = max(range(len(results)), key=lambda i: (results[i].victories, -i))
        listed = ", ".join(f"{r.name} ({r.difficulty}, {r.victories})" for r in results)
        notes.append(
            f"Alternative objectives: the heroes earn the Victories of the one they complete most "
            f"successfully: {listed}"
        )
        return ObjectiveOutcome(
            base=results[best].base,
            shift=each[best][0],
            difficulty=results[best].difficulty,
            victories=results[best].victories,
            added_heroes=results[best].added_heroes,
            notes=tuple(notes),
            mode=mode,
            alternatives=results,
        )
    shift = sum(s for s, _, _ in each)
    difficulty = shift_difficulty(base, shift)
    if chosen:
        victories = sum(objective_victories(o, difficulty, rules) for o in chosen)
    else:
        victories = rules.band(difficulty).victories
    return ObjectiveOutcome(
        base=base,
        shift=shift,
        difficulty=difficulty,
        victories=victories,
        added_heroes=sum(added for _, added, _ in each),
        notes=tuple(notes),
        mode=mode,
    )


def _level(level: Any) -> int:
    if isinstance(level, bool) or not isinstance(level, Integral) or level < 1:
        raise InvalidInput("level", level, "a whole number from 1 upwards")
    return int(level)


def thing_stamina(
    level: int, sturdy: bool = False, things: int = 1, rules: EncounterRules | None = None
) -> tuple[int, ...]:
    """Destroy the Thing!: 35 × level (sturdy: 50 × level), divided between `things` things.

    A split that does not come out even gives the first things one more (reading: the rules say only
    "divide the thing's Stamina between all of them"; the parts always add up to the whole).
    """
    o = (rules or encounter_rules()).objective_rules
    level = _level(level)
    if isinstance(things, bool) or not isinstance(things, Integral) or things < 1:
        raise InvalidInput("things", things, "a whole number of things from 1 upwards")
    total = (o.sturdy_thing_stamina_per_level if sturdy else o.thing_stamina_per_level) * level
    share, rest = divmod(total, int(things))
    return tuple(share + (1 if i < rest else 0) for i in range(int(things)))


def ward_stamina(level: int, delicate: bool = False, rules: EncounterRules | None = None) -> int:
    """Escort: a sturdy ward has 20 × the heroes' level Stamina, a delicate ward 10 ×."""
    o = (rules or encounter_rules()).objective_rules
    per = o.delicate_ward_stamina_per_level if delicate else o.ward_stamina_per_level
    return per * _level(level)


def _ev(field: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (Integral, Fraction)) or value < 0:
        raise InvalidInput(field, value, "an EV from 0 upwards")
    return Fraction(value)


def hold_reinforcement_ev(
    got_past_ev: Fraction | int,
    hero_strength: Fraction | int,
    carried: Fraction | int = 0,
    rules: EncounterRules | None = None,
) -> Fraction:
    """Hold Them Off: the next group's EV = the EV that got past + one hero's ES (+ any unspent remainder)."""
    o = (rules or encounter_rules()).objective_rules
    return (
        _ev("got_past_ev", got_past_ev)
        + o.hold_reinforcement_heroes * _ev("hero_strength", hero_strength)
        + _ev("carried", carried)
    )


def escort_reinforcement_range(
    lost_ev: Fraction | int, rules: EncounterRules | None = None
) -> tuple[Fraction, Fraction]:
    """Escort: replacements' total EV is within 5 of the creatures lost (never below 0)."""
    o = (rules or encounter_rules()).objective_rules
    lost = _ev("lost_ev", lost_ev)
    return max(Fraction(0), lost - o.escort_reinforcement_within), lost + o.escort_reinforcement_within



def solo_flee_stamina(stamina: int, rules: EncounterRules | None = None) -> int:
    """Diminish Numbers: the Stamina at or below which a solo "flees or surrenders when reduced to one-quarter
    or less of their Stamina" (after using all its villain actions): ⌊Stamina × 1/4⌋, the highest whole
    Stamina that is a quarter or less."""
    o = (rules or encounter_rules()).objective_rules
    stamina = _whole_number("stamina", stamina, 1)
    return math.floor(stamina * o.solo_flee_share)


def escort_start_distance(speed: int | None = None, rules: EncounterRules | None = None) -> int:
    """Escort: the ward starts "at least three times the ward's speed" from the destination (speed 5 unless
    given: "most humanoid wards having speed 5")."""
    o = (rules or encounter_rules()).objective_rules
    speed = o.ward_speed if speed is None else _whole_number("speed", speed, 1)
    return o.escort_start_speeds * speed


def hold_them_off_limit(party: Party) -> int:
    """Hold Them Off: the heroes win when "fewer creatures through ... than the number of heroes who started
    the encounter, including any retainers": heroes and retainers (allied NPCs are not named; reading)."""
    if not isinstance(party, Party):
        raise InvalidInput("party", party, "a Party (see make_party)")
    return sum(1 for m in party.members if m.kind in ("hero", "retainer"))


def complete_the_action_succeeds(failures: int, rules: EncounterRules | None = None) -> bool:
    """Complete the Action: "The heroes win if they reach the end of the encounter duration with 1 or no
    failures" (2 or more: no Victories)."""
    o = (rules or encounter_rules()).objective_rules
    return _whole_number("failures", failures, 0) <= o.complete_failures_allowed


def _whole_number(field: str, value: Any, lowest: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < lowest:
        raise InvalidInput(field, value, f"a whole number from {lowest} upwards")
    return int(value)


def _share_of(share: Fraction, total: Fraction) -> str:
    """"EV 70 ÷ 3 = 23 1/3": a share of an EV with its working."""
    part = f"÷ {share.denominator}" if share.numerator == 1 else f"× {format_number(share)}"
    return f"{format_number(total)} {part} = {format_number(share * total)}"


def _foe_counts(heroes: int, foes: int, o: Any) -> tuple[str, ...]:
    """Diminish Numbers' three count-based endings for `heroes` heroes against `foes` foes at the start.

    "Outnumber their foes" is more heroes than foes (heroes − 1 foes or fewer); "outnumber their foes two to
    one" is reached at twice as many heroes as foes (⌊heroes ÷ 2⌋ foes or fewer; reading: a ratio of
    exactly two to one is two to one).
    """
    platoon = heroes // o.platoon_outnumber
    half = math.floor(foes * o.remaining_share)
    return (
        f"Mostly horde creatures: ends when the {heroes} heroes outnumber their foes, at {heroes - 1} foes "
        "or fewer.",
        f"Mostly platoon creatures: ends when the heroes outnumber their foes {o.platoon_outnumber} to 1, at "
        f"⌊{heroes} ÷ {o.platoon_outnumber}⌋ = {platoon} foes or fewer.",
        f"Half or less of the {foes} foes at the start: ⌊{foes} × {format_number(o.remaining_share)}⌋ = {half} "
        "foes or fewer remaining.",
    )


def objective_numbers(
    key: str,
    party: Party,
    rules: EncounterRules | None = None,
    solos: Sequence[tuple[str, int]] = (),
    foes: int | None = None,
    opposing_ev: Fraction | int | None = None,
    total_ev: Fraction | int | None = None,
) -> tuple[str, ...]:
    """The numbers an objective gives for this party, each with its working, to show beside its text:
    Destroy the Thing!'s thing Stamina, Escort's ward Stamina, start and replacements, Hold Them Off's
    reinforcements (their EV and distance) and how many may get through, the typical duration of the timed
    objectives, Complete the Action's tasks a round and failures, and Diminish Numbers' solo fleeing Stamina
    for each of `solos` ((label, Stamina) of the solos in the encounter). Given the encounter's `foes` (how
    many creatures start), `opposing_ev` (the creatures' EV) and `total_ev` (with terrain objects), also
    Diminish Numbers' foe counts and the one-third EV of Defeat a Specific Foe and Get the Thing!.

    Readings: for a party of mixed levels "the heroes' level" is the exact average level of the heroes, so a
    Stamina can come out fractional (35 × 3.5 = 122.5); the rules give no rounding for it. "The heroes" who
    outnumber foes or perform tasks are the heroes themselves (retainers and allies are not named there).
    """
    rules = rules or encounter_rules()
    name = _key(key, rules)
    if not isinstance(party, Party):
        raise InvalidInput("party", party, "a Party (see make_party)")
    o = rules.objective_rules
    level = party.average_level
    shown = format_number(level) + ("" if party.heroes_uniform else " (the average)")
    heroes = len(party.heroes)
    duration = f"A typical encounter duration is {o.typical_duration} rounds."

    def times(per: int) -> str:
        return f"{per} × {shown} = {format_number(per * level)}"

    if name == "destroy_the_thing":
        return (
            f"The thing's Stamina: {times(o.thing_stamina_per_level)}; "
            f"sturdy: {times(o.sturdy_thing_stamina_per_level)} "
            "(divided between the things when there are several).",
        )
    if name == "escort":
        return (
            f"The ward's Stamina: sturdy {times(o.ward_stamina_per_level)}; "
            f"delicate {times(o.delicate_ward_stamina_per_level)}.",
            f"The ward starts at least {o.escort_start_speeds} × its speed from the destination: speed "
            f"{o.ward_speed} (most humanoid wards) = {escort_start_distance(rules=rules)} squares; no enemy starts "
            f"within {o.escort_enemies_not_within} squares of the destination.",
            f"Replacements each round: a total EV within {o.escort_reinforcement_within} of the creatures killed "
            f"in the previous round, none starting within {o.escort_replacements_not_within} squares of the ward, "
            "the destination or any hero.",
        )
    if name == "hold_them_off":
        h = budget(party, rules=rules).hero_strength
        extra = o.hold_reinforcement_heroes * h
        limit = hold_them_off_limit(party)
        return (
            f"Reinforcements each round: the EV of the enemies who got past + {o.hold_reinforcement_heroes} × "
            f"one hero's ES {format_number(h)} = that EV + {format_number(extra)} "
            f"(unspent EV carries to a later round), appearing {o.hold_reinforcement_distance} squares or more "
            "away from the defensive position.",
            f"The heroes hold when fewer than {limit} creatures get through ({limit} heroes and retainers start); "
            f"{limit} or more is a failure.",
            f"{duration} {o.long_duration} or more rounds: one category harder, and success earns "
            f"{o.bonus_victories} Victories (standard or harder).",
        )
    if name == "stop_the_action":
        return (duration,)
    if name == "complete_the_action":
        allowed = o.complete_failures_allowed
        share = o.complete_tasks_share
        tasks = math.ceil(heroes * share)
        return (
            f"Tasks each round: half or more of the heroes, ⌈{heroes} × {format_number(share)}⌉ = {tasks}, "
            "each by a maneuver; a round that ends with fewer tasks performed is one failure.",
            f"Success with at most {allowed} failure(s); {allowed + 1} or more: no Victories; zero failures "
            f"(standard or harder): {o.bonus_victories} Victories.",
            duration,
        )
    if name == "diminish_numbers":
        share = o.solo_flee_share
        part = f"÷ {share.denominator}" if share.numerator == 1 else f"× {format_number(share)}"
        counts = _foe_counts(heroes, _whole_number("foes", foes, 0), o) if foes else ()
        return counts + tuple(
            f"{label} (Stamina {stamina}) flees or surrenders at ⌊{stamina} {part}⌋ = "
            f"{solo_flee_stamina(stamina, rules)} Stamina or less, after using all its villain actions."
            for label, stamina in solos
        )
    if name == "defeat_a_specific_foe" and opposing_ev is not None:
        ev = _ev("opposing_ev", opposing_ev)
        return (
            f"One category easier when the creatures to defeat are worth one-third or less of the opposing "
            f"side's total EV: {_share_of(o.specific_foe_share, ev)} or less.",
        )
    if name == "get_the_thing" and total_ev is not None:
        ev = _ev("total_ev", total_ev)
        return (
            f"A powerful monster guarding the thing is one worth one-third or more of the encounter's total EV: "
            f"{_share_of(o.guardian_share, ev)} or more (none, and no trap: one category easier).",
        )
    return ()


def complete_the_action_tasks(heroes: int, rules: EncounterRules | None = None) -> int:
    """Complete the Action: the tasks a round needs, "half or more of the heroes": ⌈heroes × 1/2⌉."""
    o = (rules or encounter_rules()).objective_rules
    return math.ceil(_whole_number("heroes", heroes, 0) * o.complete_tasks_share)


# Diminish Numbers: "Choose one of the following success conditions" (the Director's pick), by key
DIMINISH_CONDITIONS: dict[str, str] = {
    "minion_groups": "An encounter that includes two or more groups of minions ends when the heroes have no "
                     "non-minion enemies remaining.",
    "horde": "An encounter with mostly horde creatures ends when the heroes outnumber their foes.",
    "platoon": "An encounter with mostly platoon creatures ends when the heroes outnumber their foes two to one.",
    "half": "The encounter ends when the number of remaining foes is half or less of what it was at the start.",
    "solo": "In a battle against a solo creature, that creature flees or surrenders when reduced to one-quarter "
            "or less of their Stamina and after using all their villain actions.",
}


def diminish_numbers_over(
    condition: str, heroes: int, foes: int, foes_at_start: int, non_minions: int,
    rules: EncounterRules | None = None,
) -> bool:
    """Whether Diminish Numbers' chosen count-based `condition` is met: `heroes` the heroes still fighting,
    `foes` the foes still in the fight (each minion one), `foes_at_start` those at the start (no
    reinforcements), `non_minions` the foes still in the fight that are not minions. The solo's condition
    is the solo's own Stamina and villain actions, not a count: always False here."""
    o = (rules or encounter_rules()).objective_rules
    if condition not in DIMINISH_CONDITIONS:
        raise InvalidInput("condition", condition, "one of " + ", ".join(DIMINISH_CONDITIONS))
    if condition == "minion_groups":
        return non_minions == 0
    if condition == "horde":
        return heroes > foes
    if condition == "platoon":
        return heroes >= o.platoon_outnumber * foes
    if condition == "half":
        return foes <= foes_at_start * o.remaining_share
    return False


def with_duration(chosen: ChosenObjective, rounds: int, rules: EncounterRules | None = None) -> ChosenObjective:
    """The objective with the conditions a duration of `rounds` ticks, so the difficulty and the Victories
    follow the duration the Director set: Hold Them Off "one category harder if the encounter duration is 5
    rounds or greater"; Stop the Action "one category harder if the encounter duration is 2 rounds or less";
    Complete the Action "one category harder if the encounter duration is 5 or more ... one category easier if
    the encounter duration is 2 or less". Other objectives have no duration and come back unchanged."""
    rules = rules or encounter_rules()
    o = rules.objective_rules
    rounds = _whole_number("duration", rounds, 1)
    c = dict(chosen.conditions)
    if chosen.key == "hold_them_off":
        c["long_duration"] = int(rounds >= o.long_duration)
    elif chosen.key == "stop_the_action":
        c["short_duration"] = int(rounds <= 2)
    elif chosen.key == "complete_the_action":
        c["short_duration"] = int(rounds <= 2)
        if rounds >= o.long_duration:
            c["long_or_tested"] = 1
    else:
        return chosen
    return chosen.model_copy(update={"conditions": c})
