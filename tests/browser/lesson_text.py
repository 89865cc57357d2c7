"""A lesson's text as a new Director reads it on its page, taken where the lesson is first opened.

Every browser module that drives a lesson opens it through `open_app` (conftest.py), which reads the lesson's
text there, once its widgets are drawn and before any test moves them; test_browser_lessons.py checks that text,
and opens only the lessons no other module opened.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

LESSONS = tuple(sorted(path.name for path in (Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb")))
# Widget outputs still being drawn: their text is not there yet
DRAWING = """() => Array.from(document.querySelectorAll('#rendered_cells .jp-OutputArea-output'))
    .some(e => e.textContent.includes('Loading widget'))"""
SETTLE_S = 60


def served_text(page: Any) -> str:
    """The lesson's text once its widgets are drawn and it has stopped changing."""
    deadline = time.monotonic() + SETTLE_S
    before = None
    while time.monotonic() < deadline:
        text = page.locator("#rendered_cells").inner_text()
        if text == before and not page.evaluate(DRAWING):
            return str(text)
        before = text
        page.wait_for_timeout(500)
    raise AssertionError(f"the lesson's text still changed after {SETTLE_S} s")
