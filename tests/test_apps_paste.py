"""The builder's "Paste a stat block" box (workbench/apps/builder.py): pasted book text, or the Steel
Compendium's Markdown, is read whole, saved into the library with its printed numbers and opened in the
builder at once; a line kept as text is named; text that is no stat block is said in words, and nothing is
saved."""

from __future__ import annotations

from pathlib import Path

import workbench as wb
from workbench.apps.builder import monster_builder

PASTED = """\
Fen Lurker
Level 2 Platoon Ambusher
EV 8
Beast
Stamina 31  Speed 6  Size 1L  Stability 1
Free Strike 3
Might +2  Agility +1  Reason -1  Intuition 0  Presence -2
a caption <b>the reader</b> has no place for
Reed Snare (Signature Ability)
Melee, Strike, Weapon  Main action
Melee 2  One creature or object
Power Roll + 2:
\u226411 5 damage
12\u201316 8 damage
17+ 10 damage
"""


def test_pasted_text_is_saved_whole_and_kept_lines_named_escaped(tmp_path):
    app = monster_builder(folder=tmp_path)
    app.paste.text.value = PASTED
    app.paste.button.click()
    assert "Fen Lurker" in app.library.note.value and "wb-error" not in app.library.note.value
    assert "a caption &lt;b&gt;the reader&lt;/b&gt; has no place for" in app.library.note.value
    saved = wb.load_monster("Fen Lurker", tmp_path)
    assert saved.stamina == 31 and saved.abilities[0].power_roll.bonus == 2  # printed, not the formulas'
    assert "Fen Lurker" in app.library.saved.options


def test_text_that_is_no_stat_block_is_refused_in_words_and_nothing_saved(tmp_path):
    app = monster_builder(folder=tmp_path)
    app.paste.text.value = "Dear friend,\nthe weather is fine."
    app.paste.button.click()
    assert "wb-error" in app.library.note.value and "Not read" in app.library.note.value
    assert "Traceback" not in app.library.note.value
    assert wb.list_monsters(tmp_path) == []


def test_a_pasted_block_opens_in_the_builder_at_once(tmp_path):
    app = monster_builder(folder=tmp_path)
    app.paste.text.value = PASTED
    app.paste.button.click()
    controls = app.controls
    assert controls["name"].value == "Fen Lurker" and controls["level"].value == 2
    assert (controls["organization"].value, controls["role"].value) == ("platoon", "ambusher")
    assert app.library.file_name.value == "Fen Lurker" and "opened it" in app.library.note.value


def test_the_compendiums_markdown_pasted_is_saved_and_opened(tmp_path):
    markdown = (Path(__file__).parent / "data" / "pasted" / "compendium-minion.md").read_text(encoding="utf-8")
    app = monster_builder(folder=tmp_path)
    app.paste.text.value = markdown
    app.paste.button.click()
    assert "wb-error" not in app.library.note.value
    saved = wb.load_monster("Reedwrack Raider", tmp_path)
    assert (saved.free_strike, saved.with_captain, saved.keywords) == (1, "+2 bonus to Stamina",
                                                                      ("Humanoid", "Reedfolk"))
    assert app.controls["name"].value == "Reedwrack Raider" and app.controls["organization"].value == "minion"
