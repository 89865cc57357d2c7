"""The ability editor: add from the formulas, reorder, remove, edit every part; a bad value marks its
control and the last good block stays. Driven through the widgets' values, without a browser."""

from __future__ import annotations

from pathlib import Path

import pytest
import rules_reference as ref

from workbench import InvalidInput, build_monster
from workbench.apps.ability_editor import (
    ability_editor,
    ability_from_fields,
    fields_of,
    move_ability,
)
from workbench.formats.stat_block import read_stat_block
from workbench.monster.ability_template import suggest_ability


def editor_for(level=5, organization="elite", role="brute"):
    return ability_editor(build_monster(level, organization, role)).editor


def test_six_abilities_added_reordered_and_removed():
    editor = editor_for()
    for template in ("signature strike", "two-target strike", "area", "malice", "signature strike", "area"):
        editor.template.value = template
        editor.add.click()
    assert len(editor.abilities) == 6
    assert editor.abilities[0].power_roll.damage == tuple(ref.damage(5, "elite", "brute", t, 2) for t in (1, 2, 3))
    editor.chooser.index = 3  # the Malice strike
    editor.up.click()
    assert [a.name for a in editor.abilities][2] == "Malice Strike" and editor.chooser.index == 2
    editor.remove.click()
    assert len(editor.abilities) == 5 and "Malice Strike" not in [a.name for a in editor.abilities]
    assert "Area Attack" in editor.view.value


def test_editing_a_part_redraws_the_block_and_marks_the_departure():
    editor = editor_for()
    editor.template.value = "signature strike"
    editor.add.click()
    editor.fields["name"].value = "Crushing Blow"
    editor.fields["tier2_damage"].value = "30"
    assert editor.abilities[0].name == "Crushing Blow"
    assert editor.abilities[0].power_roll.tier2.damage == 30
    formula = ref.damage(5, "elite", "brute", 2, 2)
    assert f"tier 2: 30 damage, the formula gives {formula} for a 2-target strike" in editor.view.value
    assert editor.result.abilities[0].name == "Crushing Blow"


@pytest.mark.parametrize(
    "control, value, field",
    [
        ("tier1_damage", "five", "tier1_damage"),  # a tier damage typed as text
        ("tier2_effect", "M < 9 prone", "tier2_effect"),  # a potency past the rules' 6
        ("distance", "12 furlongs", "distance"),
    ],
)
def test_a_bad_value_marks_its_control_and_keeps_the_last_good_block(control, value, field):
    editor = editor_for()
    editor.add.click()
    good = editor.abilities
    editor.fields[control].value = value
    assert editor.problem is not None and editor.problem.field == field
    assert "wb-invalid" in editor.fields[control]._dom_classes
    assert editor.abilities == good
    assert "The last good block is shown" in editor.view.value
    assert "keeps the last good ability" in editor.notes[control].value  # said under the control itself
    editor.fields[control].value = fields_of(good[0])[control]  # put right: the mark goes
    assert editor.problem is None and "wb-invalid" not in editor.fields[control]._dom_classes


def test_fields_round_trip_an_ability():
    monster = build_monster(3, "leader")
    ability = suggest_ability(monster, "villain action")
    assert ability_from_fields(fields_of(ability), ability) == ability


def test_move_stays_within_the_list():
    assert move_ability(("a", "b", "c"), 0, -1) == ("a", "b", "c")  # type: ignore[arg-type]
    assert move_ability(("a", "b", "c"), 2, -1) == ("a", "c", "b")  # type: ignore[arg-type]


def test_a_bonus_past_the_power_roll_range_is_refused_naming_the_control():
    fields = fields_of(suggest_ability(build_monster(1, "horde", "brute"), "signature strike"))
    with pytest.raises(InvalidInput) as caught:
        ability_from_fields({**fields, "bonus": 11})
    assert caught.value.field == "bonus"


SAMPLE_ABILITIES = [(m.name, a) for p in sorted((Path(__file__).resolve().parents[1] / "data" / "bestiary-sample")
                                                 .rglob("*.json")) for m in [read_stat_block(p)] for a in m.abilities]


def test_every_sample_ability_is_rebuilt_unchanged_from_the_fields_that_show_it():
    """Editing nothing (or only the name) changes nothing: an ability without a power roll gets none, a tier
    of two damage parts ("8 damage, 4 corruption damage") keeps both."""
    assert len(SAMPLE_ABILITIES) > 100
    changed = [f"{monster}: {a.name}" for monster, a in SAMPLE_ABILITIES if ability_from_fields(fields_of(a), a) != a]
    assert changed == []


def test_a_new_total_moves_the_first_damage_part_and_keeps_the_others():
    (blade,) = [a for monster, a in SAMPLE_ABILITIES if a.name == "Blightblade"]
    tier3 = blade.power_roll.tier3
    assert [str(d) for d in tier3.damages] == ["8 damage", "7 corruption damage"]
    edited = ability_from_fields({**fields_of(blade), "tier3_damage": "20"}, blade)
    assert [str(d) for d in edited.power_roll.tier3.damages] == ["13 damage", "7 corruption damage"]
    edited = ability_from_fields({**fields_of(blade), "tier3_damage": "5"}, blade)  # less than the other part
    assert [str(d) for d in edited.power_roll.tier3.damages] == ["5 damage"]
    renamed = ability_from_fields({**fields_of(blade), "name": "Blight Edge"}, blade)
    assert renamed == blade.model_copy(update={"name": "Blight Edge"})
