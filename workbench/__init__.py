"""The Draw Steel monster workbench: a monster's numbers from the book's formulas, as a small typed library.

`build_monster`, the ruleset and the instant solo are imported with the package; every other name is
imported on first use (`_LAZY`), so `import workbench` stays fast for scripts and the command line
(benchmarks/bench_import.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.errors import InvalidInput, RulesetError, WorkbenchError
from workbench.monster import (
    Monster,
    Step,
    Tiers,
    Trait,
    ability_damage,
    build_monster,
    explain,
)
from workbench.ruleset import Ruleset, core_ruleset, load_ruleset
from workbench.solo import compare_solos, instant_solo

if TYPE_CHECKING:
    from workbench.apps.builder import monster_builder
    from workbench.apps.calibration import calibration_app
    from workbench.apps.encounter import encounter_app
    from workbench.apps.explorer import scaling_explorer
    from workbench.apps.homebrew import swarm_app, weakness_app
    from workbench.apps.malice import malice_app
    from workbench.apps.solos import solos_app
    from workbench.apps.squad import squad_app
    from workbench.bestiary import PublishedMonster, load_bestiary, sample_bestiary
    from workbench.calibration import (
        calibrate,
        closest_published,
        compare_variants,
        fit_report,
    )
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
    from workbench.homebrew_rule import (
        AttachedRule,
        HomebrewRule,
        attach_rule,
        load_rules,
        shipped_rules,
    )
    from workbench.library import (
        delete_monster,
        list_monsters,
        load_library,
        load_monster,
        rename_monster,
        save_monster,
    )
    from workbench.lore import core_lore
    from workbench.malice import MaliceTracker, malice_schedule, spending_plan
    from workbench.objective import choose_objective
    from workbench.party import budget, hero_strength, make_party
    from workbench.quick_encounter import quick_plan
    from workbench.squad import SquadTracker, make_squad
    from workbench.swarm import Swarm, SwarmScenario, simulate_swarms
    from workbench.tables import stat_table
    from workbench.tables.encounter import encounter_strength_table
    from workbench.weakness import weakness_cases, weakness_wound

__all__ = [
    "AttachedRule",
    "Encounter",
    "HomebrewRule",
    "InvalidInput",
    "MaliceTracker",
    "Monster",
    "PublishedMonster",
    "Ruleset",
    "RulesetError",
    "SquadTracker",
    "Step",
    "Swarm",
    "SwarmScenario",
    "TerrainObject",
    "Tiers",
    "Trait",
    "WorkbenchError",
    "ability_damage",
    "attach_rule",
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
    "delete_monster",
    "encounter_app",
    "encounter_report",
    "encounter_strength_table",
    "explain",
    "fit_report",
    "hero_strength",
    "instant_solo",
    "list_monsters",
    "load_bestiary",
    "load_encounter",
    "load_library",
    "load_monster",
    "load_rules",
    "load_ruleset",
    "make_party",
    "make_squad",
    "malice_app",
    "malice_schedule",
    "monster_builder",
    "parse_spec",
    "quick_plan",
    "rename_monster",
    "sample_bestiary",
    "save_encounter",
    "save_monster",
    "scaling_explorer",
    "shipped_rules",
    "simulate_swarms",
    "solos_app",
    "spending_plan",
    "squad_app",
    "stat_table",
    "suggest_groups",
    "swarm_app",
    "weakness_app",
    "weakness_cases",
    "weakness_wound",
]

# Loaded on first use: every name outside the core contract (a module full of pydantic models costs time
# to build), and the names whose modules import heavy libraries (pandas, plotly, ipywidgets).
# "module:attribute" where the public name differs from the module's.
_LAZY = {
    "PublishedMonster": "workbench.bestiary",
    "load_bestiary": "workbench.bestiary",
    "sample_bestiary": "workbench.bestiary",
    "calibrate": "workbench.calibration",
    "closest_published": "workbench.calibration",
    "compare_variants": "workbench.calibration",
    "fit_report": "workbench.calibration",
    "AttachedRule": "workbench.homebrew_rule",
    "HomebrewRule": "workbench.homebrew_rule",
    "attach_rule": "workbench.homebrew_rule",
    "load_rules": "workbench.homebrew_rule",
    "shipped_rules": "workbench.homebrew_rule",
    "Encounter": "workbench.encounter",
    "TerrainObject": "workbench.encounter",
    "creature_from_monster": "workbench.encounter",
    "load_encounter": "workbench.encounter",
    "parse_spec": "workbench.encounter",
    "save_encounter": "workbench.encounter",
    "suggest_groups": "workbench.encounter",
    "encounter_report": "workbench.encounter:report",
    "delete_monster": "workbench.library",
    "list_monsters": "workbench.library",
    "load_library": "workbench.library",
    "load_monster": "workbench.library",
    "rename_monster": "workbench.library",
    "save_monster": "workbench.library",
    "core_lore": "workbench.lore",
    "choose_objective": "workbench.objective",
    "budget": "workbench.party",
    "hero_strength": "workbench.party",
    "make_party": "workbench.party",
    "quick_plan": "workbench.quick_encounter",
    "MaliceTracker": "workbench.malice",
    "malice_schedule": "workbench.malice",
    "spending_plan": "workbench.malice",
    "SquadTracker": "workbench.squad",
    "make_squad": "workbench.squad",
    "Swarm": "workbench.swarm",
    "SwarmScenario": "workbench.swarm",
    "simulate_swarms": "workbench.swarm",
    "weakness_cases": "workbench.weakness",
    "weakness_wound": "workbench.weakness",
    "swarm_app": "workbench.apps.homebrew", "weakness_app": "workbench.apps.homebrew",
         "malice_app": "workbench.apps.malice", "squad_app": "workbench.apps.squad", "stat_table": "workbench.tables", "solos_app": "workbench.apps.solos",
         "calibration_app": "workbench.apps.calibration", "encounter_app": "workbench.apps.encounter",
         "encounter_strength_table": "workbench.tables.encounter",
         "monster_builder": "workbench.apps.builder", "scaling_explorer": "workbench.apps.explorer"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, _, attribute = _LAZY[name].partition(":")
        return getattr(importlib.import_module(module), attribute or name)
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Every public name, loaded or not (for tab completion in a notebook)."""
    return sorted(set(globals()) | set(__all__))
