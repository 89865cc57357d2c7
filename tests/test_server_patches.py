"""Guards of the server's changes to other projects' classes (workbench/server/patches.py): every attribute a
change or a module of the server takes from Voilà, tornado, jupyter_server, plotly or ipykernel is still there.

An upgrade that removes one fails here, with the dependency, its version and the attribute in the message, and
`workbench app` refuses to start with the same lines instead of breaking a page later.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import re
import sys
from pathlib import Path

import pytest

from workbench.server import patches
from workbench.server.patches import NEEDS, Need, missing

SERVER = Path(patches.__file__).parent


@pytest.mark.parametrize("need", NEEDS, ids=lambda need: f"{need.dependency}:{need.target}")
def test_what_the_server_needs_of_each_dependency_is_installed(need: Need):
    assert missing([need]) == [], (
        f"{need.dependency} is now {importlib.metadata.version(need.dependency)}; the server was written for "
        f"{need.written_for}: see workbench/server/patches.py")


def test_a_missing_attribute_is_named_with_its_dependency_and_version():
    gone = Need("voila", "0.5.13", "voila.handler:VoilaHandler", ("prepare", "no_such_hook"), "a planted patch")
    version = importlib.metadata.version("voila")
    assert missing([gone]) == [
        f"voila {version} (the server was written for 0.5.13) has no voila.handler.VoilaHandler.no_such_hook, "
        "which a planted patch needs"]
    module_gone = Need("plotly", "7.1.0", "plotly.io._no_such_module", ("x",), "another planted patch")
    assert "has no plotly.io._no_such_module, which another planted patch needs" in missing([module_gone])[0]
    on_instance = Need("plotly", "7.1.0", "plotly.graph_objects:FigureWidget", ("_no_such_part",), "a third",
                       instance=True)
    assert missing([on_instance])[0].endswith("plotly.graph_objects.FigureWidget._no_such_part, which a third needs")


def test_each_need_names_a_version_and_the_code_that_uses_it():
    """`used_by` names functions that exist: `module.name` of the server, or a full `workbench.` path."""
    for need in NEEDS:
        assert need.written_for[0].isdigit(), need
        users = re.findall(r"[A-Za-z_][\w.]*\.\w+", need.used_by)
        assert users, need.used_by
        for user in users:
            module, _, name = (user if user.startswith("workbench.") else f"workbench.server.{user}").rpartition(".")
            assert hasattr(importlib.import_module(module), name.split(".")[0]), user


def _imported_names(tree: ast.AST) -> set[str]:
    """The names a module binds to another project's modules and classes (not the standard library's, not ours)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            pairs = [(alias.name, alias.asname or alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            pairs = [(node.module or "", alias.asname or alias.name) for alias in node.names]
        else:
            continue
        names |= {name for origin, name in pairs
                  if origin.split(".")[0] not in sys.stdlib_module_names and origin.split(".")[0] != "workbench"}
    return names


def _assigned_attributes(path: Path) -> list[str]:
    """`X.y = ...` in `path` where X is another project's module or class (imported, or any capitalised name):
    an attribute set on it from outside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = _imported_names(tree)
    found = []
    for node in ast.walk(tree):
        for target in node.targets if isinstance(node, ast.Assign) else []:
            for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                if not isinstance(part, ast.Attribute):
                    continue
                root = part.value
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(root, ast.Name) and (root.id in imported or root.id[:1].isupper()):
                    found.append(ast.unparse(part))
    return found


# Set through plotly's public API (its documented way to choose the default renderer); classes of ours, named.
PUBLIC = {"pio.renderers.default"}


def test_no_module_of_the_workbench_but_patches_sets_another_projects_attribute():
    """The only `SomeClass.attribute = ...` or `some_module.attribute = ...` on another project in the package
    are patches.py's (and each name assigned there is among its NEEDS); one set elsewhere is a patch out of place."""
    package = SERVER.parent
    elsewhere = {str(path.relative_to(package)): sorted(set(found) - PUBLIC) for path in sorted(package.rglob("*.py"))
                 if path.name != "patches.py" and set(found := _assigned_attributes(path)) - PUBLIC}
    assert elsewhere == {}
    needed = {name for need in NEEDS for name in need.names}
    assigned = _assigned_attributes(SERVER / "patches.py")
    assert "VoilaHandler.prepare" in assigned and "VoilaExporter._create_environment" in assigned
    assert [name for name in assigned if name.rsplit(".", 1)[1] not in needed] == []


def test_the_check_sees_a_patch_of_a_class_or_a_module(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("import plotly.io as pio\nfrom plotly.basewidget import BaseFigureWidget\n"
                       "BaseFigureWidget._esm = 'x'\npio._renderers = None\nvalue = 1\n")
    assert _assigned_attributes(planted) == ["BaseFigureWidget._esm", "pio._renderers"]


def test_a_malformed_path_is_answered_before_any_handler_touches_a_file():
    from workbench.server.patches import malformed_path

    for path in ("/voila/render/..%00", "/voila/render/a%00b.ipynb", "/voila/render/%0a.ipynb",
                 "/voila/templates/workbench/static/" + "n" * 300, "/voila/render/" + "a/" * 2100):
        assert malformed_path(path) == 400, path
    for path in ("/voila/render/..", "/voila/templates/workbench/static/..%2f..%2fconf.json",
                 "/voila/templates/%2e%2e/static/x", "/voila/static/..%5c..%5cx"):
        assert malformed_path(path) == 404, path
    for path in ("/voila/render/fight.ipynb", "/voila/templates/workbench/static/workbench-favicon.svg",
                 "/voila/render/01_a..b.ipynb", "/voila/static/voila.js"):
        assert malformed_path(path) is None, path
