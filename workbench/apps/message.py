"""A refusal put into words for a Director, shown beside the control that caused it.

The library's `InvalidInput` names a field, what it accepts and, when it has one, the rule's reason
("Malicious Strike was used in round 1; it can't be used two rounds in a row"). A page shows the reason
first and what is allowed after it, never the value's Python repr (`got '…'`) or a field's code name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.errors import InvalidInput, RulesetError, WorkbenchError
from workbench.render.message import error_html

__all__ = ["button_action", "plain_tooltips", "plain_tooltips_as_made", "refusal_html", "refusal_text", "shown_path"]


def plain_tooltips(root: Any) -> None:
    """Give every labelled control under `root` its label as its hover text.

    ipywidgets 8 writes a control's `tooltip` into its label's `title`, and an unset one (None) reaches the
    browser as the word "null" on hover. Walk the tree (cheap: a few hundred widgets) after building it or
    adding rows to it.
    """
    stack = [root]
    while stack:
        widget = stack.pop()
        stack.extend(getattr(widget, "children", ()))
        _plain_tooltip(widget)


def _plain_tooltip(widget: Any) -> None:
    description = getattr(widget, "description", None)
    if isinstance(description, str) and description.strip() and getattr(widget, "tooltip", "") is None:
        widget.tooltip = description.strip()


@contextmanager
def plain_tooltips_as_made() -> Iterator[None]:
    """While the block runs, every labelled control made gets its label as its hover text as it is made
    (`plain_tooltips`' words), before the browser is sent it: given after, each is one more message from the
    kernel on the way to the page. Through ipywidgets' one construction callback (`Widget.on_widget_constructed`),
    which nothing else here sets; it is unset after. `plain_tooltips` still gives a control labelled later its
    words."""
    widgets.Widget.on_widget_constructed(_plain_tooltip)
    try:
        yield
    finally:
        widgets.Widget.on_widget_constructed(None)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def refusal_text(exc: WorkbenchError, labels: Mapping[str, str] | None = None) -> str:
    """The refusal as one or two plain sentences: the reason, then what is allowed. `labels` names fields as
    their controls are labelled on the page (else the field's name, in words)."""
    if isinstance(exc, InvalidInput):
        label = (labels or {}).get(exc.field) or exc.field.replace("_", " ")
        if exc.reason:  # the rule's reason first, then what the control allows
            return f"{_sentence(exc.reason)} Allowed: {exc.accepts.strip().rstrip('.')}."
        return _sentence(f"{label} takes {exc.accepts}")
    if isinstance(exc, RulesetError):
        return _sentence(f"{exc.source} has {len(exc.problems)} problem(s): " + "; ".join(exc.problems))
    return _sentence(exc.summary or "That was refused")


def refusal_html(exc: WorkbenchError, labels: Mapping[str, str] | None = None) -> str:
    """`refusal_text` as escaped HTML in the pages' refusal style (class `wb-refusal`)."""
    return error_html(refusal_text(exc, labels))


def button_action(
    refusal: widgets.HTML, then: Callable[[], None]
) -> Callable[[Callable[[], object]], Callable[[object], None]]:
    """A factory of click handlers for a tracker's buttons: each runs one action; a refusal changes nothing
    and is said in `refusal` (beside the buttons), a success clears it; `then` redraws either way."""

    def act(action: Callable[[], object]) -> Callable[[object], None]:
        def handler(_button: object) -> None:
            try:
                action()
            except InvalidInput as exc:
                refusal.value = refusal_html(exc)
            else:
                refusal.value = ""
            then()

        return handler

    return act


def shown_path(path: Path) -> str:
    """A file or folder as a Director knows it: `~/drawsteel-workbench/monsters` under the home folder."""
    try:
        return "~/" + Path(path).relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)
