"""HTML built as `Markup`, so user text is escaped because it is text, not because someone remembered.

The one module that imports markupsafe. Renderers, apps, exports and charts build HTML as
`Markup("<td>{}</td>").format(text)`, `join(parts)` or `tag("td", text, class_="wb-x")`: a plain str put into
Markup is escaped (quotes too: it may sit in an attribute), a Markup value stays as built, so a name typed as
`<script>` shows as typed. Markdown is not HTML: `render.markdown_text` escapes its own way.
"""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

__all__ = ["Markup", "escape", "join", "tag"]


def join(parts: Iterable[str], separator: str = "") -> Markup:
    """The parts one after another (`separator` between them); plain str parts are escaped, Markup kept."""
    return escape(separator).join(parts)


def _attribute_name(name: str) -> str:
    return name.rstrip("_").replace("_", "-")


def tag(name: str, content: object = "", /, **attributes: object) -> Markup:
    """`<name attributes>content</name>`, content and attribute values escaped unless Markup.

    `class_="wb-x"` is the class, `data_ev=28` is `data-ev="28"`; an attribute given None or False is left
    out and one given True is written bare.
    """
    written = Markup("").join(
        Markup(" {}").format(_attribute_name(key)) if value is True
        else Markup(' {}="{}"').format(_attribute_name(key), value)
        for key, value in attributes.items() if value is not None and value is not False
    )
    return Markup("<{}{}>{}</{}>").format(Markup(name), written, content, Markup(name))
