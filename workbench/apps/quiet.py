"""Don't react to my own change: a flag an app's observers read, raised for a block of code.

An app that writes its own controls (a loaded monster put into the boxes, a picker's options narrowed) would
hear each write as the Director's and redraw halfway through. `with self._quiet:` raises the flag for the
block; each observer starts with `if self._quiet: return`. Blocks nest (a quiet helper called from a quiet
block leaves the flag raised until the outer block ends), and an exception lowers it on the way out.
"""

from __future__ import annotations

from types import TracebackType

__all__ = ["Quiet"]


class Quiet:
    """True while at least one `with` block over it is running."""

    def __init__(self) -> None:
        self._depth = 0

    def __bool__(self) -> bool:
        return self._depth > 0

    def __enter__(self) -> Quiet:
        self._depth += 1
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._depth -= 1

    def __repr__(self) -> str:
        return f"Quiet({'raised' if self else 'lowered'})"
