"""Solo and leader sections of the stat block: villain action slots, solo traits, Malice features, escaping."""

from __future__ import annotations

import re

import pytest

import workbench as wb
from workbench.model import Trait
from workbench.monster.solo import compare_solos, instant_solo
from workbench.monster.villain_action import with_villain_actions
from workbench.render.solo import (
    comparison_html,
    malice_features_html,
    solo_title,
    solo_traits_html,
    villain_actions_html,
)
from workbench.render.stat_block import explain_html, stat_block_html

EVIL = "<img src=x onerror=alert(1)>"
ALLOWED_TAGS = {"div", "span", "table", "tr", "td", "th", "h4", "b"}


def tags(html: str) -> set[str]:
    return set(re.findall(r"<([a-zA-Z0-9]+)", html))


def test_villain_actions_on_leaders_and_solos_only():
    # "The solo and leader creatures ... have special abilities called villain actions."
    for organization in ("leader", "solo"):
        html = villain_actions_html(wb.build_monster(4, organization))
        assert html.startswith('<div class="wb-villain-actions"><h4>Villain Actions</h4>')
        assert [m for m in re.findall(r'data-slot="(\w+)"', html)] == ["opener", "crowd_control", "ultimate"]
        # the rules for using them, on the block
        assert "once per encounter" in html and "one per round" in html
        assert "at the end of any other creature&#39;s turn" in html
    for organization, role in (("elite", "brute"), ("platoon", "hexer"), ("minion", "ambusher")):
        assert villain_actions_html(wb.build_monster(4, organization, role)) == ""


def test_written_villain_action_is_escaped():
    leader = with_villain_actions(wb.build_monster(4, "leader"), crowd_control=(EVIL, "<script>x</script>"))
    html = villain_actions_html(leader)
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "<img" not in html and "<script" not in html
    assert html.count("not written yet") == 2  # opener and ultimate still empty


def test_malice_features_every_monster_with_its_range():
    platoon = wb.build_monster(1, "platoon", "brute")
    html = malice_features_html(platoon)
    # level 1 platoon: highest characteristic 1 + 1 = 2 -> Malicious Strike +2 for 5 Malice, up to +6
    # (5 + 4 more Malice = 9)
    assert 'data-low="2" data-high="6"' in html
    assert "+2 damage for 5 Malice, up to +6 for 9 Malice" in html
    assert "Brutal Effectiveness" in html and "(3 Malice)" in html and "(5+ Malice)" in html
    assert malice_features_html(platoon, basic=False) == ""


def test_own_malice_features_listed_first_and_escaped():
    monster = wb.build_monster(3, "elite", "hexer").model_copy(
        update={"malice_features": (Trait(name=EVIL, text="<u>hex</u>", cost=7),)}
    )
    html = malice_features_html(monster)
    assert html.index("&lt;img") < html.index("Brutal Effectiveness")
    assert "<u>" not in html and '<span class="wb-cost">(7 Malice)</span>' in html


def test_solo_traits_for_a_built_solo():
    html = solo_traits_html(wb.build_monster(6, "solo"))
    assert "Solo Turns" in html and "End Effect" in html
    assert solo_traits_html(wb.build_monster(6, "leader")) == ""
    # an instant solo lists them among its traits already; a solo with its own End Effect keeps it
    own = wb.build_monster(6, "solo").model_copy(update={"traits": (Trait(name="End Effect", text="mine"),)})
    assert "End Effect" not in solo_traits_html(own) and "Solo Turns" in solo_traits_html(own)


@pytest.mark.parametrize(("organization", "role"), [("leader", None), ("elite", "defender")])
def test_instant_solo_stat_block(organization, role):
    monster = wb.build_monster(5, organization, role).model_copy(update={"name": EVIL})
    solo = instant_solo(monster)
    html = stat_block_html(solo, style=False)
    assert tags(html) <= ALLOWED_TAGS
    assert "<img" not in html
    assert ", instant solo" in html
    # level 5 leader: EV 28 × 3 = 84, Stamina (50 + 30) × 2 × 2.5 = 400; level 5 elite defender: the same
    # EV, Stamina (50 + 30) × 2 × 2.5 = 400 (defender +30 like the leader row)
    assert '<span class="wb-ev">84</span>' in html
    assert '<span class="wb-stamina">400</span>' in html
    assert "Solo Turns" in html and "Solo Action" in html and 'data-slot="ultimate"' in html
    assert solo_title(solo).endswith(", instant solo")


def test_instant_solo_explain_view_uses_the_solo_working():
    solo = instant_solo(wb.build_monster(5, "leader"))
    html = explain_html(solo)
    # leader EV ⌈(2 × 5 + 4) × 2⌉ = 28, instant solo × 3 = 84
    assert "⌈28 × 3⌉ = <b>84</b>" in html
    assert "“Instant Solo Creature”" in html


def test_comparison_html():
    comparison = compare_solos(wb.build_monster(5, "elite", "artillery"))
    html = comparison_html(comparison, style=False)
    # Stamina: instant (50 + 10) × 2 × 2.5 = 300; built (50 + 30) × 5 = 400
    row = re.search(r'<tr class="wb-differs" data-quantity="stamina">(.*?)</tr>', html).group(1)
    assert '<td class="wb-instant">300</td>' in row and '<td class="wb-built">400</td>' in row
    assert '<td class="wb-difference">+100</td>' in row
    assert '<tr data-quantity="ev">' in html  # EV agrees: not marked
    assert "What differs, and why" in html


def test_markdown_sections():
    boss = with_villain_actions(instant_solo(wb.build_monster(5, "leader")), ultimate=(EVIL, "*all* fall"))
    md = wb.stat_block_markdown(boss)
    assert "**Level 5 Leader, instant solo**" in md
    assert "#### Malice Features" in md and "- **Solo Action** (5 Malice)" in md
    # level 5 leader: highest characteristic 4 -> +4 for 5 Malice, up to +12 for 5 + 8 = 13 Malice
    assert "+4 damage for 5 Malice, up to +12 for 13 Malice" in md
    assert "#### Villain Actions" in md and "1. Opener: *not written yet.*" in md
    assert "3. Ultimate: **&lt;img src=x onerror=alert(1)&gt;** \\*all\\* fall" in md
    assert "<img" not in md
    built = wb.stat_block_markdown(wb.build_monster(5, "solo"))
    assert "#### Solo Traits" in built and "Solo Turns" in built
    assert "#### Villain Actions" not in wb.stat_block_markdown(wb.build_monster(5, "platoon", "brute"))


def test_villain_text_the_slots_cannot_hold_is_shown_not_dropped():
    four = tuple(Trait(name=f"Act {i}", text="x") for i in range(1, 5))
    leader = wb.build_monster(3, "leader").model_copy(update={"villain_actions": four})
    html = stat_block_html(leader, style=False)  # never fails on a fourth action
    assert html.count('data-slot="') == 3 and "Act 4" in html and "always has 3" in html
    assert "Act 4" in wb.stat_block_markdown(leader)
    platoon = wb.build_monster(3, "platoon", "brute").model_copy(update={"villain_actions": four[:1]})
    html = villain_actions_html(platoon)
    assert "Act 1" in html and "only leaders and solos" in html and "data-slot" not in html
    assert "Act 1" in wb.stat_block_markdown(platoon)
