"""The workbench package's source, parsed once per run for the tests that read it as code (the layer checks,
the charts' template check): each file's syntax tree is cached by its text, so each file is parsed once
(not again by each check), and a file whose text changed is parsed anew."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

__all__ = ["PACKAGE", "nodes"]

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"


@functools.cache
def _parsed(source: str, filename: str) -> ast.Module:
    return ast.parse(source, filename=filename)


def nodes(path: Path) -> list[ast.AST]:
    """Every node of the file at `path`, in `ast.walk` order."""
    return list(ast.walk(_parsed(path.read_text(encoding="utf-8"), path.name)))
