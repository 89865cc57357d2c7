"""A published stat block as HTML for the bestiary browser: its header numbers, and every feature of the
transcription when its file is at hand (abilities with their keywords, distance, target and tiers; traits
with their text). Every string from a file is escaped; a missing field is left out, never shown as "None".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.formats.bestiary import CHARACTERISTICS, PublishedMonster
from workbench.render.escape import escape_html as _e

__all__ = ["published_stat_block_html", "row_label"]

_BOX = ("font-family:system-ui,sans-serif;border:1px solid #bbb;border-radius:4px;padding:.5em .8em;"
        "max-width:640px;background:#fcfbf7")




def row_label(m: PublishedMonster) -> str:
    """One line per stat block for the browser's list: name, level, organization and role, EV."""
    kind = " ".join(part for part in (m.organization, m.role or "") if part)
    ev = f"EV {m.ev}" + (" for four" if m.organization == "minion" else "")
    return f"{m.name} — level {m.level} {kind}, {ev}, Stamina {m.stamina}"


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value if v is not None)
    return "" if value is None else str(value)


def _effect_html(effect: Mapping[str, Any]) -> str:
    parts = []
    if effect.get("roll"):
        parts.append(f"<div><b>{_e(effect['roll'])}</b></div>")
    for key, mark in (("tier1", "≤11"), ("tier2", "12–16"), ("tier3", "17+"), ("t1", "≤11"), ("t2", "12–16"),
                      ("t3", "17+")):
        if effect.get(key):
            parts.append(f"<div>{mark}: {_e(effect[key])}</div>")
    for key in ("effect", "text"):
        if effect.get(key):
            name = f"<b>{_e(effect['name'])}:</b> " if effect.get("name") else ""
            parts.append(f"<div>{name}{_e(effect[key])}</div>")
    return "".join(parts)


def _feature_html(feature: Mapping[str, Any]) -> str:
    name = _e(feature.get("name", ""))
    cost = _text(feature.get("ability_type") or feature.get("cost"))
    head = f"<b>{name}</b>" + (f" <i>({_e(cost)})</i>" if cost else "")
    details = [
        _e(f"{label}: {_text(feature.get(key))}")
        for key, label in (("keywords", "Keywords"), ("usage", "Use"), ("distance", "Distance"), ("target", "Target"))
        if _text(feature.get(key))
    ]
    raw = feature.get("effects")
    effects: list[Any] = raw if isinstance(raw, list) else []
    body = "".join(_effect_html(x) for x in effects if isinstance(x, Mapping))
    extra = f"<div><small>{' · '.join(details)}</small></div>" if details else ""
    return f'<div class="wb-feature" style="margin:.4em 0">{head}{extra}{body}</div>'


def published_stat_block_html(m: PublishedMonster, data: Mapping[str, Any] | None = None) -> str:
    """The stat block: header numbers always; with `data` (the file's JSON), every feature too."""
    kind = " ".join(part for part in (m.organization, m.role or "") if part).title()
    keywords = ", ".join(m.keywords)
    chars = " ".join(f"{c.capitalize()} {m.characteristics[c]:+d}" for c in CHARACTERISTICS)
    rows = [
        f'<div style="font-size:1.2em"><b class="wb-stat-block-name">{_e(m.name)}</b></div>',
        f"<div>Level {m.level} {_e(kind)}" + (f" · {_e(keywords)}" if keywords else "") + "</div>",
        f'<div>EV <span class="wb-ev">{_e(m.ev_text)}</span> · Stamina {m.stamina} · '
        f"Free strike {m.free_strike}</div>",
        f"<div>{_e(chars)}</div>",
    ]
    features = data.get("features") or data.get("abilities") if data else None
    if isinstance(features, list) and features:
        rows.append("<hr>" + "".join(_feature_html(f) for f in features if isinstance(f, Mapping)))
    elif m.signature is not None:
        sig = m.signature
        marks = ("≤11", "12–16", "17+")
        tiers = "".join(f"<div>{mark}: {_e(t)}</div>" for mark, t in zip(marks, sig.tier_text or (), strict=False))
        bonus = f" (power roll {sig.bonus:+d})" if sig.bonus is not None else ""
        rows.append(f"<hr><b>{_e(sig.name)}</b> <i>(signature ability{bonus})</i>{tiers}")
    return f'<div class="wb-published-stat-block" style="{_BOX}">' + "".join(rows) + "</div>"
