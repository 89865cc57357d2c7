"""Exact numbers written for people: every EV, Stamina share and average level the workbench shows."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

__all__ = ["format_number"]


def format_number(value: Fraction | int) -> str:
    """An exact number for people: 50, 12.5, or 7 1/3 when it has no finite decimal."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1:
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    whole, rest = divmod(value.numerator, value.denominator)
    return f"{whole} {rest}/{value.denominator}" if whole else f"{rest}/{value.denominator}"
