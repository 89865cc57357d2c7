"""Controls and buttons as the actions they stand for, all heard by one handler.

An app made of panels keeps one place that decides what a click or a new value does: each panel registers
its controls here with the action each stands for (`("plus", 2)`: one more of the third creature), and the
app's handler receives the action, never the widget. A control forgotten (its row redrawn) is no longer
heard, even if a script still holds it. While the app's `Quiet` is raised nothing is heard: the app is writing
its own controls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from workbench.apps.quiet import Quiet

__all__ = ["CONTROLS", "Action", "Actions"]

Action = tuple[Any, ...]
CONTROLS: Action = ("controls",)  # a control whose new value is read with all the others


class Actions:
    """Which action each registered widget stands for; `handler(action)` hears them."""

    def __init__(self, handler: Callable[[Action], None], quiet: Quiet) -> None:
        self.handler = handler
        self.quiet = quiet
        self._actions: dict[int, Action] = {}
        self._with_value: set[int] = set()

    def button(self, label: str, action: Action, tip: str, css: str) -> widgets.Button:
        """A new button standing for `action`."""
        button = widgets.Button(description=label, tooltip=tip, layout={"width": "auto"}, _dom_classes=(css,))
        return self.click(button, action)

    def click(self, button: widgets.Button, action: Action) -> widgets.Button:
        """`button`'s click stands for `action`."""
        self._actions[id(button)] = action
        button.on_click(self._heard)
        return button

    def observe(self, control: widgets.Widget, action: Action = CONTROLS, with_value: bool = False) -> None:
        """A new value of `control` stands for `action` (`with_value`: the new value appended to it)."""
        self._actions[id(control)] = action
        if with_value:
            self._with_value.add(id(control))
        control.observe(self._heard, names="value")

    def ignore(self, control: widgets.Widget) -> None:
        """`control` is no longer observed (it is about to be dropped)."""
        control.unobserve(self._heard, names="value")
        self.forget(control)

    def forget(self, *controls: widgets.Widget) -> None:
        """The widgets (and those in them) stand for nothing any more."""
        for control in controls:
            self._actions.pop(id(control), None)
            self._with_value.discard(id(control))
            self.forget(*getattr(control, "children", ()))

    def _heard(self, change: Any) -> None:
        if self.quiet:
            return
        if isinstance(change, widgets.Button):
            action = self._actions.get(id(change))
        else:
            owner = id(change["owner"])
            action = self._actions.get(owner, CONTROLS)
            if owner in self._with_value:
                action = (*action, change["new"])
        if action is not None:
            self.handler(action)
