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

from workbench.errors import InvalidInput
from workbench.formats.identity import foundry_id, monster_key, part_key
from workbench.formats.lenient import closest_stat_block, evaluate
from workbench.formats.record import (
    RECORD_KEY,
    UNNAMED,
    WRONG_KIND,
    ImportRefused,
    PartRefused,
    assemble,
    object_part,
    quoted,
    record_of,
    text_part,
)
from workbench.markup import Markup, join
from workbench.model import (
    Ability,
    Characteristics,
    Damage,
    DamageModifier,
    Distance,
    Effect,
    KeptText,
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
from workbench.rules.limits import MAX_LEVEL
from workbench.rules.ruleset import core_ruleset

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
    return str(join(Markup("<p>{}</p>").format(line) for line in text.split("\n") if line))


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
    stability = monster.stability_number
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


def _get(data: Any, path: str, kind: type | tuple[type, ...]) -> Any:
    value = data
    for key in path.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise PartRefused(path, f"got {quoted(value)}; accepts {name}")
    return value


def _number(text: Any, where: str, names: Mapping[str, int] | None = None) -> int | None:
    """A whole number, or a simple formula Foundry evaluates ("7+5", "@potency.weak+1"); None for none.
    A formula the workbench does not read raises `_Unread` (the caller keeps its words as text)."""
    if text in ("", None):
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str):
        value = evaluate(text, names)
        if value is not None:
            return value
        raise _Unread(text)
    raise PartRefused(where, f"got {quoted(text)}; accepts a whole number or a formula")


class _Unread(Exception):
    """A formula the workbench does not evaluate (dice, a roll-data name it does not know)."""


# Foundry's default potency of each tier (base-power-roll-effect.mjs): the weak, average and strong potency.
DEFAULT_POTENCY = {1: "@potency.weak", 2: "@potency.average", 3: "@potency.strong"}
FORCED_WORDS = {"push": "push", "pull": "pull", "slide": "slide"}


def _roll_names(characteristics: Characteristics, bonus: int) -> dict[str, int]:
    """What Foundry's formulas name: the potencies from the highest characteristic (at least 0) −2, −1, +0
    (creature.mjs), and `@chr`, the rolled characteristic."""
    highest = max(0, *(v for _, v in characteristics.items() if v is not None))
    return {"potency.weak": highest - 2, "potency.average": highest - 1, "potency.strong": highest, "chr": bonus}


class _TierReader:
    """The three tiers of one ability's power roll, read as Foundry shows them (each effect's text per tier,
    in the effects' order, joined by "; "; damage first), with Foundry's defaults for what a tier leaves
    blank: a potency's value by tier, its characteristic and (unless the roll is reactive) an applied or forced
    effect's text from the tier before, a damage from tier 1 (tier 1's own default is 2 + the characteristic)."""

    def __init__(self, where: str, names: Mapping[str, int], reactive: bool, kept: list[KeptText]) -> None:
        self.where, self.names, self.reactive, self.kept = where, names, reactive, kept

    def _formula(self, raw: Any, where: str, part: str) -> int | None:
        try:
            return _number(raw, where, self.names)
        except _Unread:
            self.kept.append(KeptText(where=self.where, part=part, text=str(raw)))
            return None

    def _potency(self, potency: Mapping[str, Any], n: int, previous: str, where: str) -> tuple[str, str]:
        """(the words of `{{potency}}`, this tier's characteristic for the next tier)."""
        characteristic = text_part(potency.get("characteristic"), f"{where}.characteristic") or previous
        if characteristic in ("", "none") or characteristic not in CHARACTERISTICS:
            if characteristic not in ("", "none"):
                self.kept.append(KeptText(where=self.where, part=f"tier {n} potency", text=characteristic))
            return "", characteristic
        raw = potency.get("value") or DEFAULT_POTENCY[n]
        value = self._formula(raw, f"{where}.value", f"tier {n} potency")
        if value is None:
            return f"{characteristic[0].upper()} < {raw}", characteristic
        try:
            return str(Potency(characteristic=characteristic, value=value)), characteristic
        except InvalidInput as exc:
            raise PartRefused(f"{where}.value", str(exc).split(": ", 1)[-1]) from None

    def tiers(self, effects: Mapping[str, Any]) -> tuple[Tier, Tier, Tier]:
        entries = [object_part(e, f"{self.where}.power.effects") for e in effects.values()]
        entries.sort(key=lambda e: e.get("sort", 0) if isinstance(e.get("sort", 0), (int, float)) else 0)
        damages: list[list[Damage]] = [[], [], []]
        words: list[list[str]] = [[], [], []]
        for effect in entries:
            kind = effect.get("type")
            body = object_part(effect.get(kind) if isinstance(kind, str) else None, f"{self.where}.power.effects.{kind}")
            tiers = [object_part(body.get(f"tier{n}"), f"{self.where}.{kind}.tier{n}") for n in (1, 2, 3)]
            if kind == "damage":
                self._damage(tiers, damages, words)
            elif kind in ("applied", "other", "forced"):
                self._text(kind, tiers, words)
            else:
                shown = [t.get("display") for t in tiers if isinstance(t.get("display"), str) and t["display"]]
                for n, tier in enumerate(tiers):
                    text = tier.get("display")
                    if isinstance(text, str) and text:
                        words[n].append(text)
                if not shown:
                    self.kept.append(KeptText(where=self.where, part="power roll effect",
                                              text=f"a {kind!s} effect (no words to show)"))
        result = []
        for n in range(3):
            text = "; ".join(w for w in words[n] if w)
            try:
                result.append(Tier(damages=tuple(damages[n]), effect=text) if damages[n] else Tier.parse(text))
            except InvalidInput as exc:
                raise PartRefused(f"{self.where}.tier{n + 1}", str(exc).split(": ", 1)[-1]) from None
        return result[0], result[1], result[2]

    def _damage(self, tiers: list[Mapping[str, Any]], damages: list[list[Damage]], words: list[list[str]]) -> None:
        first = tiers[0].get("value")
        for n, tier in enumerate(tiers, start=1):
            raw = tier.get("value")
            if raw in ("", None) and not self.reactive:
                raw = "2 + @chr" if n == 1 else first
            amount = self._formula(raw, f"{self.where}.damage.tier{n}.value", f"tier {n} damage")
            types = tier.get("types") or ()
            if not isinstance(types, (list, tuple)):
                raise PartRefused(f"{self.where}.damage.tier{n}.types", f"got {quoted(types)}; accepts a list")
            if amount is None and raw not in ("", None):
                words[n - 1].append(f"{raw} {' or '.join(types)} damage".replace("  ", " "))
            elif amount:
                try:
                    damages[n - 1].append(Damage(amount=amount, types=tuple(types)))
                except InvalidInput as exc:
                    raise PartRefused(f"{self.where}.damage.tier{n}", str(exc).split(": ", 1)[-1]) from None

    def _text(self, kind: str, tiers: list[Mapping[str, Any]], words: list[list[str]]) -> None:
        characteristic, display = "", ""
        for n, tier in enumerate(tiers, start=1):
            where = f"{self.where}.{kind}.tier{n}"
            own = text_part(tier.get("display"), f"{where}.display")
            if kind != "other" and not own and not self.reactive and n > 1:
                own = display
            display = own
            potency, characteristic = self._potency(object_part(tier.get("potency"), f"{where}.potency"), n,
                                                    characteristic if n > 1 else "", f"{where}.potency")
            text = own.replace(POTENCY_SLOT, potency)
            if kind == "forced" and "{{forced}}" in text:
                text = text.replace("{{forced}}", self._forced(tier, n, where))
            words[n - 1].append(" ".join(text.split()))

    def _forced(self, tier: Mapping[str, Any], n: int, where: str) -> str:
        movement = tier.get("movement") or []
        if not isinstance(movement, list) or not all(isinstance(m, str) for m in movement):
            raise PartRefused(f"{where}.movement", f"got {quoted(movement)}; accepts a list of push, pull, slide")
        distance = self._formula(tier.get("distance"), f"{where}.distance", f"tier {n} forced movement")
        vertical = "vertical" in (tier.get("properties") or [])
        kinds = " or ".join(("vertical " if vertical else "") + FORCED_WORDS.get(m, str(m)) for m in movement)
        return f"{kinds} {distance if distance is not None else tier.get('distance')}".strip()


def _effects_from(markup: str, spend: Mapping[str, Any]) -> tuple[Effect, ...]:
    effects = []
    for line in _text_of(markup).split("\n") if markup else []:
        cost = re.match(r"^(?:(.*?) )?(\d{1,40})(\+)? Malice: (.*)$", line)
        if cost and int(cost.group(2)) >= 1:
            effects.append(Effect(name=cost.group(1) or None, malice=int(cost.group(2)),
                                  malice_plus=bool(cost.group(3)), text=cost.group(4)))
        elif re.match(r"^[A-Z][\w ]{0,30}: ", line):
            name, _, text = line.partition(": ")
            effects.append(Effect(name=name, text=text))
        else:
            effects.append(Effect(text=line))
    return tuple(effects)


def _distance_from(data: Mapping[str, Any], where: str, name: str, kept: list[KeptText]) -> Distance:
    kind = KINDS.get(str(data.get("type")))
    if kind is None:
        raise PartRefused(f"{where}.distance.type", f"got {quoted(data.get('type'))}; accepts one of " + ", ".join(KINDS))
    numbers: dict[str, Any] = {}
    for field, slot in zip(DISTANCE_SLOTS.get(kind, ()), ("primary", "secondary", "tertiary"), strict=False):
        raw = data.get(slot)
        try:
            numbers[field] = _number(raw, f"{where}.distance.{slot}")
        except _Unread:
            numbers[field] = None
        if numbers[field] is None:  # a blank or a formula: the distance is kept in words
            words = " ".join(str(data.get(s)) for s in ("primary", "secondary", "tertiary") if data.get(s))
            text = f"{kind} {words}".strip()
            kept.append(KeptText(where=f"ability {name!r}", part="distance", text=text))
            return Distance(kind="special", text=text)
    distance = Distance(kind=kind, **numbers)
    return Distance(**{**distance.model_dump(), "text": distance.canonical})


def _ability_from(item: Mapping[str, Any], characteristics: Characteristics, villain_number: int,
                  kept: list[KeptText]) -> Ability:
    name = _get(item, "name", str)
    system = _get(item, "system", Mapping)
    where = f"items[{name!r}].system"
    kind = system.get("type")
    if kind != "villain" and kind not in ACTIONS:
        raise PartRefused(f"{where}.type", f"got {quoted(kind)}; accepts one of {', '.join(ACTIONS)}, villain")
    category = text_part(system.get("category"), f"{where}.category")
    resource = system.get("resource")
    if kind == "villain" or category == "villain":
        cost: Any = f"villain {villain_number}"
    elif category == "signature":
        cost = "signature"
    elif resource in (None, "", 0):
        cost = None
    elif isinstance(resource, int) and not isinstance(resource, bool) and resource > 0:
        cost = resource
    else:
        raise PartRefused(f"{where}.resource", f"got {quoted(resource)}; accepts a Malice cost (a whole number)")
    distance = _distance_from(object_part(system.get("distance"), f"{where}.distance"), where, name, kept)
    target_data = object_part(system.get("target"), f"{where}.target")
    target_text = text_part(target_data.get("custom"), f"{where}.target.custom")
    count = target_data.get("value")
    count = count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None
    power = object_part(system.get("power"), f"{where}.power")
    roll_data = object_part(power.get("roll"), f"{where}.power.roll")
    effects = object_part(power.get("effects"), f"{where}.power.effects")
    roll = None
    if effects:
        chosen = roll_data.get("characteristics") or []
        rolled = [c for c in chosen if c in CHARACTERISTICS] if isinstance(chosen, list) else []
        values = [v for v in (characteristics[c] for c in rolled) if v is not None]
        bonus = max(values) if values else 0
        reader = _TierReader(f"ability {name!r}", _roll_names(characteristics, bonus),
                             bool(roll_data.get("reactive")), kept)
        tier1, tier2, tier3 = reader.tiers(effects)
        roll = PowerRoll(characteristics=rolled, bonus=bonus, tier1=tier1, tier2=tier2, tier3=tier3)
    effect = object_part(system.get("effect"), f"{where}.effect")
    spend = object_part(system.get("spend"), f"{where}.spend")
    keywords = system.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise PartRefused(f"{where}.keywords", f"got {quoted(keywords)}; accepts a list of keywords")
    return Ability(
        name=name, flavour=text_part(system.get("story"), f"{where}.story"), cost=cost,
        action=None if kind == "villain" else ACTIONS[kind],
        keywords=[k.capitalize() for k in keywords],
        distance=distance,
        target=Target(text=target_text, count=count) if target_text else None,
        trigger=text_part(system.get("trigger"), f"{where}.trigger"),
        effects_before=_effects_from(text_part(effect.get("before"), f"{where}.effect.before"), spend),
        power_roll=roll, effects_after=_effects_from(text_part(effect.get("after"), f"{where}.effect.after"), spend),
    )


def _modifiers(table: Mapping[str, Any], where: str) -> tuple[DamageModifier, ...]:
    found = []
    for key in DAMAGE_KEYS:
        value = table.get(key)
        if value in (None, 0, ""):
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise PartRefused(f"{where}.{key}", f"got {quoted(value)}; accepts a whole number")
        found.append(DamageModifier(type=key, value=value))
    return tuple(found)


def _organization(actor: Mapping[str, Any], monster: Mapping[str, Any], characteristics: Characteristics,
                  kept: list[KeptText]) -> tuple[str, str | None]:
    """The organization and role; the role a file gives as its organization ("minion", "leader") is none,
    and one the file leaves blank is the formulas' closest to the printed numbers (noted as kept)."""
    rules = core_ruleset()
    organization = text_part(monster.get("organization"), "system.monster.organization").strip().lower()
    role = text_part(monster.get("role"), "system.monster.role").strip().lower()
    if organization and organization not in rules.organizations:
        raise PartRefused("system.monster.organization", f"got {organization!r}; accepts one of "
                       + ", ".join(rules.organizations))
    if role in rules.organizations:  # "minion", "leader", "solo": the organization again, not a role
        organization = organization or role
        role = ""
    if role and role not in rules.roles:
        raise PartRefused("system.monster.role", f"got {role!r}; accepts one of " + ", ".join(rules.roles))
    needs = rules.organizations[organization].needs_role if organization else True
    if organization and (role or not needs):
        return organization, (role or None) if needs else None
    level = _get(actor, "system.monster.level", int)
    ev = actor["system"].get("ev", monster.get("ev"))
    printed = {"ev": ev if isinstance(ev, int) else None, "stamina": _get(actor, "system.stamina.max", int),
               "free_strike": _get(actor, "system.monster.freeStrike", int)}
    try:
        chosen = closest_stat_block(level, organization or None, role or None, printed, rules)
    except InvalidInput as exc:
        raise PartRefused("system.monster.organization", str(exc).split(": ", 1)[-1]) from None
    given = " ".join(w for w in (organization, role) if w) or "none given"
    words = " ".join(w.capitalize() for w in chosen if w)
    kept.append(KeptText(where="the actor", part="organization and role",
                         text=f"{given} (read as {words}: the formulas' closest to the printed EV, Stamina and "
                              "free strike)"))
    return chosen


def _native(actor: Mapping[str, Any]) -> dict[str, Any]:
    """The Monster fields the actor's own fields give (what Foundry shows and may have changed)."""
    kept: list[KeptText] = []
    monster = _get(actor, "system.monster", Mapping)
    values = {c: _get(actor, f"system.characteristics.{c}.value", int) for c in CHARACTERISTICS}
    try:
        characteristics = Characteristics(**values)
    except InvalidInput as exc:
        raise PartRefused(f"system.characteristics.{exc.field}", str(exc).split(": ", 1)[-1]) from None
    size = _get(actor, "system.combat.size", Mapping)
    movement_data = _get(actor, "system.movement", Mapping)
    types = movement_data.get("types") or []
    if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
        raise PartRefused("system.movement.types", f"got {quoted(types)}; accepts a list of movement types")
    modes = [m for m in types if m != "walk"]
    if movement_data.get("hover"):
        modes.append("hover")
    ev = actor["system"].get("ev", monster.get("ev"))
    level = _get(actor, "system.monster.level", int)
    if not 1 <= level <= MAX_LEVEL:
        raise PartRefused("system.monster.level", f"got {level}; accepts a whole number from 1 to {MAX_LEVEL} (a level 0 "
                       "creature, such as a noncombatant, has no monster formulas)")
    organization, role = _organization(actor, monster, characteristics, kept)
    keywords = monster.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise PartRefused("system.monster.keywords", f"got {quoted(keywords)}; accepts a list of keywords")
    native: dict[str, Any] = {
        "name": _get(actor, "name", str),
        "level": _get(actor, "system.monster.level", int),
        "organization": organization,
        "role": role,
        "keywords": tuple(k.capitalize() for k in keywords),
        "ev": ev if isinstance(ev, int) and not isinstance(ev, bool) else _get(actor, "system.monster.ev", int),
        "stamina": _get(actor, "system.stamina.max", int),
        "free_strike": _get(actor, "system.monster.freeStrike", int),
        "stability_value": _get(actor, "system.combat.stability", int),
        "size_class": Size(value=size.get("value"), letter=size.get("letter") if size.get("value") == 1 else None),
        "movement": Movement(speed=movement_data.get("value"), modes=modes),
        "characteristics": characteristics,
        "immunities": _modifiers(_get(actor, "system.damage.immunities", Mapping), "system.damage.immunities"),
        "weaknesses": _modifiers(_get(actor, "system.damage.weaknesses", Mapping), "system.damage.weaknesses"),
    }
    traits, malice, abilities, with_captain = [], [], [], ""
    items = _get(actor, "items", list)
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise PartRefused(f"items[{index}]", f"got {quoted(item)}; accepts an item object")
    items = sorted(items, key=lambda i: i.get("sort", 0) if isinstance(i.get("sort", 0), (int, float)) else 0)
    villains = 0
    for item in items:
        flags = object_part(item.get("flags"), f"items[{item.get('name')!r}].flags")
        part = object_part(flags.get(RECORD_KEY), f"items[{item.get('name')!r}].flags.{RECORD_KEY}").get(PART_FLAG)
        if item.get("type") == "ability":
            system = object_part(item.get("system"), f"items[{item.get('name')!r}].system")
            villain = system.get("type") == "villain" or system.get("category") == "villain"
            villains += villain
            abilities.append(_ability_from(item, characteristics, min(villains, 3), kept))
        elif item.get("type") == "feature":
            where = f"items[{item.get('name')!r}].system"
            description = object_part(object_part(item.get("system"), where).get("description"), f"{where}.description")
            text = _text_of(text_part(description.get("value"), f"{where}.description.value"))
            name = text_part(item.get("name"), f"items[{item.get('name')!r}].name")
            malice_name = re.match(r"^(.*) \((\d{1,40}) Malice\)$", name)
            if part == "with-captain" or (part is None and name == "With Captain"):
                with_captain = text
            elif malice_name and part in (None, "malice-feature"):
                malice.append(Trait(name=malice_name.group(1), text=text, cost=int(malice_name.group(2)) or None))
            else:
                traits.append(Trait(name=name, text=text))
    native.update(traits=tuple(traits), malice_features=tuple(malice), abilities=tuple(abilities),
                  with_captain=with_captain, kept_as_text=tuple(kept))
    return native


def read_foundry(data: Any, source: str) -> Monster:
    """The monster of a Foundry NPC actor's JSON (parsed)."""
    try:
        native = _native(data)
    except PartRefused as exc:
        raise ImportRefused(source, FORMAT, exc.part, exc.reason) from None
    except InvalidInput as exc:
        raise ImportRefused(source, FORMAT, exc.field, str(exc).split(": ", 1)[-1]) from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        raise ImportRefused(source, FORMAT, "items", WRONG_KIND) from None
    flags = data.get("flags")
    record = flags.get(RECORD_KEY) if isinstance(flags, Mapping) else None
    return assemble(native, record if isinstance(record, Mapping) else None,
                    lambda m: _native(_actor(m, with_record=False)), source, FORMAT)
