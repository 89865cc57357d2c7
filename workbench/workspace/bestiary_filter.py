"""Browsing a bestiary: the stat blocks that match a Director's filters, sorted by any column.

Pure: a `BestiaryQuery` (level and EV ranges, organization, role, keywords, a text search, the sort) in, the
matching `PublishedMonster`s out, so the bestiary browser's handler only reads its controls into a query.
Keywords match any of those given, case-insensitively; the text search looks in the name, the keywords, the
organization and role words, and the signature ability's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from workbench.formats.bestiary import PublishedMonster
from workbench.model import Monster

__all__ = ["BestiaryQuery", "SORT_COLUMNS", "browse", "all_keywords"]

SORT_COLUMNS = ("name", "level", "organization", "role", "ev", "stamina")
SortColumn = Literal["name", "level", "organization", "role", "ev", "stamina"]


class BestiaryQuery(BaseModel):
    """What the Director is looking for. Empty fields filter nothing."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    levels: tuple[int, int] | None = None
    evs: tuple[int, int] | None = None
    organizations: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    text: str = ""
    sort: SortColumn = "level"
    descending: bool = False


def _matches(m: PublishedMonster, q: BestiaryQuery) -> bool:
    if q.levels and not q.levels[0] <= m.level <= q.levels[1]:
        return False
    if q.evs and not q.evs[0] <= m.ev <= q.evs[1]:
        return False
    if q.organizations and m.organization not in q.organizations:
        return False
    if q.roles and (m.role or "") not in q.roles:
        return False
    own = {k.lower() for k in m.keywords}
    if q.keywords and not own & {k.strip().lower() for k in q.keywords if k.strip()}:
        return False
    words = q.text.strip().lower()
    if words:
        haystack = " ".join([m.name, *m.keywords, m.roles_text, m.signature.name if m.signature else ""]).lower()
        return all(word in haystack for word in words.split())
    return True


def _key(m: PublishedMonster, column: str) -> tuple[Any, str]:
    value = getattr(m, column)
    if isinstance(value, str) or value is None:
        return (str(value or "").lower(), m.name.lower())
    return (value, m.name.lower())


def browse(monsters: Iterable[PublishedMonster], query: BestiaryQuery | None = None) -> tuple[PublishedMonster, ...]:
    """The stat blocks matching `query`, sorted by its column (ties by name)."""
    q = query or BestiaryQuery()
    found = [m for m in monsters if _matches(m, q)]
    return tuple(sorted(found, key=lambda m: _key(m, q.sort), reverse=q.descending))


def all_keywords(monsters: Iterable[PublishedMonster | Monster]) -> tuple[str, ...]:
    """Every keyword of these stat blocks (a bestiary's, a library's), once, sorted (for a picker)."""
    return tuple(sorted({k for m in monsters for k in m.keywords}, key=str.lower))
