"""Every console error and uncaught page error of every page the browser tests open.

`PageErrors.watch(context)` listens on a browser context (all its pages, the ones opened later too);
`tests/browser/conftest.py` hands every test a browser whose pages are all watched and fails a test
at its teardown when an error arrived while it ran (or while a page it waited for loaded), so no error
goes unseen. `console_errors(page)` is one page's share, for tests that assert on their own page.

KNOWN lists faults that are ours but cannot be fixed under tests/ (each entry says why): such an error
is set apart, never silently dropped, and as with `xfail_strict` an entry that no longer shows up in a
run that opened all its pages fails the run, so it is deleted as soon as the fix lands. It is empty.

`allow(page, text, why)` sets apart one named message on one page only, for a test that checks
something else on a page it shares (the builder's chart beside the ability editor); every other page,
and every other message on that page, still fails.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class KnownError:
    message: str  # a substring of the error message
    source: str  # a substring of its stack (where it is thrown)
    notebooks: frozenset[str]  # the pages that raise it: a run that opened all of them must see it
    why: str


KNOWN: tuple[KnownError, ...] = ()


@dataclass
class PageErrors:
    errors: list[str] = field(default_factory=list)  # not yet reported to a test
    by_page: dict[Any, list[str]] = field(default_factory=lambda: defaultdict(list))
    known_seen: dict[KnownError, int] = field(default_factory=lambda: defaultdict(int))
    notebooks_opened: set[str] = field(default_factory=set)
    allowed: dict[Any, list[str]] = field(default_factory=lambda: defaultdict(list))
    set_apart: list[str] = field(default_factory=list)  # allowed ones that happened (for the record)
    # every console message of each page, errors or not, with its time: the evidence saved when a page
    # never becomes ready (conftest.open_app)
    console_log: dict[Any, list[str]] = field(default_factory=lambda: defaultdict(list))

    def watch(self, context: Any) -> None:
        context.on("console", self._console)
        context.on("weberror", self._web_error)

    def allow(self, page: Any, message: str, why: str) -> None:
        """Let `message` (a substring) on `page` alone not fail the run; `why` is for the reader."""
        assert why, "say why this error may be set apart"
        self.allowed[page].append(message)

    def console_errors(self, page: Any) -> list[str]:
        """The console and page errors of `page` so far (KNOWN and allowed ones left out)."""
        return list(self.by_page.get(page, []))

    def _console(self, message: Any) -> None:
        self.console_log[message.page].append(f"{time.strftime('%H:%M:%S')} {message.type}: {message.text}")
        if message.type == "error":
            where = message.location.get("url", "")
            self._add(message.page, f"console.error: {message.text} ({where})", message.text, "")

    def _web_error(self, web_error: Any) -> None:
        error = web_error.error
        stack = error.stack or ""
        self._add(web_error.page, f"page error: {error}\n{stack}", str(error), stack)

    def _add(self, page: Any, report: str, message: str, stack: str) -> None:
        for known in KNOWN:
            if known.message in message and known.source in stack:
                self.known_seen[known] += 1
                return
        url = page.url if page is not None else "(no page)"
        if any(allowed in message for allowed in self.allowed.get(page, ())):
            self.set_apart.append(f"{url}: {report}")
            return
        self.errors.append(f"{url}: {report}")
        self.by_page[page].append(report)

    def take(self) -> list[str]:
        """The errors not reported yet (reported now)."""
        taken, self.errors = self.errors, []
        return taken

    def stale_known(self) -> list[KnownError]:
        """Known faults whose pages were all opened in this run but which never showed: fixed, delete the entry.

        (Only a run that opened all of them judges: a page opened for one quick test may close before it.)
        """
        return [k for k in KNOWN if k.notebooks <= self.notebooks_opened and not self.known_seen[k]]
