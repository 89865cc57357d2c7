"""Every export of one monster agrees with its Markdown block (`workbench.export.exporter`).

The Markdown block is read as a Director reads it: the keywords, size, speed, stability and free strike, the
five characteristics (the highest marked), immunities and weaknesses, and each ability's name, cost, meta
line, power roll and tiers. Each file for another tool (Forge Steel, Foundry, the Steel Compendium) is read
back by the workbench's own readers and must show the same; the HTML page must show the same in its block.
Checked over formula monsters of every level, organization and role (built with any characteristic and
strike, re-levelled, made instant solos, renamed, their signature ability re-worded) and over the test
files in the shapes of published collections (tests/data/).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
import rules_reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.formats.reader import ImportRefused, import_monster, read_monsters
from workbench.model import CHARACTERISTICS
from workbench.monster.library import load_entry
from workbench.monster.signature import signature_ability
from workbench.monster.solo import is_instant_solo
from workbench.rules.limits import MAX_LEVEL

DATA = Path(__file__).parent / "data"
FILE_FORMATS = ("forge-steel", "foundry", "steel-compendium")
_TIER_LABEL = r"(?:≤11|12–16|17\+)"


# ---------------------------------------------------------------- reading a block as a Director does


def _plain_markdown(text: str) -> str:
    """Markdown user text as it reads: the markup quoting and the HTML escaping undone, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"\\(.)", r"\1", text)).split())


def _plain_html(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def markdown_shows(block: str) -> dict:
    numbers = re.search(r"\| Size \| Speed \| Stamina \| Stability \| Free Strike \|\n\|[-|]+\|\n\|(.*)\|\n", block)
    size, speed, _stamina, stability, free_strike = (_plain_markdown(c) for c in numbers.group(1).split(" | "))
    row = re.search(r"\| Might \| Agility \| Reason \| Intuition \| Presence \|\n\|[-|]+\|\n\|(.*)\|\n", block)
    cells = [c.strip() for c in row.group(1).split("|")]
    start = block.index("\n", block.index("\n**Free Strike "))
    ends = [i for i in (block.find("\n#### ", start), block.find("\n*Numbers from", start)) if i >= 0]
    section = block[start:min(ends)]
    heads = list(re.finditer(r"^\*\*(.+?[^:])\*\*(?: \((.*)\))?\n\n(.*)$", section, re.M))
    abilities = []
    for index, head in enumerate(heads):
        chunk = section[head.end(): heads[index + 1].start() if index + 1 < len(heads) else len(section)]
        roll = re.search(r"^\*\*(.+):\*\*$", chunk, re.M)
        tiers = re.findall(rf"^- {_TIER_LABEL}: (.*?)(?: \*\(.*\)\*)*$", chunk, re.M)
        abilities.append((_plain_markdown(head.group(1)), _plain_markdown(head.group(2) or ""),
                          _plain_markdown(head.group(3)), _plain_markdown(roll.group(1)) if roll else None,
                          tuple(_plain_markdown(t) for t in tiers)))
    return {
        "keywords": _plain_markdown(re.search(r"\n\n\*(.*)\*\n\n\| Size", block).group(1)),
        "size": size, "speed": speed, "stability": stability, "free strike": free_strike,
        "characteristics": tuple(c.strip("*") for c in cells),
        "highest": tuple(name for name, c in zip(CHARACTERISTICS, cells, strict=True) if c.startswith("**")),
        "defences": tuple((label, _plain_markdown(text)) for label, text in
                          re.findall(r"^\*\*(Immunity|Weakness|With Captain)\*\* (.*)$", block, re.M)),
        "abilities": tuple(abilities),
    }


def html_shows(page: str) -> dict:
    stats = re.search(r'<table class="wb-stats"><tr>.*?</tr><tr>(.*?)</tr></table>', page)
    size, speed, _stamina, stability, free_strike = (
        _plain_html(c) for c in re.findall(r"<td>(.*?)</td>", stats.group(1)))
    row = re.search(r'<table class="wb-characteristics"><tr>.*?</tr><tr>(.*?)</tr></table>', page).group(1)
    cells = re.findall(r"<td([^>]*)>(.*?)</td>", row)
    abilities = []
    for chunk in re.split(r'(?=<div class="wb-ability" )', page)[1:]:
        name = re.search(r'<h4 class="wb-ability-name">(.*?)(?: <span class="wb-cost">(.*?)</span>)?</h4>', chunk)
        roll = re.search(r'<div class="wb-roll"><b>(.*?):</b></div>', chunk)
        tiers = re.findall(r'<tr class="wb-tier\d"[^>]*><td>[^<]*</td><td>(.*?)</td></tr>', chunk)
        meta = re.search(r'<div class="wb-ability-meta">(.*?)</div>', chunk).group(1)
        abilities.append((_plain_html(name.group(1)), _plain_html(name.group(2) or ""), _plain_html(meta),
                          _plain_html(roll.group(1)) if roll else None,
                          tuple(_plain_html(re.sub(r'<div class="wb-departure">.*?</div>', "", t)) for t in tiers)))
    return {
        "keywords": _plain_html(re.search(r'<div class="wb-keywords">(.*?)</div>', page).group(1)),
        "size": size, "speed": speed, "stability": stability, "free strike": free_strike,
        "characteristics": tuple(_plain_html(value) for _, value in cells),
        "highest": tuple(name for name, (attributes, _) in zip(CHARACTERISTICS, cells, strict=True)
                         if "wb-highest" in attributes),
        "defences": tuple((label, _plain_html(text)) for label, text in
                          re.findall(r'<div class="wb-defence"><b>(.*?)</b> (.*?)</div>', page)),
        "abilities": tuple(abilities),
    }


def assert_every_export_agrees(monster: wb.Monster) -> dict:
    """Each export of `monster` shows what its Markdown block shows; returns what that is."""
    markdown = wb.export_monster(monster, "markdown")
    shown = markdown_shows(markdown)
    assert html_shows(wb.export_monster(monster, "html")) == shown, "html"
    for fmt in FILE_FORMATS:
        (back,) = read_monsters(json.loads(wb.export_monster(monster, fmt)), f"agree.{fmt}")
        assert markdown_shows(wb.export_monster(back, "markdown")) == shown, fmt
    return shown


# ---------------------------------------------------------------- formula monsters


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


@st.composite
def formula_monsters(draw) -> tuple[wb.Monster, str, bool]:
    """A formula monster of any level, organization and role, built with any characteristic and strike, then
    changed the ways a Director changes one: re-levelled, made an instant solo, renamed, re-worded."""
    organization, role = draw(st.sampled_from(ref.combinations()))
    characteristic, strike = draw(st.sampled_from(CHARACTERISTICS)), draw(st.booleans())
    expected = ref.expected_targets(organization)
    monster = wb.build_monster(level=draw(st.integers(1, MAX_LEVEL)), organization=organization, role=role,
                               extra_stamina=draw(st.booleans()) and organization != "minion",
                               targets=draw(st.integers(max(1, expected - 1), expected + 3)),
                               characteristic=characteristic, strike=strike)
    words = st.sampled_from(("", "Club Sweep", "Bite & <Tear>", "Gore | *toss*"))
    for change in draw(st.lists(st.sampled_from(("relevel", "solo", "rename", "reword", "dress")), max_size=3)):
        if change == "relevel":
            monster = wb.relevel(monster, draw(st.integers(1, 20)), draw(st.sampled_from(("delta", "formula"))))
        elif change == "solo" and organization in ("leader", "elite") and not is_instant_solo(monster):
            monster = wb.instant_solo(monster)
        elif change == "rename":
            monster = monster.model_copy(update={"name": draw(words)})
        elif change == "reword":
            monster = monster.model_copy(update={"signature_name": draw(words), "signature_text": draw(words)})
        elif change == "dress":  # the header and the defences a Director fills in
            monster = monster.model_copy(update={
                "keywords": tuple(draw(st.lists(st.sampled_from(("Giant", "Undead", "Fey")), max_size=2, unique=True))),
                "size_class": draw(st.sampled_from((None, wb.Size.parse("1L"), wb.Size.parse("3")))),
                "movement": draw(st.sampled_from((None, wb.Movement(speed=6, modes=("fly",))))),
                "stability_value": draw(st.sampled_from((None, 0, 2))),
                "immunities": draw(st.sampled_from(((), (wb.DamageModifier(type="fire", value=5),)))),
                "weaknesses": draw(st.sampled_from(((), (wb.DamageModifier(type="holy", value=3),)))),
            })
    return monster, characteristic, strike


@settings(max_examples=40)
@given(formula_monsters())
def test_every_export_of_a_formula_monster_agrees_with_its_markdown_block(drawn):
    monster, characteristic, strike = drawn
    assert monster.abilities == (signature_ability(monster, characteristic, strike),)  # its numbers, its words
    shown = assert_every_export_agrees(monster)
    # the block shows the chosen characteristic at the highest value, and the signature ability's three tiers
    column = CHARACTERISTICS.index(characteristic)
    assert shown["highest"] == (characteristic,)
    assert shown["characteristics"][column] == _signed(monster.highest_characteristic)
    assert shown["free strike"] == str(monster.free_strike)
    ((name, cost, meta, roll, tiers),) = shown["abilities"]
    damage = monster.damage if strike else monster.non_strike_damage
    letter = characteristic[0].upper()
    assert (cost, roll) == ("Signature Ability", f"Power Roll + {monster.highest_characteristic}")
    assert tiers == tuple(f"{d} damage; {letter} < {p}" for d, p in
                          zip(damage.as_tuple(), monster.potency.as_tuple(), strict=True))
    assert meta.startswith("Strike · ") is strike and name == (monster.signature_name.strip() or "Signature ability")


# ---------------------------------------------------------------- the published-shape test files


REFUSED = {"foundry-level-zero.json"}  # refused by the importer, by design (tests/test_real_shapes.py)


def _shape_files() -> list[Path]:
    return sorted(p for p in (DATA / "real_shapes").iterdir()
                  if p.suffix in (".json", ".ds-monster") and p.name not in REFUSED)


def test_the_refused_shape_is_refused():
    (path,) = [DATA / "real_shapes" / name for name in REFUSED]
    with pytest.raises(ImportRefused):
        import_monster(path)


@pytest.mark.parametrize("path", _shape_files(), ids=lambda p: p.name)
def test_every_export_of_a_published_shape_agrees_with_its_markdown_block(path):
    monster = import_monster(path)
    shown = assert_every_export_agrees(monster)
    assert len(shown["abilities"]) == len(monster.abilities)
    assert [a[0] for a in shown["abilities"]] == [a.name.strip() for a in monster.abilities]


@pytest.mark.parametrize("path", sorted((DATA / "library-v1").glob("*.json")), ids=lambda p: p.stem)
def test_every_export_of_a_saved_library_monster_agrees_with_its_markdown_block(path):
    entry = load_entry(path.stem, path.parent)
    shown = assert_every_export_agrees(entry.monster)
    column = CHARACTERISTICS.index(entry.characteristic)
    assert shown["characteristics"][column] == _signed(entry.monster.highest_characteristic)  # as it showed
    assert len(shown["abilities"]) == 1
