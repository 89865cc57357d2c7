"""One error root: every refusal a user can trigger is a WorkbenchError with a stable code.

Each row below is a place that let a bare ValueError or KeyError out before; the CLI prints an error's own
parts (`detail`, `summary`) instead of cutting its message apart.
"""

from __future__ import annotations

import pytest

from workbench.charts.scaling import scaling_figure
from workbench.charts.solo import solo_figure_parts
from workbench.cli import main
from workbench.errors import InvalidInput, NotFound, RulesetError, WorkbenchError, shown
from workbench.formats.bestiary import sample_bestiary
from workbench.monster.formulas import build_monster
from workbench.monster.library import load_library, save_monster
from workbench.monster.solo import compare_solos
from workbench.rules.lore import core_lore
from workbench.tables.scaling import curve, neighbours, sort_grid
from workbench.tables.stats import stat_table


@pytest.fixture(scope="module")
def table():
    return stat_table(range(1, 4))


def test_invalid_input_keeps_its_message_and_gives_its_parts():
    exc = InvalidInput("level", 0, "a whole number from 1 to 20", "levels start at 1")
    assert str(exc) == "level: got 0 (levels start at 1); accepts a whole number from 1 to 20"
    assert exc.detail == "got 0 (levels start at 1); accepts a whole number from 1 to 20"
    assert exc.code == "invalid-level"
    assert exc.summary == str(exc)


def test_nothing_given_is_said_in_words_not_as_none():
    assert InvalidInput("source", None, "a folder", "add needs a SOURCE").detail == (
        "got nothing (add needs a SOURCE); accepts a folder")
    assert shown("None") == "'None'"  # a text that reads None is still shown as the text it is


def test_not_found_is_a_key_error_with_a_readable_message():
    exc = NotFound("monster", "Goblin", ["Bandit", "Orc"], where="the library")
    assert isinstance(exc, KeyError) and isinstance(exc, WorkbenchError)
    assert exc.code == "not-found-monster"
    assert str(exc) == "monster: no 'Goblin' in the library; there are: Bandit, Orc"
    many = NotFound("stat block", "x", [f"m{i}" for i in range(12)])
    assert many.code == "not-found-stat-block"
    assert str(many).endswith("m9, … (12 in all)")


def test_ruleset_error_summary_is_composed_not_cut():
    exc = RulesetError("core.toml", ["roles.brute: missing", "levels: empty"])
    assert exc.summary == "core.toml: 2 problem(s)"
    assert str(exc) == "core.toml: 2 problem(s)\n  - roles.brute: missing\n  - levels: empty"


@pytest.mark.parametrize(
    ("call", "code"),
    [
        # tables/scaling.py: a column that is not in the table
        (lambda t: sort_grid(t, "charisma"), "invalid-by"),
        (lambda t: curve(t, "platoon", "brute", "charisma"), "invalid-quantity"),
        (lambda t: neighbours(t, 1, "platoon", "brute", "charisma"), "invalid-quantity"),
        # tables/scaling.py: compare takes role or organization only
        (lambda t: neighbours(t, 1, "platoon", "brute", "stamina", compare="level"), "invalid-compare"),
        # charts/scaling.py: a quantity the explorer does not chart
        (lambda t: scaling_figure(t, 1, "platoon", "brute", "wisdom"), "invalid-quantity"),
    ],
)
def test_table_and_chart_refusals_are_invalid_input(table, call, code):
    with pytest.raises(InvalidInput) as caught:
        call(table)
    assert caught.value.code == code


def test_solo_chart_refuses_a_comparison_without_a_quantity():
    comparison = compare_solos(build_monster(5, "leader"))
    partial = comparison.model_copy(update={"rows": comparison.rows[:1]})
    with pytest.raises(InvalidInput) as caught:
        solo_figure_parts(partial, [])
    assert caught.value.code == "invalid-quantity"


def test_lore_field_lookup_names_the_fields_there_are():
    block = core_lore().noncombatant
    with pytest.raises(NotFound) as caught:
        block.value("Malice")
    assert caught.value.code == "not-found-field"
    assert "Stamina" in caught.value.known and "'Malice'" in str(caught.value)


def test_bestiary_lookup_is_not_found():
    with pytest.raises(NotFound) as caught:
        sample_bestiary().named("No Such Monster")
    assert caught.value.code == "not-found-stat-block"


def test_library_lookup_is_not_found(tmp_path):
    save_monster(build_monster(2, "platoon", "brute").model_copy(update={"name": "Bandit"}), "Bandit", tmp_path)
    contents = load_library(tmp_path)
    with pytest.raises(KeyError) as caught:  # still a KeyError: the library is looked up like a dict
        contents["Goblin"]
    assert isinstance(caught.value, NotFound)
    assert str(caught.value) == "monster: no 'Goblin' in the library; there are: Bandit"


def test_cli_prints_the_detail_of_a_refusal(capsys):
    assert main(["monster", "--level", "5", "--organization", "elite", "--role", "wizard"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("workbench monster: error: --role: got 'wizard'")
    assert "; accepts " in err


def test_a_long_value_is_cut_in_the_middle_so_a_path_keeps_its_file_name():
    path = "/home/director/" + "campaigns/" * 12 + "goblin-warband.json"
    text = shown(path)
    assert text.startswith("'/home/director/") and text.endswith(f"goblin-warband.json' ({len(repr(path))} characters)")
    assert len(text) < len(repr(path)) and "…" in text
    assert shown("short.json") == "'short.json'"
