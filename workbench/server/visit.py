"""A page built before its visit, so it opens at once, and still showing the Director's files as they are.

`workbench app` keeps one preheated kernel for the workbench page (Voilà's kernel pool): the kernel has started,
imported the workbench and run the page's notebook before anybody asks for the page, and the first visitor who
does gets that kernel (Voilà then starts the next one in the background). Each visit still has a kernel of its own,
so what one visitor does on a page (a slider moved, a name typed) is never seen by the next one; only what
the pages write to the Director's folder (the workspace, the saved monsters) is shared, by design.

But the notebook ran before the visit, and the Director's folder may have changed since: a monster saved, an
encounter changed, in another tab. So a page's notebook calls
`serve_page(build)` (`workbench.apps.serving`), which in the server's kernels is `page_for_visit(build)`: it
builds the page at once (in a preheated kernel: before the visit), then waits for the visit (over Voilà's
`/voila/query` websocket: the request reaches the kernel through the server), and builds the page again from
the files only when the folder changed meanwhile (`workspace.folder_stamp`). Outside a preheated kernel (a
kernel started for the visit) nothing waits and the page is built once.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

from workbench.workspace.folder import folder_stamp

__all__ = ["PREHEAT_VARIABLE", "close_tree", "page_for_visit", "preheated", "request_from_server", "wait_for_visit"]

PREHEAT_VARIABLE = "VOILA_PREHEAT"  # Voilà sets it to "True" in the kernels of its pool, "False" otherwise
VISITED_VARIABLE = "SERVER_SOFTWARE"  # one of the visit's request variables Voilà hands a preheated kernel
REQUEST_OPEN_TIMEOUT_S = 5.0  # one try's wait for the server to take the connection (Voilà's own wait's)
# A busy server (rendering other pages on a loaded machine) may take longer than one try: it is asked again until
# then. A kernel that gave up would keep a page built before the visit, idle in the pool, where the server's
# culler may shut it down just as a visitor is handed it: a page whose widgets never come.
REQUEST_PATIENCE_S = 120.0
# A waiting kernel connects again this often: the server gives every connection that opens the visit's request it
# keeps for the kernel (`patches.keep_visit_requests`), so a request written to a connection that went astray (one
# closing as it was written, or no longer the one the server writes to) still reaches the kernel.
REQUEST_RECHECK_S = 5.0
TOKEN_VARIABLE = "WORKBENCH_APP_TOKEN"  # app.TOKEN_ENV: the server's token, which its kernels inherit
SHUTDOWN_WAIT_S = 2.0  # how long a kernel whose wait ended with no visit looks for the server's shutdown request
Page = TypeVar("Page")


def preheated() -> bool:
    """Whether this kernel is one of Voilà's preheated ones (started before any visit)."""
    return os.environ.get(PREHEAT_VARIABLE) == "True"


def wait_for_visit() -> None:
    """In a preheated kernel, wait until a visitor asks for the page; elsewhere return at once.

    A preheated kernel that the server shuts down instead, with nobody visiting (the server stops: Ctrl-C),
    leaves at once: its sockets are closed by then, and finishing the page's cell would print the failed
    reply's traceback in the Director's terminal, one for each page's kernel.
    """
    if not preheated():
        return
    os.environ.update(request_from_server() or {})
    os.environ[PREHEAT_VARIABLE] = "False"  # visited: a second call must not wait for a second visit
    if VISITED_VARIABLE in os.environ:
        return
    # No visit: the server closed the wait, or could not be reached. Its shutdown request may reach the kernel
    # a moment after the closed connection does.
    deadline = time.monotonic() + SHUTDOWN_WAIT_S
    while not shutting_down():
        if time.monotonic() > deadline:
            return  # not shut down: the page is built and the kernel stays for its visitor
        time.sleep(0.05)
    os._exit(0)


def request_from_server() -> dict[str, str] | None:
    """Wait for this preheated kernel's visit; return the visit's request (`SERVER_SOFTWARE`, `QUERY_STRING` ...),
    None if the server refused the connection (it is gone), did not take it within `REQUEST_PATIENCE_S`, or closed
    the wait with no visit.

    Voilà's own `voila.utils.wait_for_request` does the same over the same websocket (without the token and Origin
    the server asks for)
    (`<ws>://<VOILA_APP_IP>:<VOILA_APP_PORT><VOILA_WS_BASE_URL>voila/query/<VOILA_KERNEL_ID>`, one message of
    JSON), but importing `voila.utils` imports Voilà's server with it (jupyter_server, jupyterlab_server,
    nbconvert): about a thousand modules in every preheated kernel, for a wait.
    """
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect
    from websockets.typing import Origin

    environ = os.environ
    server_url = environ.get("VOILA_SERVER_URL", "/")
    host = f"{environ.get('VOILA_APP_IP', '127.0.0.1')}:{environ.get('VOILA_APP_PORT', '8866')}"
    address = (f"{environ.get('VOILA_WS_PROTOCOL', 'ws')}://{host}{environ.get('VOILA_WS_BASE_URL', server_url)}"
               f"voila/query/{environ.get('VOILA_KERNEL_ID')}")
    # The server lets only its own pages in: its token, and its own address as the Origin (patches.guard_request_info)
    headers = {"Authorization": f"token {environ.get(TOKEN_VARIABLE, '')}"}
    patience = time.monotonic() + REQUEST_PATIENCE_S
    while True:
        try:
            server = connect(address, open_timeout=REQUEST_OPEN_TIMEOUT_S, origin=Origin(f"http://{host}"),
                             additional_headers=headers)
        except TimeoutError:  # the server did not take the connection in time: busy
            if time.monotonic() > patience:
                return None
            continue
        except (OSError, WebSocketException):  # refused (the server is gone), reset
            return None
        patience = time.monotonic() + REQUEST_PATIENCE_S
        with server:
            try:
                message = server.recv(timeout=REQUEST_RECHECK_S)
                break
            except TimeoutError:  # no visit yet: connect again (a request kept for this kernel arrives then)
                continue
            except (OSError, WebSocketException):  # closed with no visit
                return None
    request = json.loads(message)
    return {str(key): str(value) for key, value in request.items()}


def shutting_down() -> bool:
    """Whether this kernel has been asked to shut down (ipykernel keeps the shutdown's reply from then on)."""
    from ipykernel.kernelbase import Kernel

    return Kernel.initialized() and getattr(Kernel.instance(), "_shutdown_message", None) is not None


def close_tree(widget: Any) -> None:
    """Close a widget and every widget under it (their models leave the kernel and the browser)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    close = getattr(widget, "close", None)
    if callable(close):
        close()


def page_for_visit(build: Callable[[], Page], stamp: Callable[[], object] = folder_stamp,
                   wait: Callable[[], None] = wait_for_visit) -> Page:
    """The page `build()` makes, built before the visit and built again at the visit if `stamp()` (what the
    Director's folder holds) changed in between."""
    before = stamp()
    page = build()
    wait()
    if stamp() != before:
        close_tree(page)
        page = build()
    return page
