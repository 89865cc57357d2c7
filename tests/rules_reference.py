"""An independent reading of "Adjusting Monster Levels", typed from the rules text, for tests only.

It shares no code with `workbench`: the tables are copied from the rules' own tables and every rounding is
done in integer thousandths (ceil(a / b) as -(-a // b)), so a slip in the data file or in the library's
Fraction arithmetic shows up as a disagreement.
"""

from __future__ import annotations

# Role and Damage Modifier Table: role -> (role modifier, damage modifier)
ROLE_TABLE = {
    "ambusher": (20, 1),
    "artillery": (10, 1),
    "brute": (30, 1),
    "controller": (10, 0),
    "defender": (30, 0),
    "harrier": (20, 0),
    "hexer": (10, 0),
    "mount": (20, 0),
    "support": (20, 0),
}
ELITE_ROW = (0, 1)  # "Elite* +0 +1"
LEADER_ROW = (30, 1)
SOLO_ROW = (30, 2)

# Organization Modifier Table, in thousandths: organization -> (EV modifier, Stamina modifier)
ORG_TABLE = {
    "minion": (500, 125),  # "Minion (Stamina only) x 0.125", "Minion x 0.5"
    "horde": (500, 500),
    "platoon": (1000, 1000),
    "leader": (2000, 2000),
    "elite": (2000, 2000),
    "solo": (6000, 5000),  # "Solo (Stamina only) x 5", "Solo x 6"
}
TIER_THOUSANDTHS = {1: 600, 2: 1100, 3: 1400}
ORGANIZATIONS = tuple(ORG_TABLE)
ROLES = tuple(ROLE_TABLE)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def echelon(level: int) -> int:
    return 1 if level <= 3 else 2 if level <= 6 else 3 if level <= 9 else 4


def rows(organization: str, role: str | None) -> tuple[int, int]:
    """(role modifier, damage modifier) for an organization and role."""
    if organization == "leader":
        return LEADER_ROW
    if organization == "solo":
        return SOLO_ROW
    role_mod, damage_mod = ROLE_TABLE[role]
    if organization == "elite":
        return role_mod + ELITE_ROW[0], damage_mod + ELITE_ROW[1]
    return role_mod, damage_mod


def expected_targets(organization: str) -> int:
    return 2 if organization in ("elite", "leader", "solo") else 1


def target_factor_thousandths(organization: str, targets: int) -> int:
    offset = targets - expected_targets(organization)
    return {-1: 1200, 0: 1000, 1: 800}.get(offset, 500)


def ev(level: int, organization: str) -> int:
    return ceil_div((2 * level + 4) * ORG_TABLE[organization][0], 1000)


def stamina(level: int, organization: str, role: str | None, extra: bool = False) -> int:
    role_mod, _ = rows(organization, role)
    base = ceil_div((10 * level + role_mod) * ORG_TABLE[organization][1], 1000)
    return base + (3 * level + 3 if extra else 0)


def highest_characteristic(level: int, organization: str) -> int:
    bonus = 1 if organization in ("leader", "solo") else 0
    return min(1 + echelon(level) + bonus, 5)


def potency(level: int, organization: str, tier: int) -> int:
    """Based on the highest characteristic (before a leader's or solo's +1) minus 1 per tier below 3; a
    leader or solo then adds 1 to every tier, to a maximum of 6."""
    bonus = 1 if organization in ("leader", "solo") else 0
    return min(min(1 + echelon(level), 5) - (3 - tier) + bonus, 6)


def damage(level: int, organization: str, role: str | None, tier: int, targets: int | None = None,
           strike: bool = True) -> int:
    targets = expected_targets(organization) if targets is None else targets
    _, damage_mod = rows(organization, role)
    numerator = (4 + level + damage_mod) * TIER_THOUSANDTHS[tier] * target_factor_thousandths(organization, targets)
    denominator = 1000 * 1000 * (2 if organization in ("horde", "minion") else 1)
    value = ceil_div(numerator, denominator)
    return value + (highest_characteristic(level, organization) if strike else 0)


def free_strike(level: int, organization: str, role: str | None) -> int:
    return damage(level, organization, role, 1, strike=False)


def combinations() -> list[tuple[str, str | None]]:
    pairs: list[tuple[str, str | None]] = []
    for organization in ORGANIZATIONS:
        pairs.extend((organization, r) for r in (ROLES if organization not in ("leader", "solo") else [None]))
    return pairs


def budget_band(ev: int, strength: int, hero: int) -> str:
    """Step 4's budgets: trivial below ES minus one hero, easy below ES, standard up to ES plus one hero, hard
    up to ES plus three heroes, extreme past that (`hero`: one hero's share of the encounter strength)."""
    if ev < strength - hero:
        return "trivial"
    if ev < strength:
        return "easy"
    if ev <= strength + hero:
        return "standard"
    return "hard" if ev <= strength + 3 * hero else "extreme"
