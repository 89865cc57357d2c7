"""Rule modules as data: the shipped modules load as written, new modules load, bad modules report everything."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import workbench as wb
from workbench.errors import InvalidInput, RulesetError
from workbench.homebrew.attach import attach_rule, detach_rule, fill_attached
from workbench.homebrew.rule import (
    RULES_DIR,
    SCHEMA_PATH,
    HomebrewRule,
    load_rule,
    load_rules,
    placeholders,
    rule_from_dict,
    rule_schema,
    shipped_rules,
)
from workbench.model import AttachedRule
from workbench.rules.ruleset import DATA_DIR

SOURCE = DATA_DIR / "rules" / "homebrew-monster-rules.txt"  # the rules text shipped with the project
SWARM_FILE = RULES_DIR / "generic-swarm.toml"
WEAKNESS_FILE = RULES_DIR / "exploitable-weakness.toml"


def _raw(path: Path) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


# ---------------------------------------------------------------- the shipped modules


def test_the_folder_ships_exactly_the_two_modules_of_the_source():
    assert sorted(shipped_rules()) == ["exploitable-weakness", "generic-swarm"]


@pytest.mark.parametrize(
    "rule_id, grip, baseline, adjusted",
    [
        # "One-handed baseline (1) becomes 2, then 2 -> 3 -> 6" (Exploitable Weakness, Damage ladders)
        ("exploitable-weakness", "one_handed", 1, (2, 3, 6)),
        # "Two-handed baseline (2) becomes 3, then 3 -> 4 -> 8" (Exploitable Weakness, Damage ladders)
        ("exploitable-weakness", "two_handed", 2, (3, 4, 8)),
        # "One-handed baseline (1) becomes 2, then follows 2 -> 3 -> 6" (Area and Zone Attacks vs Cohesive Swarm)
        ("generic-swarm", "one_handed", 1, (2, 3, 6)),
        # "Two-handed baseline (2) becomes 3, then follows 3 -> 4 -> 8" (Area and Zone Attacks vs Cohesive Swarm)
        ("generic-swarm", "two_handed", 2, (3, 4, 8)),
    ],
)
def test_ladders_are_the_numbers_written_in_the_source(rule_id, grip, baseline, adjusted):
    ladder = shipped_rules()[rule_id].escalation.ladders[grip]
    assert (ladder.baseline, ladder.adjusted) == (baseline, adjusted)


def test_base_wound_increase_is_plus_one():
    # "First apply weakness base wound increase (+1 base wound)."
    for rule in shipped_rules().values():
        assert rule.escalation.base_wound_increase == 1


@pytest.mark.parametrize(
    "name, default",
    [
        ("disperse_value", 3),  # "Default baseline: • N = 3"
        ("reform_threshold", 6),  # "Default baseline: • M = 6"
    ],
)
def test_swarm_parameters_default_to_the_baselines(name, default):
    assert shipped_rules()["generic-swarm"].parameter(name).default == default


def test_every_bullet_of_the_source_is_in_a_shipped_module():
    """The modules carry the rules text as written: every bullet line of the source appears in a section."""
    bullets = [
        line.strip().removeprefix("•").strip()
        for line in SOURCE.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("•")
    ]
    shipped = "\n".join(s.text for r in shipped_rules().values() for s in r.fill(partial=True).sections)
    missing = [b for b in bullets if b not in shipped]
    assert len(bullets) > 20 and missing == []


def test_section_titles_follow_the_source():
    source = SOURCE.read_text(encoding="utf-8").splitlines()
    titles = [s.title for r in shipped_rules().values() for s in r.sections]
    assert [t for t in titles if t not in source] == []


def test_unescalated_partial_critical_and_legendary_are_parameters_without_a_number():
    # The source fixes only the baselines; the other unescalated wounds are the homebrewer's own.
    for rule in shipped_rules().values():
        for grip in ("one_handed", "two_handed"):
            for outcome in ("partial_critical", "legendary"):
                parameter = rule.parameter(f"{grip}_{outcome}")
                assert parameter.type == "integer" and parameter.default is None


def test_the_weakness_previews_as_the_source_names_it():
    # "Exploitable Weakness (Tag):" (Trait Format)
    preview = shipped_rules()["exploitable-weakness"].fill(partial=True)
    assert preview.name == "Exploitable Weakness (Tag)"
    assert "Exploitable Weakness (Tag):" in preview.sections[0].text


def test_a_tag_is_required_when_the_weakness_is_attached():
    with pytest.raises(InvalidInput) as caught:
        shipped_rules()["exploitable-weakness"].fill()
    assert caught.value.code == "invalid-tag"


def test_filling_a_tag_names_the_trait_and_makes_it_respond_to_that_tag():
    silver = shipped_rules()["exploitable-weakness"].fill({"tag": "Silver"})
    assert silver.name == "Exploitable Weakness (Silver)"
    assert silver.matches(["silver"]) and silver.matches(["Silver", "weapon"])
    assert not silver.matches(["fire"])


def test_the_swarm_responds_to_area_and_zone_and_to_disruptive_fiction():
    swarm = shipped_rules()["generic-swarm"].fill()
    assert swarm.matches(["area"]) and swarm.matches(["zone"]) and not swarm.matches(["melee"])
    # "(fire, smoke, caustic cloud, sonic shock, etc.)" and "(fire, smoke, loud shock, area denial, ...)"
    for tag in ("fire", "smoke", "caustic cloud", "sonic shock", "loud shock", "area denial"):
        assert "disruption" in swarm.responds_to([tag])


def test_swarm_text_is_filled_with_its_parameters():
    swarm = shipped_rules()["generic-swarm"].fill({"disperse_value": 4, "reform_threshold": 5})
    assert swarm.name == "Swarm (N = 4, M = 5)"
    assert "disperses into 4 individual creatures" in swarm.text and "at least 5 are nearby" in swarm.text
    assert placeholders(swarm.text) == ()


# ---------------------------------------------------------------- schema


def test_published_schema_is_the_model_schema():
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == rule_schema()


@pytest.mark.parametrize("path", [SWARM_FILE, WEAKNESS_FILE], ids=lambda p: p.name)
def test_shipped_files_validate_against_the_published_schema(path):
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(_raw(path), schema)


def test_the_schema_rejects_an_unknown_field():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**_raw(WEAKNESS_FILE), "colour": "red"}, schema)


# ---------------------------------------------------------------- new modules a homebrewer writes


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_homebrewer_writes_exploitable_weakness_silver(tmp_path):
    text = WEAKNESS_FILE.read_text(encoding="utf-8")
    text = text.replace('id = "exploitable-weakness"', 'id = "exploitable-weakness-silver"')
    text = text.replace('required = true', 'default = "Silver"')
    path = _write(tmp_path, "silver.toml", text)
    rule = load_rule(path)
    filled = rule.fill()
    assert filled.name == "Exploitable Weakness (Silver)"
    assert filled.matches(["silver"])


def test_a_homebrewer_writes_a_swarm_with_n_4_and_m_5(tmp_path):
    text = SWARM_FILE.read_text(encoding="utf-8")
    text = text.replace('id = "generic-swarm"', 'id = "rat-swarm"')
    text = text.replace("default = 3\n", "default = 4\n").replace("default = 6\n", "default = 5\n")
    _write(tmp_path, "rat-swarm.toml", text)
    rules = load_rules(tmp_path)
    filled = rules["rat-swarm"].fill()
    assert (filled.value("disperse_value"), filled.value("reform_threshold")) == (4, 5)
    assert filled.name == "Swarm (N = 4, M = 5)"


def test_a_module_may_be_json(tmp_path):
    data = _raw(WEAKNESS_FILE) | {"id": "sanctified"}
    _write(tmp_path, "sanctified.json", json.dumps(data))
    assert list(load_rules(tmp_path)) == ["sanctified"]


def test_a_minimal_module_needs_no_ladders_or_parameters(tmp_path):
    _write(
        tmp_path,
        "pack.toml",
        'format = 1\nid = "pack-tactics"\ntitle = "Pack Tactics"\nname = "Pack Tactics"\nkind = "trait"\n'
        'text = "Edges on strikes while an ally is adjacent."\n',
    )
    rule = load_rules(tmp_path)["pack-tactics"]
    assert rule.escalation is None and rule.fill().text.startswith("Edges")


# ---------------------------------------------------------------- bad modules: every problem at once


CORRUPT = """
format = 1
id = "Bad Id"
title = "Broken"
name = "Exploitable Weakness ({tagg})"
kind = "spell"
text = "Hit by {tag}."

[[parameters]]
name = "tag"
label = "Tag"
type = "text"
required = true
default = "silver"

[[parameters]]
name = "reform_threshold"
label = "M"
type = "integer"
default = 0
minimum = 1

[[parameters]]
name = "tag"
label = "Tag again"
type = "choice"
choices = ["a"]
default = "b"

[escalation]
base_wound_increase = 1

[escalation.ladders.one_handed]
label = "One-handed"
baseline = 1
adjusted = [3, 3, 6]

[escalation.ladders.two_handed]
label = "Two-handed"
baseline = 2
adjusted = [3, 8, 4]
"""


def test_a_corrupt_module_reports_every_problem_at_once(tmp_path):
    path = _write(tmp_path, "broken.toml", CORRUPT)
    with pytest.raises(RulesetError) as caught:
        load_rule(path)
    error = caught.value
    assert error.source == "broken.toml"
    expected = [
        "id",  # "Bad Id" is not a lower-case-with-hyphens id
        "kind",  # "spell" is neither rule nor trait
        "{tagg} is not a declared parameter",  # name refers to an undeclared parameter
        "a required parameter cannot have a default",  # tag: required and default
        "default 0 is below its minimum 1",  # reform_threshold: default below its minimum
        "declared twice",  # tag declared twice
        "default 'b' is not one of its choices",  # the choice parameter's default
        "starts at 3, but baseline 1 with the base wound increase (+1) becomes 2",  # one-handed ladder
        "must not fall",  # two-handed ladder 3 -> 8 -> 4
    ]
    text = "\n".join(error.problems)
    missing = [e for e in expected if e not in text]
    assert missing == [], text
    assert len(error.problems) >= len(expected)


def test_field_errors_and_cross_checks_are_reported_together(tmp_path):
    # A bad field (kind) and a bad placeholder in the same file: both in one report.
    data = _raw(WEAKNESS_FILE) | {"kind": "curse", "text": "Hit by {colour}."}
    with pytest.raises(RulesetError) as caught:
        rule_from_dict(data, source="x.toml")
    text = "\n".join(caught.value.problems)
    assert "kind" in text and "{colour} is not a declared parameter" in text


@pytest.mark.parametrize(
    "where, value",
    [
        (("escalation", "base_wound_increase"), True),  # `true` is not "+1 base wound"
        (("escalation", "ladders", "one_handed", "baseline"), "1"),  # a quoted number is text
        (("escalation", "ladders", "two_handed", "adjusted"), [3, 4, True]),  # a flag where 8 was written
    ],
)
def test_a_ladder_number_that_is_not_a_whole_number_is_refused_by_place(where, value):
    data = _raw(WEAKNESS_FILE)
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    with pytest.raises(RulesetError) as caught:
        rule_from_dict(data, source="x.toml")
    assert any(p.startswith(".".join(where)) for p in caught.value.problems), caught.value.problems


_ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@given(field=st.sampled_from(sorted(_raw(WEAKNESS_FILE))), value=_ANY_VALUE)
def test_any_value_in_any_field_loads_or_is_reported_with_a_problem(field, value):
    try:
        rule_from_dict(_raw(WEAKNESS_FILE) | {field: value}, source="x.toml")
    except RulesetError as error:
        assert error.problems  # never a refusal that names nothing to fix


def test_a_folder_reports_every_bad_file_by_name_and_duplicate_ids(tmp_path):
    _write(tmp_path, "broken.toml", CORRUPT)
    _write(tmp_path, "not-toml.toml", "format = = 1\n")
    _write(tmp_path, "weakness.toml", WEAKNESS_FILE.read_text(encoding="utf-8"))
    _write(tmp_path, "weakness-copy.toml", WEAKNESS_FILE.read_text(encoding="utf-8"))
    with pytest.raises(RulesetError) as caught:
        load_rules(tmp_path)
    problems = caught.value.problems
    assert any(p.startswith("broken.toml: ") for p in problems)
    assert any(p.startswith("not-toml.toml: not valid TOML") for p in problems)
    # files are read in name order: weakness-copy.toml first, so weakness.toml is the duplicate
    assert any(p.startswith("weakness.toml: id 'exploitable-weakness' is already used by weakness-copy.toml")
               for p in problems)
    assert not any(p.startswith("weakness-copy.toml") for p in problems)


def test_a_missing_folder_is_reported():
    with pytest.raises(RulesetError):
        load_rules(RULES_DIR / "no-such-folder")


def test_the_schema_file_is_not_read_as_a_module():
    assert "module.schema" not in " ".join(load_rules(RULES_DIR))


# ---------------------------------------------------------------- parameter values


@pytest.mark.parametrize(
    "values, field",
    [
        ({"disperse_value": 0}, "disperse_value"),  # below its minimum 1
        ({"disperse_value": True}, "disperse_value"),  # a bool is not a number of creatures
        ({"reform_threshold": "6"}, "reform_threshold"),  # text where a whole number is wanted
        ({"legendary_reading": "double"}, "legendary_reading"),  # not one of its choices
        ({"colour": "red"}, "parameter"),  # no such parameter
    ],
)
def test_bad_parameter_values_are_refused_by_name(values, field):
    with pytest.raises(InvalidInput) as caught:
        shipped_rules()["generic-swarm"].fill(values)
    assert caught.value.field == field


@given(n=st.integers(1, 50), m=st.integers(1, 50))
def test_any_n_and_m_fill_into_name_and_text(n, m):
    filled = shipped_rules()["generic-swarm"].fill({"disperse_value": n, "reform_threshold": m})
    assert filled.name == f"Swarm (N = {n}, M = {m})"
    assert f"into {n} individual" in filled.text and f"at least {m} are nearby" in filled.text


@given(tag=st.text(min_size=1, max_size=30).filter(lambda t: t.strip() and "{" not in t and "}" not in t))
def test_any_tag_names_the_trait_and_matches_itself(tag):
    filled = shipped_rules()["exploitable-weakness"].fill({"tag": tag})
    assert filled.name == f"Exploitable Weakness ({tag.strip()})"
    assert filled.matches([tag.upper()]) == filled.matches([tag])


# ---------------------------------------------------------------- attaching to a monster


def test_attaching_stores_the_module_id_and_every_value_and_survives_json():
    werewolf = wb.build_monster(1, "solo").model_copy(update={"name": "Werewolf"})
    with_weakness = attach_rule(werewolf, shipped_rules()["exploitable-weakness"], {"tag": "Silver"})
    assert werewolf.homebrew_rules == ()  # the original is unchanged
    (attached,) = with_weakness.homebrew_rules
    assert attached.rule == "exploitable-weakness"
    assert attached.value_map() == {"tag": "Silver", "legendary_reading": "ladder"}
    again = wb.Monster.model_validate_json(with_weakness.model_dump_json())
    assert again.homebrew_rules == with_weakness.homebrew_rules
    assert fill_attached(again.homebrew_rules[0]).name == "Exploitable Weakness (Silver)"


def test_two_weaknesses_attach_the_same_one_twice_does_not():
    rule = shipped_rules()["exploitable-weakness"]
    m = wb.build_monster(3, "elite", "brute")
    m = attach_rule(attach_rule(m, rule, {"tag": "silver"}), rule, {"tag": "fire"})
    assert len(attach_rule(m, rule, {"tag": "fire"}).homebrew_rules) == 2
    assert [a.value_map()["tag"] for a in detach_rule(m, 0).homebrew_rules] == ["fire"]
    with pytest.raises(InvalidInput):
        detach_rule(m, 2)


def test_an_unknown_module_is_refused_when_filled():
    with pytest.raises(InvalidInput) as caught:
        fill_attached(AttachedRule(rule="no-such-rule"))
    assert caught.value.field == "rule"


def test_constructing_a_module_in_code_is_validated_too():
    data = _raw(WEAKNESS_FILE) | {"text": "{nope}"}
    with pytest.raises(ValueError):
        HomebrewRule.model_validate(data)


# ---------------------------------------------------------------- the builder's text box


def test_attachments_typed_one_a_line_round_trip():
    from workbench.homebrew.attach import format_attachments, parse_attachments

    typed = "exploitable-weakness: tag=Silver\n\ngeneric-swarm: disperse_value=4, reform_threshold=5\n"
    attached = parse_attachments(typed)
    assert [a.rule for a in attached] == ["exploitable-weakness", "generic-swarm"]
    assert attached[1].value_map()["disperse_value"] == 4  # typed text becomes the parameter's type
    assert parse_attachments(format_attachments(attached)) == attached


@pytest.mark.parametrize(
    "typed, field",
    [
        ("nope: x=1", "homebrew_rules"),  # no such module
        ("generic-swarm: disperse_value", "homebrew_rules"),  # not name=value
        ("generic-swarm: disperse_value=many", "disperse_value"),  # not a whole number
        ("generic-swarm: colour=red", "parameter"),  # no such parameter
        ("exploitable-weakness:", "tag"),  # the tag is required
    ],
)
def test_bad_attachment_lines_are_refused_by_name(typed, field):
    from workbench.homebrew.attach import parse_attachments

    with pytest.raises(InvalidInput) as caught:
        parse_attachments(typed)
    assert caught.value.field == field
