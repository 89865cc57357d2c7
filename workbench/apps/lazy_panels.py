"""A Tab's or an Accordion's panels made when first opened.

Why: the browser builds a model for every widget a tool makes, and draws every widget in its tree, a closed tab's
and a folded section's too (they are only hidden). A tool whose panels a Director opens now and then (the encounter
editor's objectives, pace and shortcuts, the bestiary adder) opens faster when each such panel is made the first
time it is opened: before that, its place holds an empty box.

`LazyPanels(kind, parts, selected)` makes `fold`, a `widgets.Tab` or `widgets.Accordion` (`kind`) with one child
per part, `(title, make)`, part `selected` open (None: none); `make()` makes the panel when the Director first
opens it (the fold's `selected_index`), or when a script asks for it (`panel(i)`: made and put in its place, not
opened). `LazyControls` is a tool's `controls` (its controls by name, for scripts and tests) when some of them
live in such panels: asking for one makes its panel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from workbench.apps.message import plain_tooltips, plain_tooltips_as_made

__all__ = ["LazyControls", "LazyPanels"]


class LazyPanels:
    """`fold`'s panels, each made by its part the first time it is opened or asked for; `made(i)` says whether it
    is."""

    def __init__(self, kind: type[widgets.Tab | widgets.Accordion],
                 parts: Sequence[tuple[str, Callable[[], widgets.Widget]]], selected: int | None = 0,
                 css_class: str = "") -> None:
        self._makers = tuple(make for _title, make in parts)
        self._made: dict[int, widgets.Widget] = {}
        self._places = tuple(widgets.Box() for _ in parts)
        # made whole at once: the browser is sent the fold as it is, not the fold and then each change to it
        self.fold = kind(children=self._places, titles=tuple(title for title, _make in parts),
                         selected_index=selected, _dom_classes=(css_class,) if css_class else ())
        self.fold.observe(self._opened, names="selected_index")
        if selected is not None:
            self.panel(selected)

    def _opened(self, change: dict[str, Any]) -> None:
        if change["new"] is not None:
            self.panel(change["new"])

    def made(self, index: int) -> bool:
        return index in self._made

    def panel(self, index: int) -> widgets.Widget:
        """Panel `index`, made now if it was not yet (in its place, whether or not it is open)."""
        if index not in self._made:
            with plain_tooltips_as_made():
                made = self._makers[index]()
            plain_tooltips(made)  # as the page gave the rest when it was built
            self._made[index] = made
            self._places[index].children = (made,)
        return self._made[index]


class LazyControls(Mapping[str, Any]):
    """Controls by name: `ready`'s as they are; each of `later`, (names, make), a panel's: `make()` makes the panel
    and returns its controls in the order of `names`, the first time one of them is asked for."""

    def __init__(self, ready: dict[str, Any],
                 later: Sequence[tuple[Sequence[str], Callable[[], Sequence[Any]]]] = ()) -> None:
        self._ready = dict(ready)
        self._later = {name: (tuple(names), make) for names, make in later for name in names}

    def __getitem__(self, name: str) -> Any:
        if name not in self._ready and name in self._later:
            names, make = self._later[name]
            self._ready.update(zip(names, make(), strict=True))
        return self._ready[name]

    def __contains__(self, name: object) -> bool:
        return name in self._ready or name in self._later  # without making the panel

    def __iter__(self) -> Iterator[str]:
        return iter([*self._ready, *(name for name in self._later if name not in self._ready)])

    def __len__(self) -> int:
        return len(self._ready.keys() | self._later.keys())
