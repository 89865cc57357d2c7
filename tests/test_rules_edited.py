"""An edited copy of the rules files reaches the suggestions, the fight (its durations and Malice features) and
a minion's cost, not only the report.

Each edited file is a copy of the shipped one with one number changed, loaded by the public loaders; each
result is compared with the same call under the shipped rules, so every assertion fails if the edit is lost.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import workbench as wb
from workbench.encounter.encounter import Encounter, parse_spec
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.encounter.suggest import Suggestion, suggest_encounters
from workbench.fight.fight import Fight
from workbench.rules.encounter_tables import (
    ENCOUNTER_RULES_PATH,
    EncounterRules,
    encounter_rules,
    load_encounter_rules,
)
from workbench.rules.feature_book import MALICE_FEATURES_PATH, load_feature_book
from workbench.rules.ruleset import CORE_RULESET_PATH, Ruleset


def _edited(source: Path, folder: Path, key: str, value: int) -> Path:
    """A copy of `source` in `folder` with the one line `key = N` set to `value`."""
    text = source.read_text(encoding="utf-8")
    pattern = re.compile(rf"^{key} = \d+", re.MULTILINE)
    assert len(pattern.findall(text)) == 1, f"{key} is not one line of {source.name}"
    target = folder / source.name
    target.write_text(pattern.sub(f"{key} = {value}", text), encoding="utf-8")
    return target


def _encounter_rules(tmp_path: Path, key: str, value: int) -> EncounterRules:
    return load_encounter_rules(_edited(ENCOUNTER_RULES_PATH, tmp_path, key, value))


def _ruleset(tmp_path: Path, key: str, value: int) -> Ruleset:
    ruleset = wb.load_ruleset(_edited(CORE_RULESET_PATH, tmp_path, key, value))
    assert isinstance(ruleset, Ruleset)
    return ruleset


def test_a_wider_minion_level_limit_reaches_the_suggestions(tmp_path: Path) -> None:
    rules = _encounter_rules(tmp_path, "minion_level_within", 4)
    party = make_party(heroes=4, level=5)
    low_minions = wb.build_monster(1, "minion", "harrier").model_copy(update={"name": "Rat Swarm"})
    bestiary = [
        wb.build_monster(5, "platoon", "brute").model_copy(update={"name": "Brute"}),
        wb.build_monster(5, "platoon", "artillery").model_copy(update={"name": "Archer"}),
        wb.build_monster(5, "elite", "defender").model_copy(update={"name": "Guard"}),
        low_minions,
    ]

    def with_rats(found: tuple[Suggestion, ...]) -> int:
        return sum(any(c.name == "Rat Swarm" for c in s.creatures) for s in found)

    core = suggest_encounters(party, "standard", bestiary, quick_levels=False, must_include=["Brute"])
    edited = suggest_encounters(party, "standard", bestiary, quick_levels=False, must_include=["Brute"],
                                rules=rules)
    assert with_rats(core) == 0  # four levels below the heroes: outside the shipped two
    assert with_rats(edited) > 0
    assert all(not s.broken for s in edited)  # the edited guideline passes them too


def test_a_longer_typical_duration_reaches_the_fight(tmp_path: Path) -> None:
    rules = _encounter_rules(tmp_path, "typical_duration", 6)
    encounter = Encounter(party=make_party(heroes=4, level=3)).adding("4 x level 3 platoon brute")
    encounter = encounter.model_copy(update={"objectives": (choose_objective("stop_the_action"),)})
    core = Fight(encounter).state.objectives[0].duration
    edited = Fight(encounter, rules=rules).state.objectives[0].duration
    assert core == encounter_rules().objective_rules.typical_duration
    assert edited == 6


def test_fewer_minions_per_ev_reach_a_minions_cost(tmp_path: Path) -> None:
    ruleset = _ruleset(tmp_path, "minions_per_ev", 2)
    spec = "8 x level 2 minion harrier"
    core, edited = parse_spec(spec), parse_spec(spec, ruleset=ruleset)
    assert edited.ev == core.ev  # the stat block's EV is the same number: what it buys is not
    assert core.cost() == Fraction(core.ev * 8, 4)
    assert edited.cost() == Fraction(core.ev * 8, 2)
    party = make_party(heroes=4, level=2)
    assert report(Encounter(party=party, creatures=(edited,))).total_ev == 2 * report(
        Encounter(party=party, creatures=(core,))
    ).total_ev
    # a Monster built under the edited ruleset keeps it in the encounter (and in the suggester's costs)
    minion = wb.build_monster(2, "minion", "harrier", ruleset=ruleset)
    assert Encounter(party=party).adding(minion, count=8).creatures[0].cost() == edited.cost()


def test_an_edited_feature_book_reaches_the_fights_malice_features(tmp_path: Path) -> None:
    text = MALICE_FEATURES_PATH.read_text(encoding="utf-8")
    line = re.compile(r'^cost = 3(?=\s+# "Brutal Effectiveness)', re.MULTILINE)
    assert len(line.findall(text)) == 1
    (tmp_path / "malice-features.toml").write_text(line.sub("cost = 2", text), encoding="utf-8")
    book = load_feature_book(tmp_path / "malice-features.toml")
    encounter = Encounter(party=make_party(heroes=4, level=3)).adding("4 x level 3 platoon brute")

    def brutal(fight: Fight) -> int | None:
        return next(f.cost for f in fight.features if f.name == "Brutal Effectiveness")

    assert brutal(Fight(encounter)) == 3
    assert brutal(Fight(encounter, book=book)) == 2
