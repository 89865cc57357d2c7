"""The encounter editor's shortcuts: a creature typed as a spec ("2 × level 3 platoon brute"), one of the
Director's own monsters (passed in, or loaded from the homebrew library folder), and dynamic terrain.

The panel owns the controls and reads them into what the encounter adds (`spec`, `monster`, `terrain`),
refusing by the box's name what it cannot read; the editor's handler makes the calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import ipywidgets as widgets

from workbench.apps.actions import Actions
from workbench.apps.encounter_view import kind_of
from workbench.encounter.encounter import Creature, TerrainObject, creature_from_monster, parse_spec
from workbench.errors import InvalidInput
from workbench.model import Monster
from workbench.rules.limits import typed_whole

__all__ = ["ShortcutsPanel"]


class ShortcutsPanel:
    """The shortcut controls: the spec, the Monster list and its library folder, and the terrain boxes."""

    def __init__(self, library_folder: str | Path | None, actions: Actions) -> None:
        self.spec = widgets.Text(description="Spec", placeholder="2 × level 3 platoon brute",
                                 layout={"width": "360px"})
        self.add_spec = widgets.Button(description="Add spec")
        self.star = widgets.Checkbox(value=False, description="Star of the show", indent=False)
        self.monster = widgets.Dropdown(options=[], description="Monster", layout={"width": "360px"})
        self.count = widgets.BoundedIntText(value=1, min=1, max=99, description="Count", layout={"width": "160px"})
        self.add_monster = widgets.Button(description="Add monster")
        self.folder = widgets.Text(value=str(library_folder or ""), description="Library",
                                   placeholder="folder (blank: the workspace's monsters)")
        self.load_library = widgets.Button(description="Load library")
        self.terrain_name = widgets.Text(description="Terrain", placeholder="e.g. collapsing pillar")
        self.terrain_ev = widgets.BoundedIntText(value=2, min=0, max=999, description="EV",
                                                 layout={"width": "160px"})
        self.terrain_level = widgets.Text(description="Level", placeholder="its level, e.g. 3",
                                          layout={"width": "180px"})
        self.add_terrain = widgets.Button(description="Add terrain")
        for name, button in (("add_spec", self.add_spec), ("add_monster", self.add_monster),
                             ("load_library", self.load_library), ("add_terrain", self.add_terrain)):
            actions.click(button, (name,))

    def set_monsters(self, items: Sequence[Monster], first_from: str = "") -> None:
        """The Monster list offers these, the first chosen. Two of one name are told apart by level, organization
        and role; `first_from` follows the first one's name instead, saying where it comes from (the builder)."""
        labels = [m.name or kind_of(creature_from_monster(m)) for m in items]
        twice = {label for label in labels if labels.count(label) > 1}
        labels = [label + first_from if i == 0 and first_from
                  else f"{label} ({kind_of(creature_from_monster(m))})" if label in twice else label
                  for i, (label, m) in enumerate(zip(labels, items, strict=True))]
        self.monster.options = list(zip(labels, items, strict=True))
        self.monster.index = 0 if items else None

    def spec_creature(self) -> Creature:
        return parse_spec(self.spec.value).model_copy(update={"star": self.star.value})

    def monster_creature(self) -> Creature:
        monster = self.monster.value
        if monster is None:
            raise InvalidInput("monster", "", "a monster from the list (pass some in, or load the library)")
        return creature_from_monster(monster, self.count.value, star=self.star.value)

    def terrain(self) -> TerrainObject:
        return TerrainObject(name=self._terrain_name(), ev=self.terrain_ev.value, level=self._terrain_level())

    def _terrain_level(self) -> int | None:
        """The object's level as typed (blank: not given, and "Use only objects of the heroes' level or
        lower" cannot be checked for it)."""
        text = self.terrain_level.value.strip()
        if not text:
            return None
        level = typed_whole(text, 3)
        if not level:  # None, or 0
            raise InvalidInput("terrain_level", self.terrain_level.value, "one level from 1 upwards, or blank")
        return level

    def _terrain_name(self) -> str:
        if not self.terrain_name.value.strip():
            raise InvalidInput("terrain", self.terrain_name.value, "a name for the dynamic terrain object")
        return str(self.terrain_name.value.strip())
