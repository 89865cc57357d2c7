""""Step 6: Build Initiative Groups": typed, checked and suggested groups of creatures acting together.

Reading (the text leaves it open): "a lot of Victories" (a group worth more than two heroes) is 6 or more,
the number the rules use to let creature levels go higher.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Sequence
from fractions import Fraction

from workbench.encounter.encounter import Encounter, InitiativeGroup
from workbench.encounter.guidelines import Check, guideline_check
from workbench.encounter.party import budget
from workbench.errors import InvalidInput, shown
from workbench.numbers import format_number
from workbench.rules.encounter_tables import EncounterRules, encounter_rules

__all__ = [
    "group_ev",
    "validate_groups",
    "parse_groups",
    "format_groups",
    "check_groups",
    "suggest_groups",
    "GROUPS_ACCEPTS",
]


def group_ev(encounter: Encounter, group: InitiativeGroup) -> Fraction:
    return sum(
        (encounter.creatures[i].cost(count) for i, count in group.members), Fraction(0)
    )


def validate_groups(encounter: Encounter, groups: Sequence[InitiativeGroup]) -> dict[int, int]:
    """How many of each creature the groups place; a group naming a creature that is not there, or placing
    more of one than the encounter has, is refused on the field "groups"."""
    placed: dict[int, int] = {}
    for group in groups:
        for index, count in group.members:
            if not 0 <= index < len(encounter.creatures):
                raise InvalidInput(
                    "groups", index, f"creature indexes from 0 to {len(encounter.creatures) - 1}"
                )
            if count < 1:
                raise InvalidInput("groups", count, "a count of creatures from 1 upwards")
            placed[index] = placed.get(index, 0) + count
    for index, count in placed.items():
        if count > encounter.creatures[index].count:
            c = encounter.creatures[index]
            raise InvalidInput(
                "groups", count, f"at most {c.count} of {c.label} across all groups"
            )
    return placed


GROUPS_ACCEPTS = (
    'groups separated by ";", each a list of ENTRY or ENTRY×COUNT (entries numbered from 1 as listed), '
    'e.g. "1×2, 2×4; 1×2; 3"'
)


def parse_groups(text: str, encounter: Encounter) -> tuple[InitiativeGroup, ...]:
    """Initiative groups typed by the Director: "1×2, 2×4; 1×2; 3" (an entry alone means all of it).

    Refuses a malformed text or an entry that does not exist with `InvalidInput` on the field "groups".
    """
    if not isinstance(text, str):
        raise InvalidInput("groups", text, GROUPS_ACCEPTS)
    groups: list[InitiativeGroup] = []
    for part in text.split(";"):
        if not part.strip():
            continue
        members: dict[int, int] = {}
        for item in part.split(","):
            match = re.fullmatch(r"\s*([0-9]{1,6})\s*(?:(?:×|x|\*)\s*([0-9]{1,6}))?\s*", item, re.IGNORECASE)
            if not match:
                raise InvalidInput("groups", text, GROUPS_ACCEPTS, f"cannot read {shown(item.strip())}")
            entry = int(match[1])
            if not 1 <= entry <= len(encounter.creatures):
                raise InvalidInput(
                    "groups", text, GROUPS_ACCEPTS,
                    f"entry {entry} does not exist (there are {len(encounter.creatures)})",
                )
            count = int(match[2]) if match[2] else encounter.creatures[entry - 1].count
            members[entry - 1] = members.get(entry - 1, 0) + count
        groups.append(InitiativeGroup(members=tuple(sorted(members.items()))))
    validate_groups(encounter, groups)
    return tuple(groups)


def format_groups(groups: Sequence[InitiativeGroup]) -> str:
    """Groups in the syntax `parse_groups` reads (entries numbered from 1)."""
    return "; ".join(", ".join(f"{i + 1}×{count}" for i, count in g.members) for g in groups)


def check_groups(
    encounter: Encounter, hero_strength: Fraction, rules: EncounterRules | None = None
) -> tuple[Check, ...]:
    """Step 6: each group's EV against one to two heroes' ES, and the number of groups against the heroes."""
    rules = rules or encounter_rules()
    g = rules.guidelines
    groups = encounter.groups
    placed = validate_groups(encounter, groups)
    n = encounter.party.size
    low, high = g.group_heroes_low * hero_strength, g.group_heroes_high * hero_strength
    below: list[int] = []
    over: list[int] = []
    for number, group in enumerate(groups, start=1):
        value = group_ev(encounter, group)
        single = len(group.members) == 1 and group.members[0][1] == 1
        many = encounter.party.victories >= g.many_victories
        if value < low:
            below.append(number)
        elif value > high and not (single or many):
            over.append(number)
    unplaced = [
        c.label for i, c in enumerate(encounter.creatures) if placed.get(i, 0) < c.count
    ]
    values = ", ".join(format_number(group_ev(encounter, grp)) for grp in groups)
    detail = f"group EVs {values}; aim for {format_number(low)} to {format_number(high)}"
    if len(below) > 1:
        detail += f"; groups {', '.join(map(str, below))} are below (only one may be)"
    if over:
        detail += f"; groups {', '.join(map(str, over))} are above and not a single creature"
    if unplaced:
        detail += f"; not in a group yet: {', '.join(unplaced)}"
    has_solo = any(c.solo for c in encounter.creatures)
    k = len(groups)
    return (
        guideline_check(
            "group_ev",
            "Initiative group EV between one and two heroes' ES",
            bool(groups),
            len(below) <= 1 and not over and not unplaced,
            detail,
            rules,
        ),
        guideline_check(
            "group_count",
            f"About as many initiative groups as heroes (± {g.groups_spread})",
            bool(groups) and not has_solo,
            abs(k - n) <= g.groups_spread,
            f"{k} groups for {n} heroes (aim for {max(1, n - g.groups_spread)} to {n + g.groups_spread})",
            rules,
        ),
    )


_Unit = tuple[Fraction, int, int]  # (EV, creature index, how many): one creature, or a set of minions


def _spread(units: Sequence[_Unit], k: int) -> list[list[_Unit]]:
    """Largest EV first, each into the group with the least EV so far."""
    bins: list[list[_Unit]] = [[] for _ in range(k)]
    emptiest_first = [(Fraction(0), b) for b in range(k)]  # a heap of (EV so far, group)
    for unit in sorted(units, key=lambda u: (-u[0], u[1])):
        total, emptiest = heapq.heappop(emptiest_first)
        bins[emptiest].append(unit)
        heapq.heappush(emptiest_first, (total + unit[0], emptiest))
    return bins


# The trial moves and swaps the search makes over all group counts at most: every grouping of a large encounter
# (a hundred entries, hundreds of creatures) is then suggested in well under a second; past it, the first
# grouping is suggested, as when no grouping keeps the guideline.
MAX_TRIALS = 100_000


class _Grouping:
    """Groups of units with their EV totals kept up to date, so a move or swap is judged in constant time.

    EVs are scaled to whole numbers (a minion's quarter EV by 4) so the many trial sums are plain integers.
    """

    def __init__(self, bins: Sequence[Sequence[_Unit]], low: Fraction, high: Fraction, many: bool,
                 fixed_below: int) -> None:
        self.bins = [list(b) for b in bins]
        scale = math.lcm(low.denominator, high.denominator, *(u[0].denominator for b in bins for u in b))
        self.value = {u: int(u[0] * scale) for b in bins for u in b}
        self.low, self.high, self.many = int(low * scale), int(high * scale), many
        self.sums = [sum(self.value[u] for u in b) for b in self.bins]
        flags = [self._flags(self.sums[i], self._single(self.bins[i])) for i in range(len(self.bins))]
        self.below = fixed_below + sum(f[0] for f in flags)
        self.over = sum(f[1] for f in flags)
        self.trials = 0  # moves and swaps judged so far

    @staticmethod
    def _single(units: Sequence[_Unit]) -> bool:
        """A group of one creature (a set of minions is not one)."""
        return len(units) == 1 and units[0][2] == 1

    def _flags(self, total: int, single: bool) -> tuple[int, int]:
        """(below one hero, above two heroes without being a single creature) for a group."""
        if total < self.low:
            return 1, 0
        return 0, int(total > self.high and not self.many and not single)

    @property
    def cost(self) -> int:
        return max(0, self.below - 1) + self.over

    def _cost_with(self, a: int, sum_a: int, single_a: bool, b: int, sum_b: int, single_b: bool) -> int:
        old_a = self._flags(self.sums[a], self._single(self.bins[a]))
        old_b = self._flags(self.sums[b], self._single(self.bins[b]))
        new_a, new_b = self._flags(sum_a, single_a), self._flags(sum_b, single_b)
        below = self.below - old_a[0] - old_b[0] + new_a[0] + new_b[0]
        over = self.over - old_a[1] - old_b[1] + new_a[1] + new_b[1]
        return max(0, below - 1) + over

    def _apply(self, a: int, units_a: list[_Unit], b: int, units_b: list[_Unit]) -> None:
        for i, units in ((a, units_a), (b, units_b)):
            old = self._flags(self.sums[i], self._single(self.bins[i]))
            self.bins[i] = units
            self.sums[i] = sum(self.value[u] for u in units)
            new = self._flags(self.sums[i], self._single(units))
            self.below += new[0] - old[0]
            self.over += new[1] - old[1]

    def step(self, limit: int) -> bool:
        """Make the first move of one unit to another group (never emptying one), or swap of two units between
        groups, that lowers the cost; False when none does or `limit` trials are made. Units alike (the same
        EV, one creature or not) are judged once per group: moving either changes the cost alike."""
        best = self.cost
        for a, from_a in enumerate(self.bins):
            for b, into_b in enumerate(self.bins):
                if a == b:
                    continue
                tried: set[tuple[int, bool]] = set()
                for i, unit in enumerate(from_a):
                    v = self.value[unit]
                    if (v, unit[2] == 1) in tried:
                        continue
                    tried.add((v, unit[2] == 1))
                    self.trials += 1 + len(into_b)
                    if self.trials > limit:
                        return False
                    if len(from_a) > 1:
                        left_single = len(from_a) == 2 and from_a[1 - i][2] == 1
                        if self._cost_with(a, self.sums[a] - v, left_single, b, self.sums[b] + v, False) < best:
                            self._apply(a, from_a[:i] + from_a[i + 1:], b, [*into_b, unit])
                            return True
                    swapped: set[tuple[int, bool]] = set()
                    for j, other in enumerate(into_b):
                        w = self.value[other]
                        if v == w and unit[2] == other[2] or (w, other[2] == 1) in swapped:
                            continue
                        swapped.add((w, other[2] == 1))
                        single_a = len(from_a) == 1 and other[2] == 1
                        single_b = len(into_b) == 1 and unit[2] == 1
                        if self._cost_with(a, self.sums[a] - v + w, single_a, b, self.sums[b] - w + v,
                                           single_b) < best:
                            self._apply(a, [*from_a[:i], other, *from_a[i + 1:]],
                                        b, [*into_b[:j], unit, *into_b[j + 1:]])
                            return True
        return False


def _improve(bins: Sequence[Sequence[_Unit]], low: Fraction, high: Fraction, many: bool,
             fixed_below: int, limit: int) -> tuple[list[list[_Unit]], int, int]:
    """Move or swap units between groups while that brings the grouping nearer the EV guideline, within
    `limit` trials; the groups, what is left of the cost (0: the guideline is kept) and the trials made."""
    grouping = _Grouping(bins, low, high, many, fixed_below)
    while grouping.cost and grouping.step(limit):
        pass
    return grouping.bins, grouping.cost, grouping.trials


def suggest_groups(
    encounter: Encounter, hero_strength: Fraction | None = None, rules: EncounterRules | None = None
) -> tuple[InitiativeGroup, ...]:
    """A suggested grouping: each solo alone; the rest split into about as many groups as heroes.

    Minions go in sets of four (a set never splits); other creatures one by one, largest EV first, each into
    the group with the least EV so far. The number of groups is the total EV ÷ 1.5 heroes' ES, kept within
    the heroes ± 2 and never more than there are pieces to place; then groups below one hero's ES are
    merged until only one is ("It's okay to have one initiative group with a total EV of less than the
    recommendation"). When that grouping still breaks the EV guideline, the other group counts the heroes
    allow are tried too, moving or swapping pieces between groups, and the first grouping that keeps the
    guideline is suggested (the first one, if none does: the guidelines can conflict, as with many minions
    for a large party). The search is bounded (`MAX_TRIALS` moves and swaps judged in all), so a large encounter
    is answered at once. A suggestion: check it with `check_groups`.
    """
    rules = rules or encounter_rules()
    g = rules.guidelines
    h = hero_strength if hero_strength is not None else budget(encounter.party, rules=rules).hero_strength
    n = encounter.party.size
    solos: list[InitiativeGroup] = []
    units: list[_Unit] = []
    for index, c in enumerate(encounter.creatures):
        if c.solo:
            solos.extend(InitiativeGroup(members=((index, 1),)) for _ in range(c.count))
        elif c.minion:
            left = c.count
            while left:
                take = min(g.minions_per_set, left)
                units.append((c.cost(take), index, take))
                left -= take
        else:
            units.extend((c.cost(1), index, 1) for _ in range(c.count))
    if not units:
        return tuple(solos)
    total = sum((u[0] for u in units), Fraction(0))
    low = g.group_heroes_low * h
    high = g.group_heroes_high * h
    lowest = 1 if solos else max(n - g.groups_spread, 1)
    highest = min(n + g.groups_spread, len(units))
    target = round(total / (Fraction(3, 2) * h)) if h else n
    k = min(max(target, n - g.groups_spread, 1), n + g.groups_spread, len(units))
    bins = _spread(units, k)
    # "It's okay to have one initiative group with a total EV of less than the recommendation above": only
    # one. Merge the two smallest groups below one hero's ES until at most one is left (two below one hero
    # stay below two heroes, so the merged group is within the recommendation or still the only low one);
    # without a solo, never below the heroes − 2 groups ("about as many initiative groups as the number of
    # heroes" applies "in a battle without a solo creature").
    while len(bins) > lowest:
        below = sorted((sum(u[0] for u in b), i) for i, b in enumerate(bins) if sum(u[0] for u in b) < low)
        if len(below) < 2:
            break
        (_, first), (_, second) = below[0], below[1]
        bins[first].extend(bins[second])
        del bins[second]
    many = encounter.party.victories >= g.many_victories
    solo_below = sum(1 for grp in solos if group_ev(encounter, grp) < low)
    if _Grouping(bins, low, high, many, solo_below).cost:
        trials_left = MAX_TRIALS
        for count in sorted(range(lowest, max(highest, lowest) + 1), key=lambda c: (abs(c - len(bins)), c)):
            candidate, left, trials = _improve(_spread(units, count), low, high, many, solo_below, trials_left)
            trials_left -= trials
            if not left:
                bins = candidate
                break
            if trials_left <= 0:
                break
    groups: list[InitiativeGroup] = []
    for content in bins:
        merged: dict[int, int] = {}
        for _, index, take in content:
            merged[index] = merged.get(index, 0) + take
        groups.append(InitiativeGroup(members=tuple(sorted(merged.items()))))
    return tuple(solos) + tuple(groups)
