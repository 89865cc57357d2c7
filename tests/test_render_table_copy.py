"""The table copy: the book's block only, and the default print."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import workbench as wb
from workbench.export.printout import print_html
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.reader import import_monster
from workbench.render.stat_block import stat_block_html
from workbench.render.table_copy import table_copy_html

SAMPLE = sample_bestiary()
# what the working block shows and the book does not print
BUILDER_MATERIAL = ("expected damage", "Tier 1 / 2 / 3", "ruleset", "The formulas give only", "—",
                    "wb-departure", "Kept as text", "Malicious Strike", "not set by the formulas")


def published(name: str) -> wb.Monster:
    root = Path(SAMPLE.source)
    folder = root if root.is_dir() else root.parent
    return import_monster(folder / next(m for m in SAMPLE.monsters if m.name == name).file)


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@pytest.fixture(scope="module")
def channeler() -> wb.Monster:
    return published("Bugbear Channeler")


def test_the_working_block_carries_builder_material_the_copy_leaves_out(channeler):
    working = stat_block_html(channeler)
    assert any(words in working for words in BUILDER_MATERIAL)  # so the test below can fail
    copy = table_copy_html(channeler)
    for words in BUILDER_MATERIAL:
        assert words not in copy, words


def test_a_published_block_keeps_every_number_and_every_ability(channeler):
    copy = text_of(table_copy_html(channeler))
    assert channeler.name in copy
    assert f"EV {channeler.ev}" in copy
    assert str(channeler.stamina) in copy and str(channeler.free_strike) in copy
    for ability in channeler.abilities:
        assert ability.name in copy
    for name, value in channeler.characteristics.items():
        assert f"{name.capitalize()}" in copy
        assert ("+" if value >= 0 else "−") + str(abs(value)) in copy
    for trait in channeler.traits:
        assert trait.name in copy


def test_a_formula_monster_prints_its_highest_characteristic_and_no_empty_boxes():
    monster = wb.build_monster(5, "elite", "brute", characteristic="agility").model_copy(update={"name": "Ridge Ogre"})
    copy = table_copy_html(monster)
    assert re.findall(r"<th>(\w+)</th>", copy.split('class="wb-characteristics"')[1].split("</table>")[0]) == [
        "Agility"]
    assert f'data-characteristic="agility">+{monster.highest_characteristic}<' in copy
    assert "—" not in copy
    text = text_of(copy)
    for tier in monster.damage.as_tuple():  # the formulas' signature strike, every tier
        assert f"{tier} damage" in text


def test_immunities_weaknesses_and_movement_are_printed():
    monster = wb.build_monster(2, "platoon", "artillery").model_copy(update={
        "immunities": (wb.DamageModifier(type="fire", value=5),),
        "weaknesses": (wb.DamageModifier(type="holy", value=3),),
        "movement": wb.Movement(speed=6, modes=("fly",)),
    })
    text = text_of(table_copy_html(monster))
    assert "Immunity Fire 5" in text and "Weakness Holy 3" in text and "6 (fly)" in text


def test_user_text_is_escaped():
    monster = wb.build_monster(1, "platoon", "brute").model_copy(update={
        "name": "<script>alert(1)</script>",
        "traits": (wb.Trait(name="<b>x</b>", text="a & b <i>"),),
    })
    copy = table_copy_html(monster)
    assert "<script>" not in copy and "&lt;script&gt;" in copy
    assert "<b>x</b>" not in copy and "a &amp; b &lt;i&gt;" in copy


def test_the_default_print_is_the_table_copy(channeler):
    page = print_html(channeler)
    assert "wb-table-copy" in page
    assert "expected damage" not in page and "ruleset" not in text_of(page)
    working = print_html(channeler, block=lambda m: stat_block_html(m, style=False))
    assert "expected damage" in working  # the working block is still there for whoever asks for it
