"""Weakness damage escalation: the wound a hit deals to a monster with an exploitable weakness.

The homebrew rules (`homebrew-monster-rules.txt`, "Weakness Damage Escalation") fix only two kinds of number:
the unescalated baselines (one-handed 1, two-handed 2) and the adjusted ladders (2 -> 3 -> 6 and
3 -> 4 -> 8). Both come from the module's data file, never from this code. The unescalated wound on a
Partial Critical or a Legendary belongs to the homebrewer's own system: it is a parameter of the module
(`one_handed_partial_critical`, ...) and, when nobody set it, the wound is reported as not given rather
than invented.

Readings (shown on every `Wound` that uses them):
* "Only one weakness escalation source may apply to a hit": a hit escalated by another source (an area
  attack against a cohesive swarm, say) is not escalated a second time by a matching tag — the wound is
  the adjusted ladder's value once.
* "On a Legendary: no further upgrade applies": by default (`legendary_reading = "ladder"`) an escalated
  Legendary takes the adjusted ladder's last value (6 / 8) and nothing beyond it; with "unescalated" the
  weakness does not upgrade a Legendary at all and it deals the system's unescalated Legendary wound.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from pydantic import BaseModel, ConfigDict

from workbench.errors import InvalidInput
from workbench.homebrew.rule import FilledRule, HomebrewRule, Ladder
from workbench.rules.limits import true_or_false

__all__ = [
    "OUTCOMES",
    "OUTCOME_LABELS",
    "Wound",
    "grips",
    "ladders",
    "own_value_parameters",
    "weakness_cases",
    "weakness_wound",
    "wound_for_source",
]

SECTION = "Weakness Damage Escalation"
OUTCOMES = ("hit", "partial_critical", "legendary")
OUTCOME_LABELS = {"hit": "hit", "partial_critical": "Partial Critical", "legendary": "Legendary"}
_ORDINALS = ("first", "second", "third")

THIS_WEAKNESS = "this weakness"
ANOTHER_SOURCE = "another source"


class Wound(BaseModel):
    """The wound one hit deals, with the working that chose it.

    `value` is None only when the rule leaves the number to the homebrewer's system and the module's
    parameter for it was not set (`missing` names that parameter).
    """

    model_config = ConfigDict(frozen=True)

    grip: str
    outcome: str
    matches_tag: bool
    other_source_applied: bool
    value: int | None
    escalated: bool
    escalated_by: str | None
    working: str
    missing: str | None = None
    reading: str | None = None
    section: str = SECTION

    def __str__(self) -> str:
        shown = "not given" if self.value is None else str(self.value)
        return f"{self.working} → wound {shown}"


class _Hit(TypedDict):
    """The fields of a Wound that say which hit it is (the same whichever way the wound is worked out)."""

    grip: str
    outcome: str
    matches_tag: bool
    other_source_applied: bool


def _filled(rule: FilledRule | HomebrewRule) -> FilledRule:
    if isinstance(rule, HomebrewRule):
        return rule.fill(partial=True)
    if isinstance(rule, FilledRule):
        return rule
    raise InvalidInput("rule", rule, "a rule module (HomebrewRule or FilledRule) with escalation ladders")


def ladders(rule: FilledRule | HomebrewRule) -> dict[str, Ladder]:
    """The module's escalation ladders by grip; refused for a module without escalation."""
    escalation = _filled(rule).escalation
    if escalation is None:
        raise InvalidInput("rule", rule.id, "a module with escalation ladders", f"{rule.id} has none")
    return escalation.ladders


def grips(rule: FilledRule | HomebrewRule) -> tuple[str, ...]:
    """The grips the module's ladders cover ('one_handed', 'two_handed' for the shipped modules)."""
    return tuple(ladders(rule))


def _own_value_name(grip: str, outcome: str) -> str:
    """The module parameter holding the homebrewer's unescalated wound for a grip and outcome."""
    return f"{grip}_{outcome}"


def own_value_parameters(rule: FilledRule | HomebrewRule) -> tuple[str, ...]:
    """The module's parameters for your system's unescalated Partial Critical / Legendary wounds, by grip
    (the numbers the source leaves to the homebrewer), in ladder order."""
    names = {p.name for p in rule.parameters}
    return tuple(
        _own_value_name(grip, outcome)
        for grip in grips(rule)
        for outcome in OUTCOMES[1:]
        if _own_value_name(grip, outcome) in names
    )


def _ladder_text(ladder: Ladder, increase: int) -> str:
    a = ladder.adjusted
    return f"{ladder.label} baseline ({ladder.baseline}) + {increase} becomes {a[0]}, then {a[0]} -> {a[1]} -> {a[2]}"


def _unescalated(rule: FilledRule, grip: str, ladder: Ladder, outcome: str) -> tuple[int | None, str, str | None]:
    """Wound without escalation: the baseline on a hit, else the homebrewer's own value (a parameter)."""
    if outcome == "hit":
        return ladder.baseline, f"{ladder.label} baseline = {ladder.baseline}", None
    name = _own_value_name(grip, outcome)
    value = rule.value(name)
    label = f"unescalated {ladder.label.lower()} {OUTCOME_LABELS[outcome]}"
    if value is None:
        return None, f"{label}: your system's value, not given yet", name
    return int(value), f"{label} (your system's value) = {value}", None


def weakness_wound(
    rule: FilledRule | HomebrewRule,
    grip: str,
    outcome: str,
    matches_tag: bool,
    other_source_applied: bool = False,
) -> Wound:
    """The wound a hit deals: grip, power roll outcome, whether the source carries the weakness's tag and
    whether another escalation source already applied to this hit.
    """
    rule = _filled(rule)
    escalation = rule.escalation
    if escalation is None:
        raise InvalidInput("rule", rule.id, "a module with escalation ladders", f"{rule.id} has none")
    if not isinstance(grip, str) or grip not in escalation.ladders:
        raise InvalidInput("grip", grip, "one of " + ", ".join(escalation.ladders))
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise InvalidInput("outcome", outcome, "one of " + ", ".join(OUTCOMES))
    matches_tag = true_or_false("matches_tag", matches_tag)
    other_source_applied = true_or_false("other_source_applied", other_source_applied)
    ladder = escalation.ladders[grip]
    increase = escalation.base_wound_increase
    base = _Hit(grip=grip, outcome=outcome, matches_tag=matches_tag, other_source_applied=other_source_applied)

    if not (matches_tag or other_source_applied):
        value, working, missing = _unescalated(rule, grip, ladder, outcome)
        return Wound(
            **base, value=value, escalated=False, escalated_by=None,
            working=f"no escalation source: {working}", missing=missing,
        )

    escalated_by = ANOTHER_SOURCE if other_source_applied else THIS_WEAKNESS
    readings = []
    if matches_tag and other_source_applied:
        readings.append(
            "only one weakness escalation source may apply to a hit: the matching tag adds nothing to a hit"
            " another source already escalated"
        )
    index = OUTCOMES.index(outcome)
    legendary_reading = rule.value("legendary_reading") or "ladder"
    if outcome == "legendary" and legendary_reading == "unescalated":
        value, working, missing = _unescalated(rule, grip, ladder, outcome)
        readings.append("'On a Legendary: no further upgrade applies' read as: escalation does not upgrade a Legendary")
        return Wound(
            **base, value=value, escalated=False, escalated_by=escalated_by,
            working=f"Legendary, no further upgrade: {working}", missing=missing, reading="; ".join(readings),
        )
    value = ladder.adjusted[index]
    working = f"{_ladder_text(ladder, increase)}; {OUTCOME_LABELS[outcome]}: {_ORDINALS[index]} value = {value}"
    if outcome == "legendary":
        readings.append(
            "'On a Legendary: no further upgrade applies' read as: the adjusted ladder's last value,"
            " nothing beyond it (damage only, no extra riders)"
        )
    return Wound(
        **base, value=value, escalated=True, escalated_by=escalated_by, working=working,
        reading="; ".join(readings) or None,
    )


def wound_for_source(
    rule: FilledRule,
    grip: str,
    outcome: str,
    source_tags: Iterable[str],
    other_source_applied: bool = False,
) -> Wound:
    """The wound from a source described by its tags ('silver', 'area', ...): the tag match is looked up."""
    if isinstance(source_tags, str):
        raise InvalidInput("source_tags", source_tags, "a list of tags, e.g. ['silver']")
    return weakness_wound(rule, grip, outcome, _filled(rule).matches(source_tags), other_source_applied)


def weakness_cases(rule: FilledRule | HomebrewRule) -> tuple[Wound, ...]:
    """Every case: each grip × outcome × tag match × another source already applied."""
    return tuple(
        weakness_wound(rule, grip, outcome, matches, other)
        for grip in grips(rule)
        for outcome in OUTCOMES
        for matches in (False, True)
        for other in (False, True)
    )
