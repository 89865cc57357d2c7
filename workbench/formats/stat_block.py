"""A published stat block read whole: the Steel Compendium's JSON into the same `Monster` the formulas build.

`read_stat_block(path)` gives every part of the book's block as typed data (workbench.model): the header
numbers as `formats.bestiary` reads them (level, organization, role, EV, Stamina, free strike, the five
characteristics, keywords), then size, speed and movement modes, stability, immunities and weaknesses, the
minions' "With Captain", the traits and every ability with its cost, action, keywords, distance, target,
trigger, power roll and tiers, and the paragraphs before and after the roll.

Nothing is half-read in silence. A part of a real stat block the model cannot structure is kept as text,
exactly as written, and listed in the monster's `kept_as_text`: a distance in words ("Two 3 cubes within 10",
"1 burst, or 3 cube within 5": a special distance printing those words), a second power roll (a paragraph
with its three tiers), a cost in words ("1 Malice per minion": a paragraph), a tier in a layout the book
does not use, an immunity or weakness with no value, an organization the block does not name (the closest
of the formulas' to the printed EV, Stamina and free strike is taken, and the note says so). A trait with a
Malice cost is a Malice feature. Anything else that is wrong — a key this reader does not know, a value of
the wrong kind — refuses the file with `StatBlockError` naming the file and the part
("Goblin Warrior.json: ability 'Spear Charge': keywords: got 'Sneaky'; accepts ...").

Both shapes of the transcription that the calibration reads are read: the current one (`features`,
`ability_type` "Signature Ability", tiers `tier1`..`tier3`) and the older one (`abilities`, `cost`
"Signature Ability", tiers `t1`..`t3`).

The formula fields a `Monster` also carries (`damage`, `potency`, `targets`, ...) are the formulas' for the
block's level, organization and role, except the printed numbers: EV, Stamina, free strike, the highest
characteristic, and `damage` — the first signature ability's tiers when it deals damage at every tier.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.bestiary import (
    Bestiary,
    PublishedMonster,
    StatBlockError,
    _organization_and_role,
    parse_stat_block,
    refuse_long_numbers,
    whole_number,
)
from workbench.formats.lenient import closest_stat_block
from workbench.io.problem import FileProblem
from workbench.io.reading import read_json
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
    Tier,
    Tiers,
    Trait,
)
from workbench.model.ability import parse_cost
from workbench.monster.formulas import build_monster
from workbench.rules.limits import MAX_LEVEL
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = ["parse_trait", "parse_whole_stat_block", "read_stat_block", "stat_block_data", "whole_stat_block"]

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
NO_DISTANCE = ("", "-", "—")


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


def _tier_list(values: tuple[Any, Any, Any], source: str, where: str, kept: list[KeptText]) -> tuple[Tier, Tier, Tier]:
    tiers = []
    for number, value in enumerate(values, start=1):
        text = _text(value, source, f"{where}, tier {number}")
        try:
            tiers.append(Tier.parse(text))
        except InvalidInput as exc:
            if not exc.field.startswith("tier"):  # a bad number (a damage type, a potency): refused
                raise StatBlockError(source, f"{where}, tier {number}: {exc}") from None
            kept.append(KeptText(where=where, part=f"tier {number}", text=text))  # a layout the book doesn't use
            tiers.append(Tier(effect=text))
    return tiers[0], tiers[1], tiers[2]


def _effect(raw: Any, source: str, where: str, kept: list[KeptText]) -> list[Effect | PowerRoll]:
    """One effect entry as its sections: a paragraph, a power roll, or (a roll with a line of its own in
    front, as the book prints a second roll's lead-in) the paragraph and then the roll."""
    if not isinstance(raw, Mapping):
        raise StatBlockError(source, f"{where}: an effect is {raw!r}; expected an object")
    _unknown(raw, EFFECT_KEYS, source, where)
    tiers = _tiers(raw)
    if "roll" in raw:
        if tiers is None:
            raise StatBlockError(source, f"{where}: a power roll with no tiers")
        bonus = _part(source, f"{where}, roll", lambda: PowerRoll.parse_bonus(raw["roll"]))
        t1, t2, t3 = _tier_list(tiers, source, where, kept)
        roll = _part(source, where, lambda: PowerRoll(bonus=bonus, tier1=t1, tier2=t2, tier3=t3))
        lead = {k: raw[k] for k in ("name", "effect", "cost") if k in raw}
        return [*_effect(lead, source, where, kept), roll] if lead else [roll]
    malice, plus = (None, False)
    if "cost" in raw:
        malice, plus = _part(source, f"{where}, cost", lambda: Effect.parse_malice(raw["cost"]))
    name = raw.get("name")
    if name is not None:
        name = _text(name, source, f"{where}, name")
    text = _text(raw.get("effect", ""), source, f"{where}, effect")
    try:
        test = _tier_list(tiers, source, where, kept) if tiers is not None else None
    except StatBlockError:
        if tiers is None or not all(isinstance(t, str) for t in tiers):
            raise
        kept.append(KeptText(where=where, part="a test's tiers", text="\n".join(tiers)))
        text, test = "\n".join([text, *tiers]).strip(), None
    return [_part(source, where, lambda: Effect(name=name, text=text, malice=malice, malice_plus=plus, tiers=test))]


def _effects(feature: Mapping[str, Any], source: str, where: str, kept: list[KeptText]) -> list[Effect | PowerRoll]:
    effects = feature.get("effects", [])
    if not isinstance(effects, list):
        raise StatBlockError(source, f"{where}: 'effects' is not a list")
    return [s for i, e in enumerate(effects, start=1) for s in _effect(e, source, f"{where}, effect {i}", kept)]


def _roll_as_paragraph(roll: PowerRoll) -> Effect:
    """A second power roll of one ability, as a paragraph with its three tiers (the model holds one roll)."""
    return Effect(text=roll.roll_text, tiers=roll.tiers)


def _distance(raw: Any, source: str, where: str, kept: list[KeptText]) -> Distance | None:
    if raw is None or (isinstance(raw, str) and raw.strip() in NO_DISTANCE):
        return None
    text = _text(raw, source, f"{where}, distance")
    try:
        return Distance.parse(text)
    except InvalidInput:
        kept.append(KeptText(where=where, part="distance", text=text))
        return Distance(kind="special", text=text)


def _cost(raw: Any, where: str, kept: list[KeptText]) -> tuple[Any, tuple[Effect, ...]]:
    """The cost, or (words the model has no cost for: "1 Malice per minion") none and a paragraph."""
    try:
        return parse_cost(raw), ()
    except InvalidInput:
        if not isinstance(raw, str):
            raise
        kept.append(KeptText(where=where, part="cost", text=raw))
        return None, (Effect(name="Cost", text=raw),)


def _ability(feature: Mapping[str, Any], source: str, where: str, kept: list[KeptText]) -> Ability:
    sections = _effects(feature, source, where, kept)
    rolls = [i for i, s in enumerate(sections) if isinstance(s, PowerRoll)]
    for later in rolls[1:]:
        roll = sections[later]
        assert isinstance(roll, PowerRoll)
        kept.append(KeptText(where=where, part="a second power roll",
                             text="\n".join([roll.roll_text, *(str(t) for t in roll.tiers)])))
        sections[later] = _roll_as_paragraph(roll)
    at = rolls[0] if rolls else len(sections)
    if "ability_type" in feature and "cost" in feature:
        raise StatBlockError(source, f"{where}: both 'ability_type' and 'cost'")
    cost, cost_words = _part(source, f"{where}: cost",
                             partial(_cost, feature.get("ability_type", feature.get("cost")), where, kept))
    fields: dict[str, Any] = {
        "name": _text(feature.get("name"), source, f"{where}, name"),
        "flavour": feature.get("flavour", feature.get("flavor", "")),
        "cost": cost,
        "action": feature.get("usage"),
        "keywords": feature.get("keywords", ()),
        "distance": _distance(feature.get("distance"), source, where, kept),
        "target": feature.get("target"),
        "trigger": feature.get("trigger", ""),
        "effects_before": (*cost_words, *sections[:at]),
        "power_roll": sections[at] if rolls else None,
        "effects_after": tuple(sections[at + 1:]),
    }
    return _part(source, where, lambda: Ability(**fields))


def _trait(feature: Mapping[str, Any], source: str, where: str, kept: list[KeptText]) -> Trait:
    """A trait; one with a Malice cost ("5 Malice") is a Malice feature (its `cost` set)."""
    for key in ("ability_type", "usage", "distance", "target", "trigger", "keywords"):
        if key in feature:
            raise StatBlockError(source, f"{where}: a trait with {key!r} (an ability's part)")
    sections = _effects(feature, source, where, kept)
    effects = [s if isinstance(s, Effect) else _roll_as_paragraph(s) for s in sections]
    if len(effects) > len([s for s in sections if isinstance(s, Effect)]):
        kept.append(KeptText(where=where, part="a power roll in a trait", text="kept as a paragraph with its tiers"))
    if not effects:  # (a pydantic ValidationError leaked here before: no text to make the trait's from)
        raise StatBlockError(source, f"{where}: a trait with no effects (its text)")
    name = _text(feature.get("name"), source, f"{where}, name")
    cost = None
    if "cost" in feature:
        raw = feature["cost"]
        try:
            cost = Effect.parse_malice(raw)[0]
        except InvalidInput:
            kept.append(KeptText(where=where, part="Malice cost", text=str(raw)))
            effects.insert(0, Effect(name="Cost", text=str(raw)))
    return Trait.of_effects(name, effects, cost)


def parse_trait(feature: Mapping[str, Any], source: str = "trait") -> Trait:
    """One trait feature of the JSON shape (its `name`, `effects` and a Malice `cost`) as a `Trait`, read as
    a stat block's trait is; parts kept as words stay in its paragraphs. `StatBlockError` names a bad part."""
    return _trait(feature, source, f"trait {feature.get('name')!r}", [])


def _features(data: Mapping[str, Any], source: str, kept: list[KeptText]
              ) -> tuple[tuple[Ability, ...], tuple[Trait, ...], tuple[Trait, ...]]:
    abilities: list[Ability] = []
    traits: list[Trait] = []
    malice: list[Trait] = []
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
                abilities.append(_ability(feature, source, label, kept))
            elif kind == "trait":
                trait = _trait(feature, source, label, kept)
                (traits if "cost" not in feature else malice).append(trait)
            else:
                raise StatBlockError(source, f"{key} {index}: 'feature_type' is {kind!r}; expected ability or trait")
    return tuple(abilities), tuple(traits), tuple(malice)


def _modifiers(data: Mapping[str, Any], key: str, source: str, kept: list[KeptText]) -> tuple[DamageModifier, ...]:
    """"Fire 5" entries; one with no value ("Cold") is kept as text (the block prints no number to read)."""
    raw = data.get(key, [])
    if isinstance(raw, str):
        raw = [part for part in raw.split(",") if part.strip()]
    if not isinstance(raw, list):
        raise StatBlockError(source, f"{key!r} is {raw!r}; expected a list like ['Fire 5']")
    modifiers = []
    for entry in raw:
        try:
            modifiers.append(DamageModifier.parse(entry))
        except InvalidInput as exc:
            if not (isinstance(entry, str) and re.fullmatch(r"\s*[A-Za-z ]+\s*", entry)):
                raise StatBlockError(source, f"{key}: {exc}") from None
            kept.append(KeptText(where="the stat block", part=key, text=entry.strip()))
    return tuple(modifiers)


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


def _loose_number(data: Mapping[str, Any], key: str) -> int | None:
    match = re.match(r"^\s*(\d{1,40})", str(data.get(key, "")))
    return int(match.group(1)) if match else None


def _with_roles(data: Any, source: str, rules: Ruleset, kept: list[KeptText]) -> Any:
    """The block itself, or (its roles name no organization, or no role where one is needed: "Controller")
    the block with the organization and role whose formulas come closest to its printed numbers. A word the
    rules don't know ("Boss") or two of a kind is no gap to fill but a mistake, refused as before."""
    if not isinstance(data, Mapping):
        return data
    try:
        _organization_and_role(data, rules, source)
        return data
    except StatBlockError:
        roles = data.get("roles", data.get("role"))
        words = [roles] if isinstance(roles, str) else roles
        level = _loose_number(data, "level")
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words) or not level:
            raise
        text = " ".join(words)
        found = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
        organizations = [w for w in found if w in rules.organizations]
        roles_named = [w for w in found if w in rules.roles]
        if len(organizations) > 1 or len(roles_named) > 1 or len(found) > len(organizations) + len(roles_named) \
                or level > MAX_LEVEL:
            raise
    printed = {"ev": _loose_number(data, "ev"), "stamina": _loose_number(data, "stamina"),
               "free_strike": _loose_number(data, "free_strike")}
    organization, role = closest_stat_block(level, organizations[0] if organizations else None,
                                            roles_named[0] if roles_named else None, printed, rules)
    chosen = " ".join(w.capitalize() for w in (organization, role) if w)
    kept.append(KeptText(where="the stat block", part="organization and role",
                         text=f"{text or '(none)'} (read as {chosen}: the formulas' closest to the printed EV, "
                              "Stamina and free strike)"))
    return {**data, "roles": [chosen]}


def parse_whole_stat_block(data: Any, source: str = "stat block", ruleset: Ruleset | None = None) -> Monster:
    """One stat block (decoded JSON) as a whole `Monster`; `StatBlockError` names the part that is wrong."""
    rules = ruleset or core_ruleset()
    kept: list[KeptText] = []
    refuse_long_numbers(data, source)
    data = _with_roles(data, source, rules, kept)
    if isinstance(data, Mapping) and isinstance(data.get("ev"), str) and data["ev"].strip() in NO_DISTANCE:
        # "EV -": a part of another creature's stat block (a solo's eye), with no EV of its own
        kept.append(KeptText(where="the stat block", part="ev", text=f"{data['ev']} (no EV of its own: read as 0)"))
        data = {**data, "ev": "0"}
    header = parse_stat_block(data, source, rules)
    _unknown(data, TOP_KEYS, source, "the stat block")
    abilities, traits, malice = _features(data, source, kept)
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
        "immunities": _modifiers(data, "immunities", source, kept),
        "weaknesses": _modifiers(data, "weaknesses", source, kept),
        "with_captain": with_captain,
        "traits": traits,
        "malice_features": malice,
        "abilities": abilities,
        "kept_as_text": tuple(kept),
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


def stat_block_data(bestiary: Bestiary, monster: PublishedMonster) -> Mapping[str, Any] | None:
    """The stat block's whole JSON as transcribed (every feature), read again from its file; None when the
    file is no longer there (then the header numbers are shown)."""
    folder = bestiary.folder_of(monster)
    try:
        data = read_json(folder / monster.file, inside=folder)
    except (WorkbenchError, OSError):
        return None
    return data if isinstance(data, Mapping) else None


def whole_stat_block(bestiary: Bestiary, monster: PublishedMonster) -> Monster | None:
    """The stat block whole (every ability typed, for the pace of the fight's choice of ability), read again
    from its file; None when the file is gone or does not read whole (the header numbers still serve)."""
    data = stat_block_data(bestiary, monster)
    if data is None:
        return None
    try:
        return parse_whole_stat_block(data, monster.file)
    except (WorkbenchError, ValueError, TypeError, RecursionError):  # whatever the file provokes: header only
        return None
