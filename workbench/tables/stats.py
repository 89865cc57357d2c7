"""The whole grid of monster numbers as one DataFrame, for charts, sorting and comparison."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import pandas as pd

from workbench.monster.formulas import build_monster
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = ["stat_table", "combinations"]

COLUMNS = (
    "level", "organization", "role", "extra_stamina", "echelon", "ev", "stamina", "free_strike",
    "highest_characteristic", "damage_modifier", "expected_targets",
    "damage_tier1", "damage_tier2", "damage_tier3",
    "non_strike_tier1", "non_strike_tier2", "non_strike_tier3",
    "potency_tier1", "potency_tier2", "potency_tier3",
)


def combinations(rules: Ruleset) -> list[tuple[str, str | None]]:
    """Every valid (organization, role) pair of a ruleset, in table order."""
    pairs: list[tuple[str, str | None]] = []
    for organization, org in rules.organizations.items():
        pairs.extend((organization, role) for role in (rules.roles if org.needs_role else [None]))
    return pairs


@lru_cache(maxsize=8)
def _rows(
    levels: tuple[int, ...], extra_stamina: bool, rules_json: str
) -> tuple[tuple[int | str | bool | None, ...], ...]:
    rules = Ruleset.model_validate_json(rules_json)
    rows: list[tuple[int | str | bool | None, ...]] = []
    for level in levels:
        for organization, role in combinations(rules):
            extra = extra_stamina and rules.takes_extra_stamina(organization)
            m = build_monster(level, organization, role, extra, ruleset=rules)
            rows.append((
                m.level, m.organization, m.role, m.extra_stamina, m.echelon, m.ev, m.stamina,
                m.free_strike, m.highest_characteristic, m.damage_modifier, m.expected_targets,
                *m.damage.as_tuple(), *m.non_strike_damage.as_tuple(), *m.potency.as_tuple(),
            ))
    return tuple(rows)


def stat_table(
    levels: Iterable[int] = range(1, 21),
    extra_stamina: bool = False,
    ruleset: Ruleset | None = None,
) -> pd.DataFrame:
    """Every level × organization × role combination, one row each, computed by `build_monster`.

    Rows are cached per (levels, extra_stamina, ruleset), so rebuilding on every slider move costs a
    DataFrame construction, not the arithmetic. Minions never get extra Stamina (the rules give it to
    non-minions), so their rows keep `extra_stamina` False.
    """
    rules = ruleset or core_ruleset()
    rows = _rows(tuple(levels), bool(extra_stamina), rules.model_dump_json())
    frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
    return frame.astype({"role": "object"})
