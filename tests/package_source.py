"""The workbench package's source, parsed once per run for the tests that read it as code (the layer checks,
the charts' template check, the HTML escaping checks): each file's nodes are cached by its text, so each file
is parsed and walked once (not again by each check, nor for each copy of the package a check plants an import
in), and a file whose text changed is parsed anew."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

__all__ = ["PACKAGE", "nodes"]

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"


@functools.cache
def _walked(source: str, filename: str) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(ast.parse(source, filename=filename)))


def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file at `path`, in `ast.walk` order."""
    return _walked(path.read_text(encoding="utf-8"), path.name)
