"""Hostile values anywhere inside a Forge Steel, Foundry or Steel Compendium file: every field of an exported
monster's file (the tool's own fields and the workbench record) replaced in turn by a value of the wrong kind,
out of range or absurd. Each file either opens or is refused with `ImportRefused` naming the part, and no
refusal carries Python's own words (an AttributeError's text, a repr, pydantic's "Value error")."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

import workbench as wb
from workbench.errors import WorkbenchError
from workbench.formats.bestiary import SAMPLE_DIR, StatBlockError
from workbench.formats.reader import ImportRefused, read_monsters
from workbench.model import Ability, Trait

HOSTILE = (None, "", "x", [], {"a": 1}, 10**30, -5, 3.5, True, "9" * 39)
PYTHON_WORDS = ("object has no attribute", "_Refusal", "Traceback", "Value error", "NoneType", "KeyError",
                "TypeError", "AttributeError")


def _monster() -> wb.Monster:
    base = wb.build_monster(level=3, organization="leader")
    return base.model_copy(update={
        "name": "Marsh Queen",
        "abilities": (Ability(name="Lash", cost="signature", action="main action", keywords=["Melee", "Strike"],
                              distance="Melee 2", target="One creature", power_roll={
                                  "bonus": 3, "tier1": "6 damage; M < 1 prone", "tier2": "9 damage",
                                  "tier3": "12 damage"}),),
        "traits": (Trait(name="Mire", text="The ground around her is difficult terrain."),),
        "malice_features": (Trait(name="Sink", text="One enemy sinks.", cost=3),),
    })


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if prefix:
        yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node[:2]):
            yield from _paths(value, (*prefix, index))


def _set(root: Any, path: tuple[Any, ...], value: Any) -> None:
    node = root
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


@pytest.mark.parametrize("fmt", ["forge-steel", "foundry", "steel-compendium"])
def test_every_field_replaced_by_a_hostile_value_opens_or_is_refused_plainly(fmt):
    text = wb.export_monster(_monster(), fmt)
    base = json.loads(text)
    wrong: list[str] = []
    tries = 0
    for path in list(_paths(base)):
        for value in HOSTILE:
            data = json.loads(text)  # a fresh copy of the file's data (parsing is cheaper than a deep copy)
            _set(data, path, value)
            tries += 1
            try:
                read_monsters(data, "hostile.json")
            except ImportRefused as exc:
                if any(words in str(exc) for words in PYTHON_WORDS) or len(str(exc)) > 400:
                    wrong.append(f"{path} = {value!r}: {exc}")
            except Exception as exc:  # any other exception is the failure this test looks for
                wrong.append(f"{path} = {value!r}: {type(exc).__name__}: {exc}")
    assert tries > 500
    assert wrong == []


def _with_long_numbers(text: str) -> Iterator[str]:
    """The text with each run of digits in turn made 5,000 digits long: in a file's numbers, in its texts
    ("Power Roll + 2", "Stamina 60"), and in the workbench record a Forge Steel description carries."""
    for digits in re.finditer(r"\d+", text):
        yield text[:digits.start()] + "9" * 5000 + text[digits.end():]


@pytest.mark.parametrize("fmt", ["forge-steel", "foundry", "steel-compendium"])
def test_a_number_of_5000_digits_anywhere_in_a_file_opens_or_is_refused_plainly(fmt, tmp_path):
    # more digits than Python converts to a number (4,300) gave a raw ValueError, from the readers of the
    # texts and from the record's own JSON
    text = wb.export_monster(_monster(), fmt)
    path = tmp_path / ("hostile.ds-monster" if fmt == "forge-steel" else "hostile.json")
    wrong, tries = [], 0
    for hostile in _with_long_numbers(text):
        path.write_text(hostile)
        tries += 1
        try:
            wb.import_monster(path)
        except WorkbenchError as exc:
            if any(words in str(exc) for words in PYTHON_WORDS):
                wrong.append(str(exc)[:200])
        except Exception as exc:  # any other exception is the failure this test looks for
            wrong.append(f"{type(exc).__name__}: {str(exc)[:200]}")
    assert tries > 50
    assert wrong == []


def test_a_number_of_5000_digits_in_a_published_stat_block_is_refused_naming_the_file(tmp_path):
    sample = sorted(SAMPLE_DIR.rglob("*.json"))[3]
    path = tmp_path / sample.name
    refused = 0
    for hostile in _with_long_numbers(sample.read_text()):
        path.write_text(hostile)
        with pytest.raises(StatBlockError, match=rf"^{re.escape(sample.name)}: .*(digits|characters)") as refusal:
            wb.read_stat_block(path)
        assert len(str(refusal.value)) < 200  # the number is counted, not printed
        refused += 1
    assert refused > 20


@pytest.mark.parametrize("stability", ["²", "9" * 5000, "2 (10 while grounded)"])
def test_a_stability_typed_as_words_a_superscript_or_5000_digits_exports_to_every_format(stability):
    # the formats hold one number: the words have none, and int() refuses "²" and raises past 4,300 digits
    monster = _monster().model_copy(update={"stability": stability})
    assert monster.stability_number == 0
    for fmt in ("forge-steel", "foundry", "steel-compendium"):
        assert wb.export_monster(monster, fmt)
    assert _monster().model_copy(update={"stability": "2"}).stability_number == 2
