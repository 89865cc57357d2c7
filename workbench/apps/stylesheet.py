"""The workbench's one stylesheet as a widget, for a page or an app shown on its own in a notebook.

The widget takes no room (it is not displayed); the `<style>` inside it still styles the whole page, so every
class the renderers and apps use looks the same wherever they are shown.
"""

from __future__ import annotations

import ipywidgets as widgets

from workbench.render.escape import stylesheet

__all__ = ["stylesheet_widget"]


def stylesheet_widget() -> widgets.HTML:
    """A hidden HTML widget holding the stylesheet (`wb-stylesheet`)."""
    sheet = widgets.HTML(str(stylesheet()), layout={"display": "none"})
    return sheet.add_class("wb-stylesheet")
