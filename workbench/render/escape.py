"""User text made safe in HTML (quotes too: it may sit in an attribute); Markdown's is `markdown_text`.

Every renderer escapes through this one, so a name typed as `<script>` shows as typed.
"""

from __future__ import annotations

import html

__all__ = ["escape_html"]


def escape_html(text: object) -> str:
    """Anything a user may have typed, as HTML text (quotes escaped too)."""
    return html.escape(str(text), quote=True)

