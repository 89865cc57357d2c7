"""Running `workbench ...` for the CLI tests (tests/test_cli_*.py): in this process, or as the real console entry point.

Why in this process: the suite is CPU-bound, and a fresh `python -m workbench.cli` costs an interpreter's
start and the workbench's imports for every test.
`run_cli` calls `workbench.cli.main` instead and hands back what `subprocess.run(..., capture_output=True,
text=True)` would: the exit status, stdout and stderr, so a test's assertions read the same either way.
Each command's test file keeps one test on `run_entry_point`, a fresh process through `python -m workbench.cli`,
so the entry point itself (`__main__`, the status reaching the shell, the package imported from nothing) stays covered.

What differs in this process, and how it is handled:

* stdout and stderr are text buffers (no tty and no file descriptor, as with a pipe: nothing the CLI prints
  depends on a terminal; `terminal_safe` escapes controls whatever the output is).
* `SystemExit` (argparse's refusals) becomes the exit status as Python's own exit makes it: None is 0, a
  number is itself, anything else is printed on stderr and gives 1. Any other exception propagates: the test
  fails with its traceback (the real process would print it and exit 1).
* The environment and the working folder are this process's: a test that gave its subprocess `env=` or
  `cwd=` sets them with `monkeypatch` instead.
* A warning is an error in this suite (pyproject's `filterwarnings`), so a warning the command raises fails
  the test here, where the subprocess would only have printed it.
* `os.exec*` is refused with an AssertionError: a command that would replace its process (`workbench app`
  starting Voilà) would replace the test run. A test of one that gets that far must use `run_entry_point`.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import NoReturn
from unittest import mock

from workbench.cli import main

__all__ = ["run_cli", "run_entry_point"]

ENTRY_POINT = (sys.executable, "-m", "workbench.cli")
_EXEC_FUNCTIONS = ("execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe")


@contextlib.contextmanager
def _no_exec(args: tuple[str, ...]) -> Iterator[None]:
    """`os.exec*` raises instead of replacing this process (and the whole test run) with another program."""

    def refuse(*exec_args: object) -> NoReturn:
        raise AssertionError(f"`workbench {' '.join(args)}` would replace the test process: {exec_args[:1]}")

    with contextlib.ExitStack() as stack:
        for name in _EXEC_FUNCTIONS:
            if hasattr(os, name):
                stack.enter_context(mock.patch.object(os, name, refuse))
        yield


def _exit_status(code: object, stderr: io.StringIO) -> int:
    """The status `raise SystemExit(code)` gives a Python process (a code other than None or a number is printed)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=stderr)
    return 1


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`workbench ARGS` run by `workbench.cli.main` in this process, its output captured as a subprocess's."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with _no_exec(args), contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            returncode = main(list(args))
        except SystemExit as exit_:
            returncode = _exit_status(exit_.code, stderr)
    return subprocess.CompletedProcess(list(args), returncode, stdout.getvalue(), stderr.getvalue())


def run_entry_point(*args: str, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m workbench.cli ARGS` in a fresh process: the console entry point as a shell runs it."""
    return subprocess.run([*ENTRY_POINT, *args], capture_output=True, text=True, timeout=timeout)
