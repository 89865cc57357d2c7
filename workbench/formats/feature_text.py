"""A trait's words as a Director edits them in one text box, and read back: its paragraphs with their prices,
names and tiers written as the book prints them, so a published trait, Malice feature or villain action is
edited whole.

`Trait.text` runs the paragraphs together for the views that show words only; a price ("5 Malice:") and a
test's tiers are not in it. `feature_text` writes each paragraph on a line of its own, its price or name first
("5 Malice: ...", "End Effect: ..."), a test's tiers on the lines under it ("≤11: ...", "12–16: ...",
"17+: ..."), and `trait_with_text` reads such words with the pasted stat block's reader
(`book_text.parse_feature_text`), so what the box shows reads back to the same paragraphs, and a price or tier
lines the Director types are read as the book's.
"""

from __future__ import annotations

from workbench.formats.book_text import parse_feature_text
from workbench.model import Effect, Trait
from workbench.model.ability import TIER_LABELS

__all__ = ["feature_text", "trait_with_text"]

# a plain paragraph right after one not ending so is read as the same paragraph broken over lines (a PDF's),
# unless a blank line parts them
_CLOSED = (".", "!", "?", ":")


def _label(effect: Effect) -> str:
    return ": ".join(x for x in (effect.cost_text, effect.name or "") if x)


def _lines(effect: Effect) -> list[str]:
    label = _label(effect)
    lines = [f"{label}: {effect.text}" if label else effect.text]
    if effect.tiers is not None:
        lines += [f"{mark}: {tier}" for mark, tier in zip(TIER_LABELS, effect.tiers, strict=True)]
    return lines


def feature_text(trait: Trait) -> str:
    """The words of a trait's text box: its paragraphs one a line with their prices, names and tiers; the
    text of a trait written as plain text."""
    if not trait.effects:
        return trait.text
    lines: list[str] = []
    previous: Effect | None = None
    for effect in trait.effects:
        runs_on = (previous is not None and previous.tiers is None and not _label(effect)
                   and not previous.text.rstrip().endswith(_CLOSED))
        if runs_on:
            lines.append("")
        lines += _lines(effect)
        previous = effect
    return "\n".join(lines)


def trait_with_text(trait: Trait, text: str) -> Trait:
    """`trait` (its name and cost) with the words of `text`, read as a pasted stat block's feature
    (`parse_feature_text`). A trait written as plain text stays plain text, exactly as typed, while the words
    are one paragraph with no price, name or tiers; otherwise (and a trait of paragraphs always, its words
    cleared too) the trait is made of the paragraphs read.
    `InvalidInput` (field "text") names a line the reader has no place for."""
    read = parse_feature_text(trait.name, text, trait.cost)
    plain = len(read.effects) == 1 and read.effects[0] == Effect(text=read.effects[0].text)
    if plain and not trait.effects:
        return Trait(name=trait.name, text=text.strip(), cost=trait.cost)
    return read
