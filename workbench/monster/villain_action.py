"""Villain actions: the three numbered slots (opener, crowd control, ultimate) of a leader's or solo's block.

The book gives leaders and solos exactly three villain actions and rules for using them (each once per
encounter, no more than one per round, at the end of another creature's turn); the slot names and that
text are data (`data/malice-features.toml`), so the stat block shows the book's words. A homebrewer writes
the actions; `with_villain_actions` returns a new monster with them, by slot, in `Monster.villain_actions`.

Storage: `villain_actions` holds the slots in order (opener, crowd control, ultimate). A slot not written
yet is a `Trait` with an empty name and text, so positions never shift; `villain_action_slots` pairs each
slot with its action (or None).

Reading (the book is silent): an instant solo made from an elite has no villain actions by the text of
"Instant Solo Creature", but it is a solo creature now and the book's solos all have three, so its block
offers the three slots too; leaving them empty keeps the book's adjustments exactly.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.model import Monster, Trait, require_monster
from workbench.monster.solo import is_instant_solo
from workbench.rules.feature_book import VillainSlot, feature_book

__all__ = [
    "FilledSlot",
    "VillainSlot",
    "extra_villain_actions",
    "has_villain_actions",
    "villain_action_rules",
    "villain_action_slots",
    "villain_action_summary",
    "villain_slots",
    "with_villain_actions",
]


def villain_slots() -> tuple[VillainSlot, ...]:
    """The three slots in the book's order, each with its key, name and the book's description."""
    return feature_book().villain_actions.slots


def villain_action_rules() -> tuple[str, ...]:
    """The book's rules for using villain actions ("Villain Actions"), paragraph by paragraph."""
    return feature_book().villain_actions.rules


def villain_action_summary() -> str:
    """One line for the stat block: once per encounter, one per round, at the end of another's turn."""
    return feature_book().villain_actions.summary


def has_villain_actions(monster: Monster) -> bool:
    """Leaders and solos have villain actions; so does an instant solo (see the module's reading)."""
    monster = require_monster(monster)
    return monster.organization in feature_book().villain_actions.organizations or is_instant_solo(monster)


class FilledSlot(BaseModel):
    """A villain action slot and the action written into it (None while empty)."""

    model_config = ConfigDict(frozen=True)
    slot: VillainSlot
    action: Trait | None


def _is_empty(trait: Trait) -> bool:
    return not trait.name.strip() and not trait.text.strip()


def villain_action_slots(monster: Monster, strict: bool = True) -> tuple[FilledSlot, ...]:
    """Each of the three slots with this monster's action in it (None when not written): a villain action
    it holds as text, else its ability numbered for that slot (a published block's, named; its text is the
    ability's own).

    Monsters without villain actions (see `has_villain_actions`) get an empty tuple. More than three
    actions is refused (`strict`) or, for a renderer that must not fail, the extras are left out here
    (`extra_villain_actions` lists them).
    """
    if not has_villain_actions(monster):
        return ()
    actions = list(monster.villain_actions)
    slots = villain_slots()
    if not strict:
        actions = actions[: len(slots)]
    if len(actions) > len(slots):
        raise InvalidInput(
            "villain_actions", len(actions), f"at most {len(slots)} villain actions",
            "a creature with villain actions always has three",
        )
    filled: list[Trait | None] = [None if _is_empty(action) else action for action in actions]
    filled += [None] * (len(slots) - len(filled))
    # a published block prints its villain actions as numbered abilities: each fills its slot by name
    for ability in monster.abilities:
        number = ability.villain_action
        if number is not None and 1 <= number <= len(filled) and filled[number - 1] is None:
            filled[number - 1] = Trait(name=ability.name, text="")
    return tuple(FilledSlot(slot=slot, action=action) for slot, action in zip(slots, filled, strict=True))


def extra_villain_actions(monster: Monster) -> tuple[Trait, ...]:
    """Villain actions the slots cannot hold: beyond the three, or on a monster that has none by the rules."""
    actions = tuple(a for a in monster.villain_actions if not _is_empty(a))
    if not has_villain_actions(monster):
        return actions
    return tuple(a for a in monster.villain_actions[len(villain_slots()):] if not _is_empty(a))


def _as_action(key: str, value: Any) -> Trait | None:
    if value is None:
        return None
    if isinstance(value, Trait):
        return value
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return Trait(name=value[0], text=value[1])
    raise InvalidInput(key, value, "a Trait(name, text), a (name, text) pair of strings, or None")


def with_villain_actions(monster: Monster, **actions: Trait | tuple[str, str] | None) -> Monster:
    """A new monster with villain actions written into the named slots; the others are kept.

    Example: `with_villain_actions(leader, opener=Trait(name="Rally", text="..."))`.
    Slot keywords: `opener`, `crowd_control`, `ultimate`. Passing None empties a slot. Refused for a
    monster without villain actions (only leaders and solos have them) and for unknown slot names.
    """
    if not has_villain_actions(monster):
        raise InvalidInput(
            "organization", monster.organization, "a leader or a solo (or an instant solo)",
            "only leaders and solos have villain actions",
        )
    keys = [s.key for s in villain_slots()]
    unknown = [k for k in actions if k not in keys]
    if unknown:
        raise InvalidInput("slot", unknown[0], "one of " + ", ".join(keys))
    current = [f.action for f in villain_action_slots(monster)]
    for index, key in enumerate(keys):
        if key in actions:
            current[index] = _as_action(key, actions[key])
    while current and current[-1] is None:
        current.pop()
    stored = tuple(a if a is not None else Trait(name="", text="") for a in current)
    return monster.model_copy(update={"villain_actions": stored})
