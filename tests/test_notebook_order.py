"""pytest-randomly shuffles the tests, never a notebook's cells: they run in order, each notebook's together."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ("notebooks/00_start_here.ipynb", "notebooks/03_solos.ipynb")


def _collected(seed: int) -> list[tuple[str, int]]:
    """(notebook, cell number) in the order a run with this seed would take them."""
    listing = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "randomly", f"--randomly-seed={seed}",
         "-p", "no:cacheprovider", *NOTEBOOKS],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=120,
    ).stdout
    cells = []
    for line in listing.splitlines():
        notebook, _, cell = line.partition("::")
        if cell.startswith("Cell "):
            cells.append((notebook, int(cell.removeprefix("Cell "))))
    return cells


@pytest.mark.parametrize("seed", [1, 2])
def test_each_notebooks_cells_keep_their_order_under_a_shuffle(seed):
    cells = _collected(seed)
    notebooks = list(dict.fromkeys(notebook for notebook, _ in cells))
    assert sorted(notebooks) == sorted(NOTEBOOKS)
    for notebook in notebooks:
        numbers = [number for name, number in cells if name == notebook]
        assert len(numbers) > 3 and numbers == sorted(numbers), notebook
    # each notebook's cells are together: the listing changes notebook once
    assert sum(1 for before, after in zip(cells, cells[1:], strict=False) if before[0] != after[0]) == 1
