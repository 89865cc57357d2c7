"""Forge Steel's `.ds-monster` (one monster) and `.ds-monster-group` (a group of them), both ways.

Forge Steel's importer takes the JSON as it is, so every field its views read is written with its own types
and enum spellings (`role: {type: "Harrier", organization: "Horde"}`, `size: {value: 1, mod: "S"}`, …).

Where each part goes:
- characteristics: `characteristics`, all five (a formula monster's unset ones as 0; the record keeps None);
- immunities and weaknesses: one "Damage Modifier" feature each ("all" is its damage type "Damage");
- movement: `speed.modes` (lower-case: "climb", "fly", "hover" …);
- traits: "Text" features (a named paragraph becomes a "Name: text" line of the description);
- abilities: "Ability" features — signature as `cost: "signature"`, a Malice cost as the number, villain
  action N as usage "Villain Action" with `order` N; the power roll a "roll" section with the tiers' text,
  paragraphs before and after it "text" sections, a paragraph with a Malice cost a "field" section;
- Malice features: "Malice" features with their cost; With Captain: `withCaptain`.

What Forge Steel has no place for goes into the monster's description — the homebrew rule modules, in words
— and the workbench record on its last line (an ability's icon, a villain action's own action type, a
distance's book spelling, a test's tiers inside a paragraph, the formulas' inputs).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.errors import InvalidInput
from workbench.formats.identity import monster_key, part_key, slug
from workbench.formats.lenient import closest_stat_block
from workbench.formats.record import (
    UNNAMED,
    WRONG_KIND,
    ImportRefused,
    PartRefused,
    assemble,
    check_monster,
    object_part,
    quoted,
    record_line,
    record_of,
    split_record_line,
    text_part,
)
from workbench.model import (
    Ability,
    Characteristics,
    DamageModifier,
    Distance,
    Effect,
    KeptText,
    Monster,
    Movement,
    PowerRoll,
    Size,
    Target,
    Tier,
    Trait,
)
from workbench.model.parts import CHARACTERISTICS, MOVEMENT_MODES
from workbench.rules.limits import MAX_LEVEL

__all__ = ["FORMAT", "GROUP_SUFFIX", "SUFFIX", "export_group", "export_monster", "is_forge_steel", "read_forge_steel"]

FORMAT = "Forge Steel .ds-monster"
SUFFIX = ".ds-monster"
GROUP_SUFFIX = ".ds-monster-group"

ORGANIZATIONS = {"minion": "Minion", "horde": "Horde", "platoon": "Platoon", "elite": "Elite", "leader": "Leader",
                 "solo": "Solo"}
ROLES = {"ambusher": "Ambusher", "artillery": "Artillery", "brute": "Brute", "controller": "Controller",
         "defender": "Defender", "harrier": "Harrier", "hexer": "Hexer", "mount": "Mount", "support": "Support"}
NO_ROLE = "No Role"
# workbench action -> (usage, free)
USAGES = {
    "main action": ("Main Action", False),
    "maneuver": ("Maneuver", False),
    "free maneuver": ("Maneuver", True),
    "move action": ("Move Action", False),
    "triggered action": ("Triggered Action", False),
    "free triggered action": ("Triggered Action", True),
    "no action": ("No Action", False),
}
ACTIONS = {value: key for key, value in USAGES.items()}
VILLAIN_USAGE = "Villain Action"
DISTANCE_TYPES = {"melee": "Melee", "ranged": "Ranged", "burst": "Burst", "aura": "Aura", "cube": "Cube",
                  "line": "Line", "wall": "Wall", "self": "Self", "special": "Special"}
DISTANCE_KINDS = {value: key for key, value in DISTANCE_TYPES.items()}
IMMUNITY, WEAKNESS = "Immunity", "Weakness"
ALL_DAMAGE = "Damage"
EMPTY_STATE = {"staminaDamage": 0, "staminaTemp": 0, "recoveriesUsed": 0, "conditions": [], "reactionUsed": False,
               "hidden": False, "defeated": False}


# ---------------------------------------------------------------- export


def _size(monster: Monster) -> dict[str, Any]:
    size = monster.size_class or _parsed(Size.parse, monster.size)
    if size is None:
        return {"value": 1, "mod": "M"}
    return {"value": size.value, "mod": size.letter or ""}


def _speed(monster: Monster) -> dict[str, Any]:
    movement = monster.movement or _movement_from_text(monster.speed)
    if movement is None:
        return {"value": 5, "modes": []}
    return {"value": movement.speed, "modes": list(movement.modes)}


def _parsed(parse: Any, text: str) -> Any:
    try:
        return parse(text) if text else None
    except ValueError:
        return None


# numbers of at most 40 digits, as the model reads them (model.ability): int() raises past 4,300
_SPEED_TEXT = re.compile(r"^\s*(\d{1,40})\s*(?:\((.*)\))?\s*$")


def _movement_from_text(text: str) -> Movement | None:
    match = _SPEED_TEXT.match(text or "")
    if not match:
        return None
    try:
        return Movement.parse(int(match.group(1)), match.group(2) or "")
    except ValueError:
        return None


def _modifier(modifier: DamageModifier, kind: str) -> dict[str, Any]:
    return {
        "damageType": ALL_DAMAGE if modifier.type == "all" else modifier.type.capitalize(),
        "type": kind,
        "value": modifier.value,
        "valueFromController": None,
        "valueCharacteristics": [],
        "valueCharacteristicMultiplier": 0,
        "valuePerLevel": 0,
        "valuePerEchelon": 0,
    }


def _feature(monster: Monster, kind: str, index: int, name: str, ftype: str, data: Any,
             text: str = "") -> dict[str, Any]:
    return {"id": part_key(monster, kind, index, name), "name": name, "description": text, "type": ftype,
            "data": data}


def _distance(distance: Distance | None) -> list[dict[str, Any]]:
    def entry(kind: str, value: int | None = 0, value2: int | None = 0, within: int | None = 0) -> dict[str, Any]:
        return {"type": kind, "value": value or 0, "value2": value2 or 0, "within": within or 0,
                "special": _special_words(distance) if distance and kind == "Special" else "",
                "qualifier": distance.note if distance and kind != "Special" else ""}

    if distance is None:
        return []
    if distance.kind == "melee or ranged":
        melee, ranged = entry("Melee", distance.value), entry("Ranged", distance.value2)
        melee["qualifier"] = ranged["qualifier"] = ""
        return [melee, ranged]
    return [entry(DISTANCE_TYPES[distance.kind], distance.value, distance.value2, distance.within)]


def _special_words(distance: Distance) -> str:
    """What Forge Steel shows of a special distance: its note, or the words of one kept as text."""
    if distance.note:
        return distance.note
    return "" if distance.text.strip().lower() in ("", "special") else distance.text


def _effect_section(effect: Effect) -> dict[str, Any]:
    text = effect.text
    if effect.tiers:  # a test's three outcomes inside a paragraph: Forge Steel has sections for rolls only
        text = "\n".join([text, *(f"- {t}" for t in effect.tiers)]).strip()
    if effect.malice is not None or effect.name:
        return {"type": "field", "name": effect.name or "", "value": effect.malice or 0,
                "repeatable": effect.malice_plus, "effect": text}
    return {"type": "text", "text": text}


def _ability(monster: Monster, index: int, ability: Ability) -> dict[str, Any]:
    villain = ability.villain_action
    usage, free = (VILLAIN_USAGE, False) if villain else USAGES.get(ability.action or "no action", ("No Action", False))
    kind: dict[str, Any] = {"usage": usage, "free": free, "trigger": ability.trigger, "time": "", "qualifiers": [],
                            "freeStrike": False}
    if villain:
        kind["order"] = villain
    sections = [_effect_section(e) for e in ability.effects_before]
    if ability.power_roll is not None:
        roll = ability.power_roll
        sections.append({"type": "roll", "roll": {
            "characteristic": [c.capitalize() for c in roll.characteristics], "bonus": roll.bonus,
            "tier1": str(roll.tier1), "tier2": str(roll.tier2), "tier3": str(roll.tier3)}})
    sections += [_effect_section(e) for e in ability.effects_after]
    cost: int | str = "signature" if ability.is_signature else (ability.malice or 0)
    body = {"id": part_key(monster, "ability", index, ability.name), "name": ability.name,
            "description": ability.flavour, "type": kind, "keywords": list(ability.keywords),
            "distance": _distance(ability.distance), "target": str(ability.target) if ability.target else "",
            "cost": cost, "repeatable": False, "minLevel": 1, "sections": sections}
    return _feature(monster, "ability-feature", index, ability.name, "Ability", {"ability": body})


def _malice(monster: Monster, index: int, trait: Trait) -> dict[str, Any]:
    data = {"cost": trait.cost or 0, "repeatable": False, "sections": [trait.text], "echelon": 1}
    return _feature(monster, "malice", index, trait.name, "Malice", data)


def _villain_text(monster: Monster, index: int, trait: Trait) -> dict[str, Any]:
    """A villain action the builder holds as text only: an ability with a text section."""
    body = {"id": part_key(monster, "villain-text", index, trait.name), "name": trait.name, "description": "",
            "type": {"usage": VILLAIN_USAGE, "free": False, "trigger": "", "time": "", "qualifiers": [],
                     "freeStrike": False, "order": index + 1},
            "keywords": [], "distance": [], "target": "", "cost": 0, "repeatable": False, "minLevel": 1,
            "sections": [{"type": "text", "text": trait.text}]}
    return _feature(monster, "villain-text-feature", index, trait.name, "Ability", {"ability": body})


def _features(monster: Monster) -> list[dict[str, Any]]:
    features = []
    for kind, name, modifiers in ((IMMUNITY, "Immunities", monster.immunities),
                                  (WEAKNESS, "Weaknesses", monster.weaknesses)):
        if modifiers:
            features.append(_feature(monster, kind.lower(), 0, name, "Damage Modifier",
                                     {"modifiers": [_modifier(m, kind) for m in modifiers]}))
    features += [_feature(monster, "trait", i, t.name, "Text", None, t.text) for i, t in enumerate(monster.traits)]
    features += [_ability(monster, i, a) for i, a in enumerate(monster.abilities)]
    features += [_malice(monster, i, t) for i, t in enumerate(monster.malice_features)]
    features += [_villain_text(monster, i, t) for i, t in enumerate(monster.villain_actions)]
    return features


def _homebrew_words(monster: Monster) -> str:
    """The homebrew rule modules attached, in words, for the Director reading the description in Forge Steel."""
    lines = []
    for attached in monster.homebrew_rules:
        values = ", ".join(f"{key} {value}" for key, value in attached.values)
        lines.append(f"Homebrew rule: {attached.rule}" + (f" ({values})" if values else ""))
    return "\n".join(lines)


# Monster fields a .ds-monster carries exactly, left out of the record in its description (kept short there).
EXACT = ("name", "level", "organization", "role", "keywords", "ev", "stamina", "free_strike", "with_captain",
         "immunities", "weaknesses")


def _monster_dict(monster: Monster, with_record: bool = True) -> dict[str, Any]:
    characteristics = monster.characteristics
    data: dict[str, Any] = {
        "id": "wb-" + slug(monster.name) + "-" + monster_key(monster).rsplit(".", 1)[1],
        "name": monster.name or UNNAMED,
        "description": _homebrew_words(monster),
        "picture": None,
        "level": monster.level,
        "role": {"type": ROLES.get(monster.role or "", NO_ROLE),
                 "organization": ORGANIZATIONS.get(monster.organization, monster.organization.capitalize())},
        "keywords": list(monster.keywords),
        "encounterValue": monster.ev,
        "size": _size(monster),
        "speed": _speed(monster),
        "stamina": monster.stamina,
        "stability": monster.stability_number,
        "freeStrikeDamage": monster.free_strike,
        "freeStrikeType": ALL_DAMAGE,
        "characteristics": [{"characteristic": c.capitalize(), "value": characteristics[c] or 0}
                            for c in CHARACTERISTICS],
        "withCaptain": monster.with_captain,
        "features": _features(monster),
        "retainer": None,
        "state": dict(EMPTY_STATE),
    }
    if with_record:
        record = record_of(monster, leave_out=[k for k in EXACT if k != "name" or monster.name])
        data["description"] = "\n\n".join(p for p in (data["description"], record_line(record)) if p)
    return data


def export_monster(monster: Monster) -> str:
    """The monster as a `.ds-monster` file's text (tab-indented JSON, as Forge Steel writes it)."""
    return json.dumps(_monster_dict(monster), indent="\t", ensure_ascii=False)


def export_group(monsters: Sequence[Monster], name: str = "Workbench monsters", description: str = "") -> str:
    """Monsters together as a `.ds-monster-group` (an encounter's or a library's monsters)."""
    group = {
        "id": "wb-group-" + slug(name),
        "name": name,
        "description": description,
        "picture": None,
        "information": [],
        "malice": [],
        "monsters": [_monster_dict(m) for m in monsters],
        "addOns": [],
    }
    return json.dumps(group, indent="\t", ensure_ascii=False)


# ---------------------------------------------------------------- import


def is_forge_steel(data: Any) -> bool:
    """A Forge Steel monster: Forge Steel itself tests for `withCaptain` among a creature's fields."""
    return isinstance(data, Mapping) and "withCaptain" in data and "features" in data


def is_forge_steel_group(data: Any) -> bool:
    return isinstance(data, Mapping) and isinstance(data.get("monsters"), list) and "malice" in data


# Organizations Forge Steel has beside the six of the monster rules: read as the closest of those (noted).
OTHER_ORGANIZATIONS = ("Retainer", "Champion", "Companion", "No Organization")


def _need(data: Any, key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise PartRefused(f"{where}{key}", f"got {quoted(value)}; accepts {expected}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise PartRefused(where, f"got {quoted(value)}; accepts a list")
    return value


def _effect_from(section: Mapping[str, Any], where: str) -> Effect:
    if section.get("type") == "field":
        value = section.get("value") or 0
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise PartRefused(f"{where}.value", f"got {quoted(value)}; accepts a whole number of Malice")
        return Effect(name=text_part(section.get("name"), f"{where}.name") or None,
                      text=text_part(section.get("effect"), f"{where}.effect"),
                      malice=value or None, malice_plus=bool(section.get("repeatable")) and bool(value))
    return Effect(text=text_part(section.get("text"), f"{where}.text"))


def _distance_from(entries: list[Any], where: str, kept: list[KeptText]) -> Distance | None:
    if not entries:
        return None
    entries = [object_part(e, f"{where}.distance") for e in entries]
    kinds = [e.get("type") for e in entries]
    try:
        if kinds == ["Melee", "Ranged"]:
            return _spelled(Distance(kind="melee or ranged", value=entries[0].get("value"),
                                     value2=entries[1].get("value")))
        first = entries[0]
        kind = DISTANCE_KINDS.get(first.get("type"))
        if kind is not None and len(entries) == 1:
            needs = {"melee": ("value",), "ranged": ("value",), "burst": ("value",), "aura": ("value",),
                     "cube": ("value", "within"), "line": ("value", "value2", "within"),
                     "wall": ("value", "within")}
            numbers = {name: first.get(name) for name in needs.get(kind, ())}
            note = first.get("special") if kind == "special" else first.get("qualifier")
            return _spelled(Distance(kind=kind, note=text_part(note, f"{where}.distance.qualifier"), **numbers))
    except InvalidInput:
        pass
    # more than one distance, or one the model has no kind for: kept as text, each in the book's words
    text = " or ".join(_entry_words(e) for e in entries)
    kept.append(KeptText(where=where, part="distance", text=text))
    return Distance(kind="special", text=text)


def _entry_words(entry: Mapping[str, Any]) -> str:
    """One Forge Steel distance in the book's words ("2 cube within 5"), or its fields as they are."""
    kind = DISTANCE_KINDS.get(str(entry.get("type")))
    try:
        numbers = {k: entry.get(k) or None for k in ("value", "value2", "within")}
        return Distance(kind=kind, **numbers).canonical if kind else str(entry.get("type"))
    except InvalidInput:
        return " ".join(str(entry.get(k)) for k in ("type", "value", "value2", "within") if entry.get(k))


def _spelled(distance: Distance) -> Distance:
    """The distance with the book's usual spelling as its text (what a stat block read from the book holds)."""
    return Distance(**{**distance.model_dump(), "text": distance.canonical})


def _roll_from(data: Mapping[str, Any], where: str) -> PowerRoll:
    chosen = _list(data.get("characteristic"), f"{where}.characteristic")
    tiers = [text_part(data.get(f"tier{n}"), f"{where}.tier{n}") for n in (1, 2, 3)]
    return PowerRoll(characteristics=[c.lower() for c in chosen if isinstance(c, str)], bonus=data.get("bonus", 0),
                     tier1=Tier.parse(tiers[0]), tier2=Tier.parse(tiers[1]), tier3=Tier.parse(tiers[2]))


def _ability_from(body: Mapping[str, Any], kept: list[KeptText]) -> Ability:
    name = _need(body, "name", str, "ability.")
    where = f"ability {name!r}"
    kind = _need(body, "type", Mapping, "ability.")
    usage, free = kind.get("usage"), bool(kind.get("free"))
    cost_value = body.get("cost")
    if usage == VILLAIN_USAGE:
        order = kind.get("order") or 1
        cost: Any = f"villain {order if order in (1, 2, 3) else 1}"
        action = None
    else:
        cost = "signature" if cost_value == "signature" else (cost_value or None)
        if (usage, free) not in ACTIONS:
            raise PartRefused(f"{where}.type.usage", f"got {quoted(usage)}; accepts one of "
                           + ", ".join(sorted({u for u, _ in ACTIONS})) + ", Villain Action")
        action = ACTIONS[(usage, free)]
    before: list[Effect] = []
    after: list[Effect] = []
    roll: PowerRoll | None = None
    for index, raw in enumerate(_list(body.get("sections"), f"{where}.sections")):
        section = object_part(raw, f"{where}.sections[{index}]")
        if section.get("type") == "roll" and roll is None:
            roll = _roll_from(object_part(section.get("roll"), f"{where}.roll"), f"{where}.roll")
        elif section.get("type") == "roll":
            second = _roll_from(object_part(section.get("roll"), f"{where}.roll"), f"{where}.roll")
            kept.append(KeptText(where=where, part="a second power roll", text=second.roll_text))
            after.append(Effect(text=second.roll_text, tiers=second.tiers))
        else:
            (after if roll is not None else before).append(_effect_from(section, f"{where}.sections[{index}]"))
    target = text_part(body.get("target"), f"{where}.target")
    return Ability(
        name=name, flavour=text_part(body.get("description"), f"{where}.description"), cost=cost,
        action=action, keywords=list(_list(body.get("keywords"), f"{where}.keywords")),
        distance=_distance_from(_list(body.get("distance"), f"{where}.distance"), where, kept),
        target=Target(text=target) if target else None, trigger=text_part(kind.get("trigger"), f"{where}.trigger"),
        effects_before=tuple(before), power_roll=roll, effects_after=tuple(after),
    )


def _modifiers(feature: Mapping[str, Any], kind: str) -> list[DamageModifier]:
    found = []
    name = feature.get("name")
    for modifier in _list(object_part(feature.get("data"), f"features[{name!r}].data").get("modifiers"),
                          f"features[{name!r}].data.modifiers"):
        modifier = object_part(modifier, f"features[{name!r}].data.modifiers")
        if modifier.get("type") == kind:
            damage = modifier.get("damageType")
            found.append(DamageModifier(type="all" if damage == ALL_DAMAGE else damage, value=modifier.get("value")))
    return found


def _organization(data: Mapping[str, Any], role: Mapping[str, Any], kept: list[KeptText]) -> tuple[str, str | None]:
    given = role.get("organization")
    organization = {v: k for k, v in ORGANIZATIONS.items()}.get(given) if isinstance(given, str) else None
    role_type = role.get("type")
    if role_type != NO_ROLE and role_type not in ROLES.values():
        raise PartRefused("role.type", f"got {quoted(role_type)}; accepts one of {NO_ROLE}, " + ", ".join(ROLES.values()))
    role_name = None if role_type == NO_ROLE else str(role_type).lower()
    if organization is not None:
        return organization, role_name
    if given not in OTHER_ORGANIZATIONS:
        raise PartRefused("role.organization", f"got {quoted(given)}; accepts one of "
                       + ", ".join([*ORGANIZATIONS.values(), *OTHER_ORGANIZATIONS]))
    printed = {"ev": data.get("encounterValue"), "stamina": data.get("stamina"),
               "free_strike": data.get("freeStrikeDamage")}
    printed = {k: v if isinstance(v, int) and not isinstance(v, bool) else None for k, v in printed.items()}
    level = _need(data, "level", int)
    if not 1 <= level <= MAX_LEVEL:
        raise PartRefused("level", f"got {level}; accepts a whole number from 1 to {MAX_LEVEL}")
    try:
        chosen = closest_stat_block(level, None, role_name, printed)
    except InvalidInput as exc:
        raise PartRefused("role.organization", str(exc).split(": ", 1)[-1]) from None
    words = " ".join(w.capitalize() for w in chosen if w)
    kept.append(KeptText(where="the monster", part="organization and role",
                         text=f"{given} {role_type} (read as {words}: the formulas' closest to the printed EV, "
                              "Stamina and free strike)"))
    return chosen


def _modes(modes: list[Any], kept: list[KeptText]) -> list[str]:
    """The movement modes the rules name ("fly", "Climb"); another word ("flying") is kept as text."""
    known = []
    for mode in modes:
        key = mode.strip().lower() if isinstance(mode, str) else None
        if key in MOVEMENT_MODES:
            known.append(key)
        else:
            kept.append(KeptText(where="the monster", part="movement mode", text=str(mode)))
    return known


def _native(data: Mapping[str, Any]) -> dict[str, Any]:
    """The Monster fields a `.ds-monster`'s own fields give (what Forge Steel shows and may have changed)."""
    kept: list[KeptText] = []
    role = _need(data, "role", Mapping)
    organization, role_name = _organization(data, role, kept)
    values = {}
    for entry in _need(data, "characteristics", list):
        entry = object_part(entry, "characteristics")
        values[text_part(entry.get("characteristic"), "characteristics.characteristic").lower()] = entry.get("value")
    size, speed = _need(data, "size", Mapping), _need(data, "speed", Mapping)
    native: dict[str, Any] = {
        "name": _need(data, "name", str),
        "level": _need(data, "level", int),
        "organization": organization,
        "role": role_name,
        "keywords": tuple(text_part(k, "keywords") for k in _need(data, "keywords", list)),
        "ev": _need(data, "encounterValue", int),
        "stamina": _need(data, "stamina", int),
        "free_strike": _need(data, "freeStrikeDamage", int),
        "stability_value": _need(data, "stability", int),
        "size_class": Size(value=size.get("value"), letter=size.get("mod") or None),
        "movement": Movement(speed=speed.get("value"), modes=_modes(_list(speed.get("modes"), "speed.modes"), kept)),
        "characteristics": Characteristics(**{c: values.get(c) for c in CHARACTERISTICS}),
        "with_captain": text_part(data.get("withCaptain"), "withCaptain"),
    }
    traits, abilities, malice, immunities, weaknesses = [], [], [], [], []
    for index, raw in enumerate(_need(data, "features", list)):
        feature = object_part(raw, f"features[{index}]")
        ftype = feature.get("type")
        name = text_part(feature.get("name"), f"features[{index}].name")
        if ftype == "Text":
            traits.append(Trait(name=name, text=text_part(feature.get("description"), f"features[{name!r}].description")))
        elif ftype in ("Ability", "Malice Ability"):  # a Malice Ability is an ability bought with Malice
            body = object_part(object_part(feature.get("data"), f"features[{name!r}].data").get("ability"),
                        f"features[{name!r}].data.ability")
            abilities.append(_ability_from(body, kept))
        elif ftype == "Malice":
            body = object_part(feature.get("data"), f"features[{name!r}].data")
            sections = _list(body.get("sections"), f"features[{name!r}].data.sections")
            text = "\n".join(s if isinstance(s, str) else json.dumps(s) for s in sections)
            cost = body.get("cost") or None
            if cost is not None and (not isinstance(cost, int) or isinstance(cost, bool) or cost < 1):
                raise PartRefused(f"features[{name!r}].data.cost", f"got {quoted(cost)}; accepts a whole number")
            malice.append(Trait(name=name, text=text, cost=cost))
        elif ftype == "Damage Modifier":
            immunities += _modifiers(feature, IMMUNITY)
            weaknesses += _modifiers(feature, WEAKNESS)
        else:  # a feature the model has no part for (a condition immunity ...): a trait in Forge Steel's words
            words = text_part(feature.get("description"), f"features[{name!r}].description")
            details = object_part(feature.get("data"), f"features[{name!r}].data")
            listed = ", ".join(str(v) for value in details.values() if isinstance(value, list) for v in value)
            text = "; ".join(p for p in (words, listed) if p)
            kept.append(KeptText(where=f"feature {name!r}", part=str(ftype), text=text))
            traits.append(Trait(name=name or str(ftype), text=text))
    native.update(traits=tuple(traits), abilities=tuple(abilities), malice_features=tuple(malice),
                  immunities=tuple(immunities), weaknesses=tuple(weaknesses), kept_as_text=tuple(kept))
    return native


def _read_one(data: Any, source: str) -> Monster:
    if not isinstance(data, Mapping):
        raise ImportRefused(source, FORMAT, "monster", f"got {quoted(data)}; accepts a monster object")
    try:
        native = _native(data)
        description = text_part(data.get("description"), "description")
    except PartRefused as exc:
        raise ImportRefused(source, FORMAT, exc.part, exc.reason) from None
    except InvalidInput as exc:
        raise ImportRefused(source, FORMAT, exc.field, str(exc).split(": ", 1)[-1]) from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        raise ImportRefused(source, FORMAT, "features", WRONG_KIND) from None
    _, record = split_record_line(description)
    monster = assemble(native, record, lambda m: _native(_monster_dict(m, with_record=False)), source, FORMAT)
    return check_monster(monster, source, FORMAT)


def read_forge_steel(data: Any, source: str) -> list[Monster]:
    """The monsters of a `.ds-monster` (one) or `.ds-monster-group` (all of its monsters), parsed JSON in;
    a group's monster is named by its place ("group.ds-monster-group monster 3")."""
    if is_forge_steel_group(data):
        return [_read_one(m, f"{source} monster {i + 1}") for i, m in enumerate(data["monsters"])]
    return [_read_one(data, source)]
