"""The server of `workbench app`: the workbench's app pages (and its lessons) as web pages, served by Voilà.

Voilà runs each notebook in its own kernel and shows only its outputs: the sliders, stat blocks and charts.
What is served is put together by `workbench.server.site`: the app pages shipped in the package, the lessons
(`--notebooks`, the checkout's notebooks/ by default; left out when absent, as in an installed wheel) and the
workbench's Voilà template, whose landing page lists the pages in a Director's order. The server listens on
127.0.0.1 only, on a free port unless `--port` names one, and it starts as root too (Voilà, unlike JupyterLab, does
not refuse root). The command replaces itself with the Voilà process (`os.execv`), so Ctrl-C or a signal to its pid
stops the server.

Security: the server asks for a token, printed in the URL it shows (`http://127.0.0.1:P/?token=…`; a fresh
random one each start, or `$WORKBENCH_APP_TOKEN`), the only way in (no login page), which its log never shows; a
request whose Host header is not this machine (DNS rebinding) is refused, and so is an API call or any websocket
without this server's Origin, token or not; no page sends its address (and token) to another site as `Referer`.
Voilà's own command line cannot say so (it serves with no token and `allow_remote_access`), so the server is
started through `serve()` below, which hands Voilà those settings (`guard_settings`, `GuardedIdentityProvider`)
and adds the checks Voilà has no setting for (`patches`).

Speed: the workbench page (every tool on one page, `site.WORKBENCH_PAGE`) has one preheated kernel waiting
(Voilà's kernel pool, `preheat_arguments`): it has already run the page's notebook, so a visit gets the page
without waiting for a fresh kernel to start and run it; after each visit Voilà starts the next one. Each tool's
own page (the fight's player view for a second screen among them) and the lessons are not preheated: each starts
its kernel when opened. `--no-preheat` serves without the pool. A preheated kernel learns of its visit through Voilà's
`/voila/query/<kernel>` websocket, a plain tornado handler outside the server's token and Host checks: `serve`
puts the token, Host and Origin checks on it (`patches.guard_request_info`). An app page's browser side loads no
plotly renderer extension (`app_page_config`): its charts are FigureWidgets, which bring their own.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import re
import secrets
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from jupyter_server.auth.identity import PasswordIdentityProvider

from workbench.errors import InvalidInput, WorkbenchError
from workbench.rules.limits import typed_whole
from workbench.server import patches
from workbench.server.site import (
    LANDING_VARIABLE,
    NOTARY,
    PLOTLY_BUNDLE_VARIABLE,
    TEMPLATE_NAME,
    WORKBENCH_PAGE,
    lessons_problem,
    pages,
    plotly_bundle,
    prepare_site,
    prune_site_folders,
    read_landing,
    site_folder,
)
from workbench.server.switches import off

__all__ = ["KERNEL_PROVISIONER", "NEEDS_TOKEN_PAGE", "NOTEBOOKS_DIR", "PREHEAT_OPTION", "TOKEN_ENV",
           "GuardedIdentityProvider", "app_page_config", "free_port", "guard_settings", "hide_in_logs", "kernel_grace",
           "kernel_pools", "kernel_provisioner", "kernel_provisioner_arguments", "kernel_socket_folder", "kernel_transport_arguments", "log_request",
           "new_token", "page_arguments", "page_environment", "preheat_arguments", "serve", "start", "voila_command"]

HOST = "127.0.0.1"
# The template's page for a visit without the token (there is no login page: the token in the address is the way in)
NEEDS_TOKEN_PAGE = "/voila/templates/workbench/static/needs-token.html"
# A visit's kernel (~100 MB) whose page is gone (closed, crashed, its machine asleep) is shut down this many
# seconds after its last message, checked every CULL_INTERVAL_S: long enough for a page on a busy machine to
# connect after it was rendered and for a dropped websocket to reconnect, short enough that abandoned visits do
# not pile up.
CULL_IDLE_S = 60
IOPUB_WAIT_S = 60  # the longest a page's cell waits for its output after its reply (nbclient's iopub_timeout)
CULL_INTERVAL_S = 15
# Another grace in seconds (a test's server waits less for the shutdown it checks); the check runs 4 times in it
GRACE_ENV = "WORKBENCH_KERNEL_GRACE"
SHUTDOWN_WAIT_S = 1.0  # seconds a kernel asked to shut down has before it is stopped (`voila_command`)
TOKEN_ENV = "WORKBENCH_APP_TOKEN"  # a token chosen by the caller (tests, scripts); else a random one
# jupyter_client's name (an entry point in pyproject.toml) for workbench.server.kernel_zygote.ZygoteProvisioner
KERNEL_PROVISIONER = "workbench-zygote"
# The notebooks of a source checkout (a wheel ships the library only: pass --notebooks then).
NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"


def free_port(host: str = HOST) -> int:
    """A TCP port nobody listens on now (the OS picks it); a server started at once will get it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]  # (host, port): socket's stubs type the address as Any
        return port


def _check_port(port: int) -> int:
    if not 1 <= port <= 65535:
        raise InvalidInput("port", port, "a TCP port number from 1 to 65535")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        if os.name != "nt":  # as the server's own socket: a port whose last server just stopped is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            raise InvalidInput("port", port, f"a TCP port free on {HOST}", reason="already in use") from None
    return port


def new_token() -> str:
    """A token nobody can guess (48 hex digits, as JupyterLab's)."""
    return secrets.token_hex(24)


def guard_settings(port: int) -> dict[str, Any]:
    """The tornado settings that keep the server to this machine: no remote Host (jupyter_server's host
    check: loopback addresses and `localhost` only), no foreign Origin on API calls and websockets, no
    `Referer` to another site from its pages (their addresses hold the token), and an access log without the
    query string (where the token is)."""
    return {
        "allow_remote_access": False,
        "local_hostnames": ["localhost"],
        "allow_origin": "",
        "allow_origin_pat": re.compile(rf"^https?://(?:127\.0\.0\.1|localhost):{port}$"),
        "allow_credentials": False,
        "headers": {"Referrer-Policy": "no-referrer"},
        "login_url": NEEDS_TOKEN_PAGE,  # where a request without the token is sent: a page that says so
        "log_function": log_request,
    }


def log_request(handler: Any) -> None:
    """tornado's access log line with the path only: the query string may hold the token."""
    from tornado.log import access_log

    status = handler.get_status()
    log = access_log.info if status < 400 else access_log.warning if status < 500 else access_log.error
    request = handler.request
    log("%d %s %s (%s) %.2fms", status, request.method, request.path, request.remote_ip,
        1000.0 * request.request_time())


def hide_in_logs(secret: str, shown: str = "[token]") -> None:
    """Every log record of this process made from now on shows `secret` as `shown`: tornado logs a refused
    request with its whole address, query string (and token) included, whichever logger and handler write it."""
    make_record = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make_record(*args, **kwargs)
        message = record.getMessage()
        if secret in message:
            record.msg, record.args = message.replace(secret, shown), None
        return record

    logging.setLogRecordFactory(factory)


class GuardedIdentityProvider(PasswordIdentityProvider):
    """Voilà's identity provider (jupyter_server's token check), with two changes: the token in the address is
    the only way in (no `/login` or `/logout` page: a password form and a logout the server has no use for), and
    a request that carries the token still has its Origin checked (jupyter_server skips that check for a
    token-authenticated websocket, so a page of another site holding the address could open a kernel)."""

    def get_handlers(self) -> list[Any]:
        return []

    def should_check_origin(self, handler: Any) -> bool:
        return True


# JupyterLab's renderer of static plotly figures (a ~5 MB script the browser compiles as the page opens): the
# lessons show static figures and keep it; the app pages' charts are all FigureWidgets (anywidget), which do not.
STATIC_PLOTLY_RENDERER = "jupyterlab-plotly"


def app_page_config(page_config: dict[str, Any], *, notebook_path: str | None = None,
                    **_settings: Any) -> dict[str, Any]:
    """Voilà's page-config hook: an app page's browser side without the static plotly renderer."""
    if notebook_path is None or Path(notebook_path).name not in {p.file for p in pages()}:
        return page_config
    extensions = page_config.get("federated_extensions", [])
    page_config["federated_extensions"] = [e for e in extensions if e.get("name") != STATIC_PLOTLY_RENDERER]
    return page_config


def _token() -> str:
    """The token to serve with: `$WORKBENCH_APP_TOKEN` if set (checked), else a fresh one."""
    token = os.environ.get(TOKEN_ENV) or new_token()
    if len(token) < 16 or not token.isascii() or not token.isprintable() or " " in token:
        raise WorkbenchError(f"${TOKEN_ENV} must be 16 or more printable ASCII characters (or unset)")
    return token


# The kernels talk to the server over Unix sockets where there are any (not Windows). Over TCP each kernel
# binds five ports picked as free a moment before, in the range the system also hands out to outgoing
# connections: on a busy machine one was taken in between, the kernel failed to start five times on the
# same port and its page never arrived (seen in the browser tests, two servers and Chromium side by side).
# Unix sockets also keep other users of the machine off the kernels. A socket's path must fit in 104 bytes
# (macOS; 108 on Linux): Voilà puts it at <folder>/voila_<8 random characters>/kernel-<36-character id>-ipc-N, 65 bytes
# after the folder, so the folder must be short; macOS's per-user temporary folder is not.
SOCKET_PATH_ROOM = 103 - 65


def kernel_socket_folder(temp: str | None = None, system: str = os.name) -> str | None:
    """Where kernels' Unix sockets may go: `temp` (the system's temporary folder by default), or /tmp when that
    is too long; None where Unix sockets are missing (`system` other than "posix", as `os.name` says) or no
    folder is short enough (the kernels then keep TCP)."""
    if system != "posix":
        return None
    for folder in (temp or tempfile.gettempdir(), "/tmp"):
        if len(folder.encode()) <= SOCKET_PATH_ROOM and os.path.isdir(folder) and os.access(folder, os.W_OK):
            return folder
    return None


def kernel_transport_arguments(temp: str | None = None, system: str = os.name) -> list[str]:
    """The Voilà options that put the kernels on Unix sockets under `kernel_socket_folder`, or none."""
    folder = kernel_socket_folder(temp, system)
    return [] if folder is None else ["--KernelManager.transport=ipc", f"--Voila.connection_dir_root={folder}"]


def voila_command(notebooks: Path, port: int, python: str | None = None) -> list[str]:
    """The command line `workbench app` runs: Voilà started through `serve` (tests can start it the same way).

    The token is not on the command line (other users can read it there): `serve` takes it from
    `$WORKBENCH_APP_TOKEN`, which `run` sets.
    """
    return [
        python or sys.executable, "-m", "workbench.server.app", "serve", str(notebooks),
        # no --no-browser: where Voilà would open a browser, `serve` prints the address instead
        f"--NotebookNotary.data_dir={notebooks.parent / NOTARY}",  # the notary that signed them (site.sign_served)
        f"--Voila.ip={HOST}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",  # the port asked for, or fail: never a surprise port
        "--VoilaConfiguration.classic_tree=True",  # landing page rendered by the server, no JavaScript build
        "--VoilaConfiguration.show_tracebacks=True",  # local only: a Director sees what went wrong
        # Voilà runs a page's cells through nbclient, which waits IOPUB_WAIT_S after a cell's reply for the rest of
        # its output and then goes on without it: a tool's cell makes hundreds of widgets, their messages reach the
        # server after the reply, and on a busy machine the page came without its tool (4 s by default), with no
        # error. The wait ends as soon as the output is in.
        f"--VoilaExecutor.iopub_timeout={IOPUB_WAIT_S}",
        # A page connected keeps its kernel however idle; the preheated ones, waiting for a visit, are busy and kept.
        *(f"--MappingKernelManager.{name}={value}" for name, value in zip(
            ("cull_idle_timeout", "cull_interval"), kernel_grace(), strict=True)),
        "--MappingKernelManager.cull_connected=False",
        # A kernel asked to shut down and still busy (a preheated one running the page's notebook) gets SIGTERM
        # after half of this, SIGKILL after all of it: 5 s by default, which kept Ctrl-C waiting 2.5 s for it.
        # Nothing is lost: every tool saves as it changes.
        f"--KernelManager.shutdown_wait_time={SHUTDOWN_WAIT_S}",
        *kernel_provisioner_arguments(),
        *kernel_transport_arguments(),
    ]


def kernel_grace() -> tuple[int, int]:
    """(seconds idle before an unconnected kernel is shut down, seconds between checks): CULL_IDLE_S and
    CULL_INTERVAL_S, or `$WORKBENCH_KERNEL_GRACE` seconds checked four times over."""
    named = os.environ.get(GRACE_ENV, "").strip()
    if not named:
        return CULL_IDLE_S, CULL_INTERVAL_S
    seconds = typed_whole(named, 4)
    if seconds is None or not 4 <= seconds <= 3600:
        raise InvalidInput(GRACE_ENV, named, "a whole number of seconds from 4 to 3600")
    return seconds, seconds // 4


def kernel_provisioner() -> str | None:
    """The name of the zygote's kernel provisioner (`kernel_zygote`: a kernel starts without importing again) if
    its entry point is installed, else None. Naming a provisioner that is not installed makes jupyter_client refuse
    every kernel: a checkout installed before the zygote existed starts them the usual way until `make venv`."""
    from importlib.metadata import entry_points

    return KERNEL_PROVISIONER if entry_points(group="jupyter_client.kernel_provisioners",
                                              name=KERNEL_PROVISIONER) else None


def kernel_provisioner_arguments() -> list[str]:
    """The Voilà option that forks the kernels from the zygote, when `kernel_provisioner` finds it (and the zygote
    is not switched off: `switches`)."""
    name = kernel_provisioner()
    if name is None or off("zygote"):
        return []
    return [f"--KernelProvisionerFactory.default_provisioner_name={name}"]


# Seconds a stopped server has to shut its kernels down before it leaves anyway (its zygote and kernels watch it
# and follow): a Ctrl-C always ends the command.
STOP_GRACE_S = 10.0


def _stop_on_interrupt(signum: int, frame: object) -> None:
    """Ctrl-C (SIGINT) stops the server as Voilà stops it on SIGTERM: its loop ends, Voilà shuts every kernel
    down, `serve` leaves; should that shutdown not end within `STOP_GRACE_S`, the process leaves anyway. A Ctrl-C
    outside the loop (while the server starts, or while it is already stopping) leaves at once, as a second
    Ctrl-C does in any program. Python's own KeyboardInterrupt could land in the middle of the shutdown and leave
    the process waiting on the threads it interrupted, with its zygote."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        os._exit(130)  # the kernels follow: each watches its zygote or this process
    timer = threading.Timer(STOP_GRACE_S, os._exit, (1,))
    timer.daemon = True
    timer.start()
    loop.call_soon_threadsafe(loop.stop)


def serve(argv: Sequence[str]) -> None:
    """Run Voilà with `argv` (and `serve`'s own `--preheat=FILE` options), the token of `$WORKBENCH_APP_TOKEN`
    (never empty) and `guard_settings`; the address to open is printed once the server listens."""
    from traitlets.config import Config
    from voila import app as voila_app

    class Voila(voila_app.Voila):  # type: ignore[misc]  # Voilà is untyped; its name is its log lines' prefix
        """Voilà, which once it listens says the workbench page's address instead of opening a browser: printed
        earlier, a quick click on it was refused."""

        def launch_browser(self) -> None:
            print(f"workbench app: the Draw Steel workbench at http://{HOST}:{self.port}/voila/render/"
                  f"{WORKBENCH_PAGE}?token={token} (Ctrl-C stops it)", flush=True)

    token = _token() if os.environ.get(TOKEN_ENV) else ""
    if not token:
        raise SystemExit(f"workbench app: error: ${TOKEN_ENV} must hold the token to serve with")
    hide_in_logs(token)
    problems = patches.missing() + patches.missing_scripts()
    if problems:
        raise SystemExit("workbench app: error: an installed package is not what the server was written for:\n  "
                         + "\n  ".join(problems))
    preheated = [a.removeprefix(PREHEAT_OPTION) for a in argv if a.startswith(PREHEAT_OPTION)]
    argv = [a for a in argv if not a.startswith(PREHEAT_OPTION)]
    port = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--Voila.port=")), 0)
    settings = guard_settings(port)
    settings["jinja_template_vars"] = {LANDING_VARIABLE: read_landing(Path(argv[0]))}  # the landing page's data
    patches.guard_request_info(port, token, settings["allow_origin_pat"])
    patches.keep_visit_requests()
    patches.require_origin_on_kernel_websocket(settings["allow_origin_pat"])
    patches.guard_static_files(port)
    patches.set_xsrf_cookie_on_pages()
    patches.refuse_malformed_paths()  # after the patches above: its check comes before theirs
    config = Config()
    config.VoilaConfiguration.page_config_hook = app_page_config
    config.Voila.identity_provider_class = GuardedIdentityProvider
    config.Voila.open_browser = True  # the moment it would open one, it prints the address (`Voila` above)
    if preheated:
        config.VoilaKernelManager.kernel_pools_config = kernel_pools(preheated)
    signal.signal(signal.SIGINT, _stop_on_interrupt)
    Voila.launch_instance(argv=argv, token=token, tornado_settings=settings, config=config)
    # Stopped (Ctrl-C, SIGTERM): Voilà has shut every kernel down. What is left is the interpreter tearing down
    # jupyter's and zmq's objects, which kept the Director's terminal waiting two seconds more, for nothing to save.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def page_arguments() -> list[str]:
    """The Voilà options for the workbench's pages: its template (landing page, favicon, no CDN)."""
    return [f"--template={TEMPLATE_NAME}"]


PREHEAT_OPTION = "--preheat="  # `serve`'s own option (not Voilà's): a page whose kernel is preheated


def preheat_arguments(page_files: Iterable[str]) -> list[str]:
    """The options that keep one preheated kernel for each of `page_files` (none for any other notebook): Voilà's
    switch, and `serve`'s `--preheat=FILE` for each page, which `serve` turns into Voilà's pools (`kernel_pools`).

    One per page, not more: a kernel with the workbench loaded holds ~190 MB, and on a 2-core machine two
    pool kernels of one page would only compete with each other while they run the notebook. After a visit
    Voilà starts the page's next kernel `fill_delay` (1 s) later; a visit before it is ready waits for it
    (never longer than a fresh kernel would take).
    """
    return [
        "--VoilaConfiguration.preheat_kernel=True",
        "--VoilaConfiguration.default_pool_size=0",
        *(PREHEAT_OPTION + file for file in page_files),
    ]


def kernel_pools(page_files: Iterable[str]) -> dict[str, dict[str, int]]:
    """Voilà's kernel pools for `page_files`: one kernel each, none for any other notebook. Given to Voilà as
    configuration, not on its command line, where traitlets takes a dict only in a form it deprecates (and says so
    in the Director's console)."""
    pools: dict[str, dict[str, int]] = {"default": {"pool_size": 0}}
    return pools | {file: {"pool_size": 1} for file in page_files}


def page_environment(share: Path, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment with `share` first on JUPYTER_PATH, where Voilà looks for the template."""
    env = dict(os.environ if environ is None else environ)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(share), env.get("JUPYTER_PATH", "")) if p)
    return env


def _lessons(folder: Path | None) -> Path | None:
    """The lessons folder asked for (a missing or empty one is said so on the landing page), else the
    checkout's, if any."""
    if folder is not None:
        return folder.expanduser().absolute()
    return NOTEBOOKS_DIR if any(NOTEBOOKS_DIR.glob("*.ipynb")) else None


def start(notebooks: Path | None = None, port: int | None = None, preheat: bool = True) -> None:
    """Serve the pages and the lessons in `notebooks` (the checkout's when None) on `port` (a free one when None),
    with one preheated kernel per page if `preheat`: this process becomes the server (`os.execve`)."""
    lessons = _lessons(notebooks)
    port = free_port() if port is None else _check_port(port)
    if importlib.util.find_spec("voila") is None:
        raise WorkbenchError(
            "Voilà is not installed in this environment; install the lab extra: pip install "
            "'drawsteel-workbench[lab]' (or run make app)"
        )
    token = _token()
    folder = site_folder(port)
    prune_site_folders(folder)
    root, share = prepare_site(lessons, folder)
    problem = lessons_problem(lessons)
    if problem:
        print(f"workbench app: {problem} The landing page says so.", file=sys.stderr, flush=True)
    command = voila_command(root, port) + page_arguments()
    if preheat:
        command += preheat_arguments([WORKBENCH_PAGE])
    environment = {**page_environment(share), TOKEN_ENV: token}
    bundle = plotly_bundle()
    if bundle is not None:  # copied beside the template by prepare_site; the pages' charts load it from there
        environment[PLOTLY_BUNDLE_VARIABLE] = bundle.address
    os.execve(command[0], command, environment)


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    serve(sys.argv[2:])
