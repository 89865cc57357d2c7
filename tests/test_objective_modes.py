"""Combined and alternative objectives: "If an encounter has multiple alternative
objectives, you reward the heroes for the objective they completed the most successfully"; combined ones each
earn their Victories. The encounter file, the report, the HTML and `workbench encounter` say which."""

from __future__ import annotations

import json

import pytest

from workbench.cli.encounter import report_payload, report_text
from workbench.encounter.encounter import Encounter
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.objective import apply_objectives, choose_objective
from workbench.encounter.party import make_party
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.render.encounter import objectives_html, summary_html
from workbench.rules.encounter_tables import encounter_rules

# a sturdy thing: one extra defense, so Destroy the Thing! keeps the encounter's difficulty
THING_AND_HOLD = (choose_objective("destroy_the_thing", sturdy=True), choose_objective("hold_them_off"))


def standard_encounter(mode="combined", objectives=THING_AND_HOLD):
    # five level 3 heroes: ES 50, one hero 10; 20 + 20 + 10 + 10 = 60 EV is standard ("between the party's ES and ... plus one hero")
    e = Encounter(party=make_party(heroes=5, level=3), objectives=objectives, objective_mode=mode)
    return e.adding("level 3 leader", "2 x level 3 platoon brute", "level 3 platoon artillery", "8 x level 3 minion harrier")


def test_alternative_objectives_earn_the_best_one_not_the_sum():
    # "you reward the heroes for the objective they completed the most successfully": 1 Victory at standard
    alternative = apply_objectives("standard", THING_AND_HOLD, mode="alternative")
    assert alternative.victories == 1
    assert [(a.name, a.difficulty, a.victories) for a in alternative.alternatives] == [
        ("Destroy the Thing!", "standard", 1),
        ("Hold Them Off", "standard", 1),
    ]
    # "each hero earns Victories as appropriate for each encounter": combined, 1 + 1
    assert apply_objectives("standard", THING_AND_HOLD).victories == 2


def test_each_alternative_is_taken_at_its_own_difficulty():
    # Destroy the Thing! with two or more extra defenses is "one difficulty harder" (hard: 2 Victories), Hold
    # Them Off stays standard (1): the best alternative counts, at its own difficulty; combined, the shifts add
    harder = choose_objective("destroy_the_thing", hidden=True, sturdy=True)
    foe = choose_objective("defeat_a_specific_foe", designated_third_or_less=True)  # one category easier
    out = apply_objectives("standard", (choose_objective("hold_them_off"), harder, foe), mode="alternative")
    assert (out.difficulty, out.victories) == ("hard", 2)
    assert [a.difficulty for a in out.alternatives] == ["standard", "hard", "easy"]
    combined = apply_objectives("standard", (choose_objective("hold_them_off"), harder, foe))
    assert (combined.difficulty, combined.victories) == ("standard", 3)


def test_report_and_file_say_which(tmp_path):
    alternative = standard_encounter("alternative")
    r = report(alternative)
    assert (r.band, r.victories) == ("standard", 1)
    assert report(standard_encounter("combined")).victories == 2
    path = save_encounter(alternative, tmp_path / "e.json")
    saved = json.loads(path.read_text())
    assert saved["encounter"]["objective_mode"] == "alternative"
    assert load_encounter(path).objective_mode == "alternative"
    # a file saved before the field: its objectives were combined, and still are
    del saved["encounter"]["objective_mode"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(saved))
    assert report(load_encounter(old)).victories == 2


def test_report_views_quote_the_rule():
    e = standard_encounter("alternative")
    r = report(e)
    words = encounter_rules().objective_rules.alternative_rule
    assert words.startswith("If an encounter has multiple alternative objectives")
    assert 'data-mode="alternative"' in objectives_html(e) and "completed the most successfully" in objectives_html(e)
    assert "Alternative objectives" in summary_html(r)
    payload = report_payload("", r)
    assert payload["objective_mode"] == "alternative" and payload["victories"] == 1
    assert [a["victories"] for a in payload["alternatives"]] == [1, 1]
    assert "alternative objective Hold Them Off: standard, 1 Victories" in report_text("", r)


def test_a_bad_mode_is_refused():
    with pytest.raises(InvalidInput, match="objective_mode"):
        apply_objectives("standard", THING_AND_HOLD, mode="either")
    with pytest.raises(ValueError):
        Encounter(party=make_party(heroes=5, level=3), objective_mode="either")


def test_the_alternative_rule_is_quoted_verbatim():
    from tests.test_encounter import RULES

    text = " ".join(RULES.read_text().split())
    assert " ".join(encounter_rules().objective_rules.alternative_rule.split()) in text
