"""The four characteristics the formulas leave to the Director, suggested from published monsters.

The formulas set only the highest characteristic ("1 + echelon"); the other four are a design choice. A
suggestion takes the published monsters of the same organization and role (the Steel Compendium sample by
default) and, for each characteristic, the median of its distance below that monster's highest. It says
which monsters it used and which reading:

- Same organization and role first; if the sample has none, the same role in any organization; then the
  same organization; then every monster.
- The median of an even count is the lower of the two middle values (a whole number, never a half).
- The characteristic most often the highest among them is the one the formula's value goes to (ties: the
  book's order might, agility, reason, intuition, presence).
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

from workbench.formats.bestiary import Bestiary, PublishedMonster, sample_bestiary
from workbench.model import CHARACTERISTICS, Characteristics, Monster

__all__ = ["CharacteristicSuggestion", "suggest_characteristics"]


class CharacteristicSuggestion(BaseModel):
    """Suggested characteristics for a monster, and where they come from."""

    model_config = ConfigDict(frozen=True)
    characteristics: Characteristics
    offsets: dict[str, int]
    monsters: tuple[str, ...]
    reading: str

    def __str__(self) -> str:
        values = ", ".join(f"{name} {value:+d}" for name, value in self.characteristics.items() if value is not None)
        return f"{values} (from {', '.join(self.monsters)}; {self.reading})"


def _lower_median(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]


def _peers(monster: Monster, monsters: tuple[PublishedMonster, ...]) -> tuple[list[PublishedMonster], str]:
    choices = (
        (lambda p: p.organization == monster.organization and p.role == monster.role,
         f"published {monster.organization} {monster.role or ''}".rstrip() + "s"),
        (lambda p: monster.role is not None and p.role == monster.role, f"published {monster.role}s (any organization)"),
        (lambda p: p.organization == monster.organization, f"published {monster.organization}s (any role)"),
        (lambda p: True, "every published monster in the sample"),
    )
    for keep, label in choices:
        found = [p for p in monsters if keep(p)]
        if found:
            return found, label
    return [], "no published monsters"


def suggest_characteristics(monster: Monster, bestiary: Bestiary | None = None) -> CharacteristicSuggestion:
    """All five characteristics for `monster`: its highest (the formulas') and the other four suggested."""
    peers, label = _peers(monster, (bestiary or sample_bestiary()).monsters)
    offsets = {name: _lower_median([p.characteristics[name] - p.highest_characteristic for p in peers])
               if peers else 0 for name in CHARACTERISTICS}
    tops = Counter(name for p in peers for name in CHARACTERISTICS
                   if p.characteristics[name] == p.highest_characteristic)
    highest = max(CHARACTERISTICS, key=lambda n: (tops[n], -CHARACTERISTICS.index(n)))
    offsets[highest] = 0
    values = {name: monster.highest_characteristic + offsets[name] for name in CHARACTERISTICS}
    return CharacteristicSuggestion(
        characteristics=Characteristics(**values),
        offsets=offsets,
        monsters=tuple(p.name for p in peers),
        reading=f"each characteristic's median distance below the highest among {len(peers)} {label}; "
                f"{highest} is most often the highest",
    )
