"""A feature's paragraphs drawn whole: a Malice feature that calls for a test shows the test's three tiers, a
trait's paragraph bought with Malice shows its price, on the working block, its Markdown and the table copy;
and the Markdown reads back as the same features."""

from __future__ import annotations

import re

import pytest

import workbench as wb
from workbench.model import Effect, Monster, Trait
from workbench.render.effects import TIER_LABELS, item_markdown
from workbench.render.stat_block import stat_block_html, stat_block_markdown
from workbench.render.table_copy import table_copy_html

QUAKE = Trait.of_effects("Quake", [Effect(
    text="The ground heaves under the foes. Each enemy within 5 squares makes a Might test.",
    tiers=("9 damage; prone", "6 damage", "3 damage"))], cost=5)
HOLLOW_HEART = Trait.of_effects("Hollow Heart", [
    Effect(text="Once a round, the warden can ignore one condition."),
    Effect(text="The condition passes to a creature within 5 squares.", malice=3),
    Effect(name="Special", text="Only while bloodied.")])
RISING = Trait.of_effects("Rising", [Effect(
    text="Each time the warden drops to 0 Stamina, a hero adjacent to them makes a Reason test.",
    tiers=("the warden rises with 20 Stamina", "the warden rises with 10 Stamina", "no effect"))])


def _warden() -> Monster:
    return wb.build_monster(level=6, organization="solo").model_copy(update={
        "name": "Barrow Warden", "keywords": ("Undead",), "traits": (HOLLOW_HEART, RISING), "malice_features": (QUAKE,)})


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize("page", [stat_block_html, table_copy_html], ids=["working block", "table copy"])
def test_every_html_block_shows_a_features_tiers_and_the_price_of_its_paragraphs(page):
    shown = _text(page(_warden()))
    for label, tier in zip(TIER_LABELS, QUAKE.effects[0].tiers or (), strict=True):
        assert f"{label} {tier}" in shown
    for label, tier in zip(TIER_LABELS, RISING.effects[0].tiers or (), strict=True):
        assert f"{label} {tier}" in shown
    assert "3 Malice: The condition passes to a creature within 5 squares." in shown
    assert "Special: Only while bloodied." in shown


def test_the_markdown_lists_the_tiers_under_their_feature_and_prices_its_paragraph():
    text = stat_block_markdown(_warden())
    assert ("- **Quake** (5 Malice) The ground heaves under the foes. Each enemy within 5 squares makes a Might "
            "test.\n  - ≤11: 9 damage; prone\n  - 12–16: 6 damage\n  - 17+: 3 damage\n") in text
    assert "\n  **3 Malice:** The condition passes to a creature within 5 squares.\n" in text
    assert "\n  **Special:** Only while bloodied.\n" in text


def test_the_markdown_reads_back_as_the_same_features():
    warden = _warden()
    back = wb.parse_stat_block_text(stat_block_markdown(warden))
    assert back.traits == warden.traits and back.malice_features == warden.malice_features
    assert back.kept_as_text == ()


def test_a_feature_without_paragraphs_is_its_text_on_one_line_and_user_text_is_escaped():
    plain = Trait(name="Crafty", text="Hides\n# in plain sight")
    assert item_markdown("- **Crafty**", plain) == ["- **Crafty** Hides \\# in plain sight"]
    hostile = Trait.of_effects("Odd", [Effect(text="<b>bold</b>", tiers=("*a*", "b", "c"))])
    lines = item_markdown("- **Odd**", hostile)
    assert lines[0] == "- **Odd** &lt;b&gt;bold&lt;/b&gt;" and lines[1] == "  - ≤11: \\*a\\*"
    assert "<b>bold</b>" not in stat_block_html(_warden().model_copy(update={"malice_features": (hostile,)}))
