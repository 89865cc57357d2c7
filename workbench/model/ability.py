"""An ability as typed data: cost, action, keywords, distance, target, trigger, power roll, tiers, effects.

Every part reads the book's notation and prints it back unchanged: `Distance.parse("3 cube within 10")`,
`Tier.parse("5 damage; M < 0 bleeding (save ends)")`, `PowerRoll` prints "Power Roll + 2". The numbers the
formulas of "Adjusting Monster Levels" set — a tier's damage, a potency, the power roll's bonus — are fields
of their own, so re-levelling (workbench.monster.relevel) moves them and leaves the words alone.

Readings of the Steel Compendium's transcription:
- A tier's damage is every "N [type] damage" at the start of its text, joined by ", " ("8 damage,
  4 corruption damage" deals 12: two parts); damage later in the text ("M < 3 4 poison damage") belongs to
  the potency's effect and is not the tier's. The same reading as the calibration's `tier_damage`.
- A tier's potency is the first "X < N" in its text (X one of M, A, R, I, P); it stays inside the effect
  text where the book prints it, and `Tier.potency` holds it as data.
- An ability with "-" as keywords or action has none.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import ValidationInfo, field_validator, model_validator

from workbench.arguments import checked_methods
from workbench.errors import InvalidInput
from workbench.model.base import Part
from workbench.model.parts import (
    CHARACTERISTIC_LETTERS,
    CHARACTERISTICS,
    DAMAGE_TYPES,
    MAX_CHARACTERISTIC,
    MIN_CHARACTERISTIC,
    check_characteristic,
)
from workbench.rules.limits import whole

__all__ = [
    "ABILITY_KEYWORDS",
    "ACTIONS",
    "MAX_POTENCY",
    "MIN_POTENCY",
    "Ability",
    "Cost",
    "Damage",
    "Distance",
    "Effect",
    "Potency",
    "PowerRoll",
    "TIER_LABELS",
    "Target",
    "Tier",
    "targets_from_text",
]

ABILITY_KEYWORDS = (
    "Animal", "Animapathy", "Area", "Charge", "Chronopathy", "Cryokinesis", "Earth", "Fire", "Green", "Magic",
    "Melee", "Metamorphosis", "Performance", "Psionic", "Pyrokinesis", "Ranged", "Resopathy", "Rot", "Routine",
    "Strike", "Telekinesis", "Telepathy", "Void", "Weapon",
)
_KEYWORD_KEYS = {k.lower(): k for k in ABILITY_KEYWORDS}
# How the book names each action type; None (printed "-") is an ability that takes no action.
ACTIONS = {
    "main action": "Main action",
    "maneuver": "Maneuver",
    "free maneuver": "Free maneuver",
    "move action": "Move action",
    "triggered action": "Triggered action",
    "free triggered action": "Free triggered action",
    "no action": "No action",
}
Action = Literal[
    "main action", "maneuver", "free maneuver", "move action", "triggered action", "free triggered action",
    "no action",
]
Cost = Literal["signature", "villain 1", "villain 2", "villain 3"] | int | None
TIER_LABELS = ("≤11", "12–16", "17+")  # a power roll's three tiers, as the book labels them
# Potency: the rules cap it at 6 ("to a maximum of 6"); a hero's characteristic is never below -5, so a
# potency below -5 could never take hold.
MIN_POTENCY = -5
MAX_POTENCY = 6
MAX_BONUS = MAX_CHARACTERISTIC
MIN_BONUS = MIN_CHARACTERISTIC

# A number in the book's text is at most 40 digits (`\d{1,40}` in the patterns below, the file readers' cap): a
# longer run matches no pattern and is refused with the field's words, where int() would raise its own ValueError
# past 4,300 digits.
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10,
}
_COUNT = re.compile(
    r"^\s*(?:up\s+to\s+)?(\d{1,40}|[a-z]+)\s+(creatures?|objects?|enemy|enemies|ally|allies|targets?)\b",
    re.IGNORECASE,
)


def targets_from_text(text: str) -> int | None:
    """The number of targets a target text names, or None when it names no count.

    "One creature or object" → 1, "Two creatures or objects" → 2, "One creature or object per minion" → 1
    (each minion strikes one target), "Each enemy in the area" → None.
    """
    match = _COUNT.match(text or "")
    if not match:
        return None
    word = match.group(1).lower()
    if word.isdigit():
        return int(word) or None
    return _NUMBER_WORDS.get(word)




# ---------------------------------------------------------------- damage and potency

_TYPE_WORDS = r"[A-Za-z]+(?:\s+or\s+[A-Za-z]+)*"
_DAMAGE_PART = rf"(\d{{1,40}})\s+(?:({_TYPE_WORDS})\s+)?damage\b"
_LEADING_DAMAGE = re.compile(rf"^\s*{_DAMAGE_PART}((?:\s*,\s*{_DAMAGE_PART})*)")
_ONE_DAMAGE = re.compile(_DAMAGE_PART)
_POTENCY = re.compile(r"\b([MARIP])\s*<\s*(-?\d{1,40})\b")


class Damage(Part):
    """One "N [type] damage" of a tier: the amount and its type(s) ("corruption or fire"); untyped when ()."""

    amount: int
    types: tuple[str, ...] = ()

    @field_validator("amount", mode="before")
    @classmethod
    def _amount(cls, value: object) -> object:
        return whole("amount", value, 0)

    @field_validator("types", mode="before")
    @classmethod
    def _types(cls, value: object) -> object:
        if value is None:
            return ()
        if isinstance(value, str):
            value = [t for t in re.split(r"\s+or\s+", value.strip()) if t]
        accepts = "damage types among " + ", ".join(DAMAGE_TYPES)
        if not isinstance(value, (list, tuple)):
            raise InvalidInput("types", value, accepts)
        types = []
        for kind in value:
            key = kind.strip().lower() if isinstance(kind, str) else None
            if key not in DAMAGE_TYPES:
                raise InvalidInput("types", kind, accepts)
            types.append(key)
        return tuple(types)

    def __str__(self) -> str:
        kind = " or ".join(self.types)
        return f"{self.amount} {kind} damage" if kind else f"{self.amount} damage"


POTENCY_ACCEPTS = f"a characteristic letter (M, A, R, I, P) and a value from {MIN_POTENCY} to {MAX_POTENCY}"


@checked_methods
class Potency(Part):
    """A potency as the book writes it, "M < 2": the target's characteristic and the value it must beat."""

    characteristic: Literal["might", "agility", "reason", "intuition", "presence"]
    value: int

    @field_validator("characteristic", mode="before")
    @classmethod
    def _characteristic(cls, value: object) -> object:
        return check_characteristic(value)

    @field_validator("value", mode="before")
    @classmethod
    def _value(cls, value: object) -> object:
        return whole("value", value, MIN_POTENCY, MAX_POTENCY)

    @classmethod
    def parse(cls, text: str) -> Potency:
        match = _POTENCY.fullmatch(text.strip()) if isinstance(text, str) else None
        if not match:
            raise InvalidInput("potency", text, POTENCY_ACCEPTS + ", like 'M < 2'")
        return cls(characteristic=match.group(1), value=int(match.group(2)))

    @property
    def letter(self) -> str:
        return self.characteristic[0].upper()

    def __str__(self) -> str:
        return f"{self.letter} < {self.value}"


def _potency_in(text: str) -> tuple[Potency, re.Match[str]] | None:
    match = _POTENCY.search(text)
    if not match:
        return None
    return Potency(characteristic=CHARACTERISTIC_LETTERS[match.group(1)], value=int(match.group(2))), match


@checked_methods
class Tier(Part):
    """One tier of a power roll: its damage (None when it deals none), its potency, the rest of its effect.

    `effect` is the text after the damage, with the potency where the book prints it ("M < 1 bleeding
    (save ends)"); `potency` is that potency as data. Build one from the book's text with `Tier.parse`, or
    from parts: `Tier(damage=5, potency=Potency(characteristic="might", value=1), effect="bleeding (save
    ends)")` prints "5 damage; M < 1 bleeding (save ends)".
    """

    damages: tuple[Damage, ...] = ()
    effect: str = ""
    potency: Potency | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_parts(cls, data: Any) -> Any:
        if isinstance(data, str):
            return _parse_tier(data)
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "text" in data:
            parsed = _parse_tier(data.pop("text"))
            data = {**parsed, **data}
        if "damage" in data or "damage_type" in data:
            amount = data.pop("damage", None)
            kind = data.pop("damage_type", None)
            if amount is None:
                if kind:
                    raise InvalidInput("damage", None, "a damage amount with its type", "a type with no amount")
                data["damages"] = ()
            else:
                data["damages"] = (Damage(amount=whole("damage", amount, 0), types=kind),)
        effect = data.get("effect") or ""
        if not isinstance(effect, str):
            raise InvalidInput("effect", effect, "text")
        potency = data.get("potency")
        try:
            if isinstance(potency, str):
                potency = Potency.parse(potency)
            elif isinstance(potency, dict):
                potency = Potency(**potency)
            found = _potency_in(effect)
        except InvalidInput as exc:
            field = exc.field if exc.field.startswith("potency") else f"potency.{exc.field}"
            raise InvalidInput(field, exc.value, exc.accepts, exc.reason) from None
        if potency is None:
            data["potency"] = found[0] if found else None
        elif found is None:
            # a potency given as data and not yet in the words: the book prints it first ("M < 1 prone")
            data["effect"] = f"{potency} {effect}".strip()
            data["potency"] = potency
        elif found[0] != potency:
            raise InvalidInput(
                "potency", str(potency), f"the potency the effect text prints ({found[0]})",
                "the effect text and the potency disagree",
            )
        else:
            data["potency"] = potency
        return data

    @classmethod
    def parse(cls, text: str) -> Tier:
        """A tier from the book's text; `str(tier)` gives the same text back."""
        return cls(**_parse_tier(text))

    @property
    def damage(self) -> int | None:
        """The tier's damage, all parts added ("8 damage, 4 corruption damage" is 12); None: no damage."""
        return sum(d.amount for d in self.damages) if self.damages else None

    @property
    def damage_type(self) -> str | None:
        """The first damage part's type ("fire", "corruption or fire"); None when untyped or no damage."""
        return " or ".join(self.damages[0].types) or None if self.damages else None

    def with_numbers(self, damage: int | None = None, potency: int | None = None) -> Tier:
        """The same tier with its damage total and/or its potency value changed, the words kept.

        A new total moves the first damage part (the others are the design's extra damage, kept).
        """
        damages = self.damages
        if damage is not None and damages:
            rest = sum(d.amount for d in damages[1:])
            first = damages[0].model_copy(update={"amount": whole("damage", damage - rest, 0)})
            damages = (first, *damages[1:])
        effect = self.effect
        new_potency = self.potency
        if potency is not None and self.potency is not None:
            new_potency = Potency(characteristic=self.potency.characteristic, value=potency)
            found = _potency_in(effect)
            assert found is not None  # the validator put it there
            match = found[1]
            effect = effect[: match.start()] + str(new_potency) + effect[match.end():]
        return Tier(damages=damages, effect=effect, potency=new_potency)

    def __str__(self) -> str:
        head = ", ".join(str(d) for d in self.damages)
        if not head:
            return self.effect
        if not self.effect:
            return head
        return head + ("" if self.effect.startswith(",") else "; ") + self.effect


def _parse_tier(text: object) -> dict[str, Any]:
    if not isinstance(text, str):
        raise InvalidInput("tier", text, "the tier's text, like '5 damage; M < 0 bleeding (save ends)'")
    match = _LEADING_DAMAGE.match(text)
    if not match:
        return {"damages": (), "effect": text}
    damages = [
        Damage(amount=int(m.group(1)), types=m.group(2)) for m in _ONE_DAMAGE.finditer(text[: match.end()])
    ]
    rest = text[match.end():]
    if rest.startswith("; "):
        rest = rest[2:]
    elif rest and not rest.startswith(","):
        # "5 damage plus ..." is not a leading damage the book's layout knows: keep it all as words
        return {"damages": (), "effect": text}
    if text[: match.start(1)].strip() or ", ".join(str(d) for d in damages) != text[match.start(1): match.end()]:
        # spacing or case the book does not use: read the numbers, keep no layout guess
        raise InvalidInput("tier", text, "the book's layout: 'N [type] damage' parts joined by ', ', then '; '")
    return {"damages": tuple(damages), "effect": rest}


# ---------------------------------------------------------------- the power roll

_ROLL = re.compile(r"^\s*(?:Power\s+Roll|2d10)\s*([+\-−])\s*(\d{1,40})\s*:?\s*$", re.IGNORECASE)
ROLL_ACCEPTS = "'Power Roll + N' (N a whole number)"


@checked_methods
class PowerRoll(Part):
    """2d10 + bonus with three tiers; `characteristics` are those rolled (Forge Steel names them; the Steel
    Compendium prints only the bonus, so they may be unknown: ())."""

    characteristics: tuple[str, ...] = ()
    bonus: int
    tier1: Tier
    tier2: Tier
    tier3: Tier

    @field_validator("characteristics", mode="before")
    @classmethod
    def _characteristics(cls, value: object) -> object:
        if isinstance(value, str):
            value = (value,)
        if not isinstance(value, (list, tuple)):
            raise InvalidInput("characteristics", value, "characteristics among " + ", ".join(CHARACTERISTICS))
        return tuple(check_characteristic(v, "characteristics") for v in value)

    @field_validator("bonus", mode="before")
    @classmethod
    def _bonus(cls, value: object) -> object:
        return whole("bonus", value, MIN_BONUS, MAX_BONUS)

    @field_validator("tier1", "tier2", "tier3", mode="before")
    @classmethod
    def _tier(cls, value: object) -> object:
        return Tier.parse(value) if isinstance(value, str) else value

    @staticmethod
    def parse_bonus(text: object) -> int:
        """The bonus of "Power Roll + 2" (also "2d10 + 2", "Power Roll − 1")."""
        match = _ROLL.match(text) if isinstance(text, str) else None
        if not match:
            raise InvalidInput("roll", text, ROLL_ACCEPTS)
        value = int(match.group(2))
        return -value if match.group(1) in "-−" else value

    @property
    def tiers(self) -> tuple[Tier, Tier, Tier]:
        return (self.tier1, self.tier2, self.tier3)

    @property
    def damage(self) -> tuple[int | None, int | None, int | None]:
        return (self.tier1.damage, self.tier2.damage, self.tier3.damage)

    @property
    def roll_text(self) -> str:
        sign = "+" if self.bonus >= 0 else "-"
        return f"Power Roll {sign} {abs(self.bonus)}"

    def __str__(self) -> str:
        return self.roll_text


# ---------------------------------------------------------------- effect sections

_MALICE = re.compile(r"^\s*(\d{1,40})(\+)?\s+Malice\s*$", re.IGNORECASE)
MALICE_ACCEPTS = "a Malice cost like '3 Malice' or '2+ Malice'"


@checked_methods
class Effect(Part):
    """A paragraph of an ability or trait: optionally named ("Effect", "Special"), optionally bought with
    Malice ("5 Malice": `malice` 5; "2+ Malice": `malice_plus`), optionally a test with three tiers
    (tier 1 is the worst outcome for the one tested)."""

    name: str | None = None
    text: str = ""
    malice: int | None = None
    malice_plus: bool = False
    tiers: tuple[Tier, Tier, Tier] | None = None

    @field_validator("malice", mode="before")
    @classmethod
    def _malice(cls, value: object) -> object:
        if value is None:
            return None
        return whole("malice", value, 1)

    @field_validator("tiers", mode="before")
    @classmethod
    def _tiers(cls, value: object) -> object:
        if isinstance(value, (list, tuple)):
            return tuple(Tier.parse(t) if isinstance(t, str) else t for t in value)
        return value

    @staticmethod
    def parse_malice(text: object) -> tuple[int, bool]:
        match = _MALICE.match(text) if isinstance(text, str) else None
        if not match:
            raise InvalidInput("malice", text, MALICE_ACCEPTS)
        return int(match.group(1)), bool(match.group(2))

    @property
    def cost_text(self) -> str:
        """"5 Malice", "2+ Malice"; "" when the paragraph costs nothing."""
        return "" if self.malice is None else f"{self.malice}{'+' if self.malice_plus else ''} Malice"


# ---------------------------------------------------------------- distance and target

DISTANCE_ACCEPTS = (
    "melee N, ranged N, melee N or ranged M, N burst, N aura, N cube within M, N × M line within K, "
    "N wall within M, self or special"
)
DistanceKind = Literal["melee", "ranged", "melee or ranged", "burst", "aura", "cube", "line", "wall", "self",
                       "special"]
_DISTANCES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        ("melee or ranged", r"melee\s+(\d{1,40})\s+or\s+ranged\s+(\d{1,40})"),
        ("melee", r"melee\s+(\d{1,40})"),
        ("ranged", r"ranged\s+(\d{1,40})"),
        ("burst", r"(\d{1,40})\s+burst"),
        ("aura", r"(\d{1,40})\s+aura"),
        ("cube", r"(\d{1,40})\s+cube\s+within\s+(\d{1,40})"),
        ("line", r"(\d{1,40})\s*[x×]\s*(\d{1,40})\s+line\s+within\s+(\d{1,40})"),
        ("wall", r"(\d{1,40})\s+wall\s+within\s+(\d{1,40})"),
        ("self", r"self"),
        ("special", r"special"),
    )
)


@checked_methods
class Distance(Part):
    """An ability's distance, structured: kind and its numbers (`value`; `value2` the ranged distance of
    "melee N or ranged M" or the width of a line; `within` how far an area may be placed); `note` any words
    after a ";" ("Self; see below"). `text` keeps the book's spelling, so it prints back exactly."""

    kind: DistanceKind
    value: int | None = None
    value2: int | None = None
    within: int | None = None
    note: str = ""
    text: str = ""

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            return _parse_distance(data)
        if isinstance(data, dict) and data.get("text") and "kind" not in data:
            return {**_parse_distance(data["text"]), **{k: v for k, v in data.items() if k != "text"}}
        return data

    @field_validator("value", "value2", "within", mode="before")
    @classmethod
    def _number(cls, value: object, info: ValidationInfo) -> object:
        return None if value is None else whole(info.field_name or "distance", value, 0)

    @model_validator(mode="after")
    def _numbers_match_kind(self) -> Distance:
        needs = {
            "melee or ranged": ("value", "value2"), "melee": ("value",), "ranged": ("value",),
            "burst": ("value",), "aura": ("value",), "cube": ("value", "within"),
            "line": ("value", "value2", "within"), "wall": ("value", "within"), "self": (), "special": (),
        }[self.kind]
        for name in ("value", "value2", "within"):
            if (getattr(self, name) is None) == (name in needs):
                raise InvalidInput("distance", self.canonical, DISTANCE_ACCEPTS,
                                   f"a {self.kind} distance {'needs' if name in needs else 'has no'} {name}")
        if self.text and self.kind != "special":
            # the book's spelling kept for printing must say the same as the numbers (cheaper than a re-parse);
            # a special distance's text is words the numbers don't hold ("Two 3 cubes within 10"), printed as is
            body, _, note = self.text.partition(";")
            numbers = [int(n) for n in re.findall(r"\d{1,40}", body)]
            if numbers != [n for n in (self.value, self.value2, self.within) if n is not None] or (
                    note.strip() != self.note or self.kind.split()[0] not in body.lower()):
                raise InvalidInput("distance", self.text, DISTANCE_ACCEPTS, "the text and the numbers disagree")
        return self

    @classmethod
    def parse(cls, text: str) -> Distance:
        return cls(**_parse_distance(text))

    @property
    def canonical(self) -> str:
        """The distance in the book's usual spelling, from the numbers."""
        body = {
            "melee or ranged": f"Melee {self.value} or ranged {self.value2}",
            "melee": f"Melee {self.value}", "ranged": f"Ranged {self.value}",
            "burst": f"{self.value} burst", "aura": f"{self.value} aura",
            "cube": f"{self.value} cube within {self.within}",
            "line": f"{self.value} × {self.value2} line within {self.within}",
            "wall": f"{self.value} wall within {self.within}", "self": "Self", "special": "Special",
        }[self.kind]
        return f"{body}; {self.note}" if self.note else body

    def __str__(self) -> str:
        return self.text or self.canonical


def _parse_distance(text: object) -> dict[str, Any]:
    if not isinstance(text, str):
        raise InvalidInput("distance", text, DISTANCE_ACCEPTS)
    body, _, note = text.partition(";")
    for kind, pattern in _DISTANCES:
        match = pattern.fullmatch(body.strip())
        if match:
            numbers = [int(n) for n in match.groups()]
            fields: dict[str, Any] = {"kind": kind, "value": None, "value2": None, "within": None}
            if kind in ("melee or ranged",):
                fields.update(value=numbers[0], value2=numbers[1])
            elif kind == "line":
                fields.update(value=numbers[0], value2=numbers[1], within=numbers[2])
            elif kind in ("cube", "wall"):
                fields.update(value=numbers[0], within=numbers[1])
            elif numbers:
                fields.update(value=numbers[0])
            return {**fields, "note": note.strip(), "text": text}
    raise InvalidInput("distance", text, DISTANCE_ACCEPTS)


class Target(Part):
    """An ability's target: the book's words and the number of creatures they mean (None: "each ... in the
    area", "self", no count named)."""

    text: str
    count: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            data = {"text": data}
        if isinstance(data, dict) and "count" not in data and isinstance(data.get("text"), str):
            data = {**data, "count": targets_from_text(data["text"])}
        return data

    @field_validator("count", mode="before")
    @classmethod
    def _count(cls, value: object) -> object:
        return None if value is None else whole("count", value, 1)

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------- the ability

_VILLAIN = re.compile(r"^\s*villain(?:\s+action)?\s+([123])\s*$", re.IGNORECASE)
COST_ACCEPTS = "'signature', a Malice cost (a whole number of 1 or more, or 'N Malice'), 'villain 1'..'villain 3' or None"


def parse_cost(value: object) -> Cost:
    """"Signature Ability" → "signature", "Villain Action 2" → "villain 2", "3 Malice" or 3 → 3, None."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return whole("cost", value, 1)
    if isinstance(value, str):
        key = value.strip().lower()
        if key in ("signature", "signature ability"):
            return "signature"
        if match := _VILLAIN.match(key):
            return f"villain {match.group(1)}"  # type: ignore[return-value]
        if match := _MALICE.match(value):
            return whole("cost", int(match.group(1)), 1)
    raise InvalidInput("cost", value, COST_ACCEPTS)


class Ability(Part):
    """One ability of a stat block, every part typed (see the module docstring for the readings)."""

    name: str
    flavour: str = ""
    cost: Cost = None
    action: Action | None = None
    keywords: tuple[str, ...] = ()
    distance: Distance | None = None
    target: Target | None = None
    trigger: str = ""
    effects_before: tuple[Effect, ...] = ()
    power_roll: PowerRoll | None = None
    effects_after: tuple[Effect, ...] = ()

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not value.strip():
            raise InvalidInput("name", value, "the ability's name (some text)")
        return value

    @field_validator("cost", mode="before")
    @classmethod
    def _cost(cls, value: object) -> object:
        return parse_cost(value)

    @field_validator("action", mode="before")
    @classmethod
    def _action(cls, value: object) -> object:
        if value is None:
            return None
        key = " ".join(value.strip().lower().split()) if isinstance(value, str) else None
        if key in ("-", "", "none"):
            return None
        if key not in ACTIONS:
            raise InvalidInput("action", value, "one of " + ", ".join(ACTIONS) + " or none ('-')")
        return key

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, value: object) -> object:
        if isinstance(value, str):
            value = [k for k in re.split(r"\s*,\s*", value.strip()) if k]
        if not isinstance(value, (list, tuple)):
            raise InvalidInput("keywords", value, "ability keywords among " + ", ".join(ABILITY_KEYWORDS))
        if list(value) in (["-"], ["—"]):
            return ()
        keywords = []
        for keyword in value:
            key = keyword.strip().lower() if isinstance(keyword, str) else None
            if key not in _KEYWORD_KEYS:
                raise InvalidInput("keywords", keyword, "ability keywords among " + ", ".join(ABILITY_KEYWORDS))
            keywords.append(_KEYWORD_KEYS[key])
        return tuple(keywords)

    @field_validator("distance", mode="before")
    @classmethod
    def _distance(cls, value: object) -> object:
        return Distance.parse(value) if isinstance(value, str) else value

    @field_validator("target", mode="before")
    @classmethod
    def _target(cls, value: object) -> object:
        return Target(text=value) if isinstance(value, str) else value

    @property
    def is_strike(self) -> bool:
        """A strike adds the highest characteristic to its damage ("If the ability is a strike")."""
        return "Strike" in self.keywords

    @property
    def is_signature(self) -> bool:
        return self.cost == "signature"

    @property
    def villain_action(self) -> int | None:
        """1, 2 or 3 for a villain action, None otherwise."""
        return int(self.cost[-1]) if isinstance(self.cost, str) and self.cost.startswith("villain") else None

    @property
    def malice(self) -> int | None:
        """The Malice the ability costs, None when it costs none."""
        return self.cost if isinstance(self.cost, int) else None

    @property
    def cost_text(self) -> str:
        """The cost as the book prints it: "Signature Ability", "Villain Action 1", "3 Malice", ""."""
        if self.cost is None:
            return ""
        if self.cost == "signature":
            return "Signature Ability"
        if isinstance(self.cost, int):
            return f"{self.cost} Malice"
        return f"Villain Action {self.cost[-1]}"

    @property
    def action_text(self) -> str:
        """The action as the book prints it ("Main action"); "-" when it takes none."""
        return ACTIONS[self.action] if self.action else "-"

    @property
    def keywords_text(self) -> str:
        return ", ".join(self.keywords) or "-"

    @property
    def effects(self) -> tuple[Effect, ...]:
        return (*self.effects_before, *self.effects_after)
