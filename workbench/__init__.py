"""The Draw Steel monster workbench: a monster's numbers from the book's formulas, as a small typed library.

`build_monster` and the ruleset are pure Python (pydantic only); `stat_table` needs pandas and is imported
on first use, so `import workbench` stays fast for scripts and the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.bestiary import PublishedMonster, load_bestiary, sample_bestiary
from workbench.calibration import calibrate, closest_published, compare_variants, fit_report
from workbench.errors import InvalidInput, RulesetError, WorkbenchError
from workbench.malice import MaliceTracker, malice_schedule, spending_plan
from workbench.monster import Monster, Step, Tiers, Trait, ability_damage, build_monster, explain
from workbench.ruleset import Ruleset, core_ruleset, load_ruleset
from workbench.squad import SquadTracker, make_squad
from workbench.solo import compare_solos, instant_solo

if TYPE_CHECKING:
    from workbench.apps.malice import malice_app
    from workbench.apps.squad import squad_app
    from workbench.apps.calibration import calibration_app
    from workbench.apps.solos import solos_app
    from workbench.tables import stat_table

__all__ = [
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
_LAZY = {"malice_app": "workbench.apps.malice", "squad_app": "workbench.apps.squad", "stat_table": "workbench.tables", "solos_app": "workbench.apps.solos",
         "calibration_app": "workbench.apps.calibration"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")
