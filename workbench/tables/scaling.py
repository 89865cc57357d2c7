"""Slices of the stat grid for the scaling charts: one monster's curve, its level's neighbours, what-if changes.

All frames come from `stat_table` (so every number is `build_monster`'s); this module only selects,
sorts and compares rows.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from workbench.errors import InvalidInput

__all__ = [
    "QUANTITIES",
    "KEY_COLUMNS",
    "curve",
    "neighbours",
    "pick_rows",
    "sort_grid",
    "ruleset_differences",
    "label",
]

# The numbers a Director charts, by stat_table column, with the words used on axes and pickers.
QUANTITIES: dict[str, str] = {
    "ev": "EV",
    "stamina": "Stamina",
    "free_strike": "Free strike",
    "damage_tier1": "Damage, tier 1 (strike)",
    "damage_tier2": "Damage, tier 2 (strike)",
    "damage_tier3": "Damage, tier 3 (strike)",
    "non_strike_tier1": "Damage, tier 1 (not a strike)",
    "non_strike_tier2": "Damage, tier 2 (not a strike)",
    "non_strike_tier3": "Damage, tier 3 (not a strike)",
    "highest_characteristic": "Highest characteristic",
    "potency_tier3": "Potency, tier 3",
}
KEY_COLUMNS = ("level", "organization", "role")


def label(organization: str, role: str | None) -> str:
    """"elite brute", "solo"."""
    return f"{organization} {role}" if role else organization


def _is(table: pd.DataFrame, organization: str, role: str | None) -> np.ndarray:
    """Mask of one organization and role's rows (numpy: this runs on every slider move)."""
    roles = table["role"].to_numpy()
    same_role = pd.isna(roles) if role is None else roles == role
    mask: np.ndarray = (table["organization"].to_numpy() == organization) & same_role
    return mask


def _check_column(table: pd.DataFrame, field: str, column: object) -> None:
    if not isinstance(column, str) or column not in table.columns:
        raise InvalidInput(field, column, "one of " + ", ".join(table.columns))


def curve(table: pd.DataFrame, organization: str, role: str | None, quantity: str) -> pd.DataFrame:
    """`level` and `value` of one organization and role across the table's levels."""
    _check_column(table, "quantity", quantity)
    mask = _is(table, organization, role)
    levels = table["level"].to_numpy()[mask]
    order = np.argsort(levels, kind="stable")
    return pd.DataFrame({"level": levels[order], "value": table[quantity].to_numpy()[mask][order]})


def neighbours(
    table: pd.DataFrame,
    level: int,
    organization: str,
    role: str | None,
    quantity: str,
    compare: str = "role",
) -> pd.DataFrame:
    """The same level's other roles (`compare="role"`) or organizations (`"organization"`).

    Roles: every role of this organization; a leader or solo (no role) is set beside each role as an elite
    and beside the other role-less organizations. Organizations: every organization with this monster's
    role, plus leader and solo; a role-less monster sees each organization with its first role in table
    order. Columns: label, organization, role, value, this (True for the monster's own row).
    """
    _check_column(table, "quantity", quantity)
    organizations = table["organization"].to_numpy()
    roles = table["role"].to_numpy()
    roleless = pd.isna(roles)
    at = table["level"].to_numpy() == level
    if compare == "role":
        if role is not None:
            keep = at & (organizations == organization)
        else:
            # the elites first, then the role-less organizations, as in the table
            keep_elite = at & (organizations == "elite") & ~roleless
            keep = np.concatenate([np.flatnonzero(keep_elite), np.flatnonzero(at & roleless)])
    elif compare == "organization":
        if role is not None:
            keep = at & ((roles == role) | roleless)
        else:
            seen: set[str] = set()
            first = []
            for position in np.flatnonzero(at):
                if organizations[position] not in seen:
                    seen.add(organizations[position])
                    first.append(position)
            keep = np.array(first, dtype=int)
    else:
        raise InvalidInput("compare", compare, "'role' or 'organization'")
    index = np.flatnonzero(keep) if keep.dtype == bool else keep
    picked_orgs, picked_roles = organizations[index], roles[index]
    this = _is(table, organization, role)[index]
    return pd.DataFrame(
        {
            "label": [label(o, None if pd.isna(r) else r) for o, r in zip(picked_orgs, picked_roles, strict=False)],
            "organization": picked_orgs,
            "role": picked_roles,
            "value": table[quantity].to_numpy()[index],
            "this": this,
        }
    )


def pick_rows(
    table: pd.DataFrame,
    organizations: Iterable[str] | None = None,
    roles: Iterable[str | None] | None = None,
    levels: Iterable[int] | None = None,
) -> pd.DataFrame:
    """Rows of the chosen organizations, roles (None: the role-less leader and solo) and levels."""
    keep = pd.Series(True, index=table.index)
    if organizations is not None:
        keep &= table["organization"].isin(list(organizations))
    if roles is not None:
        roles = list(roles)
        named = [r for r in roles if r is not None]
        keep &= table["role"].isin(named) | (table["role"].isna() if None in roles else False)
    if levels is not None:
        keep &= table["level"].isin(list(levels))
    return table[keep]


def sort_grid(table: pd.DataFrame, by: str, ascending: bool = True) -> pd.DataFrame:
    """The grid sorted by one column, ties kept in table order (a stable sort), index renumbered."""
    _check_column(table, "by", by)
    return table.sort_values(by, ascending=ascending, kind="stable").reset_index(drop=True)


def ruleset_differences(
    old: pd.DataFrame, new: pd.DataFrame, columns: Iterable[str] = tuple(QUANTITIES)
) -> pd.DataFrame:
    """Every (level, organization, role, number) whose value differs between two grids: old, new, change."""
    columns = list(columns)
    keys = list(KEY_COLUMNS)
    left = old[keys + columns].astype({"role": "object"}).fillna({"role": "—"})
    right = new[keys + columns].astype({"role": "object"}).fillna({"role": "—"})
    merged = left.merge(right, on=keys, suffixes=("_old", "_new"))
    parts = []
    for column in columns:
        before, after = merged[f"{column}_old"], merged[f"{column}_new"]
        changed = (before != after).to_numpy()
        if changed.any():
            part = merged.loc[changed, keys].copy()
            part["number"] = QUANTITIES.get(column, column)
            part["old"] = before[changed].astype(int).to_numpy()
            part["new"] = after[changed].astype(int).to_numpy()
            part["change"] = part["new"] - part["old"]
            parts.append(part)
    out_columns = [*keys, "number", "old", "new", "change"]
    if not parts:
        return pd.DataFrame({c: pd.Series(dtype=object if c in ("organization", "role", "number") else int)
                             for c in out_columns})
    return pd.concat(parts, ignore_index=True)[out_columns]
