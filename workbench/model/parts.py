"""The header of a stat block as typed data: characteristics, size, movement, immunities and weaknesses.

Each part reads the book's own notation (`Size.parse("1S")`, `Movement.parse(6, "Climb, Fly")`,
`DamageModifier.parse("Fire 5")`) and prints it back the same way (`str(part)`), so a published stat block
goes in and comes out unchanged, and a bad value is refused naming the field instead of being kept as text.
"""

from __future__ import annotations

import re
from typing import Literal, TypeGuard, get_args

from pydantic import field_validator, model_validator

from workbench.arguments import checked_methods
from workbench.errors import InvalidInput
from workbench.model.base import Part
from workbench.rules.limits import whole

__all__ = [
    "CHARACTERISTICS",
    "CHARACTERISTIC_LETTERS",
    "DAMAGE_TYPES",
    "MAX_CHARACTERISTIC",
    "MIN_CHARACTERISTIC",
    "MOVEMENT_MODES",
    "Characteristic",
    "Characteristics",
    "DamageModifier",
    "Movement",
    "Size",
    "check_characteristic",
    "is_characteristic",
]

# The five characteristics, in the order a stat block prints them.
Characteristic = Literal["might", "agility", "reason", "intuition", "presence"]
CHARACTERISTICS: tuple[Characteristic, ...] = get_args(Characteristic)
# The book's one-letter potency notation: "M < 2" is a Might potency of 2.
CHARACTERISTIC_LETTERS = {name[0].upper(): name for name in CHARACTERISTICS}
DAMAGE_TYPES = ("acid", "cold", "corruption", "fire", "holy", "lightning", "poison", "psychic", "sonic")
MOVEMENT_MODES = ("climb", "fly", "swim", "burrow", "teleport", "hover")
# A characteristic is also a power roll's bonus, which the power-roll math takes from -10 to +10
# (workbench.monster.power_roll); the book's monsters run from -5 to +5, a departure past that is refused.
MIN_CHARACTERISTIC = -10
MAX_CHARACTERISTIC = 10

_CHARACTERISTIC_ACCEPTS = "one of " + ", ".join(CHARACTERISTICS)


def is_characteristic(value: object) -> TypeGuard[Characteristic]:
    """True for one of the five names exactly as written in files (lower case), which lets a `str` pass as one."""
    return value in CHARACTERISTICS


def check_characteristic(name: object, field: str = "characteristic") -> str:
    """A characteristic's name, lower-case; a letter (M, A, R, I, P) is read too."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key and len(key) == 1:
        key = CHARACTERISTIC_LETTERS.get(key.upper())
    if key not in CHARACTERISTICS:
        raise InvalidInput(field, name, _CHARACTERISTIC_ACCEPTS + " (or its letter M, A, R, I, P)")
    return key




class Characteristics(Part):
    """All five characteristics; None where a monster built from the formulas leaves one to the Director."""

    might: int | None = None
    agility: int | None = None
    reason: int | None = None
    intuition: int | None = None
    presence: int | None = None

    @field_validator(*CHARACTERISTICS, mode="before")
    @classmethod
    def _in_range(cls, value: object, info: object) -> object:
        if value is None:
            return None
        return whole(getattr(info, "field_name", "characteristic"), value, MIN_CHARACTERISTIC, MAX_CHARACTERISTIC)

    def __getitem__(self, name: str) -> int | None:
        value: int | None = getattr(self, check_characteristic(name))
        return value

    def items(self) -> list[tuple[str, int | None]]:
        return [(name, getattr(self, name)) for name in CHARACTERISTICS]

    def as_dict(self) -> dict[str, int | None]:
        return dict(self.items())

    @property
    def known(self) -> bool:
        """True when all five are set (a published stat block), False for a formula monster."""
        return all(v is not None for _, v in self.items())

    @property
    def highest(self) -> int | None:
        values = [v for _, v in self.items() if v is not None]
        return max(values) if values else None


# At most 40 digits a number, as in ability.py: a longer run is refused with the field's words, not int()'s ValueError
_SIZE = re.compile(r"^\s*(\d{1,40})\s*([TSML])?\s*(?:or\s+(\d{1,40})\s*([TSML])?)?\s*$", re.IGNORECASE)
SIZE_ACCEPTS = "a size like 1T, 1S, 1M, 1L, 2, 3 (or two: '2 or 3')"


@checked_methods
class Size(Part):
    """A creature's size: 1T, 1S, 1M, 1L (size 1 with its letter), 2, 3, ...; the book also prints '2 or 3'."""

    value: int
    letter: Literal["T", "S", "M", "L"] | None = None
    or_value: int | None = None

    @field_validator("value", "or_value", mode="before")
    @classmethod
    def _positive(cls, value: object, info: object) -> object:
        if value is None:
            return None
        return whole(getattr(info, "field_name", "size"), value, 1)

    @model_validator(mode="after")
    def _letter_only_for_one(self) -> Size:
        if self.letter is not None and self.value != 1:
            raise InvalidInput("size", str(self), SIZE_ACCEPTS, "only size 1 takes a letter (T, S, M, L)")
        return self

    @classmethod
    def parse(cls, text: object) -> Size:
        match = _SIZE.match(text) if isinstance(text, str) else None
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(value=text)
        if not match or match.group(4):
            raise InvalidInput("size", text, SIZE_ACCEPTS)
        letter = match.group(2).upper() if match.group(2) else None
        if letter and int(match.group(1)) != 1:
            raise InvalidInput("size", text, SIZE_ACCEPTS, "only size 1 takes a letter (T, S, M, L)")
        other = int(match.group(3)) if match.group(3) else None
        return cls(value=int(match.group(1)), letter=letter, or_value=other)

    def __str__(self) -> str:
        text = f"{self.value}{self.letter or ''}"
        return text if self.or_value is None else f"{text} or {self.or_value}"


@checked_methods
class Movement(Part):
    """Speed and the movement modes beside it ("Speed 6 (climb, fly)")."""

    speed: int
    modes: tuple[Literal["climb", "fly", "swim", "burrow", "teleport", "hover"], ...] = ()

    @field_validator("speed", mode="before")
    @classmethod
    def _speed(cls, value: object) -> object:
        return whole("speed", value, 0)

    @field_validator("modes", mode="before")
    @classmethod
    def _modes(cls, value: object) -> object:
        if isinstance(value, str):
            value = [m for m in re.split(r"\s*,\s*", value.strip()) if m]
        if not isinstance(value, (list, tuple)):
            raise InvalidInput("modes", value, "movement modes: " + ", ".join(MOVEMENT_MODES))
        modes = []
        for mode in value:
            key = mode.strip().lower() if isinstance(mode, str) else None
            if key not in MOVEMENT_MODES:
                raise InvalidInput("modes", mode, "one of " + ", ".join(MOVEMENT_MODES))
            modes.append(key)
        return tuple(modes)

    @classmethod
    def parse(cls, speed: object, modes: object = "") -> Movement:
        """The Steel Compendium's `speed` (a number) and `movement` ("Climb, Fly"; "" or "-" for none)."""
        if isinstance(speed, str) and speed.strip().isdecimal() and len(speed.strip()) <= 40:  # else refused as text
            speed = int(speed)
        if modes is None or (isinstance(modes, str) and modes.strip() in ("", "-")):
            modes = ()
        return cls(speed=speed, modes=modes)

    @property
    def modes_text(self) -> str:
        """The modes as the Steel Compendium writes them: "Climb", "Fly, hover" ("" for none)."""
        return ", ".join(self.modes).capitalize()

    def __str__(self) -> str:
        return f"{self.speed} ({', '.join(self.modes)})" if self.modes else str(self.speed)


_MODIFIER = re.compile(r"^\s*([A-Za-z]+)\s+(\d{1,40})\s*$")
MODIFIER_ACCEPTS = "a damage type and a value, like 'Fire 5' (types: all, " + ", ".join(DAMAGE_TYPES) + ")"


@checked_methods
class DamageModifier(Part):
    """An immunity or a weakness: a damage type ("all" for every type) and its value."""

    type: str
    value: int

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, value: object) -> object:
        key = value.strip().lower() if isinstance(value, str) else None
        if key not in (*DAMAGE_TYPES, "all", "damage"):
            raise InvalidInput("type", value, "one of all, " + ", ".join(DAMAGE_TYPES))
        return "all" if key == "damage" else key

    @field_validator("value", mode="before")
    @classmethod
    def _value(cls, value: object) -> object:
        return whole("value", value, 0)

    @classmethod
    def parse(cls, text: object) -> DamageModifier:
        match = _MODIFIER.match(text) if isinstance(text, str) else None
        if not match:
            raise InvalidInput("damage modifier", text, MODIFIER_ACCEPTS)
        return cls(type=match.group(1), value=int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.type.capitalize()} {self.value}"
