"""An encounter's report: the total EV, the band, the difficulty and Victories after any objectives, and
every guideline and group check.
"""

from __future__ import annotations

from fractions import Fraction

from workbench.encounter.encounter import Encounter, encounter_objective_numbers
from workbench.encounter.groups import check_groups
from workbench.encounter.guidelines import Check, check_guidelines
from workbench.encounter.objective import ObjectiveOutcome, added_heroes, apply_objectives
from workbench.encounter.party import Budget, budget
from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.rules.encounter_tables import EncounterRules, encounter_rules

__all__ = [
    "EncounterReport",
    "report",
]


class EncounterReport(Frozen):
    """Everything the editor shows: EV, band, difficulty and Victories after objectives, every check."""

    budget: Budget
    creature_ev: Fraction
    terrain_ev: Fraction
    total_ev: Fraction
    band: str
    outcome: ObjectiveOutcome
    checks: tuple[Check, ...]
    # each chosen objective's numbers for this encounter (objective key, the lines `objective_numbers` gives)
    objective_numbers: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def difficulty(self) -> str:
        return self.outcome.difficulty

    @property
    def victories(self) -> int:
        return self.outcome.victories

    @property
    def broken(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.broken)

    def left_to_spend(self, difficulty: str) -> Fraction | None:
        """EV still to spend before the total leaves `difficulty`'s band (None: no upper end)."""
        return self.budget.left_to_spend(self.total_ev, difficulty)


def report(encounter: Encounter, rules: EncounterRules | None = None) -> EncounterReport:
    """The encounter's EV, band, difficulty, Victories and every guideline check, computed afresh."""
    rules = rules or encounter_rules()
    if not isinstance(encounter, Encounter):
        raise InvalidInput("encounter", encounter, "an Encounter")
    mode = encounter.objective_mode
    total = encounter.total_ev
    if mode == "alternative" and len(encounter.objectives) > 1:
        # each alternative at its own band: Save Another's added heroes are Save Another's alone
        own = [added_heroes(o, rules) for o in encounter.objectives]
        bases = [budget(encounter.party, added_heroes=a, rules=rules).difficulty(total) for a in own]
        outcome = apply_objectives(bases[0], encounter.objectives, rules, mode, bases=bases)
        b = budget(encounter.party, added_heroes=outcome.added_heroes, rules=rules)
        band = outcome.base
    else:
        added = apply_objectives("standard", encounter.objectives, rules, mode).added_heroes
        b = budget(encounter.party, added_heroes=added, rules=rules)
        band = b.difficulty(total)
        outcome = apply_objectives(band, encounter.objectives, rules, mode)
    checks = check_guidelines(encounter, outcome.difficulty, rules) + check_groups(
        encounter, b.hero_strength, rules
    )
    return EncounterReport(
        budget=b,
        creature_ev=encounter.creature_ev,
        terrain_ev=encounter.terrain_ev,
        total_ev=total,
        band=band,
        outcome=outcome,
        checks=checks,
        objective_numbers=tuple(
            (o.key, encounter_objective_numbers(encounter, o.key, rules)) for o in encounter.objectives
        ),
    )
