"""Characteristics suggested from published monsters of the same organization and role."""

from __future__ import annotations

from workbench import build_monster
from workbench.calibration.characteristics import suggest_characteristics
from workbench.formats.bestiary import sample_bestiary


def test_a_horde_harrier_gets_the_published_horde_harriers_shape():
    bestiary = sample_bestiary()
    peers = [m for m in bestiary.monsters if (m.organization, m.role) == ("horde", "harrier")]
    monster = build_monster(4, "horde", "harrier")
    suggestion = suggest_characteristics(monster, bestiary)
    assert suggestion.monsters == tuple(p.name for p in peers)
    assert suggestion.characteristics.highest == monster.highest_characteristic
    # the sample's one horde harrier (the goblin warrior): its shape, moved to this monster's highest
    [peer] = peers
    for name, value in suggestion.characteristics.items():
        assert value == monster.highest_characteristic + peer.characteristics[name] - peer.highest_characteristic
    assert "median distance below the highest" in suggestion.reading


def test_the_lower_median_of_an_even_count_and_the_fallback_to_the_role():
    bestiary = sample_bestiary()
    leaders = [m for m in bestiary.monsters if m.organization == "leader"]
    suggestion = suggest_characteristics(build_monster(2, "leader"), bestiary)
    assert len(suggestion.monsters) == len(leaders)
    for name in ("might", "agility", "reason", "intuition", "presence"):
        distances = sorted(m.characteristics[name] - m.highest_characteristic for m in leaders)
        if suggestion.offsets[name] != 0:
            assert suggestion.offsets[name] == distances[(len(distances) - 1) // 2]
