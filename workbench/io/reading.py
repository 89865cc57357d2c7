"""Reading a user's files safely: the one place every loader goes through.

A Director's folders hold files from anywhere (downloads, shared libraries, a careless copy), so no file may
take a loader down or hang it. A file is read only if it is a regular file of at most `MAX_FILE_BYTES`,
inside the folder it was listed from (a symlink leading out is refused), as UTF-8 text; JSON and TOML are
parsed with caps on nesting depth (`MAX_DEPTH`) and number length (`MAX_NUMBER_CHARS`), NaN and Infinity
refused. Every refusal, and every exception a parser or the file system can raise, becomes a
`FileProblem` naming the file and saying why, which each loader reports beside the files that did load.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from workbench.io.problem import FileProblem, os_reason

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NUMBER_CHARS",
    "is_inside",
    "long_number",
    "parse_json",
    "parse_toml",
    "read_bytes",
    "read_json",
    "read_text",
    "read_toml",
]

MAX_FILE_BYTES = 1_048_576  # 1 MiB: the largest file the project reads is ~25 KB
MAX_DEPTH = 64  # nesting of objects/arrays (tables); the deepest file the project writes has 6
MAX_NUMBER_CHARS = 40  # a number written with more characters than this is no number a rule needs
_LONG_NUMBER = re.compile(rf"\d{{{MAX_NUMBER_CHARS + 1},}}")


def long_number(text: str) -> str | None:
    """The first run of more than `MAX_NUMBER_CHARS` digits in a text, if any. A reader that takes numbers out of
    texts ("Stamina 60", "Power Roll + 2") refuses the text first: int() raises its own ValueError past 4,300 digits."""
    run = _LONG_NUMBER.search(text)
    return run.group() if run else None

def _size(limit: int) -> str:
    return f"{limit // 1_048_576} MiB" if limit % 1_048_576 == 0 else f"{limit:,} bytes"


def is_inside(path: Path, folder: Path) -> bool:
    """Whether `path`, with every symlink followed, is inside `folder` (also resolved)."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop on older Pythons
        return False


def read_bytes(path: str | Path, *, inside: str | Path | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; `inside`: it must resolve into that folder.

    Opened non-blocking and checked with fstat before reading, so a FIFO or a device never hangs the
    caller; read `limit + 1` bytes at most, so a huge or growing file costs no memory.
    """
    path = Path(path)
    if inside is not None and not is_inside(path, Path(inside)):
        raise FileProblem(path, "a link to a file outside the folder (only files inside it are read)")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise FileProblem(path, f"cannot read the file: {os_reason(exc)}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe, device or socket"
            raise FileProblem(path, f"not a regular file ({kind})")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileProblem(path, f"cannot read the file: {os_reason(exc)}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileProblem(path, f"too large: more than {_size(limit)} (the limit for a file the workbench reads)")
    return b"".join(chunks)


def read_text(path: str | Path, *, inside: str | Path | None = None, limit: int = MAX_FILE_BYTES) -> str:
    """A file as UTF-8 text (a leading byte-order mark dropped), under the same rules as `read_bytes`."""
    raw = read_bytes(path, inside=inside, limit=limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileProblem(path, "not UTF-8 text") from None


_SURROGATE = re.compile("[\ud800-\udfff]")


class _TooLong(Exception):
    pass


class _OutOfRange(Exception):
    pass


def _number(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """A number hook for the parsers: refuses long literals, infinities, NaN and absurd exponents."""

    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise _TooLong(text)
        value = convert(text)
        if isinstance(value, Decimal):
            magnitude = value.adjusted() if value.is_finite() and value else 0
            if not value.is_finite() or not -MAX_NUMBER_CHARS <= magnitude < MAX_NUMBER_CHARS:
                raise _OutOfRange(text)
        elif isinstance(value, float) and value and not (
            math.isfinite(value) and 10.0**-MAX_NUMBER_CHARS <= abs(value) < 10.0**MAX_NUMBER_CHARS
        ):
            raise _OutOfRange(text)
        return value

    return parse


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


Parsed = TypeVar("Parsed")


def _check_tree(data: Parsed, source: str | Path) -> Parsed:
    """Depth and number caps on parsed data, walked without recursion (the parser may allow more)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    limit = 10**MAX_NUMBER_CHARS
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = [*value.keys(), *value.values()]
        elif isinstance(value, list):
            children = value
        else:
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= limit:
                raise FileProblem(source, f"a number longer than {MAX_NUMBER_CHARS} characters (the limit)")
            if isinstance(value, str) and _SURROGATE.search(value):
                raise FileProblem(source, "a text holding a lone surrogate (\\ud800-\\udfff), which is no character")
            continue
        if depth > MAX_DEPTH:
            raise FileProblem(source, f"nested deeper than {MAX_DEPTH} levels (the limit)")
        stack.extend((child, depth + 1) for child in children)
    return data


def _parse(kind: str, parse: Callable[[], Parsed], source: str | Path) -> Parsed:
    """Run a parser, turning every exception it can raise into a FileProblem naming `source`."""
    try:
        data = parse()
    except FileProblem:
        raise
    except RecursionError:
        raise FileProblem(source, f"nested deeper than {MAX_DEPTH} levels (the limit)") from None
    except _TooLong:
        raise FileProblem(source, f"a number longer than {MAX_NUMBER_CHARS} characters (the limit)") from None
    except _OutOfRange as exc:
        raise FileProblem(
            source, f"the number {str(exc)[:MAX_NUMBER_CHARS]} is infinite, not a number, or beyond ±10^{MAX_NUMBER_CHARS}"
        ) from None
    except json.JSONDecodeError as exc:
        raise FileProblem(source, f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except tomllib.TOMLDecodeError as exc:
        raise FileProblem(source, f"not valid TOML ({exc})") from None
    except (ValueError, ArithmeticError, MemoryError, TypeError) as exc:
        message = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        if "digits" in message:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
            raise FileProblem(source, f"a number longer than {MAX_NUMBER_CHARS} characters (the limit)") from None
        raise FileProblem(source, f"not valid {kind} ({message})") from None
    return _check_tree(data, source)


def parse_json(text: str, source: str | Path = "JSON text") -> Any:
    """JSON text as plain data (floats as `float`), with the caps above; NaN and Infinity refused."""
    return _parse(
        "JSON",
        lambda: json.loads(
            text, parse_int=_number(int), parse_float=_number(float), parse_constant=_no_constant
        ),
        source,
    )


def parse_toml(
    text: str, source: str | Path = "TOML text", parse_float: Callable[[str], Any] = Decimal
) -> dict[str, Any]:
    """TOML text as plain data (decimals exact by default), with the caps above."""
    return _parse("TOML", lambda: tomllib.loads(text, parse_float=_number(parse_float)), source)


def read_json(path: str | Path, *, inside: str | Path | None = None, source: str | Path | None = None) -> Any:
    """A JSON file read and parsed safely; problems name `source` (the path by default)."""
    return parse_json(read_text(path, inside=inside), path if source is None else source)


def read_toml(
    path: str | Path,
    *,
    inside: str | Path | None = None,
    source: str | Path | None = None,
    parse_float: Callable[[str], Any] = Decimal,
) -> dict[str, Any]:
    """A TOML file read and parsed safely; problems name `source` (the path by default)."""
    return parse_toml(read_text(path, inside=inside), path if source is None else source, parse_float)

