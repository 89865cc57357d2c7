"""The book's guidelines for an encounter, each a live `Check` carrying the rule's own words.

Readings (the text leaves these open): "the heroes' level" of a mixed party is its exact average level;
"creatures per hero" counts the heroes actually present (retainers and allies included); the star of the
show's "encounter budget" is the encounter's total EV.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from workbench.encounter.encounter import Creature, Encounter, StatBlockKey
from workbench.frozen import Frozen
from workbench.numbers import format_number
from workbench.rules.encounter_tables import EncounterRules, encounter_rules

__all__ = [
    "Check",
    "check_guidelines",
    "guideline_check",
]


class Check(Frozen):
    """One guideline of the book: does it apply, is it kept, and the rule's own words to show if not."""

    key: str
    title: str
    section: str
    rule: str
    applies: bool
    ok: bool
    detail: str

    @property
    def broken(self) -> bool:
        return self.applies and not self.ok


def guideline_check(key: str, title: str, applies: bool, ok: bool, detail: str, rules: EncounterRules) -> Check:
    """A guideline applied, carrying its section and the rule's own words; one that does not apply is kept."""
    text = rules.guidelines.text[key]
    return Check(
        key=key,
        title=title,
        section=text.section,
        rule=text.rule,
        applies=applies,
        ok=ok or not applies,
        detail=detail,
    )


def _names(creatures: Iterable[Creature]) -> str:
    return ", ".join(sorted({c.label for c in creatures}))


def check_guidelines(
    encounter: Encounter, difficulty: str, rules: EncounterRules | None = None
) -> tuple[Check, ...]:
    """Every Step 5 guideline and the party-size advice, each applied to this encounter."""
    rules = rules or encounter_rules()
    g = rules.guidelines
    party = encounter.party
    n = party.size
    avg = party.average_level
    creatures = encounter.creatures
    checks: list[Check] = []

    above = g.level_above_party_victories if party.victories >= g.victories_for_higher_level else g.level_above_party
    limit = avg + above
    others = [c for c in creatures if not c.solo]
    too_high = [c for c in others if c.level > limit]
    checks.append(
        guideline_check(
            "creature_level",
            f"Creature level at most the heroes' level + {above}",
            bool(others),
            not too_high,
            f"limit: level {format_number(limit)} (heroes' {'' if party.heroes_uniform else 'average '}level "
            f"{format_number(avg)} + {above}"
            + (f", {format_number(party.victories)} Victories" if above != g.level_above_party else "")
            + ")"
            + (f"; above it: {_names(too_high)}" if too_high else ""),
            rules,
        )
    )
    solos = [c for c in creatures if c.solo]
    solo_limit = avg + g.solo_level_above_party
    solo_high = [c for c in solos if c.level > solo_limit]
    checks.append(
        guideline_check(
            "solo_level",
            f"Solo level at most the heroes' average level + {g.solo_level_above_party}",
            bool(solos),
            not solo_high,
            f"limit: level {format_number(solo_limit)} (heroes' average level {format_number(avg)} "
            f"+ {g.solo_level_above_party})"
            + (f"; above it: {_names(solo_high)}" if solo_high else ""),
            rules,
        )
    )
    count = encounter.creature_count
    checks.append(
        guideline_check(
            "creatures_per_hero",
            f"At most {g.creatures_per_hero} creatures per hero",
            bool(creatures),
            count <= g.creatures_per_hero * n,
            f"{count} creatures for {n} heroes (at most {g.creatures_per_hero * n})",
            rules,
        )
    )
    minions = sum(c.count for c in creatures if c.minion)
    checks.append(
        guideline_check(
            "minion_half",
            f"More than {g.minion_half_above_per_hero} creatures per hero: at least half minions",
            count > g.minion_half_above_per_hero * n,
            2 * minions >= count,
            f"{count} creatures for {n} heroes, {minions} of them minions",
            rules,
        )
    )
    kinds = {c.stat_block for c in creatures}
    checks.append(
        guideline_check(
            "stat_blocks",
            f"At most {g.stat_blocks} kinds of stat block",
            bool(creatures),
            len(kinds) <= g.stat_blocks,
            f"{len(kinds)} kinds of stat block",
            rules,
        )
    )
    per_block: dict[StatBlockKey, int] = {}
    labels: dict[StatBlockKey, str] = {}
    for c in creatures:
        if c.minion:
            per_block[c.stat_block] = per_block.get(c.stat_block, 0) + c.count
            labels[c.stat_block] = c.label
    odd = [f"{labels[k]} ({v})" for k, v in per_block.items() if v % g.minions_per_set]
    checks.append(
        guideline_check(
            "minions_by_four",
            f"Minions bought {g.minions_per_set} at a time",
            bool(per_block),
            not odd,
            "not a multiple of " + str(g.minions_per_set) + ": " + ", ".join(sorted(odd))
            if odd
            else f"{minions} minions",
            rules,
        )
    )
    sets = Fraction(minions, g.minions_per_set)
    checks.append(
        guideline_check(
            "minion_sets",
            f"At least {g.minion_sets} sets of minions",
            bool(per_block),
            sets >= g.minion_sets,
            f"{format_number(sets)} set(s) of {g.minions_per_set}",
            rules,
        )
    )
    stars = [c for c in creatures if c.star]
    total = encounter.total_ev
    if stars:
        # "a leader or solo creature with an EV that is at least one-third": one creature's EV, however many
        # of it the entry holds; the best candidate among those marked is the one judged
        star = max(stars, key=lambda c: (c.organization == "leader" or c.solo, c.cost(1)))
        star_ok = (
            difficulty == "hard"
            and (star.organization == "leader" or star.solo)
            and star.cost(1) >= g.star_share * total
        )
        star_detail = (
            f"{star.label}: {star.organization}, EV {format_number(star.cost(1))} of "
            f"{format_number(total)} (at least {format_number(g.star_share * total)}; reading: the "
            f"\"encounter budget\" is the encounter's total EV); the encounter is {difficulty}"
        )
    else:
        star_ok, star_detail = True, "no creature is marked as the star of the show"
    checks.append(
        guideline_check("star_of_the_show", "Star of the show", bool(stars), star_ok, star_detail, rules)
    )
    checks.append(
        guideline_check(
            "small_party",
            f"Party of {g.small_party} or fewer heroes",
            True,
            n > g.small_party,
            f"{n} heroes",
            rules,
        )
    )
    checks.append(_large_party_check(encounter, difficulty, rules))
    checks.append(_terrain_level_check(encounter, rules))
    checks.extend(_role_checks(encounter, rules))
    checks.append(_villain_action_check(encounter, rules))
    return tuple(checks)


def _villain_action_check(encounter: Encounter, rules: EncounterRules) -> Check:
    """Two or more creatures with villain actions (leaders and solos, instant solos too) share one villain
    action a round between them: "no more than one villain action can be used per round. (This holds even if
    you have two or more creatures with villain actions in an encounter…)". A warning, shown as broken."""
    villains = [c for c in encounter.creatures if c.solo or c.organization == "leader"]
    count = sum(c.count for c in villains)
    return guideline_check(
        "villain_actions",
        "One villain action a round across every creature",
        count > 1,
        False,
        f"{count} creatures with villain actions ({_counted(villains)}) share one villain action a round; "
        "each of theirs once per encounter",
        rules,
    )


def _counted(creatures: Iterable[Creature]) -> str:
    return ", ".join(f"{c.count} × {c.label}" for c in creatures)


def _role_checks(encounter: Encounter, rules: EncounterRules) -> list[Check]:
    """"Using Creature Roles and Organization" as live checks: at most two controllers; at most one leader or
    support creature (together: "more than one leader or support creature"); a mix of roles; minions within
    two levels of the heroes' average level. Every creature counts, minions one by one; an instant solo is a
    solo, not a leader (reading)."""
    g = rules.guidelines
    creatures = encounter.creatures
    controllers = [c for c in creatures if c.role == "controller"]
    n_controllers = sum(c.count for c in controllers)
    leaders = [c for c in creatures if c.organization == "leader" and not c.solo]
    support = [c for c in creatures if c.role == "support"]
    n_lead = sum(c.count for c in leaders + support)
    # a creature without a role (leader, solo) is its own kind for the mix
    kinds = {c.role or ("solo" if c.solo else c.organization) for c in creatures}
    avg = encounter.party.average_level
    minions = [c for c in creatures if c.minion]
    far = [c for c in minions if abs(c.level - avg) > g.minion_level_within]
    return [
        guideline_check(
            "controllers",
            f"At most {g.max_controllers} controllers",
            bool(controllers),
            n_controllers <= g.max_controllers,
            f"{n_controllers} controller(s): {_counted(controllers)}",
            rules,
        ),
        guideline_check(
            "leaders_and_support",
            f"At most {g.max_leaders_or_support} leader or support creature",
            bool(leaders or support),
            n_lead <= g.max_leaders_or_support,
            f"{n_lead} leader or support creature(s): {_counted(leaders + support)}",
            rules,
        ),
        guideline_check(
            "role_mix",
            "A variety of creature roles",
            encounter.creature_count > 1,
            len(kinds) > 1,
            f"roles: {', '.join(sorted(kinds))}",
            rules,
        ),
        guideline_check(
            "minion_level",
            f"Minions within {g.minion_level_within} levels of the heroes' average level",
            bool(minions),
            not far,
            f"heroes' average level {format_number(avg)}: minions of level {format_number(avg - g.minion_level_within)}"
            f" to {format_number(avg + g.minion_level_within)}"
            + (f"; outside it: {_names(far)}" if far else ""),
            rules,
        ),
    ]


def _large_party_check(encounter: Encounter, difficulty: str, rules: EncounterRules) -> Check:
    """"For a party of seven or more heroes, you'll find that solo creatures don't quite live up to their
    name. So give the solo creatures some lackeys or a few more dynamic terrain objects": advice about solos,
    so it applies only when a solo is there. Kept when the solo has lackeys (any creature that is not a solo)
    or more terrain objects than Step 3 advises for the difficulty (reading of "a few more")."""
    g = rules.guidelines
    n = encounter.party.size
    solos = [c for c in encounter.creatures if c.solo]
    lackeys = sum(c.count for c in encounter.creatures if not c.solo)
    usual = rules.quick.difficulty[difficulty].terrain_objects[1]
    objects = len(encounter.terrain)
    return guideline_check(
        "large_party",
        f"Party of {g.large_party} or more heroes against a solo",
        n >= g.large_party and bool(solos),
        lackeys > 0 or objects > usual,
        f"{n} heroes; solo(s): {_names(solos) or 'none'}; {lackeys} lackey(s); {objects} dynamic terrain "
        f"object(s) (Step 3 advises up to {usual} for {difficulty})",
        rules,
    )


def _terrain_level_check(encounter: Encounter, rules: EncounterRules) -> Check:
    """Step 3 of Quick Encounter Building: "Use only objects of the heroes' level or lower" (the average
    level for a mixed party). Objects without a level are not checked."""
    avg = encounter.party.average_level
    levelled = [t for t in encounter.terrain if t.level is not None]
    high = [t for t in levelled if t.level is not None and t.level > avg]
    return guideline_check(
        "terrain_level",
        "Dynamic terrain objects of the heroes' level or lower",
        bool(levelled),
        not high,
        f"heroes' {'' if encounter.party.heroes_uniform else 'average '}level {format_number(avg)}"
        + (f"; above it: {', '.join(sorted(f'{t.name} (level {t.level})' for t in high))}" if high else ""),
        rules,
    )
