"""Guards of the server's changes to other projects' classes and browser code (workbench/server/patches.py): every
attribute a change or a module of the server takes from Voilà, tornado, jupyter_server, plotly or ipykernel is still
there, and so is the text of anywidget's and Voilà's JavaScript each change of the page template relies on.

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
from workbench.server.patches import NEEDS, SCRIPT_NEEDS, Need, ScriptNeed, missing, missing_scripts

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
    assert "VoilaHandler.prepare" in assigned and "RequestInfoSocketHandler.check_origin" in assigned
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


TEMPLATE = SERVER / "template" / "workbench" / "index.html.j2"


@pytest.mark.parametrize("need", SCRIPT_NEEDS, ids=lambda need: f"{need.dependency}:{need.change[:40]}")
def test_what_the_templates_javascript_relies_on_is_installed_and_the_template_makes_the_change(need: ScriptNeed):
    assert missing_scripts([need]) == [], (
        f"{need.dependency} is now {importlib.metadata.version(need.dependency)}; the page template was written for "
        f"{need.written_for}: see workbench/server/patches.py")
    assert need.template_code in TEMPLATE.read_text(encoding="utf-8")  # listed here, made there


def test_a_script_text_gone_is_named_with_its_dependency_and_version(tmp_path):
    (tmp_path / "labextensions" / "anywidget" / "static").mkdir(parents=True)
    (tmp_path / "labextensions" / "anywidget" / "static" / "1.js").write_text("AbortSignal.timeout(2500)")
    gone = missing_scripts(SCRIPT_NEEDS[:1], roots=[tmp_path])
    version = importlib.metadata.version("anywidget")
    assert gone == [f"anywidget {version} (the page template was written for 0.11.0) has no 'AbortSignal.timeout(2000)' "
                    "in labextensions/anywidget/static/*.js, which the template's change relies on: a widget model "
                    "(a chart's) gets a minute to start, not anywidget's 2 s"]
    assert missing_scripts(SCRIPT_NEEDS[:1], roots=[]) == gone  # no such file at all: the same


# the template's scripts that change no other project's code: a share code's link handed to the page's kernel
OWN_SCRIPTS = ("const deliver = () =>",)


def test_every_script_in_the_template_is_a_listed_change_or_its_own():
    """The template's own <script> blocks are the listed changes, each one marked by its code, and the
    workbench's own: a new one must be listed (and guarded) too."""
    scripts = re.findall(r"<script>(.*?)</script>", TEMPLATE.read_text(encoding="utf-8"), flags=re.S)
    chunks = [chunk for body in scripts for chunk in body.split("})();") if chunk.strip()]
    changes = [chunk for chunk in chunks if not any(own in chunk for own in OWN_SCRIPTS)]
    assert len(changes) == len(SCRIPT_NEEDS) and len(chunks) == len(SCRIPT_NEEDS) + len(OWN_SCRIPTS)
    for chunk in changes:
        assert sum(need.template_code in chunk for need in SCRIPT_NEEDS) == 1, chunk[:200]
