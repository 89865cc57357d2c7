"""What a fight starts from: the encounter's heroes, creatures and squads as units in initiative groups,
the Malice features on offer, each objective's progress to count, and the difficulty Victories are earned at.

Worked out once from the encounter and the rules the fight is run under (the encounter rules and the
Malice features' book), and rebuilt the same when a saved fight is reopened.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from workbench.encounter.encounter import Creature, Encounter, creature_stamina
from workbench.encounter.groups import suggest_groups
from workbench.encounter.objective import hold_them_off_limit, objective_rule
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.fight import squad as sq
from workbench.fight.malice_features import encounter_features
from workbench.fight.malice_tracker import start_encounter
from workbench.fight.state import Actor, FightState, Progress, Unit
from workbench.model import Monster, Trait
from workbench.rules.encounter_tables import EncounterRules
from workbench.rules.feature_book import FeatureBook

__all__ = [
    "SHORT_DURATION",
    "ASSAULT_TURNS",
    "SOLO_TURNS",
    "COUNTERS",
    "capitalized",
    "monster_for",
    "group_actor",
    "FightSetup",
    "FightContext",
]

_FROZEN = ConfigDict(frozen=True)

# "The encounter duration is 2 rounds or less": the condition Stop and Complete the Action tick for a short one
SHORT_DURATION: Final = 2
ASSAULT_TURNS: Final = 4  # "none of their enemies have been in the defensive position for 4 consecutive turns"
SOLO_TURNS: Final = 2  # "The creature can take two turns each round."


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def monster_for(creature: Creature) -> Monster:
    """The stat block an entry fights with: the whole monster it carries, named as the fight names it."""
    return creature.monster.model_copy(update={"name": capitalized(creature.label)})


def group_actor(number: int, units: Sequence[Unit]) -> Actor:
    """Initiative group `number` (from 0): its units act together; a group holding a solo takes two turns,
    the second the solo's alone (Solo Turns is the solo's trait, not its group's)."""
    solos = tuple(u.name for u in units if u.solo)
    return Actor(key=f"group:{number + 1}", label=f"Group {number + 1}", side="monster",
                 units=tuple(u.name for u in units), turns=SOLO_TURNS if solos else 1, solo_units=solos)


def _has_villain_actions(creature: Creature, book: FeatureBook) -> bool:
    return creature.organization in book.villain_actions.organizations or creature.instant_solo


class FightSetup(BaseModel):
    """What a fight is built from and never changes: the encounter and the Monster behind each entry."""

    model_config = _FROZEN
    encounter: Encounter
    monsters: tuple[Monster, ...]
    victories: Fraction
    durations: tuple[tuple[str, int], ...] = ()
    hero_names: tuple[str, ...] = ()


class FightContext:
    """The setup worked out once under `rules` and `book`: units, actors, features, difficulties (rebuilt the
    same on reopening)."""

    def __init__(self, setup: FightSetup, rules: EncounterRules, book: FeatureBook) -> None:
        self.setup = setup
        self.rules = rules
        self.book = book
        enc = setup.encounter
        self.report = report(enc, rules)
        self.features = self._features()
        self.heroes = self._heroes()
        self.first_units, self.first_actors = self._units()

    def _features(self) -> tuple[Trait, ...]:
        """The basic Malice features, each stat block's own Malice features (Solo Action only where a stat
        block has it) and the abilities with a Malice cost in the stat blocks ("Abilities that make use of
        Malice have their Malice cost noted in a creature's stat block")."""
        own = [Trait(name=a.name, text=a.cost_text, cost=a.malice) for m in self.setup.monsters
               for a in m.abilities if a.malice]
        return encounter_features(self.setup.monsters, own, self.book)

    def _heroes(self) -> tuple[Unit, ...]:
        members = self.setup.encounter.party.members
        numbers: dict[str, int] = {}
        out = []
        for i, m in enumerate(members):
            numbers[m.kind] = numbers.get(m.kind, 0) + 1
            given = self.setup.hero_names[i] if i < len(self.setup.hero_names) else ""
            name = given.strip() or m.name.strip() or f"{capitalized(m.kind)} {numbers[m.kind]}"
            out.append(Unit(name=name, kind="hero", member=m.kind))
        names = [u.name for u in out]
        if len(set(names)) != len(names):
            raise InvalidInput("hero_names", names, "a different name for each hero")
        return tuple(out)

    def _units(self) -> tuple[tuple[Unit, ...], tuple[Actor, ...]]:
        enc = self.setup.encounter
        groups = enc.groups or suggest_groups(enc, rules=self.rules)
        taken = set(h.name for h in self.heroes)
        seen: dict[int, int] = {}
        units: list[Unit] = list(self.heroes)
        actors = [Actor(key=f"hero:{h.name}", label=h.name, side="hero", units=(h.name,)) for h in self.heroes]
        placed: dict[int, int] = {}
        for g in groups:
            for index, count in g.members:
                placed[index] = placed.get(index, 0) + count
        leftover = [(i, c.count - placed.get(i, 0)) for i, c in enumerate(enc.creatures) if c.count > placed.get(i, 0)]
        all_groups = [tuple(g.members) for g in groups] + [((i, n),) for i, n in leftover]
        for number, members in enumerate(all_groups):
            group: list[Unit] = []
            for index, count in members:
                group += self.new_units(index, count, number, seen, taken)
            units += group
            actors.append(group_actor(number, group))
        return self._designate(tuple(units)), tuple(actors)

    def new_units(self, index: int, count: int, group: int, seen: dict[int, int], taken: set[str],
                  numbered: bool = False) -> list[Unit]:
        """`count` creatures of entry `index` acting in `group`: minions as squads of up to eight, others
        one by one with their Stamina. `seen` counts each entry's pieces so far (for their numbers), `taken`
        the names in use; `numbered` numbers even a lone creature (a reinforcement joins others)."""
        c = self.setup.encounter.creatures[index]
        monster = self.setup.monsters[index]
        base = capitalized(c.label)
        out: list[Unit] = []
        if c.minion:
            for size in sq.squad_sizes(count):
                seen[index] = seen.get(index, 0) + 1
                alone = not numbered and c.count <= size and seen[index] == 1
                name = self._unique(base if alone else f"{base} (squad {seen[index]})", taken)
                squad = sq.make_squad(monster, size, name=name, with_captain=monster.with_captain or None)
                out.append(Unit(name=name, kind="squad", entry=index, group=group, squad=squad, minion=True))
            return out
        stamina = monster.stamina or creature_stamina(c)
        for _ in range(count):
            seen[index] = seen.get(index, 0) + 1
            name = self._unique(f"{base} {seen[index]}" if c.count > 1 or numbered else base, taken)
            out.append(Unit(
                name=name, kind="creature", entry=index, group=group, stamina_max=stamina, stamina=stamina,
                villain=_has_villain_actions(c, self.book), solo=c.solo, designated=c.star,
            ))
        return out

    def entry(self, creature: Any) -> int:
        """The encounter entry a stat block's name (or its description) names."""
        labels = [capitalized(c.label) for c in self.setup.encounter.creatures]
        for i, label in enumerate(labels):
            if isinstance(creature, str) and creature.strip().casefold() == label.casefold():
                return i
        raise InvalidInput("creature", creature, "one of the encounter's stat blocks: " + ", ".join(labels))

    @staticmethod
    def _unique(name: str, taken: set[str]) -> str:
        out, n = name, 1
        while out in taken:
            n += 1
            out = f"{name} ({n})"
        taken.add(out)
        return out

    @staticmethod
    def _designate(units: tuple[Unit, ...]) -> tuple[Unit, ...]:
        """Defeat a Specific Foe's designated creatures: the star of the show, else the leaders and solos."""
        if any(u.designated for u in units):
            return units
        return tuple(u.model_copy(update={"designated": True}) if u.villain else u for u in units)

    def monster_of(self, unit: Unit) -> Monster:
        """The stat block behind a creature or squad, named as the unit is (for a captain or a Malicious Strike)."""
        if unit.entry is None:
            raise InvalidInput("unit", unit.name, "a creature or squad of the Director's side")
        return self.setup.monsters[unit.entry].model_copy(update={"name": unit.name})

    def first_state(self) -> FightState:
        party = self.setup.encounter.party
        heroes = sum(1 for m in party.members if m.kind == "hero") or party.size
        malice = start_encounter(heroes, math.floor(self.setup.victories))
        return FightState(units=self.first_units, actors=self.first_actors, malice=malice, objectives=self._progress(),
                          log=("The fight is set up.",))

    def _progress(self) -> tuple[Progress, ...]:
        out = []
        durations = dict(self.setup.durations)
        for chosen in self.setup.encounter.objectives:
            rule = objective_rule(chosen.key, self.rules)
            duration: int | None = None
            target: int | None = None
            if chosen.key in ("hold_them_off", "stop_the_action", "complete_the_action"):
                long = any(chosen.conditions.get(k) for k in ("long_duration", "long_or_many_positions"))
                short = chosen.conditions.get("short_duration")
                timing = self.rules.objective_rules  # the durations the encounter's report states
                default = timing.long_duration if long and chosen.key == "hold_them_off" else timing.typical_duration
                duration = durations.get(chosen.key, SHORT_DURATION if short else default)
            if chosen.key == "hold_them_off":
                target = hold_them_off_limit(self.setup.encounter.party)
            elif chosen.key == "assault_the_defenses":
                target = ASSAULT_TURNS
            elif chosen.key == "destroy_the_thing":
                target = 2 if chosen.conditions.get("multiple") else 1
            out.append(Progress(key=chosen.key, name=rule.name, duration=duration, target=target))
        return tuple(out)

    def difficulty_of(self, index: int) -> str:
        outcome = self.report.outcome
        if outcome.alternatives:
            return outcome.alternatives[index].difficulty
        return outcome.difficulty


# the counters each objective shows, with the words a page puts beside them
COUNTERS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "hold_them_off": (("through", "creatures through"),),
    "destroy_the_thing": (("destroyed", "things destroyed"),),
    "escort": (("at_exit", "ward at the destination"), ("ward_down", "ward at 0 Stamina"),
               ("heroes_at_exit", "heroes at the destination")),
    "get_the_thing": (("escaped", "heroes off the map with the thing"),),
    "save_another": (("saved", "creatures saved"), ("lost", "killed or captured"), ("to_save", "to be saved")),
    "assault_the_defenses": (("held_turns", "consecutive turns held"),),
    "stop_the_action": (("stopped", "action stopped"),),
    "complete_the_action": (("tasks", "tasks performed this round"), ("failures", "failures")),
}
