"""A plain-text stat block for terminals: the numbers a Director reads off the book's block."""

from __future__ import annotations

from workbench.model import Monster

__all__ = ["stat_block_text", "monster_title"]


def monster_title(monster: Monster) -> str:
    """The header line: level, organization and role, as the book prints it ("Level 5 Elite Brute")."""
    kind = " ".join(part.capitalize() for part in (monster.organization, monster.role) if part)
    return f"Level {monster.level} {kind}"


def stat_block_text(monster: Monster) -> str:
    d, p = monster.damage, monster.potency
    name = monster.name or "Unnamed monster"
    extra = " (with extra Stamina)" if monster.extra_stamina else ""
    lines = [
        f"{name} — {monster_title(monster)} — EV {monster.ev}"
        + (" (for four minions)" if monster.organization == "minion" else ""),
        f"Stamina {monster.stamina}{extra}    Free strike {monster.free_strike}",
        f"Echelon {monster.echelon}    Highest characteristic +{monster.highest_characteristic}",
        f"Signature strike ({monster.targets} target{'s' if monster.targets != 1 else ''}):",
        f"  ≤11   {d.tier1} damage; potency {p.tier1}",
        f"  12–16 {d.tier2} damage; potency {p.tier2}",
        f"  17+   {d.tier3} damage; potency {p.tier3}",
    ]
    return "\n".join(lines)
