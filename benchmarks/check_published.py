"""Open every stat block file under the folders given and count, per format, how each one opened.

For the real collections Directors hold: the Foundry Draw Steel system's packs (`src/packs/monsters`), the
Steel Compendium bestiary (data-bestiary-json) and Forge Steel `.ds-monster` / `.ds-monster-group` files (a
group's monsters are counted one by one).
Each file is read the way `workbench import` reads it (`formats.reader`); the report gives per format:
- opened whole: every part structured;
- opened with parts kept as text: the parts counted by kind (a distance, a power roll line ...);
- refused: each file named with the part and the reason;
- not a monster: files of no known stat block format (a Foundry folder record, a dynamic terrain block),
  counted and not opened.
Also the time spent reading (parse and build, the disk read excluded), per format.

Run: .venv/bin/python benchmarks/check_published.py DIR... [--show-kept N]
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from workbench.formats.reader import ImportRefused, detect_format, read_monsters
from workbench.io.problem import FileProblem
from workbench.io.reading import parse_json, read_text

SUFFIXES = (".json", ".ds-monster", ".ds-monster-group")
CHARACTERISTICS = ("might", "agility", "reason", "intuition", "presence")


def _leading(value: Any) -> int | None:
    match = re.match(r"^\s*(-?\d+)", str(value))
    return int(match.group(1)) if match else None


def printed_numbers(kind: str, data: Any) -> dict[str, Any] | None:
    """The numbers the file prints, read straight from its JSON (not through the workbench), to compare."""
    if kind == "foundry":
        system = data["system"]
        ev = system.get("ev", system["monster"].get("ev"))
        return {"level": system["monster"]["level"], "stamina": system["stamina"]["max"], "ev": ev,
                "free_strike": system["monster"]["freeStrike"],
                **{c: system["characteristics"][c]["value"] for c in CHARACTERISTICS}}
    if kind == "steel-compendium":
        ev = _leading(data.get("ev"))
        return {"level": _leading(data["level"]), "stamina": _leading(data["stamina"]), "ev": 0 if ev is None else ev,
                "free_strike": _leading(data["free_strike"]), **{c: _leading(data[c]) for c in CHARACTERISTICS}}
    if kind == "forge-steel":
        values = {e["characteristic"].lower(): e["value"] for e in data["characteristics"]}
        return {"level": data["level"], "stamina": data["stamina"], "ev": data["encounterValue"],
                "free_strike": data["freeStrikeDamage"], **{c: values.get(c) for c in CHARACTERISTICS}}
    return None


def read_numbers(monster: Any) -> dict[str, Any]:
    return {"level": monster.level, "stamina": monster.stamina, "ev": monster.ev, "free_strike": monster.free_strike,
            **{c: monster.characteristics[c] for c in CHARACTERISTICS}}


def files_under(folder: Path) -> list[Path]:
    if folder.is_file():
        return [folder]
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name.endswith(SUFFIXES))


class Tally:
    """What the folders held, per format."""

    def __init__(self) -> None:
        self.whole: Counter[str] = Counter()
        self.with_text: Counter[str] = Counter()
        self.kept_kinds: dict[str, Counter[str]] = defaultdict(Counter)
        self.kept_examples: dict[str, list[str]] = defaultdict(list)
        self.refused: dict[str, list[str]] = defaultdict(list)
        self.seconds: Counter[str] = Counter()
        self.compared: Counter[str] = Counter()
        self.differing: dict[str, list[str]] = defaultdict(list)
        self.other = 0

    def read(self, path: Path, name: str) -> None:
        try:
            data = parse_json(read_text(path, limit=16 * 1_048_576), str(path))
        except FileProblem:
            self.other += 1
            return
        kind = detect_format(data)
        if kind is None:
            self.other += 1
            return
        if kind == "forge-steel-group":  # each monster of a group counted on its own
            for index, monster in enumerate(data["monsters"], start=1):
                self.read_data(monster, detect_format(monster) or "forge-steel", f"{name} monster {index}", path.name)
            return
        self.read_data(data, kind, name, path.name)

    def read_data(self, data: Any, kind: str, name: str, source: str) -> None:
        start = time.perf_counter()
        try:
            monsters = read_monsters(data, source)
        except ImportRefused as exc:
            self.seconds[kind] += time.perf_counter() - start
            self.refused[kind].append(f"{name}: {exc.part}: {exc.reason}")
            return
        self.seconds[kind] += time.perf_counter() - start
        printed = printed_numbers(kind, data)
        if printed is not None:
            self.compared[kind] += 1
            got = read_numbers(monsters[0])
            if got != printed:
                self.differing[kind].append(f"{name}: {sorted(k for k in got if got[k] != printed[k])}")
        for monster in monsters:
            if not monster.kept_as_text:
                self.whole[kind] += 1
                continue
            self.with_text[kind] += 1
            for part in monster.kept_as_text:
                self.kept_kinds[kind][part.part] += 1
                self.kept_examples[f"{kind}/{part.part}"].append(f"{monster.name}: {part.where}: {part.text!r}")

    def report(self, show_kept: int) -> None:
        for kind in sorted(set(self.whole) | set(self.with_text) | set(self.refused)):
            total = self.whole[kind] + self.with_text[kind] + len(self.refused[kind])
            opened = self.whole[kind] + self.with_text[kind]
            print(f"{kind}: {total} monsters; opened {opened} ({100 * opened / total:.1f}%): whole "
                  f"{self.whole[kind]}, with parts kept as text {self.with_text[kind]}; refused "
                  f"{len(self.refused[kind])}; read in {self.seconds[kind]:.2f} s")
            if self.compared[kind]:
                print(f"  numbers read (level, EV, Stamina, free strike, characteristics) equal to the file: "
                      f"{self.compared[kind] - len(self.differing[kind])} of {self.compared[kind]}")
                for line in self.differing[kind]:
                    print(f"    differ: {line}")
            for part, count in self.kept_kinds[kind].most_common():
                print(f"  kept as text: {part}: {count}")
                for example in self.kept_examples[f"{kind}/{part}"][:show_kept]:
                    print(f"    {example}")
            for line in self.refused[kind]:
                print(f"  refused: {line}")
        print(f"not a monster (no known stat block format): {self.other} files")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--show-kept", type=int, default=0, help="print this many kept-as-text parts per kind")
    args = parser.parse_args()
    tally = Tally()
    for folder in args.folders:
        for path in files_under(folder):
            tally.read(path, str(path.relative_to(folder)) if folder.is_dir() else path.name)
    tally.report(args.show_kept)


if __name__ == "__main__":
    main()
