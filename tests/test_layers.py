"""The layers of DESIGN.md: pure logic never imports pandas, plotly or ipywidgets; imports point down only."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"
HEAVY = ("pandas", "plotly", "ipywidgets", "anywidget", "numpy")
# Upper layers, each allowed to import the ones after it in this order (and the domain below them all).
UPPER = ("cli", "apps", "render", "charts", "tables")


def _layer(path: Path) -> str:
    """"domain" for workbench/<noun>.py; else the sub-package name (apps, charts, ...)."""
    relative = path.relative_to(PACKAGE).parts
    return relative[0] if len(relative) > 1 else "domain"


def _imports(path: Path, top_level_only: bool) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    names: list[str] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_domain_modules_never_import_heavy_libraries_anywhere():
    offenders = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in _modules()
        if _layer(path) == "domain"
        for name in _imports(path, top_level_only=False)
        if name.split(".")[0] in HEAVY
    ]
    assert offenders == []


def test_imports_point_down_only():
    rank = {layer: i for i, layer in enumerate(UPPER)}  # cli 0 (top) ... tables 4; domain below all
    offenders = []
    for path in _modules():
        here = _layer(path)
        for name in _imports(path, top_level_only=True):
            parts = name.split(".")
            if parts[0] != "workbench" or len(parts) < 2 or parts[1] not in rank:
                continue
            there = parts[1]
            if here == "domain" or (here in rank and rank[there] < rank[here]):
                offenders.append(f"{path.relative_to(PACKAGE)} ({here}) imports {name} ({there})")
    assert offenders == []


def test_importing_the_domain_loads_no_heavy_library():
    domain = [
        "workbench." + path.stem for path in _modules() if _layer(path) == "domain" and path.stem != "__init__"
    ]
    code = (
        "import sys, importlib\n"
        f"for name in {domain!r}: importlib.import_module(name)\n"
        "import workbench\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_checks_see_the_domain():
    # Guard against a test that can no longer fail: the domain layer must be found at all.
    assert {"monster.py", "ruleset.py"} <= {p.name for p in _modules() if _layer(p) == "domain"}
