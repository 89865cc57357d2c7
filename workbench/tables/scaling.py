"""Slices of the stat grid for the scaling charts: one monster's curve, its level's neighbours, what-if changes.

All frames come from `stat_table` (so every number is `build_monster`'s); this module only selects,
sorts and compares rows.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

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


def _is(table: pd.DataFrame, organization: str, role: str | None) -> pd.Series:
    same_role = table["role"].isna() if role is None else table["role"] == role
    return (table["organization"] == organization) & same_role


def curve(table: pd.DataFrame, organization: str, role: str | None, quantity: str) -> pd.DataFrame:
    """`level` and `value` of one organization and role across the table's levels."""
    rows = table[_is(table, organization, role)].sort_values("level")
    return pd.DataFrame({"level": rows["level"].to_numpy(), "value": rows[quantity].to_numpy()})


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
    at = table[table["level"] == level]
    if compare == "role":
        if role is not None:
            rows = at[at["organization"] == organization]
        else:
            roleless = at["role"].isna()
            rows = pd.concat([at[(at["organization"] == "elite") & ~roleless], at[roleless]])
    elif compare == "organization":
        if role is not None:
            rows = at[(at["role"] == role) | at["role"].isna()]
        else:
            rows = at.drop_duplicates("organization")
    else:
        raise ValueError(f"compare: got {compare!r}; accepts 'role' or 'organization'")
    this = _is(rows, organization, role)
    return pd.DataFrame(
        {
            "label": [label(o, r if isinstance(r, str) else None) for o, r in zip(rows["organization"], rows["role"])],
            "organization": rows["organization"].to_numpy(),
            "role": rows["role"].to_numpy(),
            "value": rows[quantity].to_numpy(),
            "this": this.to_numpy(),
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
    if by not in table.columns:
        raise ValueError(f"by: got {by!r}; accepts one of {', '.join(table.columns)}")
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
    records = []
    for column in columns:
        changed = merged[merged[f"{column}_old"] != merged[f"{column}_new"]]
        for row in changed.itertuples(index=False):
            before, after = getattr(row, f"{column}_old"), getattr(row, f"{column}_new")
            records.append(
                (row.level, row.organization, row.role, QUANTITIES.get(column, column),
                 int(before), int(after), int(after) - int(before))
            )
    return pd.DataFrame(
        records, columns=["level", "organization", "role", "number", "old", "new", "change"]
    )
