"""Test set-up for every run, whatever it collects (tests/, notebooks/ or one notebook alone).

pytest-randomly runs the tests in a new order each time, so that no test leans on what another left behind.
Two kinds of file are sequences, not sets of tests, and keep their own order inside a run (the files
themselves still come in a new order):

* a notebook: its cells are one story, run in order in one kernel, each building on the cells before it;
* a browser test module (tests/browser/): its tests drive one served page, opened once for the module
  (a page load runs its notebook in a new kernel, seconds of CPU each), step after step as a Director would.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

BROWSER_TESTS = Path(__file__).resolve().parent / "tests" / "browser"


def in_sequence(item: pytest.Item) -> bool:
    """Whether the item is a step of a sequence: a notebook's cell or a browser test."""
    path = Path(item.path)
    return path.suffix == ".ipynb" or BROWSER_TESTS in path.parents


@pytest.hookimpl(wrapper=True, tryfirst=True)  # around pytest-randomly's shuffle and every other reordering
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Generator[None, None, None]:
    """Each sequence's steps back in their file's order, in the places the shuffle gave that kind of step;
    every other test keeps the place the shuffle gave it."""
    collected = {id(item): index for index, item in enumerate(items)}
    yield
    places = [index for index, item in enumerate(items) if in_sequence(item)]
    files: dict[Path, int] = {}  # each file's rank: where the shuffle put its first step
    for index in places:
        files.setdefault(Path(items[index].path), len(files))
    steps = sorted((items[index] for index in places),
                   key=lambda item: (files[Path(item.path)], collected[id(item)]))
    for index, step in zip(places, steps, strict=True):
        items[index] = step
