"""The Director's workbench folder and what lives in it: the workspace file, the added bestiaries, the saved
encounters and adventures (the monsters' library is `workbench.io.home.library_folder`), and a stamp of what
the folder holds, so a page built before its visit knows whether another page saved meanwhile.
"""

from __future__ import annotations

from pathlib import Path

from workbench.io.home import user_folder

__all__ = ["adventures_folder", "bestiaries_folder", "encounters_folder", "folder_stamp", "workspace_path"]


def workspace_path() -> Path:
    return user_folder() / "workspace.json"


def bestiaries_folder() -> Path:
    """Where the bestiaries the Director added live, one folder each (`workbench bestiary add`)."""
    return user_folder() / "bestiaries"


def encounters_folder() -> Path:
    """Where the encounter page saves the Director's encounters (a name alone saves here)."""
    return user_folder() / "encounters"


def adventures_folder() -> Path:
    """Where the Director's adventures are saved."""
    return user_folder() / "adventures"


def folder_stamp(folder: Path | None = None) -> tuple[tuple[str, int, int], ...]:
    """What the Director's folder holds now, as (file, size, modification time in ns) for every file in it.

    A page built before its visit (a preheated kernel, `workbench.apps.visit`) compares the stamp taken when
    it was built with the one at the visit: another page may have saved a monster or changed the encounter
    in between, and then the page is built again from the files. Cheap: a stat per file, nothing read.
    """
    folder = folder if folder is not None else user_folder()
    found = []
    for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
        try:
            if path.is_file() and not path.name.startswith("."):  # the lock and unfinished saves are not files
                stat = path.stat()
                found.append((path.relative_to(folder).as_posix(), stat.st_size, stat.st_mtime_ns))
        except OSError:  # removed while we looked: it is simply not there
            continue
    return tuple(found)
