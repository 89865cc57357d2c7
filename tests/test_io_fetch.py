"""Downloads on a short leash, against a local server in a thread: redirects only to the URL's own scheme, host
and port; a trickling server and a silent one given up on in time; every malformed URL or answer one line."""

from __future__ import annotations

import http.server
import io
import threading
import time
from collections.abc import Iterator

import pytest

from workbench.errors import InvalidInput
from workbench.io import fetch as fetching
from workbench.io.fetch import FetchFailed, fetch, url_problem

BODY = b"stat blocks " * 100
MANUAL = "download the file in a browser, then add the file"


class _Handler(http.server.BaseHTTPRequestHandler):
    stop: threading.Event
    other_port: int

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, headers: dict[str, str], body: bytes = b"") -> None:
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _trickle(self, every: float) -> None:
        """A byte every `every` seconds until the test stops the server or the client hangs up."""
        while not self.stop.is_set():
            try:
                self.wfile.write(b"x")
                self.wfile.flush()
            except OSError:
                return
            self.stop.wait(every)

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        port = self.server.server_address[1]
        if self.path == "/file":
            self._send(200, {"Content-Length": str(len(BODY))}, BODY)
        elif self.path == "/same":
            self._send(302, {"Location": f"http://127.0.0.1:{port}/file", "Content-Length": "0"})
        elif self.path == "/other-port":
            self._send(302, {"Location": f"http://127.0.0.1:{self.other_port}/file", "Content-Length": "0"})
        elif self.path == "/ftp":
            self._send(302, {"Location": "ftp://127.0.0.1/file", "Content-Length": "0"})
        elif self.path == "/other-host":
            self._send(301, {"Location": f"http://localhost:{port}/file", "Content-Length": "0"})
        elif self.path == "/bad-length":
            self._send(200, {"Content-Length": "twelve"}, BODY)
        elif self.path == "/trickle":
            self.send_response(200)
            self.end_headers()
            self._trickle(0.02)
        elif self.path == "/slow-headers":  # a header line a byte at a time, each well within the silence limit
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            self._trickle(0.05)
        elif self.path == "/silent":
            self.stop.wait(30)


@pytest.fixture
def server() -> Iterator[str]:
    stop = threading.Event()
    handler = type("Handler", (_Handler,), {"stop": stop, "other_port": 1})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    handler.other_port = other.server_address[1]
    threads = [threading.Thread(target=s.serve_forever, args=(0.05,), daemon=True) for s in (httpd, other)]
    for thread in threads:
        thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        stop.set()
        for s in (httpd, other):
            s.shutdown()
            s.server_close()


def _get(url: str, **kwargs: object) -> bytes:
    into = io.BytesIO()
    fetch(url, into, accepts="a URL", manual=MANUAL, **kwargs)  # type: ignore[arg-type]
    return into.getvalue()


def _failure(url: str, **kwargs: object) -> str:
    with pytest.raises(FetchFailed) as caught:
        _get(url, **kwargs)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and MANUAL in message
    return caught.value.why


def test_a_file_and_a_redirect_on_the_same_server_are_fetched(server):
    assert _get(f"{server}/file") == BODY
    assert _get(f"{server}/same") == BODY


@pytest.mark.parametrize("path", ["/other-port", "/ftp", "/other-host"])
def test_a_redirect_elsewhere_is_not_followed(server, path):
    assert "redirects to another address" in _failure(f"{server}{path}")


def test_a_trickling_server_is_given_up_on_within_the_limit(server, monkeypatch):
    monkeypatch.setattr(fetching, "RATE_GRACE", 0.3)
    started = time.monotonic()
    assert "less than" in _failure(f"{server}/trickle")
    assert time.monotonic() - started < 5


def test_a_trickle_slower_than_the_whole_limit_is_refused_at_the_limit(server, monkeypatch):
    monkeypatch.setattr(fetching, "MIN_RATE", 0)
    started = time.monotonic()
    assert "not downloaded within 1 s" in _failure(f"{server}/trickle", timeout=1.0)
    assert time.monotonic() - started < 5


def test_a_server_trickling_its_headers_is_given_up_on_at_the_whole_limit(server):
    started = time.monotonic()
    assert "not downloaded within 1 s" in _failure(f"{server}/slow-headers", timeout=1.0)
    assert time.monotonic() - started < 3


def test_a_silent_server_is_given_up_on_quickly(server, monkeypatch):
    monkeypatch.setattr(fetching, "HEADER_TIMEOUT", 0.3)
    started = time.monotonic()
    why = _failure(f"{server}/silent")
    assert "0 s" in why or "silent" in why or "no answer" in why
    assert time.monotonic() - started < 5


def test_a_bad_content_length_is_one_line(server):
    assert "Content-Length" in _failure(f"{server}/bad-length")


@pytest.mark.parametrize("url, says", [
    ("http://exa mple.org/a.zip", "a space at position 11"),
    ("http://example.org/a\r\nX-Evil: 1", "control character"),
    ("http://example.org:http/a.zip", "port"),
    ("http://example.org:99999/a.zip", "port"),
    ("ftp://example.org/a.zip", "http"),
    ("http:///a.zip", "no server"),
])
def test_a_malformed_url_is_refused_in_one_line_naming_what_is_wrong(url, says):
    assert says in (url_problem(url) or "")
    with pytest.raises(InvalidInput) as caught:
        _get(url)
    assert not isinstance(caught.value, FetchFailed)
    assert says in str(caught.value) and len(str(caught.value).splitlines()) == 1
