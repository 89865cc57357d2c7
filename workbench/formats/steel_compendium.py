"""Steel Compendium stat block JSON (the data-bestiary shape the sample uses), both ways.

Written in the shape of `data/bestiary-sample/` and the Steel Compendium's statblock schema: `ev` and
`stamina` as strings (a minion's "3 for four minions"), `roles` as one "Organization Role" string, `ancestry`
the keywords, `speed` a number with `movement` the modes ("Climb, Fly"), `size` "1S", the five
characteristics as numbers, `immunities`/`weaknesses` as "Fire 5" strings, `with_captain`, and `features`:
abilities (`ability_type` "Signature Ability" or "Villain Action N", `cost` "N Malice", `usage`, `distance`,
`target`, `trigger`, `flavor`, `effects` with the power roll as `{roll, tier1, tier2, tier3}` between the
paragraphs before and after it) and traits (`feature_type` "trait"). Read are that shape, its older variant
(`abilities` with `t1`..`t3`) and data-unified's (`organization`, `role`, `keywords` apart).

The format prints every part of a book stat block, so nearly everything travels in its own fields; the rest
(a formula monster's unset characteristics, the formulas' inputs, the homebrew rule modules, a Malice
feature or a text-only villain action of the builder) goes into `metadata["drawsteel-workbench"]`, which the
schema leaves open for tools.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from workbench.errors import InvalidInput
from workbench.formats.bestiary import StatBlockError
from workbench.formats.record import RECORD_KEY, UNNAMED, WRONG_KIND, ImportRefused, assemble, record_of
from workbench.formats.stat_block import parse_whole_stat_block
from workbench.model import (
    Ability,
    Effect,
    Monster,
    Size,
    Trait,
)
from workbench.model.parts import CHARACTERISTICS

__all__ = ["FORMAT", "export_monster", "is_steel_compendium", "read_steel_compendium", "statblock_of"]

FORMAT = "Steel Compendium stat block"
ORGANIZATIONS = ("minion", "horde", "platoon", "elite", "leader", "solo")
PART_FLAG = "part"
# numbers of at most 40 digits, as the model reads them (model.ability): int() raises past 4,300
_EV = re.compile(r"^\s*(\d{1,40})\s*(?:for\s+(?:four|4)\s+minions)?\s*$", re.IGNORECASE)


# ---------------------------------------------------------------- export


def _effect(effect: Effect) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if effect.name:
        data["name"] = effect.name
    if effect.malice is not None:
        data["cost"] = effect.cost_text
    data["effect"] = effect.text
    if effect.tiers:
        data.update({f"tier{n}": str(t) for n, t in enumerate(effect.tiers, start=1)})
    return data


# The transcription's icon follows from an ability's kind: its distance, or its being a villain action or a
# triggered action (seen on the 49 sample blocks); the model keeps no icon.
DISTANCE_ICONS = {"melee": "🗡", "ranged": "🏹", "melee or ranged": "⚔️", "burst": "❇️", "aura": "❇️",
                  "cube": "🔳", "line": "🔳", "wall": "🔳", "self": "👤", "special": "👤"}
TRAIT_ICON, SOLO_ICON, VILLAIN_ICON, TRIGGERED_ICON = "⭐️", "☠️", "☠️", "❗️"


def _icon(ability: Ability) -> str:
    if ability.villain_action:
        return VILLAIN_ICON
    if ability.action in ("triggered action", "free triggered action"):
        return TRIGGERED_ICON
    return DISTANCE_ICONS[ability.distance.kind] if ability.distance else "👤"


def _ability(ability: Ability) -> dict[str, Any]:
    data: dict[str, Any] = {"type": "feature", "feature_type": "ability", "name": ability.name,
                            "icon": _icon(ability)}
    if ability.is_signature or ability.villain_action:
        data["ability_type"] = ability.cost_text
    elif ability.malice is not None:
        data["cost"] = ability.cost_text
    if ability.flavour:
        data["flavor"] = ability.flavour
    data["keywords"] = list(ability.keywords) or ["-"]
    data["usage"] = ability.action_text
    if ability.distance is not None:
        data["distance"] = str(ability.distance)
    if ability.target is not None:
        data["target"] = str(ability.target)
    if ability.trigger:
        data["trigger"] = ability.trigger
    effects = [_effect(e) for e in ability.effects_before]
    if ability.power_roll is not None:
        roll = ability.power_roll
        effects.append({"roll": roll.roll_text, "tier1": str(roll.tier1), "tier2": str(roll.tier2),
                        "tier3": str(roll.tier3)})
    effects += [_effect(e) for e in ability.effects_after]
    data["effects"] = effects or [{"effect": ""}]
    return data


def _trait(trait: Trait, part: str | None = None) -> dict[str, Any]:
    icon = SOLO_ICON if trait.name.startswith("Solo Monster") else TRAIT_ICON
    data: dict[str, Any] = {"type": "feature", "feature_type": "trait", "name": trait.name, "icon": icon}
    if trait.cost is not None:
        data["cost"] = f"{trait.cost} Malice"
    data["effects"] = [_effect(e) for e in trait.effects] or [{"effect": trait.text}]
    if part:
        data["metadata"] = {RECORD_KEY: {PART_FLAG: part}}
    return data


def _villain_text(index: int, trait: Trait) -> dict[str, Any]:
    return {"type": "feature", "feature_type": "ability", "name": trait.name,
            "ability_type": f"Villain Action {index + 1}", "keywords": ["-"], "usage": "-",
            "effects": [{"effect": trait.text}], "metadata": {RECORD_KEY: {PART_FLAG: "villain-text"}}}


def _roles(monster: Monster) -> list[str]:
    words = [monster.organization.capitalize()] + ([monster.role.capitalize()] if monster.role else [])
    return [" ".join(words)]


def _size_text(monster: Monster) -> str:
    """The size ("1S"); a builder's size text that is no size ("" or words) as the default 1M (the record
    keeps the text)."""
    if monster.size_class:
        return str(monster.size_class)
    try:
        return str(Size.parse(monster.size))
    except ValueError:
        return "1M"


def _speed(monster: Monster) -> tuple[int, str]:
    if monster.movement is not None:
        return monster.movement.speed, monster.movement.modes_text
    match = re.match(r"^\s*(\d{1,40})", monster.speed or "")
    return (int(match.group(1)) if match else 0), ""


def statblock_of(monster: Monster, with_record: bool = True) -> dict[str, Any]:
    """The monster as a Steel Compendium stat block (a JSON-ready dict)."""
    speed, movement = _speed(monster)
    stability = monster.stability_number
    ev = f"{monster.ev} for four minions" if monster.organization == "minion" else str(monster.ev)
    data: dict[str, Any] = {
        "type": "statblock",
        "name": monster.name or UNNAMED,
        "level": monster.level,
        "roles": _roles(monster),
        "ancestry": list(monster.keywords),
        "ev": ev,
        "stamina": str(monster.stamina),
    }
    if monster.immunities:
        data["immunities"] = [str(m) for m in monster.immunities]
    if monster.weaknesses:
        data["weaknesses"] = [str(m) for m in monster.weaknesses]
    data["speed"] = speed
    if movement:
        data["movement"] = movement
    data.update({"size": _size_text(monster), "stability": stability, "free_strike": monster.free_strike})
    data.update({c: monster.characteristics[c] or 0 for c in CHARACTERISTICS})
    if monster.with_captain:
        data["with_captain"] = monster.with_captain
    data["features"] = (
        [_ability(a) for a in monster.abilities]
        + [_trait(t) for t in monster.traits]
        + [_trait(t, "malice-feature") for t in monster.malice_features]
        + [_villain_text(i, t) for i, t in enumerate(monster.villain_actions)]
    )
    if with_record:
        data["metadata"] = {RECORD_KEY: record_of(monster)}
    return data


def export_monster(monster: Monster) -> str:
    return json.dumps(statblock_of(monster), indent=2, ensure_ascii=False)


# ---------------------------------------------------------------- import


def is_steel_compendium(data: Any) -> bool:
    return isinstance(data, Mapping) and (data.get("type") == "statblock" or (
        "free_strike" in data and ("features" in data or "abilities" in data)))


def _bestiary_shape(data: Mapping[str, Any]) -> dict[str, Any]:
    """The stat block as `wb.read_stat_block` reads it: tool metadata left out, data-unified's separate
    `organization`/`role`/`keywords` joined into the data-bestiary `roles`/`ancestry`."""
    shaped = {k: v for k, v in data.items() if k != "metadata"}
    if "roles" not in shaped and "organization" in shaped:
        words = [str(shaped.pop("organization")), *([str(shaped.pop("role"))] if shaped.get("role") else [])]
        shaped.pop("role", None)
        shaped["roles"] = [" ".join(words)]
        if "ancestry" not in shaped and "keywords" in shaped:
            shaped["ancestry"] = shaped.pop("keywords")
    for key in ("features", "abilities"):
        if isinstance(shaped.get(key), list):
            shaped[key] = [{k: v for k, v in f.items() if k != "metadata"} if isinstance(f, Mapping) else f
                           for f in shaped[key]]
    return shaped


def _part_of(feature: Any) -> str | None:
    if not isinstance(feature, Mapping):
        return None
    return ((feature.get("metadata") or {}).get(RECORD_KEY) or {}).get(PART_FLAG)


def _native(data: Mapping[str, Any], source: str) -> tuple[Monster, dict[str, Any]]:
    """The stat block read as `wb.read_stat_block` reads it, and the Monster fields its own fields give.

    The builder's Malice features and text-only villain actions (marked in their feature's metadata) are
    taken out first and read as what they are."""
    features = data.get("features")
    malice, villain_text = [], []
    if isinstance(features, list):
        kept = []
        for feature in features:
            part = _part_of(feature)
            effects = feature.get("effects") or [{}] if part else []
            if part == "malice-feature":
                cost = Effect.parse_malice(feature["cost"])[0] if feature.get("cost") else None
                named = [Effect(name=e.get("name") or None, text=e.get("effect") or "") for e in effects]
                text = named[0].text if len(named) == 1 and not named[0].name else ""
                malice.append(Trait(name=feature.get("name") or "", text=text, cost=cost) if text else
                              Trait.model_validate({"name": feature.get("name") or "", "effects": named,
                                                    "cost": cost}))
            elif part == "villain-text":
                villain_text.append(Trait(name=feature.get("name") or "", text=effects[0].get("effect") or ""))
            else:
                kept.append(feature)
        data = {**data, "features": kept}
    monster = parse_whole_stat_block(_bestiary_shape(data), source)
    # the block's own traits with a Malice cost (read as Malice features), then the builder's marked ones
    every_malice = (*monster.malice_features, *malice)
    native = {field: getattr(monster, field) for field in PRINTED}
    native.update(malice_features=every_malice, villain_actions=tuple(villain_text))
    return monster.model_copy(update={"malice_features": every_malice, "villain_actions": tuple(villain_text)}), \
        native


# The Monster fields a stat block prints (the rest are the formulas' or the workbench's own).
PRINTED = ("name", "level", "organization", "role", "keywords", "ev", "stamina", "free_strike", "characteristics",
           "size_class", "movement", "stability_value", "immunities", "weaknesses", "with_captain", "traits",
           "abilities", "kept_as_text")


def read_steel_compendium(data: Any, source: str) -> Monster:
    """A Steel Compendium stat block (parsed JSON): read as `wb.read_stat_block` reads it, and exactly as
    exported when it carries the workbench record."""
    try:
        monster, native = _native(data, source)
    except StatBlockError as exc:
        *where, reason = exc.reason.split(": ")  # "ability 'Spear': distance: got ...; accepts ..."
        key = re.match(r"^'([^']+)'", reason)  # "'roles' 'Boss Brute' names no organization ..."
        part = ".".join(where) or (key.group(1) if key else "stat block")
        raise ImportRefused(source, FORMAT, part, reason) from None
    except InvalidInput as exc:
        raise ImportRefused(source, FORMAT, exc.field, str(exc).split(": ", 1)[-1]) from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        raise ImportRefused(source, FORMAT, "features", WRONG_KIND) from None
    record = (data.get("metadata") or {}).get(RECORD_KEY) if isinstance(data.get("metadata"), Mapping) else None
    if not isinstance(record, Mapping) or not record:
        return monster
    return assemble(native, record, lambda m: _native(statblock_of(m, with_record=False), source)[1], source, FORMAT)
