"""Every lesson (notebooks/*.ipynb) as `workbench app` serves it to a new Director: its text read in the browser.

A lesson's page shows its Markdown and its cells' outputs, never the code. What the page must never show is
what the app pages' text check refuses (test_browser_pages.FORBIDDEN_TEXT: NaN, None, `<NA>`, a temporary
path, a Python tuple, list or dict, a traceback) and a Python object's repr; a missing value is written as
"—" or in words. Code names are not refused here: a lesson teaches the library, and its prose names
`wb.build_monster` and its fields.

The text is read where the lesson is first opened (`open_app`, lesson_text.py): a module that drives a lesson
has it read as it opens, before its first step, and this module opens only the lessons not opened before it
(READS_LESSONS; tests/conftest.py runs it after the other lessons' modules).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lesson_text import LESSONS
from test_browser_pages import FORBIDDEN_TEXT

NOTEBOOKS = LESSONS  # opened in this order (conftest's open_app loads the next while one is read)
READS_LESSONS = True  # of NOTEBOOKS, opens only those no module before this one opened
LESSON_FORBIDDEN = {
    **{what: pattern for what, pattern in FORBIDDEN_TEXT.items() if what != "a code name"},
    "a repr": re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>|\b[A-Z]\w*\(\w+="),
}


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


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_as_served_shows_no_python_output(open_app, lesson_texts, artifacts_dir, lesson):
    if lesson not in lesson_texts:  # no module before this one opened it: opened here, its text read as it opens
        app = open_app(lesson, "#rendered_cells")
        try:
            assert app.console_errors == []
        finally:
            app.close()
    text = lesson_texts[lesson]
    (artifacts_dir / f"lesson-{Path(lesson).stem}.txt").write_text(text, encoding="utf-8")  # the evidence
    assert len(text) > 500  # the lesson's prose is there, not an empty or failed page
    assert lesson_text_problems(text) == []
