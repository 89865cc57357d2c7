"""How many fights before a respite: the Victories a sequence of encounters is worth against the rules' range.

"How Many Fights Before a Respite?": "A group of heroes can generally handle from 4 to 6 Victories' worth of
combat encounters before needing to stop for a respite". `respite_check` adds the Victories each encounter is
worth (its report's, after objectives) to those earned since the last respite and says where the total sits:
below the range (the heroes can likely take more), within it, or past it (advice: plan a respite). Advice, not
a limit ("isn't an exact science"): a Check like the other guidelines, broken only past the range.
"""

from __future__ import annotations

from collections.abc import Iterable
from numbers import Integral

from workbench.encounter.encounter import Encounter
from workbench.encounter.guidelines import Check
from workbench.encounter.report import EncounterReport, report
from workbench.errors import InvalidInput
from workbench.rules.encounter_tables import EncounterRules, encounter_rules
from workbench.rules.limits import MAX_VICTORIES

__all__ = ["respite_check"]


def _victories(item: object, rules: EncounterRules) -> int:
    if isinstance(item, EncounterReport):
        return item.victories
    if isinstance(item, Encounter):
        return report(item, rules).victories
    raise InvalidInput("encounters", item, "Encounters or their reports (encounter_report)")


def respite_check(
    encounters: Iterable[Encounter | EncounterReport],
    since_respite: int = 0,
    rules: EncounterRules | None = None,
) -> Check:
    """The Victories since the last respite (`since_respite` already earned, plus what each encounter is
    worth) against "from 4 to 6 Victories' worth of combat encounters"."""
    rules = rules or encounter_rules()
    if (isinstance(since_respite, bool) or not isinstance(since_respite, Integral)
            or not 0 <= since_respite <= MAX_VICTORIES):
        raise InvalidInput("since_respite", since_respite, f"a whole number of Victories from 0 to {MAX_VICTORIES}")
    worth = [_victories(item, rules) for item in encounters]
    low, high = rules.guidelines.respite_victories
    total = int(since_respite) + sum(worth)
    parts = ([f"{since_respite} earned"] if since_respite else []) + [str(v) for v in worth]
    working = " + ".join(parts) or "0"
    if total > high:
        where = f"past {high}: plan a respite before the last of these"
    elif total >= low:
        where = "within the range: a respite is due around now"
    else:
        where = f"below {low}: the heroes can likely take more before a respite"
    text = rules.guidelines.text["respite"]
    return Check(
        key="respite",
        title=f"{low} to {high} Victories' worth of encounters before a respite",
        section=text.section,
        rule=text.rule,
        applies=True,
        ok=total <= high,
        detail=f"{working} = {total} Victories since the last respite; {where}",
    )
