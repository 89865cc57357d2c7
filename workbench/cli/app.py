"""`workbench app`: the workbench's app pages (and its lessons) as web pages, served by Voilà.

Voilà runs each notebook in its own kernel and shows only its outputs: the sliders, stat blocks and charts.
What is served is put together by `workbench.cli.site`: the app pages shipped in the package, the lessons
(`--notebooks`, the checkout's notebooks/ by default; left out when absent, as in an installed wheel) and the
workbench's Voilà template, whose landing page lists the pages in a Director's order. The server listens on 127.0.0.1 only, on a free port unless `--port` names one, and it starts
as root too (Voilà, unlike JupyterLab, does not refuse root). The command replaces itself with the Voilà
process (`os.execv`), so Ctrl-C or a signal to its pid stops the server.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import sys
from pathlib import Path

from workbench.cli.site import TEMPLATE_NAME, prepare_site
from workbench.errors import InvalidInput, WorkbenchError

__all__ = ["NOTEBOOKS_DIR", "free_port", "page_arguments", "page_environment", "register", "run", "voila_command"]

HOST = "127.0.0.1"
# The notebooks of a source checkout (a wheel ships the library only: pass --notebooks then).
NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"


def free_port(host: str = HOST) -> int:
    """A TCP port nobody listens on now (the OS picks it); a server started at once will get it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _check_port(port: int) -> int:
    if not 1 <= port <= 65535:
        raise InvalidInput("port", port, "a TCP port number from 1 to 65535")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            raise InvalidInput("port", port, f"a TCP port free on {HOST}", reason="already in use") from None
    return port


def _check_notebooks(folder: Path) -> Path:
    folder = folder.expanduser().resolve()
    if not folder.is_dir() or not any(folder.glob("*.ipynb")):
        raise InvalidInput("notebooks", str(folder), "a folder holding the workbench's .ipynb notebooks")
    return folder


def voila_command(notebooks: Path, port: int, python: str | None = None) -> list[str]:
    """The Voilà command line `workbench app` runs (tests and scripts can start it the same way)."""
    return [
        python or sys.executable, "-m", "voila", str(notebooks),
        "--no-browser",
        f"--Voila.ip={HOST}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",  # the port asked for, or fail: never a surprise port
        "--VoilaConfiguration.classic_tree=True",  # landing page rendered by the server, no JavaScript build
        "--VoilaConfiguration.show_tracebacks=True",  # local only: a Director sees what went wrong
    ]


def page_arguments() -> list[str]:
    """The Voilà options for the workbench's pages: its template (landing page, favicon, no CDN)."""
    return [f"--template={TEMPLATE_NAME}"]


def page_environment(share: Path, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment with `share` first on JUPYTER_PATH, where Voilà looks for the template."""
    env = dict(os.environ if environ is None else environ)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(share), env.get("JUPYTER_PATH", "")) if p)
    return env


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "app", help="serve the notebooks as web apps with Voilà on 127.0.0.1 (a landing page lists them)"
    )
    parser.add_argument("--port", type=int, default=None, help="TCP port (default: a free one)")
    parser.add_argument("--notebooks", type=Path, default=None,
                        help="folder of lessons to serve beside the pages (default: the checkout's notebooks/)")
    parser.set_defaults(run=run)


def _lessons(folder: Path | None) -> Path | None:
    """The lessons folder asked for (refused when it holds no notebooks), else the checkout's, if any."""
    if folder is not None:
        return _check_notebooks(folder)
    return NOTEBOOKS_DIR if any(NOTEBOOKS_DIR.glob("*.ipynb")) else None


def run(args: argparse.Namespace) -> None:
    lessons = _lessons(args.notebooks)
    port = free_port() if args.port is None else _check_port(args.port)
    if importlib.util.find_spec("voila") is None:
        raise WorkbenchError(
            "Voilà is not installed in this environment; install the lab extra: pip install "
            "'drawsteel-workbench[lab]' (or run make app)"
        )
    root, share = prepare_site(lessons)
    command = voila_command(root, port) + page_arguments()
    print(f"workbench app: the Draw Steel workbench at http://{HOST}:{port}/ (Ctrl-C stops it)", flush=True)
    os.execve(command[0], command, page_environment(share))
