"""What the one safe-write path costs (workbench.io.writing.write_atomic): the folder's lock and journal, the
compare-and-swap read, and a library save in a folder of 5,000 monsters (its name looked up in a listing kept
while the folder is unchanged, not a listing per save).

Run: .venv/bin/python benchmarks/bench_safe_write.py
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from timing import load_average, report, timed

from workbench.io.writing import content_hash, read_current, write_atomic, write_group
from workbench.monster.formulas import build_monster
from workbench.monster.library import record_of, save_monster, save_monsters
from workbench.workspace.state import default_workspace, load_workspace, save_workspace, update_workspace


def main() -> None:
    print(f"load average {load_average()}")
    text = record_of(build_monster(3, "elite", "brute")).model_dump_json(indent=2) + "\n"
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        target = folder / "one.json"
        report("write_atomic, no lock (an export)", timed(lambda: write_atomic(target, text, overwrite=True,
                                                                                lock=False), 200))
        report("write_atomic, locked", timed(lambda: write_atomic(target, text, overwrite=True), 200))
        report("write_atomic, locked, compare-and-swap", timed(
            lambda: write_atomic(target, text, overwrite=True, expected=content_hash(read_current(target))), 200))
        report("write_group of 12 files", timed(
            lambda: write_group(folder, [(f"g{n}.json", text) for n in range(12)], overwrite=True), 50))
        path = folder / "workspace.json"
        save_workspace(default_workspace(), path)
        report("load_workspace + save_workspace", timed(lambda: save_workspace(load_workspace(path), path), 100))
        report("update_workspace", timed(lambda: update_workspace(lambda ws: ws, path), 100))
    with tempfile.TemporaryDirectory() as name:
        library = Path(name)
        for n in range(5000):
            (library / f"Monster {n:04}.json").write_text(text)
        monster = build_monster(3, "elite", "brute")
        counter = itertools.count()
        report("the first save in a 5,000-monster library", timed(
            lambda: save_monster(monster, f"First {next(counter)}", library), 1))
        report("later saves there (new names)", timed(
            lambda: save_monster(monster, f"New {next(counter)}", library), 100))
        report("later saves there (overwrite)", timed(
            lambda: save_monster(monster, "Monster 0001", library, overwrite=True), 100))
        report("save_monsters: 12 at once there", timed(
            lambda: save_monsters([(f"Batch {next(counter)}", monster) for _ in range(12)], library), 10))


if __name__ == "__main__":
    main()
