"""Encounters proposed from a bestiary, each inside a difficulty's band and keeping every guideline.

A Director asks "a hard goblin fight for five level 3 heroes"; `suggest_encounters` answers with ranked
encounters built from the stat blocks given (a published bestiary, the homebrew library, or both). The search
is a seeded random construction: an anchor stat block (or the ones the Director must include), a theme of
shared keywords, perhaps two sets of minions, then creatures added one at a time (new roles preferred) until
the total EV is inside the band. Every candidate is then checked by the workbench's own `report()` (the
same guidelines the editor shows, not a copy of them), initiative groups come from `suggest_groups`, and only
candidates with no broken guideline are kept. So when a guideline is added to the checker, the suggestions
keep it too; the construction only makes passing likely.

What the construction aims for ahead of the checker (so few candidates are thrown away): levels within the
creature and solo limits and, unless `quick_levels=False`, within the levels Quick Encounter Building allows
for the difficulty too (the heroes' level or lower when trivial, the heroes' level or higher from easy up, at
most one level higher at easy and standard, two at hard, one for a solo; so the Quick method check never flags a
suggestion's levels where the Guidelines pass them), minions within two levels of the heroes and bought two sets
at first, at most six kinds of stat block, at most eight creatures per hero, half of them minions past three per hero, at most one
solo, one leader and one support creature and two controllers, and at least two roles unless a solo carries
the fight.

Advice about the party itself ("a party of three or fewer heroes…"), which no choice of creatures changes, is
what the empty encounter already breaks; a suggestion may carry only that, and its `broken` lists it.

Creatures the Director has already chosen (`keep`: their own monster, say, locked in the editor) are in every
suggestion as they are, count, star and all, and the search fills only the rest of the band around them. They
are the Director's choice, so they are not held to the construction's limits, and a guideline they break on
their own is not held against the suggestions either (the Guidelines tab still shows it). When they already
cost more than the band, no suggestion can keep them and the request is refused saying so.

Ranking: how much of the band the EV uses (the total over the band's top; the extreme band, which has no
top, aims one hero's strength past the hard band), plus a smaller part for variety (the distinct roles and
organizations), less a part for leaning on minions. Two suggestions always differ in more than one creature:
at least two creatures of either are not in the other.

Why minions cost rank. "Creatures organized as minions are meant to support monsters organized in other
ways" (Organization, Minion): an encounter that spends most of its EV on minions has them carrying the fight
instead. And budget use alone favours them: minions are bought four at a time for a few EV, so a build
heavy in minions can fill a band to the last point where one of elites and platoons stops a few EV short,
and would crowd the varied ones out of the list. So the EV share spent on minions past one half
(`MINION_SHARE_FREE`) costs `MINION_WEIGHT` per whole share: an all-minion build loses as much as four
kinds of variety, one at three-quarters as much as one kind and a half more than a build of the same use
and variety that keeps its minions in support. Minions within the half cost nothing: the guidelines ask for
two sets of them at least, and for half the creatures to be minions in a crowded fight (a count of
creatures, not of EV: sixteen minions beside eight platoon creatures is still mostly platoon by EV). The
penalty only orders suggestions; every one still keeps every guideline, checked by `report()`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from workbench.encounter.encounter import Creature, Encounter, StatBlockKey, creature_from_monster
from workbench.encounter.groups import suggest_groups
from workbench.encounter.guidelines import Check
from workbench.encounter.party import Party, budget
from workbench.encounter.report import EncounterReport, report
from workbench.errors import InvalidInput
from workbench.frozen import Frozen
from workbench.model import Monster
from workbench.numbers import format_number
from workbench.rules.encounter_tables import EncounterRules, check_difficulty, encounter_rules
from workbench.rules.limits import whole

__all__ = ["Suggestion", "suggest_encounters", "stat_block_creature", "creature_from_stat_block", "MAX_SUGGESTIONS"]

MAX_SUGGESTIONS = 50
MAX_CREATURES = 1000  # of one stat block in one encounter: far past the guidelines' eight per hero
# Variety counts for this fraction of a suggestion's score per distinct role or organization: enough to
# order encounters that use the budget alike, never enough to put a half-spent band above a full one.
VARIETY_WEIGHT = Fraction(1, 40)
# The construction keeps ahead of the checker the role, organization and minion-level guidelines, with the
# numbers the encounter rules give (`_Limits`). At most one solo is the villain-action guideline ("no more than
# one villain action can be used per round"), which the rules state in words, not as a number.
MAX_SOLOS = 1
# A suggestion whose creatures all share a keyword (a goblin warband) ranks as if it had two more kinds of
# variety: a Director asked for a fight, not a zoo.
THEME_WEIGHT = 2 * VARIETY_WEIGHT
# The share of a suggestion's EV that may go on minions before it costs rank, and what a whole share past it
# costs (see the module's "Why minions cost rank"): 1/2 past the free half is 1/10, four kinds of variety.
MINION_SHARE_FREE = Fraction(1, 2)
MINION_WEIGHT = 8 * VARIETY_WEIGHT
THEME_CHANCE = 0.8
PALETTE = 12  # stat blocks one search chooses among  # how often a search keeps to one keyword of its anchor (a goblin fight, not a zoo)
MINION_CHANCE = 0.5  # how often a search starts with two sets of minions


class Suggestion(Frozen):
    """One proposed encounter: the creatures with initiative groups, its report, and why it ranks where it does."""

    encounter: Encounter
    report: EncounterReport
    budget_use: Fraction
    variety: int
    theme: str = ""  # a keyword every creature shares ("goblin"), or "" for a mixed bag
    minion_share: Fraction = Fraction(0)  # of the creatures' EV, spent on minions


    @property
    def creatures(self) -> tuple[Creature, ...]:
        return self.encounter.creatures

    @property
    def ev(self) -> Fraction:
        return self.report.total_ev

    @property
    def difficulty(self) -> str:
        return self.report.difficulty

    @property
    def victories(self) -> int:
        return self.report.victories

    @property
    def broken(self) -> tuple[Check, ...]:
        return self.report.broken

    @property
    def score(self) -> Fraction:
        return _score(self.budget_use, self.variety, self.theme, self.minion_share)

    def summary(self) -> str:
        """One line for people: "2 × Goblin Warrior, 8 × Goblin Runner — EV 61, hard, 2 Victories"."""
        names = ", ".join(f"{c.count} × {c.label}" for c in self.creatures)
        victories = f"{self.victories} {'Victory' if self.victories == 1 else 'Victories'}"
        return f"{names} — EV {format_number(self.ev)}, {self.difficulty}, {victories}"


def _score(use: Fraction, variety: int, theme: str, minion_share: Fraction) -> Fraction:
    """The ranking (higher first): budget use, variety and theme, less the lean on minions past the free half."""
    lean = max(minion_share - MINION_SHARE_FREE, Fraction(0))
    return use + VARIETY_WEIGHT * variety + (THEME_WEIGHT if theme else 0) - MINION_WEIGHT * lean


@dataclass(frozen=True)
class _Option:
    """A stat block the search may buy, one unit at a time (four minions, or one other creature).

    The creature's fields are copied to plain attributes: the search reads them hundreds of thousands of times.
    """

    creature: Creature
    keywords: frozenset[str]
    unit: int
    unit_cost: Fraction | int
    organization: str
    role: str | None
    minion: bool
    solo: bool
    themes: tuple[str, ...] = ()  # its keywords that at least two other stat blocks share
    kept: bool = False  # a creature the Director keeps: in every build once, as it is, never bought again


def stat_block_creature(item: Any) -> tuple[Creature, tuple[str, ...]]:
    """A stat block's header as one creature, with its keywords.

    Takes a built or library `Monster` (an instant solo stays one), a library entry (`.monster`), or any
    published stat block with `name`, `level`, `organization`, `role`, `ev` and optionally `stamina` and
    `keywords` (the calibration layer's `PublishedMonster`, which this layer cannot import: its creature
    carries the formulas' stat block with the printed name, EV and Stamina until the whole block is read).
    """
    item = getattr(item, "monster", item)
    if isinstance(item, Monster):
        return creature_from_monster(item), tuple(item.keywords)
    try:
        # a header stands in with the formulas' stat block and its printed name, EV and Stamina
        creature = Creature.model_validate({
            "name": str(item.name), "level": item.level, "organization": item.organization, "role": item.role,
            "ev": item.ev, "stamina": getattr(item, "stamina", None),
        })
    except (AttributeError, ValueError, TypeError):
        raise InvalidInput(
            "bestiary", item, "stat blocks with a name, level, organization, role and EV (a Bestiary, the "
            "homebrew library, or a list of monsters)"
        ) from None
    return creature, tuple(str(k) for k in getattr(item, "keywords", ()) or ())


def creature_from_stat_block(stat_block: Any, count: int = 1) -> Creature:
    """`count` creatures of a published stat block (or a built Monster), to put in an encounter."""
    creature, _ = stat_block_creature(stat_block)
    return creature.model_copy(update={"count": whole("count", count, 1, MAX_CREATURES)})


def _stat_blocks(bestiary: Any) -> list[tuple[Creature, tuple[str, ...]]]:
    if hasattr(bestiary, "monsters"):
        items: Any = bestiary.monsters
    elif hasattr(bestiary, "entries"):
        items = bestiary.entries
    else:
        items = bestiary
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise InvalidInput("bestiary", bestiary, "a Bestiary, the homebrew library, or a list of stat blocks")
    seen: set[tuple[StatBlockKey, int]] = set()
    blocks: list[tuple[Creature, tuple[str, ...]]] = []
    for item in items:
        creature, keywords = stat_block_creature(item)
        key = (creature.stat_block, creature.ev)
        if key not in seen:  # the same stat block from two sources is one choice
            seen.add(key)
            blocks.append((creature, keywords))
    return blocks


def _is_solo(creature: Creature) -> bool:
    """A solo, built as one or an instant solo."""
    return creature.solo


def _words(creature: Creature, keywords: Sequence[str]) -> frozenset[str]:
    """What a keyword filter matches: the stat block's keywords and the words of its name, lower-case."""
    return frozenset(k.strip().lower() for k in keywords) | frozenset(creature.name.lower().split())


def _texts(field: str, values: Any) -> tuple[str, ...]:
    if isinstance(values, str):
        values = (values,)
    if not isinstance(values, Iterable) or not all(isinstance(v, str) and v.strip() for v in values):
        raise InvalidInput(field, values, "a list of non-empty words")
    return tuple(v.strip() for v in values)


@dataclass
class _Limits:
    """What one search must respect, worked out once per request."""

    party: Party
    difficulty: str
    low: int
    high: int
    heroes: int
    per_hero: int
    half_above: int
    kinds: int
    star: bool
    need_roles: bool
    unavoidable: frozenset[str]
    rules: EncounterRules
    # the guidelines' numbers, copied out of `rules` once: `_Build.allows` reads them for every unit tried
    max_leaders: int
    max_supports: int
    max_controllers: int


class _Build:
    """One candidate under construction: units bought per option, with running totals."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.total: Fraction | int = 0
        self.creatures = 0
        self.minions = 0
        self.minion_cost: Fraction | int = 0
        self.solos = 0
        self.by_organization: dict[str, int] = {}
        self.by_role: dict[str | None, int] = {}

    def allows(self, index: int, option: _Option, units: int, limits: _Limits, top: Fraction | int) -> bool:
        n = option.unit * units
        if self.total + option.unit_cost * units > top:
            return False
        if index not in self.counts and len(self.counts) >= limits.kinds:
            return False
        if self.creatures + n > limits.per_hero * limits.heroes:
            return False
        organization, role = option.organization, option.role
        if option.solo and self.solos + n > MAX_SOLOS:
            return False
        if organization == "leader" and self.by_organization.get("leader", 0) + n > limits.max_leaders:
            return False
        if role == "support" and self.by_role.get("support", 0) + n > limits.max_supports:
            return False
        return not (role == "controller" and self.by_role.get("controller", 0) + n > limits.max_controllers)

    def add(self, index: int, option: _Option, units: int) -> None:
        n = option.unit * units
        self.counts[index] = self.counts.get(index, 0) + n
        self.total += option.unit_cost * units
        self.creatures += n
        if option.minion:
            self.minions += n
            self.minion_cost += option.unit_cost * units
        if option.solo:
            self.solos += n
        self.by_organization[option.organization] = self.by_organization.get(option.organization, 0) + n
        self.by_role[option.role] = self.by_role.get(option.role, 0) + n


def _top(limits: _Limits, star_cost: Fraction | int | None) -> Fraction | int:
    top: Fraction | int = limits.high
    if star_cost is not None:  # the star's EV is at least a third of the total
        top = min(top, 3 * star_cost)
    return top


def _buy(build: _Build, index: int, option: _Option, limits: _Limits, top: Fraction | int) -> bool:
    """Buy one unit; the first minions of the encounter come as the two sets the guideline asks for."""
    from_scratch = option.minion and build.minions == 0
    units = 2 if from_scratch else 1
    if not build.allows(index, option, units, limits, top):
        return False
    build.add(index, option, units)
    return True


def _theme(anchor: _Option, rng: random.Random) -> frozenset[str] | None:
    """One of the keywords the anchor shares with other stat blocks, or None (no theme this time)."""
    if not anchor.themes or rng.random() >= THEME_CHANCE:
        return None
    return frozenset([rng.choice(anchor.themes)])


def _attempt(
    options: Sequence[_Option], must: Sequence[int], limits: _Limits, rng: random.Random
) -> _Build | None:
    build = _Build()
    for index, option in enumerate(options):
        if option.kept:
            build.add(index, option, 1)
    star_cost: Fraction | int | None = None
    if limits.star:
        stars = [i for i, o in enumerate(options) if not o.kept and o.organization in ("leader", "solo")
                 and 3 * o.unit_cost >= limits.low and o.unit_cost <= limits.high]
        if not stars:
            return None
        star = rng.choice(stars)
        star_cost = options[star].unit_cost
        must = [star, *must]
    top = _top(limits, star_cost)
    for index in must:
        if not _buy(build, index, options[index], limits, top):
            return None
    anchor_pool = [i for i, o in enumerate(options) if not o.kept and o.unit_cost <= top - build.total]
    if not anchor_pool:
        return build if limits.low <= build.total <= top else None
    anchor = must[0] if must else rng.choice(anchor_pool)
    theme = _theme(options[anchor], rng)
    pool = [i for i in range(len(options))
            if not options[i].kept and (theme is None or theme <= options[i].keywords)]
    if len(pool) > PALETTE:  # a small palette per search: fast on a big bestiary, and an encounter has ≤ 6 kinds
        pool = rng.sample(pool, PALETTE)
    pool = sorted((set(pool) | set(build.counts) | {anchor}) - {i for i in build.counts if options[i].kept})
    if not must:
        _buy(build, anchor, options[anchor], limits, top)
    minion_kinds = [i for i in pool if options[i].minion]
    if minion_kinds and build.minions == 0 and rng.random() < MINION_CHANCE:
        first = rng.choice(minion_kinds)
        _buy(build, first, options[first], limits, top)
    # Aim somewhere in the upper half of the band, so a wide band (trivial, easy) is not left nearly empty.
    aim = rng.randint((limits.low + limits.high + 1) // 2, limits.high)
    for _ in range(4 * limits.per_hero * limits.heroes):
        if build.total >= aim and not _wants_minions(build, limits):
            break
        choices = [i for i in pool if _fits(build, i, options[i], limits, top)]
        if not choices:
            break
        weights = [_weight(build, options[i], limits) for i in choices]
        pick = rng.choices(choices, weights=weights)[0]
        _buy(build, pick, options[pick], limits, top)
    return build if limits.low <= build.total <= top else None


def _wants_minions(build: _Build, limits: _Limits) -> bool:
    return build.creatures > limits.half_above * limits.heroes and 2 * build.minions < build.creatures


def _fits(build: _Build, index: int, option: _Option, limits: _Limits, top: Fraction | int) -> bool:
    units = 2 if option.minion and build.minions == 0 else 1
    if _wants_minions(build, limits) and not option.minion:
        return False
    return build.allows(index, option, units, limits, top)


def _weight(build: _Build, option: _Option, limits: _Limits) -> float:
    """New roles first (a mix of roles), then creatures that keep the count of creatures low."""
    weight = 1.0
    if option.role not in build.by_role:
        weight *= 4.0
    if option.organization == "solo":
        weight *= 0.5
    if build.creatures + option.unit > limits.half_above * limits.heroes and not option.minion:
        weight *= 0.25
    return weight


def _suggestion(build: _Build, options: Sequence[_Option], limits: _Limits) -> Suggestion | None:
    creatures = []
    star_index = None
    if limits.star:
        leaders = [i for i in build.counts if options[i].organization in ("leader", "solo")]
        star_index = max(leaders, key=lambda i: (options[i].unit_cost, -i)) if leaders else None
    for index in sorted(build.counts, key=lambda i: (not options[i].kept, -options[i].unit_cost, i)):
        if options[index].kept:  # as the Director has it: count, star, marked attack
            creatures.append(options[index].creature)
            continue
        creatures.append(
            options[index].creature.model_copy(
                update={"count": build.counts[index], "star": index == star_index}
            )
        )
    encounter = Encounter(party=limits.party, creatures=tuple(creatures))
    encounter = encounter.model_copy(update={"groups": suggest_groups(encounter, rules=limits.rules)})
    result = report(encounter, limits.rules)
    if result.difficulty != limits.difficulty:
        return None
    if not {c.key for c in result.broken} <= limits.unavoidable:
        return None
    roles = {c.role for c in creatures if c.role}
    has_solo = any(_is_solo(c) for c in creatures)
    if limits.need_roles and len(roles) < 2 and not has_solo:
        return None
    organizations = {c.organization for c in creatures}
    band_top = Fraction(limits.high)
    use = result.total_ev / band_top if result.total_ev <= band_top else band_top / result.total_ev
    shared = frozenset.intersection(*(options[i].keywords for i in build.counts))
    return Suggestion(
        encounter=encounter,
        report=result,
        budget_use=use,
        variety=len(roles) + len(organizations),
        theme=min(shared) if len(shared) else "",
        minion_share=_minion_share(build),
    )


def _minion_share(build: _Build) -> Fraction:
    """The part of the build's EV spent on minions."""
    return Fraction(build.minion_cost) / Fraction(build.total) if build.total else Fraction(0)


def _plain(value: Fraction) -> Fraction | int:
    """A whole EV as an int: the search adds costs tens of thousands of times, and Fraction is slow."""
    return value.numerator if value.denominator == 1 else value




def _level_filter(party: Party, difficulty: str | None, rules: EncounterRules) -> tuple[Any, str]:
    """Whether a stat block fits the level guidelines for these heroes and, given a `difficulty`, the quick
    method's levels for it (the Quick method tab checks those), and those limits in words."""
    g = rules.guidelines
    avg = party.average_level
    above = g.level_above_party_victories if party.victories >= g.victories_for_higher_level else g.level_above_party
    quick = rules.quick.difficulty[difficulty] if difficulty is not None else None
    low = None if quick is None or quick.min_level_offset is None else avg + quick.min_level_offset
    high = None if quick is None or quick.max_level_offset is None else avg + quick.max_level_offset
    solo_high = high if quick is None or quick.solo_max_level_offset is None else avg + quick.solo_max_level_offset

    def within(c: Creature) -> bool:
        top = solo_high if _is_solo(c) else high
        if (low is not None and c.level < low) or (top is not None and c.level > top):
            return False
        if _is_solo(c):
            return c.level <= avg + g.solo_level_above_party
        if c.minion and abs(c.level - avg) > g.minion_level_within:
            return False
        return c.level <= avg + above

    words = (
        f"stat blocks of level {format_number(avg + above)} or lower (solos "
        f"{format_number(avg + g.solo_level_above_party)} or lower, minions within "
        f"{g.minion_level_within} levels of {format_number(avg)})"
    )
    if low is not None or high is not None:
        span = (f"from level {format_number(low)}" if low is not None else "") + (
            f"{' ' if low is not None else ''}up to level {format_number(high)}" if high is not None else "")
        article = "an" if str(difficulty).startswith(("a", "e", "i", "o", "u")) else "a"
        words += f", and for {article} {difficulty} encounter {span} (Quick Encounter Building)"
    return within, words


def _options(bestiary: Any, party: Party, difficulty: str | None, wanted: set[str],
             rules: EncounterRules) -> list[_Option]:
    """The stat blocks a search may use: within the level limits and, if asked, with a keyword."""
    g = rules.guidelines
    blocks = _stat_blocks(bestiary)
    if not blocks:
        raise InvalidInput("bestiary", bestiary, "at least one stat block", "it holds none")
    within, limits_words = _level_filter(party, difficulty, rules)
    fitting = [(c, k) for c, k in blocks if within(c)]
    if not fitting:
        raise InvalidInput(
            "bestiary", f"{len(blocks)} stat blocks", limits_words,
            "no stat block fits the level limits for these heroes",
        )
    if wanted:
        themed = [(c, k) for c, k in fitting if wanted & _words(c, k)]
        if not themed:
            raise InvalidInput(
                "keyword", ", ".join(sorted(wanted)), "keywords of stat blocks within the level limits",
                f"none of the {len(fitting)} stat blocks that fit the level limits has them",
            )
        fitting = themed
    options = [
        _Option(
            creature=c,
            keywords=_words(c, k),
            unit=g.minions_per_set if c.minion else 1,
            unit_cost=_plain(c.cost(g.minions_per_set if c.minion else 1)),
            organization=c.organization,
            role=c.role,
            minion=c.minion,
            solo=_is_solo(c),
        )
        for c, k in sorted(fitting, key=lambda ck: (ck[0].label.lower(), ck[0].level, ck[0].organization))
    ]
    shared = Counter(k for o in options for k in o.keywords)
    return [replace(o, themes=tuple(sorted(k for k in o.keywords if shared[k] >= 3))) for o in options]


def _kept(keep: Iterable[Creature]) -> tuple[Creature, ...]:
    if isinstance(keep, (str, bytes)) or not isinstance(keep, Iterable):
        raise InvalidInput("keep", keep, "a list of the encounter's creatures to keep")
    kept = tuple(keep)
    if not all(isinstance(c, Creature) for c in kept):
        raise InvalidInput("keep", kept, "a list of the encounter's creatures to keep")
    return kept


def _kept_option(creature: Creature, rules: EncounterRules) -> _Option:
    """A kept creature as one unit of its whole entry (never bought again)."""
    return _Option(
        creature=creature,
        keywords=_words(creature, ()),
        unit=creature.count,
        unit_cost=_plain(creature.cost()),
        organization=creature.organization,
        role=creature.role,
        minion=creature.minion,
        solo=_is_solo(creature),
        kept=True,
    )


def _must_indexes(options: Sequence[_Option], names: Sequence[str], keyworded: bool) -> list[int]:
    must: list[int] = []
    for name in names:
        found = [i for i, o in enumerate(options) if o.creature.name.lower() == name.lower()]
        if not found:
            raise InvalidInput(
                "must_include", name, "names of stat blocks in the bestiary within the level limits"
                + (" and with the keywords" if keyworded else ""),
            )
        must.append(found[0])
    return must


def _preview(build: _Build, options: Sequence[_Option], limits: _Limits) -> Fraction | None:
    """A build's score, as its Suggestion will have it (None: no mix of roles).

    Computed from the build alone, so candidates are ranked before the (costlier) full check.
    """
    roles = {options[i].role for i in build.counts if options[i].role}
    if limits.need_roles and len(roles) < 2 and not any(options[i].solo for i in build.counts):
        return None
    organizations = {options[i].organization for i in build.counts}
    total, top = Fraction(build.total), Fraction(limits.high)
    use = total / top if total <= top else top / total
    shared = frozenset.intersection(*(options[i].keywords for i in build.counts))
    return _score(use, len(roles) + len(organizations), min(shared) if shared else "", _minion_share(build))


def _builds_differ(a: dict[int, int], b: dict[int, int]) -> bool:
    """More than one creature apart: at least two creatures of one are not in the other."""
    a_only = sum(max(0, n - b.get(k, 0)) for k, n in a.items())
    b_only = sum(max(0, n - a.get(k, 0)) for k, n in b.items())
    return max(a_only, b_only) > 1


def _search(
    options: Sequence[_Option], must: Sequence[int], limits: _Limits, count: int, rng: random.Random
) -> tuple[Suggestion, ...]:
    """Seeded attempts give distinct builds; the best (by the score a Suggestion will have) are checked by
    `report()` in turn, each kept if it keeps every guideline and differs from those kept before it."""
    builds: dict[tuple[tuple[int, int], ...], tuple[Fraction, _Build]] = {}  # (option index, count) pairs
    for _ in range(40 * count + 120):
        build = _attempt(options, must, limits, rng)
        if build is None:
            continue
        key = tuple(sorted(build.counts.items()))
        preview = None if key in builds else _preview(build, options, limits)
        if preview is None:
            continue
        builds[key] = (preview, build)
        if len(builds) >= 8 * count:
            break
    chosen: list[tuple[_Build, Suggestion]] = []
    for key in sorted(builds, key=lambda k: (-builds[k][0], k)):
        build = builds[key][1]
        if not all(_builds_differ(build.counts, other.counts) for other, _ in chosen):
            continue
        suggestion = _suggestion(build, options, limits)
        if suggestion is not None:
            chosen.append((build, suggestion))
            if len(chosen) == count:
                break
    return tuple(s for _, s in chosen)


def suggest_encounters(
    party: Party,
    difficulty: str,
    bestiary: Any,
    keywords: Iterable[str] = (),
    must_include: Iterable[str] = (),
    count: int = 10,
    rng: random.Random | None = None,
    *,
    star: bool = False,
    rules: EncounterRules | None = None,
    keep: Iterable[Creature] = (),
    quick_levels: bool = True,
) -> tuple[Suggestion, ...]:
    """Up to `count` encounters for `party` at `difficulty` from `bestiary`, best first.

    `bestiary` is a `Bestiary`, the homebrew library (`load_library`) or a list of stat blocks (published
    or built `Monster`s). `keywords` keeps to stat blocks with any of these keywords (or name words):
    "Goblin", "Undead". `must_include` names stat blocks every suggestion holds. `star=True` (hard encounters
    only) makes the costliest leader or solo the star of the show. `rng` makes the search reproducible (a
    fixed seed by default). `keep`: creatures every suggestion holds as they are (the Director's locked
    rows); the search fills only what is left of the band. The creature levels keep to the Guidelines and to
    those Quick Encounter Building allows for the difficulty, so the two checks agree on every suggestion;
    `quick_levels=False` holds them to the Guidelines only. Fewer than `count` come back when the bestiary has no more that differ; none at
    all is refused with `InvalidInput` naming why (no stat block within the level limits, none with the
    keywords, no combination inside the band).
    """
    rules = rules or encounter_rules()
    if not isinstance(party, Party):
        raise InvalidInput("party", party, "a Party (see make_party)")
    difficulty = check_difficulty(difficulty)
    count = whole("count", count, 1, MAX_SUGGESTIONS)
    rng = rng if rng is not None else random.Random(0)
    if not isinstance(rng, random.Random):
        raise InvalidInput("rng", rng, "a random.Random")
    wanted = {k.lower() for k in _texts("keyword", keywords)}
    if star and difficulty != "hard":
        raise InvalidInput("star", star, "True only for a hard encounter", f"the encounter asked is {difficulty}")
    b = budget(party, rules=rules)
    band = b.band(difficulty)
    if band.empty:
        raise InvalidInput(
            "difficulty", difficulty, "a difficulty whose band holds an EV total",
            f"for {party.size} hero(es) no EV total is {difficulty}",
        )
    kept = _kept(keep)
    kept_cost = sum((c.cost() for c in kept), Fraction(0))
    high = band.max if band.max is not None else band.min + int(b.hero_strength)
    if kept_cost > high:
        raise InvalidInput(
            "keep", f"EV {format_number(kept_cost)}", f"creatures costing at most EV {high} in all",
            f"the creatures kept already cost more than a {difficulty} encounter for this party",
        )
    if not isinstance(quick_levels, bool):
        raise InvalidInput("quick_levels", quick_levels, "True or False")
    options = _options(bestiary, party, difficulty if quick_levels else None, wanted, rules)
    kept_blocks = {c.stat_block for c in kept}
    options = [o for o in options if o.creature.stat_block not in kept_blocks] + [
        _kept_option(c, rules) for c in kept
    ]
    must = _must_indexes([o for o in options if not o.kept], _texts("must_include", must_include), bool(wanted))
    g = rules.guidelines
    limits = _Limits(
        party=party,
        difficulty=difficulty,
        low=band.min,
        high=high,
        heroes=party.size,
        per_hero=g.creatures_per_hero,
        half_above=g.minion_half_above_per_hero,
        kinds=g.stat_blocks,
        star=star,
        need_roles=len({o.role for o in options if o.role}) >= 2,
        unavoidable=frozenset(c.key for c in report(Encounter(party=party), rules).broken)
        | frozenset(c.key for c in report(Encounter(party=party, creatures=kept), rules).broken),
        rules=rules,
        max_leaders=g.max_leaders_or_support,
        max_supports=g.max_leaders_or_support,
        max_controllers=g.max_controllers,
    )
    found = _search(options, must, limits, count, rng)
    if not found:
        raise InvalidInput(
            "difficulty", difficulty, f"a difficulty the {len(options)} fitting stat blocks can reach",
            f"no combination found with EV {band.span} that keeps every guideline",
        )
    return found
