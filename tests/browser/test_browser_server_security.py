"""`workbench app` keeps its apps to the Director: a token, no foreign Host, no foreign Origin.

A web page the Director visits must not reach the apps (and press the library's Save and Delete) by DNS
rebinding (a foreign Host header) or by opening the kernel websocket from its own origin with the Director's
cookie. Plain HTTP requests against the server the browser tests use (started by `workbench app`); the cookie is
the one the server sets when the token opens a page (what a browser keeps), and one rendered page's kernel serves
the kernel checks.
"""

from __future__ import annotations

import base64
import http.client
import os
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from workbench.server.app import NEEDS_TOKEN_PAGE

TIMEOUT = 240  # s: rendering a notebook runs it in a fresh kernel


def fetch(voila_url: str, path: str, headers: dict[str, str] | None = None) -> tuple[http.client.HTTPResponse, str]:
    """One GET, redirects not followed (a refusal may be a redirect to the login page): the response and its body."""
    address = urlparse(voila_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=TIMEOUT)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    body = response.read().decode(errors="replace")
    connection.close()
    return response, body


def request(voila_url: str, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    return fetch(voila_url, path, headers)[0]


def test_a_request_without_the_token_is_refused(voila_url):
    for path in ("/", "/voila/render/00_start_here.ipynb", "/voila/tree"):
        response = request(voila_url, path)
        assert response.status in (302, 403), (path, response.status)
        if response.status == 302:  # to the page that asks for the token (no login page: the token is the way in)
            assert response.getheader("Location").split("?")[0] == NEEDS_TOKEN_PAGE


def test_a_wrong_token_is_refused(voila_url):
    response = request(voila_url, "/?token=" + "0" * 48)
    assert response.status in (302, 403)


def test_the_token_opens_the_landing_page(voila_url, app_token):
    assert request(voila_url, f"/?token={app_token}").status == 200  # the control: the refusals are real


def test_a_foreign_host_is_refused_even_with_the_token(voila_url, app_token):
    port = urlparse(voila_url).port
    for host in ("evil.example", f"evil.example:{port}", f"192.0.2.7:{port}"):
        response = request(voila_url, f"/?token={app_token}", {"Host": host})
        assert response.status == 403, (host, response.status)


def test_static_files_refuse_a_foreign_host(voila_url):
    """Voilà's scripts, plotly's bundle and the template's files (plain tornado handlers, outside jupyter_server's
    Host check) answer no other host (server.patches.guard_static_files)."""
    from workbench.server.site import plotly_bundle

    port = urlparse(voila_url).port
    paths = ("/voila/static/voila.js", "/" + plotly_bundle().address,  # type: ignore[union-attr]  # plotly is installed
             "/voila/templates/workbench/static/workbench-favicon.svg")
    for path in paths:
        assert request(voila_url, path).status == 200, path  # the control: the file is there for the Director
        for host in (f"evil.example:{port}", "evil.example"):
            assert request(voila_url, path, {"Host": host}).status == 403, (path, host)


@pytest.fixture(scope="module")
def rendered(voila_url, app_token) -> dict[str, str]:
    """A lesson rendered as the Director's browser asks for it (its kernel then waits for the page's websocket):
    the kernel's id, named in the page, and the login cookie the server set."""
    response, page = fetch(voila_url, f"/voila/render/00_start_here.ipynb?token={app_token}")
    assert response.status == 200
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert kernel, "the rendered page names its kernel"
    cookie = "; ".join(c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or [])
    assert cookie, "the token's page sets the login cookie"
    return {"kernel": kernel[1], "cookie": cookie}


def test_the_kernel_websocket_refuses_a_foreign_origin(voila_url, rendered):
    """A page from another origin carrying the Director's cookie cannot open a kernel's websocket."""
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": key, "Cookie": rendered["cookie"]}
    path = f"/api/kernels/{rendered['kernel']}/channels"
    foreign = request(voila_url, path, {**upgrade, "Origin": "http://evil.example"})
    assert foreign.status == 403
    own = request(voila_url, path, {**upgrade, "Origin": voila_url})
    assert own.status == 101  # the control: the app's own page still connects
    without_cookie = request(voila_url, path, {**upgrade, "Cookie": "", "Origin": voila_url})
    assert without_cookie.status == 403  # the control: the cookie is what lets the own page in


def test_the_servers_kernels_talk_over_unix_sockets(rendered):
    """The kernels' five channels are Unix sockets (server.app.kernel_transport_arguments), as each kernel's
    connection file says and its sockets show: over TCP a kernel binds ports picked a moment before, an outgoing
    connection of the busy machine took one in between, and the page never arrived; no other user reaches a
    Unix socket. The kernels are the children of the server's kernel zygote (server.kernel_zygote)."""
    import json

    import psutil

    from workbench.server.app import kernel_socket_folder

    assert rendered["kernel"]  # a kernel ran the lesson and waits for its page
    connections = []
    for file in Path(kernel_socket_folder() or "/nowhere").glob("*/kernel-*.json"):
        try:
            connections.append(json.loads(file.read_text()))
        except (OSError, ValueError):
            continue  # a kernel shutting down a moment ago

    def command(process: psutil.Process) -> list[str]:
        """Its command line; none for a process that ended since it was listed (a zombie until reaped: a
        browser's helper, a test's server stopping), which `cmdline` refuses with an error."""
        try:
            return process.cmdline()
        except psutil.Error:
            return []

    servers = [p for p in psutil.Process().children(recursive=True) if "serve" in command(p)]  # `workbench app`s
    zygotes = [p for server in servers for p in server.children() if "kernel_zygote" in " ".join(command(p))]
    assert zygotes, "the server forks its kernels from a zygote"
    checked = 0
    for process in (kernel for zygote in zygotes for kernel in zygote.children()):
        try:  # a kernel shut down a moment ago (a zombie until reaped) is passed over
            unix = {c.laddr for c in process.net_connections(kind="unix")}
            tcp = {c.laddr.port for c in process.net_connections(kind="inet") if c.status == psutil.CONN_LISTEN}
        except psutil.Error:
            continue
        unix.discard("")  # an unnamed end: a socket the kernel connected, not one it listens on
        if not unix and not tcp:
            continue  # a kernel shutting down (its page closed): its sockets are gone already
        mine = [c for c in connections if f"{c['ip']}-{c['shell_port']}" in unix]
        assert len(mine) == 1, f"kernel {process.pid}: no connection file of the server names its sockets {unix}"
        connection = mine[0]
        assert connection["transport"] == "ipc", connection
        ports = {connection[f"{name}_port"] for name in ("shell", "iopub", "stdin", "control", "hb")}
        assert {f"{connection['ip']}-{port}" for port in ports} <= unix, f"kernel {process.pid}: {connection}, {unix}"
        assert not tcp & ports
        checked += 1
    assert checked, "no running kernel of the test server found"
