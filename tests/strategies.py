"""Hypothesis strategies shared by the property tests: a whole monster, every part of a book stat block.

One strategy, so the formats' round trip and the homebrew library's round trip draw the same kind of monster
(a part added to the model is added here once, and both tests meet it)."""

from __future__ import annotations

import rules_reference as ref
from hypothesis import strategies as st

import workbench as wb
from workbench.model import (
    ABILITY_KEYWORDS,
    Ability,
    AttachedRule,
    Characteristics,
    Damage,
    DamageModifier,
    Distance,
    Effect,
    Movement,
    Potency,
    PowerRoll,
    Size,
    Target,
    Tier,
    Trait,
)
from workbench.model.parts import CHARACTERISTICS, DAMAGE_TYPES, MOVEMENT_MODES

__all__ = ["monsters"]

WORDS = ("the", "goblin", "shifts", "slowed", "until", "end", "of", "turn", "each", "ally", "gains", "edge",
         "prone", "save", "ends", "creature", "within", "squares", "Bleeding", "can't", "(save", "ends)")
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join)
label = st.sampled_from(("Effect", "Special", "Aura", "Trigger Note"))
name = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=24).filter(
    lambda s: s.strip() == s and s)
characteristic = st.sampled_from(CHARACTERISTICS)


@st.composite
def tiers(draw) -> Tier:
    damages = tuple(Damage(amount=draw(st.integers(1, 40)), types=draw(st.lists(st.sampled_from(DAMAGE_TYPES),
                                                                                 max_size=2, unique=True)))
                    for _ in range(draw(st.integers(0, 2))))
    potency = draw(st.none() | st.builds(Potency, characteristic=characteristic, value=st.integers(-5, 6)))
    effect = draw(st.just("") | text) if damages else draw(text)
    return Tier(damages=damages, potency=potency, effect=effect)


effects = st.builds(Effect, name=st.none() | label, text=text,
                    malice=st.none() | st.integers(1, 6), malice_plus=st.booleans(),
                    tiers=st.none() | st.tuples(tiers(), tiers(), tiers()))


@st.composite
def distances(draw) -> Distance | None:
    kind = draw(st.sampled_from(("melee", "ranged", "melee or ranged", "burst", "aura", "cube", "line", "wall",
                                 "self", "special", None)))
    if kind is None:
        return None
    number = st.integers(1, 20)
    needs = {"melee or ranged": ("value", "value2"), "cube": ("value", "within"), "wall": ("value", "within"),
             "line": ("value", "value2", "within"), "self": (), "special": ()}.get(kind, ("value",))
    return Distance(kind=kind, **{n: draw(number) for n in needs})


@st.composite
def abilities(draw) -> Ability:
    roll = draw(st.none() | st.builds(PowerRoll, characteristics=st.lists(characteristic, max_size=2, unique=True),
                                      bonus=st.integers(-5, 6), tier1=tiers(), tier2=tiers(), tier3=tiers()))
    return Ability(
        name=draw(name), flavour=draw(st.just("") | text),
        cost=draw(st.sampled_from(("signature", "villain 1", "villain 2", "villain 3", None)) | st.integers(1, 9)),
        action=draw(st.sampled_from((None, "main action", "maneuver", "free maneuver", "move action",
                                     "triggered action", "free triggered action", "no action"))),
        keywords=draw(st.lists(st.sampled_from(ABILITY_KEYWORDS), max_size=4, unique=True)),
        distance=draw(distances()),
        target=draw(st.none() | st.builds(Target, text=st.sampled_from(
            ("One creature", "Two creatures or objects", "Each enemy in the area", "Self", "One ally")))),
        trigger=draw(st.just("") | text),
        effects_before=tuple(draw(st.lists(effects, max_size=2))),
        power_roll=roll,
        effects_after=tuple(draw(st.lists(effects, max_size=2))),
    )


traits = st.builds(Trait, name=name, text=text) | st.builds(
    lambda n, e: Trait(name=n, effects=tuple(e)), name, st.lists(effects, min_size=1, max_size=3))


@st.composite
def monsters(draw, words: st.SearchStrategy[str] = text, names: st.SearchStrategy[str] = name) -> wb.Monster:
    """A whole monster: the formulas' numbers for any organization, role, level 1-20, extra Stamina and
    target count the rules cover, then every stat block part drawn (numbers that depart from the formulas
    included). `words` and `names` draw its texts: the book's kind of words by default, any text when a test
    is about storing text exactly."""
    organization, role = draw(st.sampled_from(ref.combinations()))
    expected = ref.expected_targets(organization)
    base = wb.build_monster(level=draw(st.integers(1, 20)), organization=organization, role=role,
                            extra_stamina=draw(st.booleans()) and organization != "minion",
                            targets=draw(st.integers(max(1, expected - 1), expected + 3)))
    known = draw(st.booleans())
    size = draw(st.sampled_from(("1T", "1S", "1M", "1L", "2", "3", "4")))
    modifier = st.builds(DamageModifier, type=st.sampled_from(("all", *DAMAGE_TYPES)), value=st.integers(1, 10))
    return base.model_copy(update={
        "name": draw(st.just("") | names),
        "keywords": tuple(draw(st.lists(st.sampled_from(("Goblin", "Humanoid", "Undead", "Fey", "Beast")),
                                        max_size=3, unique=True))),
        "ev": draw(st.integers(1, 200)),
        "stamina": draw(st.integers(1, 900)),
        "free_strike": draw(st.integers(1, 20)),
        "characteristics": Characteristics(**{c: draw(st.integers(-5, 6)) if known else None
                                              for c in CHARACTERISTICS}),
        "size_class": draw(st.none() | st.just(Size.parse(size))),
        "movement": draw(st.none() | st.builds(Movement, speed=st.integers(0, 12), modes=st.lists(
            st.sampled_from(MOVEMENT_MODES), max_size=3, unique=True).map(tuple))),
        "stability_value": draw(st.none() | st.integers(0, 6)),
        "immunities": tuple(draw(st.lists(modifier, max_size=2, unique_by=lambda m: m.type))),
        "weaknesses": tuple(draw(st.lists(modifier, max_size=2, unique_by=lambda m: m.type))),
        "with_captain": draw(st.just("") | words) if organization == "minion" else "",
        "abilities": tuple(draw(st.lists(abilities(), max_size=4))),
        "traits": tuple(draw(st.lists(traits, max_size=3))),
        "malice_features": tuple(draw(st.lists(st.builds(Trait, name=names, text=words, cost=st.integers(1, 10)),
                                               max_size=2))),
        "villain_actions": tuple(draw(st.lists(st.builds(Trait, name=names, text=words), max_size=3))),
        "homebrew_rules": tuple(draw(st.lists(st.builds(AttachedRule, rule=st.sampled_from(
            ("exploitable-weakness", "swarm")), values=st.just((("value", 3), ("damage_type", "fire")))),
            max_size=1))),
        "size": draw(st.just("") | st.sampled_from(("1M", "large", "2"))),
        "speed": draw(st.just("") | st.sampled_from(("5", "6 (fly)", "fast"))),
        "stability": draw(st.just("") | st.sampled_from(("0", "2", "none"))),
        "signature_name": draw(st.just("") | words),
        "signature_text": draw(st.just("") | words),
    })
