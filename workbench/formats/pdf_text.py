"""Text copied from a PDF stat block mended into the book's lines, before the book layout is read.

A PDF keeps no lines of its own: `pdftotext -layout` gives the page's columns side by side with runs of
spaces between ("Fen Lurker      Level 2 Platoon Ambusher"), a plain `pdftotext` or a viewer's copy gives
each box's words on lines of their own, a column after the other ("Melee, Strike, Weapon" then "Main
action"). The header's numbers are a grid whose labels are under their values, a row of values then its row
of labels, or each value over its label. What is mended:

- the name and the "Level N ..." line side by side are two lines; so are the keywords and "EV N";
- the header grid, in any of those shapes, becomes the book's "Stamina 30" lines (`stat_pairs`);
- an ability's keywords alone on a line and its action on the next are one line, as are its distance and
  its target;
- the glyphs a PDF gives for the book's icons (private-use characters, 📏 and 🎯) are dropped.

Nothing else is changed, and every pattern is linear in its input.
"""

from __future__ import annotations

import re

from workbench.formats.pasted_layout import is_label, stat_pairs
from workbench.model.ability import ABILITY_KEYWORDS, ACTIONS

__all__ = ["mended_pdf_text"]

_COLUMNS = re.compile(r"\t|  +")
_GLYPHS = re.compile("[\ue000-\uf8ff\U0001f4cf\U0001f3af]")
_LEVEL_WORDS = re.compile(r"Level[ \t]+\d{1,3}\b", re.IGNORECASE)
_EV_WORDS = re.compile(r"EV[ \t]+\S")
_EV_VALUE = re.compile(r"\d{1,6}(?: for (?:four|4) minions)?|-|—")
_LEVEL = re.compile(r"^Level[ \t]+\d{1,3}\b", re.IGNORECASE)
_TIER_ALONE = re.compile(r"^[^\w≤]{0,2}[ \t]*(?:≤[ \t]*11|12[ \t]*[-–—][ \t]*16|17[ \t]*\+)[ \t]*:?$")
_KEYWORDS = {k.lower() for k in ABILITY_KEYWORDS}
_ACTIONS = {a.lower() for a in ACTIONS.values()} | {"villain action", "-", "—"}
_DISTANCE_ONLY = re.compile(r"^(?:melee \d+(?: or ranged \d+)?|ranged \d+|\d+ burst|\d+ aura|self|special|"
                            r"\d+ cube within \d+|\d+ ?[x×] ?\d+ line within \d+|\d+ wall within \d+)$",
                            re.IGNORECASE)
_PARAGRAPH_START = re.compile(r"^(?:Power Roll|Effect|Trigger|Special|\d+\+? Malice|≤|12|17)", re.IGNORECASE)
_GRID_CELL = 24  # a grid's value is short ("1L", "+2", "Climb", "Fire 5"); a paragraph's line is not


def _cells(line: str) -> list[str]:
    return [c.strip() for c in _COLUMNS.split(line.strip()) if c.strip()]


def _grid_line(line: str) -> bool:
    """A line of the header grid: short cells only, none a "Label: value" or "Label value" phrase, and not
    the keywords line ("Beast, Swamp") nor the EV."""
    cells = _cells(line)
    if not cells or any(len(c) > _GRID_CELL or ":" in c for c in cells):
        return False
    if len(cells) == 1 and ("," in cells[0] or cells[0].startswith("EV ")):
        return False
    return any(is_label(c) for c in cells) or all(not any(is_label(w) for w in c.split()) for c in cells)


def _labelled(line: str) -> bool:
    return any(is_label(c) for c in _cells(line))


def _split_sides(lines: list[str]) -> list[str]:
    """The name and its level line, and the keywords and the EV, apart (a layout copy sets them side by
    side), in the first lines only; a page's "EV" over its value one line."""
    out: list[str] = []
    for index, line in enumerate(lines):
        if out and out[-1].strip() == "EV" and _EV_VALUE.fullmatch(line.strip()):
            out[-1] = f"EV {line.strip()}"  # a page's "EV" box: the label over its value
            continue
        sides = _sides(line.strip(), _LEVEL_WORDS) or _sides(line.strip(), _EV_WORDS) if index < 8 else None
        out.extend(sides or [line])
    return out


def _sides(line: str, words: re.Pattern[str]) -> list[str] | None:
    """The line's left side and its right one starting at `words`, when a column's gap (a tab or three
    blanks) is between them."""
    match = words.search(line)
    if match is None or match.start() == 0 or not line[:match.start()].endswith(("\t", "   ")):
        return None
    return [line[:match.start()].strip(), line[match.start():]]


def _unfold_grid(lines: list[str]) -> list[str]:
    """The header grid (after the level line, before the first ability) as the book's "Label value" lines."""
    level = next((i for i, line in enumerate(lines[:12]) if _LEVEL.match(line.strip())), None)
    if level is None:
        return lines
    out = lines[:level + 1]
    index = level + 1
    while index < len(lines):
        if not any(is_label(c) for c in _cells(lines[index])):
            out.append(lines[index])
            index += 1
            continue
        start = index
        while start > level + 1 and _grid_line(lines[start - 1]) and lines[start - 1].strip() and out:
            start -= 1
            out.pop()  # the values above the grid's first labels
        end = index
        while end < len(lines) and (_grid_line(lines[end]) or not lines[end].strip()) and end - start < 60:
            end += 1
        last = max(i for i in range(index, end) if _labelled(lines[i]))
        label_first = _labelled(lines[start])
        end = last + 2 if label_first and last + 1 < end and lines[last + 1].strip() else last + 1
        cells = "\n".join("\n".join(_cells(line)) for line in lines[start:end])
        pairs, rest = stat_pairs(cells)
        out.extend(f"{label} {value}" for label, value in pairs.items())
        out.extend(rest)
        index = end
    return out


def _keywords_alone(line: str) -> bool:
    words = [w.strip().lower() for w in line.split(",") if w.strip()]
    return bool(words) and all(w in _KEYWORDS for w in words)


def _join_heads(lines: list[str]) -> list[str]:
    """An ability's keywords line and its action line, and its distance line and its target line, joined,
    also when a column's copy put the distance between them ("Melee, Strike" / "Melee 2" / "Main action" /
    "Two creatures"); a tier's label alone on a line ("≤11") joined to its words on the next."""
    out: list[str] = []
    for line in lines:
        text = line.strip()
        last = out[-1].strip() if out else ""
        if text.lower() in _ACTIONS and _keywords_alone(last):
            out[-1] = f"{last}  {text}"
        elif (text.lower() in _ACTIONS and len(out) >= 2 and _DISTANCE_ONLY.match(last)
              and _keywords_alone(out[-2].strip())):
            out[-2] = f"{out[-2].strip()}  {text}"
        elif _DISTANCE_ONLY.match(last) and text and not _PARAGRAPH_START.match(text) and len(text) <= 60 \
                and text.lower() not in _ACTIONS:
            out[-1] = f"{last}  {text}"
        elif _TIER_ALONE.match(last) and text and not _TIER_ALONE.match(text):
            out[-1] = f"{last} {text}"
        else:
            out.append(line)
    return out


def mended_pdf_text(text: str) -> str:
    """The text with a PDF copy's layout mended into the book's lines (see the module docstring); a text
    already in those lines comes back as it was."""
    lines = [_GLYPHS.sub("", line).rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return "\n".join(_join_heads(_unfold_grid(_split_sides(lines))))
