"""Swarm simulation results as HTML: the averages a Director reads, with the scenario that produced them."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from workbench.homebrew.swarm import Fight, SimulationResult, SwarmScenario
from workbench.render.escape import escape_html as _e

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
        f'<span class="wb-note">{s.swarms} swarm(s), N = {s.disperse_value}, M = {s.reform_threshold}; '
        f"area hit {_percent(s.area_hit_chance)}, disruptive {_percent(s.disruption_chance)}, "
        f"{s.kills_per_round} kill(s) a round, {s.area_hits_to_break} area hit(s) to break</span>"
    )


def simulation_html(result: SimulationResult) -> str:
    """Rounds until the swarms are gone for good, over every fight, and how often they reformed."""
    return (
        f'<div class="wb-swarm-result" data-mean-rounds="{_e(decimal_text(result.mean_rounds))}" '
        f'data-runs="{result.runs}">'
        f"<div><b>Gone for good after <span class=\"wb-mean-rounds\">{_e(decimal_text(result.mean_rounds))}</span>"
        f" rounds</b> on average ({result.cleared} of {result.runs} fights cleared within {result.max_rounds}"
        f" rounds, {_percent(result.share_cleared)}); reforms per fight "
        f"<span class=\"wb-mean-reforms\">{_e(decimal_text(result.mean_reforms))}</span>.</div>"
        f"<div>{scenario_html(result.scenario)}</div></div>"
    )


def fight_html(fight: Fight) -> str:
    """One fight round by round, as a table."""
    rows = "".join(
        f"<tr><td>{r.round}</td><td>{'hit' if r.area_hit else 'miss'}</td><td>{'yes' if r.disrupted else 'no'}</td>"
        f"<td>{r.dispersed}</td><td>{r.killed}</td><td>{r.swarms_reformed or ''}</td>"
        f"<td>{r.cohesive_after}</td><td>{r.individuals_after}</td></tr>"
        for r in fight.log
    )
    end = (
        f"gone for good after {fight.rounds} rounds" if fight.rounds is not None else "still there at the end"
    )
    head = (
        "<tr><th>Round</th><th>Area attack</th><th>Disrupted</th><th>Swarms broken</th><th>Killed</th>"
        "<th>Reformed</th><th>Cohesive swarms</th><th>Individuals</th></tr>"
    )
    return f'<div class="wb-swarm-fight"><table>{head}{rows}</table><div>{_e(end)}</div></div>'
