"""A published stat block as HTML for the bestiary browser: its header numbers, and every feature of the
transcription when its file is at hand (abilities with their keywords, distance, target and tiers; traits
with their text). Every string from a file is escaped; a missing field is left out, never shown as "None".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.formats.bestiary import CHARACTERISTICS, PublishedMonster
from workbench.model.ability import TIER_LABELS
from workbench.render.escape import Markup, join

__all__ = ["published_stat_block_html", "row_label"]



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
        parts.append(Markup("<div><b>{}</b></div>").format(effect['roll']))
    for key, mark in (*((f"tier{n}", m) for n, m in enumerate(TIER_LABELS, 1)),
                      *((f"t{n}", m) for n, m in enumerate(TIER_LABELS, 1))):
        if effect.get(key):
            parts.append(Markup("<div>{}: {}</div>").format(mark, effect[key]))
    for key in ("effect", "text"):
        if effect.get(key):
            name = Markup("<b>{}:</b> ").format(effect['name']) if effect.get("name") else ""
            parts.append(Markup("<div>{}{}</div>").format(name, effect[key]))
    return join(parts)


def _feature_html(feature: Mapping[str, Any]) -> str:
    name = feature.get("name", "")
    cost = _text(feature.get("ability_type") or feature.get("cost"))
    head = Markup("<b>{}</b>").format(name) + (Markup(" <i>({})</i>").format(cost) if cost else "")
    details = [
        f"{label}: {_text(feature.get(key))}"
        for key, label in (("keywords", "Keywords"), ("usage", "Use"), ("distance", "Distance"), ("target", "Target"))
        if _text(feature.get(key))
    ]
    raw = feature.get("effects")
    effects: list[Any] = raw if isinstance(raw, list) else []
    body = join(_effect_html(x) for x in effects if isinstance(x, Mapping))
    extra = Markup("<div><small>{}</small></div>").format(' · '.join(details)) if details else ""
    return Markup('<div class="wb-feature">{}{}{}</div>').format(head, extra, body)


def published_stat_block_html(m: PublishedMonster, data: Mapping[str, Any] | None = None) -> str:
    """The stat block: header numbers always; with `data` (the file's JSON), every feature too."""
    kind = " ".join(part for part in (m.organization, m.role or "") if part).title()
    keywords = ", ".join(m.keywords)
    chars = " ".join(f"{c.capitalize()} {m.characteristics[c]:+d}" for c in CHARACTERISTICS)
    rows = [
        Markup('<div class="wb-published-name"><b class="wb-stat-block-name">{}</b></div>').format(m.name),
        Markup("<div>Level {} {}{}</div>").format(m.level, kind, f" · {keywords}" if keywords else ""),
        Markup('<div>EV <span class="wb-ev">{}</span> · Stamina {} · '
        "Free strike {}</div>").format(m.ev_text, m.stamina, m.free_strike),
        Markup("<div>{}</div>").format(chars),
    ]
    features = data.get("features") or data.get("abilities") if data else None
    if isinstance(features, list) and features:
        rows.append(Markup("<hr>") + join(_feature_html(f) for f in features if isinstance(f, Mapping)))
    elif m.signature is not None:
        sig = m.signature
        tiers = join(Markup("<div>{}: {}</div>").format(mark, t) for mark, t in zip(TIER_LABELS, sig.tier_text or (), strict=False))
        bonus = f" (power roll {sig.bonus:+d})" if sig.bonus is not None else ""
        rows.append(Markup("<hr><b>{}</b> <i>(signature ability{})</i>{}").format(sig.name, bonus, tiers))
    return Markup('<div class="wb-published-stat-block">{}</div>').format(join(rows))
