"""Steel Compendium stat block JSON (the data-bestiary shape the sample uses), both ways.

Written in the shape of `../shared/bestiary-sample/` and the Steel Compendium's statblock schema: `ev` and
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

from workbench.formats.record import RECORD_KEY, UNNAMED, ImportRefused, assemble, record_of
from workbench.model import (
    Ability,
    Characteristics,
    DamageModifier,
    Effect,
    Monster,
    Movement,
    PowerRoll,
    Size,
    Tier,
    Trait,
)
from workbench.model.parts import CHARACTERISTICS

__all__ = ["FORMAT", "export_monster", "is_steel_compendium", "read_steel_compendium", "statblock_of"]

FORMAT = "Steel Compendium stat block"
ORGANIZATIONS = ("minion", "horde", "platoon", "elite", "leader", "solo")
PART_FLAG = "part"
_EV = re.compile(r"^\s*(\d+)\s*(?:for\s+(?:four|4)\s+minions)?\s*$", re.IGNORECASE)


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


def _ability(ability: Ability) -> dict[str, Any]:
    data: dict[str, Any] = {"type": "feature", "feature_type": "ability", "name": ability.name}
    if ability.icon:
        data["icon"] = ability.icon
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
    data: dict[str, Any] = {"type": "feature", "feature_type": "trait", "name": trait.name}
    if trait.icon:
        data["icon"] = trait.icon
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
    match = re.match(r"^\s*(\d+)", monster.speed or "")
    return (int(match.group(1)) if match else 0), ""


def statblock_of(monster: Monster, with_record: bool = True) -> dict[str, Any]:
    """The monster as a Steel Compendium stat block (a JSON-ready dict)."""
    speed, movement = _speed(monster)
    stability = monster.stability_value if monster.stability_value is not None else (
        int(monster.stability) if monster.stability.strip().isdigit() else 0)
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
    return isinstance(data, Mapping) and data.get("type") == "statblock" or (
        isinstance(data, Mapping) and "free_strike" in data and ("features" in data or "abilities" in data))


class _Refusal(Exception):
    def __init__(self, part: str, reason: str) -> None:
        super().__init__(part, reason)
        self.part, self.reason = part, reason


def _whole(data: Mapping[str, Any], key: str, text_ok: bool = False) -> int:
    value = data.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if text_ok and isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    raise _Refusal(key, f"got {value!r}; accepts a whole number")


def _organization_and_role(data: Mapping[str, Any]) -> tuple[str, str | None]:
    if "roles" in data:
        roles = data.get("roles")
        words = roles[0].lower().split() if isinstance(roles, list) and roles and isinstance(roles[0], str) else []
    else:
        words = [str(data.get("organization") or "").lower()] + ([str(data["role"]).lower()] if data.get("role")
                                                                  else [])
    if not words or words[0] not in ORGANIZATIONS or len(words) > 2:
        raise _Refusal("roles", f"got {data.get('roles', data.get('organization'))!r}; accepts an organization "
                       f"({', '.join(ORGANIZATIONS)}) and a role, like ['Horde Harrier'] or ['Solo']")
    return words[0], words[1] if len(words) > 1 else None


def _effect_from(data: Mapping[str, Any]) -> Effect:
    malice, plus = (Effect.parse_malice(data["cost"]) if data.get("cost") else (None, False))
    tiers = tuple(Tier.parse(data[k]) for k in ("tier1", "tier2", "tier3")) if "tier1" in data else None
    return Effect(name=data.get("name") or None, text=data.get("effect") or "", malice=malice, malice_plus=plus,
                  tiers=tiers)


def _tier_text(data: Mapping[str, Any], n: int) -> str:
    value = data.get(f"tier{n}", data.get(f"t{n}"))
    if not isinstance(value, str):
        raise _Refusal(f"tier{n}", f"got {value!r}; accepts the tier's text")
    return value


def _ability_from(data: Mapping[str, Any]) -> Ability:
    before: list[Effect] = []
    after: list[Effect] = []
    roll = None
    for effect in data.get("effects") or []:
        if "roll" in effect:
            roll = PowerRoll(bonus=PowerRoll.parse_bonus(effect["roll"]), tier1=Tier.parse(_tier_text(effect, 1)),
                             tier2=Tier.parse(_tier_text(effect, 2)), tier3=Tier.parse(_tier_text(effect, 3)))
        elif effect != {"effect": ""}:
            (after if roll is not None else before).append(_effect_from(effect))
    cost = data.get("ability_type") if data.get("ability_type") not in (None, "", "Heroic") else data.get("cost")
    return Ability(
        name=data.get("name") or "", flavour=data.get("flavor") or "", icon=data.get("icon") or "", cost=cost,
        action=data.get("usage"), keywords=data.get("keywords") or [], distance=data.get("distance") or None,
        target=data.get("target") or None, trigger=data.get("trigger") or "", effects_before=tuple(before),
        power_roll=roll, effects_after=tuple(after),
    )


def _trait_from(data: Mapping[str, Any]) -> Trait:
    effects = tuple(_effect_from(e) for e in data.get("effects") or [])
    cost = Effect.parse_malice(data["cost"])[0] if data.get("cost") else None
    if len(effects) == 1 and not effects[0].name and effects[0].malice is None and not effects[0].tiers:
        return Trait(name=data.get("name") or "", icon=data.get("icon") or "", text=effects[0].text, cost=cost)
    return Trait(name=data.get("name") or "", icon=data.get("icon") or "", effects=effects, cost=cost)


def _native(data: Mapping[str, Any]) -> dict[str, Any]:
    """The Monster fields the stat block's own fields give."""
    organization, role = _organization_and_role(data)
    ev_text = data.get("ev")
    ev_match = _EV.match(ev_text) if isinstance(ev_text, str) else None
    if not (ev_match or isinstance(ev_text, int)):
        raise _Refusal("ev", f"got {ev_text!r}; accepts a number, or 'N for four minions'")
    keywords = data.get("ancestry", data.get("keywords")) or []
    native: dict[str, Any] = {
        "name": data.get("name") if isinstance(data.get("name"), str) else "",
        "level": _whole(data, "level"),
        "organization": organization,
        "role": role,
        "keywords": tuple(keywords),
        "ev": int(ev_match.group(1)) if ev_match else ev_text,
        "stamina": _whole(data, "stamina", text_ok=True),
        "free_strike": _whole(data, "free_strike"),
        "stability_value": _whole(data, "stability"),
        "characteristics": Characteristics(**{c: _whole(data, c) for c in CHARACTERISTICS}),
        "size_class": Size.parse(data.get("size")),
        "movement": Movement.parse(_whole(data, "speed"), data.get("movement") or ""),
        "immunities": tuple(DamageModifier.parse(t) for t in data.get("immunities") or []),
        "weaknesses": tuple(DamageModifier.parse(t) for t in data.get("weaknesses") or []),
        "with_captain": data.get("with_captain") or "",
    }
    if not native["name"].strip():
        raise _Refusal("name", "got no name; accepts the monster's name")
    native.update(size=str(native["size_class"]), speed=str(native["movement"]),
                  stability=str(native["stability_value"]))
    abilities, traits, malice, villain_text = [], [], [], []
    features = data.get("features", data.get("abilities"))
    if not isinstance(features, list):
        raise _Refusal("features", f"got {features!r}; accepts a list of abilities and traits")
    for index, feature in enumerate(features):
        part = ((feature.get("metadata") or {}).get(RECORD_KEY) or {}).get(PART_FLAG)
        try:
            if part == "malice-feature":
                malice.append(_trait_from(feature))
            elif part == "villain-text":
                villain_text.append(Trait(name=feature.get("name") or "",
                                          text=(feature.get("effects") or [{}])[0].get("effect") or ""))
            elif feature.get("feature_type") == "trait":
                traits.append(_trait_from(feature))
            else:
                abilities.append(_ability_from(feature))
        except ValueError as exc:
            where = getattr(exc, "field", "")
            raise _Refusal(f"features[{index}] {feature.get('name')!r}" + (f".{where}" if where else ""),
                           str(exc).split("; ", 1)[-1] if where else str(exc)) from None
    native.update(abilities=tuple(abilities), traits=tuple(traits), malice_features=tuple(malice),
                  villain_actions=tuple(villain_text))
    return native


def read_steel_compendium(data: Any, source: str) -> Monster:
    try:
        native = _native(data)
    except _Refusal as exc:
        raise ImportRefused(source, FORMAT, exc.part, exc.reason) from None
    except ValueError as exc:
        field = getattr(exc, "field", "stat block")
        raise ImportRefused(source, FORMAT, field, str(exc).split("; ", 1)[-1]) from None
    record = (data.get("metadata") or {}).get(RECORD_KEY)
    return assemble(native, record, lambda m: _native(statblock_of(m, with_record=False)), source, FORMAT)
