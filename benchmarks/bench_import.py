"""How long `import workbench` takes in a fresh interpreter, and where the time goes.

Each run is a new process (a warm disk cache, a cold interpreter), as for a script or the command line.
Also timed: `import pydantic` alone (the floor: every domain model is a pydantic model) and the whole
CLI start (`workbench monster ... --json`). The largest self-times from `-X importtime` follow.
Goal: `import workbench` under 250 ms on the 2-core reference machine.

Run: .venv/bin/python benchmarks/bench_import.py [runs]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from timing import load_average

# Wall time and CPU time of the import alone (CPU time is steadier when other work shares the cores).
TIMER = ("import time; w = time.perf_counter(); c = time.process_time(); {statement}; "
         "print(time.perf_counter() - w, time.process_time() - c)")
FLOOR = "from pydantic import BaseModel, ConfigDict, Field"  # what every domain module needs first
HEAVY = ("pandas", "plotly", "ipywidgets", "numpy")


def import_seconds(statement: str) -> tuple[float, float]:
    """(wall, cpu) seconds of one import statement in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", TIMER.format(statement=statement)], check=True,
                         capture_output=True, text=True).stdout
    wall, cpu = map(float, out.split())
    return wall, cpu


def cli_seconds() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "workbench.cli", "monster", "--level", "5", "--organization",
                    "elite", "--role", "brute", "--json"], check=True, capture_output=True)
    return time.perf_counter() - start


def report(label: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[max(0, round(len(times) * 0.95) - 1)]
    print(f"{label:<44} median {statistics.median(times) * 1000:7.0f} ms   min {times[0] * 1000:7.0f} ms"
          f"   p95 {p95 * 1000:7.0f} ms   (n={len(times)})")


def heavy_modules_loaded() -> list[str]:
    code = f"import sys, workbench; print(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return out.split()


def top_self_times(count: int = 12) -> list[tuple[int, int, str]]:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", "import workbench"], check=True,
                          capture_output=True, text=True)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative_us, name = line[len("import time:"):].split("|")
        rows.append((int(self_us), int(cumulative_us), name.strip()))
    return sorted(rows, reverse=True)[:count]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{load_average()}")
    import_seconds("import workbench")  # warm the disk cache and the .pyc files
    for label, statement in (("pydantic BaseModel (the floor)", FLOOR), ("import workbench", "import workbench")):
        samples = [import_seconds(statement) for _ in range(runs)]
        report(f"{label}, wall", [wall for wall, _ in samples])
        report(f"{label}, CPU", [cpu for _, cpu in samples])
    report("workbench monster ... --json (whole CLI)", [cli_seconds() for _ in range(runs)])
    loaded = heavy_modules_loaded()
    print("heavy libraries loaded by `import workbench`:", ", ".join(loaded) or "none")
    print("largest self times (-X importtime, one run; inflated by the tracing):")
    for self_us, cumulative_us, name in top_self_times():
        print(f"  {self_us / 1000:7.1f} ms self  {cumulative_us / 1000:7.1f} ms total  {name}")


if __name__ == "__main__":
    main()
