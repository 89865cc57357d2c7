"""How a Monster shows itself in a notebook: IPython formatters registered by the render layer.

The model stays pure data (no `_repr_html_` reaching up into the renderer); the package registers these
formatters when it is imported inside an IPython kernel, so `display(monster)` and a cell ending in a
monster still draw the book-style stat block.
"""

from __future__ import annotations

from typing import Any

from workbench.model import Monster
from workbench.render.stat_block import stat_block_html, stat_block_markdown

__all__ = ["register_formatters"]


def register_formatters(shell: Any) -> None:
    """Teach an IPython shell to draw a Monster as its stat block (HTML, and Markdown for text exports)."""
    formatters = shell.display_formatter.formatters
    formatters["text/html"].for_type(Monster, stat_block_html)
    formatters["text/markdown"].for_type(Monster, stat_block_markdown)
