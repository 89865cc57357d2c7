"""Form rows in the builder: traits, Malice features, villain actions and homebrew rule modules
added, filled in, moved, removed; a bad value said beside its row while the block keeps the last good one."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

import workbench as wb
from workbench.apps.builder import monster_builder
from workbench.apps.rows import MaliceRows, RuleRows, TraitRows, format_traits, number_or_text, parse_traits
from workbench.errors import InvalidInput
from workbench.homebrew.rule import shipped_rules
from workbench.model import Trait


@pytest.fixture
def app(tmp_path):
    return monster_builder(folder=tmp_path)


def fill(row, **values):
    for key, value in values.items():
        row.fields[key].value = value


def names(items):
    return [item.name if hasattr(item, "name") else item.rule for item in items]


def test_traits_added_filled_moved_and_removed_reach_the_block(app):
    rows = app.rows["traits"]
    for name, text in (("Crafty", "No opportunity attacks."), ("Pack Tactics", "Edge when flanking."),
                       ("Nimble", "Shift 1 as a free maneuver.")):
        fill(rows.add_row(), name=name, text=text)
    assert names(app.monster.traits) == ["Crafty", "Pack Tactics", "Nimble"]
    assert "Edge when flanking." in app.stat_block.value
    rows.move(rows.rows[2], -1)  # Nimble up one
    assert names(app.monster.traits) == ["Crafty", "Nimble", "Pack Tactics"]
    block = app.stat_block.value
    assert block.index("Nimble") < block.index("Pack Tactics")
    rows.move(rows.rows[0], -1)  # the first can't go further up
    assert names(app.monster.traits) == ["Crafty", "Nimble", "Pack Tactics"]
    assert rows.rows[0].up.disabled and rows.rows[-1].down.disabled and not rows.rows[1].up.disabled
    rows.remove(rows.rows[0])
    assert names(app.monster.traits) == ["Nimble", "Pack Tactics"]
    assert "Crafty" not in app.stat_block.value
    # the typed shortcut shows the same list, in order
    assert rows.shortcut.value == "Nimble: Shift 1 as a free maneuver.\nPack Tactics: Edge when flanking."


def test_the_buttons_do_what_they_say(app):
    rows = app.rows["traits"]
    rows.add.click()
    rows.add.click()
    fill(rows.rows[0], name="First")
    fill(rows.rows[1], name="Second")
    rows.rows[1].up.click()
    assert names(app.monster.traits) == ["Second", "First"]
    rows.rows[0].remove.click()
    assert names(app.monster.traits) == ["First"]


def test_a_blank_row_is_left_off_and_a_nameless_one_is_said_beside_it(app):
    rows = app.rows["traits"]
    row = rows.add_row()
    assert app.monster.traits == () and row.note.value == ""
    fill(row, text="Something without a name")
    assert app.monster.traits == ()
    assert "no name yet" in row.note.value and "left off the block" in row.note.value
    # the blank box the Director is about to type in is left alone (a change to it would wipe their typing)
    assert "wb-invalid" not in row.fields["name"]._dom_classes
    fill(row, name="Named")
    assert names(app.monster.traits) == ["Named"] and row.note.value == ""
    assert "wb-invalid" not in row.fields["name"]._dom_classes


@pytest.mark.parametrize("cost", ["three", "0", "-2", "²", "５", "1" * 40])
def test_a_bad_malice_cost_is_said_beside_it_and_the_block_keeps_the_last_good_one(app, cost):
    rows = app.rows["malice_features"]
    row = rows.add_row()
    fill(row, name="Stomp", text="Everyone nearby falls prone.", cost="3")
    good = app.stat_block.value
    assert "(3 Malice)" in good
    row.fields["cost"].value = cost
    message = html.unescape(row.note.value)
    assert "Cost takes a whole number of Malice, 1 or more" in message and "last good value" in message
    assert "got '" not in message and "None" not in message
    assert "wb-invalid" in row.fields["cost"]._dom_classes
    assert app.stat_block.value == good
    assert app.monster.malice_features == (Trait(name="Stomp", text="Everyone nearby falls prone.", cost=3),)
    assert app.status.value == ""  # said beside the row, not at the foot of the page


def test_a_malice_feature_needs_its_cost(app):
    row = app.rows["malice_features"].add_row()
    cost_box = row.fields["cost"]
    classes_before = cost_box._dom_classes
    fill(row, name="Stomp")
    assert "A Malice feature costs Malice" in html.unescape(row.note.value)
    # the blank Cost box's model is not touched while the Director is about to type the cost into it
    assert cost_box._dom_classes == classes_before
    fill(row, cost="5")
    assert app.monster.malice_features == (Trait(name="Stomp", text="", cost=5),)


def test_villain_actions_are_rows_too(app):
    rows = app.rows["villain_actions"]
    fill(rows.add_row(), name="Opener", text="<b>Everyone</b> shifts 2.")
    assert names(app.monster.villain_actions) == ["Opener"]
    assert "&lt;b&gt;Everyone&lt;/b&gt;" in app.stat_block.value and "<b>Everyone" not in app.stat_block.value


def test_a_rule_module_is_picked_and_its_parameters_are_fields(app):
    rows = app.rows["homebrew_rules"]
    row = rows.add_row()
    assert [label for label, _ in row.fields["module"].options] == [
        r.fill(partial=True).name for r in shipped_rules().values()]
    row.fields["module"].value = "generic-swarm"
    assert {"disperse_value", "reform_threshold"} <= set(row.fields)
    assert row.fields["disperse_value"].description == "Disperse Value (N)"
    fill(row, disperse_value="4", reform_threshold="5")
    assert "Swarm (N = 4, M = 5)" in app.stat_block.value
    row.fields["disperse_value"].value = "0"  # N is a whole number from 1
    message = html.unescape(row.note.value)
    assert "Disperse Value (N) takes a whole number from 1 upwards" in message
    assert "disperse_value" not in message
    assert "Swarm (N = 4, M = 5)" in app.stat_block.value  # the last good block stays
    # another module picked: its own fields replace the swarm's
    row.fields["module"].value = "exploitable-weakness"
    assert "disperse_value" not in row.fields and "tag" in row.fields
    assert "needs a Tag" in html.unescape(row.note.value)
    fill(row, tag="Silver")
    assert "Exploitable Weakness (Silver)" in app.stat_block.value and "Swarm" not in app.stat_block.value


def test_two_modules_reordered_and_one_removed(app):
    rows = app.rows["homebrew_rules"]
    first, second = rows.add_row(), rows.add_row()
    first.fields["module"].value = "exploitable-weakness"
    fill(first, tag="Silver")
    second.fields["module"].value = "generic-swarm"
    assert names(app.monster.homebrew_rules) == ["exploitable-weakness", "generic-swarm"]
    rows.move(second, -1)
    assert names(app.monster.homebrew_rules) == ["generic-swarm", "exploitable-weakness"]
    rows.remove(second)
    assert names(app.monster.homebrew_rules) == ["exploitable-weakness"]


def test_the_typed_shortcut_becomes_rows_and_a_bad_line_is_said_beside_it(app):
    app.controls["malice_features"].value = "Spite (3): shove\nRally (5 Malice): all allies"
    rows = app.rows["malice_features"]
    assert [(r.fields["name"].value, r.fields["cost"].value) for r in rows.rows] == [("Spite", "3"), ("Rally", "5")]
    good = app.stat_block.value
    app.controls["malice_features"].value = "Spite: shove"  # no cost: once taken silently as a free feature
    message = html.unescape(rows.shortcut_note.value)
    assert "Line 1 has no Malice cost" in message and "rows above are unchanged" in message
    assert app.stat_block.value == good and len(rows.rows) == 2


def test_a_loaded_monster_fills_the_rows(app, tmp_path):
    app.controls["traits"].value = "Crafty: no opportunity attacks"
    row = app.rows["homebrew_rules"].add_row()
    row.fields["module"].value = "exploitable-weakness"
    fill(row, tag="Silver")
    monster = app.monster
    fresh = monster_builder(folder=tmp_path / "other")
    fresh.show(monster)
    assert [r.fields["name"].value for r in fresh.rows["traits"].rows] == ["Crafty"]
    rule_row = fresh.rows["homebrew_rules"].rows[0]
    assert (rule_row.fields["module"].value, rule_row.fields["tag"].value) == ("exploitable-weakness", "Silver")
    assert fresh.monster.homebrew_rules == monster.homebrew_rules


def test_rows_alone_call_back_with_their_items():
    seen = []
    rows = MaliceRows(seen.append)
    fill(rows.add_row(), name="Stomp", cost="2")
    assert seen[-1] == (Trait(name="Stomp", text="", cost=2),)
    rules = RuleRows(shipped_rules(), seen.append)
    rules.set_items(())
    assert isinstance(TraitRows().items, tuple)


def test_number_or_text_takes_plain_digits_only():
    assert [number_or_text(t) for t in ("", " 7 ", "-3", "５", "²", "1e3")] == [None, 7, -3, "５", "²", "1e3"]
    assert [number_or_text(t) for t in ("--5", "-", "5-", "1234567890")] == ["--5", "-", "5-", "1234567890"]


def test_parse_and_format_round_trip():
    malice = parse_traits("Spite (3): shove\nRally (5 Malice): all allies", with_cost=True)
    assert malice == (Trait(name="Spite", text="shove", cost=3), Trait(name="Rally", text="all allies", cost=5))
    assert parse_traits(format_traits(malice), with_cost=True) == malice
    with pytest.raises(InvalidInput) as refused:
        parse_traits("Spite: shove", with_cost=True)
    assert refused.value.field == "shortcut"


def test_a_new_rows_text_boxes_are_not_changed_once_shown(app):
    """A row's boxes get their hover text before the row is shown: any later change to a text box's model makes
    the browser show the model's value again, wiping what the Director has begun to type there."""
    rows = app.rows["traits"]
    when_shown: dict[str, object] = {}

    def shown(change):
        for box in change["new"]:
            for row in rows.rows:
                if row.box is box:
                    when_shown.update({key: control.tooltip for key, control in row.fields.items()})

    rows.list.observe(shown, names="children")
    rows.add.click()
    assert when_shown == {"name": "Name", "text": "Text"}
    (row,) = rows.rows
    changed: list[str] = []
    for key, control in row.fields.items():
        control.observe(lambda change, key=key: changed.append(f"{key}.{change['name']}"))
    rows.add.click()  # another row added below it, and the block redrawn, leave it alone
    app.refresh()
    assert changed == []


SAMPLE = Path(__file__).resolve().parents[1] / "data" / "bestiary-sample"
SHAPES = Path(__file__).parent / "data" / "real_shapes"
PUBLISHED = [(path.stem, wb.read_stat_block(path))
             for path in [*sorted(SAMPLE.rglob("*.json")), *sorted(SHAPES.glob("sc-*.json"))]]


@pytest.mark.parametrize("key, kind", [("traits", TraitRows), ("malice_features", MaliceRows)])
def test_editing_nothing_changes_no_published_trait(key, kind):
    """For every published monster's every trait and Malice feature (the sample's and the real shapes'): a
    name changed and put back, the words cleared and typed back as they were shown, give back the very trait
    (its paragraphs, prices, tiers and cost)."""
    rows = kind()
    checked = 0
    for _, monster in PUBLISHED:
        traits = getattr(monster, key)
        rows.set_items(traits)
        for row, trait in zip(rows.rows, traits, strict=True):
            shown = row.fields["text"].value
            fill(row, name=f"{trait.name} Renamed")
            assert row.item == trait.model_copy(update={"name": f"{trait.name} Renamed"})
            fill(row, name=trait.name)
            fill(row, text="")
            fill(row, text=shown)
            assert row.item == trait and row.note.value == ""
            checked += 1
    assert rows.items == getattr(PUBLISHED[-1][1], key)
    assert checked == sum(len(getattr(m, key)) for _, m in PUBLISHED) > 1
