"""The adventure: encounters met in order, Victories piling up between respites, each Victory raising the
encounter strength and the Malice the monsters start with (workbench.encounter.adventure)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

import workbench as wb
from workbench.encounter.adventure import (
    MALICE_RULE,
    SOLO_RULE,
    Adventure,
    adventure_of,
    load_adventure,
    plan,
    save_adventure,
)
from workbench.encounter.encounter import Encounter
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.rules.ruleset import DATA_DIR

RULES_TEXT = " ".join((DATA_DIR / "rules" / "monster-basics.txt").read_text(encoding="utf-8").split())


def party(heroes=5, level=3, victories=0):
    return make_party(heroes=heroes, level=level, victories=victories)


def fight(spec, name="", victories=0, **kw):
    return Encounter(name=name, party=party(victories=victories, **kw)).adding(*spec)


# Five level 3 heroes: one hero's ES is 4 + 2 × 3 = 10, the party's 50. Seven platoon brutes (EV 10 each) are 70:
# hard against 50 (standard ends at 60, hard at 80), standard against 70 (ES with 4 Victories: 50 + 2 × 10).
HARD_AT_0 = ("7 x level 3 platoon brute",)
# Four brutes (40) are easy against 50, worth 1 Victory.
EASY = ("4 x level 3 platoon brute",)


def test_the_public_name_plans_saves_and_loads(tmp_path):
    assert wb.Adventure is Adventure
    day = adventure_of([fight(HARD_AT_0), fight(EASY)], name="Short day")
    assert day.plan() == plan(day)
    path = day.save(tmp_path / "short.json")
    assert wb.Adventure.load(path) == day


def test_factor_in_victories_worked_example():
    """"if a party of 3rd-level heroes has 2 or 3 Victories each, increase the ES by 10. If they have 6
    Victories each, increase the ES by 30." Each hard encounter is worth 2, each easy one 1; the strength
    each encounter is met with grows with the Victories behind it."""
    heroes = 5
    base = heroes * (4 + 2 * 3)
    # Each fight is met at the Victories before it; its band there sets what it is worth. At 0 (ES 50) 70 EV is
    # hard: 2. At 2 (ES 60) 50 EV is easy: 1. At 3 (ES 60) 80 EV is hard: 2. At 5 (ES 70) 60 EV is easy: 1.
    brutes = [(f"{n} x level 3 platoon brute",) for n in (7, 5, 8, 6, 4)]
    rows = plan(adventure_of([fight(s) for s in brutes])).encounters
    assert [r.victories for r in rows[:4]] == [2, 1, 2, 1]
    assert [r.arrival_victories for r in rows] == [0, 2, 3, 5, 6]
    increase = [r.encounter_strength - base for r in rows]
    assert increase == [0, 10, 10, 20, 30]


def test_malice_worked_example():
    """"if five heroes with three Victories each are just starting their first combat round, you begin that
    combat with 9 Malice-3 for the average number of Victories, 5 for the number of heroes, and 1 for the
    first round of combat." A hard Get the Thing (1 Victory) and a hard fight (2): the third is met with 3."""
    assert "equal to the average number of Victories per hero" in MALICE_RULE
    assert MALICE_RULE in RULES_TEXT
    get_the_thing = fight(HARD_AT_0).model_copy(update={"objectives": (choose_objective("get_the_thing"),)})
    # Get the Thing: "each hero earns 1 Victory if the encounter was easy, standard, or hard", so a hard one is 1
    day = adventure_of([get_the_thing, fight(HARD_AT_0), fight(EASY)])
    rows = plan(day).encounters
    assert [r.victories for r in rows[:2]] == [1, 2]
    third = rows[2]
    assert third.arrival_victories == 3
    assert third.starting_malice == 3
    assert third.first_round_malice == 9


def test_an_objective_sets_the_victories_carried():
    """The Victories an encounter adds are its objectives': with the no-damage bonus, Get the Thing is worth 2."""
    plain = fight(HARD_AT_0).model_copy(update={"objectives": (choose_objective("get_the_thing"),)})
    bonus = fight(HARD_AT_0).model_copy(update={"objectives": (choose_objective("get_the_thing", bonus=True),)})
    assert plan(adventure_of([plain, fight(EASY)])).encounters[1].arrival_victories == 1
    assert plan(adventure_of([bonus, fight(EASY)])).encounters[1].arrival_victories == 2


def test_hard_at_0_is_standard_at_4():
    """The issue's own case: "an encounter built as hard at 0 Victories may be standard at 4"."""
    built = fight(HARD_AT_0)
    assert report(built).difficulty == "hard"
    day = Adventure(party=party(victories=4), encounters=(built,))
    row = plan(day).encounters[0]
    assert (row.arrival_victories, row.encounter_strength, row.band, row.difficulty) == (4, 70, "standard",
                                                                                         "standard")
    assert row.built_difficulty == "hard" and row.drifted
    drift = [w for w in row.warnings if w.key == "drift"]
    assert len(drift) == 1
    # hard at ES 70 is above 80 up to 70 + 3 × 10 = 100
    assert "hard is 81 to 100 EV at 4 Victories" in drift[0].detail
    assert "two, four, and six Victories" in drift[0].rule


def test_no_drift_when_the_band_holds():
    day = adventure_of([fight(HARD_AT_0)])
    assert plan(day).encounters[0].warnings == ()


def test_a_respite_resets_the_victories():
    hard = fight(HARD_AT_0)
    day = adventure_of([hard, hard, hard]).with_respite(2)
    rows = plan(day).encounters
    assert [r.arrival_victories for r in rows] == [0, 2, 0]
    assert [r.respite_before for r in rows] == [False, False, True]
    assert rows[2].encounter_strength == 50 and rows[2].starting_malice == 0


def test_the_victories_carried_in_start_the_day_and_a_first_respite_clears_them():
    hard = fight(HARD_AT_0)
    carried = Adventure(party=party(victories=2), encounters=(hard,))
    assert plan(carried).encounters[0].arrival_victories == 2
    assert plan(carried.with_respite(0)).encounters[0].arrival_victories == 0


def test_more_than_six_victories_before_a_respite_is_warned():
    """"A group of heroes can generally handle from 4 to 6 Victories' worth of combat encounters before needing
    to stop for a respite": four easy fights of 1 after 3 carried in are 7, past the range."""
    # each easy where it is met: at 3, 4, 5 and 6 Victories the ES is 60 (easy 50 to 59), 70, 70, 80 (easy 70 to 79)
    easy = [fight((f"{n} x level 3 platoon brute",), victories=v) for n, v in ((5, 3), (6, 4), (6, 5), (7, 6))]
    day = Adventure(party=party(victories=3), encounters=tuple(easy))
    rows = plan(day).encounters
    assert [r.victories for r in rows] == [1, 1, 1, 1]
    assert [r.since_respite for r in rows] == [4, 5, 6, 7]
    keys = [[w.key for w in r.warnings] for r in rows]
    assert "respite" not in keys[0] + keys[1] + keys[2]
    assert "respite" in keys[3]
    warning = next(w for w in rows[3].warnings if w.key == "respite")
    assert "past 6" in warning.detail
    assert warning.rule.startswith("A group of heroes can generally handle from 4 to 6 Victories' worth")
    # a respite before the last clears it
    assert all(w.key != "respite" for r in plan(day.with_respite(3)).encounters for w in r.warnings)


def test_a_solo_met_early_is_warned_and_late_is_not():
    assert SOLO_RULE in RULES_TEXT
    solo = fight(("level 3 solo",))
    early = plan(adventure_of([solo])).encounters[0]
    assert [w.key for w in early.warnings if w.key == "solo_early"] == ["solo_early"]
    assert next(w for w in early.warnings if w.key == "solo_early").rule == SOLO_RULE
    late = plan(Adventure(party=party(victories=4), encounters=(solo,))).encounters[0]
    assert all(w.key != "solo_early" for w in late.warnings)


def test_arrival_gives_the_encounter_with_its_victories():
    hard = fight(HARD_AT_0, name="Second")
    day = adventure_of([fight(HARD_AT_0, name="First"), hard])
    encounter, victories = day.arrival(1)
    assert victories == 2
    assert encounter.name == "Second" and encounter.party.victories == 2
    assert encounter.creatures == hard.creatures
    assert report(encounter).budget.encounter_strength == 60


def test_changes_keep_respites_in_the_day():
    a, b, c = (fight(EASY, name=n) for n in "abc")
    day = adventure_of([a, b]).with_respite(1)
    day = day.adding(c, at=0)
    assert [e.name for e in day.encounters] == ["c", "a", "b"] and day.respites == (2,)
    moved = day.moving(2, 0)
    assert [e.name for e in moved.encounters] == ["b", "c", "a"] and moved.respites == (2,)
    assert day.without_encounter(1).respites == (1,)
    assert day.without_respite(2).respites == ()
    assert day.replacing(0, a).encounters[0].name == "a"


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda d: d.moving(5, 0), "index"),  # no encounter 5
        (lambda d: d.moving(0, -1), "to"),
        (lambda d: d.with_respite(9), "before"),  # a position from 0 to 2
        (lambda d: d.without_respite(1), "before"),  # no respite there
        (lambda d: d.adding("a fight"), "encounter"),
        (lambda d: d.arrival(True), "index"),  # a bool is no index
        (lambda d: plan("day"), "adventure"),
    ],
)
def test_bad_input_is_refused_naming_the_field(call, field):
    day = adventure_of([fight(EASY), fight(EASY)])
    with pytest.raises(InvalidInput) as caught:
        call(day)
    assert caught.value.field == field


def test_respites_out_of_range_or_order_are_refused():
    with pytest.raises(ValueError, match="respites"):
        Adventure(party=party(), encounters=(fight(EASY),), respites=(2,))
    with pytest.raises(ValueError, match="respites"):
        Adventure(party=party(), encounters=(fight(EASY), fight(EASY)), respites=(1, 0))


def test_save_and_load_round_trip(tmp_path):
    day = adventure_of([fight(HARD_AT_0, name="Gate"), fight(EASY, name="Hall")], name="The keep").with_respite(1)
    path = save_adventure(day, tmp_path / "keep.json")
    assert load_adventure(path) == day
    with pytest.raises(InvalidInput, match="the file exists"):
        save_adventure(day, path)
    save_adventure(day.with_respite(0), path, overwrite=True)
    assert load_adventure(path).respites == (0, 1)
    assert not [p for p in tmp_path.iterdir() if p.name != "keep.json" and not p.name.startswith(".")]


def test_fractional_victories_carried_in_survive_a_round_trip(tmp_path):
    day = Adventure(party=party(victories=Fraction(5, 2)), encounters=(fight(HARD_AT_0),))
    loaded = load_adventure(save_adventure(day, tmp_path / "half.json"))
    assert loaded.party.victories == Fraction(5, 2)
    assert plan(loaded).encounters[0].starting_malice == 2  # 2.5 rounded down


def test_a_foreign_or_tampered_file_is_refused_by_name(tmp_path):
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"format": "something else"}', encoding="utf-8")
    with pytest.raises(InvalidInput, match="format"):
        load_adventure(foreign)
    path = save_adventure(adventure_of([fight(EASY)]), tmp_path / "day.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["adventure"]["encounters"][0]["creatures"][0]["ev"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"encounters\.0\.creatures\.0\.ev"):
        load_adventure(path)
    assert load_adventure(path, trust_numbers=True).encounters[0].creatures[0].ev == 99
    data["adventure"]["respites"] = [5]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match="respites"):
        load_adventure(path)


def test_victories_pile_up_as_a_running_sum():
    """Property over many days: each arrival is the carried-in Victories (or 0 after a respite) plus what the
    encounters since then are worth, and the Malice at the start is that rounded down."""
    specs = [HARD_AT_0, EASY, ("level 3 leader", "2 x level 3 platoon brute"), ("8 x level 3 minion harrier",)]
    for start in (0, Fraction(5, 2)):
        for respite in (None, 1, 2):
            day = Adventure(party=party(victories=start), encounters=tuple(fight(s) for s in specs))
            if respite is not None:
                day = day.with_respite(respite)
            rows = plan(day).encounters
            carried = Fraction(start)
            for row in rows:
                if row.index == respite:
                    carried = Fraction(0)
                assert row.arrival_victories == carried
                assert row.starting_malice == math.floor(carried)
                carried += row.victories


def test_a_fought_encounter_carries_what_it_earned_to_the_next_and_follows_it_when_moved(tmp_path):
    day = adventure_of([fight(HARD_AT_0, "a"), fight(EASY, "b"), fight(EASY, "c")])
    planned = day.plan().encounters
    fought = day.fought(0, 0)  # the heroes fled the hard one: no Victories
    rows = fought.plan().encounters
    assert rows[0].fought and rows[0].victories == 0 and not rows[1].fought
    assert rows[1].arrival_victories == planned[0].arrival_victories  # nothing earned before it
    assert rows[2].arrival_victories == rows[1].arrival_victories + rows[1].victories
    moved = fought.moving(0, 2)
    assert [e.name for e in moved.encounters] == ["b", "c", "a"] and moved.earned == ((2, 0),)
    assert fought.without_encounter(0).earned == () and fought.adding(fight(EASY, "z"), 0).earned == ((1, 0),)
    assert load_adventure(fought.save(tmp_path / "day.json")) == fought
    assert refusal_field(lambda: day.fought(3, 1)) == "index"
    assert refusal_field(lambda: day.fought(0, -1)) == "victories"


def refusal_field(action):
    with pytest.raises(InvalidInput) as caught:
        action()
    return caught.value.field
