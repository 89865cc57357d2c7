"""Solo creatures two ways: "Instant Solo Creature" from a leader or elite, and a solo built from the formulas.

`instant_solo` follows the book's adjustments (EV × 3, Stamina × 2.5, rounded up exactly; Solo Turns, End
Effect unless present, the Solo Action Malice feature). `compare_solos` sets it beside the solo the
formulas build at the same level, with the differences in plain words generated from the numbers, and
`solo_drift` does so across levels, so a Director sees where the shortcut and the formulas part ways.

How an instant solo is marked (our reading; the book does not say): it keeps its level, its organization
(leader or elite) and its role, so every number other than EV and Stamina is still the one the formulas
give that leader or elite, as the book intends ("Other numbers are unchanged"). What makes it a solo is
the Solo Turns trait it gains with its EV × 3 and Stamina × 2.5; `is_instant_solo(monster)` tests for both,
and renderers title it "Level 5 Leader, instant solo". `explain_instant_solo` shows the working of its EV and
Stamina.

Saved and loaded (the homebrew library rebuilds every monster from its inputs, so the file's organization
"leader" alone would bring back a leader's numbers): the library hands each rebuilt monster, with the EV and
Stamina it was saved with, to `restore_instant_solo`, which makes it the same instant solo again when it
carries both things only "Instant Solo Creature" adds (the Solo Turns trait and the Solo Action Malice
feature) and was saved with numbers other than the formulas' for its inputs. Its numbers are then the
current ruleset's, × 3 and × 2.5, so a library still follows the rules. `instant_solo` never doubles a
trait either, so adapting a rebuilt monster by hand gives the same solo.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.model import Monster, Step, Trait, require_monster
from workbench.monster.formulas import build_monster, explain
from workbench.rules.feature_book import feature_book
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = [
    "solo_action",
    "ComparisonRow",
    "SoloComparison",
    "compare_solos",
    "explain_instant_solo",
    "instant_solo",
    "is_instant_solo",
    "is_solo",
    "restore_instant_solo",
    "solo_drift",
    "solo_source_organizations",
    "can_become_solo",
    "solo_sources",
    "without_instant_solo",
]

SECTION = "Instant Solo Creature"


def solo_action() -> Trait:
    """The Malice feature an instant solo gains: Solo Action (5 Malice)."""
    return Trait.from_book(feature_book().instant_solo.malice_feature)


def _number_text(value: Any) -> str:
    """A multiplier as the rules print it (2.5, 3, 6), from an exact Decimal or Fraction."""
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return str(fraction.numerator)
    return format(Decimal(fraction.numerator) / Decimal(fraction.denominator), "f").rstrip("0").rstrip(".")


def solo_source_organizations() -> tuple[str, ...]:
    """The organizations "Instant Solo Creature" adapts: leaders and elites."""
    return feature_book().instant_solo.from_organizations


def can_become_solo(organization: str) -> bool:
    """Whether "Instant Solo Creature" adapts a monster of this organization (a leader or an elite)."""
    return organization in solo_source_organizations()


def solo_sources(monsters: Iterable[Monster]) -> tuple[Monster, ...]:
    """The monsters among `monsters` that "Instant Solo Creature" adapts, in order and each once: the leaders and
    elites that are not an instant solo already (a solo cannot be adapted twice, and the rest not at all).

    Why: the solo page offers a Director's whole monsters (an encounter's entries, the builder's monster) for
    `compare_solos`, and offers only those it accepts.
    """
    kept: list[Monster] = []
    for monster in monsters:
        monster = require_monster(monster)
        if can_become_solo(monster.organization) and not is_instant_solo(monster) and monster not in kept:
            kept.append(monster)
    return tuple(kept)


def _has_trait(traits: Iterable[Trait], name: str) -> bool:
    wanted = name.strip().casefold()
    return any(t.name.strip().casefold() == wanted for t in traits)


def is_instant_solo(monster: Monster) -> bool:
    """True for a leader or elite made an instant solo: it has the Solo Turns trait AND its EV and Stamina
    are the formulas' × 3 and × 2.5, or, for a whole monster whose own numbers were adapted (a published or
    edited stat block), it has the Solo Action Malice feature too and its EV and Stamina are not the formulas'
    for a leader or elite.

    Checking the numbers too keeps the title honest: a leader given a Solo Turns trait by hand, or one
    rebuilt from its inputs (as a library load does), shows its own numbers and is not called an instant
    solo; `instant_solo` adapts it (again).
    """
    monster = require_monster(monster)
    rule = feature_book().instant_solo
    if monster.organization not in rule.from_organizations:
        return False
    if not _has_trait(monster.traits, rule.traits[0].name):
        return False
    base = _base_steps(monster)
    formulas = (base["EV"].value, base["Stamina"].value)
    numbers = (monster.ev, monster.stamina)
    if numbers == (_times(formulas[0], rule.ev_multiplier), _times(formulas[1], rule.stamina_multiplier)):
        return True
    return _has_trait(monster.malice_features, rule.malice_feature.name) and numbers != formulas


def is_solo(monster: Monster) -> bool:
    """True for a solo however it was made: built as a solo, or a leader or elite made an instant solo.

    Encounter building asks this wherever the rules speak of solos (the quick method's six slots, the solo
    level limit, initiative groups): "Instant Solo Creature" makes a creature a solo in all but its
    organization's other numbers.
    """
    monster = require_monster(monster)
    return monster.organization == "solo" or is_instant_solo(monster)


def _check_source(value: object) -> Monster:
    monster = require_monster(value)
    sources = solo_source_organizations()
    accepts = "a " + " or an ".join(sources) + " monster"
    if monster.organization not in sources:
        if monster.organization == "solo":
            reason = f"a solo is already a solo; \"{SECTION}\" adapts a leader or an elite"
        else:
            reason = f"\"{SECTION}\" adapts only leaders and elites, not a {monster.organization}"
        raise InvalidInput("organization", monster.organization, accepts, reason)
    if is_instant_solo(monster):
        raise InvalidInput(
            "monster",
            monster.name or f"level {monster.level} {monster.organization}",
            accepts + " that is not already an instant solo",
            "it already has the Solo Turns trait",
        )
    return monster


def _times(value: int, multiplier: Any) -> int:
    """⌈value × multiplier⌉ in exact arithmetic (the multiplier is a Decimal read from the data file)."""
    return math.ceil(value * Fraction(multiplier))


def instant_solo(monster: Monster) -> Monster:
    """A NEW monster: `monster` (a leader or an elite) adapted into a solo; `monster` itself is untouched.

    EV × 3 and Stamina × 2.5, each rounded up; gains Solo Turns, End Effect (unless it has a trait of
    that name) and the Solo Action Malice feature, with the book's text (none added twice). Everything else is kept.
    Anything other than a leader or an elite, or a monster that is already an instant solo, is refused
    with `InvalidInput`.
    """
    monster = _check_source(monster)
    rule = feature_book().instant_solo
    traits = list(monster.traits)
    for trait in rule.traits:
        # End Effect only "if they don't already have it"; Solo Turns is not added twice either (a monster
        # may carry it already, e.g. one rebuilt from a library file)
        if not _has_trait(traits, trait.name):
            traits.append(Trait.from_book(trait))
    features = list(monster.malice_features)
    if not _has_trait(features, rule.malice_feature.name):
        features.append(Trait.from_book(rule.malice_feature))
    return monster.model_copy(
        update={
            "ev": _times(monster.ev, rule.ev_multiplier),
            "stamina": _times(monster.stamina, rule.stamina_multiplier),
            "traits": tuple(traits),
            "malice_features": tuple(features),
        }
    )


def without_instant_solo(monster: Monster, ruleset: Ruleset | None = None) -> Monster:
    """The leader or elite an instant solo was made from: its own traits and Malice features without those
    `instant_solo` added, and its EV and Stamina before × 3 and × 2.5 (so applying `instant_solo` again gives
    the same monster back). A monster that is not an instant solo is returned as it is.

    The numbers before are found from the solo's own (`_before_times`): a published stat block made a solo gets
    its printed EV and Stamina back, not the formulas'. Only numbers no whole number could have given (an
    instant solo's EV or Stamina typed over by hand) fall back to the formulas' for its inputs.
    """
    monster = require_monster(monster)
    if not is_instant_solo(monster):
        return monster
    rule = feature_book().instant_solo
    bare = build_monster(monster.level, monster.organization, monster.role, monster.extra_stamina,
                         monster.targets, ruleset or monster.rules)
    added = instant_solo(bare)
    ev = _before_times(monster.ev, rule.ev_multiplier)
    stamina = _before_times(monster.stamina, rule.stamina_multiplier)
    return monster.model_copy(
        update={
            "ev": bare.ev if ev is None else ev,
            "stamina": bare.stamina if stamina is None else stamina,
            "traits": tuple(t for t in monster.traits if t not in added.traits),
            "malice_features": tuple(f for f in monster.malice_features if f not in added.malice_features),
        }
    )


def _before_times(value: int, multiplier: Any) -> int | None:
    """The whole number `_times` takes to `value` with this multiplier (the largest, should several), or None.

    ⌈x × m⌉ = value holds for the x with value - 1 < x × m <= value: the largest whole one is ⌊value / m⌋.
    """
    before = math.floor(value / Fraction(multiplier))
    return before if before > 0 and _times(before, multiplier) == value else None


def restore_instant_solo(monster: Monster, saved_ev: int, saved_stamina: int) -> Monster:
    """`monster`, rebuilt from its saved inputs, made the instant solo it was saved as (else returned as is).

    The homebrew library calls this on every load with the EV and Stamina the file was saved with. A leader
    or an elite is an instant solo again when it carries the Solo Turns trait AND the Solo Action Malice
    feature (both added only by `instant_solo`) and was saved with an EV or Stamina other than the
    formulas' for its inputs (a leader given both by hand keeps its own numbers). Its numbers are the
    current ruleset's × 3 and × 2.5; no trait or feature is added twice.
    """
    monster = require_monster(monster)
    for field, value in (("saved_ev", saved_ev), ("saved_stamina", saved_stamina)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(field, value, "the whole number saved in the library file")
    rule = feature_book().instant_solo
    if (
        monster.organization not in rule.from_organizations
        or is_instant_solo(monster)
        or not _has_trait(monster.traits, rule.traits[0].name)
        or not _has_trait(monster.malice_features, rule.malice_feature.name)
        or (saved_ev, saved_stamina) == (monster.ev, monster.stamina)
    ):
        return monster
    return instant_solo(monster)


def _base_steps(monster: Monster) -> dict[str, Step]:
    return {s.quantity: s for s in explain(monster)}


def _multiplied(org: str, base: Step, multiplier: Any, note: str = "") -> Step:
    """The instant solo's step for one number: the leader's or elite's `base` step × `multiplier`, rounded up."""
    times = _number_text(multiplier)
    return Step(
        quantity=base.quantity,
        formula=f"⌈{org} {base.quantity} × {times}⌉",
        working=f"⌈{base.value} × {times}⌉",
        value=_times(base.value, multiplier),
        section=SECTION,
        reading=f"the {org}'s {base} ({base.section}){note}",
    )


def explain_instant_solo(monster: Monster) -> tuple[Step, ...]:
    """The working of an instant solo's numbers: its EV and Stamina from the leader's or elite's.

    Takes the instant solo (or the leader or elite it comes from: the steps are the same). The other
    numbers' steps are the formulas' own (`explain`), unchanged.
    """
    monster = require_monster(monster)
    if not is_instant_solo(monster):
        _check_source(monster)
    rule = feature_book().instant_solo
    base = _base_steps(monster)
    org = monster.organization
    steps = [
        _multiplied(org, base["EV"], rule.ev_multiplier),
        _multiplied(org, base["Stamina"], rule.stamina_multiplier, "; rounded up exactly"),
    ]
    rest = [s for s in explain(monster) if s.quantity not in ("EV", "Stamina")]
    return tuple(steps + rest)


# ---------------------------------------------------------------- instant solo beside a built solo


class ComparisonRow(BaseModel):
    """One number of the instant solo beside the built solo's, and why they differ, in plain words."""

    model_config = ConfigDict(frozen=True)
    quantity: str
    instant: int
    built: int
    why: str

    @property
    def difference(self) -> int:
        """built − instant: positive when the formula-built solo has more."""
        return self.built - self.instant


class SoloComparison(BaseModel):
    """An instant solo and the solo the formulas build at the same level, number by number."""

    model_config = ConfigDict(frozen=True)
    source: Monster
    instant: Monster
    built: Monster
    rows: tuple[ComparisonRow, ...]

    @property
    def notes(self) -> tuple[str, ...]:
        """The plain-words differences, one per number that differs (or one line saying none do)."""
        different = [r.why for r in self.rows if r.difference]
        return tuple(different) or ("The instant solo and the built solo have the same numbers.",)


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _spaced(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"− {-value}"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _compare_words(quantity: str, instant: int, built: int, cause: str) -> str:
    if instant == built:
        return f"{quantity}: both {instant}. {cause}"
    more = "built solo" if built > instant else "instant solo"
    gap = abs(built - instant)
    return f"{quantity}: the {more} has {gap} more ({max(built, instant)} against {min(built, instant)}). {cause}"


def _kind(monster: Monster) -> str:
    return f"{monster.organization} {monster.role}" if monster.role else monster.organization


def _departure(quantity: str, own: int, formulas: int, instant: int, kind: str, multiplier: Any) -> str:
    """The words for a whole monster's own number that is not the formulas' (a printed or edited stat block):
    the instant solo multiplies its own; "" for a number the formulas give."""
    if own == formulas:
        return ""
    return (f" This {kind}'s own {quantity} is {own}, not the formulas' {formulas}: the instant solo's is "
            f"⌈{own} × {_number_text(multiplier)}⌉ = {instant}.")


def _rows(source: Monster, instant: Monster, built: Monster, rules: Ruleset) -> tuple[ComparisonRow, ...]:
    rule = feature_book().instant_solo
    org = rules.organizations[source.organization]
    solo = rules.organizations["solo"]
    kind = _kind(source)
    ev_mult = Fraction(org.ev_modifier) * Fraction(rule.ev_multiplier)
    st_mult = Fraction(org.stamina_modifier) * Fraction(rule.stamina_multiplier)
    role_st = org.role_stamina_modifier + (rules.roles[source.role].stamina_modifier if source.role else 0)
    rows: list[ComparisonRow] = []
    formulas = _base_steps(source)

    ev_cause = (
        f"The {kind}'s EV modifier ×{_number_text(org.ev_modifier)} times {_number_text(rule.ev_multiplier)} "
        f"is ×{_number_text(ev_mult)}; a solo's is ×{_number_text(solo.ev_modifier)}"
        + (", the same." if ev_mult == Fraction(solo.ev_modifier) else ".")
    )
    ev_cause += _departure("EV", source.ev, formulas["EV"].value, instant.ev, kind, rule.ev_multiplier)
    rows.append(ComparisonRow(quantity="EV", instant=instant.ev, built=built.ev,
                              why=_compare_words("EV", instant.ev, built.ev, ev_cause)))

    st_cause = (
        f"The {kind} starts from 10 × level {_spaced(role_st)} and is multiplied by "
        f"{_number_text(org.stamina_modifier)} × {_number_text(rule.stamina_multiplier)} = "
        f"{_number_text(st_mult)}; a solo starts from 10 × level {_spaced(solo.role_stamina_modifier)} "
        f"and is multiplied by {_number_text(solo.stamina_modifier)}."
    )
    own_stamina = _departure("Stamina", source.stamina, formulas["Stamina"].value, instant.stamina, kind,
                             rule.stamina_multiplier)
    if own_stamina:
        st_cause += own_stamina
    elif st_mult == Fraction(solo.stamina_modifier) and role_st != solo.role_stamina_modifier:
        gap = abs(solo.role_stamina_modifier - role_st)
        st_cause += (
            f" The gap of {gap} before the multiplier is {_number_text(gap * st_mult)} after it, "
            "at every level."
        )
    if source.extra_stamina:
        st_cause += (
            " The optional extra Stamina is added once to the built solo, after its multiplier; the "
            f"instant solo multiplies it by {_number_text(rule.stamina_multiplier)} with the rest."
        )
    rows.append(ComparisonRow(quantity="Stamina", instant=instant.stamina, built=built.stamina,
                              why=_compare_words("Stamina", instant.stamina, built.stamina, st_cause)))

    if source.damage_modifier == built.damage_modifier:
        dmg_cause = f"Both use the damage modifier {_signed(built.damage_modifier)}."
    else:
        dmg_cause = (
            f"The instant solo keeps the {kind}'s damage modifier {_signed(source.damage_modifier)}; "
            f"a solo's is {_signed(built.damage_modifier)}."
        )
    chr_cause = (
        f"{_article(source.organization).capitalize()} {source.organization} gets "
        f"{_signed(org.characteristic_bonus)} to its highest characteristic, a solo "
        f"{_signed(solo.characteristic_bonus)}; it is added to every strike and sets the potencies."
    )
    rows.append(ComparisonRow(
        quantity="Highest characteristic", instant=instant.highest_characteristic,
        built=built.highest_characteristic,
        why=_compare_words("Highest characteristic", instant.highest_characteristic,
                           built.highest_characteristic, chr_cause)))
    rows.append(ComparisonRow(quantity="Free strike", instant=instant.free_strike, built=built.free_strike,
                              why=_compare_words("Free strike", instant.free_strike, built.free_strike,
                                                 dmg_cause)))
    for tier, (a, b) in enumerate(zip(instant.damage.as_tuple(), built.damage.as_tuple(), strict=True), 1):
        label = f"Damage, tier {tier}"
        cause = dmg_cause + (
            f" The strike adds the highest characteristic: {instant.highest_characteristic} against "
            f"{built.highest_characteristic}."
            if instant.highest_characteristic != built.highest_characteristic else ""
        )
        rows.append(ComparisonRow(quantity=label, instant=a, built=b, why=_compare_words(label, a, b, cause)))
    return tuple(rows)


def compare_solos(monster: Monster) -> SoloComparison:
    """`monster` (a leader or an elite) as an instant solo, beside the solo the formulas build at its level.

    The built solo uses the same ruleset, the same extra-Stamina choice and the same target count for its
    signature strike (so a damage difference is never just a different number of targets).
    """
    source = _check_source(monster)
    rules = source.rules
    instant = instant_solo(source)
    built = build_monster(source.level, "solo", extra_stamina=source.extra_stamina, targets=source.targets,
                          ruleset=rules)
    return SoloComparison(source=source, instant=instant, built=built,
                          rows=_rows(source, instant, built, rules))


def solo_drift(
    organization: str,
    role: str | None = None,
    levels: Iterable[int] = range(1, 11),
    extra_stamina: bool = False,
    ruleset: Ruleset | None = None,
) -> tuple[SoloComparison, ...]:
    """`compare_solos` at every level: where the instant solo and the built solo drift apart."""
    rules = ruleset or core_ruleset()
    levels = list(levels)
    if not levels:
        raise InvalidInput("levels", levels, "one or more whole numbers from 1 upwards")
    return tuple(
        compare_solos(build_monster(level, organization, role, extra_stamina=extra_stamina, ruleset=rules))
        for level in levels
    )
