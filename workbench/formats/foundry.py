"""A Foundry VTT Draw Steel NPC actor (the JSON of "Export Data" / "Import Data"), both ways.

Where each part goes (the system's own field names and lower-case enum keys):
- numbers: `system.stamina.max/value`, `system.ev` and `system.monster.ev` (older systems read the second),
  `system.monster.{level, freeStrike, role, organization, keywords}`, `system.combat.{size, stability}`;
- characteristics: `system.characteristics.<name>.value` (a formula monster's unset ones as 0);
- immunities and weaknesses: `system.damage.immunities/weaknesses.<type>` (0 for none; "all" is its own key);
- movement: `system.movement.types` ("walk" plus climb, fly, swim, burrow, teleport), `hover` a flag;
- traits, the With Captain benefit and Malice features: "feature" items (the latter two named "With Captain"
  and "<name> (N Malice)"), each with a flag saying which part it is;
- abilities: "ability" items — `system.type` (main, maneuver, freeManeuver, triggered, freeTriggered, move,
  none, villain), `category` (signature, heroic for a Malice cost, villain), `resource` the Malice cost,
  `distance` and `target` structured (the book's target words in `target.custom`), the power roll as a
  "damage" effect (amounts and types per tier) and an "other" effect (the rest of each tier, the potency as
  `{{potency}}` with its characteristic and value), paragraphs before and after the roll in `effect.before`
  and `effect.after`, the flavour in `story`.

The power roll's bonus is not stored by Foundry (it rolls the actor's characteristic); it is read back as the
highest of the characteristics the roll names, or the record's. What the system has no place for (ability
icons, a paragraph's name or Malice cost, a test's tiers, the distance's book spelling, the homebrew rule
modules, the formulas' inputs) travels in the workbench record under `flags["drawsteel-workbench"]`, and
the homebrew rule modules are also written into the biography in words.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any

from workbench.formats.identity import foundry_id, monster_key, part_key
from workbench.formats.record import RECORD_KEY, UNNAMED, ImportRefused, assemble, record_of
from workbench.model import (
    Ability,
    Characteristics,
    Damage,
    DamageModifier,
    Distance,
    Effect,
    Monster,
    Movement,
    Potency,
    PowerRoll,
    Size,
    Target,
    Tier,
    Trait,
)
from workbench.model.parts import CHARACTERISTICS, DAMAGE_TYPES

__all__ = ["FORMAT", "export_monster", "is_foundry", "read_foundry"]

FORMAT = "Foundry VTT Draw Steel NPC"
DEFAULT_IMG = "icons/svg/mystery-man.svg"
ABILITY_IMG = "icons/svg/sword.svg"
FEATURE_IMG = "icons/svg/book.svg"
TYPES = {"main action": "main", "maneuver": "maneuver", "free maneuver": "freeManeuver", "move action": "move",
         "triggered action": "triggered", "free triggered action": "freeTriggered", "no action": "none"}
ACTIONS = {value: key for key, value in TYPES.items()}
DISTANCES = {"melee": "melee", "ranged": "ranged", "melee or ranged": "meleeRanged", "burst": "burst",
             "aura": "aura", "cube": "cube", "line": "line", "wall": "wall", "self": "self", "special": "special"}
KINDS = {value: key for key, value in DISTANCES.items()}
# distance kind -> which Distance numbers fill primary, secondary, tertiary
DISTANCE_SLOTS = {"melee": ("value",), "ranged": ("value",), "melee or ranged": ("value", "value2"),
                  "burst": ("value",), "aura": ("value",), "cube": ("value", "within"),
                  "line": ("value", "value2", "within"), "wall": ("value", "within")}
POTENCY_SLOT = "{{potency}}"
PART_FLAG = "part"  # which workbench part a feature item holds: trait, with-captain, malice-feature
DAMAGE_KEYS = ("all", *DAMAGE_TYPES)


# ---------------------------------------------------------------- export


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(line)}</p>" for line in text.split("\n") if line) if text else ""


def _text_of(markup: str) -> str:
    """The text of paragraphs written by `_paragraphs` (and of simple hand-written HTML)."""
    lines = re.findall(r"<p>(.*?)</p>", markup or "", flags=re.DOTALL) or ([markup] if markup else [])
    return "\n".join(html.unescape(re.sub(r"<[^>]+>", "", line)) for line in lines)


def _target_type(text: str) -> str:
    words = text.lower()
    if words.startswith("self"):
        return "self"
    for key, phrase in (("creatureObject", "creature or object"), ("creatureObject", "creatures or objects"),
                        ("enemyObject", "enemy or object"), ("enemyObject", "enemies or objects"),
                        ("enemyObject", "enemy and object"), ("creature", "creature"), ("enemy", "enem"),
                        ("ally", "all"), ("object", "object")):
        if phrase in words:
            return key
    return "special"


def _effect_html(effects: tuple[Effect, ...]) -> str:
    parts = []
    for effect in effects:
        words = effect.text + "".join(f"\n{t}" for t in effect.tiers or ())
        label = " ".join(p for p in (effect.name or "", effect.cost_text) if p)
        parts.append(_paragraphs(f"{label}: {words}" if label else words))
    return "".join(parts)


def _tier_effects(roll: PowerRoll, key: str) -> dict[str, Any]:
    """A "damage" effect per damage part ("8 damage, 4 corruption damage" is two) and one "other" effect."""
    blank_potency = {"value": "", "characteristic": "none"}
    effects: dict[str, Any] = {}
    for part in range(max(len(t.damages) for t in roll.tiers)):
        tiers = {}
        for n, tier in enumerate(roll.tiers, start=1):
            damage = tier.damages[part] if part < len(tier.damages) else None
            # "0", not "": Foundry fills an empty tier with tier 1's damage
            tiers[f"tier{n}"] = {"value": str(damage.amount) if damage else "0",
                                 "types": list(damage.types) if damage else [], "ignoredImmunities": [],
                                 "potency": dict(blank_potency)}
        damage_id = foundry_id(f"{key}/damage/{part}")
        effects[damage_id] = {"_id": damage_id, "type": "damage", "name": "", "img": None, "damage": tiers}
    other_tiers = {}
    for n, tier in enumerate(roll.tiers, start=1):
        effect, potency = tier.effect, dict(blank_potency)
        if tier.potency is not None:
            effect = effect.replace(str(tier.potency), POTENCY_SLOT, 1)
            potency = {"value": str(tier.potency.value), "characteristic": tier.potency.characteristic}
        other_tiers[f"tier{n}"] = {"display": effect, "potency": potency}
    other_id = foundry_id(key + "/other")
    effects[other_id] = {"_id": other_id, "type": "other", "name": "", "img": None, "other": other_tiers}
    return effects


def _rolled(monster: Monster, roll: PowerRoll | None) -> list[str]:
    """The characteristics Foundry rolls: the roll's own, or (a published block prints only the bonus) those
    of the monster's characteristics that equal the bonus, so Foundry rolls the printed number."""
    if roll is None:
        return []
    if roll.characteristics:
        return list(roll.characteristics)
    return [c for c in CHARACTERISTICS if monster.characteristics[c] == roll.bonus]


def _ability_item(monster: Monster, index: int, ability: Ability) -> dict[str, Any]:
    key = part_key(monster, "ability", index, ability.name)
    distance = ability.distance
    slots = [getattr(distance, name) for name in DISTANCE_SLOTS.get(distance.kind, ())] if distance else []
    primary, secondary, tertiary = ([str(s) for s in slots] + ["", "", ""])[:3]
    villain = ability.villain_action
    category = "signature" if ability.is_signature else "villain" if villain else "heroic" if ability.malice else ""
    target = ability.target
    roll = ability.power_roll
    malice_text = [e for e in ability.effects if e.malice is not None]
    system = {
        "type": "villain" if villain else TYPES.get(ability.action or "no action", "none"),
        "category": category,
        "resource": ability.malice,
        "keywords": [k.lower() for k in ability.keywords],
        "trigger": ability.trigger,
        "distance": {"type": DISTANCES[distance.kind] if distance else "self", "primary": primary,
                     "secondary": secondary, "tertiary": tertiary},
        "damageDisplay": "ranged" if distance and distance.kind == "ranged" else "melee",
        "target": {"type": _target_type(target.text) if target else "self", "custom": target.text if target else "",
                   "value": target.count if target else None},
        "power": {"roll": {"reactive": False, "formula": "@chr", "characteristics": _rolled(monster, roll)},
                  "effects": _tier_effects(roll, key) if roll else {}},
        "effect": {"before": _effect_html(ability.effects_before), "after": _effect_html(ability.effects_after)},
        "spend": {"value": malice_text[0].malice if malice_text else None,
                  "text": malice_text[0].text if malice_text else ""},
        "story": ability.flavour,
        "source": {"book": "", "page": "", "license": ""},
    }
    return {"_id": foundry_id(key), "name": ability.name, "type": "ability", "img": ABILITY_IMG, "system": system,
            "effects": [], "folder": None, "sort": index * 100, "flags": {}}


def _feature_item(monster: Monster, kind: str, index: int, name: str, text: str, sort: int) -> dict[str, Any]:
    key = part_key(monster, kind, index, name)
    return {"_id": foundry_id(key), "name": name, "type": "feature", "img": FEATURE_IMG,
            "system": {"description": {"value": _paragraphs(text), "director": ""},
                       "source": {"book": "", "page": "", "license": ""}},
            "effects": [], "folder": None, "sort": sort, "flags": {RECORD_KEY: {PART_FLAG: kind}}}


def _damage_table(modifiers: tuple[DamageModifier, ...]) -> dict[str, int]:
    table = dict.fromkeys(DAMAGE_KEYS, 0)
    for modifier in modifiers:
        table[modifier.type] = modifier.value
    return table


def _size(monster: Monster) -> dict[str, Any]:
    size = monster.size_class
    if size is None:
        try:
            size = Size.parse(monster.size) if monster.size else None
        except ValueError:
            size = None
    return {"value": size.value, "letter": size.letter or "M"} if size else {"value": 1, "letter": "M"}


def _movement(monster: Monster) -> dict[str, Any]:
    movement = monster.movement
    modes = list(movement.modes) if movement else []
    return {"value": movement.speed if movement else 5,
            "types": ["walk", *(m for m in modes if m != "hover")],
            "hover": "hover" in modes, "disengage": 1}


def _homebrew_words(monster: Monster) -> str:
    return "\n".join(
        f"Homebrew rule: {a.rule}" + (" (" + ", ".join(f"{k} {v}" for k, v in a.values) + ")" if a.values else "")
        for a in monster.homebrew_rules
    )


def _actor(monster: Monster, with_record: bool = True) -> dict[str, Any]:
    characteristics = {c: {"value": monster.characteristics[c] or 0} for c in CHARACTERISTICS}
    stability = monster.stability_value if monster.stability_value is not None else (
        int(monster.stability) if monster.stability.strip().isdigit() else 0)
    items = [_feature_item(monster, "trait", i, t.name, t.text, 100 * i) for i, t in enumerate(monster.traits)]
    if monster.with_captain:
        items.append(_feature_item(monster, "with-captain", 0, "With Captain", monster.with_captain, 10_000))
    items += [_feature_item(monster, "malice-feature", i, f"{t.name} ({t.cost or 0} Malice)", t.text, 20_000 + i)
              for i, t in enumerate(monster.malice_features)]
    items += [_ability_item(monster, i, a) for i, a in enumerate(monster.abilities)]
    actor: dict[str, Any] = {
        "_id": foundry_id(monster_key(monster)),
        "name": monster.name or UNNAMED,
        "type": "npc",
        "img": DEFAULT_IMG,
        "system": {
            "stamina": {"value": monster.stamina, "max": monster.stamina, "temporary": 0},
            "characteristics": characteristics,
            "combat": {"save": {"threshold": 6, "bonus": ""}, "size": _size(monster), "stability": stability,
                       "turns": 2 if monster.organization == "solo" else 1},
            "movement": _movement(monster),
            "damage": {"immunities": _damage_table(monster.immunities),
                       "weaknesses": _damage_table(monster.weaknesses)},
            "statuses": {"immunities": []},
            "biography": {"value": _paragraphs(_homebrew_words(monster)), "director": "", "languages": []},
            "source": {"book": "", "page": "", "license": ""},
            "negotiation": {"interest": 5, "patience": 5, "motivations": [], "pitfalls": [], "impression": 1},
            "ev": monster.ev,
            "monster": {"freeStrike": monster.free_strike, "keywords": [k.lower() for k in monster.keywords],
                        "level": monster.level, "ev": monster.ev, "role": monster.role or "",
                        "organization": monster.organization},
        },
        "items": items,
        "effects": [],
        "folder": None,
        "flags": {},
    }
    if with_record:
        actor["flags"] = {RECORD_KEY: record_of(monster)}
    return actor


def export_monster(monster: Monster) -> str:
    """The monster as a Foundry NPC actor's JSON (what "Import Data" on an actor reads)."""
    return json.dumps(_actor(monster), indent=2, ensure_ascii=False)


# ---------------------------------------------------------------- import


def is_foundry(data: Any) -> bool:
    return isinstance(data, Mapping) and data.get("type") == "npc" and isinstance(data.get("system"), Mapping)


class _Refusal(Exception):
    def __init__(self, part: str, reason: str) -> None:
        super().__init__(part, reason)
        self.part, self.reason = part, reason


def _get(data: Any, path: str, kind: type | tuple[type, ...]) -> Any:
    value = data
    for key in path.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise _Refusal(path, f"got {value!r}; accepts {name}")
    return value


def _number(text: Any, where: str) -> int | None:
    if text in ("", None):
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and re.fullmatch(r"-?\d+", text.strip()):
        return int(text)
    raise _Refusal(where, f"got {text!r}; accepts a whole number (formulas are not read)")


def _tiers_from(effects: Mapping[str, Any], where: str) -> tuple[Tier, Tier, Tier]:
    damages = [e for e in effects.values() if e.get("type") == "damage"]
    other = next((e for e in effects.values() if e.get("type") in ("other", "applied")), None)
    tiers = []
    for n in (1, 2, 3):
        parts = []
        for effect in damages:
            tier = effect["damage"][f"tier{n}"]
            amount = _number(tier.get("value"), f"{where}.damage.tier{n}.value")
            if amount:
                parts.append(Damage(amount=amount, types=tier.get("types") or ()))
        text = ""
        if other:
            tier = other[other["type"]][f"tier{n}"]
            text = tier.get("display") or ""
            chosen = tier.get("potency") or {}
            if POTENCY_SLOT in text:
                value = _number(chosen.get("value"), f"{where}.tier{n}.potency.value")
                text = text.replace(POTENCY_SLOT, str(Potency(characteristic=chosen.get("characteristic"),
                                                               value=value)), 1)
        tiers.append(Tier(damages=tuple(parts), effect=text) if parts else Tier.parse(text))
    return tiers[0], tiers[1], tiers[2]


def _effects_from(markup: str, spend: Mapping[str, Any]) -> tuple[Effect, ...]:
    effects = []
    for line in _text_of(markup).split("\n") if markup else []:
        cost = re.match(r"^(?:(.*?) )?(\d+)(\+)? Malice: (.*)$", line)
        if cost:
            effects.append(Effect(name=cost.group(1) or None, malice=int(cost.group(2)),
                                  malice_plus=bool(cost.group(3)), text=cost.group(4)))
        elif re.match(r"^[A-Z][\w ]{0,30}: ", line):
            name, _, text = line.partition(": ")
            effects.append(Effect(name=name, text=text))
        else:
            effects.append(Effect(text=line))
    return tuple(effects)


def _ability_from(item: Mapping[str, Any], characteristics: Characteristics, villain_number: int) -> Ability:
    system = _get(item, "system", Mapping)
    where = f"items[{item.get('name')!r}].system"
    kind = system.get("type")
    if kind != "villain" and kind not in ACTIONS:
        raise _Refusal(f"{where}.type", f"got {kind!r}; accepts one of {', '.join(ACTIONS)}, villain")
    category = system.get("category") or ""
    if kind == "villain" or category == "villain":
        cost: Any = f"villain {villain_number}"
    elif category == "signature":
        cost = "signature"
    else:
        cost = system.get("resource") or None
    distance_data = system.get("distance") or {}
    distance_kind = KINDS.get(str(distance_data.get("type")))
    if distance_kind is None:
        raise _Refusal(f"{where}.distance.type", f"got {distance_data.get('type')!r}; accepts one of "
                       + ", ".join(KINDS))
    numbers = {name: _number(distance_data.get(slot), f"{where}.distance.{slot}")
               for name, slot in zip(DISTANCE_SLOTS.get(distance_kind, ()), ("primary", "secondary", "tertiary"),
                                     strict=False)}
    distance = Distance(kind=distance_kind, **numbers)
    distance = Distance(**{**distance.model_dump(), "text": distance.canonical})
    target_data = system.get("target") or {}
    target_text = target_data.get("custom") or ""
    roll_data = (system.get("power") or {}).get("roll") or {}
    effects = (system.get("power") or {}).get("effects") or {}
    roll = None
    if effects:
        rolled = [c for c in roll_data.get("characteristics") or [] if c in CHARACTERISTICS]
        values = [v for v in (characteristics[c] for c in rolled) if v is not None]
        tier1, tier2, tier3 = _tiers_from(effects, where)
        roll = PowerRoll(characteristics=rolled, bonus=max(values) if values else 0, tier1=tier1, tier2=tier2,
                         tier3=tier3)
    effect = system.get("effect") or {}
    spend = system.get("spend") or {}
    return Ability(
        name=_get(item, "name", str), flavour=system.get("story") or "", cost=cost,
        action=None if kind == "villain" else ACTIONS[kind],
        keywords=[k.capitalize() for k in system.get("keywords") or []],
        distance=distance,
        target=Target(text=target_text, count=target_data.get("value")) if target_text else None,
        trigger=system.get("trigger") or "", effects_before=_effects_from(effect.get("before") or "", spend),
        power_roll=roll, effects_after=_effects_from(effect.get("after") or "", spend),
    )


def _modifiers(table: Mapping[str, Any]) -> tuple[DamageModifier, ...]:
    return tuple(DamageModifier(type=key, value=table[key]) for key in DAMAGE_KEYS if table.get(key))


def _native(actor: Mapping[str, Any]) -> dict[str, Any]:
    """The Monster fields the actor's own fields give (what Foundry shows and may have changed)."""
    monster = _get(actor, "system.monster", Mapping)
    values = {c: _get(actor, f"system.characteristics.{c}.value", int) for c in CHARACTERISTICS}
    characteristics = Characteristics(**values)
    size = _get(actor, "system.combat.size", Mapping)
    movement_data = _get(actor, "system.movement", Mapping)
    modes = [m for m in movement_data.get("types") or [] if m != "walk"]
    if movement_data.get("hover"):
        modes.append("hover")
    ev = actor["system"].get("ev", monster.get("ev"))
    role = monster.get("role") or None
    native: dict[str, Any] = {
        "name": _get(actor, "name", str),
        "level": _get(actor, "system.monster.level", int),
        "organization": _get(actor, "system.monster.organization", str),
        "role": role,
        "keywords": tuple(k.capitalize() for k in monster.get("keywords") or []),
        "ev": ev if isinstance(ev, int) else _get(actor, "system.monster.ev", int),
        "stamina": _get(actor, "system.stamina.max", int),
        "free_strike": _get(actor, "system.monster.freeStrike", int),
        "stability_value": _get(actor, "system.combat.stability", int),
        "size_class": Size(value=size.get("value"), letter=size.get("letter") if size.get("value") == 1 else None),
        "movement": Movement(speed=movement_data.get("value"), modes=modes),
        "characteristics": characteristics,
        "immunities": _modifiers(_get(actor, "system.damage.immunities", Mapping)),
        "weaknesses": _modifiers(_get(actor, "system.damage.weaknesses", Mapping)),
    }
    traits, malice, abilities, with_captain = [], [], [], ""
    items = sorted(_get(actor, "items", list), key=lambda i: i.get("sort", 0) if isinstance(i, Mapping) else 0)
    villains = 0
    for item in items:
        part = ((item.get("flags") or {}).get(RECORD_KEY) or {}).get(PART_FLAG)
        if item.get("type") == "ability":
            system = item.get("system") or {}
            villain = system.get("type") == "villain" or system.get("category") == "villain"
            villains += villain
            abilities.append(_ability_from(item, characteristics, min(villains, 3)))
        elif item.get("type") == "feature":
            text = _text_of(((item.get("system") or {}).get("description") or {}).get("value") or "")
            name = item.get("name") or ""
            malice_name = re.match(r"^(.*) \((\d+) Malice\)$", name)
            if part == "with-captain" or (part is None and name == "With Captain"):
                with_captain = text
            elif malice_name and part in (None, "malice-feature"):
                malice.append(Trait(name=malice_name.group(1), text=text, cost=int(malice_name.group(2)) or None))
            else:
                traits.append(Trait(name=name, text=text))
    native.update(traits=tuple(traits), malice_features=tuple(malice), abilities=tuple(abilities),
                  with_captain=with_captain)
    return native


def read_foundry(data: Any, source: str) -> Monster:
    """The monster of a Foundry NPC actor's JSON (parsed)."""
    try:
        native = _native(data)
    except _Refusal as exc:
        raise ImportRefused(source, FORMAT, exc.part, exc.reason) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ImportRefused(source, FORMAT, "items", str(exc).splitlines()[0] if str(exc) else type(exc).__name__) \
            from None
    record = (data.get("flags") or {}).get(RECORD_KEY)
    return assemble(native, record, lambda m: _native(_actor(m, with_record=False)), source, FORMAT)
