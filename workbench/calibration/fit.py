"""How close the formulas of "Adjusting Monster Levels" come to the book's own monsters, and where they miss.

The rules say the formulas "get close to the appropriate EV for a monster" and that "at higher levels, these
values can lead to damage numbers a few points higher than those seen in this book". This module measures
that: for every published stat block it builds the monster the formulas give for the same level,
organization and role, and sets each predicted number beside the printed one.

- Compared: EV (a minion's as printed, the EV of four), Stamina, free strike, highest characteristic, and
  the signature ability's damage per tier at the target count read from its target text
  (`targets_from_text`), adding the highest characteristic only when the ability has the Strike keyword.
- Residual = predicted − printed: positive means the formula gives more than the book.
- Fit figures (`Fit`) are exact `Fraction`s; floats appear only in `Fit.as_dict()`, for output.
- Rule variants (`Variant`): two options of a copy of the ruleset (the rounding of halved horde and minion
  damage; whether minion strikes add the characteristic) and the builder's extra-Stamina switch, which the
  rules leave to each monster ("If you want your non-minion monster to have additional Stamina"), applied
  to every non-minion. The core ruleset's defaults never change.
- `closest_published` finds the published monsters nearest to one being built.

Readings, shown beside the numbers they affect: an ability whose target text is not a count ("Each enemy in
the area") is compared at the organization's expected target count; "per minion" is one target per minion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import TypedDict

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.formats.bestiary import PublishedMonster
from workbench.model import Monster, targets_from_text
from workbench.monster.formulas import ability_damage, build_monster
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = [
    "DAMAGE_QUANTITIES",
    "HEADLINE_QUANTITIES",
    "QUANTITIES",
    "QUANTITY_LABELS",
    "Comparison",
    "Fit",
    "MonsterCalibration",
    "Variant",
    "VariantFit",
    "best_variant",
    "calibrate",
    "calibrate_monster",
    "closest_published",
    "compare_variants",
    "distance",
    "fit",
    "fit_report",
    "targets_from_text",
    "variants",
]

HEADLINE_QUANTITIES = ("ev", "stamina", "free_strike", "highest_characteristic")
DAMAGE_QUANTITIES = ("damage_tier1", "damage_tier2", "damage_tier3")
QUANTITIES = HEADLINE_QUANTITIES + DAMAGE_QUANTITIES
# What each compared number is called where people read it (reports, tables, charts).
QUANTITY_LABELS = {
    "ev": "EV",
    "stamina": "Stamina",
    "free_strike": "Free strike",
    "highest_characteristic": "Highest characteristic",
    "damage_tier1": "Signature damage, tier 1",
    "damage_tier2": "Signature damage, tier 2",
    "damage_tier3": "Signature damage, tier 3",
}

class _Who(TypedDict):
    """The fields of a Comparison naming the published monster it is about."""

    name: str
    level: int
    organization: str
    role: str | None


class Comparison(BaseModel):
    """One number of one published monster: the formula's prediction beside the printed value."""

    model_config = ConfigDict(frozen=True)
    name: str
    level: int
    organization: str
    role: str | None
    quantity: str
    predicted: int
    printed: int
    note: str | None = None

    @property
    def residual(self) -> int:
        """predicted − printed: positive when the formula gives more than the book."""
        return self.predicted - self.printed

    @property
    def group_role(self) -> str:
        """The role, or the organization for leaders and solos (which have none)."""
        return self.role or self.organization


class MonsterCalibration(BaseModel):
    """A published monster, the monster the formulas build for it, and their comparisons."""

    model_config = ConfigDict(frozen=True)
    published: PublishedMonster
    predicted: Monster
    targets: int | None
    targets_note: str | None
    comparisons: tuple[Comparison, ...]

    def comparison(self, quantity: str) -> Comparison | None:
        return next((c for c in self.comparisons if c.quantity == quantity), None)


def _signature_targets(published: PublishedMonster, rules: Ruleset) -> tuple[int | None, str | None]:
    signature = published.signature
    if signature is None:
        return None, None
    counted = targets_from_text(signature.target)
    expected = rules.organizations[published.organization].expected_targets
    if counted is None:
        return expected, (
            f"target text {signature.target!r} is not a count: compared at the expected {expected}"
        )
    return counted, None


def calibrate_monster(
    published: PublishedMonster, ruleset: Ruleset | None = None, extra_stamina: bool = False
) -> MonsterCalibration:
    """The formulas' numbers for one published monster's level, organization and role, beside the book's.

    `extra_stamina` adds the optional (3 × level + 3) to every non-minion (the rules offer it to
    non-minions only). Damage is compared only when the signature ability prints a damage amount per tier
    and its target count is one the rules cover.
    """
    rules = ruleset or core_ruleset()
    extra = extra_stamina and rules.takes_extra_stamina(published.organization)
    monster = build_monster(published.level, published.organization, published.role, extra, ruleset=rules)
    base = _Who(
        name=published.name,
        level=published.level,
        organization=published.organization,
        role=published.role,
    )
    ev_note = "EV of four minions, as printed" if published.organization == "minion" else None
    pairs: list[tuple[str, int, int, str | None]] = [
        ("ev", monster.ev, published.ev, ev_note),
        ("stamina", monster.stamina, published.stamina, "with extra Stamina" if extra else None),
        ("free_strike", monster.free_strike, published.free_strike, None),
        ("highest_characteristic", monster.highest_characteristic, published.highest_characteristic, None),
    ]
    targets, targets_note = _signature_targets(published, rules)
    signature = published.signature
    if signature is not None and signature.damage is not None and targets is not None:
        try:
            predicted = ability_damage(
                published.level, published.organization, published.role, targets, signature.is_strike, rules
            )
        except InvalidInput as exc:
            targets_note = f"{targets} target(s) is outside what the rules cover ({exc.accepts})"
        else:
            note = "; ".join(
                part
                for part in (
                    f"{signature.name}: {targets} target(s), {'strike' if signature.is_strike else 'not a strike'}",
                    targets_note,
                )
                if part
            )
            for tier, (guess, printed) in enumerate(zip(predicted.as_tuple(), signature.damage, strict=False), start=1):
                pairs.append((f"damage_tier{tier}", guess, printed, note))
    comparisons = tuple(
        Comparison(**base, quantity=q, predicted=p, printed=v, note=n) for q, p, v, n in pairs
    )
    return MonsterCalibration(
        published=published,
        predicted=monster,
        targets=targets,
        targets_note=targets_note,
        comparisons=comparisons,
    )


def calibrate(
    monsters: Iterable[PublishedMonster], ruleset: Ruleset | None = None, extra_stamina: bool = False
) -> tuple[MonsterCalibration, ...]:
    """`calibrate_monster` for every published monster, in the order given."""
    rules = ruleset or core_ruleset()
    return tuple(calibrate_monster(m, rules, extra_stamina) for m in monsters)


# ---------------------------------------------------------------- fit figures


def _median(values: Sequence[Fraction]) -> Fraction:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


@dataclass(frozen=True)
class Fit:
    """How well predictions match printed numbers, exactly: counts and `Fraction`s.

    `exact_rate` = exact matches / compared; `mean_abs_error` and `median_abs_error` of |predicted −
    printed|; `mean_residual` keeps the sign (positive: the formula runs high). None when nothing compared.
    """

    count: int
    exact: int
    exact_rate: Fraction | None
    mean_abs_error: Fraction | None
    median_abs_error: Fraction | None
    mean_residual: Fraction | None
    total_abs_error: int

    def as_dict(self) -> dict[str, float | int | None]:
        """The figures as JSON-ready numbers (floats only here, at the output)."""

        def out(value: Fraction | None) -> float | None:
            return None if value is None else float(value)

        return {
            "count": self.count,
            "exact_rate": out(self.exact_rate),
            "mean_abs_error": out(self.mean_abs_error),
            "median_abs_error": out(self.median_abs_error),
            "mean_residual": out(self.mean_residual),
        }


def fit(comparisons: Iterable[Comparison]) -> Fit:
    """Fit figures over any set of comparisons (one quantity, or several pooled)."""
    residuals = [c.residual for c in comparisons]
    if not residuals:
        return Fit(0, 0, None, None, None, None, 0)
    errors = [Fraction(abs(r)) for r in residuals]
    count = len(residuals)
    exact = sum(1 for r in residuals if r == 0)
    return Fit(
        count=count,
        exact=exact,
        exact_rate=Fraction(exact, count),
        mean_abs_error=sum(errors, Fraction(0)) / count,
        median_abs_error=_median(errors),
        mean_residual=Fraction(sum(residuals), count),
        total_abs_error=int(sum(errors)),
    )


_GROUPS: dict[str, Callable[[Comparison], str]] = {
    "all": lambda c: "all",
    "organization": lambda c: c.organization,
    "role": lambda c: c.group_role,
    "level": lambda c: str(c.level),
}


def _comparisons(results: Iterable[MonsterCalibration | Comparison]) -> list[Comparison]:
    flat: list[Comparison] = []
    for item in results:
        flat.extend(item.comparisons if isinstance(item, MonsterCalibration) else (item,))
    return flat


def fit_report(
    results: Iterable[MonsterCalibration | Comparison],
    by: str = "all",
    quantities: Sequence[str] = QUANTITIES,
) -> dict[str, dict[str, Fit]]:
    """Fit per group ("all", "organization", "role" — leaders and solos under their organization — or
    "level") and per quantity: {group: {quantity: Fit}}. Groups come in the core ruleset's table order
    (roles, then organizations), levels in rising order."""
    if by not in _GROUPS:
        raise InvalidInput("by", by, "one of " + ", ".join(_GROUPS))
    key = _GROUPS[by]
    grouped: dict[str, dict[str, list[Comparison]]] = {}
    for c in _comparisons(results):
        if c.quantity in quantities:
            grouped.setdefault(key(c), {q: [] for q in quantities})[c.quantity].append(c)
    rules = core_ruleset()
    rank = {name: i for i, name in enumerate([*rules.roles, *rules.organizations])}

    def order(group: str) -> tuple[int, int, str]:
        return (int(group) if group.isdigit() else 0, rank.get(group, len(rank)), group)

    return {group: {q: fit(cs) for q, cs in grouped[group].items()} for group in sorted(grouped, key=order)}


# ---------------------------------------------------------------- rule variants


class Variant(BaseModel):
    """One setting of the switches the rules leave room for; the first of `variants()` is as written.

    `ruleset()` carries the two rule options; `extra_stamina` is passed to the builder (`calibrate(...,
    extra_stamina=)`), as the rules make it a per-monster choice rather than a rule of the table.
    """

    model_config = ConfigDict(frozen=True)
    halved_damage_rounding: str = "up"
    minion_strike_adds_characteristic: bool = True
    extra_stamina: bool = False

    @property
    def label(self) -> str:
        return ", ".join(
            (
                f"halved damage rounded {self.halved_damage_rounding}",
                "minion strikes add the characteristic"
                if self.minion_strike_adds_characteristic
                else "minion strikes without the characteristic",
                "extra Stamina" if self.extra_stamina else "no extra Stamina",
            )
        )

    def ruleset(self, base: Ruleset | None = None) -> Ruleset:
        """`base` (the core ruleset by default) with these options; `base` itself when they already match."""
        base = base or core_ruleset()
        options = {
            "halved_damage_rounding": self.halved_damage_rounding,
            "minion_strike_adds_characteristic": self.minion_strike_adds_characteristic,
        }
        if all(getattr(base.options, k) == v for k, v in options.items()):
            return base
        return base.updated({"options": options})


def variants(base: Ruleset | None = None) -> tuple[Variant, ...]:
    """Every combination of the three switches, the base ruleset's own setting (as written) first."""
    base = base or core_ruleset()
    written = base.options.halved_damage_rounding
    rounding = (written, "down" if written == "up" else "up")
    minion = (base.options.minion_strike_adds_characteristic, not base.options.minion_strike_adds_characteristic)
    return tuple(
        Variant(halved_damage_rounding=r, minion_strike_adds_characteristic=m, extra_stamina=e)
        for r, m, e in product(rounding, minion, (False, True))
    )


@dataclass(frozen=True)
class VariantFit:
    """The fit of one variant: per quantity, and over every compared number pooled (`overall`)."""

    variant: Variant
    fits: Mapping[str, Fit]
    overall: Fit


def compare_variants(
    monsters: Iterable[PublishedMonster], base: Ruleset | None = None
) -> tuple[VariantFit, ...]:
    """The fit of every variant of `variants(base)`, in that order (as written first)."""
    base = base or core_ruleset()
    monsters = tuple(monsters)
    out = []
    for variant in variants(base):
        results = calibrate(monsters, variant.ruleset(base), variant.extra_stamina)
        comparisons = _comparisons(results)
        per = fit_report(comparisons).get("all", {q: fit(()) for q in QUANTITIES})
        out.append(VariantFit(variant=variant, fits=per, overall=fit(comparisons)))
    return tuple(out)


def best_variant(fits: Sequence[VariantFit]) -> VariantFit:
    """The variant whose pooled absolute error is smallest; ties go to more exact matches, then to the
    earlier variant (the as-written one comes first)."""
    if not fits:
        raise InvalidInput("fits", fits, "at least one VariantFit")
    return min(fits, key=lambda f: (f.overall.total_abs_error, -f.overall.exact))


# ---------------------------------------------------------------- closest published monsters


def distance(monster: Monster, published: PublishedMonster) -> Fraction:
    """How far a published monster is from one being built (0: same level, organization, role, numbers).

    4 for a different organization, 2 for a different role, 1 per level apart, plus the relative
    differences of Stamina and EV (|printed − built| / built). Exact, so ties are real ties.
    """
    score = Fraction(0)
    score += 4 if published.organization != monster.organization else 0
    score += 2 if published.role != monster.role else 0
    score += abs(published.level - monster.level)
    score += Fraction(abs(published.stamina - monster.stamina), max(monster.stamina, 1))
    score += Fraction(abs(published.ev - monster.ev), max(monster.ev, 1))
    return score


def closest_published(
    monster: Monster, published: Iterable[PublishedMonster], count: int = 3
) -> tuple[PublishedMonster, ...]:
    """The `count` published monsters nearest to `monster` by `distance` (ties by name)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InvalidInput("count", count, "a whole number from 0 upwards")
    ranked = sorted(published, key=lambda p: (distance(monster, p), p.name))
    return tuple(ranked[:count])
