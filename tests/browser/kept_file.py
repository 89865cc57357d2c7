"""A file the browser tests change and put back: the app server's workspace, which every module's pages share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def kept_file(path: Path) -> Iterator[Path]:
    """`path` as it was before the block (its bytes, or no file at all) once the block ends, however it ends."""
    before = path.read_bytes() if path.exists() else None
    try:
        yield path
    finally:
        if before is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(before)
