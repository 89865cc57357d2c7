"""How long a `.ds-monster-group` of N monsters takes to import: reading it (`formats.reader`), and the whole
`workbench import` into an empty library folder. Linear time is the goal: seconds per monster stay flat as N
grows (10 times the monsters, about 10 times the time).

Each monster is a formula monster of the builder, named apart.

Run: .venv/bin/python benchmarks/bench_group_import.py [N ...]   (default 100 1000)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from timing import load_average

import workbench as wb
from workbench.cli import main as cli
from workbench.formats.forge_steel import export_group
from workbench.formats.reader import import_monsters


def group_text(count: int) -> str:
    base = wb.build_monster(level=3, organization="elite", role="brute")
    return export_group([base.model_copy(update={"name": f"Ogre {n}"}) for n in range(count)], "Many ogres")


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [100, 1000]
    print(f"load average {load_average()}")
    for count in counts:
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / "ogres.ds-monster-group"
            path.write_text(group_text(count), encoding="utf-8")
            start = time.perf_counter()
            monsters = import_monsters(path)
            read = time.perf_counter() - start
            start = time.perf_counter()
            code = cli(["import", str(path), "--library", str(Path(scratch) / "library")])
            whole = time.perf_counter() - start
            assert code == 0 and len(monsters) == count
            print(f"{count:>6} monsters: read {read:6.2f} s ({read / count * 1000:5.2f} ms each); "
                  f"workbench import {whole:6.2f} s ({whole / count * 1000:5.2f} ms each)")


if __name__ == "__main__":
    main()
