"""`workbench.__all__` is written once and agrees with where each name comes from.

`__init__.py` names each public name in `__all__`, and either imports it at once (the fast core) or says in
`_HOME` which module it is loaded from on first use. These tests fail when the lists drift apart: a name in
`__all__` that nothing provides, a name in `_HOME` or imported eagerly that `__all__` leaves out, a name whose
object was defined somewhere else than its home says, or a name of the documented public contract that is
missing.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import workbench as wb
from workbench.arguments import unchecked

INIT = Path(__file__).resolve().parents[1] / "workbench" / "__init__.py"
# The names scripts and outside checks call (the README's library examples among them), plus the classes they
# return and the errors a caller catches.
CONTRACT = (
    "build_monster", "instant_solo", "read_stat_block", "relevel", "tier_odds", "export_monster",
    "import_monster", "suggest_encounters",
    "Monster", "Tiers", "Ability", "PowerRoll", "WorkbenchError", "InvalidInput",
)


def _eager_names() -> dict[str, str]:
    """Names `__init__.py` imports at module level from workbench modules: {name: module}."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("workbench"):
            for alias in node.names:
                if not (alias.asname or alias.name).startswith("_"):  # a private helper of the facade
                    names[alias.asname or alias.name] = node.module
    return names


def _home(name: str) -> tuple[str, str]:
    if name in wb._HOME:
        module, _, attribute = wb._HOME[name].partition(":")
        return module, attribute or name
    return _eager_names()[name], name


def test_all_is_exactly_the_eager_names_and_home():
    eager = set(_eager_names())
    assert not eager & set(wb._HOME), "a name is both imported at once and loaded lazily"
    assert sorted(set(wb.__all__) - eager - set(wb._HOME)) == []  # listed, provided by nothing
    assert sorted((eager | set(wb._HOME)) - set(wb.__all__)) == []  # provided, not listed
    assert len(wb.__all__) == len(set(wb.__all__)), "a name is listed twice"


def test_each_name_is_the_object_its_home_module_defines():
    """Checked against the object's own record of where it was defined (`__module__`, `__qualname__`, set by
    its `def` or `class`), not against the table `workbench.__getattr__` loads it by."""
    astray = []
    for name in wb.__all__:
        module, attribute = _home(name)
        value = unchecked(getattr(wb, name))  # a function is wrapped in its arguments' check
        defined_in, defined_as = value.__module__, value.__qualname__
        in_home = defined_in == module or defined_in.startswith(module + ".")  # a package re-exports its modules'
        if not (in_home and defined_as == attribute and unchecked(getattr(importlib.import_module(defined_in), defined_as)) is value):
            astray.append(f"{name}: home {module}:{attribute}, defined as {defined_in}:{defined_as}")
    assert astray == []


def test_star_import_gives_the_public_names_only():
    namespace: dict[str, object] = {}
    exec("from workbench import *", namespace)
    assert sorted(k for k in namespace if k != "__builtins__") == sorted(wb.__all__)


def test_the_public_contract_is_exported():
    assert sorted(set(CONTRACT) - set(wb.__all__)) == []


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        wb.no_such_name  # noqa: B018
