"""The builder app without a browser: set the widgets from Python, check the block, working and chart."""

from __future__ import annotations

import html
import re
from pathlib import Path

import ipywidgets as widgets
import pytest
import rules_reference as ref
from widget_tree import drawn

import workbench as wb
from workbench import core_ruleset
from workbench.apps.builder import monster_builder
from workbench.apps.rows import format_traits, parse_traits
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.model import Effect, Trait
from workbench.monster.formulas import build_monster
from workbench.monster.library import list_monsters, load_entry, save_monster


def number(html: str, css: str) -> int:
    match = re.search(rf'class="{css}">\+?(-?\d+)<', html)
    assert match, f"no {css}"
    return int(match.group(1))


def open_tab(app, title: str) -> None:
    """Open a tab by its title, as a click on it does (a tab is drawn when it is shown)."""
    app.tabs.selected_index = app.tabs.titles.index(title)


@pytest.fixture
def app(tmp_path):
    """A builder of its own for each test: its controls are changed by the test, its library folder written."""
    return monster_builder(folder=tmp_path)


def test_is_a_widget_with_stable_classes(app):
    assert isinstance(app, widgets.VBox)
    assert "wb-builder" in app._dom_classes
    assert "wb-stat-block-view" in app.stat_block._dom_classes
    assert "wb-explain-view" in app.explain._dom_classes
    assert app.tabs.titles[app.tabs.selected_index] == "How was this computed"  # the working opens first
    assert "Stamina" in app.explain.value and "Rules section" in app.explain.value  # and is drawn
    assert app.figure is None  # the chart is made when its tab is first opened
    open_tab(app, "Scaling chart")
    assert "wb-scaling-chart" in app.figure._dom_classes


def test_defaults(app):
    c = app.controls
    assert (c["level"].min, c["level"].max) == (1, 10)
    assert c["organization"].value == "platoon"
    # a level 1 platoon: EV = ((2 x 1) + 4) x 1 = 6
    assert number(app.stat_block.value, "wb-ev") == 6


def test_level_5_elite_brute(app):
    c = app.controls
    c["organization"].value = "elite"
    c["role"].value = "brute"
    c["level"].value = 5
    block = app.stat_block.value
    # EV ((2 x 5) + 4) x 2 = 28; Stamina ((10 x 5) + 30) x 2 = 160; free strike ceil(11 x 0.6) = 7;
    # strike damage ceil(11 x 0.6/1.1/1.4) + 3 = 10 / 16 / 19
    assert number(block, "wb-ev") == 28
    assert number(block, "wb-stamina") == 160
    assert number(block, "wb-free-strike") == 7
    assert [number(block, f"wb-damage-tier{t}") for t in (1, 2, 3)] == [10, 16, 19]
    open_tab(app, "How was this computed")  # drawn when shown
    assert "⌈(2 × 5 + 4) × 2⌉ = <b>28</b>" in app.explain.value
    open_tab(app, "Scaling chart")
    assert list(app.figure.data[1].x) == [5] and list(app.figure.data[1].y) == [160]


def test_every_change_redraws_block_and_chart(app):
    open_tab(app, "Scaling chart")  # the chart is drawn while its tab is open
    c = app.controls
    c["organization"].value = "horde"
    c["role"].value = "hexer"
    for level in (2, 7, 10):
        c["level"].value = level
        assert number(app.stat_block.value, "wb-stamina") == ref.stamina(level, "horde", "hexer")
        assert list(app.figure.data[1].y) == [ref.stamina(level, "horde", "hexer")]
    c["quantity"].value = "damage_tier3"
    assert list(app.figure.data[1].y) == [ref.damage(10, "horde", "hexer", 3)]
    assert "Damage, tier 3" in app.figure.layout.title.text
    c["compare"].value = "organization"
    assert "horde hexer" in app.figure.data[2].x and "solo" in app.figure.data[2].x


def test_role_disabled_for_leader_and_solo(app):
    c = app.controls
    c["role"].value = "defender"
    for organization in ("leader", "solo"):
        c["organization"].value = organization
        assert c["role"].disabled and c["role"].value is None
        assert app.monster.role is None
        assert app.inputs.role_note.value == ""
    c["organization"].value = "platoon"
    assert not c["role"].disabled
    assert c["role"].value == "defender"  # the role chosen before comes back
    assert "Defenders are tough creatures" in app.inputs.role_note.value
    assert "Monster platoons are highly organized" in app.inputs.organization_note.value


def test_targets_offer_only_covered_counts(app):
    c = app.controls
    c["organization"].value = "elite"
    # expected 2 for an elite; one fewer (1) is covered, so 1 .. 2 + 3
    assert [v for _, v in c["targets"].options] == [1, 2, 3, 4, 5]
    assert c["targets"].value == 2
    c["targets"].value = 1
    # one fewer target than expected: x 1.2. Level 1 elite ambusher: (4 + 1 + 2) x 0.6 x 1.2 = 5.04 -> 6, + 2
    c["role"].value = "ambusher"
    assert number(app.stat_block.value, "wb-damage-tier1") == ref.damage(1, "elite", "ambusher", 1, targets=1)
    assert number(app.stat_block.value, "wb-damage-tier1") == 8
    c["organization"].value = "platoon"
    assert [v for _, v in c["targets"].options] == [1, 2, 3, 4]
    assert c["targets"].value == 1


def test_extra_stamina_and_minions(app):
    open_tab(app, "Scaling chart")  # the chart is drawn while its tab is open
    c = app.controls
    c["organization"].value = "platoon"
    c["role"].value = "brute"
    c["level"].value = 4
    c["extra_stamina"].value = True
    # (10 x 4 + 30) x 1 + (3 x 4 + 3) = 85
    assert number(app.stat_block.value, "wb-stamina") == 85
    assert list(app.figure.data[1].y) == [85]
    c["organization"].value = "minion"
    assert c["extra_stamina"].disabled and not c["extra_stamina"].value
    assert number(app.stat_block.value, "wb-stamina") == ref.stamina(4, "minion", "brute")


def test_strike_toggle(app):
    c = app.controls
    c["strike"].value = False
    # level 1 platoon ambusher, not a strike: (4 + 1 + 1) x 0.6 = 3.6 -> 4
    assert number(app.stat_block.value, "wb-damage-tier1") == 4
    c["strike"].value = True
    assert number(app.stat_block.value, "wb-damage-tier1") == 6


def test_epic_levels(app):
    open_tab(app, "Scaling chart")  # the chart is drawn while its tab is open
    c = app.controls
    c["epic"].value = True
    assert c["level"].max == 20
    c["level"].value = 18
    assert number(app.stat_block.value, "wb-ev") == ref.ev(18, "platoon")
    assert max(app.figure.data[0].x) == 20
    c["epic"].value = False
    assert c["level"].value == 10 and max(app.figure.data[0].x) == 10


def test_text_fields_reach_the_block_escaped(app):
    c = app.controls
    c["name"].value = "<img src=x onerror=alert(1)>"
    c["keywords"].value = ("Undead",)
    c["other_keywords"].value = "Goblin, <b>"
    c["traits"].value = "Crafty: <script>x</script>"
    block = app.stat_block.value
    assert "<img" not in block and "<script" not in block
    assert "Goblin, &lt;b&gt;" in block
    assert "&lt;img src=x onerror=alert(1)&gt;" in block
    assert app.monster.keywords == ("Undead", "Goblin", "<b>")
    assert "Undead creatures, such as ghosts and zombies" in app.inputs.keyword_note.value
    open_tab(app, "Export")
    assert "<img" not in app.export.markdown.value
    assert '"name": "<img src=x onerror=alert(1)>"' in app.export.json.value


def test_parse_and_format_traits():
    traits = parse_traits("Crafty: doesn't provoke\n\nPack Tactics\n", with_cost=False)
    assert traits == (Trait(name="Crafty", text="doesn't provoke"), Trait(name="Pack Tactics", text=""))
    malice = parse_traits("Spite (3): shove\nRally (5 Malice): all allies", with_cost=True)
    assert malice == (Trait(name="Spite", text="shove", cost=3), Trait(name="Rally", text="all allies", cost=5))
    assert parse_traits(format_traits(malice), with_cost=True) == malice


# ---------------------------------------------------------------- library from the app


def test_save_list_load_rename_delete(app, tmp_path):
    c = app.controls
    c["organization"].value = "leader"
    c["level"].value = 6
    c["name"].value = "Ogre Boss"
    c["characteristic"].value = "presence"
    c["malice_features"].value = "Stomp (3): everyone falls"
    assert app.library.file_name.value == "Ogre Boss"
    app.library.buttons["save"].click()
    assert list_monsters(tmp_path) == ["Ogre Boss"]
    assert app.library.saved.options == ("Ogre Boss",)
    assert "Saved" in app.library.note.value
    saved = load_entry("Ogre Boss", tmp_path)
    assert saved.characteristic == "presence"
    assert saved.monster.malice_features == (Trait(name="Stomp", text="everyone falls", cost=3),)

    # saving again without ticking "replace" is refused and the file is untouched
    before = (tmp_path / "Ogre Boss.json").read_bytes()
    c["level"].value = 2
    app.library.buttons["save"].click()
    assert "already in the library" in app.library.note.value and "Replace" in app.library.note.value
    assert (tmp_path / "Ogre Boss.json").read_bytes() == before

    # load puts every control back
    c["organization"].value = "horde"
    app.library.saved.value = "Ogre Boss"
    app.library.buttons["load"].click()
    assert (c["organization"].value, c["level"].value, c["role"].value) == ("leader", 6, None)
    assert c["characteristic"].value == "presence"
    assert c["malice_features"].value == "Stomp (3): everyone falls"
    assert number(app.stat_block.value, "wb-ev") == ref.ev(6, "leader")

    app.library.new_name.value = "Ogre Chief"
    app.library.buttons["rename"].click()
    assert list_monsters(tmp_path) == ["Ogre Chief"]

    app.library.saved.value = "Ogre Chief"
    app.library.buttons["delete"].click()  # not confirmed: nothing happens
    assert list_monsters(tmp_path) == ["Ogre Chief"]
    app.library.confirm_delete.value = True
    app.library.buttons["delete"].click()
    assert list_monsters(tmp_path) == []
    assert app.library.saved.options == ()


def test_bad_file_name_is_reported_not_raised(app, tmp_path):
    app.controls["name"].value = "x"
    app.library.file_name.value = "../escape"
    app.library.buttons["save"].click()
    assert "name" in app.library.note.value and "letters, digits" in app.library.note.value
    assert list(tmp_path.iterdir()) == []


def test_corrupt_files_are_listed_when_the_folder_opens(tmp_path):
    save_monster(build_monster(3, "platoon", "mount").model_copy(update={"name": "Horse"}), folder=tmp_path)
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    app = monster_builder(folder=tmp_path)
    assert "broken.json" in app.library.note.value
    assert "Horse" in app.library.saved.options


def test_folder_chooser(app, tmp_path):
    other = tmp_path / "elsewhere"
    save_monster(build_monster(1, "solo").model_copy(update={"name": "Dragon"}), folder=other)
    app.library.folder.value = str(other)
    app.library.buttons["refresh"].click()
    assert app.library.saved.options == ("Dragon",)


def test_a_ruleset_variant_drives_the_numbers(tmp_path):
    variant = core_ruleset().updated({"organizations": {"solo": {"stamina_modifier": 4}}})
    app = monster_builder(variant, folder=tmp_path)
    app.controls["organization"].value = "solo"
    # ((10 x 1) + 30) x 4 = 160 with the variant (the core rules give 200)
    assert number(app.stat_block.value, "wb-stamina") == 160
    assert "core (changed)" in app.stat_block.value


def test_file_name_is_suggested_from_the_monster_name(app):
    app.controls["name"].value = "Orc <Brute>"
    assert app.library.file_name.value == "Orc Brute"
    app.library.file_name.value = "Mine"  # a name the user typed is kept
    app.controls["name"].value = "Orc Chief"
    assert app.library.file_name.value == "Mine"


# ---------------------------------------------------------------- instant solos ("Instant Solo Creature")


def _kind(block: str) -> str:
    match = re.search(r'class="wb-kind">([^<]*)<', block)
    assert match, "no wb-kind"
    return match.group(1)


def _names(traits) -> list[str]:
    return [t.name for t in traits]


def test_show_keeps_an_instant_solo(app):
    leader = build_monster(5, "leader").model_copy(update={
        "name": "Warlord Kresh", "traits": (Trait(name="Crafty", text="no opportunity attacks"),),
    })
    app.show(wb.instant_solo(leader))
    block = app.stat_block.value
    # "multiply its EV by 3 and its Stamina by 2.5": leader EV (2 x 5 + 4) x 2 = 28 -> 84;
    # Stamina (10 x 5 + 30) x 2 = 160 -> 400
    assert (number(block, "wb-ev"), number(block, "wb-stamina")) == (84, 400)
    assert _kind(block) == "Leader, instant solo"
    assert app.controls["instant_solo"].value and not app.controls["instant_solo"].disabled
    # the book's traits once each; the text box holds only the Director's own
    assert _names(app.monster.traits) == ["Crafty", "Solo Turns", "End Effect"]
    assert _names(app.monster.malice_features) == ["Solo Action"]
    assert app.controls["traits"].value == "Crafty: no opportunity attacks"
    assert app.controls["malice_features"].value == ""
    open_tab(app, "How was this computed")
    assert "⌈28 × 3⌉" in app.explain.value and "⌈160 × 2.5⌉" in app.explain.value


def test_a_loaded_instant_solo_is_shown_as_saved_and_saved_again_as_one(app, tmp_path):
    boss = wb.instant_solo(build_monster(5, "leader", characteristic="presence").model_copy(
        update={"name": "Warlord Kresh"}))
    save_monster(boss, folder=tmp_path)
    app.library.folder.value = str(tmp_path)
    app.library.buttons["refresh"].click()
    app.library.saved.value = "Warlord Kresh"
    app.library.buttons["load"].click()
    block = app.stat_block.value
    assert (number(block, "wb-ev"), number(block, "wb-stamina")) == (84, 400)  # 28 x 3, 160 x 2.5
    assert _kind(block) == "Leader, instant solo"
    app.library.overwrite.value = True
    app.library.buttons["save"].click()
    assert "Saved" in app.library.note.value
    again = load_entry("Warlord Kresh", tmp_path)
    assert (again.monster.ev, again.monster.stamina) == (84, 400)
    assert _names(again.monster.traits) == ["Solo Turns", "End Effect"]
    assert _names(again.monster.malice_features) == ["Solo Action"]
    assert again.characteristic == "presence"


def test_the_instant_solo_box_follows_every_change_and_turns_off(app):
    c = app.controls
    assert c["instant_solo"].disabled  # a platoon: "Instant Solo Creature" adapts leaders and elites
    c["organization"].value = "leader"
    c["level"].value = 5
    c["instant_solo"].value = True
    assert (number(app.stat_block.value, "wb-ev"), number(app.stat_block.value, "wb-stamina")) == (84, 400)
    c["level"].value = 6
    # leader EV (2 x 6 + 4) x 2 = 32 -> 96; Stamina (10 x 6 + 30) x 2 = 180 -> 450
    assert (number(app.stat_block.value, "wb-ev"), number(app.stat_block.value, "wb-stamina")) == (96, 450)
    assert _names(app.monster.traits) == ["Solo Turns", "End Effect"]  # never doubled by a rebuild
    c["instant_solo"].value = False
    assert (number(app.stat_block.value, "wb-ev"), number(app.stat_block.value, "wb-stamina")) == (32, 180)
    assert _kind(app.stat_block.value) == "Leader" and app.monster.traits == ()
    # an elite: level 2 brute with extra Stamina, (10 x 2 + 30) x 2 + (3 x 2 + 3) = 109; x 2.5 = 272.5 -> 273
    c["organization"].value = "elite"
    c["role"].value = "brute"
    c["level"].value = 2
    c["extra_stamina"].value = True
    c["instant_solo"].value = True
    assert number(app.stat_block.value, "wb-stamina") == 273
    assert _kind(app.stat_block.value) == "Elite Brute, instant solo"
    c["organization"].value = "platoon"
    assert c["instant_solo"].disabled and not c["instant_solo"].value
    assert _kind(app.stat_block.value) == "Platoon Brute"


def test_a_published_elite_made_a_solo_and_cleared_again_shows_its_printed_numbers(app):
    sample = sample_bestiary()
    roughneck = whole_stat_block(sample, sample.named("Bugbear Roughneck"))  # printed EV 16, Stamina 109
    app.show(roughneck)
    c = app.controls
    c["instant_solo"].value = True
    assert (number(app.stat_block.value, "wb-ev"), number(app.stat_block.value, "wb-stamina")) == (48, 273)
    c["instant_solo"].value = False
    # its own numbers, not the formulas' for a level 2 elite brute (Stamina 100)
    assert (number(app.stat_block.value, "wb-ev"), number(app.stat_block.value, "wb-stamina")) == (16, 109)
    assert app.monster.traits == roughneck.traits and app.monster.malice_features == roughneck.malice_features


def test_a_speed_typed_as_a_superscript_or_5000_digits_with_a_mode_ticked_is_refused_beside_it(app):
    # int() refuses "²" and raises past 4,300 digits; neither is a number of squares
    app.controls["movement"].value = ("fly",)
    for typed in ("²", "9" * 5000):
        app.controls["speed"].value = typed
        assert "Speed takes a whole number of squares" in app.status.value
    app.controls["speed"].value = "7"
    assert app.status.value == "" and str(app.monster.movement) == "7 (fly)"


def test_a_leader_given_solo_turns_by_hand_is_not_made_a_solo(app):
    own = Trait(name="Solo Turns", text="my own wording")
    app.show(build_monster(4, "leader").model_copy(update={"traits": (own,)}))
    assert not app.controls["instant_solo"].value
    assert number(app.stat_block.value, "wb-ev") == 24  # (2 x 4 + 4) x 2, the leader's own
    assert app.controls["traits"].value == "Solo Turns: my own wording"


# ---------------------------------------------------------------- rule modules from the Director's folder

TIDE_MODULE = '''format = 1
id = "tide-bound"
title = "Tide-Bound"
name = "Tide-Bound ({sea})"
kind = "trait"
text = "Weakens when far from the {sea}."

[[parameters]]
name = "sea"
label = "Sea"
type = "text"
default = "Grey Sea"
'''


def _modules_folder(tmp_path):
    folder = tmp_path / "my-rules"
    folder.mkdir()
    (folder / "tide.toml").write_text(TIDE_MODULE, encoding="utf-8")
    return folder


def test_a_module_from_the_directors_folder_is_filled_in_on_the_block(tmp_path):
    app = monster_builder(folder=tmp_path / "library", modules_folder=_modules_folder(tmp_path))
    app.controls["homebrew_rules"].value = "tide-bound: sea=Salt Marsh\nexploitable-weakness: tag=Silver"
    block = app.stat_block.value
    assert "Tide-Bound (Salt Marsh)" in block and "Weakens when far from the Salt Marsh." in block
    assert "Exploitable Weakness (Silver)" in block  # the shipped modules still load
    assert "rule module not loaded" not in block
    open_tab(app, "Export")
    assert "Tide-Bound (Salt Marsh)" in app.export.markdown.value
    assert "tide-bound" in app.homebrew.note.value


def test_the_module_folder_box_loads_and_names_bad_files(app, tmp_path):
    app.controls["homebrew_rules"].value = "tide-bound"
    note = html.unescape(app.rows["homebrew_rules"].shortcut_note.value)  # beside the box typed in
    assert "no module 'tide-bound'" in note and "Module folder" in note
    folder = _modules_folder(tmp_path)
    (folder / "broken.toml").write_text('format = 1\nid = "Not An Id"\n', encoding="utf-8")
    app.controls["modules_folder"].value = str(folder)
    assert "broken.toml" in app.homebrew.note.value and "wb-error" in app.homebrew.note.value
    (folder / "broken.toml").unlink()  # put right: the next redraw reads the folder again
    app.controls["name"].value = "Kelpie"
    assert "wb-error" not in app.homebrew.note.value
    assert "Tide-Bound (Grey Sea)" in app.stat_block.value  # the module's default
    assert app.status.value == ""


def test_a_saved_monster_with_an_own_module_loads_filled_in(tmp_path):
    mine = wb.load_rules(_modules_folder(tmp_path))
    kelpie = wb.attach_rule(build_monster(3, "elite", "harrier").model_copy(update={"name": "Kelpie"}),
                            mine["tide-bound"], {"sea": "Loch"})
    save_monster(kelpie, folder=tmp_path / "library")
    app = monster_builder(folder=tmp_path / "library", modules_folder=tmp_path / "my-rules")
    app.library.saved.value = "Kelpie"
    app.library.buttons["load"].click()
    assert "Tide-Bound (Loch)" in app.stat_block.value
    assert app.monster.homebrew_rules == kelpie.homebrew_rules


def test_the_export_tab_follows_the_built_monster():
    """The builder hands each monster it builds to its Export panel; a file made for one is dropped when the
    monster changes, and a fresh file is of the monster on screen."""
    from workbench.apps.builder import MonsterBuilder

    builder = MonsterBuilder()
    open_tab(builder, "Export")
    panel = builder.export.files
    assert panel.monster == builder.monster
    panel.controls["format"].value = "steel-compendium"
    panel.controls["make"].click()
    assert 'data-format="steel-compendium"' in panel.link.value
    builder.controls["level"].value = builder.controls["level"].value % 9 + 1
    assert panel.link.value == "" and panel.monster == builder.monster


# ---------------------------------------------------------------- abilities inside the builder


def test_abilities_are_added_in_the_builder_from_the_formulas_and_follow_the_numbers(app):
    c, editor = app.controls, app.ability_editor
    c["organization"].value, c["role"].value, c["level"].value = "elite", "brute", 5
    for template in ("signature strike", "two-target strike", "area", "villain action", "malice", "signature strike"):
        editor.template.value = template
        editor.add.click()
    assert [a.cost for a in app.monster.abilities] == ["signature", None, None, "villain 1", 3, "signature"]
    # an elite's signature strike at its expected 2 targets: the formula's, so nothing is marked
    assert app.monster.abilities[0].power_roll.damage == tuple(ref.damage(5, "elite", "brute", t, 2) for t in (1, 2, 3))
    assert app.stat_block.value.count('class="wb-ability"') == 6 and "wb-departure" not in app.stat_block.value
    c["level"].value = 7  # the abilities follow the level
    assert app.monster.abilities[0].power_roll.damage == tuple(ref.damage(7, "elite", "brute", t, 2) for t in (1, 2, 3))
    assert "wb-departure" not in app.stat_block.value


def test_a_changed_number_is_marked_and_keeps_its_difference(app):
    c, editor = app.controls, app.ability_editor
    c["organization"].value, c["role"].value, c["level"].value = "elite", "brute", 5
    editor.add.click()  # a signature strike
    editor.show(True)  # the Abilities section opened
    formula = ref.damage(5, "elite", "brute", 2, 2)
    editor.fields["tier2_damage"].value = str(formula + 6)
    assert f"tier 2: {formula + 6} damage, the formula gives {formula}" in app.stat_block.value
    c["level"].value = 6
    moved = ref.damage(6, "elite", "brute", 2, 2)
    assert app.monster.abilities[0].power_roll.tier2.damage == moved + 6
    assert editor.fields["tier2_damage"].value == str(moved + 6)  # the open editor shows the carried number
    c["level"].value = 5
    assert app.monster.abilities[0].power_roll.tier2.damage == formula + 6


@pytest.mark.parametrize("shown", [True, False], ids=["section open", "section folded"])
@pytest.mark.parametrize("chosen", [2, 1, 0], ids=["the last", "a middle one", "the first"])
def test_any_chosen_ability_is_removed_and_leaves_the_block(app, shown, chosen):
    """Remove takes the chosen ability off the list and the block, the last one included: the builder hears of the
    change while the list still chose the removed ability, and with the section open it tried to show a part of an
    ability that was gone ("index out of bounds"), so the click did nothing."""
    editor = app.ability_editor
    editor.show(shown)
    for template in ("signature strike", "area", "malice"):
        editor.template.value = template
        editor.add.click()
    names = [a.name for a in editor.abilities]
    editor.chooser.index = chosen
    editor.remove.click()
    left = names[:chosen] + names[chosen + 1:]
    assert [a.name for a in app.monster.abilities] == left
    assert app.stat_block.value.count('class="wb-ability"') == 2 and names[chosen] not in app.stat_block.value
    assert list(editor.chooser.options) == [f"{i}. {name}" for i, name in enumerate(left, start=1)]
    assert editor.chooser.index == min(chosen, 1)
    if shown:
        assert editor.fields["name"].value == left[min(chosen, 1)]


def test_a_bad_ability_value_is_said_under_its_box_and_the_block_stays(app):
    editor = app.ability_editor
    editor.add.click()
    editor.show(True)
    good = app.stat_block.value
    editor.fields["tier1_damage"].value = "lots"
    assert "Tier 1 damage takes a whole number" in html.unescape(editor.notes["tier1_damage"].value)
    assert "wb-invalid" in editor.fields["tier1_damage"]._dom_classes
    assert app.stat_block.value == good


def test_folded_abilities_write_no_fields_on_a_slider_move(app):
    editor = app.ability_editor
    editor.add.click()
    shown = editor.fields["tier1_damage"].value
    app.controls["level"].value = 8
    assert editor.fields["tier1_damage"].value == shown  # folded away: left as it was
    editor.show(True)
    assert editor.fields["tier1_damage"].value == str(app.monster.abilities[0].power_roll.tier1.damage)


def test_abilities_are_saved_and_loaded_with_the_monster(app, tmp_path):
    app.ability_editor.add.click()
    app.ability_editor.template.value = "area"
    app.ability_editor.add.click()
    app.library.file_name.value = "Brute"
    app.library.buttons["save"].click()
    assert "Saved as" in app.library.note.value
    fresh = monster_builder(folder=tmp_path)
    fresh.library.saved.value = "Brute"
    fresh.library.buttons["load"].click()
    assert fresh.monster.abilities == app.monster.abilities
    assert [o for o in fresh.ability_editor.chooser.options] == ["1. Signature Strike", "2. Area Attack"]


def test_a_hidden_tab_is_drawn_only_when_opened(app):
    """A slider move redraws the block and the open tab only; a hidden tab catches up when it is opened."""
    open_tab(app, "Scaling chart")
    before = app.explain.value
    app.controls["level"].value = 6
    assert app.explain.value == before  # hidden: not redrawn
    open_tab(app, "How was this computed")
    assert f"<b>{app.monster.ev}</b>" in app.explain.value and app.explain.value != before
    chart = list(app.figure.data[1].x)
    app.controls["level"].value = 7
    assert list(app.figure.data[1].x) == chart  # the chart waits, hidden
    open_tab(app, "Scaling chart")
    assert list(app.figure.data[1].x) == [7]


# ---------------------------------------------------------------- moved to another level


def test_the_move_tab_shows_old_to_new_with_the_working_and_both_blocks(app):
    c = app.controls
    c["organization"].value, c["role"].value, c["level"].value = "elite", "brute", 5
    app.ability_editor.add.click()
    app.ability_editor.show(True)
    formula = ref.damage(5, "elite", "brute", 2, 2)
    app.ability_editor.fields["tier2_damage"].value = str(formula + 4)  # a departure, kept in delta mode
    open_tab(app, "Move to another level")
    app.relevel.level.value = 7
    view = html.unescape(app.relevel.view.value)
    # EV ((2 x 5) + 4) x 2 = 28 at level 5; ((2 x 7) + 4) x 2 = 36 at level 7
    assert "28 + (36 − 28) = 36" in view
    moved = ref.damage(7, "elite", "brute", 2, 2)
    assert f"{formula + 4} + ({moved} − {formula}) = {moved + 4}" in view
    assert view.count('class="wb-stat-block"') == 2 and 'data-level="7"' in view and 'data-level="5"' in view
    app.relevel.mode.value = "formula"
    assert f'data-damage="{moved}"' in app.relevel.view.value  # the formula's own number at level 7
    c["level"].value = 6  # the open tab follows the monster
    assert "Level 6 → level 7" in app.relevel.view.value
    c["epic"].value = True
    assert list(app.relevel.level.options)[-1] == 20


def test_the_move_tab_escapes_the_monster_s_words(app):
    app.controls["name"].value = "<img src=x onerror=alert(1)>"
    open_tab(app, "Move to another level")
    assert "<img" not in app.relevel.view.value and "&lt;img src=x" in app.relevel.view.value


# ---------------------------------------------------------------- folded sections and hidden tabs


def test_a_folded_section_and_a_hidden_tab_are_drawn_when_first_opened(app):
    editor = app.ability_editor
    on_page = drawn(app)
    assert editor.add not in on_page and editor.fields["tier1_damage"] not in on_page  # Abilities folded away
    assert app.library not in on_page and app.relevel not in on_page  # hidden tabs
    assert not app.panels.made(app.tabs.titles.index("Export"))  # the Export tab's panel is not even made
    assert app.controls["level"] in on_page  # the open section is drawn
    app.sections["Abilities"].selected_index = 0  # the Director opens Abilities
    assert editor.add in drawn(app) and editor.shown
    editor.add.click()  # the section works once opened
    editor.fields["tier1_damage"].value = "lots"
    assert "Tier 1 damage takes a whole number" in html.unescape(editor.notes["tier1_damage"].value)
    open_tab(app, "Export")
    assert app.export in drawn(app) and '"abilities"' in app.export.json.value  # drawn for the monster built


# ---------------------------------------------------------------- a published trait's paragraphs edited

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "bestiary-sample"
GRAVE_HUNGER = Trait.of_effects("Grave Hunger", [
    Effect(text="The werewolf feeds on the fallen."),
    Effect(malice=5, text="The werewolf regains 10 Stamina."),
])
TAIL_SWEEP = Trait.of_effects("Howling Gale", [
    Effect(text="Each enemy within 3 squares makes an Agility test.",
           tiers=("5 damage; slowed (save ends)", "3 damage; slowed (EoT)", "no effect")),
    Effect(name="End Effect", text="The gale ends at the end of the round."),
], cost=3)
OPENER = Trait.of_effects("Hunt Begins", [Effect(name="Effect", text="Each ally shifts 2 squares.")])


def werewolf():
    """The sample's Werewolf (a published solo: named paragraphs), given a trait with a paragraph priced in
    Malice, a Malice feature with a test's three tiers, and a villain action with a named paragraph."""
    published = wb.read_stat_block(SAMPLE / "Werewolf" / "Statblocks" / "Werewolf.json")
    return published.model_copy(update={"traits": (*published.traits, GRAVE_HUNGER),
                                         "malice_features": (TAIL_SWEEP,), "villain_actions": (OPENER,)})


def test_a_new_name_keeps_a_published_traits_paragraphs_prices_and_tiers(app):
    app.show(werewolf())
    assert app.printed is not None
    for key in ("traits", "malice_features", "villain_actions"):
        for index, row in enumerate(app.rows[key].rows):
            before = getattr(app.monster, key)[index]
            assert before.effects  # each published one is made of paragraphs
            row.fields["name"].value = f"{before.name} Renamed"
            assert getattr(app.monster, key)[index] == before.model_copy(update={"name": f"{before.name} Renamed"})
    block = html.unescape(app.stat_block.value)
    assert "<b>5 Malice:</b> The werewolf regains 10 Stamina." in block
    assert "<b>End Effect:</b> The gale ends" in block and 'class="wb-tiers"' in block
    open_tab(app, "Export")
    markdown = app.export.markdown.value
    assert "  **5 Malice:** The werewolf regains 10 Stamina." in markdown
    assert "  - ≤11: 5 damage; slowed (save ends)" in markdown


def test_the_text_box_shows_the_prices_names_and_tiers_it_reads_back(app):
    app.show(werewolf())
    shown = {row.item.name: row.fields["text"].value for key in ("traits", "malice_features")
             for row in app.rows[key].rows}
    assert shown["Grave Hunger"] == "The werewolf feeds on the fallen.\n5 Malice: The werewolf regains 10 Stamina."
    assert shown["Howling Gale"] == ("Each enemy within 3 squares makes an Agility test.\n"
                                     "≤11: 5 damage; slowed (save ends)\n12–16: 3 damage; slowed (EoT)\n"
                                     "17+: no effect\nEnd Effect: The gale ends at the end of the round.")


def test_an_edited_text_is_read_into_paragraphs_as_pasted_text_is(app):
    app.show(werewolf())
    hunger = app.rows["traits"].rows[-1]
    hunger.fields["text"].value = hunger.fields["text"].value.replace("regains 10", "regains 15")
    assert app.monster.traits[-1] == Trait.of_effects("Grave Hunger", [
        Effect(text="The werewolf feeds on the fallen."), Effect(malice=5, text="The werewolf regains 15 Stamina.")])
    gale = app.rows["malice_features"].rows[0]
    gale.fields["text"].value = gale.fields["text"].value.replace("17+: no effect", "17+: 1 damage")
    (edited,) = app.monster.malice_features
    assert edited.cost == 3 and [e.name for e in edited.effects] == [None, "End Effect"]
    assert [str(t) for t in edited.effects[0].tiers] == ["5 damage; slowed (save ends)", "3 damage; slowed (EoT)",
                                                         "1 damage"]
    # a trait the Director wrote as plain text gets a price and a test's tiers from the words typed
    plain = app.rows["traits"].rows[1]
    plain.fields["text"].value = "The werewolf howls.\n2 Malice: Each enemy makes a Presence test.\n" \
                                 "≤11: frightened (save ends)\n12-16: frightened (EoT)\n17+: no effect"
    howl = app.monster.traits[1]
    assert [(e.malice, e.text) for e in howl.effects] == [
        (None, "The werewolf howls."), (2, "Each enemy makes a Presence test.")]
    assert [str(t) for t in howl.effects[1].tiers] == ["frightened (save ends)", "frightened (EoT)", "no effect"]
    block = html.unescape(app.stat_block.value)
    assert "<b>2 Malice:</b> Each enemy makes a Presence test." in block and "frightened (EoT)" in block
    assert "<b>5 Malice:</b> The werewolf regains 15 Stamina." in block


def test_a_tier_line_with_no_paragraph_above_is_refused_beside_its_row(app):
    app.show(werewolf())
    hunger = app.rows["traits"].rows[-1]
    hunger.fields["text"].value = "17+: the werewolf regains 10 Stamina."
    assert "“17+: the werewolf regains 10 Stamina.” is a tier with no paragraph above it" in html.unescape(
        hunger.note.value)
    assert "wb-invalid" in hunger.fields["text"]._dom_classes
    assert app.monster.traits[-1] == GRAVE_HUNGER  # the block keeps the row's last good trait


def test_a_typed_list_keeps_the_paragraphs_of_the_lines_left_alone(app):
    app.show(werewolf())
    rows = app.rows["traits"]
    before = app.monster.traits
    lines = rows.shortcut.value.splitlines()
    lines[1] = "Accursed Rage: The werewolf rages."
    rows.shortcut.value = "\n".join(lines)
    after = app.monster.traits
    assert after[1] == Trait(name="Accursed Rage", text="The werewolf rages.")
    assert after[:1] + after[2:] == before[:1] + before[2:]


def test_a_malice_feature_whose_cost_is_words_is_renamed_without_a_cost_typed(app):
    app.open_file(Path(__file__).parent / "data" / "real_shapes" / "sc-malice-traits-and-costs.json")
    (row,) = [r for r in app.rows["malice_features"].rows if r.item.name == "Borrowed Tricks"]
    before = row.item
    assert before.cost is None and before.effects[0].name == "Cost"  # "3-7 Malice" kept as its paragraph
    row.fields["name"].value = "Stolen Tricks"
    assert row.note.value == ""
    assert app.monster.malice_features[-1] == before.model_copy(update={"name": "Stolen Tricks"})
