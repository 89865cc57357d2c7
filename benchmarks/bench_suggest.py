"""How long a Director waits for encounter suggestions from a full-size bestiary, and for loading it.

The Steel Compendium's bestiary has about 400 stat blocks; the project ships 49 of them. This benchmark
writes a 400-stat-block bestiary to a temporary folder by copying the sample's files with new names and
levels moved by −2 … +6 (organization, role, EV and the rest kept as printed), then times:
- loading the folder (`load_bestiary`, 400 files) — goal < 1 s; with a progress callback; and the bestiary
  browser's "Load bestiary" click with its progress bar drawn from the first file (the bar's cost at its worst);
- `suggest_encounters(..., count=10)` for five level 3 heroes at each difficulty, and for a keyword — goal < 1 s.

Run: .venv/bin/python benchmarks/bench_suggest.py
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from timing import report as show
from timing import timed

import workbench.apps.bestiary as bestiary_app_module
from workbench.apps.bestiary import bestiary_app
from workbench.encounter.party import make_party
from workbench.encounter.suggest import suggest_encounters
from workbench.formats.bestiary import SAMPLE_DIR, load_bestiary

SIZE = 400
SHIFTS = (-2, -1, 0, 1, 2, 3, 4, 5, 6)


def write_bestiary(folder: Path, size: int = SIZE) -> None:
    """`size` stat block files made from the sample's, each renamed and moved to another level."""
    sources = sorted(SAMPLE_DIR.rglob("*.json"))
    rng = random.Random(400)
    for number in range(size):
        data = json.loads(sources[number % len(sources)].read_text(encoding="utf-8"))
        shift = SHIFTS[(number // len(sources)) % len(SHIFTS)] + rng.choice((0, 0, 1))
        data["level"] = max(1, int(data["level"]) + shift)
        data["name"] = f"{data['name']} {number:03d}"
        (folder / f"{number:03d}.json").write_text(json.dumps(data), encoding="utf-8")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_bestiary(folder)
        bestiary = load_bestiary(folder)
        print(f"{len(bestiary)} stat blocks loaded, {len(bestiary.failures)} failures")
        show(f"load_bestiary({SIZE} files)", timed(lambda: load_bestiary(folder), 5))
        show(f"load_bestiary({SIZE} files, progress callback)",
             timed(lambda: load_bestiary(folder, progress=lambda done, total: None), 5))
        bestiary_app_module.PROGRESS_AFTER = 0  # the bar drawn from the start: its whole cost
        browser = bestiary_app()
        browser.folder.value = str(folder)
        show(f"browser: Load bestiary click ({SIZE} files, bar drawn)", timed(browser.load.click, 5))
        assert browser.progress.value == SIZE and len(browser.bestiary) == SIZE, browser.message.value
    party = make_party(heroes=5, level=3)
    for difficulty in ("easy", "standard", "hard", "extreme"):
        found = suggest_encounters(party, difficulty, bestiary, count=10, rng=random.Random(1))
        show(
            f"suggest 10 {difficulty} ({len(found)} found)",
            timed(lambda d=difficulty: suggest_encounters(party, d, bestiary, count=10, rng=random.Random(1)), 5),
        )
    show(
        "suggest 10 hard, keyword Kobold",
        timed(lambda: suggest_encounters(party, "hard", bestiary, ["Kobold"], rng=random.Random(1)), 5),
    )
    big = make_party(heroes=7, level=8, victories=6)
    show("suggest 10 hard, 7 level 8 heroes",
         timed(lambda: suggest_encounters(big, "hard", bestiary, rng=random.Random(1)), 5))


if __name__ == "__main__":
    main()
