"""Stable ids for exported monsters and their parts: the same monster exported twice gets the same ids.

Forge Steel keeps monsters by `id` and Foundry embedded items by `_id`; an id drawn at random would make every
re-export a second copy when imported again. An id is derived from what names the monster — its name, level,
organization and role — so editing its numbers or text keeps the id (the same monster, changed), while a
re-levelled copy gets an id of its own. A part's id adds the part's kind, position and name.
"""

from __future__ import annotations

import hashlib
import re

from workbench.model import Monster

__all__ = ["foundry_id", "monster_key", "part_key", "slug"]

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
FOUNDRY_ID_LENGTH = 16  # Foundry's document ids: 16 letters and digits


def slug(text: str) -> str:
    """Lower-case words joined by hyphens ("Goblin Assassin" → "goblin-assassin"); "monster" if none."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "monster"


def monster_key(monster: Monster) -> str:
    """What names a monster across exports: "goblin-assassin.1.horde.ambusher" plus a short digest of the
    exact name (two names with the same slug stay apart)."""
    digest = hashlib.sha256(monster.name.encode()).hexdigest()[:8]
    return f"{slug(monster.name)}.{monster.level}.{monster.organization}.{monster.role or 'none'}.{digest}"


def part_key(monster: Monster, kind: str, index: int, name: str) -> str:
    """A part's key inside its monster: its kind, its position among its kind and its name."""
    return f"{monster_key(monster)}/{kind}/{index}/{slug(name)}"


def foundry_id(key: str) -> str:
    """A 16-character Foundry document id (letters and digits) drawn from `key` by SHA-256."""
    number = int.from_bytes(hashlib.sha256(key.encode()).digest(), "big")
    chars = []
    for _ in range(FOUNDRY_ID_LENGTH):
        number, digit = divmod(number, len(_BASE62))
        chars.append(_BASE62[digit])
    return "".join(chars)
