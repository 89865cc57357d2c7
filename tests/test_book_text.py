"""A stat block pasted as text (`wb.parse_stat_block_text`, workbench/formats/book_text.py) gives the same whole
Monster as its JSON: text written here in the book's layout, as a PDF copy gives it (lines broken mid-
paragraph, a word hyphenated at a line's end, the tier glyphs, the minus sign), and the Markdown the workbench
prints of every sample stat block. Lines it cannot place are kept as text and named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import workbench as wb
from workbench.errors import InvalidInput
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.book_text import parse_feature_text
from workbench.formats.stat_block import parse_whole_stat_block
from workbench.model import KeptText

# Our own monster, in the book's layout as a PDF copy gives it.
FEN_LURKER = """\
Fen Lurker
Level 2 Platoon Ambusher
EV 8
Beast, Swamp
Stamina 30    Speed 6 (swim)    Size 1L    Stability 1
Free Strike 3
Immunity poison 3    Weakness fire 2
Might +2   Agility +1   Reason \u22121   Intuition 0   Presence \u22122
Reed Snare (Signature Ability)
Melee, Strike, Weapon        Main action
Melee 2        One creature or object
Power Roll + 2:
\u2726 \u226411   5 damage; A < 0 restrained (save ends)
\u2605 12\u201316   8 damage; A < 1 restrained (save ends)
\u2738 17+   10 damage; A < 2 restrained (save ends)
Effect: The lurker pulls the target up to 2 squares to-
ward the water.
Drag Under (3 Malice)
Melee        Maneuver
Melee 1        One restrained creature
Effect: The target is pulled
into the water and can\u2019t breathe until the end of their next turn.
Slick Hide
The lurker can\u2019t be grabbed while it is in water.
"""

# The same monster as the Steel Compendium's JSON writes it (written by hand, not by the reader).
FEN_LURKER_JSON = {
    "type": "statblock", "name": "Fen Lurker", "level": 2, "roles": ["Platoon Ambusher"],
    "ancestry": ["Beast", "Swamp"], "ev": "8", "stamina": "30", "speed": 6, "movement": "swim", "size": "1L",
    "stability": 1, "free_strike": 3, "immunities": ["Poison 3"], "weaknesses": ["Fire 2"],
    "might": 2, "agility": 1, "reason": -1, "intuition": 0, "presence": -2,
    "features": [
        {"type": "feature", "feature_type": "ability", "name": "Reed Snare", "ability_type": "Signature Ability",
         "keywords": ["Melee", "Strike", "Weapon"], "usage": "Main action", "distance": "Melee 2",
         "target": "One creature or object",
         "effects": [{"roll": "Power Roll + 2", "tier1": "5 damage; A < 0 restrained (save ends)",
                      "tier2": "8 damage; A < 1 restrained (save ends)",
                      "tier3": "10 damage; A < 2 restrained (save ends)"},
                     {"name": "Effect", "effect": "The lurker pulls the target up to 2 squares toward the water."}]},
        {"type": "feature", "feature_type": "ability", "name": "Drag Under", "cost": "3 Malice",
         "keywords": ["Melee"], "usage": "Maneuver", "distance": "Melee 1", "target": "One restrained creature",
         "effects": [{"name": "Effect", "effect": "The target is pulled into the water and can\u2019t breathe until "
                                                  "the end of their next turn."}]},
        {"type": "feature", "feature_type": "trait", "name": "Slick Hide",
         "effects": [{"effect": "The lurker can\u2019t be grabbed while it is in water."}]},
    ],
}


def test_book_layout_text_gives_the_same_monster_as_its_json():
    pasted = wb.parse_stat_block_text(FEN_LURKER)
    assert pasted == parse_whole_stat_block(FEN_LURKER_JSON, "json")
    assert pasted.kept_as_text == ()
    assert str(pasted.abilities[0].power_roll.tier2) == "8 damage; A < 1 restrained (save ends)"
    assert pasted.characteristics.reason == -1 and pasted.movement.modes == ("swim",)


def test_a_line_it_cannot_place_is_kept_as_text_and_named():
    text = FEN_LURKER.replace("Free Strike 3\n", "Free Strike 3\nillustrated by nobody in particular\n")
    pasted = wb.parse_stat_block_text(text)
    assert [(k.where, k.part, k.text) for k in pasted.kept_as_text] == [
        ("the text", "line", "illustrated by nobody in particular")]
    assert pasted.model_copy(update={"kept_as_text": ()}) == wb.parse_stat_block_text(FEN_LURKER)


def test_labelled_book_lines_and_ev_on_the_level_line():
    text = FEN_LURKER.replace("Level 2 Platoon Ambusher\nEV 8\n", "Level 2 Platoon Ambusher  EV 8\n").replace(
        "Melee, Strike, Weapon        Main action\nMelee 2        One creature or object",
        "Keywords Melee, Strike, Weapon  Type Main action\nDistance Melee 2  Target One creature or object")
    assert wb.parse_stat_block_text(text) == wb.parse_stat_block_text(FEN_LURKER)


def test_a_minion_ev_and_with_captain():
    text = FEN_LURKER.replace("Level 2 Platoon Ambusher\nEV 8", "Level 2 Minion Ambusher\nEV 4 for four minions") \
        .replace("Free Strike 3\n", "Free Strike 3\nWith Captain +1 damage bonus to strikes\n") \
        .replace("Stamina 30", "Stamina 8")
    pasted = wb.parse_stat_block_text(text)
    assert (pasted.organization, pasted.ev, pasted.stamina) == ("minion", 4, 8)
    assert pasted.with_captain == "+1 damage bonus to strikes"


@pytest.mark.parametrize("path", sorted(SAMPLE_DIR.rglob("*.json")), ids=lambda p: p.stem)
def test_the_workbench_markdown_of_every_sample_block_reads_back_equal(path: Path):
    monster = wb.read_stat_block(path)
    assert wb.parse_stat_block_text(wb.export_monster(monster, "markdown")) == monster


@pytest.mark.parametrize("text, reason", [
    ("", "empty"),
    ("Hello there\nThis is a letter to a friend.", "no 'Level N Organization Role' line"),
    ("Fen Lurker\nLevel 2 Platoon Ambusher\nEV 8", "no Stamina"),
    ("x" * 100_001, "longer than"),
])
def test_text_that_is_no_stat_block_is_refused_naming_the_text(text, reason):
    with pytest.raises(wb.InvalidInput) as caught:
        wb.parse_stat_block_text(text)
    assert caught.value.field == "text" and reason in str(caught.value)


def test_a_non_text_argument_is_refused():
    with pytest.raises(wb.InvalidInput) as caught:
        wb.parse_stat_block_text(None)  # type: ignore[arg-type]
    assert caught.value.field == "text"


SHAPES = Path(__file__).parent / "data" / "real_shapes"
PASTED = Path(__file__).parent / "data" / "pasted"
# Files whose every part the workbench's Markdown prints (a Foundry power roll's characteristic, a Forge Steel
# "Spend" paragraph and a target of "Self" with no distance it does not: those files are left out here).
PRINTED_WHOLE = [SHAPES / n for n in ("sc-second-power-roll.json", "sc-malice-traits-and-costs.json",
                                      "sc-no-organization.json", "foundry-leader-role.json",
                                      "foundry-minion-role.json", "foundry-no-organization.json")]
PASTED_SAMPLES = sorted(p for p in PASTED.iterdir() if p.suffix in (".md", ".txt") and p.name != "README.md")


def _published_parts(monster: wb.Monster) -> tuple[object, ...]:
    return (monster.keywords, monster.with_captain, monster.free_strike, monster.characteristics,
            monster.abilities, monster.traits, monster.malice_features, monster.stamina, monster.ev)


@pytest.mark.parametrize("path", PRINTED_WHOLE + PASTED_SAMPLES, ids=lambda p: p.name)
def test_the_workbench_markdown_of_a_published_shape_reads_back_with_its_parts(path: Path):
    from workbench.formats.reader import import_monster
    monster = (wb.parse_stat_block_text(path.read_text(encoding="utf-8")) if path.parent == PASTED
               else import_monster(path))
    back = wb.parse_stat_block_text(wb.export_monster(monster, "markdown"))
    assert _published_parts(back) == _published_parts(monster)


def _without_roll_characteristics(monster: wb.Monster) -> wb.Monster:
    abilities = tuple(
        a.model_copy(update={"power_roll": a.power_roll.model_copy(update={"characteristics": ()})})
        if a.power_roll is not None else a for a in monster.abilities)
    return monster.model_copy(update={"abilities": abilities})


@pytest.mark.parametrize("level, organization, role, with_captain", [
    (1, "minion", "harrier", "+2 bonus to speed"), (4, "elite", "brute", ""), (10, "solo", None, ""),
    (2, "leader", None, "")])
def test_the_workbench_markdown_of_a_formula_monster_reads_back_with_its_parts(level, organization, role,
                                                                                 with_captain):
    monster = wb.build_monster(level, organization, role).model_copy(update={
        "name": "Reed Runner", "keywords": ("Humanoid", "Orc"), "with_captain": with_captain})
    back = wb.parse_stat_block_text(wb.export_monster(monster, "markdown"))
    # "Power Roll + 3" names no characteristic: the block cannot carry which one the roll uses
    unnamed = _without_roll_characteristics(monster)
    assert _published_parts(back) == _published_parts(unnamed)
    assert back.highest_characteristic == monster.highest_characteristic
    assert [a.cost for a in back.abilities] == ["signature"]  # the formulas' signature, read as printed


def _sample_markdown() -> str:
    return wb.export_monster(wb.read_stat_block(sorted(SAMPLE_DIR.rglob("*.json"))[3]), "markdown")


@pytest.mark.parametrize("shape", ["blank runs", "no-break spaces", "tabs in the name", "repeated", "long list"])
def test_a_100_kb_paste_is_read_within_a_second(shape):
    import time

    block = _sample_markdown()
    text = {
        "blank runs": block.split("\n", 1)[0] + " " * 97_000 + "\n" + block,
        "no-break spaces": (block.replace(" ", "\u00a0" * 40) * 6)[:99_000],
        "tabs in the name": "Goblin" + "\t" * 95_000 + " Sneak\n" + block,
        "repeated": (block + "\n\n") * (99_000 // (len(block) + 2)),
        "long list": block.replace("*Bugbear, Fey, Goblin, Humanoid*",
                                   "*" + ", ".join(f"Kindred{i}" for i in range(7_500)) + "*"),
    }[shape]
    assert 90_000 < len(text) <= 100_000
    started = time.perf_counter()
    try:
        wb.parse_stat_block_text(text)
    except wb.InvalidInput:
        pass  # a refusal in one line is an answer too; the time is what is measured
    assert time.perf_counter() - started < 1


def test_an_indented_line_is_read_and_only_the_basic_malice_features_are_left_out():
    """The workbench's Markdown lists the basic Malice features indented under a block's own; they are the
    book's, not the block's. Any other indented line (a point a Director wrote under a trait) is read."""
    monster = wb.build_monster(3, "elite", "brute").model_copy(update={"name": "Bog Brute", "keywords": ("Beast",)})
    text = wb.export_monster(monster, "markdown")
    assert "  - **Malicious Strike**" in text
    written = text.replace("#### Malice Features", "#### Traits\n\n- **Stink** Foes nearby gag.\n"
                                                   "  - Each one within 2 squares.\n\n#### Malice Features")
    back = wb.parse_stat_block_text(written)
    assert [(t.name, t.text) for t in back.traits] == [("Stink", "Foes nearby gag.\nEach one within 2 squares.")]
    assert back.malice_features == () and back.kept_as_text == ()


def test_what_a_block_kept_as_text_comes_back_kept_from_its_markdown_once():
    written = {**FEN_LURKER_JSON, "features": [
        FEN_LURKER_JSON["features"][0], {**FEN_LURKER_JSON["features"][1], "distance": "3 cube of deep water within 10"},
        FEN_LURKER_JSON["features"][2]]}
    read = parse_whole_stat_block(written, "json")
    loose = KeptText(where="the text", part="line", text="illustrated by nobody")
    monster = read.model_copy(update={"kept_as_text": (*read.kept_as_text, loose)})
    assert [(k.where, k.part) for k in monster.kept_as_text] == [("ability 'Drag Under'", "distance"),
                                                                   ("the text", "line")]
    back = wb.parse_stat_block_text(wb.export_monster(monster, "markdown"))
    assert back.kept_as_text == monster.kept_as_text  # the distance read again is not said twice
    assert back == monster


def test_a_number_of_5000_digits_anywhere_in_a_paste_is_refused_naming_the_text():
    # past 4,300 digits int() raises its own ValueError, from the readers of each number of the block
    block = _sample_markdown()
    runs = list(re.finditer(r"\d+", block))
    assert len(runs) > 30
    for run in runs:
        pasted = block[:run.start()] + "9" * 5000 + block[run.end():]
        with pytest.raises(InvalidInput, match="a number of 5,000 digits") as refusal:
            wb.parse_stat_block_text(pasted)
        assert refusal.value.field == "text"
    with pytest.raises(InvalidInput, match="a number of 5,000 digits"):
        parse_feature_text("Toll", "9" * 5000 + " Malice: the bridge takes its due.")
