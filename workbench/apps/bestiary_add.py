"""The "Add a bestiary" control: a folder path or a URL typed, or a .zip / .tar.gz file uploaded, added to the
workspace as a bestiary with its licence and attribution.

Glue only: `workbench.workspace.added_bestiary.add_bestiary` reads the source through the importer and keeps it; this
widget gathers what the Director chose, draws the progress the library reports (from the first byte downloaded
and the first file read), and says the outcome in words: how many monsters, the attribution, every file that
failed by name. A URL is fetched only when "Add the bestiary" is pressed; when it cannot be reached the message
says what to do instead (download it in a browser, then upload the file here). The adding runs in a thread of its
own, so the page's kernel answers the other controls meanwhile, and "Cancel" stops it at its next progress report
(nothing is kept: the bestiary's folder is only written once every file is read). A bestiary added can be
removed again below it (`remove_bestiary`), said beside its button.
"""

from __future__ import annotations

import re
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.apps.message import refusal_html, shown_path
from workbench.errors import WorkbenchError
from workbench.io.fetch import FetchFailed
from workbench.render.escape import Markup, join
from workbench.render.message import error_html, ok_html
from workbench.workspace.added_bestiary import (
    AddedBestiary,
    add_bestiary,
    bestiary_name,
    list_bestiaries,
    remove_bestiary,
)
from workbench.workspace.folder import bestiaries_folder

__all__ = ["CANCELLED", "SHOWN_FAILURES", "BestiaryAdder", "added_html", "bestiary_adder", "upload_name"]

SHOWN_FAILURES = 20  # failed files named on the page; the rest are counted (all are kept in bestiary.json)
UPLOAD_ACCEPTS = ".zip,.gz,.tgz,.json,.ds-monster,.ds-monster-group"
LABELS = {"source": "Folder or URL", "name": "Name", "attribution": "Attribution", "into": "The workspace"}


def added_html(added: AddedBestiary) -> str:
    """What adding did, for a Director: the monsters kept and where, the attribution, every failed file by name."""
    parts = [ok_html(f"Added {added.name}: {len(added.monsters)} monsters, kept in {shown_path(Path(added.folder))}.")]
    attribution = added.attribution or "none found in the source; give one in Attribution and add it again"
    parts.append(Markup('<div class="wb-added-attribution">Attribution: {}</div>').format(attribution))
    if added.failures:
        items = join(Markup('<li><b class="wb-added-failed-file">{}</b>: {}</li>').format(f.file, f.reason)
                        for f in added.failures[:SHOWN_FAILURES])
        more = len(added.failures) - SHOWN_FAILURES
        if more > 0:
            items += Markup("<li>and {} more (all are listed in its bestiary.json)</li>").format(more)
        parts.append(Markup('<div class="wb-added-failures" data-count="{}">'
                     "{} file(s) could not be read:<ul>{}</ul></div>").format(len(added.failures), len(added.failures), items))
    if added.skipped:
        parts.append(Markup("<div>{} other file(s) held no stat block and were left aside.</div>").format(len(added.skipped)))
    return "".join(parts)


class _Cancelled(WorkbenchError):
    """The Director pressed Cancel: raised from the progress report, so the adding stops where it is."""

    code = "cancelled"


CANCELLED = "Cancelled: nothing was added."


def _offline_html(url: str, why: str) -> str:
    return error_html(
        f"Could not fetch {url}: {why}. To add it anyway, download the file in a browser, then choose it with "
        "Upload (or type where you saved it) and press Add the bestiary again."
    )


class BestiaryAdder(widgets.VBox):
    """The control's widget; its parts are attributes (tests fill them and press `add`)."""

    def __init__(
        self,
        into: Callable[[], Path] = bestiaries_folder,
        on_added: Callable[[AddedBestiary], None] | None = None,
        on_removed: Callable[[AddedBestiary], None] | None = None,
    ) -> None:
        self.into = into
        self.on_added = on_added
        self.on_removed = on_removed
        wide = {"description_width": "initial"}
        self.source = widgets.Text(value="", description="Folder or URL", style=wide, layout={"width": "460px"},
                                   placeholder="a folder, a .zip or .tar.gz file, or an https:// link")
        self.upload = widgets.FileUpload(accept=UPLOAD_ACCEPTS, multiple=False, description="Upload")
        self.name = widgets.Text(value="", description="Name", style=wide, placeholder="from the source")
        self.attribution = widgets.Text(value="", description="Attribution", style=wide, layout={"width": "460px"},
                                        placeholder="its source and licence, when it holds no LICENSE file")
        self.replace = widgets.Checkbox(value=False, description="Replace a bestiary of that name", indent=False,
                                        layout={"width": "auto"})
        self.add = widgets.Button(description="Add the bestiary", button_style="primary", layout={"width": "auto"})
        self.add.add_class("wb-add-bestiary")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="Reading", style=wide,
                                            layout={"display": "none"})
        self.progress.add_class("wb-add-bestiary-progress")
        self.cancel = widgets.Button(description="Cancel", layout={"width": "auto", "display": "none"})
        self.cancel.add_class("wb-add-bestiary-cancel")
        self.message = widgets.HTML()
        self.message.add_class("wb-add-bestiary-message")
        # a bestiary added, taken away again
        self.added = widgets.Dropdown(options=[], value=None, description="Added bestiaries", style=wide,
                                      layout={"width": "auto"})
        self.added.add_class("wb-added-bestiaries")
        self.remove = widgets.Button(description="Remove the bestiary", icon="trash", layout={"width": "auto"})
        self.remove.add_class("wb-remove-bestiary")
        self.removed = widgets.HTML().add_class("wb-remove-bestiary-message")
        self.remove.on_click(self._remove_pressed)
        self._list_added()
        self.add.on_click(self._pressed)
        self._stop = threading.Event()
        self.cancel.on_click(lambda _button: self._stop.set())
        self.worker: threading.Thread | None = None
        wrap = widgets.Layout(flex_flow="row wrap")
        super().__init__([
            widgets.HTML("Add a bestiary to the workspace: type a folder, a .zip or .tar.gz file or a link, or upload "
                         "the file. Every monster is read (Steel Compendium, Forge Steel, Foundry) and kept with its "
                         "licence."),
            widgets.HBox([self.source, self.upload], layout=wrap),
            widgets.HBox([self.name, self.attribution], layout=wrap),
            widgets.HBox([self.replace, self.add, self.progress, self.cancel], layout=wrap),
            self.message,
            widgets.HBox([self.added, self.remove], layout=wrap),
            self.removed,
        ])
        self.add_class("wb-bestiary-adder")

    def _list_added(self) -> None:
        """The bestiaries added to the workspace now, by name, each with how many monsters it holds."""
        try:
            found, _problems = list_bestiaries(self.into())
        except (WorkbenchError, OSError):
            found = ()
        self.added.options = [(f"{b.name} ({len(b.monsters)} monsters)", b.name) for b in found]
        self.added.value = None
        self.remove.disabled = not found

    def _remove_pressed(self, _button: object = None) -> None:
        """Remove the bestiary picked: its monsters, sources and licence leave the workspace."""
        if not self.added.value:
            self.removed.value = error_html("Pick a bestiary in Added bestiaries first.")
            return
        try:
            gone = remove_bestiary(self.added.value, self.into())
        except WorkbenchError as exc:
            self.removed.value = refusal_html(exc, {"name": "Added bestiaries", **LABELS})
            return
        self._list_added()
        self.removed.value = ok_html(f"Removed {gone.name}: its {len(gone.monsters)} monsters, sources and licence "
                                     "are no longer in the workspace.")
        if self.on_removed is not None:
            self.on_removed(gone)

    def _draw(self, stage: str, done: int, total: int) -> None:
        """`add_bestiary`'s progress: the bar shows at the first report and moves at each whole percent; after
        Cancel, the report stops the adding."""
        if self._stop.is_set():
            raise _Cancelled(CANCELLED)
        bar = self.progress
        first = bar.layout.display == "none"
        bar.layout.display = ""
        if stage == "download":
            label = f"Downloading {done // 1024} KiB" + (f" of {total // 1024} KiB" if total else "")
            if first or bar.description.startswith("Reading") or done == total or \
                    (total and done * 100 // total != bar.value * 100 // max(bar.max, 1)):
                bar.max, bar.value = max(total, 1), min(done, total) if total else 0
                bar.description = label
            return
        if first or done == total or bar.description.startswith("Downloading") or \
                done * 100 // max(total, 1) != bar.value * 100 // max(bar.max, 1):
            bar.max, bar.value = max(total, 1), done
            bar.description = f"Reading {done} of {total} files"

    def _uploaded(self) -> Mapping[str, Any] | None:
        files = self.upload.value
        return files[0] if files else None

    def _pressed(self, _button: object = None) -> None:
        """Add what was chosen: the uploaded file when there is one, else the folder or URL typed."""
        upload = self._uploaded()
        typed = self.source.value.strip()
        if upload is None and not typed:
            self.message.value = error_html("Type a folder or a link, or upload a .zip or .tar.gz file, first.")
            return
        if self.worker is not None and self.worker.is_alive():
            return  # one adding at a time (the button is disabled meanwhile)
        self.add.disabled = True
        self.progress.layout.display = "none"
        self.progress.value = 0
        self.message.value = "Adding…"
        self._stop.clear()
        self.cancel.layout.display = ""
        chosen = (self.name.value.strip() or None, self.attribution.value, self.replace.value, self.into())
        self.worker = threading.Thread(target=self._work, args=(upload, typed, chosen), daemon=True,
                                       name="add-bestiary")
        self.worker.start()

    def wait(self, timeout: float | None = None) -> None:
        """Until the adding under way (if any) is done: for a script or a test that reads the outcome."""
        if self.worker is not None:
            self.worker.join(timeout)

    def _work(self, upload: Mapping[str, Any] | None, typed: str, chosen: tuple[str | None, str, bool, Path]) -> None:
        """The adding, in the worker thread; its outcome, whatever it is, said in `message`."""
        try:
            added = self._add_upload(upload, chosen) if upload is not None else self._add(typed, None, chosen)
        except FetchFailed as exc:
            self.message.value = error_html(CANCELLED) if self._stop.is_set() else _offline_html(typed, exc.why)
            return
        except WorkbenchError as exc:
            self.message.value = refusal_html(exc, LABELS)
            return
        except Exception as exc:  # never a silent end on the page: an unforeseen failure is said too
            self.message.value = error_html(f"The bestiary could not be added ({type(exc).__name__}).")
            return
        finally:
            self.add.disabled = False
            self.cancel.layout.display = "none"
        if upload is not None:
            self.upload.value = ()
        self.message.value = added_html(added)
        self._list_added()
        if self.on_added is not None:
            self.on_added(added)

    def _add(self, source: str, label: str | None, chosen: tuple[str | None, str, bool, Path],
             name: str | None = None) -> AddedBestiary:
        given_name, attribution, replace, into = chosen
        return add_bestiary(source, into, name=given_name or name, attribution=attribution, replace=replace,
                            progress=self._draw, source_label=label)

    def _add_upload(self, upload: Mapping[str, Any], chosen: tuple[str | None, str, bool, Path]) -> AddedBestiary:
        """The uploaded file, read from a temporary copy under its own name (so the default name is the file's)."""
        name = upload_name(upload.get("name"))
        with tempfile.TemporaryDirectory(prefix="wb-upload-") as folder:
            copy = Path(folder) / name
            copy.write_bytes(bytes(upload.get("content") or b""))
            return self._add(str(copy), f"uploaded file {name}", chosen, bestiary_name(name))


_UPLOAD_NAME_CHARS = 100
_UNSAFE_IN_NAME = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|]")


def upload_name(given: object) -> str:
    """A safe base name for an uploaded file's temporary copy: the last part of what the browser sent, without
    control characters or separators, no leading dots (no `..`, nothing hidden), at most 100 characters with
    its extension kept; "upload.zip" when nothing is left."""
    text = given if isinstance(given, str) else ""
    base = _UNSAFE_IN_NAME.sub("", text.replace("\\", "/").rsplit("/", 1)[-1]).strip().lstrip(".").strip()
    if len(base) > _UPLOAD_NAME_CHARS:
        stem, dot, suffix = base.rpartition(".")
        ending = f".{suffix[:20]}" if dot else ""
        base = (stem if dot else base)[: _UPLOAD_NAME_CHARS - len(ending)].rstrip() + ending
    return base or "upload.zip"


def bestiary_adder(
    into: Callable[[], Path] = bestiaries_folder, on_added: Callable[[AddedBestiary], None] | None = None
) -> BestiaryAdder:
    """The "Add a bestiary" control, adding into `into()` (the workspace's bestiaries folder, read at each press,
    so a workspace opened since is the one added to); `on_added(bestiary)` is called after each bestiary added."""
    return BestiaryAdder(into, on_added)

