"""The layers of `workbench` (the README's layout), checked on its whole import graph.

Every import counts: module level, inside functions, under `TYPE_CHECKING`, relative or absolute. Each
package has a rank; a module may import its own layer or a lower one, and the graph has no cycle at all.
A package of several ideas ranks its modules too (`MODULE_RANKS`): within it, imports point down.
Pure logic (everything below `tables`) never imports pandas, plotly or ipywidgets. The checker is run on a
copy of the package with a planted upward import, so these tests can fail.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

from package_source import PACKAGE, nodes

HEAVY = ("pandas", "plotly", "ipywidgets", "anywidget", "numpy", "IPython")
# Bottom to top. A module imports its own layer or lower ones only. "workbench" is the package's facade.
RANKS = {
    "errors": 0,
    "frozen": 0,
    "numbers": 0,  # exact numbers written for people
    "io": 0,  # reading and writing files safely
    "arguments": 0,  # the public API's check of its arguments' kinds
    "rules": 1,
    "model": 2,
    "monster": 3,
    "encounter": 4,
    "fight": 5,
    "homebrew": 6,
    "formats": 7,  # every file in: Forge Steel, Foundry, Steel Compendium (published bestiaries too)
    "calibration": 8,  # reads published stat blocks through formats
    "workspace": 9,
    "tables": 10,
    "charts": 11,
    "render": 12,
    "export": 13,  # every file out: the tools' files from formats, the text and printed card from render
    "apps": 14,
    "server": 15,  # serves the pages; only cli imports it (test_only_the_command_line_imports_the_server)
    "cli": 16,
    "workbench": 17,
}
PURE_BELOW = RANKS["tables"]
# Within a package of several ideas, its modules bottom to top: a module imports only those before it.
MODULE_RANKS = {
    "fight": ("squad", "malice_features", "malice_schedule", "malice_plan", "malice_tracker", "pace", "state",
              "setup", "events", "victories", "fight"),
}


def module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "workbench"


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> every workbench module it imports, anywhere in its file (functions, TYPE_CHECKING too)."""
    paths = {module_name(p, package): p for p in sorted(package.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in nodes(path):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: resolve against this module's package
                    base = name.split(".")[: len(name.split(".")) - node.level + (1 if is_package else 0)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                targets = [origin] + [f"{origin}.{alias.name}" for alias in node.names]
            for target in targets:
                if target in paths and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def heavy_imports(package: Path = PACKAGE) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        name = module_name(path, package)
        if RANKS[layer(name)] >= PURE_BELOW:
            continue
        for node in nodes(path):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{name} imports {n}" for n in names if n.split(".")[0] in HEAVY]
    return found


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} ({layer(module)}) imports {target} ({layer(target)})"
        for module, targets in graph.items()
        for target in targets
        if RANKS[layer(target)] > RANKS[layer(module)]
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted; [] for no cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def module_rank(module: str) -> tuple[str, int] | None:
    """(package, place) for a module of a package in `MODULE_RANKS`; None for any other module."""
    parts = module.split(".")
    if len(parts) != 3 or parts[2] not in MODULE_RANKS.get(parts[1], ()):
        return None
    return parts[1], MODULE_RANKS[parts[1]].index(parts[2])


def unranked_modules(graph: dict[str, set[str]]) -> list[str]:
    return sorted(m for m in graph if len(m.split(".")) == 3 and layer(m) in MODULE_RANKS and module_rank(m) is None)


def upward_module_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports between two modules of one ranked package that point at a module ranked above (or at itself)."""
    found = []
    for module, targets in graph.items():
        for target in targets:
            here, there = module_rank(module), module_rank(target)
            if here and there and here[0] == there[0] and there[1] >= here[1]:
                found.append(f"{module} imports {target}")
    return sorted(found)


def test_every_module_has_a_ranked_layer():
    assert sorted({layer(m) for m in import_graph()} - set(RANKS)) == []


def test_imports_point_down_only():
    assert upward_imports(import_graph()) == []


def test_every_module_of_a_ranked_package_has_its_place():
    assert unranked_modules(import_graph()) == []


def test_a_ranked_packages_modules_import_down_only():
    assert upward_module_imports(import_graph()) == []


def test_the_import_graph_has_no_cycle():
    assert cycles(import_graph()) == []


def test_pure_logic_never_imports_heavy_libraries_anywhere():
    assert heavy_imports() == []


def test_importing_the_pure_layers_loads_no_heavy_library():
    pure = sorted(m for m in import_graph() if RANKS[layer(m)] < PURE_BELOW and layer(m) != "workbench")
    code = (
        "import sys, importlib\n"
        f"for name in {pure!r}: importlib.import_module(name)\n"
        "import workbench\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def importers_of(graph: dict[str, set[str]], package: str) -> list[str]:
    """The modules outside `package` that import any module of it."""
    return sorted(module for module, targets in graph.items()
                  if layer(module) != package and any(layer(target) == package for target in targets))


def test_only_the_command_line_imports_the_server():
    """The server fills in `workbench.apps.serving` in its kernels; nothing but the `app` command asks for it."""
    assert importers_of(import_graph(), "server") == ["workbench.cli.app"]


def test_no_notebook_imports_the_server():
    notebooks = sorted(PACKAGE.rglob("*.ipynb")) + sorted((PACKAGE.parent / "notebooks").glob("*.ipynb"))
    assert notebooks
    assert [path.name for path in notebooks if "workbench.server" in path.read_text(encoding="utf-8")] == []


def test_the_checks_see_the_whole_package():
    graph = import_graph()
    assert {"workbench.model", "workbench.monster.formulas", "workbench.apps.builder"} <= set(graph)
    # A function-level import is an edge: the notebook display is registered from inside a function.
    assert "workbench.render.notebook" in graph["workbench"]


def _planted(tmp_path: Path, line: str, into: str = "model/__init__.py") -> Path:
    copy = tmp_path / "workbench"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / into
    target.write_text(target.read_text() + f"\n\ndef _planted():\n    {line}\n")
    return copy


def test_a_planted_upward_import_inside_a_function_is_a_cycle_and_a_violation(tmp_path):
    copy = _planted(tmp_path, "from workbench.render.stat_block import stat_block_html")
    graph = import_graph(copy)
    assert any("workbench.model" in group and "workbench.render.stat_block" in group for group in cycles(graph))
    assert "workbench.model (model) imports workbench.render.stat_block (render)" in upward_imports(graph)


def test_a_planted_type_checking_import_is_seen(tmp_path):
    copy = _planted(tmp_path, "if False:\n        from ..apps import builder", into="rules/ruleset.py")
    assert "workbench.rules.ruleset (rules) imports workbench.apps.builder (apps)" in upward_imports(
        import_graph(copy))


def test_a_planted_import_of_the_server_is_seen(tmp_path):
    copy = _planted(tmp_path, "from workbench.server import visit", into="apps/pages.py")
    assert importers_of(import_graph(copy), "server") == ["workbench.apps.pages", "workbench.cli.app"]


def test_a_planted_heavy_import_in_pure_logic_is_seen(tmp_path):
    copy = _planted(tmp_path, "import pandas", into="monster/formulas.py")
    assert heavy_imports(copy) == ["workbench.monster.formulas imports pandas"]


def test_a_planted_import_up_a_ranked_package_and_an_unranked_module_are_seen(tmp_path):
    copy = _planted(tmp_path, "from workbench.fight.fight import Fight", into="fight/state.py")
    (copy / "fight" / "extra.py").write_text("")
    graph = import_graph(copy)
    assert upward_module_imports(graph) == ["workbench.fight.state imports workbench.fight.fight"]
    assert unranked_modules(graph) == ["workbench.fight.extra"]
