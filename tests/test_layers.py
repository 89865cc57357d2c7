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
    "markup": 0,  # HTML built as Markup: user text escaped by default
    "io": 0,  # reading and writing files safely
    "arguments": 0,  # the public API's check of its arguments' kinds
    "rules": 1,
    "model": 2,
    "monster": 3,
    "encounter": 4,
    "fight": 5,
    "homebrew": 6,
    "formats": 7,  # every file in: Forge Steel, Foundry, Steel Compendium (published bestiaries too); share codes
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
# Within these layers too, bottom to top: a module imports modules of its own rank or lower ones only.
MODULE_RANKS = {
    "workbench.io.problem": 0,  # a file's failure in one line
    "workbench.io.home": 0,  # where the Director's folder is
    "workbench.io.process": 0,  # whether a process still runs
    "workbench.io.fetch": 0,  # a URL downloaded
    "workbench.io.reading": 1,
    "workbench.io.lock": 2,  # the folder lock and its journal
    "workbench.io.archive": 2,  # a folder's or an archive's files, read within caps
    "workbench.io.writing": 3,
    "workbench.io.saved": 4,  # the versioned files the workbench saves, read back
    "workbench.encounter.party": 0,  # the party and its budget
    "workbench.encounter.objective": 1,
    "workbench.encounter.encounter": 2,  # the encounter and its creatures
    "workbench.encounter.editing": 3,
    "workbench.encounter.quick_method": 3,
    "workbench.encounter.guidelines": 3,  # the book's checks
    "workbench.encounter.groups": 4,  # initiative groups
    "workbench.encounter.report": 5,
    "workbench.encounter.files": 6,  # an encounter saved and read back
    "workbench.encounter.respite": 6,
    "workbench.encounter.suggest": 6,
    "workbench.encounter.adventure": 7,  # encounters in order
    "workbench.fight.deaths": 0,  # the ROUND:COUNT notation of heroes' deaths
    "workbench.fight.squad": 0,
    "workbench.fight.malice_features": 1,
    "workbench.fight.malice_schedule": 2,
    "workbench.fight.malice_plan": 3,
    "workbench.fight.malice_tracker": 4,
    "workbench.fight.pace": 5,
    "workbench.fight.state": 6,
    "workbench.fight.setup": 7,
    "workbench.fight.ending": 7,  # when a fight is over
    "workbench.fight.events": 8,
    "workbench.fight.victories": 9,
    "workbench.fight.reinforcements": 8,  # the objectives' reinforcement budgets
    "workbench.fight.fight": 10,
    "workbench.workspace.folder": 0,  # the Director's folder and what lives in it
    "workbench.workspace.added_bestiary": 0,
    "workbench.workspace.migration": 0,  # the old libraries' monsters moved in
    "workbench.workspace.bestiary_filter": 0,  # the bestiary browser's filter
    "workbench.workspace.state": 1,  # the workspace file the pages share
    "workbench.workspace.shelf": 1,  # every monster at hand, on its shelf
    "workbench.workspace.fight_setup": 2,
    "workbench.workspace.fight_victories": 2,  # a fight's Victories into the party and the adventure
}
RANKED_WITHIN = ("encounter", "fight", "io", "workspace")


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


def test_every_module_has_a_ranked_layer():
    assert sorted({layer(m) for m in import_graph()} - set(RANKS)) == []


def test_imports_point_down_only():
    assert upward_imports(import_graph()) == []


def upward_imports_within(graph: dict[str, set[str]]) -> list[str]:
    """Imports between two modules of one layer of `RANKED_WITHIN` that point up its `MODULE_RANKS`."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if module in MODULE_RANKS and target in MODULE_RANKS and layer(module) == layer(target)
        and MODULE_RANKS[target] > MODULE_RANKS[module]
    )


def test_every_module_of_a_layer_ranked_within_has_a_rank():
    graph = import_graph()
    inner = {m for m in graph if layer(m) in RANKED_WITHIN and m.count(".") > 1}
    assert sorted(inner - set(MODULE_RANKS)) == []
    assert sorted(set(MODULE_RANKS) - inner) == []


def test_imports_within_a_ranked_layer_point_down_only():
    assert upward_imports_within(import_graph()) == []


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


def test_a_planted_upward_import_within_a_layer_is_seen(tmp_path):
    copy = _planted(tmp_path, "from workbench.io.writing import write_atomic", into="io/reading.py")
    assert upward_imports_within(import_graph(copy)) == ["workbench.io.reading imports workbench.io.writing"]


def test_a_planted_heavy_import_in_pure_logic_is_seen(tmp_path):
    copy = _planted(tmp_path, "import pandas", into="monster/formulas.py")
    assert heavy_imports(copy) == ["workbench.monster.formulas imports pandas"]


def test_a_planted_import_up_a_ranked_package_and_an_unranked_module_are_seen(tmp_path):
    copy = _planted(tmp_path, "from workbench.fight.fight import Fight", into="fight/state.py")
    (copy / "fight" / "extra.py").write_text("")
    graph = import_graph(copy)
    assert upward_imports_within(graph) == ["workbench.fight.state imports workbench.fight.fight"]
    inner = {m for m in graph if layer(m) in RANKED_WITHIN and m.count(".") > 1}
    assert sorted(inner - set(MODULE_RANKS)) == ["workbench.fight.extra"]
