"""The Malice features the Malice tests buy (test copies of the book's, and a custom one), and a schedule's
gains and running totals."""

from __future__ import annotations

from workbench.model import Trait

__all__ = ["BRUTAL", "STRIKE", "SOLO", "BIG", "gains", "totals"]


BRUTAL = Trait(name="Brutal Effectiveness", text="(test copy)", cost=3)
STRIKE = Trait(name="Malicious Strike", text="(test copy)", cost=5)
SOLO = Trait(name="Solo Action", text="(test copy)", cost=5)
BIG = Trait(name="Goblin Mode", text="a custom 7-cost feature", cost=7)


def gains(rounds):
    return [r.gain for r in rounds]


def totals(rounds):
    return [r.total for r in rounds]
