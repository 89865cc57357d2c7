"""Pasted text brought to one layout (workbench/formats/pasted_layout.py): the header grid read in every
shape a copy gives it, the Steel Compendium's Markdown as a browser copies it, a front matter set aside; and
the reader's guarantees on hostile text: bounded size and lines, and a run of 99,000 blanks read or refused
in well under a second."""

from __future__ import annotations

import time

import pytest

import workbench as wb
from workbench.formats.pasted_layout import compendium_markup_off, stat_pairs, without_front_matter

WANT = {"Size": "1M", "Speed": "7", "Stamina": "4", "With Captain": "+2 bonus to Stamina", "Might": "+1"}


@pytest.mark.parametrize("grid", [
    "1M\nSize\t7\nSpeed\t4\nStamina\t-\t+2 bonus to Stamina\nWith Captain\n+1\nMight",  # a page's copy
    "Size\n1M\nSpeed\n7\nStamina\n4\nWith Captain\n+2 bonus to Stamina\nMight\n+1",  # labels over values
    "1M\t7\t4\t+2 bonus to Stamina\t+1\nSize\tSpeed\tStamina\tWith Captain\tMight",  # a row, then its labels
    "1M Size 7 Speed 4 Stamina - +2 bonus to Stamina With Captain +1 Might",  # one line
])
def test_the_header_grid_in_every_shape(grid):
    assert stat_pairs(grid) == (WANT, [])


def test_forge_steels_letter_boxes_and_the_words_left_over():
    assert stat_pairs("Size\n1L\nSpeed\n5\nStamina\n60\nM\n+3\nP\n-1\nillegible") == (
        {"Size": "1L", "Speed": "5", "Stamina": "60", "Might": "+3", "Presence": "-1"}, ["illegible"])


def test_the_compendiums_markdown_as_a_browser_copies_it():
    markdown = ("| Beast | Level 2 |\n| :-: | :-: |\n| **30**<br/> Stamina | **6**<br/> Speed |\n\n<!-- -->\n"
                "> 🗡 **Bite (Signature Ability)**\n>\n> - **≤11:** 3 damage\n> **Hide**\n")
    assert compendium_markup_off(markdown) == (
        "Beast\tLevel 2\n30\n Stamina\t6\n Speed\n\n🗡 Bite (Signature Ability)\n\n≤11: 3 damage\n\u2b50\ufe0f Hide\n")


def test_a_front_matter_is_set_aside_and_other_text_kept():
    assert without_front_matter("---\nlevel: 1\nname: X\n---\n###### X\n") == "\n###### X\n"
    assert without_front_matter("---\nno closing line\nX") == "---\nno closing line\nX"
    assert without_front_matter("X\n---\nlevel: 1\n---\n") == "X\n---\nlevel: 1\n---\n"


BLANKS = [" ", "\u00a0", "\t", "\n", " \n", "a-\n", "| - "]


@pytest.mark.parametrize("blank", BLANKS, ids=["spaces", "no-break spaces", "tabs", "newlines", "blank lines",
                                              "hyphenated lines", "table rule"])
@pytest.mark.parametrize("where", ["after the name", "under the level line", "in the compendium's table",
                                   "between name and level"])
def test_a_run_of_99000_blanks_is_read_or_refused_in_well_under_a_second(blank, where):
    run = blank * (99_000 // len(blank))
    text = {"after the name": "X\n" + run,
            "under the level line": "Fen\nLevel 1 Solo Brute\n" + run + "Stamina 3\nFree Strike 2",
            "in the compendium's table": "###### Fen\n\n| a |\n| - |\n" + run + "\n> ⭐️ **x**",
            "between name and level": "Fen" + run + "Level 1 Solo Brute   EV 3"}[where]
    start = time.perf_counter()
    try:
        wb.parse_stat_block_text(text)
    except wb.InvalidInput as refused:
        assert refused.field == "text"
    assert time.perf_counter() - start < 0.5


def test_more_lines_than_a_stat_block_has_are_refused_naming_the_text():
    with pytest.raises(wb.InvalidInput) as caught:
        wb.parse_stat_block_text("Fen\nLevel 1 Solo Brute\n" + "x\n" * 5_000)
    assert caught.value.field == "text" and "more than 2,000 lines" in str(caught.value)
