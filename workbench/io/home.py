"""Where a Director's own files live: one workspace folder that the lessons, the app pages and the command line
all use, so a monster saved in one of them is offered in the others."""

from __future__ import annotations

import os
from pathlib import Path

from workbench.errors import InvalidInput
from workbench.io.problem import os_reason

__all__ = ["HOME_VARIABLE", "library_folder", "open_workspace_folder", "user_folder"]

HOME_VARIABLE = "WORKBENCH_HOME"


def user_folder() -> Path:
    """The Director's workbench folder: `$WORKBENCH_HOME`, else `~/drawsteel-workbench` (read at each call, so
    a test or a second Director can point it elsewhere)."""
    named = os.environ.get(HOME_VARIABLE, "").strip()
    return Path(named).expanduser() if named else Path.home() / "drawsteel-workbench"


def library_folder() -> Path:
    """Where the Director's monsters are saved and looked for, unless a folder is named."""
    return user_folder() / "monsters"


def open_workspace_folder(folder: str | os.PathLike[str]) -> Path:
    """Make `folder` the workspace for this process (its pages, its lessons): `$WORKBENCH_HOME` is set to it.

    An existing folder is opened as it is; a new one is made when the folder it goes in exists (a typing slip
    never makes a tree of folders). Nothing in the old workspace is touched. `InvalidInput` on "folder" says
    why one cannot be opened. Returns the folder, in full.
    """
    accepts = "a folder path (an existing folder, or a new one inside an existing folder)"
    if not isinstance(folder, (str, os.PathLike)) or not str(folder).strip() or "\0" in str(folder):
        raise InvalidInput("folder", folder, accepts)
    path = Path(str(folder).strip()).expanduser().absolute()
    if path.exists() and not path.is_dir():
        raise InvalidInput("folder", str(path), accepts, "it is a file, not a folder")
    if not path.exists():
        if not path.parent.is_dir():
            raise InvalidInput("folder", str(path), accepts, f"there is no folder {path.parent}")
        try:
            path.mkdir()
        except OSError as exc:
            raise InvalidInput("folder", str(path), accepts, f"cannot make it: {os_reason(exc)}") from None
    os.environ[HOME_VARIABLE] = str(path)
    return path
