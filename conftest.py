"""Test set-up for every run, whatever it collects (tests/, notebooks/ or one notebook alone).

pytest-randomly runs the tests in a new order each time, so that no test leans on what another left behind.
A notebook's cells are the exception: they are one story, run in order in one kernel, each building on the
cells before it. Here they are put back in order after the shuffle.
"""

from __future__ import annotations

import pytest


def _cell_number(item: pytest.Item) -> int | None:
    """The cell's place in its notebook, for an nbval item; None for any other test."""
    number = getattr(item, "cell_num", None)
    return number if isinstance(number, int) and str(item.path).endswith(".ipynb") else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every notebook's cells in their own order, each notebook's together, in the places the shuffle gave
    notebook cells: other tests keep theirs."""
    places = [index for index, item in enumerate(items) if _cell_number(item) is not None]
    cells = sorted((items[index] for index in places), key=lambda item: (str(item.path), _cell_number(item)))
    for index, cell in zip(places, cells, strict=True):
        items[index] = cell
