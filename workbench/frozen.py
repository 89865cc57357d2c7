"""The one frozen base of the workbench's data models: immutable, and no field it does not declare.

Rules tables, encounters, plans and reports are values: two with the same fields are the same, nothing
changes one after it is made (a change makes a new one with `model_copy`), and a misspelt field in a file
is refused instead of ignored.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
