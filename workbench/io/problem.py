"""A file the workbench cannot read, parse or write safely, said in one line naming the file and the cause.

Every loader and every save turns what the file system or a parser raises into a `FileProblem`, so a
Director sees which file failed and why beside the files that did load, never a traceback.
"""

from __future__ import annotations

import errno
from pathlib import Path

from workbench.errors import WorkbenchError

__all__ = ["FileProblem", "os_reason"]


class FileProblem(WorkbenchError):
    """A file that cannot be read, parsed or written safely; `file` names it, `reason` says why."""

    code = "unreadable-file"

    def __init__(self, file: str | Path, reason: str) -> None:
        self.file = str(file)
        self.reason = reason
        super().__init__(f"{self.file}: {reason}")


def os_reason(exc: OSError) -> str:
    """What an OSError means for the Director, in words (a full disk, a read-only folder, ...)."""
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.EFBIG:
        return "the file would exceed the file size limit"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied (the file or folder is read-only or protected)"
    if exc.errno == errno.EROFS:
        return "the folder is on a read-only file system"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if exc.errno == errno.EISDIR:
        return "it is a folder, not a file"
    if exc.errno == errno.ENOENT:
        return "no such file or folder"
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop"
    return exc.strerror or str(exc) or "the system gave no reason"

