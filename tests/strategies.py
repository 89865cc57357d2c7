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


# The strategies a composite draws from are built once, here, not inside it: one built on every draw is
# validated on every draw, which was a good part of the generation time (the examples drawn are the same).
damage_counts, damage_amounts = st.integers(0, 2), st.integers(1, 40)
damage_types = st.lists(st.sampled_from(DAMAGE_TYPES), max_size=2, unique=True)
potencies = st.none() | st.builds(Potency, characteristic=characteristic, value=st.integers(-5, 6))
maybe_text = st.just("") | text


@st.composite
def tiers(draw) -> Tier:
    damages = tuple(Damage(amount=draw(damage_amounts), types=draw(damage_types))
                    for _ in range(draw(damage_counts)))
    potency = draw(potencies)
    effect = draw(maybe_text) if damages else draw(text)
    return Tier(damages=damages, potency=potency, effect=effect)


effects = st.builds(Effect, name=st.none() | label, text=text,
                    malice=st.none() | st.integers(1, 6), malice_plus=st.booleans(),
                    tiers=st.none() | st.tuples(tiers(), tiers(), tiers()))


distance_kinds = st.sampled_from(("melee", "ranged", "melee or ranged", "burst", "aura", "cube", "line", "wall",
                                  "self", "special", None))
distance_numbers = st.integers(1, 20)


@st.composite
def distances(draw) -> Distance | None:
    kind = draw(distance_kinds)
    if kind is None:
        return None
    number = distance_numbers
    needs = {"melee or ranged": ("value", "value2"), "cube": ("value", "within"), "wall": ("value", "within"),
             "line": ("value", "value2", "within"), "self": (), "special": ()}.get(kind, ("value",))
    return Distance(kind=kind, **{n: draw(number) for n in needs})


power_rolls = st.none() | st.builds(PowerRoll, characteristics=st.lists(characteristic, max_size=2, unique=True),
                                    bonus=st.integers(-5, 6), tier1=tiers(), tier2=tiers(), tier3=tiers())
costs = st.sampled_from(("signature", "villain 1", "villain 2", "villain 3", None)) | st.integers(1, 9)
actions = st.sampled_from((None, "main action", "maneuver", "free maneuver", "move action", "triggered action",
                           "free triggered action", "no action"))
ability_keywords = st.lists(st.sampled_from(ABILITY_KEYWORDS), max_size=4, unique=True)
ability_distances = distances()
targets = st.none() | st.builds(Target, text=st.sampled_from(
    ("One creature", "Two creatures or objects", "Each enemy in the area", "Self", "One ally")))
effect_lists = st.lists(effects, max_size=2)


@st.composite
def abilities(draw) -> Ability:
    roll = draw(power_rolls)
    return Ability(
        name=draw(name), flavour=draw(maybe_text),
        cost=draw(costs),
        action=draw(actions),
        keywords=draw(ability_keywords),
        distance=draw(ability_distances),
        target=draw(targets),
        trigger=draw(maybe_text),
        effects_before=tuple(draw(effect_lists)),
        power_roll=roll,
        effects_after=tuple(draw(effect_lists)),
    )


traits = st.builds(Trait, name=name, text=text) | st.builds(
    lambda n, e: Trait(name=n, effects=tuple(e)), name, st.lists(effects, min_size=1, max_size=3))


combinations = st.sampled_from(ref.combinations())
levels, scores = st.integers(1, 20), st.integers(-5, 6)
sizes = st.sampled_from(("1T", "1S", "1M", "1L", "2", "3", "4"))
modifiers = st.lists(st.builds(DamageModifier, type=st.sampled_from(("all", *DAMAGE_TYPES)), value=st.integers(1, 10)),
                     max_size=2, unique_by=lambda m: m.type)
monster_keywords = st.lists(st.sampled_from(("Goblin", "Humanoid", "Undead", "Fey", "Beast")), max_size=3, unique=True)
evs, staminas, free_strikes = st.integers(1, 200), st.integers(1, 900), st.integers(1, 20)
movements = st.none() | st.builds(Movement, speed=st.integers(0, 12), modes=st.lists(
    st.sampled_from(MOVEMENT_MODES), max_size=3, unique=True).map(tuple))
stability_values = st.none() | st.integers(0, 6)
ability_lists = st.lists(abilities(), max_size=4)
trait_lists = st.lists(traits, max_size=3)
homebrew_rules = st.lists(st.builds(AttachedRule, rule=st.sampled_from(("exploitable-weakness", "swarm")),
                                    values=st.just((("value", 3), ("damage_type", "fire")))), max_size=1)
size_texts = st.just("") | st.sampled_from(("1M", "large", "2"))
speed_texts = st.just("") | st.sampled_from(("5", "6 (fly)", "fast"))
stability_texts = st.just("") | st.sampled_from(("0", "2", "none"))


@st.composite
def monsters(draw, words: st.SearchStrategy[str] = text, names: st.SearchStrategy[str] = name) -> wb.Monster:
    """A whole monster: the formulas' numbers for any organization, role, level 1-20, extra Stamina and
    target count the rules cover, then every stat block part drawn (numbers that depart from the formulas
    included). `words` and `names` draw its texts: the book's kind of words by default, any text when a test
    is about storing text exactly."""
    organization, role = draw(combinations)
    expected = ref.expected_targets(organization)
    base = wb.build_monster(level=draw(levels), organization=organization, role=role,
                            extra_stamina=draw(st.booleans()) and organization != "minion",
                            targets=draw(st.integers(max(1, expected - 1), expected + 3)))
    known = draw(st.booleans())
    size = draw(sizes)
    return base.model_copy(update={
        "name": draw(st.just("") | names),
        "keywords": tuple(draw(monster_keywords)),
        "ev": draw(evs),
        "stamina": draw(staminas),
        "free_strike": draw(free_strikes),
        "characteristics": Characteristics(**{c: draw(scores) if known else None for c in CHARACTERISTICS}),
        "size_class": draw(st.none() | st.just(Size.parse(size))),
        "movement": draw(movements),
        "stability_value": draw(stability_values),
        "immunities": tuple(draw(modifiers)),
        "weaknesses": tuple(draw(modifiers)),
        "with_captain": draw(st.just("") | words) if organization == "minion" else "",
        "abilities": tuple(draw(ability_lists)),
        "traits": tuple(draw(trait_lists)),
        "malice_features": tuple(draw(st.lists(st.builds(Trait, name=names, text=words, cost=st.integers(1, 10)),
                                               max_size=2))),
        "villain_actions": tuple(draw(st.lists(st.builds(Trait, name=names, text=words), max_size=3))),
        "homebrew_rules": tuple(draw(homebrew_rules)),
        "size": draw(size_texts),
        "speed": draw(speed_texts),
        "stability": draw(stability_texts),
        "signature_name": draw(st.just("") | words),
        "signature_text": draw(st.just("") | words),
    })
