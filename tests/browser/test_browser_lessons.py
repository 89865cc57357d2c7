"""Every lesson (notebooks/*.ipynb) as `workbench app` serves it to a new Director: its text read in the browser.

A lesson's page shows its Markdown and its cells' outputs, never the code. What the page must never show is
what the app pages' text check refuses (test_browser_pages.FORBIDDEN_TEXT: NaN, None, `<NA>`, a temporary
path, a Python tuple, list or dict, a traceback) and a Python object's repr; a missing value is written as
"—" or in words. Code names are not refused here: a lesson teaches the library, and its prose names
`wb.build_monster` and its fields.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from test_browser_pages import FORBIDDEN_TEXT

LESSONS = sorted(path.name for path in (Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
NOTEBOOKS = LESSONS  # opened in this order (conftest's open_app loads the next while one is read)
LESSON_FORBIDDEN = {
    **{what: pattern for what, pattern in FORBIDDEN_TEXT.items() if what != "a code name"},
    "a repr": re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>|\b[A-Z]\w*\(\w+="),
}
# Widget outputs still being drawn: their text is not there yet
DRAWING = """() => Array.from(document.querySelectorAll('#rendered_cells .jp-OutputArea-output'))
    .some(e => e.textContent.includes('Loading widget'))"""
SETTLE_S = 60


def lesson_text_problems(text: str) -> list[str]:
    """What a new Director must never read in a lesson, each with the line it is on."""
    found = []
    for what, pattern in LESSON_FORBIDDEN.items():
        for match in pattern.finditer(text):
            end = text.find("\n", match.end())
            line = text[text.rfind("\n", 0, match.start()) + 1: end if end >= 0 else len(text)]
            found.append(f"{what}: {line.strip()[:140]!r}")
    return found


def test_the_lesson_text_check_can_fail():
    sample = ("role NaN\nentry None\nwound <NA>\nname: got 'x'\nsaved in /tmp/homebrew-n2ublocr\n"
              "['Goblin Sneak']\n[('bandit toughs', 1)]\n{'might': -2}\nTraceback (most recent call last)\n"
              "FightState(round=1, round_over=False)\n<workbench.fight.Fight object at 0x7f3a2c>")
    assert {problem.split(":")[0] for problem in lesson_text_problems(sample)} == set(LESSON_FORBIDDEN)
    # prose and numbers a lesson shows are fine, and so are code names
    assert lesson_text_problems("Stamina 160 — 2 targets, tiers 10 / 16 / 19; wb.build_monster(level=5)") == []


def served_text(page) -> str:
    """The lesson's text once its widgets are drawn and it has stopped changing."""
    deadline = time.monotonic() + SETTLE_S
    before = None
    while time.monotonic() < deadline:
        text = page.locator("#rendered_cells").inner_text()
        if text == before and not page.evaluate(DRAWING):
            return text
        before = text
        page.wait_for_timeout(500)
    raise AssertionError(f"the lesson's text still changed after {SETTLE_S} s")


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_as_served_shows_no_python_output(open_app, artifacts_dir, lesson):
    app = open_app(lesson, "#rendered_cells")
    try:
        text = served_text(app.page)
        (artifacts_dir / f"lesson-{Path(lesson).stem}.txt").write_text(text, encoding="utf-8")  # the evidence
        assert len(text) > 500  # the lesson's prose is there, not an empty or failed page
        assert lesson_text_problems(text) == []
        assert app.console_errors == []
    finally:
        app.close()
