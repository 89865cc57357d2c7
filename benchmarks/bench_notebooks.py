"""How long each notebook takes to run top to bottom in a fresh kernel (what nbval and a Voilà page load do).

Each notebook runs with nbclient in a new kernel of this interpreter, from its own folder, with widget
state not stored. Reported per notebook: kernel start, the run itself, and the slowest cell (its first
line), so a slow notebook shows where its time goes. Jupyter's state goes to a temporary folder.

Run: .venv/bin/python benchmarks/bench_notebooks.py [notebook ...]   (default: every notebooks/*.ipynb)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from timing import load_average

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def run(path: Path) -> tuple[float, float, float, str]:
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    timings: list[tuple[float, str]] = []
    started: dict[str, float] = {}

    def on_start(cell, cell_index, **_):
        started[cell.id] = time.perf_counter()

    def on_done(cell, cell_index, **_):
        first = next((line for line in cell.source.splitlines() if line.strip()), "")
        timings.append((time.perf_counter() - started[cell.id], f"cell {cell_index}: {first[:60]}"))

    client = NotebookClient(notebook, timeout=600, kernel_name="python3", store_widget_state=False,
                            resources={"metadata": {"path": str(path.parent)}},
                            on_cell_execute=on_start, on_cell_executed=on_done)
    begin = time.perf_counter()
    with client.setup_kernel():
        kernel = time.perf_counter() - begin
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
    total = time.perf_counter() - begin
    slowest_time, slowest = max(timings, default=(0.0, "none"))
    return kernel, total - kernel, slowest_time, slowest


def main(names: list[str]) -> None:
    scratch = tempfile.mkdtemp(prefix="bench-notebooks-")
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        os.environ[var] = os.path.join(scratch, sub)
    os.environ["JUPYTER_PLATFORM_DIRS"] = "1"
    paths = [NOTEBOOKS / n for n in names] if names else sorted(NOTEBOOKS.glob("*.ipynb"))
    print(f"{os.cpu_count()} cores, load average {load_average()}")
    print(f"{'notebook':<30} {'kernel':>7} {'run':>7}   slowest cell")
    total = 0.0
    for path in paths:
        kernel, body, slowest_time, slowest = run(path)
        total += kernel + body
        print(f"{path.name:<30} {kernel:6.1f}s {body:6.1f}s   {slowest_time:5.1f}s {slowest}")
    print(f"{'all':<30} {total:14.1f}s")


if __name__ == "__main__":
    main(sys.argv[1:])
