"""Browser tests: one Voilà server (started by `workbench app`) and one headless Chromium per session (per
pytest-xdist worker: `make test` runs the lessons' tests and the rest on two, see tests/conftest.py).

Every test module opens its notebook once (a page load runs the whole notebook in a new
kernel) and drives that page like a person: keyboard on sliders, mouse on pickers and
buttons. The browser resolves no host but 127.0.0.1 (`OFFLINE`, a launch flag): the tests never reach the
network, and a page of ours that asks another host fails to load it, a console error that fails its test (the
pages and lessons ask none). Pages are not routed through Playwright (`page.route`), which would turn the
browser's HTTP cache off for them, V8's cache of compiled scripts with it, and pass each of their requests
through Playwright's driver; only plain Voilà's page, whose own template asks a CDN for icon fonts, answers
those itself.

Every page of every browser context is watched (page_errors.py): a test fails at its teardown when a
console error or an uncaught page error arrived while it ran or while its page loaded; one that arrives
after the last test fails the session's teardown.

While a module drives its page, the next module's page is already loading (`open_app`, one ahead).
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from lesson_text import LESSONS, served_text
from page_errors import PageErrors
from run_report import Reloads
from voila_page import COMM_LOG_LINES, MODELS_NAMED, AppPage
from voila_server import PAGE_TIMEOUT, READY_TIMEOUT, running_server, stop_soon

from workbench.server.app import TOKEN_ENV, free_port

# Every host but this machine fails to resolve (the benchmarks' browser is offline the same way).
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
# The server asks for a token, as a Director's does; the tests choose it (`workbench app` honours $WORKBENCH_APP_TOKEN).
APP_TOKEN = secrets.token_hex(24)


def _in_browser_tests(item: pytest.Item) -> bool:
    return Path(__file__).parent in Path(item.path).parents


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/browser/ carries the `browser` mark (so `-m "not browser"` leaves it out)."""
    for item in items:
        if _in_browser_tests(item):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(trylast=True)  # after the item's own teardown
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After this worker's last browser test, close its pages and tell its servers to stop (`stop_soon`): their
    kernels are shut down while the worker goes on with the notebooks and unit tests, not at the session's end
    (a page left open would report its kernel's going as a console error)."""
    if _in_browser_tests(item) and (nextitem is None or not _in_browser_tests(nextitem)):
        if WatchedBrowser.launched is not None:
            for page in WatchedBrowser.launched.pages:
                page.close()
        stop_soon()


@pytest.fixture(scope="session")
def workbench_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test server's Director's workbench folder (workspace, saved monsters): a fresh one per run, inside
    the server's home folder as a Director's is, so the pages show it as ~/drawsteel-workbench wherever the
    checkout lies (a checkout under /tmp would otherwise put a temporary-looking path on the pages)."""
    return tmp_path_factory.mktemp("voila-home") / "drawsteel-workbench"


def _log_name(server: str) -> str:
    """One log per server and pytest-xdist worker: two servers sharing a file truncated each other's log
    while a test read it (the preheat tests count its "Kernel pool ... is filled" lines)."""
    return f"voila-server-{server}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"


@pytest.fixture(scope="session")
def server_log(artifacts_dir: Path) -> Path:
    """The log of the app pages' test server (`voila_url`)."""
    return artifacts_dir / _log_name("pages")


def _workbench_app(log: Path, workbench_home: Path, *options: str) -> Iterator[str]:
    """Start `workbench app --port P [options]` as a Director starts it; yield its base URL; stop it."""
    port = free_port()
    env = dict(os.environ, HOME=str(workbench_home.parent), WORKBENCH_HOME=str(workbench_home),
               **{TOKEN_ENV: APP_TOKEN})
    with running_server([sys.executable, "-m", "workbench.cli", "app", "--port", str(port), *options], port, log,
                        env) as url:
        yield url


@pytest.fixture(scope="session")
def voila_url(server_log: Path, workbench_home: Path) -> Iterator[str]:
    """Base URL of the app pages' server: `workbench app` exactly as a Director starts it, the workbench page
    preheated (the workbench, journey, preheat, landing and security tests)."""
    yield from _workbench_app(server_log, workbench_home)


@pytest.fixture(scope="session")
def lesson_log(artifacts_dir: Path) -> Path:
    """The log of the lessons' test server (`lesson_url`)."""
    return artifacts_dir / _log_name("lessons")


@pytest.fixture(scope="session")
def lesson_url(lesson_log: Path, workbench_home: Path) -> Iterator[str]:
    """Base URL of the lessons' server (`open_app`): `workbench app --no-preheat`. The lessons are never
    preheated, and the workbench page's preheated kernel would cost CPU the suite needs, for a page no lesson
    test opens (under `make test` this server and `voila_url`'s run on two workers)."""
    yield from _workbench_app(lesson_log, workbench_home, "--no-preheat")


@pytest.fixture(scope="session")
def app_token() -> str:
    """The token the test server asks for (in a URL: `?token=...`)."""
    return APP_TOKEN


class Tab:
    """What `browser.new_context(viewport=...)` gives a test: pages of its own, at the size it asks for, in the
    worker's one browser profile. `close()` closes those pages, not the profile."""

    def __init__(self, profile: Any, viewport: dict[str, int] | None) -> None:
        self._profile = profile
        self._viewport = viewport
        self.pages: list[Any] = []

    def new_page(self) -> Any:
        page = self._profile.new_page()
        if self._viewport is not None:
            page.set_viewport_size(self._viewport)
        self.pages.append(page)
        return page

    @property
    def request(self) -> Any:
        """HTTP requests with the profile's cookies (those of the pages' visits)."""
        return self._profile.request

    def close(self) -> None:
        for page in self.pages:
            if not page.is_closed():
                page.close()


class WatchedBrowser:
    """This worker's Chromium: one profile kept on disk for the session, as a Director's browser keeps one, so
    a page's later visits find its scripts in the HTTP cache and their compiled code in V8's code cache. Fresh
    in-memory contexts would compile every script of every page again. The
    tests' pages share its cookies as a Director's tabs do (each page still gets a kernel of its own); every page
    reports its errors and logs its widgets' messages."""

    launched: Any = None  # this worker's profile (a persistent Playwright context), while it runs

    def __init__(self, profile: Any) -> None:
        self._profile = profile

    def new_context(self, viewport: dict[str, int] | None = None) -> Tab:
        return Tab(self._profile, viewport)

    def new_page(self, viewport: dict[str, int] | None = None) -> Any:
        return self.new_context(viewport).new_page()


@pytest.fixture(scope="session")
def page_errors() -> PageErrors:
    return PageErrors()


@pytest.fixture(scope="session")
def browser(chromium_launch_kwargs: dict, page_errors: PageErrors,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[WatchedBrowser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        options = {**chromium_launch_kwargs, "args": [*chromium_launch_kwargs.get("args", ()), OFFLINE]}
        profile = playwright.chromium.launch_persistent_context(tmp_path_factory.mktemp("chromium-profile"), **options)
        profile.add_init_script(path=str(COMM_LOG))
        page_errors.watch(profile)
        for blank in profile.pages:  # the window a persistent profile opens with
            blank.close()
        WatchedBrowser.launched = profile
        try:
            yield WatchedBrowser(profile)
        finally:
            WatchedBrowser.launched = None
            profile.close()
    late = page_errors.take()
    assert not late, "console or page errors after the last browser test:\n" + "\n".join(late)
    stale = page_errors.stale_known()
    assert not stale, "known page errors that no longer happen (delete them from page_errors.KNOWN):\n" + \
        "\n".join(f"{k.message!r} ({k.why})" for k in stale)


FAILED = pytest.StashKey[bool]()
RELOADS = Reloads()  # this worker's page reloaded once by `until_ready`
UntilReady = Callable[[AppPage, str, Path], None]  # `until_ready(app, ready, server_log)`


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Mark a browser test whose body failed, for `_no_page_errors` to keep its pages' evidence; hand a page's
    reload (`open_app`, while the test's fixtures were set up) to the test's report, for the run's summary."""
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    RELOADS.hand_to(report)
    return report


@pytest.fixture(autouse=True)
def _no_page_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test (at its teardown) on any console error or uncaught page error since the last check; keep
    the evidence of every page still open when the test failed (`_save_comm_logs`)."""
    yield
    if "browser" not in request.fixturenames:
        return  # this test opened no browser (the session's browser fixture is not set up by it)
    page_errors = request.getfixturevalue("page_errors")
    errors = page_errors.take()
    artifacts_dir = request.getfixturevalue("artifacts_dir")
    if request.node.stash.get(FAILED, False) and WatchedBrowser.launched is not None:
        _save_comm_logs(WatchedBrowser.launched.pages, artifacts_dir, f"{request.node.name} failed")
    elif any(MODEL_NOT_FOUND in error for error in errors):
        pages = [page for page, seen in page_errors.by_page.items() if any(MODEL_NOT_FOUND in e for e in seen)]
        _save_comm_logs(pages, artifacts_dir, MODEL_NOT_FOUND)
    if errors:
        pytest.fail("console or page errors in the browser:\n" + "\n\n".join(errors), pytrace=False)


def _modules_in_order(items: list[pytest.Item]) -> list[tuple[str, dict[str, str]]]:
    """Each browser test module's NOTEBOOK and ALLOWED_ERRORS (message -> why; see page_errors.allow), one
    per module that has a NOTEBOOK, in the order the modules run; a module that opens several pages in turn
    names them in NOTEBOOKS, each then loading while the one before it is checked. A module that only reads
    lessons' text (READS_LESSONS) opens only those no module before it opened: `open_app` read them there."""
    order: list[tuple[str, dict[str, str]]] = []
    modules: set[object] = set()
    for item in items:
        module = getattr(item, "module", None)
        if module in modules or not _in_browser_tests(item):
            continue
        notebooks = tuple(getattr(module, "NOTEBOOKS", ())) or tuple(filter(None, [getattr(module, "NOTEBOOK", None)]))
        if getattr(module, "READS_LESSONS", False):
            opened = {notebook for notebook, _ in order}
            notebooks = tuple(notebook for notebook in notebooks if notebook not in opened)
        if notebooks:
            modules.add(module)
            allowed = dict(getattr(module, "ALLOWED_ERRORS", {}))
            order.extend((notebook, allowed) for notebook in notebooks)
    return order


# Every page records its comm messages with the kernel, for the evidence of a page that never becomes ready
# or shows MODEL_NOT_FOUND; COMM_LOG_LINES (voila_page) reads the record
COMM_LOG = Path(__file__).with_name("comm_log.js")
MODEL_NOT_FOUND = "widget model not found"

# What a lesson's outputs show when the widget manager has no model for them ("widget model not found")
WIDGET_OUTPUTS = """() => Array.from(document.querySelectorAll('#rendered_cells .jp-OutputArea-output'))
    .filter(e => e.textContent.includes('Error displaying widget') || e.textContent.includes('Loading widget'))
    .map(e => e.textContent.trim().slice(0, 120))"""


def _save_comm_logs(pages: Iterable[Any], artifacts_dir: Path, why: str) -> None:
    """Each open page's talk with its kernel (comm_log.js) and what it shows go to test-artifacts/comm-log-<page's
    notebook>[-N].txt and .png, for whoever looks into why (a failed test, "widget model not found"); two pages of
    one notebook (two visits of the workbench page) each keep their own."""
    used: set[str] = set()
    for number, page in enumerate(pages, start=1):
        if page is None or page.is_closed():
            continue
        stem = f"comm-log-{Path(page.url.split('?')[0]).stem}"
        stem = f"{stem}-{number}" if stem in used else stem
        used.add(stem)
        lines = [f"page {page.url}", f"kept because: {why}"]
        try:
            lines += [*page.evaluate(COMM_LOG_LINES), "the widget models named above:", *page.evaluate(MODELS_NAMED)]
            page.screenshot(path=str(artifacts_dir / f"{stem}.png"))
        except Exception as exc:  # the page may be going: say so rather than lose the failure
            lines.append(f"(the page could not be read: {exc})")
        (artifacts_dir / f"{stem}.txt").write_text("\n".join(map(str, lines)) + "\n")


EVIDENCE_TAIL = 15  # lines of each part of a not-ready page's evidence that its failure message repeats
# What every Voilà page's console says of JupyterLab's shared modules' versions, in the failure message left out
SHARED_MODULE_NOISE = ("Unsatisfied version", "No satisfying version", "Available versions:")


# Where a page that is not ready stopped: its cells shown or still hidden (Voilà shows them once its theme and the
# whole HTML are in), the charts' JavaScript run, the outputs still loading their widget, the charts drawn, and
# how many elements the ready selector finds, visible or not.
PAGE_STATE = """ready => {
  const cells = document.getElementById("rendered_cells");
  const outputs = Array.from(document.querySelectorAll("#rendered_cells .jp-OutputArea-output"));
  return [
    `document ${document.readyState}; cells ${cells ? getComputedStyle(cells).display : "missing"}; `
      + `spinner ${document.getElementById("loading") ? "shown" : "gone"}; theme loaded ${!!window.themeLoaded}; `
      + `HTML finished ${!!window.cellLoaded || (cells && cells.style.display !== "none")}`,
    `charts' JavaScript run ${!!window.workbenchFigureView}; charts drawn `
      + `${document.querySelectorAll(".js-plotly-plot .main-svg").length}; outputs ${outputs.length}, loading `
      + `${outputs.filter(e => e.textContent.includes("Loading widget")).length}`,
    `the ready selector finds ${document.querySelectorAll(ready).length}`,
  ];
}"""


def _save_evidence(app: AppPage, page_errors: PageErrors, artifacts_dir: Path, server_log: Path, ready: str) -> str:
    """A page that never became ready: its whole console (every message, with times), the outputs that show
    no widget, its talk with its kernel and a screenshot go to test-artifacts/<notebook>-not-ready.* for whoever
    looks into it. Returns the end of each, after the end of the server's log, for the failure's message: a CI
    run's artifacts may be out of reach, its output is not (and a CI report may keep only its end, so the page's
    talk with its kernel comes last)."""
    stem = Path(app.notebook).stem
    console = page_errors.console_log.get(app.page, [])
    try:
        told = [("the server's log", server_log.read_text(errors="replace").splitlines())]
    except OSError as exc:
        told = [("the server's log could not be read", [str(exc)])]
    told.append(("console", [line for line in console if not any(word in line for word in SHARED_MODULE_NOISE)]))
    try:
        page = [("where the page stopped", app.js(PAGE_STATE, ready)),
                ("outputs without their widget", app.js(WIDGET_OUTPUTS)),
                ("the widget models named below", app.js(MODELS_NAMED)),
                ("the page and its kernel (comm_log.js)", app.js(COMM_LOG_LINES))]
        app.page.screenshot(path=str(artifacts_dir / f"{stem}-not-ready.png"), full_page=True)
    except Exception as exc:  # the page may be gone: the console is the evidence then
        page = [("the page could not be read", [str(exc)])]
    (artifacts_dir / f"{stem}-not-ready.txt").write_text("\n".join(
        [f"page {app.page.url}", "console:", *console, *(line for name, lines in page for line in (f"{name}:", *lines))])
        + "\n")
    return "\n".join(f"{name} ({len(lines)} lines{f', the last {EVIDENCE_TAIL}' * (len(lines) > EVIDENCE_TAIL)}):\n" + "\n".join(
        f"  {line[:300]}" for line in lines[-EVIDENCE_TAIL:]) for name, lines in [*told, *page])


@pytest.fixture(scope="session")
def lesson_texts() -> dict[str, str]:
    """Each lesson's text as served (lesson_text.served_text), read by `open_app` where the lesson is first
    opened, for test_browser_lessons to check: lesson name -> text."""
    return {}


@pytest.fixture(scope="session")
def until_ready(page_errors: PageErrors, artifacts_dir: Path) -> UntilReady:
    """`until_ready(app, ready, server_log)`: wait until `app`'s page has loaded and shows `ready`. A page whose app
    is not drawn READY_TIMEOUT after its load has stopped: its evidence is saved (`_save_evidence`, with the end of
    `server_log`) and it is reloaded once, the evidence kept for the run's summary (`RELOADS`); a second visit
    not ready, or a second such page on this worker, fails with its evidence."""

    def wait(app: AppPage, ready: str, server_log: Path) -> None:
        for visit in ("first", "second"):
            try:
                app.page.wait_for_load_state("load", timeout=PAGE_TIMEOUT)
                app.page.wait_for_selector(ready, state="visible", timeout=READY_TIMEOUT)
                return
            except Exception as exc:
                evidence = _save_evidence(app, page_errors, artifacts_dir, server_log, ready)
                stuck = f"{app.notebook} was not ready ({ready}) at its {visit} visit: {exc}\n{evidence}"
                if visit == "second" or RELOADS.reloaded:
                    raise AssertionError(stuck) from exc
                RELOADS.note(stuck)
                app.page.reload(timeout=PAGE_TIMEOUT, wait_until="commit")

    return wait


@pytest.fixture(scope="session")
def open_app(request: pytest.FixtureRequest, browser: WatchedBrowser, lesson_url: str, artifacts_dir: Path,
             page_errors: PageErrors, lesson_texts: dict[str, str],
             until_ready: UntilReady, lesson_log: Path) -> Iterator:
    """`open_app(notebook, ready_selector)` -> an `AppPage` with the notebook rendered and its app ready.

    A page load waits mostly for Voilà to run the notebook in a new kernel, so once a page is ready the
    next test module's page starts loading (one ahead, in a page of its own) while this module's tests
    drive theirs. A lesson's text is read (`lesson_texts`) the first time it is opened, before any test moves
    its widgets: it is already open there, and test_browser_lessons then need not open it again.
    """
    order = _modules_in_order(request.session.items)
    done = 0  # modules of `order` that have opened their page
    loading: dict[str, tuple[AppPage, Any]] = {}  # notebook -> (its page, the server's response)
    pages: list[AppPage] = []

    def start(notebook: str, allowed: dict[str, str]) -> tuple[AppPage, Any]:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        app = AppPage(page, notebook, artifacts_dir, page_errors)
        for message, why in allowed.items():
            app.allow_error(message, why)
        pages.append(app)
        page_errors.notebooks_opened.add(notebook)
        # "commit": the response has begun; the page goes on loading while the tests go on
        response = page.goto(f"{lesson_url}/voila/render/{notebook}?token={APP_TOKEN}", timeout=PAGE_TIMEOUT,
                             wait_until="commit")
        return app, response

    def open_(notebook: str, ready: str) -> AppPage:
        nonlocal done
        mine = next((i for i in range(done, len(order)) if order[i][0] == notebook), None)
        allowed = order[mine][1] if mine is not None else {}
        app, response = loading.pop(notebook, None) or start(notebook, allowed)
        assert response is not None and response.ok, f"GET {notebook}: {response and response.status}"
        until_ready(app, ready, lesson_log)
        if mine is not None:
            done = mine + 1
            if done < len(order) and order[done][0] not in loading:
                loading[order[done][0]] = start(*order[done])
        if notebook in LESSONS and notebook not in lesson_texts:
            lesson_texts[notebook] = served_text(app.page)
        return app

    yield open_
    for app in pages:
        app.close()
