"""Every public name in `workbench.__all__` swept with hostile arguments: each parameter in turn given None, "",
a dict, a huge number, a 5,000-digit number, something that is no path and a text with a NUL in it, the other
arguments valid. Only the workbench's own errors may come out (a `WorkbenchError`, naming the argument when
it is an `InvalidInput`), or pydantic's `ValidationError` from a model's constructor; never a raw TypeError,
AttributeError, KeyError or an error from `pathlib`. One test per function: it makes every call and names every
(parameter, value) that got the wrong answer, so a run counts functions checked, not calls; a call that hangs is
stopped by the test's timeout, 10 s for each of its calls."""

from __future__ import annotations

import inspect
import random
import tempfile
import traceback
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

import workbench as wb
from workbench.rules.ruleset import DATA_DIR

STAT_BLOCK = next(p for p in DATA_DIR.joinpath("bestiary-sample").rglob("*.json") if "Statblocks" in p.parts)


class _NoPath:
    """An object that is no path, no number and no text."""

    def __repr__(self) -> str:
        return "<no path>"


HOSTILE: dict[str, Any] = {
    "none": None,
    "empty": "",
    "dict": {"level": 3, "name": {"x": 1}},
    "huge": 10**30,
    "digits5000": 10**4999,
    "nopath": _NoPath(),
    "nul": "a\x00b",
}

# The errors the workbench itself raises (WorkbenchError and its subclasses are all of them).
OWN = (wb.WorkbenchError,)


@cache
def _folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="wb-sweep-"))


@cache
def _valid() -> dict[str, Any]:
    """One valid value of each kind a public function takes."""
    monster = wb.build_monster(3, "elite", "brute").model_copy(update={"name": "Sweeper"})
    party = wb.make_party(heroes=4, level=3)
    encounter = wb.Encounter(party=party).adding("level 3 platoon brute")
    minion = wb.build_monster(3, "minion", "brute")
    bestiary = wb.sample_bestiary()
    published = bestiary.monsters[0]
    rule = wb.shipped_rules()["exploitable-weakness"]
    schedule = wb.malice_schedule(4, 1, 3)
    wb.save_monster(monster, "Sweeper", _folder(), overwrite=True)
    return {
        "monster": monster, "party": party, "encounter": encounter, "minion": minion, "bestiary": bestiary,
        "published": published, "rule": rule, "schedule": schedule, "squad": wb.make_squad(minion, 4),
        "trait": wb.Trait(name="Gnaw", text="bite", cost=3),
    }


def _arguments(name: str) -> dict[str, Any]:
    """The required arguments of `name`, valid (its optional ones keep their defaults)."""
    v = _valid()
    folder = _folder()
    return {
        "ability_damage": {"level": 3, "organization": "elite"},
        "export_adventure": {"adventure": wb.Adventure(party=v["party"], encounters=(v["encounter"],)),
                             "fmt": "html"},
        "attach_rule": {"monster": v["monster"], "rule": v["rule"], "values": {"tag": "Silver"}},
        "budget": {"party": v["party"]},
        "build_monster": {"level": 3, "organization": "elite"},
        "calibrate": {"monsters": v["bestiary"].monsters[:2]},
        "choose_objective": {"key": "defeat-all"},
        "closest_published": {"monster": v["monster"], "published": v["bestiary"].monsters[:3]},
        "compare_solos": {"monster": v["monster"]},
        "compare_variants": {"monsters": v["bestiary"].monsters[:2]},
        "creature_from_monster": {"monster": v["monster"]},
        "creature_from_stat_block": {"stat_block": v["published"]},
        "delete_monster": {"name": "No Such Monster", "folder": folder},
        "encounter_report": {"encounter": v["encounter"]},
        "explain": {"monster": v["monster"]},
        "export_monster": {"monster": v["monster"], "fmt": "markdown"},
        "export_monsters": {"monsters": [v["monster"]], "fmt": "markdown"},
        "fight_pace": {"foes": [(v["monster"], 2)], "hero_stamina": 30, "party_damage": 10},
        "foe_attack": {"stat_block": v["monster"]},
        "fit_report": {"results": wb.calibrate(v["bestiary"].monsters[:2])},
        "hero_strength": {"level": 3},
        "import_monster": {"path": STAT_BLOCK},
        "import_monsters": {"path": STAT_BLOCK},
        "instant_solo": {"monster": v["monster"]},
        "list_monsters": {"folder": folder},
        "load_bestiary": {"path": STAT_BLOCK.parent},
        "load_encounter": {"path": folder / "none.json"},
        "load_library": {"folder": folder},
        "load_monster": {"name": "Sweeper", "folder": folder},
        "load_rules": {},
        "load_ruleset": {"path": DATA_DIR / "rulesets" / "core.toml"},
        "make_party": {"heroes": 4, "level": 3},
        "make_squad": {"minion": v["minion"]},
        "malice_schedule": {"heroes": 4, "victories": 1, "rounds": 3},
        "parse_spec": {"text": "level 3 platoon brute"},
        "parse_stat_block_text": {"text": "Goblin Sneak Level 1 Minion Ambusher EV 1"},
        "quick_plan": {"party": v["party"], "difficulty": "standard"},
        "read_stat_block": {"path": STAT_BLOCK},
        "relevel": {"monster": v["monster"], "level": 5},
        "relevel_moves": {"monster": v["monster"], "level": 5},
        "open_code": {"text": wb.share_code(v["monster"])},
        "share_code": {"value": v["encounter"]},
        "rename_monster": {"old": "No Such Monster", "new": "Other", "folder": folder},
        "save_encounter": {"encounter": v["encounter"], "path": folder / "sweep.json", "overwrite": True},
        "save_monster": {"monster": v["monster"], "folder": folder, "overwrite": True},
        "simulate_swarms": {"scenario": wb.SwarmScenario(), "rng": random.Random(1), "runs": 5},
        "spending_plan": {"schedule": v["schedule"], "wishes": [v["trait"]]},
        "squad_app": {"squad": v["squad"]},
        "stat_block_html": {"monster": v["monster"]},
        "stat_block_markdown": {"monster": v["monster"]},
        "suggest_encounters": {"party": v["party"], "difficulty": "standard", "bestiary": v["bestiary"],
                               "count": 1, "rng": random.Random(1)},
        "suggest_groups": {"encounter": v["encounter"]},
        "respite_check": {"encounters": [v["encounter"]]},
        "is_solo": {"monster": v["monster"]},
        "tier_odds": {"bonus": 2},
        "weakness_cases": {"rule": v["rule"]},
        "weakness_wound": {"rule": v["rule"].fill({"tag": "Silver"}), "grip": "one-handed", "outcome": "hit",
                           "matches_tag": True},
        "Fight": {"encounter": v["encounter"]},
        "MaliceTracker": {"heroes": 4, "victories": 1},
        "SquadTracker": {"squad": v["squad"]},
    }.get(name, {})


# Apps build widgets: a hostile value they accept costs a whole build, so they get the values that matter.
APPS = {"bestiary_app", "calibration_app", "encounter_app", "malice_app", "monster_builder", "scaling_explorer",
        "solos_app", "squad_app", "swarm_app", "weakness_app"}
ERRORS = {"ImportRefused", "InvalidInput", "NotFound", "RulesetError", "WorkbenchError"}


def _is_model(target: object) -> bool:
    return inspect.isclass(target) and issubclass(target, BaseModel)


def _parameters(name: str) -> list[str]:
    target = getattr(wb, name)
    if _is_model(target):
        return list(target.model_fields)[:6]
    return [p.name for p in inspect.signature(target).parameters.values()
            if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]


def _swept() -> list[str]:
    """The public callables the sweep calls: every one but the error classes and those without a parameter."""
    return [name for name in wb.__all__
            if name not in ERRORS and callable(getattr(wb, name)) and _parameters(name)]


def _cases(name: str) -> list[tuple[str, str]]:
    """(parameter, hostile value's key) for every call the sweep makes of `name`."""
    values = ("none", "dict", "nopath") if name in APPS else tuple(HOSTILE)
    return [(parameter, value) for parameter in _parameters(name) for value in values]


SWEPT = _swept()
CALL_TIMEOUT_S = 10


def test_the_sweep_covers_every_public_function():
    functions = {n for n in wb.__all__ if callable(getattr(wb, n)) and n not in ERRORS}
    no_parameters = {n for n in functions if not _parameters(n)}
    assert set(SWEPT) == functions - no_parameters
    assert len(SWEPT) > 50 and sum(len(_cases(name)) for name in SWEPT) > 1000


def _call(name: str, parameter: str, value: Any) -> Callable[[], Any]:
    arguments = {**_arguments(name), parameter: value}
    return lambda: getattr(wb, name)(**arguments)


def _wrong_answer(name: str, parameter: str, value: str) -> str | None:
    """What is wrong with the answer to `name(parameter=HOSTILE[value])`, or None if it is the workbench's own."""
    try:
        _call(name, parameter, HOSTILE[value])()
    except OWN as exc:
        if isinstance(exc, wb.InvalidInput) and not exc.field:
            return f"an InvalidInput naming no field: {exc}"
    except ValidationError:
        if not _is_model(getattr(wb, name)):
            return "a ValidationError, and it is no model: not its own error"
    except Exception as exc:  # the sweep's finding: any other error, said with where it was raised
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return f"{type(exc).__name__}: {str(exc)[:160]} ({Path(where.filename).name}:{where.lineno})"
    return None


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.timeout(CALL_TIMEOUT_S * len(_cases(name))))
                                  for name in SWEPT])
def test_every_hostile_argument_gets_the_workbenchs_own_error(name):
    wrong = [f"{parameter}={value}: {answer}" for parameter, value in _cases(name)
             if (answer := _wrong_answer(name, parameter, value)) is not None]
    assert not wrong, f"{name} answered hostile arguments wrongly:\n" + "\n".join(wrong)


# ---------------------------------------------------------------- the check itself


def test_the_sweep_names_a_raw_error_and_a_refusal_that_names_no_field(monkeypatch):
    def raw(bonus):
        return {}[bonus]  # a KeyError, or a TypeError for a dict: never the workbench's own

    def unnamed(bonus):
        raise wb.InvalidInput("", bonus, "a whole number")

    monkeypatch.setattr(wb, "tier_odds", raw)
    assert _wrong_answer("tier_odds", "bonus", "none").startswith("KeyError: None (test_api_sweep.py:")
    assert _wrong_answer("tier_odds", "bonus", "dict").startswith("TypeError: ")
    monkeypatch.setattr(wb, "tier_odds", unnamed)
    assert _wrong_answer("tier_odds", "bonus", "huge").startswith("an InvalidInput naming no field")
    monkeypatch.setattr(wb, "tier_odds", lambda bonus: wb.Trait(name=bonus, text="", cost=1))
    assert _wrong_answer("tier_odds", "bonus", "none") == "a ValidationError, and it is no model: not its own error"
    assert _wrong_answer("Trait", "name", "none") is None  # a model's own constructor may say so



def test_a_refusal_names_the_argument_and_what_it_accepts():
    with pytest.raises(wb.InvalidInput) as caught:
        wb.hero_strength(True)  # True is no level
    assert caught.value.field == "level" and caught.value.accepts == "a whole number"
    with pytest.raises(wb.InvalidInput) as caught:
        wb.read_stat_block("Goblin\x00.json")
    assert caught.value.field == "path" and "no NUL character" in caught.value.accepts
    with pytest.raises(wb.InvalidInput) as caught:
        wb.export_monsters(wb.build_monster(3, "elite", "brute"), "markdown")  # one Monster, not a list
    assert caught.value.field == "monsters" and caught.value.accepts == "a list or a tuple"


def test_valid_calls_and_signatures_are_unchanged():
    monster = wb.build_monster(3, "elite", "brute")
    assert wb.creature_from_monster(monster, 2) == wb.creature_from_monster.__wrapped__(monster, 2)
    assert inspect.signature(wb.creature_from_monster) == inspect.signature(wb.creature_from_monster.__wrapped__)
    assert wb.tier_odds(2) == wb.tier_odds(bonus=2, edges=0, banes=0)
    party, sample = wb.make_party(heroes=4, level=1), wb.sample_bestiary()
    one_word = wb.suggest_encounters(party, "standard", sample, keywords="goblin", count=1, rng=random.Random(1))
    a_list = wb.suggest_encounters(party, "standard", sample, keywords=["goblin"], count=1, rng=random.Random(1))
    assert one_word == a_list  # a collection of texts still takes one text as one
