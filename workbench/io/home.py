"""Where a Director's own files live: one workspace folder that the lessons, the app pages and the command line
all use, so a monster saved in one of them is offered in the others."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["HOME_VARIABLE", "library_folder", "user_folder"]

HOME_VARIABLE = "WORKBENCH_HOME"


def user_folder() -> Path:
    """The Director's workbench folder: `$WORKBENCH_HOME`, else `~/drawsteel-workbench` (read at each call, so
    a test or a second Director can point it elsewhere)."""
    named = os.environ.get(HOME_VARIABLE, "").strip()
    return Path(named).expanduser() if named else Path.home() / "drawsteel-workbench"


def library_folder() -> Path:
    """Where the Director's monsters are saved and looked for, unless a folder is named."""
    return user_folder() / "monsters"
