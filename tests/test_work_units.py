"""How `make test` shares the suite between its workers (tests/work_units.py): each browser server is started by one
worker only, and the files named for their place in the order still exist."""

from __future__ import annotations

import re
from pathlib import Path

from work_units import BROWSER_FILES_APART, LESSON_BROWSER_TESTS, WAITING_TESTS

REPO_ROOT = Path(__file__).resolve().parent.parent
BROWSER = REPO_ROOT / "tests" / "browser"
# What a browser test asks for to reach the lessons' server (`lesson_url`), itself or through `open_app`.
LESSON_SERVER = re.compile(r"\b(lesson_url|open_app)\b")


def _name(path: Path) -> str:
    return path.relative_to(REPO_ROOT).as_posix()


def test_every_browser_file_on_the_lessons_server_is_in_the_lessons_unit():
    # one outside it would start a second lessons server (and its kernel zygote) on the other worker
    asking = {_name(path) for path in BROWSER.glob("test_*.py") if LESSON_SERVER.search(path.read_text())}
    assert asking, "no browser test asks for the lessons' server: the pattern no longer matches the fixtures"
    assert asking - set(LESSON_BROWSER_TESTS) == set()
    assert set(LESSON_BROWSER_TESTS) - asking == set()  # and none of the unit uses only the other server


def test_the_files_named_for_their_place_exist():
    for name in (*LESSON_BROWSER_TESTS, *BROWSER_FILES_APART, *WAITING_TESTS):
        assert (REPO_ROOT / name).is_file(), name
