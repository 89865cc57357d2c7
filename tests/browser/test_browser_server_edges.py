"""The edges of `workbench app` a Director never means to touch, against a server of its own: lessons with a
title that looks like a template and a damaged notebook, no preheating (no browser needed: plain HTTP).

What is checked: the token is the only way in (no /login or /logout page, the log never prints it but in the
address it prints once the server listens, with no warning), Ctrl-C stops the server and its kernels, a page's
address never leaks to another site (`Referrer-Policy`), a kernel's websocket needs this server's Origin even
with the token, a notebook's title is shown as written, a damaged lesson is said so, and a rendered page whose
browser never connects (a tab closed at once) has its kernel shut down within a minute and a half.
"""

from __future__ import annotations

import base64
import html
import http.client
import json
import os
import re
import secrets
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import psutil
import pytest
from voila_server import running_server

from workbench.server.app import GRACE_ENV, NEEDS_TOKEN_PAGE, TOKEN_ENV, free_port
from workbench.server.site import WORKBENCH_PAGE

TOKEN = secrets.token_hex(24)
TIMEOUT = 240  # s: rendering a notebook runs it in a fresh kernel
TEMPLATE_TITLE = "{{ 7*7 }} and {% for %} and <b>bold</b>"


def _notebook(path: Path, heading: str, code: str = "1 + 1") -> None:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": f"# {heading}\n\nWhat it shows."},
             {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": code}]
    metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    path.write_text(json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}))


# this server's grace for a kernel without its page (workbench app's own: test_cli_app); the one test that needs
# such a kernel alive asks for its page just before (`render`)
GRACE_S = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path) -> Iterator[dict[str, str]]:
    home = tmp_path_factory.mktemp("edges-home")
    lessons = home / "lessons"
    lessons.mkdir()
    _notebook(lessons / "01_plain.ipynb", "A plain lesson")
    _notebook(lessons / "02_template.ipynb", TEMPLATE_TITLE)
    (lessons / "03_damaged.ipynb").write_text('{"cells": [')
    port = free_port()
    log = artifacts_dir / f"voila-server-edges-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    env = dict(os.environ, HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), **{TOKEN_ENV: TOKEN},
               **{GRACE_ENV: str(GRACE_S)})
    command = [sys.executable, "-m", "workbench.cli", "app", "--port", str(port), "--no-preheat",
               "--notebooks", str(lessons)]
    with running_server(command, port, log, env) as url:
        # The page nobody opens is asked for first: its kernel's grace runs while the other tests run.
        _, kernel = render(url, "02_template.ipynb")
        running = fetch(url, f"/api/kernels/{kernel}?token={TOKEN}")[0].status
        yield {"url": url, "log": str(log), "abandoned": kernel, "abandoned_status": str(running)}
        interrupt(port)


def interrupt(port: int) -> None:
    """Ctrl-C in the Director's terminal (SIGINT to the server's process group): the server and every kernel it
    started stop (how soon: benchmarks/bench_one_page.py's start and stop)."""
    listener = next(c.pid for c in psutil.net_connections("tcp")
                    if c.laddr and c.laddr.port == port and c.status == psutil.CONN_LISTEN)
    server = psutil.Process(listener)
    processes = [server, *server.children(recursive=True)]
    assert len(processes) >= 2  # the server and at least one kernel (the zygote's, or a page's)
    os.killpg(os.getpgid(server.pid), signal.SIGINT)
    _gone, alive = psutil.wait_procs(processes, timeout=60)
    assert not alive, f"still running after Ctrl-C: {[p.cmdline() for p in alive]}"


def fetch(url: str, path: str, headers: dict[str, str] | None = None) -> tuple[http.client.HTTPResponse, str]:
    address = urlparse(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=TIMEOUT)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    body = response.read().decode(errors="replace")
    connection.close()
    return response, body


def render(url: str, notebook: str) -> tuple[http.client.HTTPResponse, str]:
    """A lesson rendered as a browser asks for it (its notebook run in a new kernel): the response, the kernel's id."""
    response, page = fetch(url, f"/voila/render/{notebook}?token={TOKEN}")
    assert response.status == 200
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert kernel, "the rendered page names its kernel"
    return response, kernel[1]


@pytest.fixture(scope="module")
def landing(server) -> tuple[http.client.HTTPResponse, str]:
    return fetch(server["url"], f"/?token={TOKEN}")


@pytest.fixture(scope="module")
def rendered(server) -> dict[str, str]:
    """A lesson rendered as a browser asks for it; its kernel's id, and the response."""
    response, kernel = render(server["url"], "01_plain.ipynb")
    return {"kernel": kernel, "referrer": response.getheader("Referrer-Policy") or ""}


def test_a_title_that_looks_like_a_template_is_shown_as_written(landing):
    response, page = landing
    assert response.status == 200
    titles = [html.unescape(t) for t in re.findall(r'<a href="/voila/render/0\d_[a-z]+\.ipynb">([^<]*)</a>', page)]
    assert titles == ["A plain lesson", TEMPLATE_TITLE]  # not 49, no template error, <b> as text
    assert "03_damaged.ipynb" in page and "left out: it is not a notebook (not JSON)" in page
    assert "Traceback" not in page and "JSONDecodeError" not in page


def test_no_page_sends_its_address_to_another_site(landing, rendered):
    assert landing[0].getheader("Referrer-Policy") == "no-referrer"
    assert rendered["referrer"] == "no-referrer"


def test_the_token_is_the_only_way_in(server):
    for path in ("/login", "/logout", f"/login?token={TOKEN}", f"/logout?token={TOKEN}"):
        assert fetch(server["url"], path)[0].status == 404, path
    response, _ = fetch(server["url"], "/voila/render/01_plain.ipynb")
    assert response.status == 302 and response.getheader("Location").split("?")[0] == NEEDS_TOKEN_PAGE
    response, page = fetch(server["url"], NEEDS_TOKEN_PAGE)
    assert response.status == 200 and "?token=" in page and "<form" not in page


def _upgrade(server, kernel: str, origin: str | None, token: bool = True) -> int:
    headers = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}
    if origin is not None:
        headers["Origin"] = origin
    query = f"?token={TOKEN}" if token else ""
    return fetch(server["url"], f"/api/kernels/{kernel}/channels{query}", headers)[0].status


def test_a_kernels_websocket_needs_this_servers_origin_even_with_the_token(server):
    _, kernel = render(server["url"], "01_plain.ipynb")  # a kernel just started: well within its grace
    assert _upgrade(server, kernel, "http://evil.example") == 403
    assert _upgrade(server, kernel, None) == 403
    assert _upgrade(server, kernel, server["url"], token=False) == 403
    assert _upgrade(server, kernel, server["url"]) == 101  # the control: the page's own connection


def test_the_log_never_prints_the_token(server, landing, rendered):
    """The one line with the token is the address `workbench app` prints for the Director (its way in, on
    stdout); the server's log (stderr, here in the same file) has the requests without it."""
    fetch(server["url"], f"/no-such-page?token={TOKEN}")  # a refused request is logged (an accepted one at INFO)
    missing = "00000000-0000-4000-8000-000000000000"  # refused by jupyter_server, which logs the whole address
    assert fetch(server["url"], f"/api/kernels/{missing}?token={TOKEN}")[0].status == 404
    lines = Path(server["log"]).read_text().splitlines()
    assert any("GET /no-such-page" in line for line in lines)  # the control: requests with the token are logged
    assert any(f"GET /api/kernels/{missing}" in line and "Kernel does not exist" in line for line in lines)
    listening = next(i for i, line in enumerate(lines) if "Voilà is running at" in line)
    announced = next(i for i, line in enumerate(lines) if TOKEN in line)
    assert announced > listening  # printed once the server listens: a quick click is never refused
    assert not [line for line in lines if re.search(r"Warning|is not trusted|notebook-signing key", line)]
    assert [line for line in lines if TOKEN in line] == [
        f"workbench app: the Draw Steel workbench at {server['url']}/voila/render/{WORKBENCH_PAGE}?token={TOKEN} "
        "(Ctrl-C stops it)"]


def test_a_page_whose_browser_never_connects_has_its_kernel_shut_down(server):
    """A tab closed at once (or a crashed browser) sends no goodbye; its kernel goes after the grace period.
    The page was asked for as the server started (`server`), and its kernel was running then."""
    kernel = server["abandoned"]
    assert server["abandoned_status"] == "200"  # its kernel was running once the page had been served
    deadline = time.monotonic() + 2 * GRACE_S + 30
    while time.monotonic() < deadline:
        if fetch(server["url"], f"/api/kernels/{kernel}?token={TOKEN}")[0].status == 404:
            return
        time.sleep(1)
    pytest.fail(f"the kernel of a page nobody opened still ran {2 * GRACE_S + 30} s later")


OUTSIDE_HOST = re.compile(r"""(?:href|src)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)


def test_the_error_pages_load_nothing_from_another_host(server):
    missing, page_404 = fetch(server["url"], f"/voila/render/no-such-lesson.ipynb?token={TOKEN}")
    refused, page_403 = fetch(server["url"], f"/?token={TOKEN}", {"Host": "evil.example"})
    assert (missing.status, refused.status) == (404, 403)
    for page in (page_404, page_403):
        assert not OUTSIDE_HOST.search(page), OUTSIDE_HOST.search(page)
        assert "font-awesome" not in page.lower()


MALFORMED = (
    "/voila/render/..%00", "/voila/render/..%00.ipynb", "/voila/render/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/voila/render/a%00b.ipynb", "/voila/render/" + "n" * 5000 + ".ipynb",
    "/voila/templates/workbench/static/..%2f..%2fconf.json", "/voila/templates/workbench/static/%00",
    "/voila/templates/workbench/static/..%00/x", "/voila/templates/..%2f..%2f..%2fetc%2fpasswd",
    "/voila/templates/workbench/static/" + "n" * 5000, "/voila/templates/%2e%2e/static/x",
    "/voila/templates/workbench/static/../../../../../etc/passwd",
)


def test_malformed_paths_answer_400_or_404_without_a_traceback(server):
    log = Path(server["log"])
    before = log.stat().st_size
    for path in MALFORMED:
        for query in ("", f"?token={TOKEN}"):
            status = fetch(server["url"], path + query)[0].status
            assert status in (302, 400, 403, 404), (path, query, status)
    with log.open("rb") as written:
        written.seek(before)
        after = written.read().decode(errors="replace")
    assert "Traceback" not in after and " 500 " not in after, after[-2000:]
