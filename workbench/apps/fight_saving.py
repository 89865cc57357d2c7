"""A fight kept like a document on its page: every save's outcome said where the Director is looking, and a
save refused because the file changed since the page opened it (another page on the same fight saved first)
offers to reload the saved fight or to keep both, this page's saved as a second file beside it.

Glue only: `Fight.save` refuses the changed file (compare-and-swap, `FileChanged`); this says so and acts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets

from workbench.apps.message import refusal_html
from workbench.errors import InvalidInput, WorkbenchError
from workbench.fight.fight import Fight, load_fight
from workbench.io.problem import FileProblem, os_reason
from workbench.io.writing import FileChanged
from workbench.render.message import error_html, ok_html

__all__ = ["FightSaving", "second_file"]

MAX_SECOND_FILES = 99  # "fight-….json" kept beside it as "fight-… (2).json" up to this number


def second_file(path: Path) -> Path:
    """A name beside `path` no file has yet: `NAME (2).json`, `NAME (3).json`, ..."""
    for number in range(2, MAX_SECOND_FILES + 1):
        candidate = path.with_name(f"{path.stem} ({number}){path.suffix}")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
    raise InvalidInput("fight", path.name, "a fight file with fewer second copies",
                       f"{MAX_SECOND_FILES - 1} copies are already kept beside it")


class FightSaving:
    """The save line of a fight page: `save(fight)` after every change. A save that fails is said in
    `status` (shown above the runner's controls, beside refusals), never only logged; one refused because
    the file changed shows "Reload the saved fight" and "Keep both". `on_reload(fight)` gives the page the
    fight read back from the file."""

    def __init__(self, path: Path, on_reload: Callable[[Fight], None]) -> None:
        self.path = path
        self._on_reload = on_reload
        self._fight: Fight | None = None
        self.status = widgets.HTML().add_class("wb-fight-saved")
        self.reload_button = widgets.Button(description="Reload the saved fight", layout={"width": "auto"})
        self.keep_both_button = widgets.Button(description="Keep both (save this one as a second file)",
                                               layout={"width": "auto"})
        self.reload_button.on_click(lambda _button: self.reload())
        self.keep_both_button.on_click(lambda _button: self.keep_both())
        self.choices = widgets.HBox([self.reload_button, self.keep_both_button], layout={"display": "none"})
        self.box = widgets.VBox([self.status, self.choices])
        self.box.add_class("wb-fight-saving")

    def _say(self, text_html: str, choices: bool = False) -> None:
        self.status.value = text_html
        self.choices.layout.display = "flex" if choices else "none"

    def save(self, fight: Fight) -> bool:
        """Write `fight` to the page's file; False (and the reason shown) when it was not saved."""
        self._fight = fight
        try:
            fight.save(self.path)
        except FileChanged:
            self._say(error_html(
                f"Not saved: {self.path.name} changed since this page opened it (another page on this fight "
                "saved it). Reload the saved fight to go on from there, or keep both: this page's fight is "
                "saved as a second file beside it."), choices=True)
            return False
        except FileProblem as exc:
            self._say(error_html(f"Not saved: {exc.reason}. The fight goes on on this page only."))
            return False
        except WorkbenchError as exc:
            self._say(error_html("Not saved. ") + refusal_html(exc))
            return False
        except OSError as exc:
            self._say(error_html(f"Not saved: {os_reason(exc)}. The fight goes on on this page only."))
            return False
        self._say("")
        return True

    def reload(self) -> None:
        """The fight as the file holds it now replaces this page's (what this page did since is dropped)."""
        try:
            fight = load_fight(self.path)
        except InvalidInput as exc:
            self._say(error_html("Could not reload the saved fight. ") + refusal_html(exc), choices=True)
            return
        self._fight = fight
        self._say(ok_html(f"Reloaded the fight saved in {self.path.name}."))
        self._on_reload(fight)

    def keep_both(self) -> None:
        """This page's fight saved as a second file beside the other page's; its later saves go there."""
        if self._fight is None:
            return
        try:
            second = second_file(self.path)
            self._fight.kept_in(second)
            self._fight.save(second)
        except (WorkbenchError, OSError) as exc:
            reason = exc.reason if isinstance(exc, FileProblem) else (
                exc.summary if isinstance(exc, WorkbenchError) else os_reason(exc))
            self._say(error_html(f"Not saved as a second file: {reason}."), choices=True)
            return
        kept, self.path = self.path, second
        self._say(ok_html(f"Both kept: this page's fight is saved as {second.name}; the other page's stays "
                          f"in {kept.name}."))
