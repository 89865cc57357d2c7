"""The changes a fight is made of: each `Event` as saved, and the rule that turns a state into the next one.

Each rule is a pure function of the state and the event's arguments, so a saved log replays to the same
fight; whether the fight is then over is `workbench.fight.ending`'s. The readings behind the rules (turns, villain
actions, reinforcements, the end) are `workbench.fight.fight`'s.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from workbench.encounter.objective import (
    DIMINISH_CONDITIONS,
    complete_the_action_tasks,
    objective_rule,
)
from workbench.errors import InvalidInput
from workbench.fight import malice_tracker as mal
from workbench.fight import squad as sq
from workbench.fight.ending import finish, heroes_fighting, settle
from workbench.fight.malice_features import is_basic_feature
from workbench.fight.setup import ASSAULT_TURNS, COUNTERS, FightContext, group_actor
from workbench.fight.state import CONDITION_ENDS, Condition, FightState, Progress, Status, Unit
from workbench.model import Monster
from workbench.rules.feature_book import FeatureBook
from workbench.rules.limits import MAX_COUNT, MAX_NUMBER, MAX_ROUNDS, whole

__all__ = [
    "Event",
    "EVENT_KINDS",
    "EventRules",
    "END_EFFECT",
    "SOLO_ACTION",
    "villain_actions_of",
    "modifier_for",
]

END_EFFECT: Final = "End Effect"
SOLO_ACTION: Final = "Solo Action"
# numbers of at most 40 digits, as the model reads them (model.ability): int() raises past 4,300
_TAKES = re.compile(r"take\s+(\d{1,40})\s+damage", re.IGNORECASE)

_FROZEN = ConfigDict(frozen=True)


def _solo_turns_words(book: FeatureBook) -> str:
    return next(t.text for t in book.instant_solo.traits if t.name == "Solo Turns")


class Event(BaseModel):
    """One change to the fight, as saved: its kind and its arguments (names and whole numbers)."""

    model_config = _FROZEN
    kind: str
    args: dict[str, Any] = {}


def _dealt(state: FightState, heroes: int, foes: int) -> tuple[tuple[int, int, int], ...]:
    """The per-round damage tally with this hit added to the current round's row."""
    rows = list(state.dealt)
    if rows and rows[-1][0] == state.round:
        r, h, f = rows.pop()
        rows.append((r, h + heroes, f + foes))
    else:
        rows.append((state.round, heroes, foes))
    return tuple(rows)


def _replace(state: FightState, unit: Unit, line: str, **changes: Any) -> FightState:
    units = tuple(unit if u.name == unit.name else u for u in state.units)
    return state.model_copy(update={"units": units, "log": (*state.log, line), **changes})


def _open(state: FightState) -> None:
    if state.ended:
        raise InvalidInput("fight", "ended", "a fight that has not ended (undo to go back into it)",
                           f"the fight is over: {state.end_reason}")


def _started(state: FightState) -> None:
    _open(state)
    if state.round < 1:
        raise InvalidInput("round", 0, "a round that has started", "no round has started yet: start the first round")


def _active(state: FightState, name: Any, field: str = "unit") -> Unit:
    if not isinstance(name, str):
        raise InvalidInput(field, name, "the name of a hero, creature or squad in this fight")
    unit = state.unit(name)
    if not unit.active:
        raise InvalidInput(field, name, "a hero, creature or squad still in the fight", f"{name} is {unit.status}")
    return unit


def _label(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 60:
        raise InvalidInput("label", value, "a condition's name, 1 to 60 characters (e.g. dazed, slowed)")
    return " ".join(value.split())


def villain_actions_of(monster: Monster) -> dict[int, str]:
    """A stat block's own villain actions by number: its abilities costing "villain 1" to "villain 3", else
    its named villain action slots; empty for a stat block that prints none."""
    own = {a.villain_action: a.name for a in monster.abilities if a.villain_action}
    if own:
        return {n: name for n, name in own.items() if n is not None}
    return {i: t.name for i, t in enumerate(monster.villain_actions, start=1) if t.name.strip()}


def modifier_for(monster: Monster, damage_type: str) -> tuple[int, int]:
    """The stat block's (weakness, immunity) to one damage type: the highest that names the type or "all"."""
    key = damage_type.strip().lower()
    weak = max((w.value for w in monster.weaknesses if w.type in (key, "all")), default=0)
    immune = max((i.value for i in monster.immunities if i.type in (key, "all")), default=0)
    return weak, immune


class EventRules:
    """Each event kind's rule: a pure function from the state and the event's arguments to the next state,
    under the rules of the fight's context."""

    def __init__(self, ctx: FightContext) -> None:
        self.ctx = ctx
        self.rules = ctx.rules
        self.book = ctx.book
        monsters = ctx.setup.monsters
        # the entries whose stat block has each ability with a Malice cost, and each own Malice feature
        self.abilities: dict[str, dict[int, Any]] = {}
        self.own_features: dict[str, set[int]] = {}
        for i, m in enumerate(monsters):
            for a in m.abilities:
                if a.malice:
                    self.abilities.setdefault(a.name.casefold(), {})[i] = a
            for f in m.malice_features:
                self.own_features.setdefault(f.name.strip().casefold(), set()).add(i)

    def apply(self, state: FightState, event: Event) -> FightState:
        handler: Callable[..., FightState] | None = getattr(self, f"do_{event.kind}", None)
        if handler is None:
            raise InvalidInput("event", event.kind, "one of " + ", ".join(EVENT_KINDS))
        signature = _SIGNATURES.get(event.kind)
        if signature is None:  # read once per kind: a fight reopened or replayed applies thousands of events
            signature = _SIGNATURES.setdefault(event.kind, inspect.signature(handler))
        try:
            signature.bind(state, **event.args)
        except TypeError:
            names = ", ".join(list(signature.parameters)[1:]) or "none"
            raise InvalidInput("event", event.kind, f"the arguments of {event.kind}: {names}") from None
        return handler(state, **event.args)

    # ---- rounds and turns

    def do_round(self, state: FightState) -> FightState:
        _open(state)
        if state.turn is not None:
            raise InvalidInput("round", state.round + 1, "a new round once no turn is open",
                               f"{state.actor(state.turn).label}'s turn has not ended")
        if state.round >= MAX_ROUNDS:
            raise InvalidInput("round", state.round + 1, f"at most {MAX_ROUNDS} rounds")
        if state.round >= 1 and not state.round_over:
            state = self._end_round(state)
            if state.ended:
                return state
        malice = mal.start_round(state.malice)
        units = tuple(u.model_copy(update={"squad": sq.start_round(u.squad)}) if u.squad is not None and u.active
                      and state.round >= 1 else u for u in state.units)
        line = f"Round {state.round + 1} begins: {malice.log[-1].text}"
        return state.model_copy(update={
            "round": state.round + 1, "round_over": False, "turns_taken": (), "malice": malice, "units": units,
            "log": (*state.log, line), "end_effect_used": False,
        })

    def do_end_round(self, state: FightState) -> FightState:
        _started(state)
        if state.turn is not None:
            raise InvalidInput("round", state.round, "the end of the round once no turn is open",
                               f"{state.actor(state.turn).label}'s turn has not ended")
        if state.round_over:
            raise InvalidInput("round", state.round, "a round that has not ended yet", "the round has ended")
        return self._end_round(state)

    def _end_round(self, state: FightState) -> FightState:
        state = state.model_copy(update={"round_over": True, "log": (*state.log, f"Round {state.round} ends.")})
        return self._timed_objectives(state)

    def _timed_objectives(self, state: FightState) -> FightState:
        """Objectives settled at a round's end: Hold Them Off, Stop the Action, Complete the Action (whose
        round without enough tasks is a failure: "At the end of any combat round in which the heroes have
        failed to perform the required number of tasks, the party accumulates one failure")."""
        out = []
        for p in state.objectives:
            if p.key == "complete_the_action" and p.status == "open":
                counters = dict(p.counters)
                needed = complete_the_action_tasks(heroes_fighting(state), self.rules)
                if counters.get("tasks", 0) < needed:
                    counters["failures"] = counters.get("failures", 0) + 1
                counters["tasks"] = 0
                p = self._judge(state, p.model_copy(update={"counters": tuple(counters.items())}))
            if p.status != "open" or p.duration is None or state.round < p.duration:
                out.append(p)
                continue
            if p.key == "hold_them_off":
                p = settle(p, "met", state.round, f"the heroes held for {p.duration} rounds with "
                            f"{p.count('through')} through (fewer than {p.target})")
            elif p.key == "complete_the_action":
                p = settle(p, "met", state.round, f"the end of the encounter duration with {p.count('failures')} "
                            "failure(s)")
            elif p.key == "stop_the_action":
                p = settle(p, "failed", state.round, objective_rule(p.key, self.rules).failure)
            out.append(p)
        return state.model_copy(update={"objectives": tuple(out)})

    def do_turn(self, state: FightState, actor: str) -> FightState:
        _started(state)
        if state.round_over:
            raise InvalidInput("actor", actor, "a turn in a round that has started", f"round {state.round} has ended")
        a = state.actor(actor)
        if state.turn is not None:
            raise InvalidInput("actor", a.label, "a turn after the current one ends",
                               f"{state.actor(state.turn).label}'s turn has not ended")
        if not any(state.unit(n).active for n in a.units):
            raise InvalidInput("actor", a.label, "a hero or group with someone still in the fight",
                               f"everyone in {a.label} is down or fled")
        taken = state.taken(a.key)
        if taken >= a.turns:
            words = f" ({_solo_turns_words(self.book)})" if a.turns > 1 else ""
            raise InvalidInput("actor", a.label, "a hero or group that has not acted this round",
                               f"{a.label} has taken its {'two turns' if a.turns > 1 else 'turn'} this round{words}")
        if a.turns > 1 and state.last_actor == a.key:
            raise InvalidInput("actor", a.label, "another creature's turn first",
                               f"Solo Turns: {_solo_turns_words(self.book)}")
        malice = mal.start_turn(state.malice, a.label, a.side)
        turns = dict(state.turns_taken)
        turns[a.key] = taken + 1
        which = f" (turn {taken + 1} of {a.turns})" if a.turns > 1 else ""
        acting = tuple(n for n in a.acting(taken + 1) if state.unit(n).active)
        if taken and a.solo_units:
            which += f": {', '.join(acting)} alone"
        return state.model_copy(update={
            "turn": a.key, "turn_number": state.turn_number + 1, "malice": malice, "acting": acting,
            "end_effect_used": False, "turns_taken": tuple(turns.items()),
            "log": (*state.log, f"{a.label}'s turn{which}."),
        })

    def do_end_turn(self, state: FightState) -> FightState:
        _started(state)
        if state.turn is None:
            raise InvalidInput("turn", None, "a turn that has started (start one first)")
        a = state.actor(state.turn)
        ended: list[str] = []
        units = []
        for u in state.units:
            if u.name in state.acting:
                keep = tuple(c for c in u.conditions if not (c.ends == "end of turn" and c.since < state.turn_number))
                ended += [f"{u.name}: {c.label}" for c in u.conditions if c not in keep]
                u = u.model_copy(update={"conditions": keep})
            units.append(u)
        line = f"End of {a.label}'s turn." + (f" Ended: {', '.join(ended)}." if ended else "")
        return state.model_copy(update={
            "turn": None, "last_actor": a.key, "units": tuple(units), "malice": mal.end_turn(state.malice),
            "log": (*state.log, line),
        })

    # ---- Stamina

    def do_damage(self, state: FightState, unit: str, amount: int, in_area: int | None = None,
                  weakness: int = 0, immunity: int = 0, damage_type: str | None = None) -> FightState:
        """Damage, with a weakness and an immunity given or, with `damage_type`, the stat block's own to that
        type (for a squad "apply the effects to the minion's squad once"); temporary Stamina goes first."""
        _started(state)
        u = _active(state, unit)
        amount = whole("amount", amount, 0, MAX_NUMBER)
        weakness, immunity = whole("weakness", weakness, 0), whole("immunity", immunity, 0)
        if damage_type is not None:
            if not isinstance(damage_type, str) or not damage_type.strip() or len(damage_type) > 20:
                raise InvalidInput("damage_type", damage_type, "a damage type (fire, cold, ...) or nothing")
            if u.entry is not None:
                own = modifier_for(self.ctx.setup.monsters[u.entry], damage_type)
                weakness, immunity = max(weakness, own[0]), max(immunity, own[1])
        if u.kind == "hero":
            total = max(0, amount + weakness - immunity)
            temp = min(u.temporary, total)
            change: dict[str, Any] = {"damage_taken": u.damage_taken + total, "temporary": u.temporary - temp}
            if u.stamina_max:
                change["stamina"] = u.stamina - (total - temp)
            return _replace(state, u.model_copy(update=change),
                            f"{u.name} takes {total} damage" + (f" ({temp} from temporary Stamina)." if temp else "."),
                            dealt=_dealt(state, total, 0))
        if u.squad is not None:
            if in_area is None:
                squad, hit = sq.damage_single(u.squad, amount, weakness, immunity)
            else:
                squad, hit = sq.damage_area(u.squad, amount, in_area, weakness, immunity)
            line = f"{u.name}: {hit.working}; {hit.dropped} minion(s) drop, {squad.alive} left."
            dropped = (*u.dropped, (state.round, hit.dropped)) if hit.dropped else u.dropped
            after = u.model_copy(update={"squad": squad, "dropped": dropped})
            state = _replace(state, after, line, dealt=_dealt(state, 0, hit.lost))
            return self._down(state, after, "dead", f"{u.name}: the last minion drops.") if squad.alive == 0 else state
        if in_area is not None:
            raise InvalidInput("in_area", in_area, "nothing for a single creature (only a squad has minions in an area)")
        total = max(0, amount + weakness - immunity)
        temp = min(u.temporary, total)
        left = max(0, u.stamina - (total - temp))
        shown = str(amount) + (f" + {weakness} weakness" if weakness else "") + (f" − {immunity} immunity" if immunity else "")
        shown += f" − {temp} temporary" if temp else ""
        line = f"{u.name}: Stamina {u.stamina} − {shown} = {left}" + (" (stops at 0)" if total - temp > u.stamina else "")
        after = u.model_copy(update={"stamina": left, "temporary": u.temporary - temp})
        if after.winded and not u.winded:
            line += " (winded)"
        state = _replace(state, after, line + ".", dealt=_dealt(state, 0, u.stamina - left))
        return self._down(state, after, "dead", f"{u.name} is reduced to 0 Stamina.") if left == 0 else state

    def do_heal(self, state: FightState, unit: str, amount: int) -> FightState:
        _started(state)
        u = _active(state, unit)
        amount = whole("amount", amount, 1, MAX_NUMBER)
        if u.squad is not None:
            sq.regain_stamina(u.squad, amount)
        if u.kind == "hero" and not u.stamina_max:
            raise InvalidInput("unit", u.name, "a creature, or a hero whose Stamina the runner keeps (set it first)")
        healed = min(u.stamina_max, u.stamina + amount)
        return _replace(state, u.model_copy(update={"stamina": healed}),
                        f"{u.name} regains {healed - u.stamina} Stamina ({healed} of {u.stamina_max}).")

    def do_stamina(self, state: FightState, unit: str, maximum: int) -> FightState:
        """The runner keeps a hero's Stamina too: its maximum, from full."""
        _open(state)
        u = _active(state, unit)
        if u.kind != "hero":
            raise InvalidInput("unit", unit, "a hero (a creature's Stamina is its stat block's)")
        maximum = whole("maximum", maximum, 1, MAX_NUMBER)
        return _replace(state, u.model_copy(update={"stamina_max": maximum, "stamina": maximum}),
                        f"{u.name}: Stamina {maximum}.")

    def do_temporary(self, state: FightState, unit: str, amount: int) -> FightState:
        """Temporary Stamina, taken before Stamina; never for a squad: "minions can't be winded, can't regain
        Stamina, and can't gain temporary Stamina during a battle"."""
        _started(state)
        u = _active(state, unit)
        amount = whole("amount", amount, 0, MAX_NUMBER)
        if u.squad is not None:
            raise InvalidInput("unit", unit, "a hero or creature that is not a minion",
                               "minions can't be winded, can't regain Stamina, and can't gain temporary Stamina "
                               "during a battle")
        return _replace(state, u.model_copy(update={"temporary": amount}),
                        f"{u.name}: {amount} temporary Stamina.")

    def _down(self, state: FightState, unit: Unit, status: Status, line: str) -> FightState:
        state = _replace(state, unit.model_copy(update={"status": status, "down_round": state.round}), line)
        for u in state.units:
            if u.squad is not None and u.squad.captain == unit.name:
                squad = sq.captain_falls(u.squad)
                state = _replace(state, u.model_copy(update={"squad": squad}), f"{u.name}: {squad.log[-1]}.")
        return state

    def do_dies(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero" and u.member == "hero":  # "If a hero dies, they stop generating Malice for you."
            malice = mal.hero_dies(state.malice)
            return self._down(state.model_copy(update={"malice": malice}), u, "dead",
                              f"{u.name} dies: {malice.log[-1].text}.")
        if u.kind == "hero":
            return self._down(state, u, "dead", f"{u.name} ({u.member}) dies: the Malice gain is the heroes'.")
        return self._down(state, u, "dead", f"{u.name} is taken out of the fight.")

    def do_flees(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero":
            raise InvalidInput("unit", u.name, "a creature or squad (the heroes' fleeing is a failure: end the fight)")
        return self._down(state, u, "fled", f"{u.name} flees.")

    def do_minion_dies(self, state: FightState, squad: str) -> FightState:
        """One minion of the squad dies outright (a fall, an effect): it leaves the squad and the pool, and
        counts among the minions the squad lost this round."""
        _started(state)
        s = _active(state, squad, "squad")
        if s.squad is None:
            raise InvalidInput("squad", squad, "a minion squad of this fight")
        squad_after = sq.minion_dies(s.squad)
        after = s.model_copy(update={"squad": squad_after, "dropped": (*s.dropped, (state.round, 1))})
        state = _replace(state, after, f"{s.name}: {squad_after.log[-1]}.")
        return self._down(state, after, "dead", f"{s.name}: the last minion dies.") if not squad_after.alive else state

    # ---- conditions

    def do_condition(self, state: FightState, unit: str, label: str, ends: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        label = _label(label)
        if ends not in CONDITION_ENDS:
            raise InvalidInput("ends", ends, "one of " + ", ".join(CONDITION_ENDS))
        if any(c.label.casefold() == label.casefold() for c in u.conditions):
            raise InvalidInput("label", label, "a condition the creature does not have yet", f"{u.name} is already {label}")
        c = Condition(label=label, ends=ends, since=state.turn_number)
        return _replace(state, u.model_copy(update={"conditions": (*u.conditions, c)}),
                        f"{u.name} is {label} ({ends}).")

    def do_end_condition(self, state: FightState, unit: str, label: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        keep = tuple(c for c in u.conditions if c.label.casefold() != str(label).casefold())
        if len(keep) == len(u.conditions):
            have = ", ".join(c.label for c in u.conditions) or "none"
            raise InvalidInput("label", label, f"one of {u.name}'s conditions ({have})")
        return _replace(state, u.model_copy(update={"conditions": keep}), f"{u.name} is no longer {label}.")

    # ---- squads and captains

    def do_captain(self, state: FightState, squad: str, captain: str) -> FightState:
        _started(state)
        s = _active(state, squad, "squad")
        c = _active(state, captain, "captain")
        if s.squad is None:
            raise InvalidInput("squad", squad, "a minion squad of this fight")
        if c.kind != "creature":
            raise InvalidInput("captain", captain, "a creature of the Director's side that is not a minion")
        others = [u.squad for u in state.units if u.squad is not None and u.name != s.name]
        monster = self.ctx.monster_of(c)
        after = s.model_copy(update={"squad": sq.attach_captain(s.squad, monster, others)})
        return _replace(state, after, f"{s.name}: {after.squad.log[-1] if after.squad else ''}.")

    # ---- Malice and villain actions

    def do_spend(self, state: FightState, feature: str, amount: int | None = None,
                 unit: str | None = None) -> FightState:
        """Malice spent on a basic feature ("At the start of any monster's turn"), on a stat block's own Malice
        feature, or on an ability with a Malice cost ("Abilities that make use of Malice have their Malice cost
        noted in a creature's stat block"): the creature using it is one of the encounter's that has it, and
        acts now unless the ability is a triggered action."""
        _started(state)
        trait = next((f for f in self.ctx.features if f.name.casefold() == str(feature).casefold()), None)
        if trait is None:
            raise InvalidInput("feature", feature, "one of " + ", ".join(f.name for f in self.ctx.features))
        key = trait.name.strip().casefold()
        u: Unit | None = None
        monster = None
        if unit is not None:
            u = _active(state, unit)
            if u.kind == "hero":
                raise InvalidInput("unit", unit, "a creature or squad of the Director's side")
            monster = self.ctx.monster_of(u)
        basic = is_basic_feature(trait, self.book)
        ability = self.abilities.get(key, {})
        own = self.own_features.get(key, set())
        if basic:
            self._at_monster_turn(state, trait.name, u)
        elif ability and not own:
            if u is None or u.entry not in ability:
                raise InvalidInput("unit", unit, f"the creature using {trait.name} (a stat block that has it)")
            action = ability[u.entry].action or ""
            if "triggered" not in action:
                self._at_monster_turn(state, trait.name, u)
        else:
            if u is not None and u.entry not in own:
                raise InvalidInput("unit", unit, f"a creature whose stat block has {trait.name}")
            if key == SOLO_ACTION.casefold():  # "The creature takes an additional main action on their turn."
                if u is None:
                    raise InvalidInput("unit", None, f"the solo taking {trait.name}")
                self._at_monster_turn(state, trait.name, u)
        malice = mal.spend(state.malice, trait, amount, monster, self.book)
        return state.model_copy(update={"malice": malice, "log": (*state.log, malice.log[-1].text + ".")})

    def _at_monster_turn(self, state: FightState, name: str, unit: Unit | None) -> None:
        """A Malice cost paid on a monster's turn, by a creature acting in it. A Director who tracks only
        rounds opens no turn, and the turn's limits then wait (as `malice_tracker` reads them)."""
        if state.turn is None:
            return
        if state.actor(state.turn).side != "monster":
            who = f"it is {state.actor(state.turn).label}'s turn, a hero's"
            raise InvalidInput("feature", name, "a Malice feature at the start of a monster's turn",
                               f"At the start of any monster's turn, you can spend Malice: {who}")
        if unit is not None and unit.name not in state.acting:
            raise InvalidInput("unit", unit.name, "a creature acting this turn: " + ", ".join(state.acting),
                               f"it is {state.actor(state.turn).label}'s turn, not {unit.name}'s")

    def villain_actions(self, unit: Unit) -> dict[int, str]:
        """The villain actions a creature has, by number: its stat block's own, else the book's three."""
        if unit.entry is None:
            return {}
        own = villain_actions_of(self.ctx.setup.monsters[unit.entry])
        if own:
            return own
        return {n: f"villain action {n}" for n in range(1, self.book.villain_actions.count + 1)} if unit.villain else {}

    def do_villain(self, state: FightState, unit: str, number: int | None = None,
                   action: str | None = None) -> FightState:
        """The creature's own villain action, by number or by name ("A creature with villain actions always has
        three"), at the end of another creature's turn, at most one a round."""
        _started(state)
        u = _active(state, unit)
        words = self.book.villain_actions.rules
        actions = self.villain_actions(u)
        if not actions:
            raise InvalidInput("unit", unit, "a leader or solo (a creature with villain actions)",
                               "The solo and leader creatures presented in this book ... have special abilities "
                               "called villain actions.")
        if action is not None:
            found = [n for n, name in actions.items() if name.casefold() == str(action).strip().casefold()]
            if not found:
                raise InvalidInput("action", action, f"one of {u.name}'s villain actions: " + ", ".join(actions.values()))
            number = found[0]
        if number is None:
            raise InvalidInput("number", None, f"one of {u.name}'s villain actions: " + ", ".join(actions.values()))
        if number not in actions:
            raise InvalidInput("number", number, f"one of {u.name}'s villain actions: "
                               + ", ".join(f"{n} ({name})" for n, name in actions.items()))
        malice = mal.villain_action(state.malice, u.name, number, self.book)
        own = state.actor_of(u)
        if state.malice.ended_turn_of == own.label:
            raise InvalidInput("villain_action", f"{u.name} {number}", "the end of another creature's turn",
                               f"{own.label}'s turn is {u.name}'s own: " + words[1].split(".")[0] + ".")
        line = f"{malice.log[-1].text}: {actions[number]}."
        return state.model_copy(update={"malice": malice, "log": (*state.log, line)})

    # ---- the solo's End Effect

    def end_effect_damage(self, unit: Unit) -> int | None:
        """The damage a creature takes for End Effect: its stat block's trait of that name, or a paragraph of
        that name inside a trait (a published solo prints it in "Solo Monster": "End Effect: At the end of each
        of their turns, the werewolf can take 5 damage ..."); None without it."""
        if unit.entry is None:
            return None
        monster = self.ctx.setup.monsters[unit.entry]
        key = END_EFFECT.casefold()
        texts = [t.text for t in monster.traits if t.name.strip().casefold() == key]
        texts += [e.text for t in monster.traits for e in t.effects if (e.name or "").strip().casefold() == key]
        if not texts:
            return None
        found = _TAKES.search(texts[0])
        if found is None:
            book = next(t for t in self.book.instant_solo.traits if t.name == END_EFFECT)
            found = _TAKES.search(book.text)
        return int(found.group(1)) if found else None

    def end_effect_offer(self, state: FightState) -> tuple[str, int, tuple[str, ...]] | None:
        """Right after a creature's turn ends: the creature with End Effect, its damage and the save-ends
        effects it can end ("At the end of each of their turns, the creature can take 10 damage to end one
        effect on them that can be ended by a saving throw"); None when nothing is on offer."""
        if state.ended or state.turn is not None or state.end_effect_used or state.last_actor is None:
            return None
        for name in state.acting:
            u = state.unit(name)
            damage = self.end_effect_damage(u)
            saves = tuple(c.label for c in u.conditions if c.ends == "save ends")
            if u.active and damage is not None and saves:
                return u.name, damage, saves
        return None

    def do_end_effect(self, state: FightState, unit: str, label: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        offer = self.end_effect_offer(state)
        if offer is None or offer[0] != u.name:
            raise InvalidInput("unit", unit, "a creature with End Effect at the end of its own turn",
                               "At the end of each of their turns, the creature can take damage to end one effect "
                               "on them that can be ended by a saving throw.")
        _, damage, saves = offer
        match = next((c for c in u.conditions if c.label.casefold() == str(label).casefold()
                      and c.ends == "save ends"), None)
        if match is None:
            raise InvalidInput("label", label, f"one of {u.name}'s save-ends effects: " + ", ".join(saves))
        left = max(0, u.stamina - damage)  # "This damage can't be reduced in any way."
        after = u.model_copy(update={"stamina": left, "conditions": tuple(c for c in u.conditions if c != match)})
        state = _replace(state, after, f"{u.name}: End Effect, takes {damage} damage to end {match.label} "
                         f"(Stamina {left}).", dealt=_dealt(state, 0, u.stamina - left), end_effect_used=True)
        return self._down(state, after, "dead", f"{u.name} is reduced to 0 Stamina.") if left == 0 else state

    # ---- reinforcements

    def do_reinforce(self, state: FightState, creature: str, count: int) -> FightState:
        """New creatures of one of the encounter's stat blocks join as a new initiative group ("At the end of
        each combat round, you add more enemies to the map"; Escort's replacements likewise)."""
        _started(state)
        index = self.ctx.entry(creature)
        count = whole("count", count, 1, MAX_COUNT, f"a whole number of creatures from 1 to {MAX_COUNT}")
        seen: dict[int, int] = {}
        for u in state.units:
            if u.entry is not None:
                seen[u.entry] = seen.get(u.entry, 0) + 1
        taken = {u.name for u in state.units}
        number = sum(1 for a in state.actors if a.side == "monster")
        units = [u.model_copy(update={"joined": state.round})
                 for u in self.ctx.new_units(index, count, number, seen, taken, numbered=True)]
        actor = group_actor(number, units)
        names = ", ".join(u.name for u in units)
        return state.model_copy(update={
            "units": (*state.units, *units), "actors": (*state.actors, actor),
            "log": (*state.log, f"Reinforcements: {names} join as {actor.label}."),
        })

    def do_hold(self, state: FightState, unit: str) -> FightState:
        """A creature held back before the fight begins, to come in later as a reinforcement."""
        _open(state)
        if state.round >= 1:
            raise InvalidInput("unit", unit, "a creature held back before the first round")
        u = _active(state, unit)
        if u.kind == "hero":
            raise InvalidInput("unit", unit, "a creature or squad of the Director's side")
        return _replace(state, u.model_copy(update={"status": "held"}), f"{u.name} is held back.")

    def do_bring_in(self, state: FightState, unit: str) -> FightState:
        """A creature held back joins the fight now, a reinforcement of this round (not a foe "at the start")."""
        _started(state)
        u = state.unit(unit)
        if u.status != "held":
            held = ", ".join(x.name for x in state.units if x.status == "held") or "none is"
            raise InvalidInput("unit", unit, f"a creature held back ({held})")
        after = u.model_copy(update={"status": "active", "joined": state.round})
        return _replace(state, after, f"{u.name} joins the fight in round {state.round}.")

    def do_move(self, state: FightState, actor: str, position: int) -> FightState:
        """The Director moves a hero or group in the turn order (the order the board shows)."""
        _open(state)
        a = state.actor(actor)
        position = whole("position", position, 1, len(state.actors), f"a place from 1 to {len(state.actors)}")
        order = [x for x in state.actors if x.key != a.key]
        order.insert(position - 1, a)
        return state.model_copy(update={"actors": tuple(order),
                                        "log": (*state.log, f"{a.label} moves to place {position}.")})

    # ---- the players' view

    def do_show_malice(self, state: FightState, shown: bool) -> FightState:
        """Whether the players' view shows the Director's Malice."""
        if not isinstance(shown, bool):
            raise InvalidInput("shown", shown, "True (the players see the Malice) or False")
        word = "shows" if shown else "hides"
        return state.model_copy(update={"malice_shown": shown,
                                        "log": (*state.log, f"The Director {word} the Malice.")})

    # ---- objectives

    def do_choose(self, state: FightState, objective: str, condition: str | None) -> FightState:
        """Diminish Numbers: "Choose one of the following success conditions" (the Director's pick; None
        takes the pick back: half or less, and the solo's against a solo)."""
        _open(state)
        index, p = self._objective(state, objective)
        if p.key != "diminish_numbers":
            raise InvalidInput("objective", p.name, "Diminish Numbers (the objective whose condition is chosen)")
        if condition is None:
            p = p.model_copy(update={"choice": None})
            objectives = tuple(p if i == index else o for i, o in enumerate(state.objectives))
            return state.model_copy(update={"objectives": objectives, "log": (
                *state.log, f"{p.name}: no condition chosen (half or less; a solo's own against a solo).")})
        if condition not in DIMINISH_CONDITIONS:
            raise InvalidInput("condition", condition, "one of " + ", ".join(DIMINISH_CONDITIONS))
        foes = [u for u in state.units if u.kind != "hero"]
        if condition == "minion_groups" and sum(1 for u in foes if u.squad is not None) < 2:
            raise InvalidInput("condition", condition, "an encounter that includes two or more groups of minions")
        if condition == "solo" and not any(u.solo for u in foes):
            raise InvalidInput("condition", condition, "a battle against a solo creature")
        p = p.model_copy(update={"choice": condition})
        objectives = tuple(p if i == index else o for i, o in enumerate(state.objectives))
        return state.model_copy(update={"objectives": objectives,
                                        "log": (*state.log, f"{p.name}: {DIMINISH_CONDITIONS[condition]}")})

    def do_things(self, state: FightState, objective: str, things: int, needed: int | None = None) -> FightState:
        """Destroy the Thing!: how many things ("Divide the thing's Stamina between all the individual
        things") and how many must go ("success might involve destroying only a certain number of the
        things"; all of them unless the Director says)."""
        _open(state)
        index, p = self._objective(state, objective)
        if p.key != "destroy_the_thing":
            raise InvalidInput("objective", p.name, "Destroy the Thing! (the objective with things to count)")
        things = whole("things", things, 1, MAX_COUNT, f"a whole number of things from 1 to {MAX_COUNT}")
        target = things if needed is None else whole("needed", needed, 1, things, f"from 1 to {things}")
        p = self._judge(state, p.model_copy(update={"target": target, "things": things}))
        objectives = tuple(p if i == index else o for i, o in enumerate(state.objectives))
        return state.model_copy(update={"objectives": objectives, "log": (
            *state.log, f"{p.name}: {things} thing(s), {target} to destroy.")})

    def do_count(self, state: FightState, objective: str, counter: str, change: int,
                 unit: str | None = None) -> FightState:
        _started(state)
        index, p = self._objective(state, objective)
        if p.status != "open":
            raise InvalidInput("objective", p.name, "an objective still open", f"{p.name} is already {p.status}")
        known = dict(COUNTERS.get(p.key, ()))
        if counter not in known:
            raise InvalidInput("counter", counter, f"for {p.name}: " + (", ".join(known) or "no counters"))
        change = whole("change", change, -1, 1, "+1 or −1")
        value = p.count(counter) + change
        if value < 0 or change == 0:
            raise InvalidInput("change", change, f"+1 (or −1 when {known[counter]} is above 0)")
        counters = dict(p.counters)
        counters[counter] = value
        p = p.model_copy(update={"counters": tuple(counters.items())})
        if unit is not None:  # who got through (its EV is the next reinforcements')
            if counter != "through" or change != 1:
                raise InvalidInput("unit", unit, "nothing, or the creature getting through (Hold Them Off)")
            past = state.unit(unit)
            if past.kind == "hero":
                raise InvalidInput("unit", unit, "a creature or squad of the Director's side")
            p = p.model_copy(update={"through": (*p.through, (state.round, past.name))})
        elif change == -1 and p.through and len(p.through) > value:
            p = p.model_copy(update={"through": p.through[:-1]})
        p = self._judge(state, p)
        objectives = tuple(p if i == index else o for i, o in enumerate(state.objectives))
        return state.model_copy(update={"objectives": objectives,
                                        "log": (*state.log, f"{p.name}: {known[counter]} {value}.")})

    def do_designate(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero":
            raise InvalidInput("unit", unit, "a creature or squad of the Director's side")
        after = u.model_copy(update={"designated": not u.designated})
        word = "designated" if after.designated else "no longer designated"
        return _replace(state, after, f"{u.name} is {word} (Defeat a Specific Foe).")

    def do_settle(self, state: FightState, objective: str, met: bool) -> FightState:
        """The Director says an objective was met or failed (a condition the fight cannot count itself)."""
        _started(state)
        index, p = self._objective(state, objective)
        if not isinstance(met, bool):
            raise InvalidInput("met", met, "True (met) or False (failed)")
        if p.status != "open":
            raise InvalidInput("objective", p.name, "an objective still open", f"{p.name} is already {p.status}")
        rule = objective_rule(p.key, self.rules)
        p = settle(p, "met" if met else "failed", state.round, rule.success if met else rule.failure)
        objectives = tuple(p if i == index else o for i, o in enumerate(state.objectives))
        return state.model_copy(update={"objectives": objectives,
                                        "log": (*state.log, f"{p.name}: {p.status} ({p.reason}).")})

    def _objective(self, state: FightState, key: Any) -> tuple[int, Progress]:
        for i, p in enumerate(state.objectives):
            if key in (p.key, p.name):
                return i, p
        raise InvalidInput("objective", key, "one of this fight's objectives: "
                           + (", ".join(p.name for p in state.objectives) or "none"))

    def _judge(self, state: FightState, p: Progress) -> Progress:
        """An objective whose counters settle it now."""
        rule = objective_rule(p.key, self.rules)
        if p.key == "hold_them_off" and p.target is not None and p.count("through") >= p.target:
            return settle(p, "failed", state.round, rule.failure)
        if p.key == "complete_the_action" and p.count("failures") > self.rules.objective_rules.complete_failures_allowed:
            return settle(p, "failed", state.round, rule.failure)
        if p.key == "escort" and p.count("ward_down"):
            return settle(p, "failed", state.round, rule.failure)
        if p.key == "escort" and p.count("at_exit"):
            return settle(p, "met", state.round, rule.success)
        if p.key == "destroy_the_thing" and p.count("destroyed") >= (p.target or 1):
            return settle(p, "met", state.round, rule.success)
        if p.key == "get_the_thing" and p.count("escaped") and p.count("escaped") >= heroes_fighting(state):
            return settle(p, "met", state.round, rule.success)
        if p.key == "stop_the_action" and p.count("stopped"):
            return settle(p, "met", state.round, rule.success)
        if p.key == "assault_the_defenses" and p.count("held_turns") >= (p.target or ASSAULT_TURNS):
            return settle(p, "met", state.round, rule.success)
        if p.key == "save_another":
            to_save = p.count("to_save")
            if to_save and 2 * p.count("lost") > to_save:
                return settle(p, "failed", state.round, rule.failure)
        return p

    def do_end(self, state: FightState, reason: str = "", victorious: bool | None = None,
               victories: int | None = None) -> FightState:
        """The Director ends the fight: the heroes flee (not victorious), or the foes surrender or retreat
        (`victorious`), with the Victories the Director judges (`victories`; else the rules' own)."""
        _open(state)
        if victorious is not None and not isinstance(victorious, bool):
            raise InvalidInput("victorious", victorious, "True (the heroes won), False or nothing")
        if victories is not None:
            victories = whole("victories", victories, 0, 10, "a whole number of Victories from 0 to 10")
            if victorious is None:
                victorious = victories > 0
        text = reason.strip()[:200] if isinstance(reason, str) and reason.strip() else "the Director ended the fight"
        state = state.model_copy(update={"victorious": victorious, "judged_victories": victories})
        return finish(state, text)


EVENT_KINDS: Final = tuple(name[3:] for name in dir(EventRules) if name.startswith("do_"))
_SIGNATURES: dict[str, inspect.Signature] = {}  # each event kind's rule's parameters, as `apply` checks them
