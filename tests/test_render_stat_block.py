"""The book-style stat block (HTML, Markdown) and the "how was this computed" view."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
import rules_reference as ref
from hypothesis import given
from hypothesis import strategies as st

from workbench import InvalidInput, Trait, build_monster, explain
from workbench.render.stat_block import (
    CHARACTERISTICS,
    explain_html,
    explain_markdown,
    stat_block_html,
    stat_block_markdown,
)

EVIL = "<img src=x onerror=alert(1)>"


def number(html: str, css: str) -> int:
    """The number inside the element with class `css` (the hook a browser test reads)."""
    match = re.search(rf'class="{css}">\+?(-?\d+)<', html)
    assert match, f"no element with class {css}"
    return int(match.group(1))


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)


def tags(html: str) -> set[str]:
    parser = _Tags()
    parser.feed(html)
    return set(parser.tags)


# ---------------------------------------------------------------- numbers on the block


def test_level_5_elite_brute_block_by_hand():
    # Hand computation from "Adjusting Monster Levels":
    # EV = ((2 x 5) + 4) x 2 = 28; Stamina = ((10 x 5) + 30) x 2 = 160;
    # damage modifier = brute +1, elite +1 ("for a total damage modifier of +2");
    # highest characteristic = 1 + echelon 2 = 3 ("a level 5 goblin (2nd echelon) has a +3");
    # tier 1 = ceil(11 x 0.6 = 6.6) = 7, + 3 for a strike = 10; free strike (no characteristic) = 7;
    # tier 2 = ceil(11 x 1.1 = 12.1) = 13 + 3 = 16; tier 3 = ceil(11 x 1.4 = 15.4) = 16 + 3 = 19;
    # potencies "M < 1 at tier 1, M < 2 at tier 2, and M < 3 at tier 3".
    html = stat_block_html(build_monster(5, "elite", "brute"))
    assert number(html, "wb-ev") == 28
    assert number(html, "wb-stamina") == 160
    assert number(html, "wb-free-strike") == 7
    assert [number(html, f"wb-damage-tier{t}") for t in (1, 2, 3)] == [10, 16, 19]
    assert [number(html, f"wb-potency-tier{t}") for t in (1, 2, 3)] == [1, 2, 3]
    assert number(html, "wb-highest-value") == 3
    assert 'data-ev="28"' in html and 'data-damage="10/16/19"' in html


@given(
    level=st.integers(1, 20),
    pair=st.sampled_from(ref.combinations()),
    strike=st.booleans(),
)
def test_block_numbers_match_independent_reading(level, pair, strike):
    organization, role = pair
    html = stat_block_html(build_monster(level, organization, role, strike=strike))
    assert number(html, "wb-ev") == ref.ev(level, organization)
    assert number(html, "wb-stamina") == ref.stamina(level, organization, role)
    assert number(html, "wb-free-strike") == ref.free_strike(level, organization, role)
    for tier in (1, 2, 3):
        assert number(html, f"wb-damage-tier{tier}") == ref.damage(
            level, organization, role, tier, strike=strike
        )
        assert number(html, f"wb-potency-tier{tier}") == ref.potency(level, organization, tier)


def test_not_a_strike_drops_the_characteristic():
    # Level 1 platoon artillery: (4 + 1 + 1) x 0.6 = 3.6 -> 4; a strike adds +2 (1 + echelon 1) -> 6.
    strike = stat_block_html(build_monster(1, "platoon", "artillery", strike=True))
    plain = stat_block_html(build_monster(1, "platoon", "artillery", strike=False))
    assert number(strike, "wb-damage-tier1") == 6
    assert number(plain, "wb-damage-tier1") == 4
    assert '<div class="wb-ability-meta">Strike · Main action' in strike
    assert '<div class="wb-ability-meta">- · Main action' in plain


@pytest.mark.parametrize(
    "characteristic, letter",
    [
        ("might", "M"),  # "potency language of M < 1"
        ("Agility", "A"),  # any case accepted
        ("presence", "P"),
    ],
)
def test_potency_uses_the_highest_characteristic_letter(characteristic, letter):
    monster = build_monster(5, "platoon", "hexer", characteristic=characteristic)
    html = stat_block_html(monster)
    assert f'{letter} &lt; <span class="wb-potency-tier1">1</span>' in html
    assert f'class="wb-highest" data-characteristic="{characteristic.lower()}"' in html
    assert f"{letter} &lt; 1" in stat_block_markdown(monster)  # "<" escaped, so Markdown prints it


def test_unknown_characteristic_is_refused():
    with pytest.raises(InvalidInput) as caught:
        build_monster(1, "platoon", "brute", characteristic="luck")
    assert caught.value.code == "invalid-characteristic"
    assert "might" in caught.value.accepts


def test_minion_ev_is_marked_as_four_minions():
    html = stat_block_html(build_monster(1, "minion", "brute"))
    assert "(four minions)" in html
    assert "(four minions)" in stat_block_markdown(build_monster(1, "minion", "brute"))


def test_free_strike_distances_and_keywords_come_from_the_rules():
    # "A melee free strike with a distance of melee 1 ... A ranged free strike with a distance of 5"
    # "A creature's free strike has the Strike keyword, as well as the Magic, Psionic, or Weapon keywords"
    html = stat_block_html(build_monster(3, "platoon", "harrier"))
    rules = re.search(r'<div class="wb-free-strike-rules">(.*?)</div>', html).group(1)
    assert "melee 1" in rules and "ranged 5" in rules
    for keyword in ("Strike", "Magic", "Psionic", "Weapon"):
        assert keyword in rules


# ---------------------------------------------------------------- text and escaping


def decorated(**update):
    base = build_monster(2, "leader")
    fields = {
        "name": EVIL,
        "keywords": (EVIL, "Goblin"),
        "size": "<b>1M</b>",
        "speed": '5" onmouseover="x',
        "stability": "<script>alert(2)</script>",
        "signature_name": EVIL,
        "signature_text": "<iframe>",
        "traits": (Trait(name=EVIL, text="<svg onload=alert(3)>"),),
        "malice_features": (Trait(name="Spite <i>", text="<u>x</u>", cost=3),),
        "villain_actions": (Trait(name="Opener", text="<style>*{}</style>"),),
    }
    fields.update(update)
    return base.model_copy(update=fields)


def test_user_text_is_escaped_in_html():
    html = stat_block_html(decorated(), style=False)
    # Only the renderer's own tags exist: nothing a user typed became an element.
    assert tags(html) <= {"div", "span", "table", "tr", "td", "th", "h4", "b"}
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<img" not in html and "<script" not in html and "<svg" not in html
    assert 'onmouseover="x' not in html  # a quote cannot break out of an attribute or text


def test_a_notebook_displays_a_monster_as_its_escaped_block():
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.render.notebook import register_formatters

    shell = InteractiveShell.instance()
    try:
        monster = decorated()
        before, _ = shell.display_formatter.format(monster)
        register_formatters(shell)
        shown, _ = shell.display_formatter.format(monster)
    finally:
        InteractiveShell.clear_instance()
    assert "text/html" not in before  # the model itself knows nothing of display
    assert shown["text/html"] == stat_block_html(monster)
    assert shown["text/markdown"] == stat_block_markdown(monster)
    assert "<img" not in shown["text/html"]


def test_user_text_is_escaped_in_markdown():
    md = stat_block_markdown(decorated())
    assert "<img" not in md and "<svg" not in md and "<script" not in md
    assert "&lt;img src=x onerror=alert(1)&gt;" in md


def test_named_sections_render_generically():
    html = stat_block_html(decorated(name="Boss"), style=False)
    for css, heading in (
        ("wb-traits", "Traits"),
        ("wb-malice-features", "Malice Features"),
        ("wb-villain-actions", "Villain Actions"),
    ):
        assert f'<div class="{css}"><h4>{heading}</h4>' in html
    assert '<span class="wb-cost">(3 Malice)</span>' in html
    # an empty section leaves itself out
    plain = stat_block_html(build_monster(2, "platoon", "brute"), style=False)
    assert "wb-traits" not in plain and "wb-villain-actions" not in plain


def test_markdown_lists_sections_and_numbers():
    md = stat_block_markdown(decorated(name="Boss", keywords=("Goblin",)))
    # Level 2 leader: EV = ((2 x 2) + 4) x 2 = 16
    assert "**Level 2 Leader** · EV 16" in md
    assert "#### Traits" in md and "#### Malice Features" in md and "#### Villain Actions" in md
    assert "(3 Malice)" in md


def test_to_json_round_trips_every_field():
    import json

    monster = decorated()
    data = json.loads(monster.to_json())
    assert data["name"] == EVIL  # JSON keeps the text as typed; escaping is for HTML
    assert data["ev"] == monster.ev and data["damage"]["tier1"] == monster.damage.tier1


# ---------------------------------------------------------------- how was this computed


def test_explain_html_shows_each_step_with_working_section_and_reading():
    monster = build_monster(5, "elite", "brute")
    html = explain_html(monster)
    steps = explain(monster)
    assert html.count("<tr data-quantity=") == len(steps)
    # "EV = ((2 x Level) + 4) x Organization Modifier" with this monster's numbers plugged in
    assert "⌈(2 × 5 + 4) × 2⌉ = <b>28</b>" in html
    assert "“Encounter Value and Stamina”" in html
    # the elite's stacked damage modifier is a reading, shown where it is used
    assert "brute&#39;s + 1 and elite&#39;s + 1, stacked" in html
    assert 'data-quantity="ev"' in html


def test_explain_markdown_has_one_row_per_step():
    monster = build_monster(1, "solo")
    md = explain_markdown(monster)
    assert len([line for line in md.splitlines() if line.startswith("| ")]) == len(explain(monster)) + 1
    # Level 1 solo: EV = ((2 x 1) + 4) x 6 = 36
    assert "⌈(2 × 1 + 4) × 6⌉ = **36**" in md


def test_every_characteristic_is_a_column():
    html = stat_block_html(build_monster(1, "platoon", "brute"))
    for name in CHARACTERISTICS:
        assert f'data-characteristic="{name}"' in html


# ---------------------------------------------------------------- rule modules from any folder

OWN_MODULE = '''format = 1
id = "tide-bound"
title = "Tide-Bound"
name = "Tide-Bound ({sea})"
kind = "trait"
text = "Weakens when far from the {sea}. <b>Not markup</b>"

[[parameters]]
name = "sea"
label = "Sea"
type = "text"
required = true
'''


def test_modules_from_a_directors_folder_are_filled_in(tmp_path):
    from workbench.homebrew.attach import attach_rule
    from workbench.homebrew.rule import load_rules

    (tmp_path / "tide.toml").write_text(OWN_MODULE, encoding="utf-8")
    mine = load_rules(tmp_path)
    kelpie = attach_rule(build_monster(3, "elite", "harrier"), mine["tide-bound"], {"sea": "Loch"})
    # without the folder's modules the block names the module and says it is not loaded ...
    assert "rule module not loaded" in stat_block_html(kelpie)
    assert "rule module not loaded" in stat_block_markdown(kelpie)
    # ... with them it is filled in (and its text escaped like any other user text)
    block = stat_block_html(kelpie, modules=mine)
    assert "Tide-Bound (Loch)" in block and "Weakens when far from the Loch." in block
    assert "rule module not loaded" not in block and "<b>Not markup" not in block
    markdown = stat_block_markdown(kelpie, modules=mine)
    assert "**Tide-Bound (Loch)**" in markdown and "rule module not loaded" not in markdown
