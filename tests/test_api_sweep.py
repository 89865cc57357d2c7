"""Every public name in `workbench.__all__`, and every public method of its classes, swept with hostile
arguments found by itself: the sweep reads the names, the classes' methods and each one's signature, and gives
each parameter in turn None, a list holding junk, a 1 MB text, a bool, NaN, a 5,000-digit number, an
`object()`, "" and a dict (a path or folder parameter also a 1 MB name and a name with a NUL in it), the other
arguments valid. Only the workbench's own errors may come out (a `WorkbenchError`, naming the argument when
it is an `InvalidInput`), or pydantic's `ValidationError` from a model's constructor; never a raw TypeError,
AttributeError, ValueError, OSError, TraitError or RecursionError. A function or method that lands without
valid arguments in `_arguments` fails the sweep (it is called without them), so nothing public goes unswept.
One test per callable: it makes every call and names every (parameter, value) that got the wrong answer."""

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
from workbench.arguments import unchecked
from workbench.rules.ruleset import DATA_DIR

STAT_BLOCK = next(p for p in DATA_DIR.joinpath("bestiary-sample").rglob("*.json") if "Statblocks" in p.parts)
MEGABYTE = 1_000_000


class _Junk:
    """Something no function of the workbench takes."""

    def __repr__(self) -> str:
        return "<junk>"


HOSTILE: dict[str, Any] = {
    "none": None,
    "junk_list": [_Junk(), None, "x", 3.5],
    "mega_text": "x" * MEGABYTE,
    "bool": True,
    "nan": float("nan"),
    "digits5000": 10**4999,
    "digit_text5000": "9" * 5000,  # a number as text: past 4,300 digits int() raises its own ValueError
    "object": object(),
    "empty": "",
    "dict": {"level": 3, "name": {"x": 1}},
}
# What a path or a folder parameter is given besides: a name longer than any file system takes, a NUL byte.
PATH_HOSTILE: dict[str, Any] = {"mega_name": "n" * MEGABYTE, "nul": "a\x00b"}

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
    rules = wb.shipped_rules()
    wb.save_monster(monster, "Sweeper", _folder(), overwrite=True)
    return {
        "monster": monster, "party": party, "encounter": encounter, "minion": minion, "bestiary": bestiary,
        "published": bestiary.monsters[0], "rule": rules["exploitable-weakness"],
        "swarm_rule": rules["generic-swarm"].fill(), "schedule": wb.malice_schedule(4, 1, 3),
        "squad": wb.make_squad(minion, 4), "trait": wb.Trait(name="Gnaw", text="bite", cost=3),
        "adventure": wb.Adventure(party=party, encounters=(encounter, encounter)),
    }


def _instance(owner: str) -> Any:
    """A fresh instance of a public class with public methods, or None (a class left out is swept on the
    class itself: its class and static methods answer, an instance method fails for want of `self`)."""
    v = _valid()
    made: dict[str, Callable[[], Any]] = {
        "Adventure": lambda: v["adventure"], "Encounter": lambda: v["encounter"],
        "Fight": lambda: wb.Fight(v["encounter"]), "HomebrewRule": lambda: v["rule"],
        "MaliceTracker": lambda: wb.MaliceTracker(4, 1), "Monster": lambda: v["monster"],
        "Ruleset": wb.core_ruleset, "SquadTracker": lambda: wb.SquadTracker(v["squad"]),
        "Swarm": lambda: wb.Swarm.from_rule(v["swarm_rule"]), "Tier": lambda: wb.Tier.parse("7 damage"),
    }
    return made[owner]() if owner in made else None


UNIT = "Level 3 platoon brute"


def _arguments(name: str) -> dict[str, Any]:
    """The required arguments of `name` (a function, or "Class.method"), valid; optional ones keep their defaults."""
    return _all_arguments().get(name, {})


@cache
def _all_arguments() -> dict[str, dict[str, Any]]:
    v = _valid()
    folder = _folder()
    return {
        "ability_damage": {"level": 3, "organization": "elite"},
        "add_bestiary": {"source": str(STAT_BLOCK), "into": folder / "bestiaries"},
        "export_adventure": {"adventure": v["adventure"], "fmt": "html"},
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
        "load_fight": {"path": folder / "none.json"},
        "load_library": {"folder": folder},
        "load_monster": {"name": "Sweeper", "folder": folder},
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
        # methods
        "Adventure.adding": {"encounter": v["encounter"]},
        "Adventure.arrival": {"index": 1},
        "Adventure.at_victories": {"index": 0, "victories": 1},
        "Adventure.fought": {"index": 0, "victories": 1},
        "Adventure.load": {"path": folder / "none.json"},
        "Adventure.moving": {"index": 0, "to": 1},
        "Adventure.replacing": {"index": 0, "encounter": v["encounter"]},
        "Adventure.save": {"path": folder / "adventure.json", "overwrite": True},
        "Adventure.with_respite": {"before": 1},
        "Adventure.without_encounter": {"index": 0},
        "Adventure.without_respite": {"before": 1},
        "DamageModifier.parse": {"text": "fire 5"},
        "Distance.parse": {"text": "Melee 1"},
        "Effect.parse_malice": {"text": "5 Malice"},
        "Encounter.adding": {"items": "level 3 platoon brute"},
        "Encounter.without_creature": {"index": 0},
        "Encounter.without_terrain": {"index": 0},
        "Fight.actor": {"key": "heroes"},
        "Fight.actor_of": {"name": UNIT},
        "Fight.add_condition": {"unit": UNIT, "label": "Dazed"},
        "Fight.attach_captain": {"squad": UNIT, "captain": UNIT},
        "Fight.bring_in": {"unit": UNIT},
        "Fight.choose": {"objective": "defeat-all", "condition": "all"},
        "Fight.count": {"objective": "defeat-all", "counter": "foes"},
        "Fight.damage": {"unit": UNIT, "amount": 3},
        "Fight.designate": {"unit": UNIT},
        "Fight.dies": {"unit": UNIT},
        "Fight.difficulty_of": {"index": 0},
        "Fight.do": {"kind": "damage"},
        "Fight.end_condition": {"unit": UNIT, "label": "Dazed"},
        "Fight.end_effect": {"unit": UNIT, "label": "Dazed"},
        "Fight.flees": {"unit": UNIT},
        "Fight.from_data": {"data": {}},
        "Fight.kept_in": {"path": folder / "kept.json"},
        "Fight.heal": {"unit": UNIT, "amount": 3},
        "Fight.hold_back": {"unit": UNIT},
        "Fight.minion_dies": {"squad": UNIT},
        "Fight.monster": {"name": UNIT},
        "Fight.move_turn": {"actor": "heroes", "position": 0},
        "Fight.reinforce": {"creature": UNIT},
        "Fight.save": {"path": folder / "fight.json"},
        "Fight.set_stamina": {"unit": UNIT, "maximum": 30},
        "Fight.set_things": {"objective": "defeat-all", "things": 2},
        "Fight.settle": {"objective": "defeat-all", "met": True},
        "Fight.show_malice": {"shown": True},
        "Fight.spend": {"feature": "Brutal Effectiveness"},
        "Fight.start_turn": {"actor": "heroes"},
        "Fight.temporary": {"unit": UNIT, "amount": 3},
        "Fight.turns_left": {"key": "heroes"},
        "Fight.unit": {"name": UNIT},
        "Fight.villain_action": {"unit": UNIT},
        "Fight.villain_action_allowed": {"unit": UNIT, "number": 1},
        "Fight.villain_action_names": {"name": UNIT},
        "Fight.with_durations": {"durations": {"hold_them_off": 4}},
        "Fight.villain_actions_of": {"unit": UNIT},
        "Fight.villain_actions_open": {"unit": UNIT},
        "HomebrewRule.parameter": {"name": "tag"},
        "MaliceTracker.spend": {"feature": v["trait"]},
        "MaliceTracker.start_turn": {"creature": UNIT},
        "MaliceTracker.villain_action": {"creature": UNIT, "number": 1},
        "Movement.parse": {"speed": "5"},
        "Potency.parse": {"text": "M < 2"},
        "PowerRoll.parse_bonus": {"text": "2d10 + 2"},
        "Ruleset.echelon_of": {"level": 3},
        "Ruleset.takes_extra_stamina": {"organization": "elite"},
        "Ruleset.tier_modifier": {"tier": 1},
        "Ruleset.updated": {"changes": {}},
        "Size.parse": {"text": "1M"},
        "SquadTracker.attach_captain": {"captain": v["monster"]},
        "SquadTracker.damage": {"amount": 3},
        "Swarm.from_rule": {"rule": v["swarm_rule"]},
        "Swarm.lose": {"killed": 1},
        "Swarm.reform": {"nearby": 1, "disrupted": False},
        "Swarm.reform_refusal": {"nearby": 1, "disrupted": False},
        "Swarm.wound": {"rule": v["swarm_rule"], "grip": "one-handed", "outcome": "hit", "source_tags": ()},
        "SwarmScenario.from_rule": {"rule": v["swarm_rule"]},
        "Tier.parse": {"text": "7 damage"},
        "Trait.from_book": {"entry": _book_entry()},
        "Trait.of_effects": {"name": "Gnaw", "effects": ()},
    }


def _book_entry() -> Any:
    from workbench.rules.feature_book import feature_book

    return feature_book().basic_malice.features[0]


# Apps build widgets: a hostile value they accept costs a whole build, so they get the values that matter.
APPS = {"bestiary_app", "calibration_app", "encounter_app", "malice_app", "monster_builder", "scaling_explorer",
        "solos_app", "squad_app", "swarm_app", "weakness_app"}
APP_VALUES = ("junk_list", "object", "mega_text", "mega_name", "nul")


def _is_model(target: object) -> bool:
    return inspect.isclass(target) and issubclass(target, BaseModel)


def _is_public_method(cls: type, name: str) -> bool:
    """A method the workbench itself defines on a public class (not pydantic's, not object's)."""
    if name.startswith("_"):
        return False
    raw = inspect.getattr_static(cls, name)
    if isinstance(raw, (staticmethod, classmethod)):
        raw = raw.__func__
    return inspect.isfunction(raw) and unchecked(raw).__module__.startswith("workbench")


def _target(name: str) -> Any:
    """The callable `name` stands for, on a fresh instance for a method."""
    owner, _, method = name.partition(".")
    if not method:
        return getattr(wb, name)
    instance = _instance(owner)
    return getattr(instance if instance is not None else getattr(wb, owner), method)


def _signature_of(name: str) -> inspect.Signature:
    owner, _, method = name.partition(".")
    if not method:
        return inspect.signature(getattr(wb, name))
    raw = inspect.getattr_static(getattr(wb, owner), method)
    function = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
    parameters = list(inspect.signature(function).parameters.values())
    return inspect.Signature(parameters[0 if isinstance(raw, staticmethod) else 1:])


def _parameters(name: str) -> list[inspect.Parameter]:
    if "." not in name and _is_model(getattr(wb, name)):
        fields = list(getattr(wb, name).model_fields)[:6]
        return [inspect.Parameter(f, inspect.Parameter.KEYWORD_ONLY) for f in fields]
    return [p for p in _signature_of(name).parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]


def _is_path(parameter: inspect.Parameter) -> bool:
    return "Path" in str(parameter.annotation) or parameter.name in {"path", "folder", "into", "licence", "source"} \
        or parameter.name.endswith("_folder")


def _swept() -> list[str]:
    """Every public callable with a parameter: functions and classes of `__all__` (not the errors), and the
    public methods of those classes."""
    names = []
    for name in wb.__all__:
        target = getattr(wb, name)
        if inspect.isclass(target) and issubclass(target, BaseException) or not callable(target):
            continue
        if _parameters(name):
            names.append(name)
        if inspect.isclass(target):
            names += [f"{name}.{m}" for m in sorted(vars(target)) if _is_public_method(target, m)
                      and _parameters(f"{name}.{m}")]
    return names


def _cases(name: str) -> list[tuple[str, str]]:
    """(parameter, hostile value's key) for every call the sweep makes of `name`."""
    cases = []
    for parameter in _parameters(name):
        values = [*HOSTILE, *(PATH_HOSTILE if _is_path(parameter) else ())]
        if name in APPS:
            values = [v for v in values if v in APP_VALUES]
        cases += [(parameter.name, value) for value in values]
    return cases


SWEPT = _swept()
CALL_TIMEOUT_S = 10


def test_the_sweep_covers_every_public_callable_and_method():
    functions = {n for n in wb.__all__ if callable(getattr(wb, n))
                 and not (inspect.isclass(getattr(wb, n)) and issubclass(getattr(wb, n), BaseException))}
    assert {n for n in SWEPT if "." not in n} == {n for n in functions if _parameters(n)}
    methods = {n for n in SWEPT if "." in n}
    assert {"Adventure.at_victories", "Fight.damage", "Fight.save", "Ruleset.updated"} <= methods
    assert len(SWEPT) > 150 and sum(len(_cases(name)) for name in SWEPT) > 4000


def test_every_swept_callable_has_valid_arguments_for_its_required_parameters():
    """A callable that lands without an entry in `_arguments` is caught here by name, not only as a failed sweep."""
    missing = []
    for name in SWEPT:
        given = _arguments(name)
        required = [p.name for p in _parameters(name) if p.default is p.empty and p.kind != p.VAR_POSITIONAL
                    and not (_is_model(getattr(wb, name)) if "." not in name else False)]
        missing += [f"{name}({p})" for p in required if p not in given]
    assert missing == []


def _call(name: str, parameter: str, value: Any) -> Callable[[], Any]:
    arguments = {**_arguments(name), parameter: value}
    positional = [p.name for p in _parameters(name) if p.kind == inspect.Parameter.VAR_POSITIONAL]
    if positional:
        items = arguments.pop(positional[0], ())
        items = items if isinstance(items, tuple) else (items,)
        return lambda: _target(name)(*items, **arguments)
    return lambda: _target(name)(**arguments)


def _wrong_answer(name: str, parameter: str, value: str) -> str | None:
    """What is wrong with the answer to `name(parameter=<hostile value>)`, or None if it is the workbench's own."""
    hostile = {**HOSTILE, **PATH_HOSTILE}[value]
    try:
        _call(name, parameter, hostile)()
    except OWN as exc:
        if isinstance(exc, wb.InvalidInput) and not exc.field:
            return f"an InvalidInput naming no field: {exc}"
        if "\n" in getattr(exc, "summary", str(exc)):
            return f"a refusal of more than one line: {exc!r:.160}"
    except ValidationError:
        if not ("." not in name and _is_model(getattr(wb, name))):
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


def test_an_unknown_keyword_is_refused_by_name():
    for name in ("encounter_app", "relevel", "load_fight"):
        with pytest.raises(wb.InvalidInput) as caught:
            getattr(wb, name)(**_arguments(name), colour="blue")
        assert caught.value.field == "colour" and "no such option" in caught.value.accepts


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
    assert _wrong_answer("tier_odds", "bonus", "digits5000").startswith("an InvalidInput naming no field")
    monkeypatch.setattr(wb, "tier_odds", lambda bonus: wb.Trait(name=bonus, text="", cost=1))
    assert _wrong_answer("tier_odds", "bonus", "none") == "a ValidationError, and it is no model: not its own error"
    assert _wrong_answer("Trait", "name", "none") is None  # a model's own constructor may say so


def test_the_sweep_calls_methods_on_an_instance_and_finds_a_raw_error(monkeypatch):
    def raw(self, index, victories):
        return [][index]

    monkeypatch.setattr(wb.Adventure, "at_victories", raw)
    assert _wrong_answer("Adventure.at_victories", "index", "bool").startswith("IndexError: ")


def test_a_refusal_names_the_argument_and_what_it_accepts():
    with pytest.raises(wb.InvalidInput) as caught:
        wb.hero_strength(True)  # True is no level
    assert caught.value.field == "level" and caught.value.accepts == "a whole number"
    with pytest.raises(wb.InvalidInput) as caught:
        wb.read_stat_block("Goblin\x00.json")
    assert caught.value.field == "path" and "no NUL character" in caught.value.accepts
    with pytest.raises(wb.InvalidInput) as caught:
        wb.export_monsters(wb.build_monster(3, "elite", "brute"), "markdown")  # one Monster, not a list
    assert caught.value.field == "monsters" and caught.value.accepts == "a list or a tuple, each a Monster"
    with pytest.raises(wb.InvalidInput) as caught:
        wb.calibrate([wb.sample_bestiary().monsters[0], "junk"])  # a list holding something else
    assert caught.value.field == "monsters" and "PublishedMonster" in caught.value.accepts


def test_valid_calls_and_signatures_are_unchanged():
    monster = wb.build_monster(3, "elite", "brute")
    assert wb.creature_from_monster(monster, 2) == wb.creature_from_monster.__wrapped__(monster, 2)
    assert inspect.signature(wb.creature_from_monster) == inspect.signature(wb.creature_from_monster.__wrapped__)
    assert wb.tier_odds(2) == wb.tier_odds(bonus=2, edges=0, banes=0)
    party, sample = wb.make_party(heroes=4, level=1), wb.sample_bestiary()
    one_word = wb.suggest_encounters(party, "standard", sample, keywords="goblin", count=1, rng=random.Random(1))
    a_list = wb.suggest_encounters(party, "standard", sample, keywords=["goblin"], count=1, rng=random.Random(1))
    assert one_word == a_list  # a collection of texts still takes one text as one
