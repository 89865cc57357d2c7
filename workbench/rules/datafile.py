"""Reading the project's TOML data files into validated models, one way for every table.

Decimals are read as `Decimal` (never binary floats) so the rules' 0.6 / 1.1 / 1.4 stay exact, and every
problem of a file is reported at once in a `RulesetError` naming the file.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from workbench.errors import RulesetError

__all__ = ["read_toml", "validate_data", "load_toml_model"]

Model = TypeVar("Model", bound=BaseModel)


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file as plain data with exact decimals; an unreadable or malformed file names itself."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle, parse_float=Decimal)
    except OSError as exc:
        raise RulesetError(str(path), [f"cannot read the file: {exc.strerror or exc}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(str(path), [f"not valid TOML: {exc}"]) from None


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
