"""The Draw Steel monster workbench: a monster's numbers from the book's formulas, as a small typed library.

`build_monster` and the ruleset are pure Python (pydantic only); `stat_table` needs pandas and is imported
on first use, so `import workbench` stays fast for scripts and the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.bestiary import PublishedMonster, load_bestiary, sample_bestiary
from workbench.calibration import calibrate, closest_published, compare_variants, fit_report
from workbench.errors import InvalidInput, RulesetError, WorkbenchError
from workbench.homebrew_rule import AttachedRule, HomebrewRule, attach_rule, load_rules, shipped_rules
from workbench.encounter import (
    Encounter,
    TerrainObject,
    creature_from_monster,
    load_encounter,
    parse_spec,
    save_encounter,
    suggest_groups,
)
from workbench.encounter import report as encounter_report
from workbench.library import (
    delete_monster,
    list_monsters,
    load_library,
    load_monster,
    rename_monster,
    save_monster,
)
from workbench.lore import core_lore
from workbench.objective import choose_objective
from workbench.party import budget, hero_strength, make_party
from workbench.quick_encounter import quick_plan
from workbench.malice import MaliceTracker, malice_schedule, spending_plan
from workbench.monster import Monster, Step, Tiers, Trait, ability_damage, build_monster, explain
from workbench.ruleset import Ruleset, core_ruleset, load_ruleset
from workbench.squad import SquadTracker, make_squad
from workbench.solo import compare_solos, instant_solo
from workbench.swarm import Swarm, SwarmScenario, simulate_swarms
from workbench.weakness import weakness_cases, weakness_wound

if TYPE_CHECKING:
    from workbench.apps.homebrew import swarm_app, weakness_app
    from workbench.apps.malice import malice_app
    from workbench.apps.squad import squad_app
    from workbench.apps.calibration import calibration_app
    from workbench.apps.solos import solos_app
    from workbench.apps.encounter import encounter_app
    from workbench.apps.builder import monster_builder
    from workbench.apps.explorer import scaling_explorer
    from workbench.tables.encounter import encounter_strength_table
    from workbench.tables import stat_table

__all__ = [
    "core_lore",
    "delete_monster",
    "list_monsters",
    "load_library",
    "load_monster",
    "monster_builder",
    "rename_monster",
    "save_monster",
    "scaling_explorer",
    "AttachedRule",
    "HomebrewRule",
    "Swarm",
    "SwarmScenario",
    "attach_rule",
    "load_rules",
    "shipped_rules",
    "simulate_swarms",
    "swarm_app",
    "weakness_app",
    "weakness_cases",
    "weakness_wound",
    "Encounter",
    "TerrainObject",
    "budget",
    "choose_objective",
    "creature_from_monster",
    "encounter_app",
    "encounter_strength_table",
    "hero_strength",
    "load_encounter",
    "make_party",
    "parse_spec",
    "quick_plan",
    "encounter_report",
    "save_encounter",
    "suggest_groups",
    "MaliceTracker",
    "SquadTracker",
    "make_squad",
    "malice_app",
    "malice_schedule",
    "spending_plan",
    "squad_app",
    "InvalidInput",
    "Monster",
    "PublishedMonster",
    "Ruleset",
    "RulesetError",
    "Step",
    "Tiers",
    "Trait",
    "WorkbenchError",
    "ability_damage",
    "build_monster",
    "calibrate",
    "calibration_app",
    "closest_published",
    "compare_variants",
    "core_ruleset",
    "explain",
    "fit_report",
    "load_bestiary",
    "sample_bestiary",
    "compare_solos",
    "instant_solo",
    "load_ruleset",
    "solos_app",
    "stat_table",
]

# Names whose modules import heavy libraries (pandas, plotly, ipywidgets): loaded on first use.
_LAZY = {"swarm_app": "workbench.apps.homebrew", "weakness_app": "workbench.apps.homebrew",
         "malice_app": "workbench.apps.malice", "squad_app": "workbench.apps.squad", "stat_table": "workbench.tables", "solos_app": "workbench.apps.solos",
         "calibration_app": "workbench.apps.calibration", "encounter_app": "workbench.apps.encounter",
         "encounter_strength_table": "workbench.tables.encounter",
         "monster_builder": "workbench.apps.builder", "scaling_explorer": "workbench.apps.explorer"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")
