"""run_report: a browser page reloaded by `open_app` reaches the run's summary through the test's report."""

from __future__ import annotations

import pytest
from run_report import PAGE_RELOADED, Reloads, reloads_in


def report(nodeid: str = "tests/browser/test_x.py::test_y") -> pytest.TestReport:
    return pytest.TestReport(nodeid, ("tests/browser/test_x.py", 1, "test_y"), {}, "passed", None, "setup", [])


def test_a_reload_goes_to_the_next_report_once_and_is_read_back_with_the_test_name():
    reloads = Reloads()
    assert not reloads.reloaded
    reloads.note("adventure.ipynb was not ready")
    first, second = report(), report("tests/browser/test_x.py::test_z")
    reloads.hand_to(first)
    reloads.hand_to(second)
    assert reloads.reloaded  # the worker's one reload is spent
    assert first.user_properties == [(PAGE_RELOADED, "adventure.ipynb was not ready")]
    assert reloads_in(first) == ["tests/browser/test_x.py::test_y: adventure.ipynb was not ready"]
    assert second.user_properties == [] and reloads_in(second) == []


def test_other_properties_are_not_reloads():
    other = report()
    other.user_properties.append(("something else", "a value"))
    assert reloads_in(other) == []
