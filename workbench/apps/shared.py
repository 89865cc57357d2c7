"""One Director's workbench in one kernel: what every tool of the workbench page shows and changes.

Why: on the one page every tool is a view of the same workbench, not a page of its own that learns of the others
through files. The monster in the builder is the one the encounter offers first; the encounter built is the one
the fight runs; the Victories a fight awards are the party's at once, on the encounter view too. A tool reads
this state when it is built and follows it afterwards through observers (traitlets), so no tool has to know
another; a tool that wants another in view says so (`wanted`), and the page shows it.

What must outlive the page is also saved as it changes: the encounter and its party go to the workspace file
(`workbench.workspace.state`) at each change, under its compare-and-swap, so a reload (a new kernel) or another
tab opens the same encounter. What a tool writes to the workspace file itself (a fight's Victories, an
encounter of an adventure to fight) is read back at once (`reload`). The builder's monster lives in memory
only; the builder's Save keeps it. Game logic stays below: the encounter's Monsters are remembered by
`remember_encounter`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import traitlets

from workbench.apps.message import refusal_html
from workbench.encounter.encounter import Encounter
from workbench.errors import WorkbenchError
from workbench.io.problem import os_reason
from workbench.io.writing import FileChanged
from workbench.model import Monster
from workbench.render.message import error_html
from workbench.workspace.state import (
    Workspace,
    default_workspace,
    load_workspace,
    remember_encounter,
    save_workspace,
)

__all__ = ["Workbench"]


class Workbench(traitlets.HasTraits):
    """The shared state: `workspace` (the encounter and its party, as saved), `monster` (the builder's, None
    before the builder is opened), `opening` (a stat block file another tool asked the builder to open),
    `wanted` (the key of a tool a tool asked to bring into view), `revealed` (a CSS selector of what a tool
    asked the page to scroll into view, set and then cleared) and `problem` (why the saved workspace could not
    be read, as HTML; "" when it was)."""

    workspace = traitlets.Instance(Workspace)
    monster = traitlets.Instance(Monster, allow_none=True)
    opening = traitlets.Instance(Path, allow_none=True)
    wanted = traitlets.Unicode("")
    revealed = traitlets.Unicode("")
    problem = traitlets.Unicode("")

    @classmethod
    def opened(cls) -> Workbench:
        """The Director's workbench as saved (a fresh workspace, and the reason, when the file cannot be read:
        the file is kept)."""
        try:
            return cls(workspace=load_workspace())
        except WorkbenchError as exc:
            return cls(workspace=default_workspace(),
                       problem=refusal_html(exc) + " A new workspace is used; the file is kept.")

    def keep_encounter(self, workspace: Workspace) -> str:
        """Save `workspace` (the encounter changed) and make it the shared one; the words to show (HTML:
        empty when nothing changed, the refusal when the save was refused and nothing changed)."""
        if workspace == self.workspace:
            return ""
        try:
            save_workspace(workspace)
        except WorkbenchError as exc:  # another tab saved first, or the file is damaged: it is kept
            again = " Reload the page to go on from the saved workspace." if isinstance(exc, FileChanged) else ""
            return error_html(f"Could not keep the encounter: {exc.summary}.{again}")
        except OSError as exc:
            return error_html(f"Could not keep the encounter: {os_reason(exc)}.")
        self.workspace = workspace
        return ""

    def remember(self, encounter: Encounter, known: Iterable[Monster] = ()) -> str:
        """The encounter tool's change: `encounter` kept with the Monsters behind its creatures (`known`, and the
        builder's monster), saved; the words to show as `keep_encounter`."""
        mine = (self.monster,) if self.monster is not None else ()
        return self.keep_encounter(remember_encounter(self.workspace, encounter, (*known, *mine)))

    def reveal(self, selector: str) -> None:
        """Ask the page to scroll what `selector` finds into view (the page's `Revealer` does it)."""
        self.revealed = selector
        self.revealed = ""

    def reload(self) -> str:
        """The workspace as saved now (a tool wrote it: a fight's Victories, an adventure's encounter), made the
        shared one; the words to show (HTML: empty when it was read)."""
        try:
            self.workspace = load_workspace()
        except WorkbenchError as exc:
            return refusal_html(exc)
        return ""
