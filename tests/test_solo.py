"""Instant solo creatures ("Instant Solo Creature"), checked against an independent integer computation.

Expected numbers come from the rules' tables, recomputed here in integer arithmetic:
  EV      = (2 × level + 4) × 2           (Organization Modifier Table: Leader x 2, Elite x 2)
  Stamina = (10 × level + role) × 2        (Role and Damage Modifier Table; leader row +30)
            + (3 × level + 3) with extra Stamina
  Instant solo: "Multiply their EV by 3." "Multiply their Stamina by 2.5." -> ceil(stamina × 5 / 2).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import workbench as wb
from workbench.errors import InvalidInput
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.model import Trait
from workbench.monster.solo import (
    can_become_solo,
    compare_solos,
    explain_instant_solo,
    instant_solo,
    is_instant_solo,
    is_solo,
    solo_drift,
    solo_source_organizations,
    solo_sources,
    without_instant_solo,
)
from workbench.monster.villain_action import (
    has_villain_actions,
    villain_action_rules,
    villain_action_slots,
    villain_action_summary,
    with_villain_actions,
)

# Role and Damage Modifier Table, "Role Modifier" column (monster-basics.txt).
ROLE_STAMINA = {
    "ambusher": 20,  # Ambusher +20
    "artillery": 10,  # Artillery +10
    "brute": 30,  # Brute +30
    "controller": 10,  # Controller +10
    "defender": 30,  # Defender +30
    "harrier": 20,  # Harrier +20
    "hexer": 10,  # Hexer +10
    "mount": 20,  # Mount +20
    "support": 20,  # Support +20
    None: 30,  # Leader +30 (a leader has no role)
}
LEVELS = range(1, 21)
SOURCES = [("leader", None)] + [("elite", role) for role in ROLE_STAMINA if role is not None]


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def expected_instant(level: int, role: str | None, extra: bool) -> tuple[int, int]:
    ev = (2 * level + 4) * 2
    stamina = (10 * level + ROLE_STAMINA[role]) * 2 + ((3 * level + 3) if extra else 0)
    return ev * 3, ceil_div(stamina * 5, 2)


def test_instant_solo_numbers_every_level_and_role():
    """Every level, source and Extra Stamina choice: one formula, so one test that names each disagreement."""
    disagreements = []
    for level in LEVELS:
        for organization, role in SOURCES:
            for extra in (False, True):
                solo = instant_solo(wb.build_monster(level, organization, role, extra_stamina=extra))
                if (solo.ev, solo.stamina) != expected_instant(level, role, extra):
                    disagreements.append((level, organization, role, extra, solo.ev, solo.stamina))
    assert disagreements == []


@pytest.mark.parametrize(
    ("level", "organization", "role", "extra", "ev", "stamina"),
    [
        # level 5 leader: EV (2×5+4)×2 = 28 -> 84; Stamina (50+30)×2 = 160 -> 400
        (5, "leader", None, False, 84, 400),
        # level 1 elite hexer: EV 12 -> 36; Stamina (10+10)×2 = 40 -> 100
        (1, "elite", "hexer", False, 36, 100),
        # level 2 elite brute with extra Stamina: (20+30)×2 + 9 = 109 -> 272.5, rounded up to 273
        (2, "elite", "brute", True, 48, 273),
        # level 3 leader with extra Stamina: (30+30)×2 + 12 = 132 -> 330 exactly
        (3, "leader", None, True, 60, 330),
        # level 4 elite artillery with extra Stamina: (40+10)×2 + 15 = 115 -> 287.5 -> 288
        (4, "elite", "artillery", True, 72, 288),
    ],
)
def test_instant_solo_hand_worked(level, organization, role, extra, ev, stamina):
    solo = instant_solo(wb.build_monster(level, organization, role, extra_stamina=extra))
    assert (solo.ev, solo.stamina) == (ev, stamina)


@given(
    level=st.integers(1, 30),
    source=st.sampled_from(SOURCES),
    extra=st.booleans(),
    targets=st.integers(1, 6),
)
def test_other_numbers_unchanged_and_original_untouched(level, source, extra, targets):
    organization, role = source
    monster = wb.build_monster(level, organization, role, extra_stamina=extra, targets=targets)
    before = monster.model_dump()
    solo = instant_solo(monster)
    assert monster.model_dump() == before  # the original is untouched
    assert solo is not monster
    after = solo.model_dump()
    changed = {k for k in after if after[k] != before[k]}
    assert changed == {"ev", "stamina", "traits", "malice_features"}
    assert solo.organization == organization and solo.role == role
    assert solo.rules is monster.rules
    assert is_instant_solo(solo) and not is_instant_solo(monster)


def test_gains_the_books_traits_and_feature():
    leader = wb.build_monster(5, "leader").model_copy(
        update={"traits": (Trait(name="Crafty", text="Sneaky."),)}
    )
    solo = instant_solo(leader)
    assert [t.name for t in solo.traits] == ["Crafty", "Solo Turns", "End Effect"]
    # "Solo Turns The creature can take two turns each round. They can't take turns consecutively."
    assert solo.traits[1].text == (
        "The creature can take two turns each round. They can't take turns consecutively."
    )
    # "End Effect At the end of each of their turns, the creature can take 10 damage ..."
    assert solo.traits[2].text.startswith("At the end of each of their turns, the creature can take 10 damage")
    # "Solo Action (5 Malice)"
    assert [(f.name, f.cost) for f in solo.malice_features] == [("Solo Action", 5)]


def test_end_effect_only_if_missing():
    own = Trait(name="End Effect", text="At the end of each of their turns, the creature can take 5 damage.")
    elite = wb.build_monster(3, "elite", "brute").model_copy(update={"traits": (own,)})
    solo = instant_solo(elite)
    # "Give them the following trait if they don't already have it": its own End Effect is kept
    assert [t.name for t in solo.traits] == ["End Effect", "Solo Turns"]
    assert solo.traits[0] == own


@pytest.mark.parametrize(
    ("organization", "role", "reason"),
    [
        ("minion", "brute", "not a minion"),  # only leaders and elites
        ("horde", "hexer", "not a horde"),
        ("platoon", "defender", "not a platoon"),
        ("solo", None, "already a solo"),  # a solo needs no adapting
    ],
)
def test_refuses_other_organizations(organization, role, reason):
    monster = wb.build_monster(4, organization, role)
    with pytest.raises(InvalidInput) as info:
        instant_solo(monster)
    assert info.value.code == "invalid-organization"
    assert reason in str(info.value)
    assert "leader or an elite" in info.value.accepts


def test_refuses_an_instant_solo_twice():
    solo = instant_solo(wb.build_monster(4, "leader"))
    with pytest.raises(InvalidInput) as info:
        instant_solo(solo)
    assert info.value.code == "invalid-monster"
    assert "already" in str(info.value)


@pytest.mark.parametrize("bad", [None, "leader", {"level": 5, "organization": "leader"}])
def test_refuses_a_non_monster(bad):
    with pytest.raises(InvalidInput) as info:
        instant_solo(bad)
    assert info.value.code == "invalid-monster"


def test_source_organizations():
    # "Most leaders and elite creatures can be adapted into a solo creature"
    assert set(solo_source_organizations()) == {"leader", "elite"}


def test_public_api():
    assert wb.instant_solo is instant_solo


# ---------------------------------------------------------------- the working


def test_explain_instant_solo_shows_the_working():
    solo = instant_solo(wb.build_monster(5, "leader"))
    steps = {s.quantity: s for s in explain_instant_solo(solo)}
    # leader EV (2 × 5 + 4) × 2 = 28; × 3 = 84
    assert str(steps["EV"]) == "EV = ⌈28 × 3⌉ = 84"
    # leader Stamina (10 × 5 + 30) × 2 = 160; × 2.5 = 400
    assert str(steps["Stamina"]) == "Stamina = ⌈160 × 2.5⌉ = 400"
    assert steps["EV"].section == "Instant Solo Creature"
    assert "⌈(2 × 5 + 4) × 2⌉ = 28" in steps["EV"].reading
    # the same steps from the leader itself
    assert explain_instant_solo(wb.build_monster(5, "leader")) == explain_instant_solo(solo)


@given(level=st.integers(1, 20), source=st.sampled_from(SOURCES), extra=st.booleans())
def test_explain_values_match_the_monster(level, source, extra):
    solo = instant_solo(wb.build_monster(level, *source, extra_stamina=extra))
    steps = {s.quantity: s.value for s in explain_instant_solo(solo)}
    assert (steps["EV"], steps["Stamina"], steps["Free strike"]) == (solo.ev, solo.stamina, solo.free_strike)


# ---------------------------------------------------------------- beside a built solo


def test_leader_beside_built_solo_level_5():
    rows = {r.quantity: r for r in compare_solos(wb.build_monster(5, "leader")).rows}
    # EV: leader 28 × 3 = 84; solo (2 × 5 + 4) × 6 = 84
    assert (rows["EV"].instant, rows["EV"].built) == (84, 84)
    # Stamina: 160 × 2.5 = 400; solo (50 + 30) × 5 = 400
    assert (rows["Stamina"].instant, rows["Stamina"].built) == (400, 400)
    # tier 1 strike: leader ⌈(4 + 5 + 1) × 0.6⌉ + 4 = 10; solo ⌈(4 + 5 + 2) × 0.6⌉ + 4 = ⌈6.6⌉ + 4 = 11
    assert (rows["Damage, tier 1"].instant, rows["Damage, tier 1"].built) == (10, 11)
    assert rows["Damage, tier 1"].difference == 1
    assert "damage modifier +1" in rows["Damage, tier 1"].why and "+2" in rows["Damage, tier 1"].why
    assert "both 84" in rows["EV"].why


def test_elite_artillery_has_less_stamina_than_built_solo():
    comparison = compare_solos(wb.build_monster(5, "elite", "artillery"))
    rows = {r.quantity: r for r in comparison.rows}
    # instant: (50 + 10) × 2 × 2.5 = 300; built: (50 + 30) × 5 = 400
    assert (rows["Stamina"].instant, rows["Stamina"].built) == (300, 400)
    assert "100 more" in rows["Stamina"].why and "gap of 20" in rows["Stamina"].why
    # elite highest characteristic 1 + 2 = 3; solo 1 + 2 + 1 = 4
    assert (rows["Highest characteristic"].instant, rows["Highest characteristic"].built) == (3, 4)
    assert any(note.startswith("Stamina: the built solo has 100 more") for note in comparison.notes)


def test_built_solo_strikes_as_many_targets_as_the_instant_solo():
    comparison = compare_solos(wb.build_monster(5, "leader", targets=4))
    assert comparison.built.targets == comparison.instant.targets == 4
    rows = {r.quantity: r for r in comparison.rows}
    # two more targets than expected: × 0.5. Leader ⌈(4 + 5 + 1) × 0.6 × 0.5⌉ + 4 = 3 + 4 = 7;
    # solo ⌈(4 + 5 + 2) × 0.6 × 0.5⌉ + 4 = ⌈3.3⌉ + 4 = 8
    assert (rows["Damage, tier 1"].instant, rows["Damage, tier 1"].built) == (7, 8)
    # tier 3: leader ⌈10 × 1.4 × 0.5⌉ + 4 = 11; solo ⌈11 × 1.4 × 0.5⌉ + 4 = ⌈7.7⌉ + 4 = 12
    assert (rows["Damage, tier 3"].instant, rows["Damage, tier 3"].built) == (11, 12)


@pytest.mark.parametrize(("organization", "role"), SOURCES)
def test_drift_across_levels(organization, role):
    drift = solo_drift(organization, role)
    assert [c.source.level for c in drift] == list(range(1, 11))
    for c in drift:
        level = c.source.level
        ev, stamina = expected_instant(level, role, False)
        assert (c.instant.ev, c.instant.stamina) == (ev, stamina)
        # a built solo: EV (2L + 4) × 6, Stamina (10L + 30) × 5
        assert (c.built.ev, c.built.stamina) == ((2 * level + 4) * 6, (10 * level + 30) * 5)
        # EV always agrees: × 2 × 3 = × 6
        assert c.rows[0].difference == 0
        # Stamina gap: (30 − role modifier) × 5 at every level
        assert c.rows[1].difference == (30 - ROLE_STAMINA[role]) * 5


def test_drift_refuses_no_levels():
    with pytest.raises(InvalidInput):
        solo_drift("leader", levels=[])


# ---------------------------------------------------------------- villain actions


@pytest.mark.parametrize(
    ("organization", "role", "has"),
    [
        ("leader", None, True),  # "The solo and leader creatures ... have special abilities called villain actions"
        ("solo", None, True),
        ("elite", "brute", False),
        ("platoon", "harrier", False),
        ("minion", "artillery", False),
    ],
)
def test_who_has_villain_actions(organization, role, has):
    assert has_villain_actions(wb.build_monster(2, organization, role)) is has


def test_instant_solo_from_an_elite_offers_villain_slots():
    assert has_villain_actions(instant_solo(wb.build_monster(2, "elite", "brute")))


def test_three_slots_in_order_and_filled_by_homebrewer():
    leader = wb.build_monster(3, "leader")
    empty = villain_action_slots(leader)
    # "The first villain action is an opener", "The second villain action provides crowd control",
    # "The third and final villain action is an ultimate move"
    assert [f.slot.key for f in empty] == ["opener", "crowd_control", "ultimate"]
    assert all(f.action is None for f in empty)
    ult = Trait(name="Skyfall", text="Rocks fall.")
    written = with_villain_actions(leader, ultimate=ult)
    slots = villain_action_slots(written)
    assert [f.action for f in slots] == [None, None, ult]
    assert leader.villain_actions == ()  # the original is untouched
    again = with_villain_actions(written, opener=("Rally", "Allies shift 2."))
    assert [f.action.name if f.action else None for f in villain_action_slots(again)] == [
        "Rally",
        None,
        "Skyfall",
    ]
    cleared = with_villain_actions(again, ultimate=None)
    assert [f.action.name if f.action else None for f in villain_action_slots(cleared)] == ["Rally", None, None]
    assert len(cleared.villain_actions) == 1


def test_villain_action_refusals():
    with pytest.raises(InvalidInput) as info:
        with_villain_actions(wb.build_monster(3, "platoon", "brute"), opener=("A", "B"))
    assert info.value.code == "invalid-organization"
    with pytest.raises(InvalidInput) as info:
        with_villain_actions(wb.build_monster(3, "leader"), finale=("A", "B"))
    assert info.value.code == "invalid-slot"
    with pytest.raises(InvalidInput) as info:
        with_villain_actions(wb.build_monster(3, "leader"), opener="just a string")
    assert info.value.code == "invalid-opener"
    four = wb.build_monster(3, "leader").model_copy(
        update={"villain_actions": tuple(Trait(name=str(i), text="x") for i in range(4))}
    )
    with pytest.raises(InvalidInput) as info:
        villain_action_slots(four)
    assert info.value.code == "invalid-villain-actions"


def test_villain_action_rules_text():
    rules = " ".join(villain_action_rules())
    # "Each villain action can be used only once per encounter, and no more than one villain action can
    # be used per round." / "A creature can use a villain action at the end of any other creature's turn"
    assert "only once per encounter" in rules
    assert "no more than one villain action can be used per round" in rules
    assert "at the end of any other creature's turn" in rules
    summary = villain_action_summary()
    assert "once per encounter" in summary and "one per round" in summary


def test_rebuilt_from_inputs_is_not_called_an_instant_solo_and_can_be_adapted_again():
    leader = wb.build_monster(6, "leader")
    solo = instant_solo(leader)
    # what a library load does: the formulas' numbers for the inputs, plus the saved text fields
    rebuilt = leader.model_copy(update={"traits": solo.traits, "malice_features": solo.malice_features})
    assert not is_instant_solo(rebuilt)  # leader numbers: EV (2 × 6 + 4) × 2 = 32, not 96
    again = instant_solo(rebuilt)
    assert again == solo  # EV 96, Stamina (60 + 30) × 2 × 2.5 = 450, no trait or feature doubled
    assert (again.ev, again.stamina) == (96, 450)


def test_a_hand_written_solo_turns_trait_alone_does_not_make_an_instant_solo():
    mine = Trait(name="Solo Turns", text="My own wording.")
    leader = wb.build_monster(2, "leader").model_copy(update={"traits": (mine,)})
    assert not is_instant_solo(leader)
    solo = instant_solo(leader)
    assert [t.name for t in solo.traits] == ["Solo Turns", "End Effect"] and solo.traits[0] == mine


# ---------------------------------------------------------------- saved to the homebrew library and loaded back


@pytest.mark.parametrize(
    ("level", "organization", "role", "extra", "ev", "stamina"),
    [
        # level 5 leader: EV (2 × 5 + 4) × 2 = 28 × 3 = 84; Stamina (50 + 30) × 2 = 160 × 2.5 = 400
        (5, "leader", None, False, 84, 400),
        # level 2 elite brute, extra Stamina: EV 16 × 3 = 48; ((20 + 30) × 2 + 9) × 2.5 = 272.5 -> 273
        (2, "elite", "brute", True, 48, 273),
        # level 7 elite hexer: EV (14 + 4) × 2 × 3 = 108; (70 + 10) × 2 × 2.5 = 400
        (7, "elite", "hexer", False, 108, 400),
    ],
)
def test_instant_solo_saved_and_loaded_is_the_same_instant_solo(tmp_path, level, organization, role, extra,
                                                                ev, stamina):
    from workbench.monster.library import load_entry, load_library, save_monster

    source = wb.build_monster(level, organization, role, extra_stamina=extra).model_copy(
        update={"name": "Warlord", "traits": (Trait(name="Crafty", text="Sneaky."),)}
    )
    solo = with_villain_actions(instant_solo(source), opener=("Rally", "Allies shift 2."))
    save_monster(solo, folder=tmp_path)
    entry = load_entry("Warlord", folder=tmp_path)
    loaded = entry.monster
    assert (loaded.ev, loaded.stamina) == (ev, stamina)
    # traits and the feature once each: "Give them the following trait" / "Malice feature", not twice
    assert [t.name for t in loaded.traits] == ["Crafty", "Solo Turns", "End Effect"]
    assert [f.name for f in loaded.malice_features] == ["Solo Action"]
    assert loaded == solo and is_instant_solo(loaded)
    assert entry.changed == ()  # the saved numbers are the loaded ones
    assert load_library(tmp_path)["Warlord"] == solo  # what the encounter app loads


def test_loaded_instant_solo_follows_a_changed_ruleset(tmp_path):
    from workbench.monster.library import load_entry, save_monster

    save_monster(instant_solo(wb.build_monster(5, "leader")), "Boss", tmp_path)
    variant = wb.core_ruleset().updated({"organizations": {"leader": {"stamina_modifier": 3}}})
    entry = load_entry("Boss", tmp_path, variant)
    # leader Stamina with a modifier of 3: (50 + 30) × 3 = 240, × 2.5 = 600 (core: 160 × 2.5 = 400)
    assert (entry.monster.ev, entry.monster.stamina) == (84, 600)
    assert entry.changed == ("stamina",) and is_instant_solo(entry.monster)


def test_a_leader_with_the_solo_text_by_hand_loads_as_a_leader(tmp_path):
    from workbench.monster.library import load_monster, save_monster

    solo = instant_solo(wb.build_monster(3, "leader"))
    # the text of an instant solo on a leader's numbers: EV (2 × 3 + 4) × 2 = 20, Stamina (30 + 30) × 2 = 120
    by_hand = wb.build_monster(3, "leader").model_copy(
        update={"traits": solo.traits, "malice_features": solo.malice_features}
    )
    save_monster(by_hand, "Captain", tmp_path)
    loaded = load_monster("Captain", tmp_path)
    assert (loaded.ev, loaded.stamina) == (20, 120) and not is_instant_solo(loaded)


@pytest.mark.parametrize("bad", ["84", 84.0, None, True])
def test_restore_instant_solo_refuses_saved_numbers_that_are_not_whole_numbers(bad):
    from workbench.monster.solo import restore_instant_solo

    with pytest.raises(InvalidInput) as info:
        restore_instant_solo(wb.build_monster(5, "leader"), bad, 400)
    assert info.value.code == "invalid-saved-ev"


@pytest.mark.parametrize(
    ("organization", "can"),
    [("leader", True), ("elite", True), ("platoon", False), ("minion", False), ("solo", False)],
)
def test_can_become_solo_only_leaders_and_elites(organization, can):
    # "Instant Solo Creature" adapts a leader or an elite
    assert can_become_solo(organization) is can


def test_without_instant_solo_undoes_instant_solo_and_keeps_own_text():
    own = Trait(name="Grudge", text="The chief never forgets.")
    leader = wb.build_monster(5, "leader").model_copy(update={"name": "Chief", "traits": (own,)})
    solo = instant_solo(leader)
    back = without_instant_solo(solo)
    assert (back.ev, back.stamina) == (leader.ev, leader.stamina)
    assert back.traits == (own,) and back.malice_features == leader.malice_features
    assert back.name == "Chief"
    assert instant_solo(back) == solo  # applying it again gives the same instant solo


def test_without_instant_solo_leaves_other_monsters_alone():
    elite = wb.build_monster(3, "elite", "brute")
    assert without_instant_solo(elite) is elite


# ---------------------------------------------------------------- a whole monster, its own numbers


def test_a_published_elite_adapted_is_an_instant_solo_of_its_printed_numbers_and_not_adapted_twice():
    sample = sample_bestiary()
    printed = sample.named("Bugbear Roughneck")  # a level 2 elite brute printed with Stamina 109, EV 16
    roughneck = whole_stat_block(sample, printed)
    assert printed.stamina != wb.build_monster(2, "elite", "brute").stamina  # the formulas give 100
    solo = instant_solo(roughneck)
    # "Multiply their EV by 3." "Multiply their Stamina by 2.5." (rounded up) of its own numbers
    assert (solo.ev, solo.stamina) == (printed.ev * 3, -(-printed.stamina * 5 // 2)) == (48, 273)
    assert is_instant_solo(solo) and not is_instant_solo(roughneck) and is_solo(solo)
    with pytest.raises(InvalidInput, match="already"):
        instant_solo(solo)
    runner, monarch = whole_stat_block(sample, sample.named("Goblin Runner")), wb.build_monster(1, "leader")
    assert solo_sources([roughneck, solo, runner, wb.build_monster(3, "solo"), monarch, roughneck]) == (
        roughneck, monarch)


def test_a_published_monster_made_a_solo_and_back_is_its_printed_stat_block_again():
    # the builder's "instant solo" box ticked, then cleared: the printed numbers come back, not the formulas'
    sample = sample_bestiary()
    sources = solo_sources(whole_stat_block(sample, printed) for printed in sample.monsters)
    assert len(sources) >= 10  # the sample's leaders and elites
    roughneck = whole_stat_block(sample, sample.named("Bugbear Roughneck"))
    back = without_instant_solo(instant_solo(roughneck))
    assert (back.ev, back.stamina) == (16, 109)  # as printed; the formulas give 100 Stamina
    for monster in sources:
        assert without_instant_solo(instant_solo(monster)) == monster, monster.name


def test_an_instant_solos_numbers_typed_over_by_hand_fall_back_to_the_formulas_when_nothing_gave_them():
    leader = wb.build_monster(5, "leader")
    solo = instant_solo(leader)
    # no whole Stamina x has ⌈x × 2.5⌉ = 274 (109 gives 273, 110 gives 275); an EV not a multiple of 3 likewise
    typed = solo.model_copy(update={"stamina": 274, "ev": solo.ev + 1})
    assert is_instant_solo(typed)
    back = without_instant_solo(typed)
    assert (back.ev, back.stamina) == (leader.ev, leader.stamina)


@given(st.integers(min_value=1, max_value=10_000), st.integers(min_value=1, max_value=1_000),
       st.sampled_from(["leader", "elite"]))
def test_undoing_an_instant_solo_finds_every_number_it_was_made_from(stamina, ev, organization):
    # a stat block of its own numbers: instant_solo adapts those, and without_instant_solo finds them again
    built = wb.build_monster(4, "leader") if organization == "leader" else wb.build_monster(4, "elite", "brute")
    monster = built.model_copy(update={"stamina": stamina, "ev": ev})
    back = without_instant_solo(instant_solo(monster))
    assert (back.ev, back.stamina) == (ev, stamina)
