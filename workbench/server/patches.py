"""Every change `workbench app` makes to another project's classes or browser code, and every private name of theirs
it relies on.

Why in one place: the server reaches into Voilà, tornado, plotly and ipykernel where they offer no setting for
what it needs (a check on a handler Voilà leaves open, a cache Voilà's exporter has no option for). Such code
breaks silently when those projects change. Each function below is one change and says why it is needed; `NEEDS` lists, per dependency and the version the code was written for, every
attribute a change or another module of the server takes from it. `missing()` checks them against what is
installed: `app.serve` refuses to start when anything is missing, and tests/test_server_patches.py fails with the
same message, which names the dependency, its version and the attribute.

The page template (`template/workbench/index.html.j2`) changes three things in the browser code of anywidget and of
Voilà's widget manager, where they offer no setting either; `SCRIPT_NEEDS` lists each with the text of theirs it
relies on, and `missing_scripts()` checks that text is still in the installed files.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

__all__ = ["NEEDS", "SCRIPT_NEEDS", "Need", "ScriptNeed", "guard_request_info", "guard_static_files",
           "keep_visit_requests", "malformed_path", "missing", "missing_scripts", "refuse_malformed_paths",
           "require_origin_on_kernel_websocket", "set_xsrf_cookie_on_pages"]


@dataclass(frozen=True)
class Need:
    """Attributes `names` of `target` (`module:Class`, or a module) that `used_by` relies on, in the dependency
    `dependency` as of version `written_for`; `instance`: they are set on an instance (made with no argument)."""

    dependency: str
    written_for: str
    target: str
    names: tuple[str, ...]
    used_by: str
    instance: bool = False


NEEDS: tuple[Need, ...] = (
    Need("voila", "0.5.13", "voila.request_info_handler:RequestInfoSocketHandler", ("prepare", "check_origin"),
         "patches.guard_request_info"),
    Need("voila", "0.5.13", "voila.request_info_handler:RequestInfoSocketHandler",
         ("open", "on_close", "send_updates", "_waiters", "_cache"), "patches.keep_visit_requests"),
    Need("voila", "0.5.13", "voila.static_file_handler:AllowListFileHandler", ("prepare",),
         "patches.guard_static_files"),
    Need("voila", "0.5.13", "voila.static_file_handler:MultiStaticFileHandler", ("prepare",),
         "patches.guard_static_files"),
    Need("voila", "0.5.13", "voila.static_file_handler:TemplateStaticFileHandler", ("prepare",),
         "patches.guard_static_files"),
    Need("voila", "0.5.13", "voila.handler:VoilaHandler", ("prepare",),
         "patches.set_xsrf_cookie_on_pages and patches.refuse_malformed_paths"),
    Need("voila", "0.5.13", "voila.tornado.kernel_websocket_handler:VoilaKernelWebsocketHandler", ("prepare",),
         "patches.require_origin_on_kernel_websocket"),
    Need("voila", "0.5.13", "voila.app:Voila",
         ("identity_provider_class", "tornado_settings", "open_browser", "launch_browser", "port"), "app.serve"),
    Need("jupyter_server", "2.21.1", "jupyter_server.auth.identity:PasswordIdentityProvider",
         ("get_handlers", "should_check_origin"), "app.GuardedIdentityProvider"),
    Need("tornado", "6.6.1", "tornado.web:RequestHandler", ("xsrf_token", "current_user", "prepare"),
         "patches.set_xsrf_cookie_on_pages"),
    Need("plotly", "7.1.0", "plotly.basewidget:BaseFigureWidget",
         ("_js2py_traceDeltas", "_js2py_layoutDelta", "_js2py_restyle", "_js2py_relayout", "_js2py_update",
          "_last_layout_edit_id", "_esm"), "charts.HeardFigure"),
    Need("plotly", "7.1.0", "plotly.graph_objects:FigureWidget",
         ("_data", "_layout", "_layout_obj", "_validate", "_widget_data", "_widget_layout"),
         "charts.heard_widget and site.FIGURE_VIEW (its view reads the widget state)", instance=True),
    Need("plotly", "7.1.0", "plotly.io._base_renderers:NotebookRenderer", ("activate", "to_mimebundle", "config"),
         "page_renderer.PageRenderer", instance=True),
    Need("plotly", "7.1.0", "plotly.io._renderers", ("renderers",), "kernel_zygote._where_it_runs (reloaded)"),
    Need("ipykernel", "7.4.0", "ipykernel.kernelbase:Kernel", ("_shutdown_message",), "visit.shutting_down"),
    Need("ipykernel", "7.4.0", "ipykernel.kernelapp:IPKernelApp", ("instance", "initialize", "start"),
         "kernel_zygote._become_kernel and kernel_start.main"),
)


@dataclass(frozen=True)
class ScriptNeed:
    """A change the page template's JavaScript makes (`change`, done by the template's code `template_code`) to the
    browser code of `dependency` as of version `written_for`: it relies on `text` being in one of that code's files
    (`files`, a pattern under a Jupyter data folder's root: share/jupyter)."""

    dependency: str
    written_for: str
    files: str
    text: str
    change: str
    template_code: str


WIDGETS_MANAGER = "voila/labextensions/@voila-dashboards/widgets-manager8/static/*.js"
SCRIPT_NEEDS: tuple[ScriptNeed, ...] = (
    ScriptNeed("anywidget", "0.11.0", "labextensions/anywidget/static/*.js", "AbortSignal.timeout(2000)",
               "a widget model (a chart's) gets a minute to start, not anywidget's 2 s",
               "AbortSignal.timeout = milliseconds =>"),
    ScriptNeed("voila", "0.5.13", WIDGETS_MANAGER, '"Control comm did not respond in time")),4e3)',
               "the kernel gets two minutes to send every widget's state, not Voilà's 4 s",
               'String(handler).includes("Control comm did not respond")'),
    ScriptNeed("voila", "0.5.13", WIDGETS_MANAGER,
               'async get_model(e){const t=this._models[e];if(void 0===t)throw new Error("widget model not found")',
               "the widget manager looks for a model a minute longer before it gives up on it",
               'Object.defineProperty(Object.prototype, "_models"'),
)


def missing_scripts(needs: Iterable[ScriptNeed] = SCRIPT_NEEDS, roots: Iterable[Path] | None = None) -> list[str]:
    """One line per change of the template whose text is in none of the installed files it names (none when all
    is there); `roots`: the Jupyter data folders (jupyter_core's, by default)."""
    if roots is None:
        from jupyter_core.paths import jupyter_path

        roots = [Path(folder) for folder in jupyter_path()]
    roots = list(roots)
    found = []
    for need in needs:
        files = [path for root in roots for path in root.glob(need.files)]
        if not any(need.text in path.read_text(encoding="utf-8", errors="replace") for path in files):
            version = _installed(need.dependency)
            found.append(f"{need.dependency} {version} (the page template was written for {need.written_for}) has no "
                         f"{need.text!r} in {need.files}, which the template's change relies on: {need.change}")
    return found


def _installed(dependency: str) -> str:
    try:
        return importlib.metadata.version(dependency)
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def missing(needs: Iterable[Need] = NEEDS) -> list[str]:
    """One line per attribute an installed dependency no longer has (none when all is there)."""
    found = []
    for need in needs:
        module_name, _, owner = need.target.partition(":")
        version = _installed(need.dependency)
        where = f"{need.dependency} {version} (the server was written for {need.written_for})"
        try:
            target: Any = importlib.import_module(module_name)
            for part in filter(None, owner.split(".")):
                target = getattr(target, part)
        except (ImportError, AttributeError):
            found.append(f"{where} has no {need.target.replace(':', '.')}, which {need.used_by} needs")
            continue
        if need.instance:
            target = target()
        found += [f"{where} has no {need.target.replace(':', '.')}.{name}, which {need.used_by} needs"
                  for name in need.names if not hasattr(target, name)]
    return found


# ---------------------------------------------------------------- the server's own checks on Voilà's open handlers

def _local_host(host: str, port: int) -> bool:
    return host in {f"127.0.0.1:{port}", f"localhost:{port}"}


def _refuse_foreign_host(handler: Any, port: int) -> None:
    """403 for a request whose Host is not this server's (a page of another site reaching it by DNS rebinding)."""
    from tornado.web import HTTPError

    if not _local_host(handler.request.host, port):
        raise HTTPError(403)


def _carries_token(handler: Any, token: str) -> bool:
    """Whether the request names `token`: `Authorization: token <token>` or `?token=<token>`."""
    header = handler.request.headers.get("Authorization", "")
    given = header[len("token "):] if header.startswith("token ") else handler.get_argument("token", "")
    return secrets.compare_digest(given.encode(), token.encode())


def guard_request_info(port: int, token: str, origin: re.Pattern[str]) -> None:
    """Voilà's `/voila/query/<kernel>` websocket hands a preheated kernel its visitor's request (the visitor's
    token in the query string included), and Voilà leaves it open to anyone. It gets the server's checks: the
    token, a Host of this machine, and an Origin of this server; else 403. The kernel's own connection
    (`visit.request_from_server`) sends all three."""
    from tornado.web import HTTPError
    from voila.request_info_handler import RequestInfoSocketHandler

    def prepare(handler: Any) -> None:
        _refuse_foreign_host(handler, port)
        if not _carries_token(handler, token) or not origin.fullmatch(handler.request.headers.get("Origin", "")):
            raise HTTPError(403)  # tornado checks an Origin only when one is sent: none is refused here

    def check_origin(handler: Any, given: str) -> bool:
        return bool(origin.fullmatch(given))

    RequestInfoSocketHandler.prepare = prepare
    RequestInfoSocketHandler.check_origin = check_origin


# Requests kept for preheated kernels: one a visit, needed only until its kernel connects (seconds); the oldest go
KEPT_REQUESTS = 64


def keep_visit_requests() -> None:
    """Voilà hands a preheated kernel its visit's request over `/voila/query/<kernel>`: written to the kernel's
    connection when it has one, else kept until the kernel connects. Two flaws lose a request, and the visitor's
    page then loads for ever:

    - written to a connection the kernel has just closed (`visit.request_from_server` connects again every few
      seconds while it waits), the request is gone, not kept;
    - a connection that closes after its kernel connected again deletes the connection registered last for any
      kernel, so a live connection may no longer be written to.

    Here every request is kept (the last `KEPT_REQUESTS`) and given to each connection of its kernel that opens,
    written or not; a connection that closes forgets only itself."""
    from tornado.websocket import WebSocketClosedError
    from voila.request_info_handler import RequestInfoSocketHandler as Handler

    def open_(handler: Any, kernel_id: str) -> None:
        Handler._waiters[kernel_id] = handler
        if kernel_id in Handler._cache:
            handler.write_message(Handler._cache[kernel_id])

    def on_close(handler: Any) -> None:
        for kernel_id in [k for k, waiter in Handler._waiters.items() if waiter is handler]:
            del Handler._waiters[kernel_id]

    def send_updates(_cls: Any, msg: dict[str, Any]) -> None:
        kernel_id, payload = msg["kernel_id"], msg["payload"]
        Handler._cache.pop(kernel_id, None)
        Handler._cache[kernel_id] = payload
        while len(Handler._cache) > KEPT_REQUESTS:
            del Handler._cache[next(iter(Handler._cache))]
        waiter = Handler._waiters.get(kernel_id)
        if waiter is not None:
            try:
                waiter.write_message(payload)
            except WebSocketClosedError:  # kept: given when the kernel connects again
                pass

    Handler.open = open_
    Handler.on_close = on_close
    Handler.send_updates = classmethod(send_updates)


def require_origin_on_kernel_websocket(origin: re.Pattern[str]) -> None:
    """A kernel's websocket (`/api/kernels/<id>/channels`) checks a foreign Origin (with the identity provider of
    `app`), but takes a request with no Origin at all as a script's and lets it in. Browsers send one on every
    websocket; the server asks for it, its own: a request without it is refused with 403."""
    from tornado.web import HTTPError
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    own_prepare = VoilaKernelWebsocketHandler.prepare

    def prepare(handler: Any, *args: Any, **kwargs: Any) -> Any:
        if not origin.fullmatch(handler.request.headers.get("Origin", "")):
            raise HTTPError(403)
        return own_prepare(handler, *args, **kwargs)

    VoilaKernelWebsocketHandler.prepare = prepare


def guard_static_files(port: int) -> None:
    """Voilà's static-file addresses (`/voila/static/...`: its scripts and plotly's bundle; `/voila/templates/
    .../static/...`; the notebooks' allowed files) are plain tornado handlers without jupyter_server's Host
    check: a foreign Host is refused with 403 there too. The files are public code, yet nothing of the
    server answers another host."""
    from voila.static_file_handler import AllowListFileHandler, MultiStaticFileHandler, TemplateStaticFileHandler

    for handler_class in (AllowListFileHandler, MultiStaticFileHandler, TemplateStaticFileHandler):

        def prepare(handler: Any, own_prepare: Any = handler_class.prepare) -> Any:
            _refuse_foreign_host(handler, port)
            return own_prepare(handler)

        handler_class.prepare = prepare


MAX_PATH_CHARS = 4096  # the longest path a file system opens; a page's or a file's address is far shorter
MAX_NAME_CHARS = 255  # the longest name of one file or folder


def malformed_path(path: str) -> int | None:
    """The status for a request path no page or file can have (400: a NUL, a control character or a name too
    long for any file system; 404: a `..` that would climb out of the folder), None for a path to look up."""
    decoded = unquote(path)
    if any(ord(c) < 32 for c in decoded) or len(decoded) > MAX_PATH_CHARS \
            or any(len(part) > MAX_NAME_CHARS for part in decoded.split("/")):
        return 400
    if any(part == ".." for part in decoded.replace("\\", "/").split("/")):
        return 404
    return None


def refuse_malformed_paths() -> None:
    """Voilà's render route takes a NUL or a `..` in the notebook's name to the file system, which raises out of
    the handler (500, a traceback in the log); its template and static routes do the same with some names.
    The path is looked at first, on the address as sent: 400 or 404 before any handler touches a file. The
    answer is written here, a plain page: an HTTPError raised this early would fail in Voilà's error page (it
    asks for the visitor, who is not known before the handler's own `prepare`)."""
    from http import HTTPStatus

    from voila.handler import VoilaHandler
    from voila.static_file_handler import AllowListFileHandler, MultiStaticFileHandler, TemplateStaticFileHandler

    for handler_class in (VoilaHandler, AllowListFileHandler, MultiStaticFileHandler, TemplateStaticFileHandler):

        def prepare(handler: Any, *args: Any, own_prepare: Any = handler_class.prepare, **kwargs: Any) -> Any:
            status = malformed_path(handler.request.path)
            if status is None:
                return own_prepare(handler, *args, **kwargs)
            words = f"{status}: {HTTPStatus(status).phrase}"
            handler.clear()
            handler.set_status(status)
            handler.set_header("Content-Type", "text/html; charset=UTF-8")
            handler.finish(f"<!DOCTYPE html>\n<html><head><title>{words}</title></head><body><h1>{words}</h1>"
                           "</body></html>\n")
            return None

        handler_class.prepare = prepare


def set_xsrf_cookie_on_pages() -> None:
    """As a page unloads, Voilà's script posts `/voila/api/shutdown/<kernel>` (a beacon whose form carries the
    `_xsrf` cookie's value), but Voilà renders its pages without ever setting that cookie, so the server refused
    every beacon (403, "'_xsrf' argument missing") and each closed tab's kernel stayed. The page's handler sets
    the cookie (tornado does when its `xsrf_token` is first read) once the visitor has passed the token check;
    the shutdown keeps its XSRF check."""
    from voila.handler import VoilaHandler

    own_prepare = VoilaHandler.prepare

    async def prepare(handler: Any) -> None:
        result = own_prepare(handler)
        if inspect.isawaitable(result):
            await result
        if handler.current_user is not None:
            handler.xsrf_token  # noqa: B018 (read for its effect: the cookie)

    VoilaHandler.prepare = prepare
