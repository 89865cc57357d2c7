"""The workbench page without a browser: each tool built when first opened and kept after, every tool a view of
one shared workbench (the builder's monster added to the encounter, the encounter fought, the fight's Victories
the party's at once), the bar's tool in view, and a tool that cannot be built saying why."""

from __future__ import annotations

import math
from fractions import Fraction

import ipywidgets as widgets
import pytest
from widget_tree import inner

from workbench.apps.pages import workbench_page
from workbench.apps.shared import Workbench
from workbench.apps.shell import Tool, WorkbenchShell, tools
from workbench.apps.solos import SolosApp
from workbench.apps.tools import IN_BUILDER
from workbench.encounter.encounter import creature_from_monster
from workbench.errors import InvalidInput, WorkbenchError
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.io.home import user_folder
from workbench.monster.formulas import build_monster
from workbench.monster.library import save_monster
from workbench.workspace.state import load_workspace


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))


def shown(shell: WorkbenchShell) -> list[str]:
    return [key for key, view in shell.views.items() if view.layout.display != "none"]


def test_a_tool_is_built_when_first_opened_and_kept_hidden_when_left():
    shell = workbench_page()
    assert list(shell.views) == ["monster"] and shell.bar.tool == "monster"
    builder = inner(shell.views["monster"], "wb-builder")
    builder.controls["level"].value = 4
    encounter = shell.show("encounter")
    assert list(shell.views) == ["monster", "encounter"] and shown(shell) == ["encounter"]
    assert shell.bar.tool == "encounter"
    assert shell.show("monster") is shell.views["monster"] and shown(shell) == ["monster"]
    assert inner(shell.views["monster"], "wb-builder") is builder and builder.controls["level"].value == 4
    assert shell.show("encounter") is encounter  # the same widgets, not rebuilt


def test_the_bar_names_every_tool_in_a_directors_order_and_the_browser_picks_one():
    shell = workbench_page()
    assert [key for key, _title in shell.bar.tools] == [
        "monster", "solos", "encounter", "adventure", "fight", "homebrew", "calibration", "lessons"]
    assert shell.bar.address  # the page's address follows the tool in view
    shell.bar.tool = "calibration"  # as the browser sets it (a click on the bar, Back, a link)
    assert shown(shell) == ["calibration"] and "wb-tool-view-calibration" in shell.views["calibration"]._dom_classes
    shell.bar.tool = "no-such-tool"  # an address typed by hand
    assert shell.bar.tool == "calibration" and shown(shell) == ["calibration"]
    with pytest.raises(InvalidInput, match="tool"):
        shell.show("no-such-tool")


def test_the_builders_monster_is_added_fought_and_its_victories_are_the_partys_at_once():
    shell = workbench_page()
    builder = inner(shell.views["monster"], "wb-builder")
    builder.controls["name"].value = "Rat Pack"
    builder.controls["level"].value = 2
    assert shell.shared.monster is builder.monster and builder.monster.name == "Rat Pack"
    editor = inner(shell.show("encounter"), "wb-encounter-app")
    label, offered = editor.controls["monster"].options[0]
    assert label == "Rat Pack" + IN_BUILDER and offered is builder.monster
    assert editor.controls["monster"].value is builder.monster
    editor.controls["count"].value = 3
    editor.controls["add_monster"].click()
    kept = load_workspace()
    assert [(c.name, c.level, c.count) for c in kept.encounter.creatures] == [("Rat Pack", 2, 3)]
    assert shell.shared.workspace == kept

    fight = inner(shell.show("fight"), "wb-fight")
    runner = fight.runner
    c = runner.controls
    assert "3 × Rat Pack" in fight.children[0].value
    c["buttons"]["round"].click()
    c["end_how"].value = "The foes surrender"
    c["end_victories"].value = 2
    c["buttons"]["end"].click()
    assert runner.fight.ended
    earned = runner.fight.result().victories_after
    assert earned == 2
    assert shell.shared.workspace.encounter.party.victories == earned == load_workspace().encounter.party.victories
    assert editor.controls["victories"].value == str(earned)  # on the encounter view, no reload
    assert editor.state().party.victories == earned

    c["buttons"]["undo"].click()  # the fight goes on: its Victories are taken back
    assert not runner.fight.ended and shell.shared.workspace.encounter.party.victories == 0
    assert editor.controls["victories"].value == "0"
    c["buttons"]["end"].click()
    assert shell.shared.workspace.encounter.party.victories == earned
    assert inner(shell.show("fight"), "wb-fight") is fight  # its own award does not replace the fight
    shell.show("encounter")
    editor.controls["heroes"].value = 5  # a change on the encounter view is kept after the Victories came in
    assert load_workspace().encounter.party.victories == earned and len(load_workspace().encounter.party.members) == 5


def test_the_fight_is_built_again_when_the_encounter_it_runs_changed():
    shell = workbench_page()
    editor = inner(shell.show("encounter"), "wb-encounter-app")
    editor.controls["add_monster"].click()  # the builder's monster
    fight = inner(shell.show("fight"), "wb-fight")
    assert inner(shell.show("fight"), "wb-fight") is fight
    shell.show("encounter")
    editor.controls["add_monster"].click()  # one more: another fight
    again = inner(shell.show("fight"), "wb-fight")
    assert again is not fight and [u for u in again.runner.fight.units if u.kind != "hero"]
    assert list(shell.views).count("fight") == 1 and len(shell.stage.children) == 3


def test_an_objective_chosen_in_its_tab_opened_later_is_kept_in_the_workspace():
    shell = workbench_page()
    editor = inner(shell.show("encounter"), "wb-encounter-app")
    editor.tabs.fold.selected_index = 2  # the Objective tab, made as the Director opens it
    editor.controls["objective"].value = "defeat_a_specific_foe"
    assert [o.key for o in load_workspace().encounter.objectives] == ["defeat_a_specific_foe"]
    assert [o.key for o in shell.shared.workspace.encounter.objectives] == ["defeat_a_specific_foe"]


def test_a_monster_file_another_tool_opens_is_opened_in_the_builder(tmp_path):
    shell = workbench_page()
    ogre = build_monster(4, "elite", "brute").model_copy(update={"name": "Bridge Ogre"})
    shell.shared.opening = save_monster(ogre, "Bridge Ogre", tmp_path)
    builder = inner(shell.views["monster"], "wb-builder")
    assert builder.monster.name == "Bridge Ogre" and builder.monster.level == 4
    assert shell.shared.opening is None and shell.shared.monster is builder.monster


def test_another_workspace_builds_the_tools_again_from_it(tmp_path):
    shell = workbench_page()
    shell.show("encounter")
    first = shell.shared
    (tmp_path / "other").mkdir()
    bar = inner(shell, "wb-workspace-bar")
    folder = inner(bar, "wb-workspace-folder")
    folder.value = str(tmp_path / "other")
    inner(bar, "wb-workspace-open").click()
    assert user_folder() == tmp_path / "other"
    assert shell.shared is not first and list(shell.views) == ["encounter"] and shown(shell) == ["encounter"]
    assert "every tool now works in it" in inner(shell, "wb-workspace-bar").children[-1].value


def test_a_fight_from_the_adventure_is_the_encounter_and_the_fight_in_view(tmp_path):
    from workbench.encounter.adventure import Adventure, save_adventure
    from workbench.encounter.encounter import Encounter, creature_from_monster
    from workbench.encounter.party import make_party
    from workbench.workspace.folder import adventures_folder

    shell = workbench_page()
    editor = inner(shell.show("encounter"), "wb-encounter-app")
    ambush = Encounter(party=make_party(heroes=4, level=2), name="Ambush").adding(
        creature_from_monster(build_monster(2, "platoon", "brute").model_copy(update={"name": "Raider"}), 2))
    day = Adventure(party=make_party(heroes=4, level=2), name="Day", encounters=(ambush,))
    path = save_adventure(day, adventures_folder() / "day.json")
    planner = inner(shell.show("adventure"), "wb-adventure")
    planner.controls["refresh"].click()
    planner.controls["adventures"].value = next(v for _l, v in planner.controls["adventures"].options if str(v) == str(path))
    planner.controls["open"].click()
    planner._fight(0)
    assert shell.current == "fight" and "2 × Raider" in inner(shell.views["fight"], "wb-fight").children[0].value
    assert shell.shared.workspace.encounter.name == "Ambush" and shell.shared.workspace.adventure is not None
    again = inner(shell.show("encounter"), "wb-encounter-app")
    assert again is not editor and [c.name for c in again.state().creatures] == ["Raider"]


def test_a_share_codes_link_opens_in_the_tool_of_its_kind():
    from workbench.formats.share_code import share_code

    shell = workbench_page()
    ogre = build_monster(4, "elite", "brute").model_copy(update={"name": "Bridge Ogre"})
    shell.incoming.value = share_code(ogre)  # as the page's script hands it over
    assert shell.current == "monster" and shell.incoming.value == ""
    assert inner(shell.views["monster"], "wb-builder").monster.name == "Bridge Ogre"
    editor = inner(shell.show("encounter"), "wb-encounter-app")
    shell.show("solos")
    panel = shell.open_code(share_code(editor.state().adding(creature_from_monster(ogre, 2))))
    assert shell.current == "encounter" and "Opened" in panel.note.value
    assert [c.name for c in editor.state().creatures] == ["Bridge Ogre"]
    shell.incoming.value = "DSW1X.not-a-code"
    assert "code" in shell.note.value.lower() and shell.current == "encounter"


def test_a_tool_that_cannot_be_built_says_why_in_its_place():
    def broken(_shared: Workbench) -> widgets.Widget:
        raise WorkbenchError("the ruleset is missing")

    shell = WorkbenchShell(Workbench.opened(), (*tools()[:1], Tool("broken", "Broken", "never opens", broken)))
    view = shell.show("broken")
    assert "Broken could not be opened: the ruleset is missing" in view.children[1].value
    assert shown(shell) == ["broken"]


def test_the_lessons_tool_links_each_lesson_with_its_title_escaped():
    shell = WorkbenchShell(Workbench.opened(), tools((("01_x.ipynb", "Scores <b>and</b> you", "Why."),)),
                           first="lessons")
    text = shell.views["lessons"].children[1].children[0].value
    assert 'href="01_x.ipynb"' in text and "Scores &lt;b&gt;and&lt;/b&gt; you" in text
    empty = WorkbenchShell(Workbench.opened(), tools(), first="lessons").views["lessons"]
    assert "make lab" in empty.children[1].children[0].value


def test_open_in_the_builder_brings_the_builder_into_view_with_that_stat_block():
    shell = workbench_page(first="encounter")
    assert list(shell.views) == ["encounter"]
    browser = inner(shell.views["encounter"], "wb-bestiary-app")
    _label, index = next((label, i) for label, i in browser.rows.options
                         if browser.bestiary.monsters[i].name == "Bugbear Channeler")
    browser.rows.value = index
    browser.open_builder.click()
    assert "Bugbear Channeler is open in the builder" in browser.message.value
    assert shown(shell) == ["monster"] and shell.bar.tool == "monster"
    builder = inner(shell.views["monster"], "wb-builder")
    assert builder.controls["name"].value == "Bugbear Channeler" and shell.shared.opening is None
    assert shell.shared.monster is builder.monster and builder.monster.organization == "elite"
    shell.show("encounter")  # and again, with the builder built: the same builder opens the next one
    browser.rows.value = next(i for label, i in browser.rows.options if browser.bestiary.monsters[i].name != "Bugbear Channeler")
    browser.open_builder.click()
    assert shown(shell) == ["monster"] and inner(shell.views["monster"], "wb-builder") is builder
    assert builder.controls["name"].value not in ("", "Bugbear Channeler")


def test_an_encounter_tool_dropped_no_longer_writes_the_workspace(tmp_path):
    shell = workbench_page()
    old = inner(shell.show("encounter"), "wb-encounter-app")
    (tmp_path / "other").mkdir()
    bar = inner(shell, "wb-workspace-bar")
    inner(bar, "wb-workspace-folder").value = str(tmp_path / "other")
    inner(bar, "wb-workspace-open").click()
    new = inner(shell.views["encounter"], "wb-encounter-app")
    assert new is not old
    new.controls["heroes"].value = 6
    kept = load_workspace()
    old.controls["heroes"].value = 2  # a change the browser can no longer make: nothing is written
    old.controls["add_monster"].click()
    assert load_workspace() == kept and len(shell.shared.workspace.encounter.party.members) == 6


def test_export_brings_the_builders_export_tab_into_view():
    shell = workbench_page()
    sent = []
    shell.revealer.send = sent.append  # what the page's browser side is asked to do
    builder = inner(shell.views["monster"], "wb-builder")
    builder.export_top.click()
    assert builder.tabs.titles[builder.tabs.selected_index] == "Export"
    assert sent == [{"reveal": ".wb-builder-tabs"}] and shell.shared.revealed == ""
    assert "wb-builder-tabs" in builder.tabs._dom_classes


def test_the_solos_tool_offers_the_encounters_leaders_and_elites_and_the_builders_as_they_change():
    sample = sample_bestiary()
    roughneck, runner, warrior, monarch = (whole_stat_block(sample, sample.named(name)) for name in (
        "Bugbear Roughneck", "Goblin Runner", "Goblin Warrior", "Goblin Monarch"))
    shell = workbench_page()
    builder = inner(shell.views["monster"], "wb-builder")
    builder.controls["organization"].value = "minion"
    solos = inner(shell.show("solos"), SolosApp)

    def labels() -> list[str]:
        return [label for label, _ in solos.picker.options]

    assert labels() == ["Built from the sliders"]  # a minion in the builder, nobody in the encounter
    shared = shell.shared
    encounter = shared.workspace.encounter.adding(roughneck, runner, warrior)
    assert shared.keep_encounter(shared.workspace.model_copy(update={"encounter": encounter})) == ""
    # the leader and elite of the encounter, not its minion nor its horde, without building the tool again
    assert labels() == ["Built from the sliders", "Bugbear Roughneck (in the encounter)"]
    assert inner(shell.show("solos"), SolosApp) is solos
    solos.picker.value = solos.picker.options[1][1]
    printed = sample.named("Bugbear Roughneck").stamina  # 109 as printed; the formulas give 100
    # "Multiply their Stamina by 2.5", rounded up
    assert solos.comparison.instant.stamina == math.ceil(Fraction(printed) * Fraction(5, 2)) == 273
    builder.controls["name"].value = "Bone Crusher"
    builder.controls["organization"].value = "elite"
    encounter = encounter.adding(monarch)
    assert shared.keep_encounter(shared.workspace.model_copy(update={"encounter": encounter})) == ""
    assert labels() == ["Built from the sliders", "Bugbear Roughneck (in the encounter)",
                        "Goblin Monarch (in the encounter)", "Bone Crusher (in the builder)"]
    assert solos.picked == roughneck  # still the one picked
    solos.picker.value = solos.picker.options[3][1]
    assert solos.comparison.source is shared.monster and "Bone Crusher (in the builder)" in solos.shown_monster.value
