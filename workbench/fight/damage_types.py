"""A stat block's weakness and immunity for one hit of a damage type, as the fight applies them.

Readings: an immunity or weakness to a type applies to damage of that type; one to "all" (written "damage
immunity 5") applies to every hit, untyped ones included; of several that apply, the highest counts.
"""

from __future__ import annotations

from typing import Final

from workbench.errors import InvalidInput
from workbench.model import DAMAGE_TYPES, DamageModifier, Monster

__all__ = ["UNTYPED", "DAMAGE_TYPE_CHOICES", "checked_damage_type", "type_modifiers"]

UNTYPED: Final = ""
DAMAGE_TYPE_CHOICES: Final = (UNTYPED, *DAMAGE_TYPES)


def checked_damage_type(value: object) -> str:
    """The damage type in lowercase ("" for untyped damage); anything else is refused by name."""
    key = value.strip().lower() if isinstance(value, str) else value
    if key not in DAMAGE_TYPE_CHOICES:
        raise InvalidInput("damage_type", value, "untyped (empty) or one of " + ", ".join(DAMAGE_TYPES))
    return str(key)


def _highest(modifiers: tuple[DamageModifier, ...], damage_type: str) -> int:
    return max((m.value for m in modifiers if m.type == "all" or (damage_type and m.type == damage_type)), default=0)


def type_modifiers(monster: Monster | None, damage_type: str) -> tuple[int, int]:
    """(weakness, immunity) of `monster` against a hit of `damage_type`; (0, 0) for a hero (no stat block)."""
    damage_type = checked_damage_type(damage_type)
    if monster is None:
        return 0, 0
    return _highest(monster.weaknesses, damage_type), _highest(monster.immunities, damage_type)
