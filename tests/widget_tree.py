"""Finding a widget on an app page built without a browser, the way a browser test finds it by CSS class."""

from __future__ import annotations

from typing import Any


def inner(page: Any, kind: str | type) -> Any:
    """The first widget under `page`, breadth first, carrying the CSS class `kind` (or of the type `kind`)."""
    stack = [page]
    while stack:
        w = stack.pop(0)
        if isinstance(w, kind) if isinstance(kind, type) else kind in getattr(w, "_dom_classes", ()):
            return w
        stack.extend(getattr(w, "children", ()))
    raise AssertionError(f"no {kind} on the page")


def drawn(root: Any) -> list[Any]:
    """Every widget the browser is asked to draw under `root` (`root` and its children, theirs, and so on)."""
    stack, seen = [root], []
    while stack:
        widget = stack.pop()
        seen.append(widget)
        stack.extend(getattr(widget, "children", ()))
    return seen
