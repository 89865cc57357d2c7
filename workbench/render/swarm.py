"""Swarm simulation results as HTML: the averages a Director reads, with the scenario that produced them."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from workbench.homebrew.swarm import Fight, SimulationResult, SwarmScenario
from workbench.render.escape import Markup, join

__all__ = ["decimal_text", "fight_html", "scenario_html", "simulation_html"]


def decimal_text(value: Fraction | None, places: int = 2) -> str:
    """An exact fraction shown to `places` decimals (rounded half to even, exactly); '—' for None."""
    if value is None:
        return "—"
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def _percent(value: Fraction) -> str:
    return decimal_text(value * 100, 0) + "%"


def scenario_html(s: SwarmScenario) -> str:
    """The scenario's numbers in one line."""
    return (
        Markup('<span class="wb-note">{} swarm(s), N = {}, M = {}; '
        "area hit {}, disruptive {}, "
        "{} kill(s) a round, {} area hit(s) to break</span>").format(s.swarms, s.disperse_value, s.reform_threshold, _percent(s.area_hit_chance), _percent(s.disruption_chance), s.kills_per_round, s.area_hits_to_break)
    )


def simulation_html(result: SimulationResult) -> str:
    """Rounds until the swarms are gone for good, over every fight, and how often they reformed."""
    return (
        Markup('<div class="wb-swarm-result" data-mean-rounds="{}" '
        'data-runs="{}">'
        "<div><b>Gone for good after <span class=\"wb-mean-rounds\">{}</span>"
        " rounds</b> on average ({} of {} fights cleared within {}"
        " rounds, {}); reforms per fight "
        "<span class=\"wb-mean-reforms\">{}</span>.</div>"
        "<div>{}</div></div>").format(decimal_text(result.mean_rounds), result.runs, decimal_text(result.mean_rounds), result.cleared, result.runs, result.max_rounds, _percent(result.share_cleared), decimal_text(result.mean_reforms), scenario_html(result.scenario))
    )


def fight_html(fight: Fight) -> str:
    """One fight round by round, as a table."""
    rows = join(
        Markup("<tr><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td></tr>").format(r.round, 'hit' if r.area_hit else 'miss', 'yes' if r.disrupted else 'no', r.dispersed, r.killed, r.swarms_reformed or '', r.cohesive_after, r.individuals_after)
        for r in fight.log
    )
    end = (
        f"gone for good after {fight.rounds} rounds" if fight.rounds is not None else "still there at the end"
    )
    head = Markup(
        "<tr><th>Round</th><th>Area attack</th><th>Disrupted</th><th>Swarms broken</th><th>Killed</th>"
        "<th>Reformed</th><th>Cohesive swarms</th><th>Individuals</th></tr>"
    )
    return Markup('<div class="wb-swarm-fight"><table>{}{}</table><div>{}</div></div>').format(head, rows, end)
