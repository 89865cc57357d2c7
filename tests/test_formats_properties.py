"""Hypothesis: any valid monster — formula numbers, every kind of stat block part, homebrew text — comes back
equal from Forge Steel, Foundry and Steel Compendium files, and the export is the same each time."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from strategies import monsters

import workbench as wb
from workbench.formats.reader import read_monsters


@given(monsters(), st.sampled_from(("forge-steel", "foundry", "steel-compendium")))
def test_any_valid_monster_round_trips_through_each_format(monster, fmt):
    exported = wb.export_monster(monster, fmt)
    assert exported == wb.export_monster(monster, fmt)  # stable: the same file every time
    (back,) = read_monsters(json.loads(exported), f"property.{fmt}")
    assert back == monster
