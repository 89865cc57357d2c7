"""User text made safe for Markdown: the one escape every Markdown export uses.

HTML escaping is not enough in Markdown: a trait whose text holds "\\n~~~\\n" turns the rest of an exported
block into a code block, "\\n# " starts a heading, "\\n- " a list, a "|" breaks a table. So user text is
HTML-escaped (Markdown passes HTML through), its markup characters are quoted with a backslash, and what a
line could start with (a fence, a heading, a list or quote marker, an indent that makes code) is
neutralised. `md_inline` is for text inside one line (a heading, a list item, a table cell): its line
breaks become spaces. `md_block` keeps a paragraph's lines, each neutralised.
"""

from __future__ import annotations

import html
import re

__all__ = ["md_block", "md_inline"]

_MARKUP = re.compile(r"([\\`*_\[\]#|~])")
_LINE_BREAKS = re.compile(r"\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")
# what may start a block: list, setext-heading and thematic-break markers (an ordered list: see _line)
_LINE_START = re.compile(r"^([-+=])")


def _line(text: str) -> str:
    escaped = _MARKUP.sub(r"\\\1", html.escape(text.strip(), quote=False))
    number = re.match(r"^[0-9]+(?=[.)])", escaped)
    if number:  # "1." starts an ordered list: escape the dot, not the digits
        end = number.end()
        return escaped[:end] + "\\" + escaped[end:]
    return _LINE_START.sub(r"\\\1", escaped)


def md_inline(text: object) -> str:
    """`text` for one line of Markdown: escaped, its line breaks (and any indent) collapsed to single spaces."""
    return _line(" ".join(part.strip() for part in _LINE_BREAKS.split(str(text)) if part.strip()))


def md_block(text: object) -> str:
    """`text` as a paragraph of Markdown lines, each escaped and unable to start a block of its own."""
    return "\n".join(_line(part) for part in _LINE_BREAKS.split(str(text)))
