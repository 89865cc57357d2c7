"""The ability editor edits only a chosen ability: with none chosen its fields are disabled and a line says
what to do; the builder has one way to make a signature ability (the Abilities section)."""

from __future__ import annotations

import workbench as wb
from workbench.apps.ability_editor import AbilityEditor
from workbench.apps.builder import monster_builder


def test_with_no_ability_the_fields_are_disabled_and_say_why():
    editor = AbilityEditor(wb.build_monster(3, "platoon", "brute"))
    assert editor.selected is None
    assert all(control.disabled for control in editor.fields.values())
    assert editor.nothing_chosen.layout.display != "none"
    assert "Add an ability" in editor.nothing_chosen.value


def test_adding_an_ability_enables_the_fields_and_removing_the_last_disables_them():
    editor = AbilityEditor(wb.build_monster(3, "platoon", "brute"))
    editor.act("add")
    assert editor.selected == 0
    assert not any(control.disabled for control in editor.fields.values())
    assert editor.nothing_chosen.layout.display == "none"
    editor.fields["name"].value = "Club Sweep"
    assert editor.abilities[0].name == "Club Sweep"
    editor.act("remove")
    assert editor.abilities == ()
    assert all(control.disabled for control in editor.fields.values())


def test_the_builder_offers_one_way_to_a_signature_ability(tmp_path):
    app = monster_builder(folder=tmp_path)
    shown = []
    stack = list(app.children)
    while stack:
        w = stack.pop()
        shown.append(w)
        stack.extend(getattr(w, "children", ()))
    # the formula signature's own boxes are not on the page: a signature ability is added in Abilities
    assert app.controls["signature_name"] not in shown and app.controls["signature_text"] not in shown
    assert "A signature strike" in [label for label, _ in app.ability_editor.template.options]
    assert "signature" in [value for _, value in app.ability_editor.fields["cost"].options]
