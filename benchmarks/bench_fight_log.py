"""Memory and time of a long fight: 20,000 events played, saved, reopened and undone. The log is kept once, as
events (a state kept every 64 events for undo), so memory and the file grow with the events, not with events
times states; the file must stay under the 1 MiB a fight file is read back from.

Run: .venv/bin/python benchmarks/bench_fight_log.py [EVENTS]
"""

from __future__ import annotations

import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from timing import load_average

from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.party import make_party
from workbench.fight.fight import Fight, load_fight
from workbench.monster.formulas import build_monster


def main(events: int) -> None:
    print(f"load average {load_average()}")
    orc = build_monster(1, "platoon", "brute").model_copy(update={"name": "Orc"})
    encounter = Encounter(party=make_party(heroes=4, level=1)).adding(creature_from_monster(orc, 1))
    tracemalloc.start()
    started = time.perf_counter()
    fight = Fight(encounter)
    fight.start_round()
    unit = next(u.name for u in fight.units if u.kind != "hero")
    for n in range(events - 1):
        if n % 2:
            fight.heal(unit, 1)
        else:
            fight.damage(unit, 1)
    played = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{events:,} events played in {played:.2f} s, peak memory {peak / 1_048_576:.0f} MiB")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fight.json"
        started = time.perf_counter()
        fight.save(path)
        print(f"saved in {time.perf_counter() - started:.2f} s: {path.stat().st_size / 1024:.0f} KiB")
        started = time.perf_counter()
        again = load_fight(path)
        print(f"reopened in {time.perf_counter() - started:.2f} s, {len(again.events):,} events")
    started = time.perf_counter()
    for _ in range(100):
        fight.undo()
    print(f"100 undos in {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
