"""Suite-wide test set-up (owned by the build; domain fixtures belong elsewhere).

* Jupyter, IPython and matplotlib state go to a throw-away folder, never to the
  user's real $HOME (nbval starts kernels; Voilà/JupyterLab servers may be
  started by browser tests).  Set at import time, before any kernel starts.
* Hypothesis profiles: ``dev`` (default) and ``ci`` (chosen by .ci/run through
  HYPOTHESIS_PROFILE=ci).
* ``chromium_launch_kwargs``: how to launch a headless Chromium with Playwright, the
  printer's way (Debian's headless shell or chromium when present, else Playwright's own build).
* ``artifacts_dir``: ``test-artifacts/`` at the repository root (git-ignored),
  for screenshots, traces and timing reports.
* Parallel runs (``make test`` runs ``pytest -n <CPUs + 1> --dist loadfile``, pytest-xdist):
  a notebook's cells, a module's tests stay on one worker (one kernel, one
  module fixture), tests/browser/ is two units of work (each one Voilà server,
  one Chromium: the lessons' server's tests, the rest; see work_units.py), and the
  longest units are handed out first, the tests that mostly wait next.
* The garbage collector (``pytest_collection_finish``): what is loaded by then is frozen, and the youngest
  generation collected every 50,000 allocations instead of 700.
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from run_report import reloads_in
from work_units import BROWSER_FILES_APART, BROWSER_TESTS, LESSON_BROWSER_TESTS, LESSON_TEXT_TESTS, ORDER

REPO_ROOT = Path(__file__).resolve().parent.parent

# --- keep Jupyter / IPython out of $HOME -----------------------------------------
_SCRATCH_HOME = Path(tempfile.mkdtemp(prefix="workbench-test-home-"))
atexit.register(shutil.rmtree, _SCRATCH_HOME, ignore_errors=True)

for _var, _sub in {
    "JUPYTER_CONFIG_DIR": "jupyter/config",
    "JUPYTER_DATA_DIR": "jupyter/data",
    "JUPYTER_RUNTIME_DIR": "jupyter/runtime",
    "IPYTHONDIR": "ipython",
    "MPLCONFIGDIR": "matplotlib",
    "XDG_CONFIG_HOME": "xdg-config",  # Chromium's profile state, among others
}.items():
    (_SCRATCH_HOME / _sub).mkdir(parents=True, exist_ok=True)
    os.environ[_var] = str(_SCRATCH_HOME / _sub)
# The Director's workspace too: a test never reads or writes the real ~/drawsteel-workbench.
(_SCRATCH_HOME / "workspace").mkdir()
os.environ["WORKBENCH_HOME"] = str(_SCRATCH_HOME / "workspace")
os.environ["JUPYTER_PLATFORM_DIRS"] = "1"  # silences jupyter_core's migration warning
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # quiet debugpy in kernels

# The nbval sanitiser file, found from the repo root whatever the working directory.
_SANITIZE = REPO_ROOT / "nbval-sanitize.cfg"


def pytest_configure(config: pytest.Config) -> None:
    if _SANITIZE.is_file() and getattr(config.option, "nbval_sanitize_with", "unset") is None:
        config.option.nbval_sanitize_with = str(_SANITIZE)
    _nbval_kernels_on_unix_sockets()
    _kernels_from_the_zygote()


def _nbval_kernels_on_unix_sockets() -> None:
    """nbval's kernels talk over Unix sockets, as `workbench app`'s do (`server.app.kernel_transport_arguments`).

    Over TCP a kernel's five ports are picked free a moment before the kernel binds them, and under the
    parallel suite another connection took one in between ("Address already in use": the kernel failed to
    start). nbval makes its KernelManager itself, with no configuration, so its module's name is pointed at a
    subclass; the sockets' paths are absolute, in a folder of this process's under the app's socket folder (a
    relative prefix would be read from the kernel's working folder, the notebook's, by the kernel and from ours
    by the client).
    """
    try:
        import nbval.kernel
        from jupyter_client.manager import KernelManager
    except ImportError:  # pragma: no cover - nbval is in the [test] extra
        return
    from workbench.server.app import kernel_socket_folder

    folder = kernel_socket_folder()  # the app's rule: a folder short enough for a socket's path (None: TCP)
    if folder is None:
        return
    sockets = Path(tempfile.mkdtemp(prefix="nbval-", dir=folder))
    atexit.register(shutil.rmtree, sockets, ignore_errors=True)

    class UnixSocketKernelManager(KernelManager):
        def __init__(self, **kwargs: object) -> None:
            super().__init__(transport="ipc", ip=str(sockets / "kernel"), **kwargs)

    nbval.kernel.KernelManager = UnixSocketKernelManager


def _kernels_from_the_zygote() -> None:
    """The suite's kernels (nbval's among them) are forked from the zygote, as `workbench app`'s are, by the
    app's own rule (`server.app.kernel_provisioner`: only when its entry point is installed)."""
    try:
        from jupyter_client.provisioning import KernelProvisionerFactory
    except ImportError:  # pragma: no cover - jupyter_client comes with nbval, in the [test] extra
        return
    from workbench.server.app import kernel_provisioner

    name = kernel_provisioner()
    if name is not None:
        KernelProvisionerFactory.instance().default_provisioner_name = name


# --- Hypothesis ---------------------------------------------------------------------
try:
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - hypothesis is in the [test] extra
    pass
else:
    settings.register_profile("dev", deadline=None)
    settings.register_profile(
        "ci",
        deadline=None,
        max_examples=200,
        derandomize=True,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# --- the garbage collector ---------------------------------------------------------
# The tests build thousands of widgets, figures and models, nearly all freed by their reference counts, while the
# cyclic collector passes again and again over the modules, fixtures and Hypothesis's caches that stay loaded.
# Frozen, they are no longer scanned; collected less often, the young objects cost less.
GC_THRESHOLDS = (50_000, 20, 20)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


# --- what the workers report besides passed and failed (run_report.py) ---------------
RELOADED_PAGES: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    RELOADED_PAGES.extend(reloads_in(report))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Every browser page that was not ready and was reloaded once, with its evidence: its test passed, yet a
    page stayed without its app."""
    if RELOADED_PAGES:
        terminalreporter.section("browser pages not ready at their first visit, reloaded once", sep="!")
        for evidence in RELOADED_PAGES:
            terminalreporter.write_line(evidence)


# --- parallel runs (pytest-xdist): the units of work are in work_units.py ------------
def _unit_rank(nodeid: str) -> int:
    return next((rank for rank, prefixes in enumerate(ORDER) if nodeid.startswith(prefixes)), len(ORDER))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests first (the lessons' text check last of them), then the tests that mostly wait, the
    notebooks and the rest (stable: each file keeps its order)."""
    items.sort(key=lambda item: (_unit_rank(item.nodeid), item.nodeid.startswith(LESSON_TEXT_TESTS)))


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: harmless when xdist is not installed
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`--dist loadfile`, except that all of tests/browser/ is one unit and units go out in collection order.

    Without this conftest (e.g. `pytest -n 2 --dist loadfile notebooks/`) plain loadfile still keeps each
    notebook on one worker.
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class WorkbenchScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith(LESSON_BROWSER_TESTS):
                return BROWSER_TESTS + "lessons"
            if nodeid.startswith(BROWSER_TESTS) and not nodeid.startswith(BROWSER_FILES_APART):
                return BROWSER_TESTS
            return super()._split_scope(nodeid)

    config.option.loadscopereorder = False  # keep the order set above: the longest units first
    return WorkbenchScheduling(config, log)


# --- browser ------------------------------------------------------------------------
@pytest.fixture(scope="session")
def chromium_launch_kwargs() -> dict:
    """Keyword arguments for ``playwright.chromium.launch(**kwargs)``: the printer's own
    (``workbench.export.printout.chromium_launch_options``: Debian's headless shell or chromium, else
    Playwright's build; ``make browser`` installs one or the other). If neither exists the launch fails
    loudly: browser tests are never skipped.
    """
    from workbench.export.printout import chromium_launch_options

    return chromium_launch_options()


@pytest.fixture(scope="session")
def browser_type_launch_args(chromium_launch_kwargs: dict) -> dict:
    """The same, under the name pytest-playwright looks for (if it is ever used)."""
    return dict(chromium_launch_kwargs)


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    path = REPO_ROOT / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
