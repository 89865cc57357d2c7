"""Extract the rules' own words a Director needs next to the builder's pickers into `monster-basics.json`.

Run once from the repository root, with the rules text as the argument:

    .venv/bin/python data/lore/extract.py [data/rules/monster-basics.txt]

It copies, never paraphrases: the "General Keywords" (Abyssal ... Undead) with their meanings, the
"Creature Free Strikes" rules with the distances and keywords they name, and the ready-made
"Noncombatant" stat block. `workbench.lore` loads and validates the result; widgets only display it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).with_name("monster-basics.json")


def _paragraphs(text: str, start: str, stop: str) -> list[str]:
    """The non-empty lines between the heading line `start` and the heading line `stop`."""
    lines = text.splitlines()
    first = lines.index(start) + 1
    last = lines.index(stop, first)
    return [line.rstrip() for line in lines[first:last] if line.strip()]


def _keywords(text: str) -> tuple[str, list[dict[str, str]]]:
    body = _paragraphs(text, "General Keywords", "Encounter Value")
    intro, rest = body[0], body[1:]
    pairs = [{"name": rest[i], "meaning": rest[i + 1]} for i in range(0, len(rest), 2)]
    return intro, pairs


def _free_strikes(text: str) -> dict[str, object]:
    body = _paragraphs(text, "Creature Free Strikes", "Creature Opportunity Attacks")
    bullets = [line.lstrip("• ").strip() for line in body if line.startswith("•")]
    prose = [line for line in body if not line.startswith("•")]
    melee = next(b for b in bullets if b.startswith("A melee free strike"))
    ranged = next(b for b in bullets if b.startswith("A ranged free strike"))
    keywords_text = next(p for p in prose if "has the Strike keyword" in p)
    inherited = re.search(r"as well as the (\w+), (\w+), or (\w+) keywords", keywords_text)
    if inherited is None:
        raise SystemExit("free strike keywords sentence not found")
    return {
        "introduction": prose[0],
        "melee": melee,
        "ranged": ranged,
        "keywords_text": keywords_text,
        "why_static": prose[-1],
        "melee_minimum_distance": int(re.search(r"distance of melee (\d+)", melee).group(1)),
        "ranged_minimum_distance": int(re.search(r"distance of (\d+)", ranged).group(1)),
        "keyword": "Strike",
        "inherited_keywords": list(inherited.groups()),
    }


def _noncombatant(text: str) -> dict[str, object]:
    lines = text.splitlines()
    at = lines.index("Noncombatant", lines.index("Harmless Creatures"))
    introduction = next(line for line in lines[lines.index("Harmless Creatures") + 1 : at] if line.strip())
    table = [line for line in lines[at + 1 : at + 7] if line.strip()]
    header = [cell for cell in table[0].split("\t") if cell]
    fields: list[dict[str, str]] = []
    for row in table[1:4]:
        for cell in (c for c in row.split("\t") if c):
            value, label = cell.split(" ", 1)
            fields.append({"label": label, "value": value})
    size_at = lines.index("Size", at)
    size_note = next(line for line in lines[size_at + 1 :] if line.strip())
    return {
        "name": "Noncombatant",
        "introduction": introduction,
        "keywords": header[0],
        "level": next(c for c in header if c.startswith("Level")).removeprefix("Level ").strip(),
        "ev": next(c for c in header if c.startswith("EV")).removeprefix("EV ").strip(),
        "fields": fields,
        "size_note": size_note,
    }


def lore_data(text: str) -> dict[str, object]:
    """Everything `monster-basics.json` holds, copied from the rules text."""
    intro, keywords = _keywords(text)
    return {
        "source": "Draw Steel, Monster Basics (monster-basics.txt), copied by data/lore/extract.py",
        "keywords_introduction": intro,
        "general_keywords": keywords,
        "free_strikes": _free_strikes(text),
        "noncombatant": _noncombatant(text),
    }


def main(rules_file: str) -> None:
    data = lore_data(Path(rules_file).read_text(encoding="utf-8"))
    OUT.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data['general_keywords'])} keywords)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[1] / "rules" / "monster-basics.txt"))
