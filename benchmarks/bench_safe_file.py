"""What the safe reading costs (workbench.io.reading) and how fast a hostile file is refused.

The caps must not slow the ordinary loads a Director waits on (the library, the sample bestiary), and a
hostile file must be refused at once, not after the parser has chewed on it.

Run: .venv/bin/python benchmarks/bench_safe_file.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from timing import report, timed

from workbench.formats.bestiary import SAMPLE_DIR, sample_bestiary
from workbench.io.problem import FileProblem
from workbench.io.reading import MAX_FILE_BYTES, parse_json, read_json
from workbench.monster.formulas import build_monster
from workbench.monster.library import load_library, save_monster


def refused(path: Path) -> None:
    try:
        read_json(path)
    except FileProblem:
        return
    raise AssertionError(f"{path.name} was not refused")


def main() -> None:
    stat_block = sorted(SAMPLE_DIR.rglob("*.json"))[0]
    text = stat_block.read_text(encoding="utf-8")
    report("json.loads of one stat block (no caps)", timed(lambda: json.loads(text), 2000))
    report("parse_json of the same (caps, tree walk)", timed(lambda: parse_json(text), 2000))
    report("read_json of the file (open, fstat, read, parse)", timed(lambda: read_json(stat_block), 2000))
    report("the sample bestiary (49 files)", timed(sample_bestiary, 20))
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        for level in range(1, 21):
            save_monster(build_monster(level, "platoon", "brute"), f"Brute {level}", folder)
        report("a library of 20 monsters", timed(lambda: load_library(folder), 20))
        hostile = {
            "arrays nested 100,000 deep": b"[" * 100_000,
            "an integer of 4,400 digits": b"[" + b"9" * 4400 + b"]",
            "1 MiB + 1 byte": b" " * (MAX_FILE_BYTES + 1),
        }
        for what, content in hostile.items():
            path = folder / "hostile.json"
            path.write_bytes(content)
            report(f"refuse {what}", timed(lambda path=path: refused(path), 50))


if __name__ == "__main__":
    main()
