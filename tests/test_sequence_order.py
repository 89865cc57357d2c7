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


# One pytest process collects each listing in turn (pytest.main once per listing): a process's start, with its
# plugins and the suite's conftests, costs more than a collection of these few files.
_LISTER = """
import sys, pytest
codes = []
for args in sys.argv[1:]:
    codes.append(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *args.split()]))
    print("=" * 20, "end of listing", flush=True)
sys.exit(max(codes))
"""


def _listings(*runs: tuple[str, ...]) -> list[list[str]]:
    """The test ids each run with these arguments would take, in its order (one list per run)."""
    out = subprocess.run(
        [sys.executable, "-c", _LISTER, *(" ".join(args) for args in runs)],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=120,
    ).stdout
    listings = out.split("=" * 20 + " end of listing")[:len(runs)]
    assert len(listings) == len(runs), out[-2000:]
    return [[line for line in listing.splitlines() if "::" in line] for listing in listings]


SEEDS = (1, 2)
FILES = (*NOTEBOOKS, BROWSER_MODULE, "tests/test_errors.py")


@pytest.fixture(scope="module")
def listings() -> dict[int | None, list[str]]:
    """The test ids of one run in file order (None) and of a run shuffled with each seed; the tests only read them."""
    runs = [("-p", "no:randomly", *FILES), *(("-p", "randomly", f"--randomly-seed={seed}", *FILES) for seed in SEEDS)]
    return dict(zip((None, *SEEDS), _listings(*runs), strict=True))


def of(ids: list[str], prefix: str) -> list[str]:
    return [test for test in ids if test.startswith(prefix)]


@pytest.mark.parametrize("seed", SEEDS)
def test_each_notebooks_cells_keep_their_order_under_a_shuffle(listings, seed):
    cells = [(name, int(cell.removeprefix("Cell "))) for name, _, cell in
             (line.partition("::") for line in listings[seed]) if cell.startswith("Cell ")]
    notebooks = list(dict.fromkeys(notebook for notebook, _ in cells))
    assert sorted(notebooks) == sorted(NOTEBOOKS)
    for notebook in notebooks:
        numbers = [number for name, number in cells if name == notebook]
        assert len(numbers) > 3 and numbers == sorted(numbers), notebook
    # each notebook's cells are together: the listing changes notebook once
    assert sum(1 for before, after in zip(cells, cells[1:], strict=False) if before[0] != after[0]) == 1


def test_a_browser_modules_tests_keep_their_order_and_the_rest_are_shuffled(listings):
    in_file_order = listings[None]
    shuffled = [listings[seed] for seed in SEEDS]
    for ids in shuffled:
        assert sorted(ids) == sorted(in_file_order)
        assert of(ids, BROWSER_MODULE) == of(in_file_order, BROWSER_MODULE)
    assert any(of(ids, "tests/test_errors.py") != of(in_file_order, "tests/test_errors.py") for ids in shuffled)
