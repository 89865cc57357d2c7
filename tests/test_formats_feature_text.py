"""A trait's words as the builder's text box shows them, and read back by the pasted stat block's reader: every
published trait comes back whole, and a price, a name or a test's tiers typed into the words are structured."""

from __future__ import annotations

from pathlib import Path

import pytest

import workbench as wb
from workbench.errors import InvalidInput
from workbench.formats.book_text import parse_feature_text
from workbench.formats.feature_text import feature_text, trait_with_text
from workbench.model import Effect, Tier, Trait

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = [*sorted((ROOT / "data" / "bestiary-sample").rglob("*.json")),
             *sorted((Path(__file__).parent / "data" / "real_shapes").glob("sc-*.json"))]
TRAITS = [(path.stem, trait) for path in PUBLISHED for monster in [wb.read_stat_block(path)]
          for trait in (*monster.traits, *monster.malice_features, *monster.villain_actions)]

GALE = Trait.of_effects("Howling Gale", [
    Effect(text="Each enemy within 3 squares makes an Agility test.",
           tiers=("5 damage; A < 1 slowed (save ends)", "3 damage; slowed (EoT)", "no effect")),
    Effect(malice=2, malice_plus=True, text="The gale lasts a round longer for each 2 Malice spent"),
    Effect(text="Allies are not affected."),
    Effect(name="End Effect", text="The gale ends."),
], cost=3)


def test_every_published_trait_reads_back_from_its_words_unchanged():
    """Editing nothing changes nothing: the words the box shows read back to the same trait, for every trait,
    Malice feature and villain action of the sample and of the real shapes."""
    assert len(TRAITS) > 70 and any(len(t.effects) > 1 for _, t in TRAITS)
    changed = [f"{stem}: {t.name}" for stem, t in TRAITS if trait_with_text(t, feature_text(t)) != t]
    assert changed == []


def test_prices_names_and_tiers_are_written_one_a_line_and_read_back():
    words = feature_text(GALE)
    assert words.splitlines() == [
        "Each enemy within 3 squares makes an Agility test.",
        "≤11: 5 damage; A < 1 slowed (save ends)", "12–16: 3 damage; slowed (EoT)", "17+: no effect",
        "2+ Malice: The gale lasts a round longer for each 2 Malice spent",
        "",  # else the next plain line is read as this paragraph broken over two lines
        "Allies are not affected.",
        "End Effect: The gale ends.",
    ]
    assert trait_with_text(GALE, words) == GALE
    assert GALE.effects[0].tiers is not None and GALE.effects[0].tiers[0].potency is not None


def test_words_typed_into_a_plain_trait_are_structured_as_the_book_prints_them():
    plain = Trait(name="Grave Hunger", text="The werewolf feeds.")
    typed = "The werewolf feeds.\n5 Malice: It regains 10 Stamina.\nEnd Effect: It stops feeding."
    assert trait_with_text(plain, typed) == Trait.of_effects("Grave Hunger", [
        Effect(text="The werewolf feeds."), Effect(malice=5, text="It regains 10 Stamina."),
        Effect(name="End Effect", text="It stops feeding.")])
    tested = trait_with_text(plain, "Each enemy makes a Might test.\n≤11 prone\n12-16: slowed\n17+: no effect")
    (test,) = tested.effects
    assert test.tiers == (Tier(effect="prone"), Tier(effect="slowed"), Tier(effect="no effect"))


def test_plain_words_stay_plain_and_exactly_as_typed():
    plain = Trait(name="Crafty", text="Old words.", cost=None)
    assert trait_with_text(plain, "  No opportunity  attacks.\n") == Trait(name="Crafty", text="No opportunity  attacks.")
    published = Trait.of_effects("Crafty", [Effect(text="Old words.")])
    assert trait_with_text(published, "New words.") == Trait.of_effects("Crafty", [Effect(text="New words.")])
    assert trait_with_text(published, "  ") == Trait.of_effects("Crafty", [Effect(text="")])  # still paragraphs
    assert trait_with_text(plain, "") == Trait(name="Crafty", text="")
    costly = Trait.of_effects("Spite", [Effect(text="Shove.")], cost=3)
    assert trait_with_text(costly, "Shove 2.").cost == 3


def test_a_trigger_and_a_power_roll_in_a_traits_words_are_kept_as_paragraphs():
    trait = parse_feature_text("Reflex", "Trigger: A creature moves adjacent.\nPower Roll + 2:\n≤11: 2 damage\n"
                                         "12-16: 4 damage\n17+: 6 damage")
    assert [e.name for e in trait.effects] == ["Trigger", None]
    assert trait.effects[0].text == "A creature moves adjacent."
    assert trait.effects[1].text == "Power Roll + 2" and trait.effects[1].tiers is not None
    assert [t.damage for t in trait.effects[1].tiers] == [2, 4, 6]


@pytest.mark.parametrize("words, reason", [
    ("17+: the werewolf regains 10 Stamina.", "“17+: the werewolf regains 10 Stamina.” is a tier"),
    ("Power Roll + 2:", "a power roll with no tiers"),
    ("A test.\n≤11: 5 damage; M < 9 prone\n12-16: 3 damage\n17+: none",
     "tier 1 “5 damage; M < 9 prone”: potency.value: got 9"),
    ("A test.\n12-16: 3 damage\n17+: none", "the test under “A test.” has only 12-16, 17+"),
])
def test_words_the_reader_has_no_place_for_are_refused_naming_the_text(words, reason):
    with pytest.raises(InvalidInput) as caught:
        parse_feature_text("Gale", words)
    assert caught.value.field == "text" and reason in str(caught.value)


def test_text_that_is_no_text_or_too_long_is_refused():
    with pytest.raises(InvalidInput, match="text"):
        parse_feature_text("Gale", 5)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="longer than"):
        parse_feature_text("Gale", "x" * 100_001)
