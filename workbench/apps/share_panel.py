"""The Share panel of the builder, the encounter editor and the adventure planner: what the tool shows as a share
code (a read-only box, a Copy button and a link to the tool's page with the code in its fragment), and a box
where a code pasted from a chat is opened in the tool.

Glue only: the codes are `workbench.formats.share_code`'s. A code of another kind is not opened: one line says
which tool opens it, with a link to that tool's page carrying the code. A refused code is said in one line and
changes nothing.

A link `workbench.ipynb#tool=encounter&code=...` opens the code in that tool of the workbench page (a link
`PAGE.ipynb#code=...` in that tool's own page): the fragment never reaches the server (nor its log); the page
template's script (`workbench/server/template`) reads it in the browser, writes it into the page's hidden box
(the workbench page's, class `wb-code-incoming`, which hands it to the tool of its kind; a tool's own page's,
the panel's `wb-share-incoming`), whose new value the kernel opens as a pasted code, then takes the code off
the address.

Each tool adds its panel with one line (`builder_share(self)`, `encounter_share(self)`, `adventure_share(self)`):
the three functions below are the only places that know how each tool shows what it has and opens what it
is given.

Stable CSS classes for browser tests: `wb-share` (the panel), `wb-share-button`, `wb-share-code` (the
read-only box: its value is the code), `wb-share-copy`, `wb-share-link`, `wb-share-paste` (the paste box),
`wb-share-open`, `wb-share-note` (what was done or refused), `wb-share-incoming`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from workbench.apps.message import refusal_html
from workbench.encounter.adventure import Adventure
from workbench.encounter.encounter import Encounter
from workbench.errors import WorkbenchError
from workbench.formats.share_code import Kind, Shared, find_code, read_code, share_code, tool_of
from workbench.model import Monster
from workbench.monster.library import suggest_name
from workbench.render.escape import Markup
from workbench.render.message import error_html, ok_html

__all__ = ["PAGE", "SharePanel", "adventure_share", "builder_share", "encounter_share", "share_html"]

PAGE = "workbench.ipynb"  # the page a code's link opens: the workbench page, in the tool of the code's kind
# The Copy buttons' script: the box's text (or the link, made whole against the page's address) to the clipboard,
# by the Clipboard API where the page may use it (127.0.0.1 and localhost may), else by the selection.
_COPY = ("const box=this.closest('.wb-share-shown');const t=box.querySelector('textarea');"
         "const text=this.dataset.what==='link'?box.querySelector('a').href:t.value;"
         "t.focus();t.select();"
         "const said=()=>{this.textContent='Copied';setTimeout(()=>{this.textContent=this.dataset.label},1500)};"
         "if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(text).then(said,()=>{"
         "document.execCommand('copy');said()})}else{document.execCommand('copy');said()}")


def share_html(kind: Kind, code: str) -> str:
    """The code in a read-only box with Copy, and the link to the workbench page's tool with the code in its
    fragment."""
    link = _link(kind, code)
    button = Markup('<button class="wb-share-copy jupyter-button" data-what="{}" data-label="{}" '
                    'onclick="{}">{}</button>')
    return str(Markup(
        '<div class="wb-share-shown">'
        '<textarea class="wb-share-code" readonly rows="4" aria-label="Share code">{}</textarea>'
        '<div class="wb-share-actions">{}{}'
        '<span>{} characters. <a class="wb-share-link" href="{}" target="_blank">'
        "Link to this {} in {}</a></span></div></div>"
    ).format(code, button.format("code", "Copy", _COPY, "Copy"), button.format("link", "Copy link", _COPY, "Copy link"),
             f"{len(code):,}", link, kind, tool_of(kind)))


def _link(kind: Kind, code: str) -> str:
    """The workbench page's address that opens `code` in the tool of `kind`."""
    return f"{PAGE}#tool={kind}&code={code}"


class SharePanel(widgets.VBox):
    """"Share" shows the code of what `current()` gives (None: nothing to share yet); "Open" reads the pasted
    code and hands a code of `kind` to `open_shared`, which opens it in the tool and returns the words to say."""

    def __init__(self, kind: Kind, current: Callable[[], Shared | None],
                 open_shared: Callable[[Shared], str]) -> None:
        self.kind = kind
        self._current = current
        self._open_shared = open_shared
        self.share_button = widgets.Button(description="Share", icon="share-alt", tooltip=f"This {kind} as a "
                                           "code to paste into a chat", layout={"width": "auto"},
                                           _dom_classes=("wb-share-button",))
        self.shown = widgets.HTML()
        self.paste = widgets.Textarea(value="", placeholder=f"Paste a code here ({kind} codes open in this tool)",
                                      rows=1, layout={"width": "28em"}, _dom_classes=("wb-share-paste",))
        self.open_button = widgets.Button(description="Open the code", icon="folder-open", layout={"width": "auto"},
                                          _dom_classes=("wb-share-open",))
        self.note = widgets.HTML(_dom_classes=("wb-share-note",))
        # what a link's fragment carries, written here by the page's script (hidden: the Director never types in it)
        self.incoming = widgets.Text(value="", layout={"display": "none"}, _dom_classes=("wb-share-incoming",))
        self.share_button.on_click(lambda _button: self.share())
        self.open_button.on_click(lambda _button: self.open_code(self.paste.value))
        self.incoming.observe(self._arrived, names="value")
        row = widgets.HBox([self.share_button, self.paste, self.open_button],
                           layout={"flex_flow": "row wrap", "align_items": "center"})
        super().__init__([row, self.note, self.shown, self.incoming], _dom_classes=("wb-share",))

    def share(self) -> str | None:
        """Show the code of what the tool has now; returns it (None when there is nothing, or it is refused)."""
        try:
            shared = self._current()
            if shared is None:
                self.shown.value = ""
                self.note.value = error_html(f"Nothing to share yet: make {_a(self.kind)} first.")
                return None
            code = share_code(shared.value)
        except WorkbenchError as exc:
            self.note.value = refusal_html(exc)
            return None
        self.note.value = ""
        self.shown.value = share_html(self.kind, code)
        return code

    def open_code(self, text: str) -> Shared | None:
        """Open a pasted code in the tool; a code of another kind or a refused one is said and opens nothing."""
        try:
            shared = read_code(text)
        except WorkbenchError as exc:
            self.note.value = refusal_html(exc, {"code": "The code"})
            return None
        if shared.kind != self.kind:
            code = find_code(text)
            there = tool_of(shared.kind)
            self.note.value = (
                str(error_html(f"This is {_a(shared.kind)} code; {tool_of(self.kind)} opens {self.kind} codes."))
                + str(Markup(' <a class="wb-share-elsewhere" href="{}" target="_blank">Open it in {}</a>')
                      .format(_link(shared.kind, code), there)))
            return None
        try:
            said = self._open_shared(shared)
        except WorkbenchError as exc:
            self.note.value = refusal_html(exc)
            return None
        self.paste.value = ""
        self.shown.value = ""
        self.note.value = ok_html(said)
        return shared

    def _arrived(self, change: Any) -> None:
        if change["new"]:
            self.open_code(change["new"])
            self.incoming.value = ""


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


# ---------------------------------------------------------------- each tool: what it shows, how it opens


def builder_share(builder: Any) -> SharePanel:
    """The builder's panel: the monster shown; a monster code opened in the controls."""

    def current() -> Shared | None:
        monster: Monster | None = builder.monster
        if monster is None:
            return None
        return Shared("monster", monster)

    def open_shared(shared: Shared) -> str:
        assert isinstance(shared.value, Monster)
        builder.show(shared.value)
        builder.library.file_name.value = suggest_name(shared.value.name)
        return f"Opened {shared.value.name or 'the monster'} from the code: Save keeps it in your library."

    return SharePanel("monster", current, open_shared)


def encounter_share(editor: Any) -> SharePanel:
    """The encounter editor's panel: the encounter shown; an encounter code opened as a loaded file is."""

    def current() -> Shared | None:
        encounter: Encounter = editor.state()
        return Shared("encounter", encounter) if encounter.creatures or encounter.terrain else None

    def open_shared(shared: Shared) -> str:
        assert isinstance(shared.value, Encounter)
        encounter = shared.value
        editor.open_encounter(encounter)
        return f"Opened {encounter.name or 'the encounter'} from the code: Save keeps it in your encounters."

    return SharePanel("encounter", current, open_shared)


def adventure_share(planner: Any) -> SharePanel:
    """The adventure planner's panel: the day planned, named as the name box says; an adventure code opened as a
    saved adventure is."""

    def current() -> Shared | None:
        adventure: Adventure | None = planner._named()
        return Shared("adventure", adventure) if adventure is not None and adventure.encounters else None

    def open_shared(shared: Shared) -> str:
        assert isinstance(shared.value, Adventure)
        adventure = shared.value
        planner.adventure, planner.party = adventure, adventure.party
        planner.controls["name"].value = adventure.name
        planner._show_party(adventure.party)
        planner.link.value = ""
        planner.refusal.value = ""
        planner._draw()
        return f"Opened {adventure.name or 'the adventure'} from the code: Save keeps it in your adventures."

    return SharePanel("adventure", current, open_shared)
