"""Reading the workbench's own versioned JSON files: the one reader every kind it saves goes through.

An encounter, an adventure, a fight and a homebrew monster are each saved as a JSON object marked with a
"format" tag and a "version". `read_tagged` reads such a file safely (size and depth limits, through
`workbench.io.reading`) and refuses one of another kind or version with `NotThisKind`, so each loader words the refusal
for its own users; `read_saved` goes on to validate one part of the file against a pydantic model, strictly,
and refuses anything wrong as one `InvalidInput` naming the file and what is wrong.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ValidationError

from workbench.errors import InvalidInput, shown
from workbench.io.problem import FileProblem
from workbench.io.reading import read_json

__all__ = ["NotThisKind", "is_tagged", "read_tagged", "read_saved", "saved_part"]

Saved = TypeVar("Saved", bound=BaseModel)


class NotThisKind(FileProblem):
    """A file that reads as JSON but is not of the format or version asked for; `reason` says which."""

    code = "foreign-file"


def _tag_problem(data: Any, file_format: str, versions: tuple[int, ...] | None) -> str | None:
    """What marks parsed JSON as not a workbench file of this format and one of these versions (None: any
    version), or None when it is one."""
    if not isinstance(data, dict) or data.get("format") != file_format:
        return f"no \"format\": \"{file_format}\" marker"
    found = data.get("version")
    if versions is not None and (isinstance(found, bool) or found not in versions):
        return f"version {shown(found)}; this workbench reads {' or '.join(map(str, versions))}"
    return None


def is_tagged(raw: bytes, file_format: str) -> bool:
    """Whether a file's bytes are a JSON object marked `"format": file_format`: the test a save makes of the
    file it would replace, so that a save replaces only a file of its own kind (any version)."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return False
    return _tag_problem(data, file_format, None) is None


def read_tagged(
    path: str | Path, file_format: str, version: int | None = None, *, inside: str | Path | None = None
) -> dict[str, Any]:
    """The JSON object of a file marked `"format": file_format` (and `"version": version` unless None, for a
    kind whose model reads several versions); `inside`: the file must resolve into that folder.

    An unreadable file raises `FileProblem`; one of another format or version raises `NotThisKind`.
    """
    data = read_json(path, inside=inside)
    problem = _tag_problem(data, file_format, None if version is None else (version,))
    if problem is not None:
        raise NotThisKind(path, problem)
    return cast(dict[str, Any], data)  # a file with no tag problem is a JSON object


def read_saved(
    path: object,
    key: str,
    file_format: str,
    version: int | tuple[int, ...],
    model: type[Saved],
    prepare: Callable[[Any], list[str]] | None = None,
    check: Callable[[Saved], list[str]] | None = None,
) -> tuple[Path, Saved]:
    """The `key` part of a workbench file of this format and version (or one of these versions), as `model`;
    a corrupt, foreign or hostile file is refused naming the file and what is wrong (an encounter or an
    adventure file). `prepare` reads the part as parsed JSON before the model does (it may settle it in place)
    and `check` the model after; every problem either finds is refused at once, with the model's own."""
    accepts = f"an {key} JSON file saved by the workbench"
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise InvalidInput("file", path, accepts)
    path = Path(path)
    versions = version if isinstance(version, tuple) else (version,)
    try:
        data = read_tagged(path, file_format, None if len(versions) > 1 else versions[0])
    except FileProblem as exc:  # NotThisKind among them
        raise InvalidInput("file", str(path), accepts, exc.reason) from None
    saved, problems = saved_part(data, key, file_format, versions, model, prepare, check)
    if saved is None or problems:
        raise InvalidInput("file", str(path), accepts, "; ".join(problems))
    return path, saved


def saved_part(
    data: Any,
    key: str,
    file_format: str,
    version: int | tuple[int, ...],
    model: type[Saved],
    prepare: Callable[[Any], list[str]] | None = None,
    check: Callable[[Saved], list[str]] | None = None,
) -> tuple[Saved | None, list[str]]:
    """The `key` part of a workbench file's parsed JSON (read from a file, or from a share code) as `model`,
    and every problem found with it (none: the part is good); the checks `read_saved` makes of a file."""
    problem = _tag_problem(data, file_format, version if isinstance(version, tuple) else (version,))
    if problem is not None:
        return None, [problem]
    part = data.get(key)
    problems = prepare(part) if prepare is not None else []
    try:
        # strict: `true` is no level and "3" no count (JSON mode still reads arrays as tuples)
        saved = model.model_validate_json(json.dumps(part), strict=True)
    except ValidationError as exc:
        return None, problems + [
            f"{'.'.join(str(p) for p in e['loc']) or key}: {e['msg']}" for e in exc.errors()[:5]
        ]
    problems += check(saved) if check is not None else []
    return saved, problems
