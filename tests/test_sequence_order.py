"""pytest-randomly shuffles the tests, never the steps of a sequence (conftest.py): a notebook's cells and a browser
module's tests run in their file's order, each file's together."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ("notebooks/00_start_here.ipynb", "notebooks/03_solos.ipynb")


BROWSER_MODULE = "tests/browser/test_browser_solos.py"


def _listing(*args: str) -> list[str]:
    """The test ids a run with these arguments would take, in its order."""
    listing = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=120,
    ).stdout
    return [line for line in listing.splitlines() if "::" in line]


def _collected(seed: int) -> list[tuple[str, int]]:
    """(notebook, cell number) in the order a run with this seed would take them."""
    listing = "\n".join(_listing("-p", "randomly", f"--randomly-seed={seed}", *NOTEBOOKS))
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


def test_a_browser_modules_tests_keep_their_order_and_the_rest_are_shuffled():
    in_file_order = _listing("-p", "no:randomly", BROWSER_MODULE, "tests/test_errors.py")
    shuffled = [_listing("-p", "randomly", f"--randomly-seed={seed}", BROWSER_MODULE, "tests/test_errors.py")
                for seed in (1, 2, 3)]
    def of(ids: list[str], prefix: str) -> list[str]:
        return [test for test in ids if test.startswith(prefix)]
    for ids in shuffled:
        assert sorted(ids) == sorted(in_file_order)
        assert of(ids, BROWSER_MODULE) == of(in_file_order, BROWSER_MODULE)
    assert any(of(ids, "tests/test_errors.py") != of(in_file_order, "tests/test_errors.py") for ids in shuffled)
