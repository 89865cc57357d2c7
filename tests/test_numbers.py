"""Exact numbers written for people (workbench/numbers.py): whole, finite decimal, or a whole and a fraction."""

from __future__ import annotations

from fractions import Fraction

import pytest

from workbench.numbers import format_number


@pytest.mark.parametrize(
    "value, shown",
    [
        (50, "50"),
        (Fraction(10, 2), "5"),  # a whole Fraction shows no fraction
        (Fraction(25, 2), "12.5"),  # a denominator of twos and fives ends: a decimal
        (Fraction(1, 8), "0.125"),
        (Fraction(117, 4), "29.25"),
        (Fraction(22, 3), "7 1/3"),  # a third never ends: the whole and the fraction
        (Fraction(88, 3), "29 1/3"),
        (Fraction(1, 3), "1/3"),  # no whole part: the fraction alone
    ],
)
def test_format_number(value, shown):
    assert format_number(value) == shown
