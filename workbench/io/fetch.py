"""Downloading a URL the Director asked for, over http or https, up to a size cap.

Nothing is fetched but on request (`workbench bestiary add URL`, the page's Add button). When the URL cannot be
reached, the refusal says what happened and names the manual route the caller gives (download the file in a
browser, then add the file), so a Director offline is never stuck.
"""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import IO

from workbench.errors import InvalidInput

__all__ = ["MAX_DOWNLOAD_BYTES", "URL_TIMEOUT", "FetchFailed", "Progress", "fetch", "is_url"]

MAX_DOWNLOAD_BYTES = 128 * 1_048_576
URL_TIMEOUT = 30.0

# (stage, done, total): stage "download" counts bytes (total 0 when the server gives no size), "read" files
Progress = Callable[[str, int, int], None]


def is_url(source: object) -> bool:
    return isinstance(source, str) and source.strip().lower().startswith(("http://", "https://"))


def _size(count: int) -> str:
    return f"{count // 1_048_576} MiB" if count >= 1_048_576 else f"{count // 1024} KiB"


class FetchFailed(InvalidInput):
    """A URL that could not be fetched (offline, no such server, an error answer): `why` says what happened,
    and the message names the manual route (download the file in a browser, then add the file)."""

    def __init__(self, url: str, why: str, accepts: str, manual: str) -> None:
        self.why = why
        super().__init__("source", url, accepts, f"cannot fetch it ({why}); {manual}")


def fetch(
    url: str,
    into: IO[bytes],
    *,
    accepts: str,
    manual: str,
    progress: Progress | None = None,
    timeout: float = URL_TIMEOUT,
) -> None:
    """Download `url` into an open binary file, up to `MAX_DOWNLOAD_BYTES`; `InvalidInput` on "source" (saying
    it `accepts`), a `FetchFailed` naming the `manual` route when it cannot be fetched."""
    parsed = urllib.parse.urlparse(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise InvalidInput("source", url, accepts)
    request = urllib.request.Request(url.strip(), headers={"User-Agent": "drawsteel-workbench"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - http(s) checked above
            total = int(response.headers.get("Content-Length") or 0)
            if total > MAX_DOWNLOAD_BYTES:
                raise InvalidInput("source", url, accepts, f"it is larger than {_size(MAX_DOWNLOAD_BYTES)}")
            done = 0
            if progress is not None:
                progress("download", 0, total)
            while True:
                chunk = response.read(1 << 16)
                if not chunk:
                    break
                done += len(chunk)
                if done > MAX_DOWNLOAD_BYTES:
                    raise InvalidInput("source", url, accepts, f"it is larger than {_size(MAX_DOWNLOAD_BYTES)}")
                into.write(chunk)
                if progress is not None:
                    progress("download", done, total)
    except urllib.error.HTTPError as exc:
        raise FetchFailed(url, f"the server answered {exc.code} {exc.reason}", accepts, manual) from None
    except urllib.error.URLError as exc:
        raise FetchFailed(url, f"no connection: {exc.reason}", accepts, manual) from None
    except TimeoutError:
        raise FetchFailed(url, f"no answer within {timeout:.0f} s", accepts, manual) from None
    except (ConnectionError, OSError) as exc:
        raise FetchFailed(url, f"the connection failed: {exc}", accepts, manual) from None
    into.flush()
    into.seek(0)
