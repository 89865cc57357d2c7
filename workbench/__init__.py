"""The Draw Steel monster workbench: a monster's numbers from the book's formulas, as a small typed library.

`build_monster`, the ruleset and the instant solo are imported with the package; every other public name is
imported on first use (`_HOME` says from where), so `import workbench` stays fast for scripts and the command
line (benchmarks/bench_import.py). The layers, bottom to top: `rules` (the data files), `model` (the Monster
as data), `monster`, `encounter`, `fight`, `homebrew`, `calibration`, then `tables`, `charts`, `render`,
`apps` and `cli`; imports point down only (tests/test_layers.py proves the graph has no cycle).
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

from workbench.arguments import checked as _checked
from workbench.errors import InvalidInput, NotFound, RulesetError, WorkbenchError
from workbench.model import Monster, Step, Tiers, Trait
from workbench.monster.formulas import ability_damage, build_monster, explain
from workbench.monster.solo import compare_solos, instant_solo
from workbench.rules.ruleset import Ruleset, core_ruleset, load_ruleset

__all__ = [
    "Ability",
    "Adventure",
    "AttachedRule",
    "Characteristics",
    "Damage",
    "DamageModifier",
    "Distance",
    "Effect",
    "Encounter",
    "Fight",
    "HomebrewRule",
    "ImportRefused",
    "InvalidInput",
    "MaliceTracker",
    "Monster",
    "Movement",
    "NotFound",
    "Potency",
    "PowerRoll",
    "PublishedMonster",
    "Ruleset",
    "RulesetError",
    "Size",
    "SquadTracker",
    "Step",
    "Swarm",
    "SwarmScenario",
    "Target",
    "TerrainObject",
    "Tier",
    "Tiers",
    "Trait",
    "WorkbenchError",
    "ability_damage",
    "add_bestiary",
    "attach_rule",
    "bestiary_app",
    "budget",
    "build_monster",
    "calibrate",
    "calibration_app",
    "choose_objective",
    "closest_published",
    "compare_solos",
    "compare_variants",
    "core_lore",
    "core_ruleset",
    "creature_from_monster",
    "creature_from_stat_block",
    "delete_monster",
    "encounter_app",
    "encounter_report",
    "encounter_strength_table",
    "explain",
    "export_adventure",
    "export_monster",
    "export_monsters",
    "fight_pace",
    "foe_attack",
    "fit_report",
    "hero_strength",
    "import_monster",
    "import_monsters",
    "instant_solo",
    "list_monsters",
    "load_bestiary",
    "load_encounter",
    "load_fight",
    "load_library",
    "load_monster",
    "load_rules",
    "load_ruleset",
    "make_party",
    "make_squad",
    "malice_app",
    "malice_schedule",
    "monster_builder",
    "open_code",
    "parse_spec",
    "parse_stat_block_text",
    "quick_plan",
    "read_stat_block",
    "relevel",
    "relevel_moves",
    "rename_monster",
    "sample_bestiary",
    "save_encounter",
    "save_monster",
    "scaling_explorer",
    "share_code",
    "shipped_rules",
    "simulate_swarms",
    "solos_app",
    "spending_plan",
    "squad_app",
    "stat_block_html",
    "stat_block_markdown",
    "stat_table",
    "suggest_encounters",
    "suggest_groups",
    "respite_check",
    "is_solo",
    "swarm_app",
    "tier_odds",
    "weakness_app",
    "weakness_cases",
    "weakness_wound",
]

# Where each name outside the eager core lives: "module" or "module:attribute" when the public name differs.
_HOME = {
    "AttachedRule": "workbench.model",
    "read_stat_block": "workbench.formats.stat_block",
    "open_code": "workbench.formats.share_code",
    "share_code": "workbench.formats.share_code",
    "parse_stat_block_text": "workbench.formats.book_text",
    "relevel": "workbench.monster.relevel",
    "relevel_moves": "workbench.monster.relevel",
    "Ability": "workbench.model",
    "Characteristics": "workbench.model",
    "Damage": "workbench.model",
    "DamageModifier": "workbench.model",
    "Distance": "workbench.model",
    "Effect": "workbench.model",
    "Movement": "workbench.model",
    "Potency": "workbench.model",
    "PowerRoll": "workbench.model",
    "Size": "workbench.model",
    "Target": "workbench.model",
    "Tier": "workbench.model",
    "core_lore": "workbench.rules.lore",
    "delete_monster": "workbench.monster.library",
    "list_monsters": "workbench.monster.library",
    "load_library": "workbench.monster.library",
    "load_monster": "workbench.monster.library",
    "rename_monster": "workbench.monster.library",
    "save_monster": "workbench.monster.library",
    "budget": "workbench.encounter.party",
    "hero_strength": "workbench.encounter.party",
    "make_party": "workbench.encounter.party",
    "Encounter": "workbench.encounter.encounter",
    "TerrainObject": "workbench.encounter.encounter",
    "creature_from_monster": "workbench.encounter.encounter",
    "load_encounter": "workbench.encounter.files",
    "parse_spec": "workbench.encounter.encounter",
    "save_encounter": "workbench.encounter.files",
    "suggest_groups": "workbench.encounter.groups",
    "respite_check": "workbench.encounter.respite",
    "Adventure": "workbench.encounter.adventure",
    "is_solo": "workbench.monster.solo",
    "encounter_report": "workbench.encounter.report:report",
    "suggest_encounters": "workbench.encounter.suggest",
    "creature_from_stat_block": "workbench.encounter.suggest",
    "choose_objective": "workbench.encounter.objective",
    "quick_plan": "workbench.encounter.quick_method",
    "Fight": "workbench.fight.fight",
    "load_fight": "workbench.fight.fight",
    "MaliceTracker": "workbench.fight.malice_tracker",
    "fight_pace": "workbench.fight.pace",
    "foe_attack": "workbench.fight.pace",
    "malice_schedule": "workbench.fight.malice_schedule",
    "spending_plan": "workbench.fight.malice_plan",
    "SquadTracker": "workbench.fight.squad",
    "make_squad": "workbench.fight.squad",
    "HomebrewRule": "workbench.homebrew.rule",
    "attach_rule": "workbench.homebrew.attach",
    "load_rules": "workbench.homebrew.rule",
    "shipped_rules": "workbench.homebrew.rule",
    "Swarm": "workbench.homebrew.swarm",
    "SwarmScenario": "workbench.homebrew.swarm",
    "simulate_swarms": "workbench.homebrew.swarm",
    "weakness_cases": "workbench.homebrew.weakness",
    "weakness_wound": "workbench.homebrew.weakness",
    "PublishedMonster": "workbench.formats.bestiary",
    "add_bestiary": "workbench.workspace.added_bestiary",
    "load_bestiary": "workbench.formats.bestiary",
    "sample_bestiary": "workbench.formats.bestiary",
    "calibrate": "workbench.calibration.fit",
    "closest_published": "workbench.calibration.fit",
    "compare_variants": "workbench.calibration.fit",
    "fit_report": "workbench.calibration.fit",
    "tier_odds": "workbench.monster.power_roll",
    "stat_table": "workbench.tables.stats",
    "encounter_strength_table": "workbench.tables.encounter",
    "ImportRefused": "workbench.formats.record",
    "import_monster": "workbench.formats.reader",
    "import_monsters": "workbench.formats.reader",
    "export_adventure": "workbench.export.adventure",
    "export_monster": "workbench.export.exporter",
    "export_monsters": "workbench.export.exporter",
    "stat_block_html": "workbench.render.stat_block",
    "stat_block_markdown": "workbench.render.stat_block",
    "monster_builder": "workbench.apps.builder",
    "calibration_app": "workbench.apps.calibration",
    "encounter_app": "workbench.apps.encounter",
    "bestiary_app": "workbench.apps.bestiary",
    "scaling_explorer": "workbench.apps.explorer",
    "swarm_app": "workbench.apps.homebrew",
    "weakness_app": "workbench.apps.homebrew",
    "malice_app": "workbench.apps.malice",
    "solos_app": "workbench.apps.solos",
    "squad_app": "workbench.apps.squad",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        import importlib

        module, _, attribute = _HOME[name].partition(":")
        value = getattr(importlib.import_module(module), attribute or name)
        if inspect.isfunction(value):
            value = _checked(value)  # its arguments' kinds checked against its annotations (workbench.arguments)
        globals()[name] = value  # the next lookup is a plain attribute
        return value
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Every public name, loaded or not (for tab completion in a notebook)."""
    return sorted(set(globals()) | set(__all__))


def _register_notebook_display() -> None:
    """Inside an IPython kernel, a Monster displays as its stat block (the render layer registers how)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and hasattr(shell, "display_formatter"):
        from workbench.render.notebook import register_formatters

        register_formatters(shell)


_register_notebook_display()
