"""Homebrew modules and swarm results as HTML/Markdown (escaped), and their frames and figures."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import workbench as wb
from workbench.charts.swarm import distribution_figure, tuning_figure
from workbench.homebrew.attach import attach_rule
from workbench.homebrew.rule import shipped_rules
from workbench.homebrew.swarm import SwarmScenario, simulate_swarms, swarm_fight
from workbench.homebrew.weakness import weakness_cases
from workbench.model import AttachedRule
from workbench.render.homebrew_rule import (
    homebrew_rules_html,
    homebrew_rules_markdown_lines,
    rule_html,
    rule_markdown,
    text_html,
    weakness_table_html,
)
from workbench.render.swarm import decimal_text, fight_html, simulation_html
from workbench.tables.swarm import distribution_table, tuning_table
from workbench.tables.weakness import weakness_table

WEAKNESS = shipped_rules()["exploitable-weakness"]
SWARM = shipped_rules()["generic-swarm"]
HOSTILE = '<script>alert("x")</script> & "quotes"'


def _werewolf():
    m = wb.build_monster(1, "solo").model_copy(update={"name": "Werewolf"})
    m = attach_rule(m, WEAKNESS, {"tag": "Silver"})
    return attach_rule(m, SWARM, {"disperse_value": 4, "reform_threshold": 5})


def test_attached_modules_show_on_the_block_with_parameters_filled():
    block = homebrew_rules_html(_werewolf())
    assert "Homebrew Rules" in block
    assert "Exploitable Weakness (Silver)" in block
    assert "Swarm (N = 4, M = 5)" in block and "disperses into 4 individual creatures" in block


def test_no_attached_module_no_section():
    assert homebrew_rules_html(wb.build_monster(1, "solo")) == ""
    assert homebrew_rules_markdown_lines(wb.build_monster(1, "solo")) == []


def test_a_hostile_tag_is_escaped_everywhere():
    m = attach_rule(wb.build_monster(1, "solo"), WEAKNESS, {"tag": HOSTILE})
    for text in (homebrew_rules_html(m), rule_html(WEAKNESS.fill({"tag": HOSTILE}))):
        assert "<script>" not in text and "&lt;script&gt;" in text
    markdown = "\n".join(homebrew_rules_markdown_lines(m))
    assert "<script>" not in markdown


def test_a_module_that_is_not_loaded_is_named_not_dropped():
    m = wb.build_monster(1, "solo").model_copy(update={"homebrew_rules": (AttachedRule(rule="my-own-rule"),)})
    assert "my-own-rule" in homebrew_rules_html(m) and "not loaded" in homebrew_rules_html(m)
    assert any("my-own-rule" in line for line in homebrew_rules_markdown_lines(m))


def test_a_saved_value_the_module_refuses_is_named_not_called_unloaded():
    # a hand-edited file: N = 0, but the Disperse Value is a whole number from 1
    bad = AttachedRule(rule="generic-swarm", values=(("disperse_value", 0),))
    m = wb.build_monster(1, "solo").model_copy(update={"homebrew_rules": (bad,)})
    html = homebrew_rules_html(m)
    assert "not loaded" not in html and "saved value refused" in html and "disperse_value" in html
    assert any("saved value refused" in line for line in homebrew_rules_markdown_lines(m))


def test_modules_can_come_from_another_folder(tmp_path):
    custom = WEAKNESS.model_copy(update={"id": "silver-bane"})
    m = wb.build_monster(1, "solo").model_copy(
        update={"homebrew_rules": (custom.attachment({"tag": "Silver"}),)}
    )
    assert "Exploitable Weakness (Silver)" in homebrew_rules_html(m, modules={"silver-bane": custom})


def test_text_html_makes_bullets_and_paragraphs():
    assert text_html("Intro line\n\n- one\n- two <b>") == "<p>Intro line</p><ul><li>one</li><li>two &lt;b&gt;</li></ul>"


def test_the_full_module_shows_every_section_and_parameter():
    html = rule_html(SWARM.fill())
    for section in SWARM.sections:
        assert section.title in html
    assert "Disperse Value (N)" in html and "Reform Threshold (M)" in html
    markdown = rule_markdown(SWARM.fill())
    assert "#### Rule of Thumb for Tuning" in markdown and "| Disperse Value (N) | 3 |" in markdown


def test_the_unattached_weakness_reads_as_the_source():
    assert "Exploitable Weakness (Tag)" in rule_html(WEAKNESS)


def test_weakness_table_frame_and_html_agree():
    filled = WEAKNESS.fill({"tag": "silver"})
    frame = weakness_table(filled)
    assert len(frame) == 24 and frame["wound"].isna().sum() == 4  # the four unescalated PC/Legendary cells
    # the escalated two-handed Legendary rows hold the ladder's 8 ("3 -> 4 -> 8")
    rows = frame[(frame.grip == "two-handed") & (frame.outcome == "Legendary") & frame.matches_tag]
    assert set(rows["wound"]) == {8}
    assert weakness_table_html(weakness_cases(filled)).count("<tr>") == 25


@pytest.mark.parametrize(
    "value, text",
    [
        (Fraction(767, 100), "7.67"),  # exact
        (Fraction(2, 3), "0.67"),  # 0.666… rounds up
        (Fraction(1, 8), "0.12"),  # 0.125: half to even
        (None, "—"),  # nothing cleared
    ],
)
def test_decimal_text_rounds_exactly(value, text):
    assert decimal_text(value) == text


def test_simulation_and_fight_html():
    result = simulate_swarms(SwarmScenario(), random.Random(1), runs=50)
    html = simulation_html(result)
    assert f'data-mean-rounds="{decimal_text(result.mean_rounds)}"' in html and "N = 3, M = 6" in html
    one = swarm_fight(SwarmScenario(area_hit_chance=1, disruption_chance=1), random.Random(1))
    assert fight_html(one).count("<tr>") == 1 + one.rounds


def test_tuning_table_has_every_cell_and_the_figure_a_line_per_m_and_panel():
    frame = tuning_table(n_values=(2, 3), m_values=(3, 6), disruption_values=(0, "1/2"), runs=30)
    assert len(frame) == 2 * 2 * 2
    assert set(frame["disruption_chance"]) == {0.0, 0.5}
    figure = tuning_figure(frame)
    assert len(figure.data) == 2 * 2 * 2  # 2 M values × 2 panels × 2 rows


def test_the_tuning_figure_names_cells_the_swarms_outlasted():
    # nobody kills dispersed individuals: no fight can end, so no cell has a point on the rounds row
    never = tuning_table(n_values=(2, 3), m_values=(6,), disruption_values=(0,), runs=5,
                         base=SwarmScenario(kills_per_round=0))
    (note,) = tuning_figure(never).layout.annotations[-1:]
    assert "N = 2, M = 6, disruption 0%: 0% cleared" in note.text and "N = 3, M = 6" in note.text
    # every fight certain to end (every area attack hits, every round disrupted): no note
    always = tuning_table(n_values=(2,), m_values=(6,), disruption_values=(1,), runs=5,
                          base=SwarmScenario(area_hit_chance=1))
    assert all("Not every fight" not in a.text for a in tuning_figure(always).layout.annotations)


def test_tuning_table_refuses_an_empty_axis():
    with pytest.raises(wb.InvalidInput):
        tuning_table(n_values=(), runs=10)


def test_distribution_table_and_figure_count_every_fight():
    result = simulate_swarms(SwarmScenario(kills_per_round=0), random.Random(1), runs=20, max_rounds=10)
    frame = distribution_table(result)
    assert frame["fights"].sum() == 20 and frame["rounds"].isna().all()
    figure = distribution_figure(frame)
    assert list(figure.data[-1].x) == ["not cleared"]


def test_the_book_style_stat_block_shows_attached_modules():
    from workbench.render.stat_block import stat_block_html, stat_block_markdown

    werewolf = _werewolf()
    html = stat_block_html(werewolf)
    assert "Exploitable Weakness (Silver)" in html and "Swarm (N = 4, M = 5)" in html
    markdown = stat_block_markdown(werewolf)
    assert "#### Homebrew Rules" in markdown and "Exploitable Weakness (Silver)" in markdown
    assert "Homebrew Rules" not in stat_block_html(wb.build_monster(1, "solo"))
