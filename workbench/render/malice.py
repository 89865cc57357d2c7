"""Malice for people, as HTML: the schedule with its working, a spending plan with the cost advice, and the
tracker's two views — the Director's (Malice, round, log) and the players' (the number, or a veil when the
Director keeps it hidden, as "Earning Malice" allows). Every name a user typed is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.fight.malice_features import is_malicious_strike
from workbench.fight.malice_plan import SpendingPlan
from workbench.fight.malice_schedule import MaliceRound
from workbench.fight.malice_tracker import MaliceState
from workbench.render.escape import Markup, join
from workbench.rules.feature_book import FeatureBook, feature_book

__all__ = ["schedule_html", "plan_html", "tracker_html", "player_view_html", "log_html"]



def _row(cells: Sequence[object], header: bool = False, left_last: bool = False) -> Markup:
    tag = Markup("th" if header else "td")
    out = []
    for i, cell in enumerate(cells):
        css = "wb-left" if left_last and i == len(cells) - 1 else None
        out.append(Markup("<{}{}>{}</{}>").format(tag, Markup(' class="wb-left"') if css else "", cell, tag))
    return Markup("<tr>{}</tr>").format(join(out))


def schedule_html(schedule: Sequence[MaliceRound]) -> str:
    """The schedule as a table: round, living heroes, gain with its working, running total."""
    rows = [_row(("Round", "Heroes", "Gain", "Total", "Working"), header=True, left_last=True)]
    for r in schedule:
        note = f" ({r.deaths} died before this gain)" if r.deaths else ""
        rows.append(_row((r.round, r.heroes, r.gain, r.total, r.working + note), left_last=True))
    reading = Markup(
        "Round 1 adds the heroes' average Victories (rounded down) to the round's own gain; every round adds "
        "the living heroes plus the round number (&ldquo;Earning Malice&rdquo;). Totals assume nothing is spent."
    )
    return Markup('<table class="wb-malice-table">{}</table><div class="wb-malice-reading">{}</div>').format(join(rows), reading)


def _unbought_reason(plan: SpendingPlan, book: FeatureBook) -> str:
    """Why the plan stopped buying, in the rule's words: the feature at the front of the queue waits for Malice,
    or (Malicious Strike with the Malice there) for the round after the one it was used in; the rest wait
    behind it, in the order chosen."""
    first, *rest = plan.unbought
    name = first.feature.name
    left = plan.rounds[-1].left if plan.rounds else 0
    if first.amount <= left and is_malicious_strike(first.feature, book):
        why = f"{name} can't be used two rounds in a row, so its next use waits a round"
    else:
        why = f"{name} needs {first.amount} Malice, more than is on hand when its turn comes"
    if rest:
        why += "; after it, in the order chosen: " + ", ".join(f"{p.feature.name} ({p.amount})" for p in rest)
    return why + "."


def plan_html(
    plan: SpendingPlan, affordable: dict[str, int | None] | None = None, book: FeatureBook | None = None
) -> str:
    """A spending plan: per round what is bought, with the features' first affordable rounds and the advice.
    `book`: the Malice features' rules the plan was made with (the shipped ones when None)."""
    rows = [_row(("Round", "On hand", "Bought", "Spent", "Left"), header=True)]
    for r in plan.rounds:
        bought = ", ".join(f"{p.feature.name} ({p.amount})" for p in r.bought) or "—"
        rows.append(_row((r.round, r.available, bought, r.spent, r.left)))
    parts = [Markup('<table class="wb-malice-table">{}</table>').format(join(rows))]
    if plan.unbought:
        parts.append(Markup("<div>Not used in these rounds: {}</div>").format(_unbought_reason(plan, book or feature_book())))
    parts.append(Markup("<div>Unused at the end (lost): {}</div>").format(plan.lost))
    if affordable:
        first = ", ".join(
            f"{name}: {'round ' + str(r) if r else 'never'}" for name, r in affordable.items()
        )
        parts.append(Markup("<div>First affordable (nothing spent): {}</div>").format(first))
    if plan.advice:
        items = join(Markup("<li>{}</li>").format(a) for a in plan.advice)
        parts.append(Markup("<div><b>That's So Much Malice!</b><ul>{}</ul></div>").format(items))
    else:
        parts.append(Markup("<div><b>That's So Much Malice!</b> the features cover a 2–3, a 5 and a 7–10 cost.</div>"))
    return join(parts)


def log_html(state: MaliceState, last: int = 12) -> str:
    """The newest `last` log lines, newest first."""
    lines = [
        Markup("<li>{}: {} → {}</li>").format('Before combat' if e.round == 0 else f'Round {e.round}', e.text, e.malice)
        for e in reversed(state.log[-last:])
    ]
    return Markup('<ol reversed class="wb-malice-log">{}</ol>').format(join(lines))


def tracker_html(state: MaliceState) -> str:
    """The Director's view: Malice on hand, the round, living heroes, and the log."""
    status = "ended" if state.ended else ("not started" if state.round == 0 else f"round {state.round}")
    head = (
        Markup('<div class="wb-malice-head"><span class="wb-malice-amount">'
        "{}</span> Malice — {} — {} of {} heroes generating</div>").format(state.malice, status, state.living, state.heroes)
    )
    turn = ""
    if state.turn_of is not None:
        basic = f"; basic feature used: {state.turn_basic}" if state.turn_basic else ""
        turn = f"{state.turn_of}'s turn ({state.turn_side}){basic}"
    elif state.ended_turn_of is not None:
        turn = f"{state.ended_turn_of}'s turn has ended: a villain action may follow"
    used = ", ".join(f"{c} {n} (round {r})" for c, n, r in state.villain_actions)
    extra = join(
        Markup('<div class="{} wb-report">{}</div>').format(cls, text)
        for cls, text in (("wb-malice-turn", turn), ("wb-villain-actions", f"Villain actions used: {used}" if used else ""))
        if text
    )
    return head + extra + log_html(state)


def player_view_html(state: MaliceState, shown: bool) -> str:
    """What the players see: the Malice when the Director shows it, else only that it is hidden."""
    body = f"{state.malice} Malice" if shown else "Malice: hidden by the Director"
    return (
        Markup('<div class="wb-malice-shown">'
        "{}</div>").format(body)
    )
