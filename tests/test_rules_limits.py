"""`typed_whole`: a whole number as a Director types it in a box, or None; never int()'s own ValueError."""

from __future__ import annotations

import pytest

from workbench.rules.limits import typed_whole


@pytest.mark.parametrize(("text", "digits", "expected"), [
    ("7", 7, 7), (" 12 ", 7, 12), ("0", 7, 0), ("1000000", 7, 1_000_000),
    ("10000000", 7, None),  # more digits than asked for
    ("²", 7, None), ("５", 7, None), ("٣", 7, None),  # isdigit() takes them; int() refuses "²"
    ("9" * 5000, 7, None),  # int() raises past 4,300 digits
    ("", 7, None), ("-3", 7, None), ("+3", 7, None), ("3.0", 7, None), ("1_000", 7, None), ("ten", 7, None),
    ("999", 3, 999), ("1000", 3, None),
])
def test_only_plain_digits_within_the_length_are_a_number(text, digits, expected):
    assert typed_whole(text, digits) == expected
