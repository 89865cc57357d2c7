"""Expected damage per use across levels: the formulas' signature strike beside the published signatures.

A Director choosing a role and an organization sees what one use of the formula's signature ability deals on
average at each level — the tier odds of its bonus (the highest characteristic) times each tier's damage —
with an edge and with a bane, and the same figure for each published monster of that role and organization
(its own printed damage and bonus). Exact Fractions are computed (workbench.monster.power_roll); the frame
holds them as floats for plotting only.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from workbench.formats.bestiary import PublishedMonster
from workbench.monster.formulas import build_monster
from workbench.monster.power_roll import expected_damage

__all__ = ["expected_damage_frame", "published_expected_damage_frame"]


def expected_damage_frame(organization: str, role: str | None, levels: Iterable[int] = range(1, 11)) -> pd.DataFrame:
    """One row per level: the formula's signature strike (expected targets), its bonus and expected damage
    per use with no edge or bane, with an edge, with a bane."""
    rows = []
    for level in levels:
        monster = build_monster(level, organization, role)
        tiers = monster.damage.as_tuple()
        bonus = monster.highest_characteristic
        rows.append({
            "level": level, "bonus": bonus, "tier1": tiers[0], "tier2": tiers[1], "tier3": tiers[2],
            "expected": float(expected_damage(tiers, bonus)),
            "with_edge": float(expected_damage(tiers, bonus, edges=1)),
            "with_bane": float(expected_damage(tiers, bonus, banes=1)),
        })
    return pd.DataFrame(rows)


def published_expected_damage_frame(monsters: Iterable[PublishedMonster], organization: str,
                                    role: str | None) -> pd.DataFrame:
    """One row per published monster of that organization and role whose signature prints a roll and
    damage at every tier: its level and the expected damage per use of its signature."""
    rows = []
    for monster in monsters:
        signature = monster.signature
        if (monster.organization, monster.role) != (organization, role) or signature is None:
            continue
        if signature.damage is None or signature.bonus is None:
            continue
        rows.append({"name": monster.name, "level": monster.level, "signature": signature.name,
                     "bonus": signature.bonus,
                     "expected": float(expected_damage(signature.damage, signature.bonus))})
    return pd.DataFrame(rows, columns=["name", "level", "signature", "bonus", "expected"])
