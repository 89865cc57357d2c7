"""The re-levelling view: every moved number old -> new with its working, and the block at both levels."""

from __future__ import annotations

import html
import re

import pytest

import workbench as wb
from workbench.errors import InvalidInput
from workbench.monster.ability_template import suggest_ability
from workbench.monster.relevel import relevel_moves
from workbench.render.escape import escape
from workbench.render.relevel import relevel_html


def brute(name: str = "Bog Hag"):
    monster = wb.build_monster(3, "elite", "brute").model_copy(update={"name": name})
    strike = suggest_ability(monster, "signature strike")
    tier2 = strike.power_roll.tier2
    departed = strike.power_roll.model_copy(update={"tier2": tier2.with_numbers(damage=tier2.damage + 3)})
    return monster.model_copy(update={"abilities": (strike.model_copy(update={"power_roll": departed}),)})


def test_one_row_per_moved_number_with_its_working():
    monster = brute()
    view = relevel_html(monster, 6)
    moves = relevel_moves(monster, 6)
    assert view.count('<tr class="wb-move') == len(moves)
    for move in moves:
        assert escape(move.working) in view or move.working in html.unescape(view)
    # the departure (+3 on tier 2) is kept: old + the formula's change
    tier2 = next(m for m in moves if m.quantity == "Signature Strike, tier 2 damage")
    assert tier2.new == tier2.old + tier2.formula_new.value - tier2.formula_old.value
    assert f"{tier2.old} + ({tier2.formula_new.value} − {tier2.formula_old.value}) = {tier2.new}" in html.unescape(view)


def test_both_blocks_side_by_side():
    view = relevel_html(brute(), 6, "formula")
    levels = re.findall(r'class="wb-stat-block" data-level="(\d+)"', view)
    assert levels == ["3", "6"]
    assert "The formulas' numbers at the new level" in html.unescape(view)


def test_user_text_is_escaped():
    view = relevel_html(brute("<img src=x onerror=alert(1)>"), 4)
    assert "<img" not in view and "&lt;img src=x onerror=alert(1)&gt;" in view


@pytest.mark.parametrize("level, mode", [(0, "delta"), (5, "sideways")])
def test_what_relevel_refuses_is_refused(level, mode):
    with pytest.raises(InvalidInput):
        relevel_html(brute(), level, mode)
