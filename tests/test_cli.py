"""The helpers every subcommand shares: how an exact number is written into `--json`."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from workbench.cli import json_number, main


@pytest.mark.parametrize(("value", "written"), [
    (Fraction(12, 1), "12"), (Fraction(5, 2), "2.5"), (Fraction(1, 4), "0.25"), (7, "7"), (0, "0"),
    (Fraction(-3, 2), "-1.5"),
])
def test_a_whole_number_is_an_int_and_anything_else_its_float(value, written):
    assert json.dumps(json_number(value)) == written


def test_a_third_is_the_nearest_float():
    assert json_number(Fraction(1, 3)) == 1 / 3


def test_the_subcommands_write_an_average_as_it_was_given(capsys):
    for command in (["budget", "--heroes", "5", "--level", "3"], ["malice", "--heroes", "5", "--rounds", "1"]):
        assert main([*command, "--victories", "2.5", "--json"]) == 0
        assert '"victories": 2.5' in capsys.readouterr().out
