"""Reading the project's TOML data files into validated models, one way for every table.

Decimals are read as `Decimal` (never binary floats) so the rules' 0.6 / 1.1 / 1.4 stay exact, and every
problem of a file is reported at once in a `RulesetError` naming the file.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from workbench.errors import RulesetError
from workbench.io import reading
from workbench.io.problem import FileProblem

__all__ = ["read_toml", "validate_data", "load_toml_model"]

Model = TypeVar("Model", bound=BaseModel)


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file as plain data with exact decimals; an unreadable, malformed or oversized file names itself
    (read through `workbench.io.reading`: size, depth and number-length caps)."""
    try:
        return reading.read_toml(path, parse_float=Decimal)
    except FileProblem as exc:
        raise RulesetError(str(path), [exc.reason]) from None


def validate_data(model: type[Model], data: Any, source: str) -> Model:
    """`data` validated as `model`; every failing entry is listed in one RulesetError."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(part) for part in error['loc']) or source}: {error['msg']}"
            for error in exc.errors()
        ]
        raise RulesetError(source, problems) from None


def load_toml_model(model: type[Model], path: str | Path) -> Model:
    """Read and validate a TOML data file as `model`."""
    return validate_data(model, read_toml(path), Path(path).name)
