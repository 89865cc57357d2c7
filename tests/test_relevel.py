"""Re-levelling: every formula number moved, the design's departures kept (delta) or replaced
(formula), text untouched except those numbers, and there-and-back exact on all 49 samples at levels 1–10.

Expected formula values come from tests/rules_reference.py (an independent integer implementation).
"""

from __future__ import annotations

import re

import pytest
import rules_reference as ref

import workbench as wb
from workbench import InvalidInput, build_monster
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.stat_block import read_stat_block
from workbench.monster.relevel import relevel, relevel_moves

SAMPLES = sorted(SAMPLE_DIR.rglob("*.json"))
GOBLIN_WARRIOR = SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Warrior.json"
KNIGHTMARE = SAMPLE_DIR / "Bugbears" / "Statblocks" / "Bugbear Knightmare.json"


def words(monster) -> list[str]:
    """Every tier's text with the numbers the formulas set masked out (damage amounts and potencies)."""
    out = []
    for ability in monster.abilities:
        tiers = list(ability.power_roll.tiers) if ability.power_roll else []
        tiers += [t for e in ability.effects for t in (e.tiers or ())]
        for tier in tiers:
            text = str(tier)
            text = re.sub(r"^(\d+)( [a-z]+(?: or [a-z]+)?)? damage", r"N\2 damage", text)
            text = re.sub(r", (\d+)( [a-z]+)? damage", r", N\2 damage", text)
            out.append(re.sub(r"\b([MARIP]) < -?\d+", r"\1 < N", text))
    return out


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_there_and_back_in_delta_mode_returns_the_original_exactly(path):
    original = read_stat_block(path)
    for level in range(1, 11):
        moved = relevel(original, level)
        assert moved.level == level
        assert relevel(moved, original.level) == original, level
        assert words(moved) == words(original), level
        # the arithmetic alone, without the remembered design, also comes back when no number hit a limit
        if not any(m.clamped for m in relevel_moves(original, level)):
            forgetful = moved.model_copy(update={"relevelled_from": None})
            back = relevel(forgetful, original.level).model_copy(update={"relevelled_from": None})
            assert back == original, level


def test_the_goblin_warrior_at_level_5_keeps_its_departures():
    goblin = read_stat_block(GOBLIN_WARRIOR)  # level 1 horde harrier
    moved = relevel(goblin, 5)
    assert moved.ev == 3 + ref.ev(5, "horde") - ref.ev(1, "horde")
    assert moved.stamina == 15 + ref.stamina(5, "horde", "harrier") - ref.stamina(1, "horde", "harrier")
    assert moved.free_strike == 1 + ref.free_strike(5, "horde", "harrier") - ref.free_strike(1, "horde", "harrier")
    step = ref.highest_characteristic(5, "horde") - ref.highest_characteristic(1, "horde")
    assert moved.characteristics.as_dict() == {
        "might": -2 + step, "agility": 2 + step, "reason": 0 + step, "intuition": 0 + step, "presence": -1 + step}
    spear = moved.abilities[0]  # a one-target strike
    assert spear.power_roll.bonus == 2 + step
    assert spear.power_roll.damage == tuple(
        old + ref.damage(5, "horde", "harrier", t, 1, True) - ref.damage(1, "horde", "harrier", t, 1, True)
        for t, old in zip((1, 2, 3), (3, 4, 5), strict=True))
    bury = moved.abilities[1]  # "5 damage; M < 0 bleeding (save ends)" ...
    assert [t.potency.value for t in bury.power_roll.tiers] == [
        old + ref.potency(5, "horde", t) - ref.potency(1, "horde", t) for t, old in zip((1, 2, 3), (0, 1, 2),
                                                                                         strict=True)]
    assert str(bury.power_roll.tier1).endswith(f"M < {bury.power_roll.tier1.potency.value} bleeding (save ends)")


def test_formula_mode_replaces_every_number_with_the_formulas():
    goblin = read_stat_block(GOBLIN_WARRIOR)
    moved = relevel(goblin, 7, mode="formula")
    assert (moved.ev, moved.stamina, moved.free_strike) == (
        ref.ev(7, "horde"), ref.stamina(7, "horde", "harrier"), ref.free_strike(7, "horde", "harrier"))
    highest = ref.highest_characteristic(7, "horde")
    assert moved.characteristics.agility == highest  # the highest becomes the formula's ...
    assert moved.characteristics.might == highest - 4  # ... the others keep their distance below it
    assert moved.abilities[0].power_roll.damage == tuple(ref.damage(7, "horde", "harrier", t, 1, True)
                                                         for t in (1, 2, 3))
    assert [t.potency.value for t in moved.abilities[1].power_roll.tiers] == [
        ref.potency(7, "horde", t) for t in (1, 2, 3)]


def test_a_formula_monster_moved_in_delta_mode_is_the_formulas_at_the_new_level():
    moved = relevel(build_monster(3, "elite", "brute"), 8)
    fresh = build_monster(8, "elite", "brute")
    for key in ("ev", "stamina", "free_strike", "highest_characteristic", "damage", "non_strike_damage", "potency",
                "echelon"):
        assert getattr(moved, key) == getattr(fresh, key), key


def test_a_number_past_the_rules_limit_is_kept_at_it_and_comes_back():
    knightmare = read_stat_block(KNIGHTMARE)  # a level 8 minion whose Corrosive Blade deals 3 at tier 1
    low = relevel(knightmare, 1)
    assert low.abilities[0].power_roll.tier1.damage == 0
    clamped = [m for m in relevel_moves(knightmare, 1) if m.clamped]
    assert [(m.quantity, m.old, m.new) for m in clamped] == [("Corrosive Blade, tier 1 damage", 3, 0)]
    assert relevel(relevel(low, 4), 8) == knightmare


def test_each_move_carries_its_working():
    moves = {m.quantity: m for m in relevel_moves(read_stat_block(GOBLIN_WARRIOR), 5)}
    ev = moves["EV"]
    assert (ev.old, ev.new, ev.formula_old.value, ev.formula_new.value) == (3, 7, 3, 7)
    assert ev.working == "3 + (7 − 3) = 7"
    assert str(ev).startswith("EV: 3 → 7")
    assert ev.formula_new.working == "⌈(2 × 5 + 4) × 0.5⌉"
    assert "Spear Charge, tier 3 damage" in moves and "Bury the Point, tier 2 potency (M)" in moves


@pytest.mark.parametrize("level, mode, field", [(0, "delta", "level"), ("5", "delta", "level"),
                                                (5, "halfway", "mode")])
def test_bad_level_or_mode_is_refused(level, mode, field):
    with pytest.raises(InvalidInput) as caught:
        relevel(read_stat_block(GOBLIN_WARRIOR), level, mode)
    assert caught.value.field == field


def _refusal(function, *args):
    with pytest.raises(InvalidInput) as caught:
        function(*args)
    return caught.value


@pytest.mark.parametrize("args, field, accepts", [
    ((True,), "level", "a whole number from 1 to 100"),                  # True is no level
    (("5",), "level", "a whole number from 1 to 100"),                   # a text is no level
    ((5.0,), "level", "a whole number from 1 to 100"),
    ((None,), "level", "a whole number from 1 to 100"),
    ((0,), "level", "a whole number from 1 to 100"),
    ((5, "halfway"), "mode", "delta (keep the design's departures) or formula (the formulas' numbers)"),
    ((5, None), "mode", "delta (keep the design's departures) or formula (the formulas' numbers)"),
])
def test_the_public_name_and_the_module_refuse_with_one_message(args, field, accepts):
    goblin = read_stat_block(GOBLIN_WARRIOR)
    for public, own in ((wb.relevel, relevel), (wb.relevel_moves, relevel_moves)):
        said = _refusal(public, goblin, *args)
        assert (said.field, said.accepts) == (field, accepts)
        assert str(said) == str(_refusal(own, goblin, *args))


def test_a_monster_that_is_no_monster_is_refused_before_its_level():
    said = _refusal(wb.relevel, "Goblin Warrior", True)
    assert (said.field, said.accepts) == ("monster", "a Monster")
    assert str(said) == str(_refusal(relevel, "Goblin Warrior", True))
