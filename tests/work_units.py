"""How `make test` shares the suite between its pytest-xdist workers (tests/conftest.py schedules by these):
which files make one unit of work, and which go out first."""

from __future__ import annotations

BROWSER_TESTS = "tests/browser/"
# Browser test files that start a server of their own and use nothing of the session's `workbench app` server:
# each is a unit apart, so another worker runs it (with its own Chromium) beside the long browser unit.
BROWSER_FILES_APART = ("tests/browser/test_browser_server_edges.py",)
# The browser tests are two units, each on one worker with its own `workbench app` server and Chromium: the
# tests of `lesson_url`'s server, without preheated kernels (the lessons through `open_app`, the encounter page's
# suggestions, the fight pages), and the rest (the workbench page, the journey, preheating, the landing page,
# the server's checks). One unit was the long pole while the other worker idled.
LESSON_BROWSER_TESTS = tuple(f"tests/browser/test_browser_{name}.py" for name in (
    "adventure", "builder", "calibration", "encounter", "explorer", "export", "fight", "fight_saving", "fight_solo",
    "homebrew", "lessons", "malice", "solos", "start_here", "suggest"))
# Test files that mostly wait (on kernels and zygotes they start, on servers that trickle): they go out while the
# other worker still drives its browser, whose work then fills their waits, instead of beside each other at the end.
WAITING_TESTS = ("tests/test_kernel_zygote.py", "tests/test_kernel_zygote_loss.py", "tests/test_io_fetch.py")
# Longest units first: the browser tests, the waiting ones, then the notebooks.
ORDER: tuple[tuple[str, ...], ...] = ((BROWSER_TESTS,), WAITING_TESTS, ("notebooks/",))
# The lessons' text check reads each lesson where another module opened it (tests/browser/lesson_text.py), so it
# runs after them and opens only the lessons none of them drives.
LESSON_TEXT_TESTS = "tests/browser/test_browser_lessons.py"
