"""The ROUND:COUNT notation for heroes' deaths, as the command line and the Malice planner read it."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.fight.deaths import parse_death, parse_deaths


@pytest.mark.parametrize(("text", "pair"), [("3:1", (3, 1)), ("1:0", (1, 0)), ("100:100", (100, 100)),
                                            ("007:2", (7, 2))])
def test_a_pair_is_the_round_and_the_count(text, pair):
    assert parse_death(text) == pair


@pytest.mark.parametrize("text", [
    "²:1",         # a superscript two: a digit to str.isdigit, not to int()
    "５:1",        # a full-width five: int() reads it as 5
    "1:", ":1", "1", "a:b", "3-1", "3:1:1", " 3:1", "3 :1", "-1:1", "3:-1", "1.5:1",
    "0:1",         # there is no round 0
    "101:1",       # past the rounds a fight may have
    "3:101",       # more heroes than a party may have
    "9" * 5000 + ":1",
    "",
])
def test_anything_else_is_refused_naming_the_deaths_and_the_notation(text):
    with pytest.raises(wb.InvalidInput) as caught:
        parse_death(text)
    assert caught.value.field == "deaths"
    assert caught.value.value == text
    assert caught.value.accepts.startswith("ROUND:COUNT in digits 0-9")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300


def test_a_list_is_pairs_separated_by_commas_or_spaces():
    assert parse_deaths("2:1, 4:2") == [(2, 1), (4, 2)]
    assert parse_deaths("2:1 4:2,5:1") == [(2, 1), (4, 2), (5, 1)]
    assert parse_deaths("  ") == []
    assert parse_deaths("") == []


def test_a_list_names_the_first_pair_refused_in_the_words_of_one_pair():
    with pytest.raises(wb.InvalidInput) as caught:
        parse_deaths("2:1, ²:1, x")
    with pytest.raises(wb.InvalidInput) as alone:
        parse_death("²:1")
    assert caught.value.value == "²:1"
    assert str(caught.value) == str(alone.value)


@pytest.mark.parametrize("value", [None, 3, ["2:1"], b"2:1"])
def test_a_value_that_is_no_text_is_refused(value):
    with pytest.raises(wb.InvalidInput, match="deaths"):
        parse_deaths(value)
    with pytest.raises(wb.InvalidInput, match="deaths"):
        parse_death(value)
