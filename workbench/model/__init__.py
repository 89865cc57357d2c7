"""The Monster and its parts as pure data: what a stat block holds, with no formula, file or display code.

Every layer above reads and writes these types: the formulas fill them (`workbench.monster.formulas`), the
library saves them, the renderers draw them (and register how a Monster shows itself in a notebook), the
readers of published stat blocks fill every part. Keeping them free of behaviour is what lets every other
module import them without an import cycle. Modules: `monster` (the Monster, its numbers and text),
`parts` (characteristics, size, movement, immunities), `ability` (abilities, power rolls, tiers), `signature`
(the signature ability a formula monster's numbers and text make, which a Monster keeps in step with them).
"""

from workbench.model.ability import (
    ABILITY_KEYWORDS,
    ACTIONS,
    MAX_POTENCY,
    MIN_POTENCY,
    Ability,
    Cost,
    Damage,
    Distance,
    Effect,
    Potency,
    PowerRoll,
    Target,
    Tier,
    parse_cost,
    targets_from_text,
)
from workbench.model.base import Part
from workbench.model.monster import (
    RULE_ID,
    SECTION,
    AttachedRule,
    KeptText,
    Monster,
    MonsterText,
    StatBlockParts,
    Step,
    Tiers,
    Trait,
    Value,
    require_monster,
)
from workbench.model.parts import (
    CHARACTERISTICS,
    DAMAGE_TYPES,
    MOVEMENT_MODES,
    Characteristic,
    Characteristics,
    DamageModifier,
    Movement,
    Size,
    check_characteristic,
    is_characteristic,
)

__all__ = [
    "ABILITY_KEYWORDS",
    "ACTIONS",
    "CHARACTERISTICS",
    "DAMAGE_TYPES",
    "MAX_POTENCY",
    "MIN_POTENCY",
    "MOVEMENT_MODES",
    "RULE_ID",
    "SECTION",
    "Ability",
    "AttachedRule",
    "Characteristic",
    "Characteristics",
    "Cost",
    "Damage",
    "DamageModifier",
    "Distance",
    "Effect",
    "KeptText",
    "Monster",
    "MonsterText",
    "Movement",
    "Part",
    "Potency",
    "PowerRoll",
    "Size",
    "StatBlockParts",
    "Step",
    "Target",
    "Tier",
    "Tiers",
    "Trait",
    "Value",
    "check_characteristic",
    "is_characteristic",
    "parse_cost",
    "require_monster",
    "targets_from_text",
]
