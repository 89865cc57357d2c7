"""A Steel Compendium stat block as text — its Markdown with the markup off, or what a browser copies of the
page it renders — read into the Steel Compendium's JSON shape, which `wb.read_stat_block`'s reader reads.

The shape: the name; a header row of the keywords, "Level N", the organization and role, "EV N" (tabs
apart, or lines, or one line); the grid of values and labels (`pasted_layout.stat_pairs`); then one block
per feature, each opened by its icon (🗡 ⭐️ 🏹 ❇️ 🔳 👤 ☠️ ❗️ ⚔️ 🌀) and the feature's name with its cost in
brackets. An ability's block has its keywords and action, then its distance after 📏 and its target after
🎯; a trait's has none. Then "Power Roll + N:" and its tiers ("≤11:", "12-16:", "17+:"), "Trigger:",
"Effect:", "3 Malice:" and plain paragraphs, a test's tiers under the paragraph that calls for it.

A later section is read by its heading: "... (Malice Features)" gives Malice features; any other (a
retainer's "Level 4 Retainer Advancement Ability") is not this block's own and is kept as text under its
heading, as is every line that has no place (`kept_as_text`).
"""

from __future__ import annotations

import re
from typing import Any

from workbench.formats.pasted_layout import STAT_LABELS, stat_pairs
from workbench.model import CHARACTERISTICS, KeptText
from workbench.model.ability import ACTIONS

__all__ = ["read_compendium_text"]

_ICON = re.compile("^([\u2747\u2b50\U0001f5e1\U0001f3f9\U0001f533\U0001f464\u2620\u2757\u2694\U0001f300"
                   "\u2755\u26a1\U0001f6e1\u2728])\ufe0f?[ \t]*(\\S.*)$")
_DISTANCE_MARK = "\U0001f4cf"  # 📏
_TARGET_MARK = "\U0001f3af"  # 🎯
_LEVEL = re.compile(r"(?<!\w)Level[ \t]+(\d{1,3})(?!\w)")
_EV = re.compile(r"(?<!\w)EV[ \t\n]+(-|—|\d{1,6}(?:[ \t]+for[ \t]+(?:four|4)[ \t]+minions)?)", re.IGNORECASE)
_COST = re.compile(r"^(.*\S)[ \t]*\(([^()]{1,60})\)$")
_ROLL = re.compile(r"^Power[ \t]+Roll[ \t]*([+\-−–])[ \t]*(\d{1,3})[ \t]*:?$", re.IGNORECASE)
_TIER = re.compile(r"^(≤[ \t]*11|12[ \t]*[-–—][ \t]*16|17[ \t]*\+)[ \t]*:?[ \t]*(.*)$")
_NAMED = re.compile(r"^([A-Z][\w'’ ]{0,30}|\d{1,2}\+?[ \t]+Malice):[ \t]+(\S.*)$")
_ACTION_WORDS = sorted({*ACTIONS.values(), "Villain action", "Free maneuver", "No action"}, key=len, reverse=True)
_ACTION = re.compile(r"(?:^|[ \t])(" + "|".join(re.escape(a) for a in _ACTION_WORDS) + r"|-|—)$", re.IGNORECASE)
_SECTION = re.compile(r"\(Malice Features\)$|Advancement Abilit(?:y|ies)$|^Malice Features$", re.IGNORECASE)


def _number(text: str) -> int | None:
    match = re.match(r"^[ \t]*([+\-−–]?)[ \t]*(\d{1,6})", text)
    if not match:
        return None
    value = int(match.group(2))
    return -value if match.group(1) and match.group(1) != "+" else value


def _header(lines: list[str], data: dict[str, Any], kept: list[KeptText]) -> bool:
    """The name, level, organization and role, EV, keywords and the grid; False when the lines hold no
    "Level N" (not this shape)."""
    words = [ln for ln in lines if ln.strip()]
    if not words:
        return False
    data["name"] = words[0].lstrip("#").strip()
    joined = "\t".join(words[1:])
    level = _LEVEL.search(joined)
    if level is None:
        return False
    data["level"] = int(level.group(1))
    before, after = joined[:level.start()], joined[level.end():]
    cells = [re.sub(r"[ \t]+[-—]$", "", k.strip()) for k in re.split(r"[,\t\n]", before)]
    keywords = [k for k in cells if k not in ("", "-", "—")]
    if keywords:
        data["ancestry"] = keywords
    ev = _EV.search(after)
    if ev is None:
        role_end = _first_label(after)
        data["roles"] = [after[:role_end].strip(" \t\n·|")]
        grid = after[role_end:]
    else:
        data["roles"] = [after[:ev.start()].strip(" \t\n·|")]
        value = re.sub(r"[ \t\n]+", " ", ev.group(1))
        data["ev"] = value if not value[0].isdigit() or "minion" not in value else value.replace(" 4 ", " four ")
        grid = after[ev.end():]
    pairs, rest = stat_pairs(grid)
    _grid(pairs, data, kept)
    kept.extend(KeptText(where="the stat block's header", part="line", text=r) for r in rest)
    return True


def _first_label(text: str) -> int:
    spots = [m.start() for label in STAT_LABELS for m in [re.search(r"(?<!\w)" + label + r"(?!\w)", text)] if m]
    return min(spots, default=len(text))


def _grid(pairs: dict[str, str], data: dict[str, Any], kept: list[KeptText]) -> None:
    """The grid's values into the JSON shape; a value that is no number where one is due is kept."""
    numbers = {"Speed": "speed", "Stability": "stability", "Free Strike": "free_strike",
               **{name.title(): name for name in CHARACTERISTICS}}
    for label, value in pairs.items():
        value = value.strip()
        if label in numbers:
            number = _number(value)
            if number is None:
                kept.append(KeptText(where="the stat block's header", part=label, text=value))
            else:
                data[numbers[label]] = number
        elif label == "Stamina":
            number = _number(value)
            data["stamina"] = str(number) if number is not None else value
        elif label == "Size":
            data["size"] = value
        elif value not in ("", "-", "—", "–"):
            key = {"Immunity": "immunities", "Weakness": "weaknesses", "Movement": "movement",
                   "With Captain": "with_captain"}[label]
            listed = key in ("immunities", "weaknesses")
            data[key] = [v.strip() for v in value.split(",") if v.strip()] if listed else value


def _feature(title: str, body: list[str], kept: list[KeptText]) -> dict[str, Any]:
    """One feature's block as the JSON shape's feature."""
    cost = None
    name = title.strip()
    match = _COST.match(name)
    if match:
        name, cost = match.group(1).strip(), match.group(2).strip()
    where = f"feature {name!r}"
    feature: dict[str, Any] = {"type": "feature", "name": name}
    lines = [ln.strip() for ln in body if ln.strip()]
    head = _ability_head(lines)
    if head is not None:
        fields, used = head
        feature.update(feature_type="ability", **fields)
        lines = lines[used:]
        if cost:
            key = "cost" if re.search(r"malice", cost, re.IGNORECASE) else "ability_type"
            feature[key] = cost
    else:
        feature["feature_type"] = "trait"
        if cost:
            feature["cost"] = cost
    effects: list[dict[str, Any]] = []
    for line in lines:
        _effect_line(line, feature, effects, where, kept)
    feature["effects"] = effects or [{"effect": ""}]
    return feature


def _ability_head(lines: list[str]) -> tuple[dict[str, Any], int] | None:
    """Keywords, action, distance and target from an ability's table (its first two lines), or None: a
    trait's block has none. The distance line (📏) is what tells."""
    if len(lines) < 2 or _DISTANCE_MARK not in lines[1]:
        return None
    first = lines[0]
    cells = [c.strip() for c in first.split("\t") if c.strip()]
    if len(cells) >= 2:
        keywords, usage = ", ".join(cells[:-1]), cells[-1]
    else:
        action = _ACTION.search(first)
        if action is None:
            return None
        keywords, usage = first[:action.start(1)].strip(), action.group(1)
    fields: dict[str, Any] = {
        "keywords": [k.strip() for k in keywords.split(",") if k.strip() not in ("", "-", "—")] or ["-"],
        "usage": usage,
    }
    second = lines[1].replace(_DISTANCE_MARK, "\t", 1)
    distance, _, target = second.partition(_TARGET_MARK)
    fields["distance"] = distance.strip(" \t")
    if target.strip():
        fields["target"] = target.strip(" \t")
    return fields, 2


def _effect_line(line: str, feature: dict[str, Any], effects: list[dict[str, Any]], where: str,
                 kept: list[KeptText]) -> None:
    tier = _TIER.match(line)
    if tier:
        number = 1 if "11" in tier.group(1) else 2 if "16" in tier.group(1) else 3
        target = effects[-1] if effects else None
        if target is None or f"tier{number}" in target:
            kept.append(KeptText(where=where, part="tier", text=line))
        else:
            target[f"tier{number}"] = tier.group(2).strip()
        return
    roll = _ROLL.match(line)
    if roll:
        sign = "-" if roll.group(1) != "+" else "+"
        effects.append({"roll": f"Power Roll {sign} {roll.group(2)}"})
        return
    named = _NAMED.match(line)
    if named and named.group(1) == "Trigger" and feature["feature_type"] == "ability" and "trigger" not in feature:
        feature["trigger"] = named.group(2).strip()
    elif named and re.match(r"^\d", named.group(1)):
        effects.append({"cost": named.group(1), "effect": named.group(2).strip()})
    elif named:
        effects.append({"name": named.group(1).strip(), "effect": named.group(2).strip()})
    else:
        effects.append({"effect": line})


def _blocks(lines: list[str]) -> tuple[list[str], list[tuple[str, str, list[str]]]]:
    """The header's lines and each block: (section, title, body). A heading line ("#" marks kept from the
    Markdown, or a later section's own words) opens a section; its words are the section."""
    header: list[str] = []
    blocks: list[tuple[str, str, list[str]]] = []
    section = ""
    for line in lines:
        text = line.strip()
        icon = _ICON.match(text)
        heading = text.startswith("#") and (bool(blocks) or any(h.strip() for h in header))
        if heading or (not icon and _SECTION.search(text) and len(text) <= 80):
            section = text.lstrip("#").strip()
            blocks.append((section, "", []))
        elif icon:
            blocks.append((section, icon.group(2).strip(), []))
        elif blocks:
            blocks[-1][2].append(line)
        else:
            header.append(line)
    return header, blocks


def read_compendium_text(text: str) -> tuple[dict[str, Any], list[KeptText]] | None:
    """The block in the Steel Compendium's JSON shape and the lines kept as text, or None when the text is
    not in this shape (no feature opened by its icon, or no "Level N" before the first)."""
    header, blocks = _blocks(text.split("\n"))
    if not any(title for _, title, _ in blocks):
        return None
    data: dict[str, Any] = {"type": "statblock"}
    kept: list[KeptText] = []
    if not _header(header, data, kept):
        return None
    features: list[dict[str, Any]] = []
    for section, title, body in blocks:
        if not title:  # a section's heading: the lines under it before its first feature
            kept.extend(KeptText(where=section, part="line", text=b.strip()) for b in body if b.strip())
            continue
        malice = section.lower().endswith("malice features)") or section.lower() == "malice features"
        if section and not malice:
            kept.append(KeptText(where=section, part="feature", text="\n".join(
                [title, *(b.strip() for b in body if b.strip())])))
            continue
        features.append(_feature(title, body, kept))
    data["features"] = features
    return data, kept
