"""What a test worker tells the run's summary besides passed and failed: a browser page that was not ready and
was reloaded once (tests/browser/conftest.py `open_app`), with the evidence of its first visit.

Why in the summary: the test passed on the reload, so nothing else would show that a page once stayed without
its app, and a CI run's files are out of reach while its output is not. pytest-xdist carries a report's
`user_properties` from the worker to the run's process, which writes the summary (tests/conftest.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

PAGE_RELOADED = "page reloaded"  # the user property that carries a reload's evidence


@dataclass
class Reloads:
    """This worker's reloads: at most one (a second page not ready fails its test), and the evidence not yet
    handed to a test report."""

    reloaded: bool = False
    pending: list[str] = field(default_factory=list)

    def note(self, evidence: str) -> None:
        self.reloaded = True
        self.pending.append(evidence)

    def hand_to(self, report: pytest.TestReport) -> None:
        report.user_properties.extend((PAGE_RELOADED, evidence) for evidence in self.pending)
        self.pending.clear()


def reloads_in(report: pytest.TestReport) -> list[str]:
    """The evidence of the reloads `report` carries, each after the test's name."""
    return [f"{report.nodeid}: {value}" for name, value in report.user_properties if name == PAGE_RELOADED]
