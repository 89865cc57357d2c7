"""HTML is built as Markup (workbench.render.escape, workbench.markup): no module escapes by hand, no module
writes an inline style the stylesheet should hold, and hostile text a user typed shows escaped on every
renderer and page that shows it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from package_source import nodes

import workbench as wb
from workbench.encounter.adventure import Adventure, plan
from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.fight.fight import Fight
from workbench.formats.bestiary import sample_bestiary
from workbench.model import Trait
from workbench.render.adventure import adventure_html
from workbench.render.bestiary import published_stat_block_html
from workbench.render.calibration import closest_published_html
from workbench.render.encounter import creatures_html, summary_html
from workbench.render.escape import Markup, escape, join, stylesheet, stylesheet_text, tag
from workbench.render.fight import acting_html, turn_strip_html, unit_html
from workbench.render.message import error_html, ok_html
from workbench.render.stat_block import stat_block_html
from workbench.render.table_copy import table_copy_html

PACKAGE = Path(wb.__file__).parent
# the one module that imports markupsafe, and Markdown's own escaping (Markdown is not HTML)
HOUSE = {PACKAGE / "markup.py"}
MARKDOWN = {PACKAGE / "render" / "markdown_text.py"}
# style attributes that carry data, not looks: a Stamina bar's width, a chart's size
DATA_STYLES = {PACKAGE / "render" / "fight.py": "width:{}%", PACKAGE / "server" / "page_renderer.py": "height:"}

HOSTILES = ("<script>alert(1)</script>", '" onmouseover="alert(2)', "Tom &amp; Jerry's")


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _hand_escapes(path: Path) -> list[str]:
    found = []
    for node in nodes(path):
        if isinstance(node, ast.ImportFrom) and node.module in ("html", "markupsafe"):
            names = {a.name for a in node.names}
            if node.module == "markupsafe" or "escape" in names:
                found.append(f"from {node.module} import {', '.join(sorted(names))}")
        elif isinstance(node, ast.Import) and any(a.name == "markupsafe" for a in node.names):
            found.append("import markupsafe")
        elif (isinstance(node, ast.Attribute) and node.attr == "escape" and isinstance(node.value, ast.Name)
              and node.value.id == "html"):
            found.append("html.escape")
        elif isinstance(node, ast.Name) and node.id == "escape_html":
            found.append("escape_html")
    return found


def test_no_module_escapes_html_by_hand():
    found = {str(p.relative_to(PACKAGE)): hits for p in _modules() if p not in HOUSE | MARKDOWN
             for hits in [_hand_escapes(p)] if hits}
    assert found == {}


def test_the_guard_sees_a_hand_escape(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("import html\n\ndef f(x):\n    return f'<b>{html.escape(x)}</b>'\n")
    assert _hand_escapes(planted) == ["html.escape"]


def _inline_styles(path: Path) -> list[str]:
    """Each string literal of `path` that writes a style attribute into HTML."""
    styles = []
    for node in nodes(path):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            styles += re.findall(r"""\bstyle=["'][^"']*""", node.value)
    return styles


def test_looks_live_in_the_one_stylesheet_not_in_style_attributes():
    found = {}
    for path in _modules():
        styles = [s for s in _inline_styles(path) if not (path in DATA_STYLES and DATA_STYLES[path] in s)]
        if styles:
            found[str(path.relative_to(PACKAGE))] = styles
    assert found == {}
    assert "<style" not in stylesheet_text() and ".wb-stat-block{" in stylesheet_text()
    assert str(stylesheet()).startswith("<style>") and "&gt;" not in str(stylesheet())  # CSS is not escaped


def test_markup_escapes_plain_text_and_keeps_markup():
    assert Markup("<td>{}</td>").format("<b>") == "<td>&lt;b&gt;</td>"
    assert join(["<i>", Markup("<b>")], " ") == "&lt;i&gt; <b>"
    assert tag("span", '"x"', class_="wb-x", data_ev=3, hidden=True, title=None) == (
        '<span class="wb-x" data-ev="3" hidden>&#34;x&#34;</span>')
    assert tag("a", "", href='" onclick="x') == '<a href="&#34; onclick=&#34;x"></a>'


def _shown_escaped(page: str, text: str) -> None:
    assert text not in page or text == str(escape(text))
    assert str(escape(text)) in page


@pytest.fixture(params=HOSTILES)
def hostile(request) -> str:
    return request.param


def _monster(hostile: str) -> wb.Monster:
    monster = wb.build_monster(3, "platoon", "brute")
    return monster.model_copy(update={"name": f"Boss {hostile}", "keywords": (hostile,),
                                      "traits": (Trait(name=f"Trait {hostile}", text=f"Does {hostile}"),)})


def test_a_monster_s_own_words_show_escaped_on_its_blocks(hostile):
    monster = _monster(hostile)
    for page in (stat_block_html(monster), table_copy_html(monster)):
        for text in (f"Boss {hostile}", f"Trait {hostile}", f"Does {hostile}"):
            _shown_escaped(page, text)


def test_an_encounter_s_names_show_escaped_in_its_report_and_the_packet(hostile):
    party = make_party(heroes=4, level=3)
    encounter = Encounter(name=f"Gate {hostile}", party=party).adding(creature_from_monster(_monster(hostile), 2))
    _shown_escaped(creatures_html(encounter), f"Boss {hostile}")
    _shown_escaped(summary_html(report(encounter), encounter.name), f"Gate {hostile}")
    packet = adventure_html(plan(Adventure(name=f"Day {hostile}", party=party, encounters=(encounter,))),
                            monsters=[_monster(hostile)])
    for text in (f"Day {hostile}", f"Gate {hostile}", f"Boss {hostile}"):
        _shown_escaped(packet, text)


def test_published_names_show_escaped_in_the_bestiary_and_the_calibration(hostile):
    published = sample_bestiary().monsters[0].model_copy(update={"name": f"Ogre {hostile}"})
    _shown_escaped(published_stat_block_html(published, {"features": [{"name": f"Club {hostile}"}]}),
                   f"Club {hostile}")
    _shown_escaped(closest_published_html(_monster(hostile), [published], count=1), f"Ogre {hostile}")


def test_a_fight_board_shows_each_name_escaped(hostile):
    monster = _monster(hostile)
    fight = Fight(Encounter(party=make_party(heroes=4, level=3)).adding(creature_from_monster(monster, 1)),
                  [monster])
    board = turn_strip_html(fight) + join(unit_html(u) for u in fight.state.units) + acting_html(fight)
    _shown_escaped(board, f"Boss {hostile}")


def test_messages_show_what_was_typed_escaped(hostile):
    for page in (error_html(hostile, items=[hostile]), ok_html(hostile)):
        _shown_escaped(page, hostile)
