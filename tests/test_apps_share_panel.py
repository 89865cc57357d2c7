"""The Share panel on the builder, the encounter editor and the adventure planner, without a browser: Share shows
the code of what the tool has, a pasted code opens in its own tool only, a refused one changes nothing, and a
code arriving from a link's fragment opens as a pasted one."""

from __future__ import annotations

import html
import re

import pytest
from widget_tree import inner

import workbench as wb
from workbench.apps import pages
from workbench.apps.adventure import adventure_app
from workbench.apps.builder import monster_builder
from workbench.apps.encounter import encounter_app
from workbench.apps.share_panel import SharePanel
from workbench.encounter.encounter import creature_from_monster
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.reader import import_monster
from workbench.formats.share_code import read_code
from workbench.workspace.state import load_workspace

MONARCH = SAMPLE_DIR / "Goblins" / "Statblocks" / "Goblin Monarch.json"


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))


def panel(app) -> SharePanel:
    return inner(app, SharePanel)


def shown_code(share: SharePanel) -> str:
    """The code in the panel's read-only box, as the page shows it."""
    found = re.search(r'<textarea class="wb-share-code"[^>]*>([^<]*)</textarea>', share.shown.value)
    assert found is not None, share.shown.value
    return html.unescape(found.group(1))


def note(share: SharePanel) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", share.note.value))


def encounter() -> wb.Encounter:
    boss = wb.build_monster(2, "leader").model_copy(update={"name": "Goblin boss"})
    found = wb.Encounter(name="Ambush", party=wb.make_party(heroes=4, level=2), aim="hard")
    found = found.adding(creature_from_monster(boss)).adding("8 x level 2 minion harrier: runners")
    return found.model_copy(update={"objectives": (wb.choose_objective("hold_them_off"),)})


def test_a_built_monster_is_shared_and_opens_in_another_builder_with_its_choices(tmp_path):
    first = monster_builder(folder=tmp_path / "one")
    first.controls["level"].value = 4
    first.controls["organization"].value = "elite"
    first.controls["name"].value = "Hag"
    first.controls["characteristic"].value = "reason"
    first.controls["strike"].value = False
    panel(first).share_button.click()
    code = shown_code(panel(first))
    assert f'href="workbench.ipynb#tool=monster&amp;code={code}"' in panel(first).shown.value
    second = monster_builder(folder=tmp_path / "two")
    panel(second).paste.value = f"from the chat:\n{code[:60]}\n{code[60:]}"
    panel(second).open_button.click()
    assert second.monster == first.monster
    assert (second.controls["characteristic"].value, second.controls["strike"].value) == ("reason", False)
    assert "Opened Hag" in note(panel(second)) and panel(second).paste.value == ""


def test_a_published_monster_opens_as_printed(tmp_path):
    monarch = import_monster(MONARCH)
    builder = monster_builder(folder=tmp_path)
    panel(builder).paste.value = wb.share_code(monarch)
    panel(builder).open_button.click()
    assert builder.monster == monarch and builder.printed is not None


def test_an_encounter_is_shared_and_opens_in_another_editor():
    first = encounter_app(encounter=encounter())
    panel(first).share_button.click()
    code = shown_code(panel(first))
    assert read_code(code).value == first.state()
    second = encounter_app()
    panel(second).paste.value = code
    panel(second).open_button.click()
    assert second.state() == first.state()
    assert second.controls["heroes"].value == 4 and second.controls["difficulty"].value == "hard"
    assert "Ambush" in second.controls["summary"].value or "Ambush" in note(panel(second))


def test_an_adventure_is_shared_and_opens_in_another_planner(tmp_path):
    day = wb.Adventure(name="The keep", party=encounter().party,
                       encounters=(encounter(), encounter().model_copy(update={"name": "Hall"})), respites=(1,))
    first = adventure_app(adventure=day, folder=tmp_path, adventures=tmp_path)
    panel(first).share_button.click()
    second = adventure_app(folder=tmp_path, adventures=tmp_path)
    panel(second).paste.value = shown_code(panel(first))
    panel(second).open_button.click()
    assert second.adventure == day and second.controls["name"].value == "The keep"
    assert len(second.rows) == 2


def test_nothing_to_share_yet_is_said():
    share = panel(adventure_app())
    share.share_button.click()
    assert "Nothing to share yet" in note(share) and share.shown.value == ""


def test_a_code_of_another_kind_names_its_tool_and_links_there(tmp_path):
    builder = monster_builder(folder=tmp_path)
    before = builder.monster
    code = wb.share_code(encounter())
    panel(builder).paste.value = code
    panel(builder).open_button.click()
    assert note(panel(builder)).startswith(
        "This is an encounter code; the monster builder opens monster codes. Open it in the encounter tool")
    assert f'href="workbench.ipynb#tool=encounter&amp;code={code}"' in panel(builder).note.value
    assert builder.monster == before


def test_a_refused_code_changes_nothing():
    editor = encounter_app(encounter=encounter())
    code = wb.share_code(wb.Encounter(party=wb.make_party(heroes=3, level=1)).adding("level 1 platoon brute"))
    panel(editor).paste.value = code[:-5]
    panel(editor).open_button.click()
    assert "cut short" in note(panel(editor)) and editor.state() == encounter()
    assert panel(editor).paste.value == code[:-5]  # kept, to be mended


def test_a_code_from_a_links_fragment_opens_and_the_hidden_box_is_emptied():
    editor = encounter_app()
    share = panel(editor)
    assert "wb-share-incoming" in share.incoming._dom_classes and share.incoming.layout.display == "none"
    share.incoming.value = wb.share_code(encounter())
    assert editor.state() == encounter() and share.incoming.value == ""


def test_an_encounter_opened_from_a_code_on_the_page_is_the_one_the_fight_page_runs():
    page = pages.encounter_page()
    share = panel(page)
    share.paste.value = wb.share_code(encounter())
    share.open_button.click()
    assert load_workspace().encounter == encounter()
