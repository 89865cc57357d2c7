"""Encounter suggestions: inside the band, every guideline kept (by the workbench's own checker), distinct,
reproducible, and refused with the reason when nothing can fit."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.encounter.encounter import Encounter
from workbench.encounter.groups import check_groups
from workbench.encounter.party import budget, make_party
from workbench.encounter.report import report
from workbench.encounter.suggest import suggest_encounters
from workbench.formats.bestiary import sample_bestiary
from workbench.rules.encounter_tables import DIFFICULTIES

SAMPLE = sample_bestiary()
FIVE_LEVEL_3 = make_party(heroes=5, level=3)
FIVE_LEVEL_1 = make_party(heroes=5, level=1)


def creatures_of(suggestion) -> Counter:
    """Each creature of the encounter once (minions one by one), keyed by stat block."""
    return Counter({c.stat_block: c.count for c in suggestion.creatures})


def party_advice(party) -> set[str]:
    """Checks the party breaks with no foe at all: advice about the heroes, not about the creatures."""
    return {c.key for c in report(Encounter(party=party)).broken}


@pytest.fixture(scope="module")
def hard_five() -> tuple:
    return suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=10, rng=random.Random(7))


def test_ten_hard_encounters_for_five_level_3_heroes(hard_five):
    assert len(hard_five) == 10
    for s in hard_five:
        # ES 5 × (4 + 2 × 3) = 50, one hero 10: hard is above 50 + 10 and at most 50 + 3 × 10
        assert 60 < s.ev <= 80
        again = report(s.encounter)
        assert again.difficulty == "hard" and again.victories == 2
        assert again.broken == ()


def test_every_creature_is_within_the_level_limits(hard_five):
    for s in hard_five:
        for c in s.creatures:
            if c.organization == "solo":
                assert c.level <= 4  # the heroes' average level + 1
            else:
                assert c.level <= 5  # the heroes' level + 2
            if c.minion:
                assert 1 <= c.level <= 5  # minions within two levels of the heroes


def test_initiative_groups_are_suggested_and_keep_their_guidelines(hard_five):
    for s in hard_five:
        assert s.encounter.groups
        placed = Counter()
        for group in s.encounter.groups:
            for index, n in group.members:
                placed[index] += n
        assert [placed[i] for i in range(len(s.creatures))] == [c.count for c in s.creatures]
        checks = check_groups(s.encounter, Fraction(10))
        assert not [c.key for c in checks if c.broken]


def test_minions_by_fours_two_sets_and_at_most_six_kinds(hard_five):
    for s in hard_five:
        minions = [c for c in s.creatures if c.minion]
        assert all(c.count % 4 == 0 for c in minions)
        assert not minions or sum(c.count for c in minions) >= 8
        assert len({c.stat_block for c in s.creatures}) <= 6
        total = sum(c.count for c in s.creatures)
        assert total <= 40
        if total > 15:
            assert 2 * sum(c.count for c in minions) >= total


def test_each_has_a_mix_of_roles_or_a_solo(hard_five):
    for s in hard_five:
        roles = {c.role for c in s.creatures if c.role}
        assert len(roles) >= 2 or any(c.organization == "solo" for c in s.creatures)
        assert sum(c.count for c in s.creatures if c.role == "controller") <= 2
        assert sum(c.count for c in s.creatures if c.role == "support") <= 1
        assert sum(c.count for c in s.creatures if c.organization == "leader") <= 1


def test_suggestions_differ_in_more_than_one_creature(hard_five):
    for i, a in enumerate(hard_five):
        for b in hard_five[i + 1 :]:
            ca, cb = creatures_of(a), creatures_of(b)
            assert max(sum((ca - cb).values()), sum((cb - ca).values())) >= 2


def test_ranked_by_score_best_first(hard_five):
    scores = [s.score for s in hard_five]
    assert scores == sorted(scores, reverse=True)
    # the best uses at least as much of the band as the worst of the ten, or has more variety
    best, worst = hard_five[0], hard_five[-1]
    assert best.budget_use >= worst.budget_use or best.variety > worst.variety


def test_the_same_seed_gives_the_same_suggestions():
    first = suggest_encounters(FIVE_LEVEL_3, "standard", SAMPLE, count=5, rng=random.Random(3))
    again = suggest_encounters(FIVE_LEVEL_3, "standard", SAMPLE, count=5, rng=random.Random(3))
    other = suggest_encounters(FIVE_LEVEL_3, "standard", SAMPLE, count=5, rng=random.Random(4))
    assert [s.summary() for s in first] == [s.summary() for s in again]
    assert [s.summary() for s in first] != [s.summary() for s in other]


def test_keywords_keep_to_those_stat_blocks():
    # the sample's kobolds are level 1: for level 1 heroes, whose hard encounters take their level and up
    found = suggest_encounters(FIVE_LEVEL_1, "hard", SAMPLE, ["Kobold"], count=5, rng=random.Random(1))
    kobolds = {m.name for m in SAMPLE.monsters if "Kobold" in m.keywords}
    assert found
    for s in found:
        assert {c.name for c in s.creatures} <= kobolds


def test_must_include_is_in_every_suggestion():
    found = suggest_encounters(  # the Goblin Monarch is a level 1 leader
        FIVE_LEVEL_1, "hard", SAMPLE, must_include=["goblin monarch"], count=5, rng=random.Random(1)
    )
    assert found and all("Goblin Monarch" in {c.name for c in s.creatures} for s in found)


def test_a_star_of_the_show_when_asked():
    found = suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=5, rng=random.Random(2), star=True)
    assert found
    for s in found:
        stars = [c for c in s.creatures if c.star]
        assert len(stars) == 1 and stars[0].organization in ("leader", "solo")
        assert 3 * stars[0].cost() >= s.ev
        check = next(c for c in report(s.encounter).checks if c.key == "star_of_the_show")
        assert check.applies and check.ok


def test_built_monsters_and_published_ones_together():
    homebrew = [
        wb.build_monster(3, "platoon", "brute").model_copy(update={"name": "Bog Brute", "keywords": ("Bog",)}),
        wb.build_monster(3, "minion", "harrier").model_copy(update={"name": "Bog Imp", "keywords": ("Bog",)}),
        wb.build_monster(3, "platoon", "artillery").model_copy(update={"name": "Bog Spitter", "keywords": ("Bog",)}),
    ]
    found = suggest_encounters(FIVE_LEVEL_3, "standard", homebrew, ["bog"], count=3, rng=random.Random(1))
    assert found
    for s in found:
        assert {c.name for c in s.creatures} <= {"Bog Brute", "Bog Imp", "Bog Spitter"}
        assert report(s.encounter).broken == ()


def test_refused_when_no_stat_block_fits_the_level_limits():
    high = [m for m in SAMPLE.monsters if m.level >= 5]
    with pytest.raises(wb.InvalidInput) as error:
        suggest_encounters(make_party(heroes=4, level=1), "standard", high)
    assert error.value.field == "bestiary"
    assert "level limits" in str(error.value)


def test_refused_when_no_stat_block_has_the_keyword():
    with pytest.raises(wb.InvalidInput) as error:
        suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, ["Dragon"])
    assert error.value.field == "keyword" and "dragon" in str(error.value)


def test_refused_when_nothing_reaches_the_band():
    tiny = [m for m in SAMPLE.monsters if m.name == "Goblin Warrior"]  # level 1, 3 EV each, one role
    with pytest.raises(wb.InvalidInput) as error:
        suggest_encounters(make_party(heroes=5, level=1), "extreme", tiny)
    assert error.value.field == "difficulty" and "keeps every guideline" in str(error.value)


def test_refused_when_the_band_is_empty():
    with pytest.raises(wb.InvalidInput) as error:
        suggest_encounters(make_party(heroes=1, level=1), "trivial", SAMPLE)
    assert error.value.field == "difficulty"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"difficulty": "deadly"}, "difficulty"),  # not a band
        ({"count": 0}, "count"),  # at least one
        ({"count": True}, "count"),  # a bool is not a count
        ({"keywords": [""]}, "keyword"),  # empty word
        ({"must_include": ["Tarrasque"]}, "must_include"),  # not in the bestiary
        ({"difficulty": "easy", "star": True}, "star"),  # a star needs a hard encounter
        ({"bestiary": 5}, "bestiary"),  # not stat blocks
        ({"bestiary": []}, "bestiary"),  # nothing in it
        ({"party": "five heroes"}, "party"),  # not a Party
    ],
)
def test_bad_input_names_the_field(kwargs, field):
    args = {"party": FIVE_LEVEL_3, "difficulty": "hard", "bestiary": SAMPLE, **kwargs}
    with pytest.raises(wb.InvalidInput) as error:
        suggest_encounters(**args)
    assert error.value.field == field


@given(
    heroes=st.integers(min_value=1, max_value=9),
    level=st.integers(min_value=1, max_value=6),
    victories=st.integers(min_value=0, max_value=8),
    difficulty=st.sampled_from(DIFFICULTIES),
    seed=st.integers(min_value=0, max_value=10_000),
)
@settings(max_examples=40, deadline=None)
def test_every_suggestion_keeps_every_guideline(heroes, level, victories, difficulty, seed):
    party = make_party(heroes=heroes, level=level, victories=victories)
    try:
        found = suggest_encounters(party, difficulty, SAMPLE, count=4, rng=random.Random(seed))
    except wb.InvalidInput as error:
        assert error.field in ("difficulty", "bestiary")  # refused with a reason, never a crash
        return
    band = budget(party).band(difficulty)
    advice = party_advice(party)
    for s in found:
        assert outside_the_quick_levels(s, difficulty, level) == [], s.summary()
        again = report(s.encounter)
        assert again.difficulty == difficulty
        assert band.min <= s.ev and (band.max is None or s.ev <= band.max)
        # only advice about the party itself, which no choice of creatures changes, may be broken
        assert {c.key for c in again.broken} <= advice
        if 4 <= heroes <= 6:
            assert again.broken == ()


# Quick Encounter Building, Step 2, in the rules' words, as (lowest, highest) levels above the heroes' level
# (None: no limit that way): trivial "only creatures of the heroes' level or lower"; easy and standard "the
# heroes' level or one level higher"; hard "the heroes' level and up to two levels higher, or up to one level
# higher for solo creatures"; extreme "the heroes' level or higher".
QUICK_LEVELS = {"trivial": (None, 0), "easy": (0, 1), "standard": (0, 1), "hard": (0, 2), "extreme": (0, None)}
QUICK_SOLO_LEVELS = {**QUICK_LEVELS, "hard": (0, 1)}


def outside_the_quick_levels(suggestion, difficulty: str, level: int) -> list[str]:
    """The creatures of a suggestion whose level Quick Encounter Building does not allow for the difficulty."""
    out = []
    for c in suggestion.creatures:
        low, high = (QUICK_SOLO_LEVELS if c.organization == "solo" else QUICK_LEVELS)[difficulty]
        if (low is not None and c.level < level + low) or (high is not None and c.level > level + high):
            out.append(f"{c.name} (level {c.level})")
    return out


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_suggestions_keep_the_quick_methods_levels_unless_told_not_to(difficulty):
    # by default the Guidelines and Quick Encounter Building both pass every suggestion's levels
    found = suggest_encounters(FIVE_LEVEL_3, difficulty, SAMPLE, count=6, rng=random.Random(5))
    assert found
    for s in found:
        assert outside_the_quick_levels(s, difficulty, 3) == [], s.summary()
        assert report(s.encounter).broken == ()
    # `quick_levels=False` holds levels to the Guidelines only: the sample's level 1 creatures come back
    plain = suggest_encounters(FIVE_LEVEL_3, difficulty, SAMPLE, count=6, rng=random.Random(5), quick_levels=False)
    assert any(outside_the_quick_levels(s, difficulty, 3) for s in plain)
    assert all(report(s.encounter).broken == () for s in plain)


def minion_share(suggestion) -> Fraction:
    """The part of the creatures' EV spent on minions, counted from the creatures themselves."""
    return sum((c.cost() for c in suggestion.creatures if c.minion), Fraction(0)) / suggestion.ev


@pytest.mark.parametrize(
    ("heroes", "level", "difficulty"),
    [
        (5, 2, "standard"),  # before the rule, builds of 60% minions by EV ranked over equal mixed ones
        (3, 1, "easy"),  # a narrow band: minions fill it to the last EV
        (7, 1, "hard"),
        (4, 3, "easy"),
        (5, 3, "hard"),
        (6, 5, "extreme"),
    ],
)
def test_a_suggestion_leaning_on_minions_never_crowds_out_an_equal_mixed_one(heroes, level, difficulty):
    # "Creatures organized as minions are meant to support monsters organized in other ways": a suggestion
    # spending more than half its EV on minions never ranks above one keeping them in support that is as good
    # otherwise (budget use, variety, a theme); every suggestion still keeps every guideline.
    party = make_party(heroes=heroes, level=level)
    found = suggest_encounters(party, difficulty, SAMPLE, count=10, rng=random.Random(1))
    half = Fraction(1, 2)
    for i, above in enumerate(found):
        assert above.minion_share == minion_share(above)
        assert {c.key for c in report(above.encounter).broken} <= party_advice(party)
        for below in found[i + 1:]:
            as_good = (below.budget_use >= above.budget_use and below.variety >= above.variety
                       and (below.theme or not above.theme))
            assert not (minion_share(above) > half >= minion_share(below) and as_good), (
                above.summary(), below.summary())


def test_minions_within_half_the_ev_cost_no_rank():
    # two sets of minions are what the guidelines ask for: within half the EV, minions change nothing
    found = suggest_encounters(FIVE_LEVEL_3, "hard", SAMPLE, count=10, rng=random.Random(7))
    for s in found:
        if minion_share(s) <= Fraction(1, 2):
            plain = s.model_copy(update={"minion_share": Fraction(0)})
            assert s.score == plain.score
        else:
            assert s.score < s.model_copy(update={"minion_share": Fraction(0)}).score
