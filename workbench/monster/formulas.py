"""A monster's numbers from its level, organization and role: "Adjusting Monster Levels", as pure functions.

Each number comes with the working that produced it (a `Step`), so a notebook can show
"EV = ⌈(2 × 5 + 4) × 2⌉ = 28" from the same code path that computed 28, never a pasted copy.
All arithmetic is exact (`fractions.Fraction`); see data/rules/RULES-READINGS.md for the readings used.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from workbench.arguments import checked
from workbench.errors import InvalidInput
from workbench.model import Monster, Step, Tiers
from workbench.monster.signature import with_signature
from workbench.rules.limits import MAX_LEVEL, MAX_TARGETS, true_or_false, whole
from workbench.rules.ruleset import Organization, Ruleset, core_ruleset

__all__ = [
    "build_monster",
    "explain",
    "ability_damage",
    "covered_targets",
    "target_choices",
]

TIERS = (1, 2, 3)


# ---------------------------------------------------------------- input checks


def _check_level(level: Any) -> int:
    return whole("level", level, 1, MAX_LEVEL)


def _check_organization(organization: Any, rules: Ruleset) -> tuple[str, Organization]:
    accepts = "one of " + ", ".join(rules.organizations)
    key = organization.strip().lower() if isinstance(organization, str) else None
    if key not in rules.organizations:
        raise InvalidInput("organization", organization, accepts)
    return key, rules.organizations[key]


def _checked_stat_block(
    ruleset: Any, level: Any, organization: Any, role: Any
) -> tuple[Ruleset, int, str, Organization, str | None]:
    """The ruleset (the core one for None), level, organization (with its table row) and role every formula
    starts from, each checked; the first bad one raises `InvalidInput` naming it."""
    rules = ruleset or core_ruleset()
    if not isinstance(rules, Ruleset):
        raise InvalidInput("ruleset", ruleset, "a Ruleset (core_ruleset() or load_ruleset(path)), or None")
    level = _check_level(level)
    organization, org = _check_organization(organization, rules)
    return rules, level, organization, org, _check_role(role, organization, org, rules)


def _check_role(role: Any, organization: str, org: Organization, rules: Ruleset) -> str | None:
    roles = ", ".join(rules.roles)
    if not org.needs_role:
        if role is None or role == "":
            return None
        raise InvalidInput(
            "role", role, "no role for a " + organization, f"a {organization} has no creature role"
        )
    key = role.strip().lower() if isinstance(role, str) else None
    if key is None or key == "":
        raise InvalidInput("role", role, "one of " + roles, f"a {organization} needs a role")
    if key not in rules.roles:
        raise InvalidInput("role", role, "one of " + roles)
    return key


def covered_targets(organization: str, rules: Ruleset | None = None) -> tuple[int, int | None]:
    """The smallest and largest target counts the rules cover for an organization (None: no upper bound).

    The expected count is 1, or 2 for elite, leader and solo; the rules adjust for one fewer, one more,
    and two or more extra targets. Fewer than one below expected (or fewer than 1) is not covered.
    """
    rules = rules or core_ruleset()
    _, org = _check_organization(organization, rules)
    lowest = max(1, org.expected_targets + rules.target_factors[0].offset)
    return lowest, None


def target_choices(organization: str, rules: Ruleset | None = None, beyond_expected: int = 3) -> tuple[int, ...]:
    """The target counts worth offering for an organization: from the lowest the rules cover to
    `beyond_expected` above its expected count (the rules set no upper bound; "two or more extra targets"
    is one step, so a few above expected show every step)."""
    rules = rules or core_ruleset()
    _, org = _check_organization(organization, rules)
    lowest, _ = covered_targets(organization, rules)
    return tuple(range(lowest, org.expected_targets + beyond_expected + 1))


def _check_targets(targets: Any, organization: str, org: Organization, rules: Ruleset) -> int:
    if targets is None:
        return org.expected_targets
    lowest, _ = covered_targets(organization, rules)
    accepts = (
        f"a whole number of targets from {lowest} to {MAX_TARGETS} for a {organization} "
        f"(expected {org.expected_targets}), or None for the expected count"
    )
    return whole("targets", targets, lowest, MAX_TARGETS, accepts)


# ---------------------------------------------------------------- formulas


def _num(value: Decimal | Fraction | int) -> str:
    """A multiplier as the rules print it: 0.125, 2, 1.1."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    text = format(Decimal(value).normalize(), "f")
    return text


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"− {-value}"


def _ev(level: int, organization: str, org: Organization, rules: Ruleset) -> Step:
    f = rules.formulas
    value = math.ceil((f.ev_per_level * level + f.ev_base) * Fraction(org.ev_modifier))
    reading = (
        f"a minion's EV is the EV of {f.minions_per_ev} minions together"
        if organization == "minion"
        else None
    )
    return Step(
        quantity="EV",
        formula=f"⌈({f.ev_per_level} × level + {f.ev_base}) × organization modifier⌉",
        working=f"⌈({f.ev_per_level} × {level} + {f.ev_base}) × {_num(org.ev_modifier)}⌉",
        value=value,
        section="Encounter Value and Stamina",
        reading=reading,
    )


def _role_stamina(role: str | None, org: Organization, rules: Ruleset) -> int:
    return org.role_stamina_modifier + (rules.roles[role].stamina_modifier if role else 0)


def _stamina(
    level: int, role: str | None, org: Organization, extra: bool, rules: Ruleset
) -> Step:
    f = rules.formulas
    role_mod = _role_stamina(role, org, rules)
    value = math.ceil((f.stamina_per_level * level + role_mod) * Fraction(org.stamina_modifier))
    formula = f"⌈({f.stamina_per_level} × level + role modifier) × organization Stamina modifier⌉"
    working = f"⌈({f.stamina_per_level} × {level} {_signed(role_mod)}) × {_num(org.stamina_modifier)}⌉"
    reading = (
        "an elite uses its role's Stamina modifier (the elite row adds +0)"
        if role and org.role_damage_modifier
        else None
    )
    if extra:
        value += f.extra_stamina_per_level * level + f.extra_stamina_base
        formula += f" + ({f.extra_stamina_per_level} × level + {f.extra_stamina_base})"
        working += f" + ({f.extra_stamina_per_level} × {level} + {f.extra_stamina_base})"
        reading = "optional extra Stamina is added after the organization multiplier"
    return Step(
        quantity="Stamina",
        formula=formula,
        working=working,
        value=value,
        section="Encounter Value and Stamina",
        reading=reading,
    )


def _damage_modifier(role: str | None, org: Organization, rules: Ruleset) -> int:
    return org.role_damage_modifier + (rules.roles[role].damage_modifier if role else 0)


def _highest_characteristic(level: int, org: Organization, rules: Ruleset) -> Step:
    c = rules.characteristic
    echelon = rules.echelon_of(level)
    raw = c.base + echelon + org.characteristic_bonus
    bonus = f" + {org.characteristic_bonus}" if org.characteristic_bonus else ""
    bonus_formula = " + leader/solo bonus" if org.characteristic_bonus else ""
    return Step(
        quantity="Highest characteristic",
        formula=f"min({c.base} + echelon{bonus_formula}, {c.maximum})",
        working=f"min({c.base} + {echelon}{bonus}, {c.maximum})",
        value=min(raw, c.maximum),
        section="Characteristics and Abilities",
    )


def _potency(tier: int, characteristic: int, level: int, org: Organization, rules: Ruleset) -> Step:
    """Potency at `tier`: "based on their highest characteristic, minus 1 for each tier below tier 3", and
    for leaders and solos "increase their potency values at all tiers by 1 (to a maximum of 6)".

    The ruleset's `leader_potency_increase` says how that +1 is read: "own" (the core) bases the potencies on
    the characteristic before the leader/solo +1 and adds the +1 to them, so from level 10 on (where the
    characteristic is already at +5) a leader's potencies are 4/5/6, as the published level 10+ leaders and
    solos print; "shared" takes it as the same +1 the characteristic got (3/4/5 there). Below level 10 the
    two agree.
    """
    below = 3 - tier
    cap = rules.characteristic.potency_maximum
    bonus = org.characteristic_bonus
    if not bonus or rules.options.leader_potency_increase == "shared":
        return Step(
            quantity=f"Potency (tier {tier})",
            formula=f"min(highest characteristic − {below}, {cap})",
            working=f"min({characteristic} − {below}, {cap})",
            value=min(characteristic - below, cap),
            section="Characteristics and Abilities",
            reading=(
                "the leader/solo +1 to potencies is the same +1 their highest characteristic already got "
                "(ruleset variant)"
                if bonus
                else None
            ),
        )
    c = rules.characteristic
    based_on = min(c.base + rules.echelon_of(level), c.maximum)
    return Step(
        quantity=f"Potency (tier {tier})",
        formula=f"min(characteristic before the leader/solo bonus − {below} + {bonus}, {cap})",
        working=f"min({based_on} − {below} + {bonus}, {cap})",
        value=min(based_on - below + bonus, cap),
        section="Characteristics and Abilities",
        reading=(
            "the leader/solo +1 to potencies is an increase of its own (to a maximum of 6), on the potencies "
            "of the characteristic before its +1: 4/5/6 from level 10, as the published leaders and solos "
            "of level 10 and up print"
        ),
    )


def _target_factor(targets: int, org: Organization, rules: Ruleset) -> Fraction:
    offset = targets - org.expected_targets
    chosen = [t for t in rules.target_factors if t.offset <= offset][-1]
    return Fraction(chosen.factor)


def _damage(
    level: int,
    organization: str,
    role: str | None,
    org: Organization,
    tier: int,
    targets: int,
    strike: bool,
    rules: Ruleset,
    *,
    with_characteristic: bool = True,
    quantity: str | None = None,
) -> Step:
    f = rules.formulas
    modifier = _damage_modifier(role, org, rules)
    tier_mod = rules.tier_modifier(tier)
    factor = _target_factor(targets, org, rules)
    raw = (f.damage_base + level + modifier) * tier_mod * factor
    parts = [f"({f.damage_base} + {level} + {modifier})", _num(tier_mod)]
    formula_parts = [f"({f.damage_base} + level + damage modifier)", "tier modifier"]
    if factor != 1:
        parts.append(_num(factor))
        formula_parts.append("target factor")
    inner = " × ".join(parts)
    inner_formula = " × ".join(formula_parts)
    down = False
    if org.halves_damage:
        raw /= 2
        inner += " ÷ 2"
        inner_formula += " ÷ 2"
        down = rules.options.halved_damage_rounding == "down"
    value = math.floor(raw) if down else math.ceil(raw)
    brackets = ("⌊", "⌋") if down else ("⌈", "⌉")
    working = f"{brackets[0]}{inner}{brackets[1]}"
    formula = f"{brackets[0]}{inner_formula}{brackets[1]}"
    readings = []
    if role and org.role_damage_modifier:
        readings.append(
            f"damage modifier {modifier} = {role}'s {_signed(rules.roles[role].damage_modifier)}"
            f" and {organization}'s {_signed(org.role_damage_modifier)}, stacked"
        )
    if down:
        readings.append("halved horde/minion damage rounded down (ruleset variant)")
    adds = strike and with_characteristic and (
        organization != "minion" or rules.options.minion_strike_adds_characteristic
    )
    if adds:
        characteristic = _highest_characteristic(level, org, rules).value
        value += characteristic
        working += f" + {characteristic}"
        formula += " + highest characteristic"
    elif strike and with_characteristic:
        readings.append("minion strikes do not add the characteristic (ruleset variant)")
    if factor != 1:
        readings.append(
            f"{targets} target(s) where {org.expected_targets} expected: × {_num(factor)}"
        )
    return Step(
        quantity=quantity or f"Damage (tier {tier}{', strike' if strike else ''})",
        formula=formula,
        working=working,
        value=value,
        section="Damage and Power Roll Tiers",
        reading="; ".join(readings) or None,
    )


def ability_damage(
    level: int,
    organization: str,
    role: str | None = None,
    targets: int | None = None,
    strike: bool = True,
    ruleset: Ruleset | None = None,
) -> Tiers:
    """Damage per tier of an ability: strike or not, at any target count the rules cover."""
    rules, level, organization, org, role = _checked_stat_block(ruleset, level, organization, role)
    targets = _check_targets(targets, organization, org, rules)
    strike = true_or_false("strike", strike)
    values = [
        _damage(level, organization, role, org, t, targets, strike, rules).value for t in TIERS
    ]
    return Tiers(tier1=values[0], tier2=values[1], tier3=values[2])


def _free_strike(level: int, organization: str, role: str | None, org: Organization, rules: Ruleset) -> Step:
    step = _damage(
        level, organization, role, org, 1, org.expected_targets, False, rules, quantity="Free strike"
    )
    reading = "free strike = tier 1 damage at the expected target count, without the characteristic"
    return step.model_copy(update={"reading": reading})


class _Working(NamedTuple):
    """Every step of a monster's numbers, in stat block order: one Step per number, three per tiered one."""

    ev: Step
    stamina: Step
    highest_characteristic: Step
    potency: tuple[Step, Step, Step]
    free_strike: Step
    damage: tuple[Step, Step, Step]
    non_strike_damage: tuple[Step, Step, Step]

    def flat(self) -> tuple[Step, ...]:
        out: list[Step] = []
        for value in self:
            out.extend(value if isinstance(value, tuple) else (value,))
        return tuple(out)


def _three(make: Callable[[int], Step]) -> tuple[Step, Step, Step]:
    return make(1), make(2), make(3)


def _steps(
    level: int, organization: str, role: str | None, extra: bool, targets: int, rules: Ruleset
) -> _Working:
    """The working of a monster's numbers (its inputs checked by the caller)."""
    if rules is core_ruleset():
        return _core_steps(level, organization, role, extra, targets)
    return _worked(level, organization, role, extra, targets, rules)


@functools.lru_cache(maxsize=4096)
def _core_steps(level: int, organization: str, role: str | None, extra: bool, targets: int) -> _Working:
    """The core rules' working, kept: it is a value of its inputs (the core ruleset is loaded once and frozen,
    the steps are frozen), and pages, suggestions, libraries and calibrations ask for the same monsters over
    and over."""
    return _worked(level, organization, role, extra, targets, core_ruleset())


def _worked(
    level: int, organization: str, role: str | None, extra: bool, targets: int, rules: Ruleset
) -> _Working:
    org = rules.organizations[organization]
    characteristic = _highest_characteristic(level, org, rules)
    return _Working(
        ev=_ev(level, organization, org, rules),
        stamina=_stamina(level, role, org, extra, rules),
        highest_characteristic=characteristic,
        potency=_three(lambda t: _potency(t, characteristic.value, level, org, rules)),
        free_strike=_free_strike(level, organization, role, org, rules),
        damage=_three(lambda t: _damage(level, organization, role, org, t, targets, True, rules)),
        non_strike_damage=_three(lambda t: _damage(level, organization, role, org, t, targets, False, rules)),
    )


def _tiers(steps: tuple[Step, Step, Step]) -> Tiers:
    return Tiers(tier1=steps[0].value, tier2=steps[1].value, tier3=steps[2].value)


def build_monster(
    level: int,
    organization: str,
    role: str | None = None,
    extra_stamina: bool = False,
    targets: int | None = None,
    ruleset: Ruleset | None = None,
    *,
    characteristic: str = "might",
    strike: bool = True,
) -> Monster:
    """Every number the rules give a monster of this level, organization and role, and the stat block
    they make: `characteristic` (Might unless chosen) at the highest value, the signature ability (a strike
    unless `strike=False`) with its tiers' damage and potencies (`workbench.monster.signature`).

    Bad input raises `InvalidInput` naming the field and what it accepts.
    """
    rules, level, organization, org, role = _checked_stat_block(ruleset, level, organization, role)
    extra_stamina = true_or_false("extra_stamina", extra_stamina)
    if extra_stamina and not rules.takes_extra_stamina(organization):
        raise InvalidInput(
            "extra_stamina", True, "False for a minion", "extra Stamina is for non-minion monsters"
        )
    targets = _check_targets(targets, organization, org, rules)
    steps = _steps(level, organization, role, extra_stamina, targets, rules)
    monster = Monster(
        level=level,
        organization=organization,
        role=role,
        extra_stamina=extra_stamina,
        targets=targets,
        expected_targets=org.expected_targets,
        echelon=rules.echelon_of(level),
        ev=steps.ev.value,
        stamina=steps.stamina.value,
        free_strike=steps.free_strike.value,
        highest_characteristic=steps.highest_characteristic.value,
        damage_modifier=_damage_modifier(role, org, rules),
        damage=_tiers(steps.damage),
        non_strike_damage=_tiers(steps.non_strike_damage),
        potency=_tiers(steps.potency),
        ruleset=rules.name,
    )
    monster._rules = rules
    return with_signature(monster, characteristic, strike)


@checked
def explain(monster: Monster) -> tuple[Step, ...]:
    """The working of every number of `monster`, in stat block order, from the code that computed it."""
    steps = _steps(
        monster.level,
        monster.organization,
        monster.role,
        monster.extra_stamina,
        monster.targets,
        monster.rules,
    )
    return steps.flat()
