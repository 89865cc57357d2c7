"""The changes a fight is made of: each `Event` as saved, and the rule that turns a state into the next one.

Each rule is a pure function of the state and the event's arguments, so a saved log replays to the same
fight; after each change the fight ends when it is over. The readings behind the rules (turns, villain
actions, reinforcements, the end) are `workbench.fight.fight`'s.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict

from workbench.encounter.objective import objective_rule, solo_flee_stamina
from workbench.errors import InvalidInput
from workbench.fight import malice_tracker as mal
from workbench.fight import squad as sq
from workbench.fight.damage_types import UNTYPED, checked_damage_type, type_modifiers
from workbench.fight.setup import ASSAULT_TURNS, COUNTERS, FightContext, group_actor
from workbench.fight.state import CONDITION_ENDS, Condition, FightState, Progress, Status, Unit
from workbench.rules.encounter_tables import EncounterRules
from workbench.rules.feature_book import FeatureBook
from workbench.rules.limits import MAX_COUNT, MAX_NUMBER, MAX_ROUNDS, whole

__all__ = [
    "Event",
    "EVENT_KINDS",
    "EventRules",
    "DIMINISH_SOLO",
    "DIMINISH_HALF",
    "foes_gone",
    "check_end",
]

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


def _soak(unit: Unit, total: int, line: str) -> tuple[Unit, str]:
    """`total` damage off temporary Stamina first, then Stamina (a hero's only when the Director keeps it;
    a hero's may fall below 0, a creature's stops there), with the line saying so."""
    soaked = min(unit.temporary, total)
    rest = total - soaked
    if soaked:
        line += f" ({soaked} off temporary Stamina)"
    if unit.kind == "hero" and not unit.stamina_max:
        return unit.model_copy(update={"temporary": unit.temporary - soaked}), line
    stamina = unit.stamina - rest
    line += f": Stamina {unit.stamina} − {rest} = {max(stamina, 0) if unit.kind != 'hero' else stamina}"
    if unit.kind != "hero" and rest > unit.stamina:
        line += " (stops at 0)"
    return unit.model_copy(update={"temporary": unit.temporary - soaked, "stamina": stamina}), line


class EventRules:
    """Each event kind's rule: a pure function from the state and the event's arguments to the next state,
    under the rules of the fight's context."""

    def __init__(self, ctx: FightContext) -> None:
        self.ctx = ctx
        self.rules = ctx.rules
        self.book = ctx.book

    def apply(self, state: FightState, event: Event) -> FightState:
        handler: Callable[..., FightState] | None = getattr(self, f"do_{event.kind}", None)
        if handler is None:
            raise InvalidInput("event", event.kind, "one of " + ", ".join(EVENT_KINDS))
        try:
            inspect.signature(handler).bind(state, **event.args)
        except TypeError:
            names = ", ".join(list(inspect.signature(handler).parameters)[1:]) or "none"
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
        joining = [u.name for u in units if u.status == "held" and u.joins == state.round + 1]
        units = tuple(u.model_copy(update={"status": "active", "joins": None}) if u.name in joining else u
                      for u in units)
        line = f"Round {state.round + 1} begins: {malice.log[-1].text}"
        if joining:
            line += f". Reinforcements join: {', '.join(joining)}"
        return state.model_copy(update={
            "round": state.round + 1, "round_over": False, "turns_taken": (), "malice": malice, "units": units,
            "log": (*state.log, line),
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
        """Objectives settled at a round's end: Hold Them Off, Stop the Action, Complete the Action."""
        out = []
        for p in state.objectives:
            if p.status != "open" or p.duration is None or state.round < p.duration:
                out.append(p)
                continue
            if p.key == "hold_them_off":
                p = _settle(p, "met", state.round, f"the heroes held for {p.duration} rounds with "
                            f"{p.count('through')} through (fewer than {p.target})")
            elif p.key == "complete_the_action":
                p = _settle(p, "met", state.round, f"the end of the encounter duration with {p.count('failures')} "
                            "failure(s)")
            elif p.key == "stop_the_action":
                p = _settle(p, "failed", state.round, objective_rule(p.key, self.rules).failure)
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
        return state.model_copy(update={
            "turn": a.key, "turn_number": state.turn_number + 1, "malice": malice,
            "turns_taken": tuple(turns.items()), "log": (*state.log, f"{a.label}'s turn{which}."),
        })

    def do_end_turn(self, state: FightState) -> FightState:
        _started(state)
        if state.turn is None:
            raise InvalidInput("turn", None, "a turn that has started (start one first)")
        a = state.actor(state.turn)
        ended: list[str] = []
        units = []
        for u in state.units:
            if u.name in a.units:
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
                  weakness: int = 0, immunity: int = 0, damage_type: str = UNTYPED) -> FightState:
        _started(state)
        u = _active(state, unit)
        amount = whole("amount", amount, 0, MAX_NUMBER)
        weakness, immunity = whole("weakness", weakness, 0), whole("immunity", immunity, 0)
        damage_type = checked_damage_type(damage_type)
        if damage_type or u.kind != "hero":
            typed = type_modifiers(None if u.kind == "hero" else self.ctx.monster_of(u), damage_type)
            weakness, immunity = max(weakness, typed[0]), max(immunity, typed[1])
        kind = f" {damage_type}" if damage_type else ""
        if u.kind == "hero":
            total = max(0, amount + weakness - immunity)
            after, line = _soak(u, total, f"{u.name} takes {total}{kind} damage")
            after = after.model_copy(update={"damage_taken": u.damage_taken + total})
            return _replace(state, after, line + ".", dealt=_dealt(state, total, 0))
        if u.squad is not None:
            if in_area is None:
                squad, hit = sq.damage_single(u.squad, amount, weakness, immunity)
            else:
                squad, hit = sq.damage_area(u.squad, amount, in_area, weakness, immunity)
            line = f"{u.name}:{kind} {hit.working}; {hit.dropped} minion(s) drop, {squad.alive} left."
            after = u.model_copy(update={"squad": squad})
            state = _replace(state, after, line, dealt=_dealt(state, 0, hit.lost))
            return self._down(state, after, "dead", f"{u.name}: the last minion drops.") if squad.alive == 0 else state
        if in_area is not None:
            raise InvalidInput("in_area", in_area, "nothing for a single creature (only a squad has minions in an area)")
        total = max(0, amount + weakness - immunity)
        shown = str(amount) + kind + (f" + {weakness} weakness" if weakness else "") + (
            f" − {immunity} immunity" if immunity else "")
        after, line = _soak(u, total, f"{u.name} takes {shown}")
        left = max(0, after.stamina)
        after = after.model_copy(update={"stamina": left})
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
            raise InvalidInput("unit", u.name, "a creature, or a hero whose Stamina is entered (Set Stamina)")
        healed = min(u.stamina_max, u.stamina + amount)
        return _replace(state, u.model_copy(update={"stamina": healed}),
                        f"{u.name} regains {healed - u.stamina} Stamina ({healed} of {u.stamina_max}).")

    def _down(self, state: FightState, unit: Unit, status: Status, line: str) -> FightState:
        state = _replace(state, unit.model_copy(update={"status": status}), line)
        for u in state.units:
            if u.squad is not None and u.squad.captain == unit.name:
                squad = sq.captain_falls(u.squad)
                state = _replace(state, u.model_copy(update={"squad": squad}), f"{u.name}: {squad.log[-1]}.")
        return state

    def do_dies(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero":
            malice = mal.hero_dies(state.malice)
            return self._down(state.model_copy(update={"malice": malice}), u, "dead",
                              f"{u.name} dies: {malice.log[-1].text}.")
        return self._down(state, u, "dead", f"{u.name} is taken out of the fight.")

    def do_flees(self, state: FightState, unit: str) -> FightState:
        _started(state)
        u = _active(state, unit)
        if u.kind == "hero":
            raise InvalidInput("unit", u.name, "a creature or squad (the heroes' fleeing is a failure: end the fight)")
        return self._down(state, u, "fled", f"{u.name} flees.")

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
        _started(state)
        trait = next((f for f in self.ctx.features if f.name.casefold() == str(feature).casefold()), None)
        if trait is None:
            raise InvalidInput("feature", feature, "one of " + ", ".join(f.name for f in self.ctx.features))
        monster = None
        if unit is not None:
            u = _active(state, unit)
            if u.kind == "hero":
                raise InvalidInput("unit", unit, "a creature or squad of the Director's side")
            monster = self.ctx.monster_of(u)
        malice = mal.spend(state.malice, trait, amount, monster, self.book)
        return state.model_copy(update={"malice": malice, "log": (*state.log, malice.log[-1].text + ".")})

    def do_villain(self, state: FightState, unit: str, number: int) -> FightState:
        _started(state)
        u = _active(state, unit)
        words = self.book.villain_actions.rules
        if not u.villain:
            raise InvalidInput("unit", unit, "a leader or solo (a creature with villain actions)",
                               "The solo and leader creatures presented in this book ... have special abilities "
                               "called villain actions.")
        malice = mal.villain_action(state.malice, u.name, number, self.book)
        own = state.actor_of(u)
        if state.malice.ended_turn_of == own.label:
            raise InvalidInput("villain_action", f"{u.name} {number}", "the end of another creature's turn",
                               f"{own.label}'s turn is {u.name}'s own: " + words[1].split(".")[0] + ".")
        return state.model_copy(update={"malice": malice, "log": (*state.log, malice.log[-1].text + ".")})

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
        units = self.ctx.new_units(index, count, number, seen, taken, numbered=True)
        actor = group_actor(number, units)
        names = ", ".join(u.name for u in units)
        return state.model_copy(update={
            "units": (*state.units, *units), "actors": (*state.actors, actor),
            "log": (*state.log, f"Reinforcements: {names} join as {actor.label}."),
        })

    # ---- objectives

    def do_count(self, state: FightState, objective: str, counter: str, change: int) -> FightState:
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
        p = _settle(p, "met" if met else "failed", state.round, rule.success if met else rule.failure)
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
            return _settle(p, "failed", state.round, rule.failure)
        if p.key == "complete_the_action" and p.count("failures") > self.rules.objective_rules.complete_failures_allowed:
            return _settle(p, "failed", state.round, rule.failure)
        if p.key == "escort" and p.count("ward_down"):
            return _settle(p, "failed", state.round, rule.failure)
        if p.key == "escort" and p.count("at_exit"):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "destroy_the_thing" and p.count("destroyed") >= (p.target or 1):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "get_the_thing" and p.count("escaped"):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "stop_the_action" and p.count("stopped"):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "assault_the_defenses" and p.count("held_turns") >= (p.target or ASSAULT_TURNS):
            return _settle(p, "met", state.round, rule.success)
        if p.key == "save_another":
            to_save = p.count("to_save")
            if to_save and 2 * p.count("lost") > to_save:
                return _settle(p, "failed", state.round, rule.failure)
        return p

    def do_end(self, state: FightState, reason: str = "", success: bool | None = None,
               victories: int | None = None) -> FightState:
        """The Director ends the fight: open objectives are not met. With `success` (the foes surrender or
        retreat: True; the heroes retreat: False) the Director judges the outcome and each hero's `victories`."""
        _open(state)
        text = reason.strip()[:200] if isinstance(reason, str) and reason.strip() else "the Director ended the fight"
        if success is None:
            if victories is not None:
                raise InvalidInput("victories", victories, "nothing unless the Director judges the outcome (success)")
            return _finish(state, text)
        if not isinstance(success, bool):
            raise InvalidInput("success", success, "True (the heroes win) or False (they do not)")
        earned = whole("victories", 0 if victories is None else victories, 0, MAX_NUMBER,
                       "each hero's Victories, a whole number from 0")
        judged = state.model_copy(update={"judged_success": success, "judged_victories": earned if success else 0})
        return _finish(judged, text)

    # ---- the Director's table: Stamina kept by hand, held-back groups, the turn order, the players' view

    def do_temporary(self, state: FightState, unit: str, amount: int) -> FightState:
        """Temporary Stamina (lost before Stamina); gaining more while some is left keeps the higher."""
        _started(state)
        u = _active(state, unit)
        amount = whole("amount", amount, 0, MAX_NUMBER)
        if u.squad is not None:
            sq.regain_stamina(u.squad, amount, temporary=True)
        kept = max(u.temporary, amount)
        return _replace(state, u.model_copy(update={"temporary": kept}),
                        f"{u.name} has {kept} temporary Stamina.")

    def do_stamina(self, state: FightState, unit: str, stamina: int, maximum: int | None = None) -> FightState:
        """The Director sets a creature's or hero's Stamina (and its maximum): a hero's as the player says."""
        _open(state)
        u = _active(state, unit)
        if u.squad is not None:
            raise InvalidInput("unit", u.name, "a hero or a creature (a squad's pool follows its minions)")
        top = u.stamina_max if maximum is None else whole("maximum", maximum, 1, MAX_NUMBER)
        if not top:
            raise InvalidInput("maximum", maximum, "the hero's Stamina maximum, a whole number from 1")
        low = -(top // 2) if u.kind == "hero" else 1
        stamina = whole("stamina", stamina, low, top, f"a whole number from {low} to {top}")
        return _replace(state, u.model_copy(update={"stamina": stamina, "stamina_max": top}),
                        f"{u.name}: Stamina set to {stamina} of {top}.")

    def do_minion_dies(self, state: FightState, squad: str) -> FightState:
        """One minion of the squad dies outright (a fall, an effect): it leaves the squad and the pool."""
        _started(state)
        s = _active(state, squad, "squad")
        if s.squad is None:
            raise InvalidInput("squad", squad, "a minion squad of this fight")
        squad_after = sq.minion_dies(s.squad)
        after = s.model_copy(update={"squad": squad_after})
        state = _replace(state, after, f"{s.name}: {squad_after.log[-1]}.")
        return self._down(state, after, "dead", f"{s.name}: the last minion dies.") if not squad_after.alive else state

    def do_hold_back(self, state: FightState, actor: str, joins: int | None = None) -> FightState:
        """An initiative group held back: out of the fight until the round it `joins` in (or until the
        Director brings it in)."""
        _open(state)
        a = state.actor(actor)
        if a.side == "hero":
            raise InvalidInput("actor", a.label, "an initiative group of the Director's side")
        if joins is not None:
            joins = whole("joins", joins, state.round + 1, MAX_ROUNDS, "a round still to come")
        if state.turn == a.key:
            raise InvalidInput("actor", a.label, "a group whose turn is not open", f"{a.label} is acting")
        units = tuple(u.model_copy(update={"status": "held", "joins": joins})
                      if u.name in a.units and u.active else u for u in state.units)
        if units == state.units:
            raise InvalidInput("actor", a.label, "a group with someone in the fight")
        when = f"round {joins}" if joins is not None else "when the Director brings it in"
        return state.model_copy(update={"units": units, "log": (*state.log, f"{a.label} is held back ({when}).")})

    def do_bring_in(self, state: FightState, actor: str) -> FightState:
        """A held-back group joins the fight now, as reinforcements."""
        _open(state)
        a = state.actor(actor)
        held = [n for n in a.units if state.unit(n).status == "held"]
        if not held:
            raise InvalidInput("actor", a.label, "a group held back")
        units = tuple(u.model_copy(update={"status": "active", "joins": None}) if u.name in held else u
                      for u in state.units)
        return state.model_copy(update={"units": units,
                                        "log": (*state.log, f"{a.label} joins the fight: {', '.join(held)}.")})

    def do_move_turn(self, state: FightState, actor: str, place: int) -> FightState:
        """The Director moves a hero's or group's place in the turn order (1: first)."""
        _open(state)
        a = state.actor(actor)
        place = whole("place", place, 1, len(state.actors), f"a place from 1 to {len(state.actors)}")
        order = [x for x in state.actors if x.key != a.key]
        order.insert(place - 1, a)
        return state.model_copy(update={"actors": tuple(order),
                                        "log": (*state.log, f"{a.label} moves to place {place} in the turn order.")})

    def do_show_malice(self, state: FightState, shown: bool) -> FightState:
        """Whether the players' view shows the Director's Malice."""
        if not isinstance(shown, bool):
            raise InvalidInput("shown", shown, "True (the players see the Malice) or False")
        word = "shows" if shown else "hides"
        return state.model_copy(update={"malice_shown": shown,
                                        "log": (*state.log, f"The Director {word} the Malice.")})


EVENT_KINDS: Final = tuple(name[3:] for name in dir(EventRules) if name.startswith("do_"))


def _settle(p: Progress, status: Literal["met", "failed"], round_: int, reason: str) -> Progress:
    return p.model_copy(update={"status": status, "settled_round": round_, "reason": reason})


def _finish(state: FightState, reason: str) -> FightState:
    malice = mal.end_encounter(state.malice) if not state.malice.ended else state.malice
    return state.model_copy(update={"ended": True, "end_reason": reason, "turn": None, "malice": malice,
                                    "log": (*state.log, f"The fight ends: {reason}.")})


def foes_gone(state: FightState) -> bool:
    """No foe left to fight: none active, none held back to join later."""
    foes = [u for u in state.units if u.kind != "hero"]
    return bool(foes) and not any(u.in_play for u in foes)


def _all_gone(state: FightState, rules: EncounterRules) -> FightState:
    """Every foe down or fled: open objectives are met, but for a designated creature that fled."""
    fled = any(u.status == "fled" and u.designated for u in state.units)
    out = []
    for p in state.objectives:
        if p.status == "open":
            if p.key == "defeat_a_specific_foe" and fled:
                p = _settle(p, "failed", state.round, objective_rule(p.key, rules).failure)
            else:
                p = _settle(p, "met", state.round, "every foe is down or fled: nothing is left to stop the heroes")
        out.append(p)
    return _finish(state.model_copy(update={"objectives": tuple(out)}), "every foe is down or fled")


def _foe_objectives(state: FightState, rules: EncounterRules, book: FeatureBook) -> FightState:
    """Objectives the foes' own state settles: Defeat a Specific Foe, Diminish Numbers ("half or less")."""
    objectives = list(state.objectives)
    foes = [u for u in state.units if u.kind != "hero"]
    designated = [u for u in foes if u.designated]
    for i, p in enumerate(objectives):
        if p.status != "open":
            continue
        if p.key == "defeat_a_specific_foe":
            if any(u.status == "fled" for u in designated):
                objectives[i] = _settle(p, "failed", state.round, objective_rule(p.key, rules).failure)
            elif designated and all(u.status == "dead" for u in designated):
                objectives[i] = _settle(p, "met", state.round, objective_rule(p.key, rules).success)
        elif p.key == "diminish_numbers" and 2 * _foe_count(foes, now=True) <= _foe_count(foes, now=False):
            objectives[i] = _settle(p, "met", state.round, DIMINISH_HALF)
        elif p.key == "diminish_numbers" and any(_solo_gives_up(u, state, rules, book) for u in foes):
            objectives[i] = _settle(p, "met", state.round, DIMINISH_SOLO)
    return state.model_copy(update={"objectives": tuple(objectives)})


def _foe_count(foes: Sequence[Unit], now: bool) -> int:
    """Foes as creatures, each minion one: those still in the fight (`now`) or those at the start."""
    total = 0
    for u in foes:
        if u.squad is not None:
            total += (u.squad.alive if u.active else 0) if now else u.squad.size
        else:
            total += 1 if (u.active or not now) else 0
    return total


def _solo_gives_up(unit: Unit, state: FightState, rules: EncounterRules, book: FeatureBook) -> bool:
    """A solo at a quarter of its Stamina or less that has used all its villain actions."""
    if not (unit.solo and unit.active and unit.current <= solo_flee_stamina(unit.maximum, rules)):
        return False
    used = {n for name, n, _ in state.malice.villain_actions if name == unit.name}
    return len(used) >= book.villain_actions.count


DIMINISH_SOLO: Final = ("In a battle against a solo creature, that creature flees or surrenders when reduced to "
                        "one-quarter or less of their Stamina and after using all their villain actions.")
DIMINISH_HALF: Final = "The encounter ends when the number of remaining foes is half or less of what it was at the start."


def check_end(state: FightState, mode: str, rules: EncounterRules, book: FeatureBook) -> FightState:
    """End the fight when it is over (objectives settled, every hero dead, or every foe down or fled), under
    the fight's encounter rules and feature book."""
    if state.ended:
        return state
    heroes = [u for u in state.units if u.kind == "hero"]
    if heroes and not any(u.active for u in heroes):
        return _finish(state, "every hero is dead")
    if foes_gone(state):
        return _all_gone(state, rules)
    state = _foe_objectives(state, rules, book)
    statuses = [p.status for p in state.objectives]
    if not statuses:
        return state
    if mode == "alternative" and len(statuses) > 1:
        if "met" in statuses:
            return _finish(state, "an objective is met")
        if all(s == "failed" for s in statuses):
            return _finish(state, "every objective failed")
        return state
    if "failed" in statuses:
        return _finish(state, "an objective failed")
    if all(s == "met" for s in statuses):
        return _finish(state, "every objective is met")
    return state
