"""Pasted stat block text brought to one layout before it is read: what a Markdown file, a web page or a PDF
gives when a Director copies a block.

The Steel Compendium publishes its blocks as Markdown (a YAML front matter, a table whose cells put the value
above its label, `**3**<br/> Size`, blockquoted abilities); a browser copying the same block rendered as a
page gives the text with the markup gone, a table's cells apart by tabs and a cell's lines on lines of their
own. `compendium_markup_off` turns the Markdown into that text, so one reader reads both.

The numbers of a block's header come as a grid of values and labels in every copy but the book's own lines:
the value above its label (the Steel Compendium, a PDF's column copy: "30\\nStamina"), the label above its
value (Forge Steel's page: "Stamina\\n30"), or the whole grid on one line ("1M Size 7 Speed 4 Stamina ...").
`stat_pairs` reads any of them into label → value.

Every pattern here is linear in its input: no nested or overlapping repetition, so a hostile run of blanks
is read in one pass.
"""

from __future__ import annotations

import html
import re

__all__ = [
    "STAT_LABELS",
    "compendium_markup_off",
    "is_compendium_markdown",
    "is_label",
    "stat_pairs",
    "without_front_matter",
]

# The labels of a block's header grid, in the Steel Compendium's order; the plural forms are Forge Steel's.
STAT_LABELS = (
    "Size", "Speed", "Stamina", "Stability", "Free Strike", "Immunity", "Immunities", "Movement",
    "With Captain", "Weakness", "Weaknesses", "Might", "Agility", "Reason", "Intuition", "Presence",
)
_CANONICAL = {"Immunities": "Immunity", "Weaknesses": "Weakness"}
# Forge Steel's characteristic boxes: a letter over the score.
_LETTERS = {"M": "Might", "A": "Agility", "R": "Reason", "I": "Intuition", "P": "Presence"}
_LABEL_SET = {label.lower() for label in STAT_LABELS}
_NONE = ("", "-", "—", "–")
_FRONT_MATTER_END = re.compile(r"^---[ \t]*$", re.MULTILINE)
_RULE_CHARACTERS = frozenset(" \t:|-")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_COMPENDIUM_CELL = re.compile(r"\*\*[^*\n]*\*\*<br\s*/?>", re.IGNORECASE)
_MAX_FRONT_MATTER = 5_000  # the longest front matter of a published block is under 1,000 characters


def without_front_matter(text: str) -> str:
    """The text after a YAML front matter ("---" lines around "key: value" lines), which a file copied
    whole brings along: it repeats the block's own numbers and holds the file's bookkeeping (its ids and
    path), so the block below it is what is read."""
    stripped = text.lstrip()
    if not stripped.startswith("---"):
        return text
    first = stripped.find("\n")
    if first < 0:
        return text
    end = _FRONT_MATTER_END.search(stripped, first + 1, first + 1 + _MAX_FRONT_MATTER)
    if end is None or ":" not in stripped[first:end.start()]:
        return text
    return stripped[end.end():]


def is_compendium_markdown(text: str) -> bool:
    """The Steel Compendium's Markdown: its header table's "**value**<br/> Label" cells, or a blockquoted
    ability table."""
    return bool(_COMPENDIUM_CELL.search(text)) or "\n> | **" in text


def _cells(row: str) -> list[str]:
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return [cell.strip() for cell in body.split("|")]


def _inline(text: str) -> str:
    """A cell's or paragraph's inline markup off: bold and italic stars, a break as a new line."""
    text = _BREAK.sub("\n", text).replace("**", "")
    text = re.sub(r"(?<![\w*])\*(?=\S)([^*\n]*)(?<=\S)\*(?![\w*])", r"\1", text)  # *italic*
    return html.unescape(text)


def compendium_markup_off(text: str) -> str:
    """The Steel Compendium's Markdown as a browser copies the page it renders: headings, blockquotes,
    bullets, bold and HTML comments off; a table row's cells apart by tabs, a cell's `<br/>` a new line. A
    heading keeps its "#" marks, so a later section ("Malice Features") is known as one; a blockquote's
    bold title with no icon of its own gets the trait's star, as each feature's title has one."""
    out: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if line.startswith(">"):
            line = line[1:].strip()
            if line.startswith("**") and line.endswith("**") and "**" not in line[2:-2] and not line.endswith(":**"):
                line = "\u2b50\ufe0f " + line
        if line.startswith("<!--") and line.endswith("-->"):
            continue
        if line.startswith("|"):
            if "-" in line and set(line) <= _RULE_CHARACTERS:  # the table's rule under its header row
                continue
            out.append("\t".join(_inline(cell) for cell in _cells(line)))
            continue
        if line.startswith("- ") or line.startswith("* "):
            line = line[2:].strip()
        out.append(_inline(line))
    return "\n".join(out)


def is_label(cell: str) -> bool:
    """One of the grid's labels, as a cell of its own."""
    return cell.lower() in _LABEL_SET


def _label(cell: str) -> str:
    for label in STAT_LABELS:
        if label.lower() == cell.lower():
            return _CANONICAL.get(label, label)
    return _LETTERS[cell]


def _cell_pairs(cells: list[str]) -> tuple[dict[str, str], list[str]]:
    """Label → value from a grid copied cell by cell. Labels come singly (each under or over its value) or
    a row at a time (a row of values, then its row of labels: paired in order); the value is above its
    label, or below it when the grid starts with a label. Cells that are neither (a blank grid cell's "-"
    aside) come back apart."""
    labelled = [is_label(cell) for cell in cells]
    letters = {i for i, cell in enumerate(cells) if cell in _LETTERS and i + 1 < len(cells) and not labelled[i]
               and re.fullmatch(r"[+\-−–]?\d+", cells[i + 1])}
    value_first = bool(cells) and not labelled[0] and 0 not in letters
    used: set[int] = {i for i, label in enumerate(labelled) if label} | letters
    pairs: dict[str, str] = {}
    index = 0
    while index < len(cells):
        if not labelled[index]:
            index += 1
            continue
        end = index
        while end < len(cells) and labelled[end]:
            end += 1
        count = end - index
        spots = range(index - count, index) if value_first else range(end, end + count)
        for label_at, value_at in zip(range(index, end), spots, strict=True):
            if 0 <= value_at < len(cells) and value_at not in used:
                pairs.setdefault(_label(cells[label_at]), cells[value_at])
                used.add(value_at)
        index = end
    for i in sorted(letters):  # Forge Steel's "M\n+2": always the letter above its score
        pairs.setdefault(_LETTERS[cells[i]], cells[i + 1])
        used.add(i + 1)
    rest = [cell for i, cell in enumerate(cells) if i not in used and cell not in _NONE]
    return pairs, rest


def _line_pairs(text: str) -> tuple[dict[str, str], list[str]]:
    """Label → value from a grid copied as one run of words ("1M Size 7 Speed ..."): each label is looked
    for after the one before it, in the grid's order, so a label's word inside a value ("+2 bonus to
    Stamina") is not taken for the label."""
    found: list[tuple[int, int, str]] = []
    at = 0
    for label in STAT_LABELS:
        match = re.compile(r"(?<!\w)" + re.escape(label) + r"(?!\w)").search(text, at)
        if match:
            found.append((match.start(), match.end(), _CANONICAL.get(label, label)))
            at = match.end()
    if not found:
        return {}, [text.strip()] if text.strip() else []
    value_first = bool(text[:found[0][0]].strip())
    pairs: dict[str, str] = {}
    rest: list[str] = []
    for index, (start, end, label) in enumerate(found):
        if value_first:
            before = found[index - 1][1] if index else 0
            value = text[before:start].strip()
        else:
            after = found[index + 1][0] if index + 1 < len(found) else len(text)
            value = text[end:after].strip()
        if value.startswith(("- ", "— ")) and len(value) > 2:
            value = value[2:].strip()  # a blank grid cell's "-" before the value
        pairs.setdefault(label, value)
    tail = text[found[-1][1]:].strip() if value_first else text[:found[0][0]].strip()
    if tail and tail not in _NONE:
        rest.append(tail)
    return pairs, rest


def stat_pairs(text: str) -> tuple[dict[str, str], list[str]]:
    """The header grid's label → value (labels as `STAT_LABELS` spells them, "Immunity" and "Weakness"
    singular) and the words left over, from a grid cell by cell (tabs or lines apart) or in one line."""
    cells = [cell.strip() for cell in re.split(r"[\t\n]", text) if cell.strip()]
    if sum(1 for cell in cells if is_label(cell)) >= 3:
        return _cell_pairs(cells)
    return _line_pairs(" ".join(cells))
