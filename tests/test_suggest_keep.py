"""Suggestions around the creatures the Director keeps: each kept creature is in every suggestion as it is, and
the search fills only the rest of the band."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from workbench.encounter.encounter import Creature, Encounter, creature_from_monster
from workbench.encounter.party import budget, make_party
from workbench.encounter.report import report
from workbench.encounter.suggest import suggest_encounters
from workbench.errors import InvalidInput
from workbench.formats.bestiary import sample_bestiary
from workbench.monster.formulas import build_monster

SAMPLE = sample_bestiary()
FIVE_LEVEL_3 = make_party(heroes=5, level=3)


def own_brute(count: int = 1, star: bool = False) -> Creature:
    """The Director's own monster: a name no bestiary holds."""
    monster = build_monster(3, "elite", "brute").model_copy(update={"name": "Grisk the Unbowed"})
    return creature_from_monster(monster, count, star=star)


def test_a_kept_creature_is_in_every_suggestion_as_it_is():
    mine = own_brute(star=True)
    found = suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=5, rng=random.Random(3), keep=[mine])
    assert found
    for s in found:
        kept = [c for c in s.creatures if c.name == "Grisk the Unbowed"]
        assert kept == [mine]  # count, star and all, once
        assert len(s.creatures) > 1  # the rest of the band was filled


def test_the_kept_creature_and_the_rest_stay_inside_the_band():
    mine = own_brute(count=2)
    band = budget(FIVE_LEVEL_3).band("standard")
    found = suggest_encounters(FIVE_LEVEL_3, "standard", SAMPLE, count=5, rng=random.Random(4), keep=[mine])
    for s in found:
        total = report(s.encounter).total_ev
        assert band.min <= total
        assert band.max is None or total <= band.max
        assert report(s.encounter).difficulty == "standard"
        # the others cost what is left: the total less the kept pair's EV
        others = sum((c.cost() for c in s.creatures if c.name != "Grisk the Unbowed"), Fraction(0))
        assert others == total - mine.cost()


def test_a_kept_bestiary_creature_is_not_bought_again_beside_itself():
    first = suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=1, rng=random.Random(1))[0]
    locked = first.creatures[0]
    found = suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=4, rng=random.Random(2), keep=[locked])
    for s in found:
        same = [c for c in s.creatures if c.stat_block == locked.stat_block]
        assert same == [locked]


def test_kept_creatures_costing_more_than_the_band_are_refused_by_name():
    many = own_brute(count=30)
    with pytest.raises(InvalidInput) as caught:
        suggest_encounters(FIVE_LEVEL_3, "easy", SAMPLE, keep=[many])
    assert caught.value.field == "keep"
    assert "more than" in str(caught.value)


def test_keep_takes_only_creatures():
    with pytest.raises(InvalidInput) as caught:
        suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, keep=["Goblin"])
    assert caught.value.field == "keep"


def test_nothing_kept_is_the_search_as_before():
    plain = suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=3, rng=random.Random(9))
    again = suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=3, rng=random.Random(9), keep=())
    assert plain == again
    assert Encounter(party=FIVE_LEVEL_3).creatures == ()
