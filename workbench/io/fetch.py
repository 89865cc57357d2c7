"""Downloading a URL the Director asked for, over http or https, up to a size cap, on a short leash.

Nothing is fetched but on request (`workbench bestiary add URL`, the page's Add button). The download goes only
where it was asked: a redirect is followed only to the same scheme, host and port. It is bounded in time: an
answer must start within `HEADER_TIMEOUT` seconds, the whole (its headers too) must arrive within `timeout`
(`URL_TIMEOUT`; a timer shuts the connection at the deadline), and after `RATE_GRACE` seconds a server sending
less than `MIN_RATE` bytes a second is given up on. A malformed URL
(a space or a control character, a port that is no number) is refused in one line naming what is wrong. When
the URL cannot be fetched, the refusal says what happened and names the manual route the caller gives
(download the file in a browser, then add the file), so a Director offline is never stuck.
"""

from __future__ import annotations

import http.client
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import IO, Any

from workbench.errors import InvalidInput

__all__ = [
    "HEADER_TIMEOUT",
    "MAX_DOWNLOAD_BYTES",
    "MIN_RATE",
    "RATE_GRACE",
    "URL_TIMEOUT",
    "FetchFailed",
    "Progress",
    "fetch",
    "is_url",
    "url_problem",
]

MAX_DOWNLOAD_BYTES = 128 * 1_048_576
URL_TIMEOUT = 30.0  # seconds the whole download may take
HEADER_TIMEOUT = 10.0  # seconds the server may stay silent: before its answer, and between two reads
MIN_RATE = 2048  # bytes a second a download must keep up after the grace period
RATE_GRACE = 5.0  # seconds before the rate is judged (a connection starts slowly)
_CONTROL = re.compile(r"[\x00-\x20\x7f]")

# (stage, done, total): stage "download" counts bytes (total 0 when the server gives no size), "read" files
Progress = Callable[[str, int, int], None]


def is_url(source: object) -> bool:
    return isinstance(source, str) and source.strip().lower().startswith(("http://", "https://"))


def _size(count: int) -> str:
    return f"{count // 1_048_576} MiB" if count >= 1_048_576 else f"{count // 1024} KiB"


def url_problem(url: str) -> str | None:
    """What makes `url` no http(s) URL the workbench fetches, in a few words, or None when it is one."""
    control = _CONTROL.search(url)
    if control is not None:
        what = "a space" if control.group() == " " else f"a control character ({control.group()!r})"
        return f"it holds {what} at position {control.start() + 1}; a URL has none"
    try:
        parsed = urllib.parse.urlsplit(url)
        port = parsed.port
    except ValueError as exc:
        word = str(exc).split(":")[0] if str(exc) else "malformed"
        return f"its port is not a number from 1 to 65535 ({word})" if "port" in word.lower() else f"{word}"
    if parsed.scheme.lower() not in ("http", "https"):
        return "it is not an http:// or https:// address"
    if not parsed.hostname:
        return "it names no server"
    if port == 0:
        return "its port is not a number from 1 to 65535"
    return None


def _origin(url: str) -> tuple[str, str, int]:
    parsed = urllib.parse.urlsplit(url)
    scheme = parsed.scheme.lower()
    return scheme, (parsed.hostname or "").lower(), parsed.port or (443 if scheme == "https" else 80)


class _Elsewhere(Exception):
    """A redirect to another scheme, host or port than the URL asked for."""


class _SameOrigin(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the scheme, host and port of the URL asked for."""

    def __init__(self, origin: tuple[str, str, int]) -> None:
        self.origin = origin

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        if url_problem(newurl) is not None or _origin(newurl) != self.origin:
            fp.close()  # the redirect's own answer, read no further
            raise _Elsewhere(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class FetchFailed(InvalidInput):
    """A URL that could not be fetched (offline, no such server, an error answer): `why` says what happened,
    and the message names the manual route (download the file in a browser, then add the file)."""

    def __init__(self, url: str, why: str, accepts: str, manual: str) -> None:
        self.why = why
        super().__init__("source", url, accepts, f"cannot fetch it ({why}); {manual}")


def _content_length(value: str | None) -> int:
    if value is None or not value.strip():
        return 0
    if not value.strip().isdigit() or len(value.strip()) > 19:
        raise ValueError(f"the server sent a bad Content-Length ({value.strip()[:20]!r})")
    return int(value.strip())


def fetch(
    url: str,
    into: IO[bytes],
    *,
    accepts: str,
    manual: str,
    progress: Progress | None = None,
    timeout: float = URL_TIMEOUT,
) -> None:
    """Download `url` into an open binary file, up to `MAX_DOWNLOAD_BYTES` and within `timeout` seconds;
    `InvalidInput` on "source" (saying it `accepts`) for a URL that is none, a `FetchFailed` naming the
    `manual` route when it cannot be fetched (unreachable, redirected elsewhere, too slow, a bad answer)."""
    if not isinstance(url, str):
        raise InvalidInput("source", url, accepts)
    url = url.strip()
    problem = url_problem(url)
    if problem is not None:
        raise InvalidInput("source", url, accepts, problem)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 3600:
        raise InvalidInput("timeout", timeout, "a number of seconds above 0, at most 3600")
    watch = _Deadline(timeout)
    opener = urllib.request.build_opener(_SameOrigin(_origin(url)), _WatchedHTTP(watch), _WatchedHTTPS(watch))
    request = urllib.request.Request(url, headers={"User-Agent": "drawsteel-workbench"})
    started = time.monotonic()
    try:
        with watch, opener.open(request, timeout=min(HEADER_TIMEOUT, timeout)) as response:
            _download(response, into, url, accepts, manual, progress, started + timeout)
            if watch.expired:  # the connection was shut at the deadline: what arrived is not the whole
                raise TimeoutError
    except InvalidInput:
        raise
    except Exception as exc:  # every way a download fails, named in one line
        if isinstance(exc, urllib.error.HTTPError):
            exc.close()  # an error answer holds its connection open until closed
        # the deadline shut the connection: whatever the socket said then, the time limit ended it
        failure: Exception = TimeoutError() if watch.expired else exc
        waited = timeout if watch.expired else time.monotonic() - started
        raise FetchFailed(url, _why(failure, timeout, waited), accepts, manual) from None
    into.flush()
    into.seek(0)


class _Deadline:
    """The whole download's time limit, kept by a timer: at the deadline every connection the download opened
    is shut, so a server trickling its headers (a byte every few seconds, each read within the silence limit)
    or a slow name lookup's connection ends there too, not only a body read between two chunks."""

    def __init__(self, timeout: float) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(timeout, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            expired = self.expired
        if expired:
            _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # already closed: nothing left to end
        pass


def _watched(base: type[http.client.HTTPConnection], deadline: _Deadline) -> Callable[..., Any]:
    def connection(*args: Any, **kwargs: Any) -> http.client.HTTPConnection:
        made = base(*args, **kwargs)
        own_connect = made.connect

        def connect() -> None:
            own_connect()
            deadline.watch(made.sock)

        made.connect = connect  # type: ignore[method-assign]
        return made

    return connection


class _WatchedHTTP(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def http_open(self, req: Any) -> Any:
        return self.do_open(_watched(http.client.HTTPConnection, self._deadline), req)


class _WatchedHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def https_open(self, req: Any) -> Any:
        return self.do_open(_watched(http.client.HTTPSConnection, self._deadline), req)


def _download(
    response: Any, into: IO[bytes], url: str, accepts: str, manual: str, progress: Progress | None, deadline: float
) -> None:
    """The answer's body into `into`, within the size cap, the deadline and the minimum rate."""
    total = _content_length(response.headers.get("Content-Length"))
    if total > MAX_DOWNLOAD_BYTES:
        raise InvalidInput("source", url, accepts, f"it is larger than {_size(MAX_DOWNLOAD_BYTES)}")
    started, done = time.monotonic(), 0
    if progress is not None:
        progress("download", 0, total)
    while chunk := response.read1(1 << 16):
        done += len(chunk)
        if done > MAX_DOWNLOAD_BYTES:
            raise InvalidInput("source", url, accepts, f"it is larger than {_size(MAX_DOWNLOAD_BYTES)}")
        into.write(chunk)
        if progress is not None:
            progress("download", done, total)
        now = time.monotonic()
        if now > deadline:
            raise TimeoutError
        if now - started > RATE_GRACE and done < MIN_RATE * (now - started):
            raise FetchFailed(url, f"the server sends less than {MIN_RATE // 1024} KiB a second", accepts, manual)


def _why(exc: Exception, timeout: float, waited: float) -> str:
    """What went wrong with a download, in a few words."""
    silent = f"the server went silent for {min(HEADER_TIMEOUT, timeout):.0f} s"
    if isinstance(exc, _Elsewhere):
        return f"it redirects to another address ({str(exc)[:200]}), which is not followed"
    if isinstance(exc, urllib.error.HTTPError):
        return f"the server answered {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        return silent if isinstance(exc.reason, TimeoutError) else f"no connection: {exc.reason}"
    if isinstance(exc, TimeoutError):
        return f"not downloaded within {timeout:.0f} s" if waited >= timeout else silent
    if isinstance(exc, (http.client.HTTPException, ValueError)):
        return f"a bad answer from the server: {str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__}"
    if isinstance(exc, OSError):
        return f"the connection failed: {exc}"
    return f"the download failed ({type(exc).__name__})"
