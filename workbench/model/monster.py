"""The Monster and its parts as pure data: what a stat block holds, with no formula, file or display code.

Every layer above reads and writes these types: the formulas fill them (`workbench.monster.formulas`), the
library saves them, the renderers draw them (and register how a Monster shows itself in a notebook). Keeping
them free of behaviour is what lets every other module import them without an import cycle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from workbench.arguments import checked_methods
from workbench.errors import InvalidInput
from workbench.model.ability import Ability, Effect
from workbench.model.parts import CHARACTERISTICS, Characteristics, DamageModifier, Movement, Size, check_characteristic
from workbench.model.signature import formula_ability
from workbench.rules.feature_book import FeatureEntry, SoloTrait
from workbench.rules.limits import typed_whole
from workbench.rules.ruleset import Ruleset, core_ruleset

__all__ = [
    "RULE_ID", "AttachedRule", "KeptText", "Monster", "MonsterText", "SECTION", "StatBlockParts", "Step", "Tiers", "Trait",
    "Value", "require_monster",
]

SECTION = "Adjusting Monster Levels"
# A homebrew rule module's id: lowercase words joined by hyphens ("exploitable-weakness").
RULE_ID = r"^[a-z0-9]+(-[a-z0-9]+)*$"

Value = int | str


class AttachedRule(BaseModel):
    """A homebrew rule module attached to a monster: its id and the parameter values chosen (saved with it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str = Field(pattern=RULE_ID)
    values: tuple[tuple[str, Value], ...] = ()

    def value_map(self) -> dict[str, Value]:
        return dict(self.values)


class Tiers(BaseModel):
    """One number per power roll tier."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # schema built on first use: faster import
    tier1: int
    tier2: int
    tier3: int

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.tier1, self.tier2, self.tier3)


class Step(BaseModel):
    """One computed number with its formula and this monster's values plugged in."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # schema built on first use: faster import
    quantity: str
    formula: str
    working: str
    value: int
    section: str = SECTION
    reading: str | None = None

    def __str__(self) -> str:
        return f"{self.quantity} = {self.working} = {self.value}"


def _effects_text(effects: Iterable[Effect]) -> str:
    """Paragraphs as one text: "Name: text" lines for named ones."""
    return "\n".join(f"{e.name}: {e.text}" if e.name else e.text for e in effects)


@checked_methods
class Trait(BaseModel):
    """A named piece of stat block text: a trait, a Malice feature (with its cost), a villain action.

    A published trait keeps its paragraphs (`effects`: "End Effect", "Solo Turns", ...); `text` is then
    those paragraphs as one text ("Name: text" lines for named ones), for every view that shows text only.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)  # schema built on first use: faster import
    name: str
    text: str
    cost: int | None = None
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _text_of_effects(cls, data: Any) -> Any:
        effects = data.get("effects") if isinstance(data, dict) else None
        # anything but a list of paragraphs is left to the field's own validation (a ValidationError)
        if (isinstance(data, dict) and "text" not in data and isinstance(effects, (list, tuple)) and effects
                and all(isinstance(e, (Effect, dict)) for e in effects)):
            effects = [e if isinstance(e, Effect) else Effect.model_validate(e) for e in effects]
            data = {**data, "text": _effects_text(effects)}
        return data

    @classmethod
    def of_effects(cls, name: str, effects: Sequence[Effect], cost: int | None = None) -> Trait:
        """A trait made of paragraphs (a published one), its `text` written from them."""
        return cls(name=name, text=_effects_text(effects), cost=cost, effects=tuple(effects))

    @classmethod
    def from_book(cls, entry: FeatureEntry | SoloTrait) -> Trait:
        """A feature or solo trait of the rules' feature book, as a monster carries it."""
        return cls(name=entry.name, text=entry.text, cost=entry.cost if isinstance(entry, FeatureEntry) else None)


class KeptText(BaseModel):
    """A part of a file the model cannot structure, kept exactly as written rather than refusing the monster:
    where it is ("ability 'Ice Storm'"), which part ("distance") and its words ("Two 3 cubes within 10").

    The part stays on the block as words (a distance as a special one printing these words, a paragraph ...);
    this entry is the note that says so, for the block and for the import's report."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    where: str
    part: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}, {self.part}: {self.text}"


class MonsterText(BaseModel):
    """The text a homebrewer fills in; the formulas never read it. Shared by `Monster` and the library's file
    format, so a field added here is shown, saved and loaded everywhere at once."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str = ""
    keywords: tuple[str, ...] = ()
    size: str = ""
    speed: str = ""
    stability: str = ""
    signature_name: str = ""
    signature_text: str = ""
    traits: tuple[Trait, ...] = ()
    malice_features: tuple[Trait, ...] = ()
    villain_actions: tuple[Trait, ...] = ()
    # Homebrew rule modules attached to this monster (module id + parameter values); see homebrew/rule.py.
    homebrew_rules: tuple[AttachedRule, ...] = ()


class StatBlockParts(BaseModel):
    """The parts of a book stat block beyond the formulas' numbers and the builder's text.

    All default to empty, so a monster built from the formulas and a version-1 library file are unchanged.
    The typed header parts print the book's notation (`str(size_class)` is "1S"); when one is set, views
    show it in place of the builder's free text of the same name (`size`, `speed`, `stability`).
    `abilities` are in the stat block's order, traits excluded (they are `traits`).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    characteristics: Characteristics = Characteristics()
    size_class: Size | None = None
    movement: Movement | None = None
    stability_value: int | None = None
    immunities: tuple[DamageModifier, ...] = ()
    weaknesses: tuple[DamageModifier, ...] = ()
    with_captain: str = ""
    abilities: tuple[Ability, ...] = ()
    # parts of an imported file kept as words (see KeptText); empty for every monster built here
    kept_as_text: tuple[KeptText, ...] = ()


@checked_methods
class Monster(MonsterText, StatBlockParts):
    """Every number the formulas give for one level × organization × role, and the inputs that chose them.

    `damage` is the signature strike at `targets` (the expected count unless chosen); `non_strike_damage`
    is an ability at the same count that is not a strike (no characteristic added). Other counts:
    `wb.ability_damage(...)`. Its text (name, traits, …) comes from `MonsterText`;
    change it with `monster.model_copy(update=...)`.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)  # schema built on first use: faster import

    level: int
    organization: str
    role: str | None
    extra_stamina: bool
    targets: int
    expected_targets: int
    echelon: int
    ev: int
    stamina: int
    free_strike: int
    highest_characteristic: int
    damage_modifier: int
    damage: Tiers
    non_strike_damage: Tiers
    potency: Tiers
    ruleset: str

    # A monster moved to another level by workbench.monster.relevel remembers the design it came from, so
    # moving it on (or back) starts from the design and loses nothing a level's limits cut off.
    relevelled_from: Monster | None = None

    _rules: Ruleset = PrivateAttr(default_factory=core_ruleset)

    @property
    def rules(self) -> Ruleset:
        """The ruleset these numbers were computed with."""
        return self._rules

    @property
    def stability_number(self) -> int:
        """The Stability a format that holds only a number writes: `stability_value`, else the free text when it is
        a plain whole number ("2"), else 0: words ("2 (10 while grounded)"), "²" or a run of 5,000 digits have no one
        number (int() raises on the last two)."""
        if self.stability_value is not None:
            return self.stability_value
        return typed_whole(self.stability) or 0

    def to_json(self) -> str:
        """Every field as one JSON object (the keys of the public contract)."""
        return self.model_dump_json(indent=2)

    def formula_signature(self, characteristic: str = "might", strike: bool = True) -> Ability:
        """The signature ability its numbers and text make (`model.signature.formula_ability`): the
        Director's name and text, a strike (its damage with the characteristic) or not, its targets,
        "Power Roll + highest", each tier's damage and potency in the chosen characteristic's letter."""
        damage = self.damage if strike else self.non_strike_damage
        return formula_ability(self.signature_name, self.signature_text, check_characteristic(characteristic),
                               bool(strike), self.targets, self.highest_characteristic, damage.as_tuple(),
                               self.potency.as_tuple())

    def formula_choices(self) -> tuple[str, bool] | None:
        """(characteristic, strike) when its one ability is the signature ability its numbers and text make
        (a formula monster); None for a monster with abilities of its own, or none."""
        if len(self.abilities) != 1:
            return None
        (ability,) = self.abilities
        roll = ability.power_roll
        if roll is None or len(roll.characteristics) != 1 or roll.characteristics[0] not in CHARACTERISTICS:
            return None
        choices = roll.characteristics[0], "Strike" in ability.keywords
        return choices if ability == self.formula_signature(*choices) else None

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with `update` applied. A formula monster's signature ability, and its chosen characteristic
        when it held the formulas' highest, are written anew from the copy's numbers and text (unless
        `update` gives them): a re-levelled, re-worded or renamed copy never carries an ability of the old
        numbers."""
        copied = super().model_copy(update=update, deep=deep)
        choices = self.formula_choices() if update and _SIGNATURE_SOURCES & update.keys() else None
        if choices is None or update is None:
            return copied
        chosen, strike = choices
        rewrite: dict[str, Any] = {}
        if "characteristics" not in update and self.characteristics[chosen] == self.highest_characteristic:
            rewrite["characteristics"] = copied.characteristics.model_copy(
                update={chosen: copied.highest_characteristic})
        if "abilities" not in update:
            rewrite["abilities"] = (copied.formula_signature(chosen, strike),)
        return super(Monster, copied).model_copy(update=rewrite) if rewrite else copied


# the fields a formula monster's signature ability and chosen characteristic are made of
_SIGNATURE_SOURCES = frozenset(("highest_characteristic", "damage", "non_strike_damage", "potency", "targets",
                                "signature_name", "signature_text"))


def require_monster(value: Any, field: str = "monster") -> Monster:
    """`value` itself if it is a Monster, else `InvalidInput` naming `field`: every public function that takes
    a monster checks it the same way, so a dict or a name passed by mistake is reported before it is used."""
    if not isinstance(value, Monster):
        raise InvalidInput(field, value, "a Monster (from build_monster, read_stat_block or load_monster)")
    return value
