"""A published stat block read whole: the Steel Compendium's JSON into the same `Monster` the formulas build.

`read_stat_block(path)` gives every part of the book's block as typed data (workbench.model): the header
numbers as `formats.bestiary` reads them (level, organization, role, EV, Stamina, free strike, the five
characteristics, keywords), then size, speed and movement modes, stability, immunities and weaknesses, the
minions' "With Captain", the traits and every ability with its cost, action, keywords, distance, target,
trigger, power roll and tiers, and the paragraphs before and after the roll.

Nothing is half-read in silence: a key this reader does not know, a value that does not parse, a second
power roll in one ability — each refuses the file with `StatBlockError` naming the file and the part
("Goblin Warrior.json: ability 'Spear Charge': distance: got '12 furlongs'; accepts ...").

Both shapes of the transcription that the calibration reads are read: the current one (`features`,
`ability_type` "Signature Ability", tiers `tier1`..`tier3`) and the older one (`abilities`, `cost`
"Signature Ability", tiers `t1`..`t3`).

The formula fields a `Monster` also carries (`damage`, `potency`, `targets`, ...) are the formulas' for the
block's level, organization and role, except the printed numbers: EV, Stamina, free strike, the highest
characteristic, and `damage` — the first signature ability's tiers when it deals damage at every tier.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from workbench.errors import InvalidInput
from workbench.formats.bestiary import StatBlockError, parse_stat_block, whole_number
from workbench.io.safe_file import FileProblem, read_json
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
    Tiers,
    Trait,
)
from workbench.monster.formulas import build_monster
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = ["parse_whole_stat_block", "read_stat_block"]

# Every key of the transcription this reader knows; any other refuses the file (never dropped in silence).
TOP_KEYS = {
    "type", "name", "level", "roles", "role", "ancestry", "keywords", "ev", "stamina", "speed", "movement",
    "size", "stability", "free_strike", "might", "agility", "reason", "intuition", "presence", "immunities",
    "weaknesses", "with_captain", "features", "abilities",
}
FEATURE_KEYS = {
    "type", "feature_type", "name", "icon", "ability_type", "cost", "keywords", "usage", "distance", "target",
    "trigger", "effects", "flavor", "flavour",
}
TIER_KEYS = (("tier1", "tier2", "tier3"), ("t1", "t2", "t3"))
EFFECT_KEYS = {"name", "effect", "roll", "cost", *TIER_KEYS[0], *TIER_KEYS[1]}

T = TypeVar("T")


def _part(source: str, where: str, build: Callable[[], T]) -> T:
    """Build one part; a bad value refuses the file naming the part and the field."""
    try:
        return build()
    except InvalidInput as exc:
        raise StatBlockError(source, f"{where}: {exc}") from None


def _text(value: Any, source: str, where: str) -> str:
    if not isinstance(value, str):
        raise StatBlockError(source, f"{where} is {value!r}; expected text")
    return value


def _unknown(keys: Mapping[str, Any], known: set[str], source: str, where: str) -> None:
    extra = sorted(set(keys) - known)
    if extra:
        raise StatBlockError(source, f"{where}: unknown key(s) {', '.join(map(repr, extra))}; this reader "
                                     "would lose them, so the file is refused")


def _tiers(effect: Mapping[str, Any]) -> tuple[Any, Any, Any] | None:
    for keys in TIER_KEYS:
        if any(k in effect for k in keys):
            return tuple(effect.get(k) for k in keys)  # type: ignore[return-value]
    return None


def _tier_list(values: tuple[Any, Any, Any], source: str, where: str) -> tuple[Tier, Tier, Tier]:
    tiers = []
    for number, value in enumerate(values, start=1):
        text = _text(value, source, f"{where}, tier {number}")
        tiers.append(_part(source, f"{where}, tier {number}", partial(Tier.parse, text)))
    return tiers[0], tiers[1], tiers[2]


def _effect(raw: Any, source: str, where: str) -> Effect | PowerRoll:
    if not isinstance(raw, Mapping):
        raise StatBlockError(source, f"{where}: an effect is {raw!r}; expected an object")
    _unknown(raw, EFFECT_KEYS, source, where)
    tiers = _tiers(raw)
    if "roll" in raw:
        if tiers is None or "effect" in raw or "cost" in raw or "name" in raw:
            raise StatBlockError(source, f"{where}: a power roll holds 'roll' and three tiers only")
        bonus = _part(source, f"{where}, roll", lambda: PowerRoll.parse_bonus(raw["roll"]))
        t1, t2, t3 = _tier_list(tiers, source, where)
        return _part(source, where, lambda: PowerRoll(bonus=bonus, tier1=t1, tier2=t2, tier3=t3))
    malice, plus = (None, False)
    if "cost" in raw:
        malice, plus = _part(source, f"{where}, cost", lambda: Effect.parse_malice(raw["cost"]))
    name = raw.get("name")
    if name is not None:
        name = _text(name, source, f"{where}, name")
    text = _text(raw.get("effect", ""), source, f"{where}, effect")
    test = _tier_list(tiers, source, where) if tiers is not None else None
    return _part(source, where, lambda: Effect(name=name, text=text, malice=malice, malice_plus=plus, tiers=test))


def _effects(feature: Mapping[str, Any], source: str, where: str) -> list[Effect | PowerRoll]:
    effects = feature.get("effects", [])
    if not isinstance(effects, list):
        raise StatBlockError(source, f"{where}: 'effects' is not a list")
    return [_effect(e, source, f"{where}, effect {i}") for i, e in enumerate(effects, start=1)]


def _ability(feature: Mapping[str, Any], source: str, where: str) -> Ability:
    sections = _effects(feature, source, where)
    rolls = [i for i, s in enumerate(sections) if isinstance(s, PowerRoll)]
    if len(rolls) > 1:
        raise StatBlockError(source, f"{where}: more than one power roll")
    at = rolls[0] if rolls else len(sections)
    cost = feature.get("ability_type", feature.get("cost"))
    if "ability_type" in feature and "cost" in feature:
        raise StatBlockError(source, f"{where}: both 'ability_type' and 'cost'")
    fields: dict[str, Any] = {
        "name": _text(feature.get("name"), source, f"{where}, name"),
        "flavour": feature.get("flavour", feature.get("flavor", "")),
        "cost": cost,
        "action": feature.get("usage"),
        "keywords": feature.get("keywords", ()),
        "distance": feature.get("distance"),
        "target": feature.get("target"),
        "trigger": feature.get("trigger", ""),
        "effects_before": tuple(sections[:at]),
        "power_roll": sections[at] if rolls else None,
        "effects_after": tuple(sections[at + 1:]),
    }
    return _part(source, where, lambda: Ability(**fields))


def _trait(feature: Mapping[str, Any], source: str, where: str) -> Trait:
    for key in ("ability_type", "cost", "usage", "distance", "target", "trigger", "keywords"):
        if key in feature:
            raise StatBlockError(source, f"{where}: a trait with {key!r} (an ability's part)")
    sections = _effects(feature, source, where)
    effects = tuple(s for s in sections if isinstance(s, Effect))
    if len(effects) < len(sections):
        raise StatBlockError(source, f"{where}: a trait with a power roll")
    if not effects:  # (a pydantic ValidationError leaked here before: no text to make the trait's from)
        raise StatBlockError(source, f"{where}: a trait with no effects (its text)")
    name = _text(feature.get("name"), source, f"{where}, name")
    return Trait.of_effects(name, effects)


def _features(data: Mapping[str, Any], source: str) -> tuple[tuple[Ability, ...], tuple[Trait, ...]]:
    abilities: list[Ability] = []
    traits: list[Trait] = []
    for key in ("features", "abilities"):
        entries = data.get(key, [])
        if not isinstance(entries, list):
            raise StatBlockError(source, f"{key!r} is not a list")
        for index, feature in enumerate(entries, start=1):
            if not isinstance(feature, Mapping):
                raise StatBlockError(source, f"{key} {index} is {feature!r}; expected an object")
            _unknown(feature, FEATURE_KEYS, source, f"{key} {index}")
            kind = feature.get("feature_type", "ability" if key == "abilities" else None)
            label = f"{kind or 'feature'} {feature.get('name', index)!r}"
            if kind == "ability":
                abilities.append(_ability(feature, source, label))
            elif kind == "trait":
                traits.append(_trait(feature, source, label))
            else:
                raise StatBlockError(source, f"{key} {index}: 'feature_type' is {kind!r}; expected ability or trait")
    return tuple(abilities), tuple(traits)


def _modifiers(data: Mapping[str, Any], key: str, source: str) -> tuple[DamageModifier, ...]:
    raw = data.get(key, [])
    if isinstance(raw, str):
        raw = [part for part in raw.split(",") if part.strip()]
    if not isinstance(raw, list):
        raise StatBlockError(source, f"{key!r} is {raw!r}; expected a list like ['Fire 5']")
    return tuple(_part(source, key, partial(DamageModifier.parse, r)) for r in raw)


def _signature_damage(abilities: tuple[Ability, ...]) -> Tiers | None:
    for ability in abilities:
        if ability.is_signature:
            tier1, tier2, tier3 = ability.power_roll.damage if ability.power_roll else (None, None, None)
            if tier1 is not None and tier2 is not None and tier3 is not None:
                return Tiers(tier1=tier1, tier2=tier2, tier3=tier3)
            return None
    return None


# The formula monster a block starts from depends only on (ruleset, level, organization, role): built once.
# Keyed by the ruleset's identity (rulesets are not hashable); the value keeps the ruleset alive.
_FORMULAS: dict[tuple[int, int, str, str | None], tuple[Ruleset, Monster]] = {}
_FORMULAS_KEPT = 256


def _formula(level: int, organization: str, role: str | None, rules: Ruleset) -> Monster:
    key = (id(rules), level, organization, role)
    kept = _FORMULAS.get(key)
    if kept is None or kept[0] is not rules:
        if len(_FORMULAS) >= _FORMULAS_KEPT:
            _FORMULAS.clear()
        kept = _FORMULAS[key] = (rules, build_monster(level, organization, role, ruleset=rules))
    return kept[1]


def parse_whole_stat_block(data: Any, source: str = "stat block", ruleset: Ruleset | None = None) -> Monster:
    """One stat block (decoded JSON) as a whole `Monster`; `StatBlockError` names the part that is wrong."""
    rules = ruleset or core_ruleset()
    header = parse_stat_block(data, source, rules)
    _unknown(data, TOP_KEYS, source, "the stat block")
    abilities, traits = _features(data, source)
    characteristics = _part(source, "characteristics", lambda: Characteristics(**header.characteristics))
    size = _part(source, "size", lambda: Size.parse(data.get("size")))
    movement = _part(source, "speed", lambda: Movement.parse(data.get("speed"), data.get("movement", "")))
    stability = whole_number(data, "stability", source)
    with_captain = data.get("with_captain", "")
    if with_captain is None or with_captain == "-":
        with_captain = ""
    with_captain = _text(with_captain, source, "'with_captain'")
    formula = _formula(header.level, header.organization, header.role, rules)
    signature = _signature_damage(abilities)
    monster = formula.model_copy(update={
        "name": header.name,
        "keywords": header.keywords,
        "ev": header.ev,
        "stamina": header.stamina,
        "free_strike": header.free_strike,
        "highest_characteristic": characteristics.highest,
        "damage": signature or formula.damage,
        "characteristics": characteristics,
        "size_class": size,
        "movement": movement,
        "stability_value": stability,
        "immunities": _modifiers(data, "immunities", source),
        "weaknesses": _modifiers(data, "weaknesses", source),
        "with_captain": with_captain,
        "traits": traits,
        "abilities": abilities,
    })
    monster._rules = formula.rules
    return monster


def read_stat_block(path: str | Path, ruleset: Ruleset | None = None) -> Monster:
    """A Steel Compendium stat block file, whole, as a `Monster` (see the module docstring).

    `StatBlockError` (a `WorkbenchError`) names the file and the part it could not read.
    """
    source = Path(path).name
    try:
        data = read_json(path, source=source)
    except FileProblem as exc:
        raise StatBlockError(source, exc.reason) from None
    return parse_whole_stat_block(data, source, ruleset)
