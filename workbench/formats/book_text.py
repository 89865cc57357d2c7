"""A stat block pasted as text — from the book, a PDF, a web page, the Steel Compendium's Markdown or the
workbench's own Markdown — read whole.

`parse_stat_block_text(text)` gives the same `Monster` as the stat block's JSON: the text is read into the
Steel Compendium's shape and that is read by `wb.read_stat_block`'s reader, so both paths agree part for part.
A front matter is set aside; the Steel Compendium's Markdown, and a page's copy of it (features opened by
their icons), are read by `compendium_text`; any other text is mended from a PDF's or a page's layout
(`pdf_text`) and read here in the book's lines. A formula monster's signature in the workbench's Markdown
(no printed ability) is kept as text, and its "—" characteristics read back unset.

What is read, in the book's order: the name line; "Level N Organization Role" (with "EV N" on the same line
or its own, a minion's "EV 3 for four minions"); the keywords line ("Goblin, Humanoid"); Stamina, Speed
("6 (climb)"), Size, Stability and Free Strike (on one line or several, or a Markdown table); the five
characteristics ("Might +2 Agility −1 ..."); Immunity and Weakness ("Fire 5, Cold 3"); With Captain; then
abilities — a name line with its cost in brackets ("Spear Charge (Signature Ability)", "(3 Malice)",
"(Villain Action 1)"), the keywords and action line, the distance and target line (joined by "·" in
Markdown, by spaces or "Keywords"/"Type"/"Distance"/"Target" labels in the book), "Power Roll + N:" and its
three tiers ("≤11", "12–16", "17+", with or without the book's tier glyphs), "Trigger:", and paragraphs
("Effect:", "2 Malice:", a test's own three tiers) — and traits (a name line, then its text).

A PDF's copy is mended first: a word broken by a hyphen at a line's end is joined, a paragraph broken over
lines is one paragraph, the minus sign and the en dash are read as "-". A line the reader cannot place is
kept as text, in `kept_as_text` (the import names each one); only a text with no name, level and
organization line is refused (`InvalidInput` naming the part that is missing).
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from workbench.errors import InvalidInput
from workbench.formats.bestiary import StatBlockError
from workbench.formats.compendium_text import read_compendium_text
from workbench.formats.pasted_layout import compendium_markup_off, is_compendium_markdown, without_front_matter
from workbench.formats.pdf_text import mended_pdf_text
from workbench.formats.stat_block import parse_trait, parse_whole_stat_block
from workbench.io.reading import MAX_NUMBER_CHARS, long_number
from workbench.model import CHARACTERISTICS, KeptText, Monster, Tier, Trait
from workbench.model.ability import ABILITY_KEYWORDS, ACTIONS
from workbench.rules.feature_book import feature_book

__all__ = ["FEATURE_ACCEPTS", "MAX_LINES", "MAX_TEXT_CHARS", "parse_feature_text", "parse_stat_block_text"]

MAX_TEXT_CHARS = 100_000  # the longest published stat block is a few thousand characters
MAX_LINES = 2_000  # and under 200 lines, blank ones run together
FEATURE_ACCEPTS = ("a feature's words, one paragraph a line: 'Effect: ...', '5 Malice: ...', a test's tiers "
                   "('≤11: ...', '12-16: ...', '17+: ...') under the paragraph that calls for it")
ACCEPTS = "a stat block's text: its name, then 'Level N Organization Role', EV, Stamina, ... as the book prints it"

_KEYWORDS = {k.lower() for k in ABILITY_KEYWORDS}
_ACTION_WORDS = sorted((text for text in ACTIONS.values()), key=len, reverse=True)
_ACTION = re.compile(r"(?:^|\s)(" + "|".join(re.escape(a) for a in _ACTION_WORDS) + r"|-)\s*$", re.IGNORECASE)
_MINUS = "-\u2212"  # the hyphen and the minus sign the book prints
_LEVEL = re.compile(r"^Level\s+(\d+)\s+(.*?)\s*(?:[·|,]?\s*EV\s+(.+))?$", re.IGNORECASE)
_EV = re.compile(r"^EV\s+(\d+)(.*)$", re.IGNORECASE)
_COST = re.compile(r"^(.+?)\s*\((Signature Ability|Villain Action \d|\d+\+?\s*Malice(?: per [a-z ]+)?)\)\s*$",
                   re.IGNORECASE)
_ROLL = re.compile(r"^Power\s+Roll\s*([+\-\u2212])\s*(\d+)\s*:?\s*$", re.IGNORECASE)
_TIER = re.compile(r"^[^\w≤]{0,2}\s*(≤\s*11|11\s+or\s+(?:lower|less)|12\s*[-\u2013\u2014]\s*16|17\s*\+|"
                   r"17\s+or\s+(?:higher|more))"
                   r"\s*:?\s*(.*)$", re.IGNORECASE)
_PARAGRAPH = re.compile(r"^(Effect|Special|Trigger|\d+\+?\s+Malice|[A-Z][\w' ]{0,30}?):\s+(.*)$")
_NUMBERS = {"stamina": r"Stamina\s+(\d+)", "free_strike": r"Free\s+Strike\s+(\d+)",
            "stability": r"Stability\s+(\d+)", "size": r"Size\s+(\d+[TSML]?\b(?:\s+or\s+\d+)?)",
            "speed": r"Speed\s+(\d+)(?:\s*\(([^)]*)\))?"}
_UNSET = re.compile(r"\b(Might|Agility|Reason|Intuition|Presence|Size|Speed|Stability) ?:? ?—(?! ?\d)",
                    re.IGNORECASE)
UNSET_KEY = "unset parts"
KEPT_BEFORE_KEY = "kept before"
# a header part printed "—": the model's own "not given" for each of its fields
_UNSET_PARTS: dict[str, dict[str, Any]] = {
    "size": {"size": "", "size_class": None},
    "speed": {"speed": "", "movement": None},
    "stability": {"stability": "", "stability_value": None},
}
_FORMULA_SECTION = "the formulas' signature ability"
_FORMULA_SIGNATURE = re.compile(r"^\(Signature Ability · [^)]{0,80}\) — Power Roll")
_CHARACTERISTIC = re.compile(r"\b(Might|Agility|Reason|Intuition|Presence)\s*:?\s*([+\-\u2212]?\s*\d+)",
                             re.IGNORECASE)
_DISTANCE = re.compile(
    r"^(melee\s+\d+\s+or\s+ranged\s+\d+|melee\s+\d+|ranged\s+\d+|\d+\s+burst|\d+\s+aura|\d+\s+cube\s+within\s+\d+|"
    r"\d+\s*[x×]\s*\d+\s+line\s+within\s+\d+|\d+\s+wall\s+within\s+\d+|self(?=\s|$)|special(?=\s|$))\s*(.*)$",
    re.IGNORECASE)
# A trait's name on a line of its own: a few capitalised words ("Slick Hide", "Master of the Marsh")
_TITLE = re.compile(r"[A-Z][\w'’-]*(?: (?:[A-Z][\w'’-]*|of|the|and|a|an|in|on|to|with)){0,5}")
# Lines of the workbench's own Markdown that are its commentary, not the stat block
_COMMENTARY = re.compile(r"^(Tier 1 / 2 / 3:|Numbers from the|Each villain action can be used|The formulas give)")
_SKIPPED_SECTIONS = ("solo traits", "villain actions")
# a line of the workbench's own "Kept as text" section: "- where, part: “words”"
_KEPT_LINE = re.compile(r"^(.+), ([a-z][a-z ]{0,30}): “(.*)”$")


@dataclass
class _Line:
    text: str
    bold: str = ""  # the line's leading bold words in Markdown ("**Crafty** The assassin ...")
    heading: bool = False


@dataclass
class _Feature:
    name: str
    kind: str  # "ability" or "trait"
    cost: str | None = None
    head: list[str] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    trigger: str = ""


# ---------------------------------------------------------------- lines


_ESCAPED = 0xE000  # Markdown's escaped characters ("\\*") held in the private use area while markup is read


def _protect(text: str) -> str:
    return re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>~])", lambda m: chr(_ESCAPED + ord(m.group(1))), text)


def _restore(text: str) -> str:
    return re.sub("[\ue000-\ue0ff]", lambda m: chr(ord(m.group(0)) - _ESCAPED), text)


def _plain(text: str) -> str:
    text = html.unescape(unicodedata.normalize("NFC", text))
    text = text.replace("\u00ad", "")  # a soft hyphen a PDF leaves in a word
    text = re.sub(r"\s+", " ", text)  # first: a run of blanks is one blank before any pattern looks at it
    text = re.sub(r" ?\*\(tier \d\b.{0,400}?\)\*", "", text)  # the workbench's departure notes
    return _restore(text.strip())


def _table(rows: list[str]) -> list[str]:
    """A Markdown table as "Header value" lines (the header row, the rule, the values)."""
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    if len(cells) >= 3 and all(set(c) <= set("-: ") for c in cells[1]):
        return [" ".join(f"{h} {v}" for h, v in zip(cells[0], values, strict=False)) for values in cells[2:]]
    return [" ".join(row) for row in cells]


def _is_basic_malice_item(line: str) -> bool:
    """An indented list item naming one of the basic Malice features every monster has, as the workbench's
    Markdown lists them under its own: the book's text, not the block's (any other indented line is read)."""
    item = re.match(r"^\s{2,}[-*] \*\*(.+?)\*\*", line)
    return item is not None and item.group(1) in {f.name for f in feature_book().basic_malice.features}


def _lines(text: str) -> list[_Line]:
    """The text as logical lines: tables flattened, the basic Malice features and commentary dropped, a word broken
    by a hyphen at a line's end joined, markup taken off (its leading bold words kept apart)."""
    raw = _protect(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    pieces: list[list[str]] = []  # a line and the pieces a hyphen at its end joins to it, joined once at the end
    for line in raw:
        last = pieces[-1][-1] if pieces else ""
        word = line.lstrip()
        if len(last) > 1 and last[-1] == "-" and last[-2].islower() and word[:1].islower():
            pieces[-1][-1] = last[:-1]
            pieces[-1].append(word.rstrip())  # "op-" + "portunity"
        else:
            pieces.append([line])
    joined = ["".join(parts) for parts in pieces]
    out: list[_Line] = []
    table: list[str] = []
    for line in [*joined, ""]:
        if line.strip().startswith("|"):
            table.append(line)
            continue
        if table:
            out += [_Line(_plain(row.replace("*", ""))) for row in _table(table)]
            table = []
        if _is_basic_malice_item(line):
            continue
        heading = bool(re.match(r"^\s*#{1,6}\s", line))
        body = re.sub(r"^\s*(?:#{1,6}\s+|[-•]\s+|\*\s+(?=\*\*)|\d+\.\s+)", "", line)
        bold = ""
        match = re.match(r"^\s*\*\*(.+?)\*\*\s*(.*)$", body)
        if match and not match.group(1).rstrip().endswith(":"):
            bold, body = _plain(match.group(1).replace("*", "")), match.group(2)
        plain = _plain(body.replace("**", "").replace("*", "") if "**" in body or body.startswith("*") else body)
        if bold or plain:
            out.append(_Line(plain, bold, heading))
        else:
            out.append(_Line(""))
    return out


# ---------------------------------------------------------------- the header


def _header(lines: list[_Line], data: dict[str, Any]) -> int:
    """Reads the name, level, organization, EV and keywords; returns the index of the next line."""
    words = [ln for ln in lines if ln.text or ln.bold]
    if not words:
        raise InvalidInput("text", "", ACCEPTS, "it is empty")
    at = lines.index(words[0])
    first = words[0]
    data["name"] = first.bold or first.text
    level_at = None
    for index in range(at + 1, min(len(lines), at + 6)):
        line = lines[index]
        whole = " ".join(p for p in (line.bold, line.text) if p)
        if _LEVEL.match(whole):
            level_at = index
            break
    if level_at is None:
        raise InvalidInput("text", data["name"][:60], ACCEPTS, "no 'Level N Organization Role' line after the name")
    between = [ln.text for ln in lines[at + 1:level_at] if ln.text]
    if between:  # keywords printed over the level line, one a line (a web page's tags)
        data["ancestry"] = [k.strip() for t in between for k in t.split(",") if k.strip()]
    line = lines[level_at]
    match = _LEVEL.match(" ".join(p for p in (line.bold, line.text) if p))
    assert match
    data["level"] = int(match.group(1))
    data["roles"] = [match.group(2).strip(" ·,|")]
    if match.group(3):
        data["ev"] = _ev_text(match.group(3))
    return level_at + 1


def _ev_text(rest: str) -> str:
    match = re.match(r"^\s*(\d+)\s*(.*)$", rest)
    if not match:
        return rest.strip()
    minions = re.search(r"four minions|4 minions", match.group(2), re.IGNORECASE)
    return f"{match.group(1)} for four minions" if minions else match.group(1)


def _stats(text: str, data: dict[str, Any]) -> bool:
    """Stamina, Speed, Size, Stability, Free Strike, the characteristics, EV, immunities and weaknesses found
    in one line; True when the line held any."""
    found = False
    for key, pattern in _NUMBERS.items():
        match = re.search(pattern, text, re.IGNORECASE)
        if match and key not in data:
            found = True
            data[key] = match.group(1)
            if key == "speed":
                data["speed"] = int(match.group(1))
                if match.group(2):
                    data["movement"] = match.group(2)
    for name, value in _CHARACTERISTIC.findall(text):
        data[name.lower()] = int(value.replace(" ", "").replace("\u2212", "-"))
        found = True
    for name in _UNSET.findall(text):  # the workbench's "—": a part the block leaves unset
        data.setdefault(UNSET_KEY, set()).add(name.lower())
        found = True
    ev = re.search(r"\bEV\s+(\d+[^·|]*)", text)
    if ev and "ev" not in data:
        data["ev"] = _ev_text(ev.group(1))
        found = True
    movement = re.search(r"\bMovement\s*:?\s*([A-Za-z][\w, ]*?)(?=\s*(?:/|·|\bImmunit|\bWeakness|\bWith Captain|$))",
                         text)
    if movement and "movement" not in data:
        found = True
        if movement.group(1).strip() not in ("", "-", "—"):
            data["movement"] = movement.group(1).strip()
    for key, label in (("immunities", r"Immunit(?:y|ies)"), ("weaknesses", r"Weakness(?:es)?")):
        match = re.search(label + r"\s*:?\s*(.+?)(?=\s*(?:/|·|\bImmunit|\bWeakness|\bMovement|$))", text)
        if match:
            found = True
            value = match.group(1).strip()
            if value not in ("-", "—", ""):
                data[key] = [v.strip() for v in value.split(",") if v.strip()]
    return found


# ---------------------------------------------------------------- abilities and traits


def _ability_head(feature: _Feature, text: str) -> None:
    """The keywords/action and distance/target lines: "K · A · D · T" or the book's two lines."""
    labelled = re.sub(r"\b(Keywords|Type|Distance|Target)\s*:?\s+", "·", text)
    parts = [p.strip() for p in labelled.split("·") if p.strip()] if "·" in labelled else [text]
    feature.head.extend(parts)


def _read_head(feature: _Feature) -> dict[str, Any]:
    """Keywords, action, distance and target from the head parts, however the text split them."""
    fields: dict[str, Any] = {}
    parts = list(feature.head)
    if len(parts) in (3, 4) and _ACTION.search(" " + parts[1]) and _keywords_only(parts[0]):
        # "Keywords · Action · Distance · Target" (the distance left out when the ability has none)
        fields.update(keywords=[k.strip() for k in parts[0].split(",") if k.strip()] or ["-"], usage=parts[1])
        if len(parts) == 4:
            fields.update(distance=parts[2], target=parts[3])
        else:  # "Self" alone reads as the distance (the book prints a self ability's distance as Self)
            only = _DISTANCE.match(parts[2])
            fields["distance" if only and not only.group(2) else "target"] = parts[2]
        feature.head = []
        return fields
    rest: list[str] = []
    for part in parts:
        action = _ACTION.search(part)
        distance = _DISTANCE.match(part)
        if "usage" not in fields and action:
            keywords = part[: action.start(1)].strip()
            fields["keywords"] = [k.strip() for k in keywords.split(",") if k.strip()] or ["-"]
            fields["usage"] = action.group(1)
        elif "distance" not in fields and distance:
            fields["distance"] = distance.group(1)
            if distance.group(2):
                fields["target"] = distance.group(2)
        else:
            rest.append(part)
    if rest and "target" not in fields and "distance" in fields:
        fields["target"] = " ".join(rest)
        rest = []
    feature.head = rest
    return fields


def _is_head(text: str) -> bool:
    """An ability's keywords-and-action line: "Melee, Strike · Main action · ..." or the book's "Melee, Strike
    Main action" (known keywords, or none, before the action)."""
    if text.startswith("Keywords"):
        return True
    parts = [p.strip() for p in text.split("·")]
    if len(parts) >= 2:
        return bool(_ACTION.search(" " + parts[1])) and _keywords_only(parts[0])
    action = _ACTION.search(text)
    return action is not None and _keywords_only(text[: action.start(1)])


def _keywords_only(text: str) -> bool:
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    return all(w in _KEYWORDS or w in ("-", "—") for w in words)


def _paragraph(text: str) -> dict[str, Any]:
    match = _PARAGRAPH.match(text)
    if not match:
        return {"effect": text}
    label, body = match.group(1), match.group(2)
    if re.match(r"^\d+\+?\s+Malice$", label):
        return {"cost": label, "effect": body}
    return {"name": label, "effect": body}


class _Reader:
    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines
        self.features: list[_Feature] = []
        self.kept: list[KeptText] = []
        self.kept_before: list[KeptText] = []  # the notes of the block's own "Kept as text" section
        self.section = ""
        self.blank_before = False
        self.after_blank = False

    def _start(self, line: _Line, following: list[_Line]) -> _Feature | None:
        """A new ability or trait begins at this line, or None."""
        whole = " ".join(p for p in (line.bold, line.text) if p) if line.bold else line.text
        cost = _COST.match(whole if not line.bold else line.bold + (" " + line.text if line.text.startswith("(")
                                                                     else ""))
        if cost:
            name, kind = cost.group(1).strip(), cost.group(2)
            feature = _Feature(name=name, kind="ability", cost=kind)
            if line.bold and line.text and not line.text.startswith("("):
                feature.kind = "trait"
                feature.effects.extend(self._named_runs(line.text))
            return feature
        nxt = next((ln for ln in following if ln.text or ln.bold), None)
        name = line.bold or line.text
        if nxt is not None and not nxt.bold and _is_head(nxt.text) and len(name) <= 60 and not _TIER.match(name) \
                and (bool(line.bold) or not name.endswith((".", ":"))):
            return _Feature(name=name, kind="ability")
        if line.bold and self.section in ("traits", "") and not line.heading:
            feature = _Feature(name=line.bold, kind="trait")
            if line.text:
                feature.effects.extend(self._named_runs(line.text))
            return feature
        if not line.bold and nxt is not None and _TITLE.fullmatch(line.text) and self._paragraph_closed() \
                and not _is_head(line.text) and not _DISTANCE.match(line.text):
            return _Feature(name=line.text, kind="trait")  # the book's trait: its name on a line of its own
        return None

    def _paragraph_closed(self) -> bool:
        """The last paragraph read ends a sentence (a short capitalised line after it starts a trait, where
        after an unfinished one it would be the paragraph's next line)."""
        if not self.features or not self.features[-1].effects:
            return True
        last = self.features[-1].effects[-1]
        text = last.get("tier3") or last.get("effect") or ""
        return not text or text.rstrip().endswith((".", "!", "?", ")"))

    @staticmethod
    def _named_runs(text: str) -> list[dict[str, Any]]:
        """A Markdown trait's text, split at its named paragraphs ("End Effect: ... Solo Turns: ...")."""
        parts = re.split(r"(?:^|\s)([A-Z][\w' ]{0,30}):\s", " " + text)
        if len(parts) == 1 or parts[0].strip():
            return [{"effect": text}]
        return [{"name": parts[i], "effect": parts[i + 1].strip()} for i in range(1, len(parts) - 1, 2)]

    def _header_line(self, line: _Line, whole: str, first: bool, data: dict[str, Any]) -> bool:
        """A line of the block's header (before the first ability or trait) read into `data`; False if not."""
        if whole.lower().startswith("with captain"):
            data["with_captain"] = re.sub(r"^with captain\s*:?\s*", "", whole, flags=re.IGNORECASE)
            return True
        if _stats(whole, data):
            return True
        if "ancestry" not in data and not line.bold and ("," in line.text or (
                first and re.fullmatch(r"[A-Z][\w ]+", line.text))):
            data["ancestry"] = [k.strip() for k in line.text.split(",") if k.strip()]
            return True
        return False

    def read(self, start: int, data: dict[str, Any]) -> None:
        feature: _Feature | None = None
        for index in range(start, len(self.lines)):
            line = self.lines[index]
            text = line.text
            if not text and not line.bold:
                self.blank_before = True
                continue
            self.after_blank, self.blank_before = self.blank_before, False
            if line.heading:
                self.section = (line.bold or text).strip().lower()
                feature = None
                continue
            if self.section in _SKIPPED_SECTIONS or _COMMENTARY.match(text) or text.startswith("Basic Malice"):
                continue
            if self.section == "kept as text":  # what the block kept when it was read: kept again, as it was
                kept = _KEPT_LINE.match(text) if not line.bold else None
                self.kept_before.append(
                    KeptText(where=kept.group(1), part=kept.group(2), text=kept.group(3)) if kept
                    else KeptText(where="the text", part="line", text=f"{line.bold} {text}".strip()))
                continue
            if line.bold.startswith("Free Strike") and text.startswith(":"):
                _stats(line.bold, data)  # the workbench's free strike rules line: only its number
                continue
            if self.section == "malice features":
                feature = self._malice_feature(line, feature)
                continue
            whole = f"{line.bold} {text}".strip() if line.bold else text
            if line.bold and _FORMULA_SIGNATURE.match(text):  # the formulas' own signature: no printed ability
                self.section, feature = _FORMULA_SECTION, None
                self.kept.append(KeptText(where=self.section, part="line", text=whole))
                continue
            if self.section == _FORMULA_SECTION:
                started = self._start(line, self.lines[index + 1:])
                if started is None:
                    self.kept.append(KeptText(where=self.section, part="line", text=whole))
                    continue
                self.section = ""
            elif not self.features and self._header_line(line, whole, index <= start + 2, data):
                continue
            else:
                started = self._start(line, self.lines[index + 1:])
            if started is not None:
                feature = started
                self.features.append(feature)
            elif feature is None:
                self.kept.append(KeptText(where="the text", part="line", text=whole))
            else:
                self._feature_line(feature, whole, line)
        for feature in self.features:
            self._finish(feature)

    def _feature_line(self, feature: _Feature, whole: str, line: _Line) -> str:
        tier = _TIER.match(whole)
        if tier:
            target = feature.effects[-1] if feature.effects else None
            if target is None:
                self.kept.append(KeptText(where=f"{feature.kind} {feature.name!r}", part="tier", text=whole))
                return "kept"
            number = 1 if "11" in tier.group(1) else 2 if "16" in tier.group(1) else 3
            target[f"tier{number}"] = tier.group(2).strip()
            return "tier"
        match = _ROLL.match(whole)
        if match:
            sign = "+" if match.group(1) == "+" else "-"
            feature.effects.append({"roll": f"Power Roll {sign} {match.group(2)}"})
            return "roll"
        if feature.kind == "ability" and whole.lower().startswith("trigger:"):  # a trait's is a paragraph
            feature.trigger = whole.split(":", 1)[1].strip()
            return "trigger"
        if feature.kind == "ability" and not feature.effects and not feature.trigger and len(feature.head) < 4 and (
                "·" in whole or _ACTION.search(whole) or _DISTANCE.match(whole) or whole.startswith(
                    ("Keywords", "Distance", "Target"))):
            _ability_head(feature, whole)
            return "head"
        paragraph = _paragraph(f"{line.bold} {line.text}".strip() if line.bold else whole)
        last = feature.effects[-1] if feature.effects else None
        continues = (last is not None and not self.after_blank and "roll" not in last and not any(k.startswith("tier") for k in last)
                     and not _PARAGRAPH.match(whole) and not line.bold and last.get("effect", "")
                     and not last["effect"].rstrip().endswith((".", "!", "?", ":")))
        if continues and last is not None:
            last["effect"] = f"{last['effect']} {whole}"  # a paragraph a PDF broke over lines
        else:
            feature.effects.append(paragraph)
        return "paragraph"

    def _malice_feature(self, line: _Line, feature: _Feature | None) -> _Feature | None:
        """A Malice feature's first line starts it (returned); a line after it (a paragraph, a tier of the test
        it calls for) is its own; anything else is kept as text."""
        match = re.match(r"^\((\d+)\+?\s*Malice\)\s*(.*)$", line.text)
        if line.bold and match:
            feature = _Feature(name=line.bold, kind="trait", cost=f"{match.group(1)} Malice",
                               effects=[{"effect": match.group(2)}])
        elif line.bold and (words := re.match(r"^Cost: (\S.{0,40}? Malice)(?: (\S.*))?$", line.text)):
            # a cost the model has no number for ("3-7 Malice"), printed as its paragraph, the rest on its line
            # or the next
            rest = [{"effect": words.group(2)}] if words.group(2) else []
            feature = _Feature(name=line.bold, kind="trait", cost=words.group(1), effects=rest)
        elif feature is not None and (line.text or line.bold):
            self._feature_line(feature, f"{line.bold} {line.text}".strip() if line.bold else line.text, line)
            return feature
        else:
            if line.text or line.bold:
                self.kept.append(KeptText(where="Malice features", part="line", text=f"{line.bold} {line.text}".strip()))
            return None
        self.features.append(feature)
        return feature

    def _finish(self, feature: _Feature) -> None:
        if feature.kind == "ability" and feature.head:
            fields = _read_head(feature)
            for part in feature.head:
                self.kept.append(KeptText(where=f"ability {feature.name!r}", part="line", text=part))
            feature.head = []
            feature.__dict__["fields"] = fields


def _feature_json(feature: _Feature) -> dict[str, Any]:
    effects = feature.effects or [{"effect": ""}]
    if feature.kind == "trait":
        data: dict[str, Any] = {"type": "feature", "feature_type": "trait", "name": feature.name, "effects": effects}
        if feature.cost:
            data["cost"] = feature.cost
        return data
    data = {"type": "feature", "feature_type": "ability", "name": feature.name, "effects": effects}
    data.update(feature.__dict__.get("fields", {}))
    if feature.cost:
        key = "ability_type" if not re.search(r"malice", feature.cost, re.IGNORECASE) else "cost"
        data[key] = feature.cost
    if feature.trigger:
        data["trigger"] = feature.trigger
    return data


def _check_text(text: object, accepts: str) -> str:
    """The pasted text, if it is text a reader can take: not longer than `MAX_TEXT_CHARS`, and no run of more
    digits than any number a stat block holds (`MAX_NUMBER_CHARS`; read as a number, one of thousands of digits is
    more than Python converts: a ValueError, no reason a Director reads). Else `InvalidInput` naming the text."""
    if not isinstance(text, str):
        raise InvalidInput("text", text, accepts)
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidInput("text", f"{len(text):,} characters", accepts,
                           f"longer than {MAX_TEXT_CHARS:,} characters: no stat block is")
    run = long_number(text)
    if run:
        raise InvalidInput("text", f"a number of {len(run):,} digits", accepts,
                           f"a number longer than {MAX_NUMBER_CHARS} digits: no stat block holds one")
    return text


def parse_stat_block_text(text: str, source: str = "pasted text") -> Monster:
    """The stat block a pasted text holds, whole (see the module docstring); lines it cannot place are in
    the monster's `kept_as_text`. `InvalidInput` (field "text") when it is no stat block at all."""
    text = _squeezed(_check_text(text, ACCEPTS))
    if text.count("\n") > MAX_LINES:
        raise InvalidInput("text", f"{text.count(chr(10)) + 1:,} lines", ACCEPTS,
                           f"more than {MAX_LINES:,} lines: no stat block is")
    text = without_front_matter(text)
    if is_compendium_markdown(text):
        text = compendium_markup_off(text)
    compendium = read_compendium_text(text)
    if compendium is not None:
        data, kept = compendium
    else:
        data, kept = _book_layout(text)
    unset = data.pop(UNSET_KEY, set())
    kept_before = data.pop(KEPT_BEFORE_KEY, [])
    _retainer(data, kept)
    data.setdefault("ev", "0")
    data.setdefault("speed", 5)
    data.setdefault("size", "1M")
    data.setdefault("stability", 0)
    for name in CHARACTERISTICS:
        data.setdefault(name, 0)
    missing = [k for k in ("stamina", "free_strike") if k not in data]
    if missing:
        raise InvalidInput("text", data["name"][:60], ACCEPTS, f"no {missing[0].replace('_', ' ').title()} found")
    try:
        monster = parse_whole_stat_block(data, source)
    except StatBlockError as exc:
        raise InvalidInput("text", data["name"][:60], ACCEPTS, exc.reason) from None
    if unset:  # the workbench's "—": a part the block leaves unset stays unset
        update: dict[str, Any] = {"characteristics": monster.characteristics.model_copy(
            update=dict.fromkeys(unset & set(CHARACTERISTICS)))}
        update.update({field: value for part, fields in _UNSET_PARTS.items() if part in unset
                       for field, value in fields.items()})
        monster = monster.model_copy(update=update)
    found = (*monster.kept_as_text, *kept)
    found += tuple(k for k in kept_before if k not in found)  # a note this reading made again is said once
    if found == monster.kept_as_text:
        return monster
    return monster.model_copy(update={"kept_as_text": found})


def parse_feature_text(name: str, text: str, cost: int | None = None) -> Trait:
    """A trait's, Malice feature's or villain action's words, read as the lines of a pasted stat block's
    feature are: one paragraph a line ("End Effect: ...", "5 Malice: ..." named and priced), a test's three
    tiers under the paragraph that calls for it, a power roll's too; a line a PDF broke is joined to its
    paragraph unless a blank line parts them. The trait is made of those paragraphs (`Trait.of_effects`).
    `InvalidInput` (field "text") names a line that has no place: a tier with no paragraph above it."""
    _check_text(text, FEATURE_ACCEPTS)
    reader = _Reader([])
    feature = _Feature(name=name, kind="trait")
    for line in _lines(text):
        if not line.text and not line.bold:
            reader.blank_before = True
            continue
        reader.after_blank, reader.blank_before = reader.blank_before, False
        whole = f"{line.bold} {line.text}".strip() if line.bold else line.text
        if reader._feature_line(feature, whole, line) == "kept":
            raise InvalidInput("text", whole, FEATURE_ACCEPTS,
                               f"the line “{whole[:60]}” is a tier with no paragraph above it calling for a test")
    data = _feature_json(feature)
    for paragraph in data["effects"]:
        _check_tiers(paragraph)
    if cost is not None:
        data["cost"] = f"{cost} Malice"
    try:
        return parse_trait(data, "text")
    except StatBlockError as exc:
        raise InvalidInput("text", name, FEATURE_ACCEPTS, exc.reason) from None


def _check_tiers(paragraph: dict[str, Any]) -> None:
    """A test typed with a tier missing, or a number the rules refuse ("M < 9"), is refused naming the words
    (a file's would be kept as words; the Director typing them can put them right)."""
    tiers: list[str | None] = [paragraph.get(f"tier{number}") for number in (1, 2, 3)]
    words: str = paragraph.get("effect") or paragraph.get("roll") or ""
    given = [label for label, tier in zip(("≤11", "12-16", "17+"), tiers, strict=True) if tier is not None]
    if given and len(given) < 3:
        raise InvalidInput("text", words[:60], FEATURE_ACCEPTS, f"the test under “{words[:60]}” has only "
                                                                f"{', '.join(given)}: a test has three tiers, "
                                                                "≤11, 12-16 and 17+")
    for number, tier in enumerate(tiers, start=1):
        if tier is None:
            continue
        try:
            Tier.parse(tier)
        except InvalidInput as exc:
            if not exc.field.startswith("tier"):  # a layout the book does not use is kept as words
                raise InvalidInput("text", tier, FEATURE_ACCEPTS, f"tier {number} “{tier[:60]}”: {exc}") from None


def _squeezed(text: str) -> str:
    """The text with its line ends made one kind and each run of blank lines one blank line (a blank line
    parts paragraphs; more say nothing more)."""
    out: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line.strip() or (out and out[-1].strip()):
            out.append(line if line.strip() else "")
    return "\n".join(out)


def _retainer(data: dict[str, Any], kept: list[KeptText]) -> None:
    """A retainer's "Harrier Retainer": the monster rules have no retainer organization, so the role is
    read with the formulas' closest organization (the stat block reader says which) and the word is kept."""
    roles = data.get("roles") or [""]
    words = roles[0].split()
    if any(w.lower() == "retainer" for w in words):
        data["roles"] = [" ".join(w for w in words if w.lower() != "retainer")]
        kept.append(KeptText(where="the stat block", part="organization", text=roles[0]))


def _book_layout(text: str) -> tuple[dict[str, Any], list[KeptText]]:
    """A block in the book's layout (or the workbench's Markdown) in the JSON shape, and the lines kept."""
    lines = _lines(mended_pdf_text(text))
    data: dict[str, Any] = {"type": "statblock"}
    start = _header(lines, data)
    reader = _Reader(lines)
    reader.read(start, data)
    data["features"] = [_feature_json(f) for f in reader.features]
    data[KEPT_BEFORE_KEY] = reader.kept_before
    return data, reader.kept
