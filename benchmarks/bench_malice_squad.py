"""How long the Malice and squad tools take per table action: the schedule, a plan, a tracker step (with its
undo), a squad hit, and the apps' Python side of one control change or button click (what a Director waits
for between pressing a button and seeing the HTML change, less the browser's round trip).

Run: .venv/bin/python benchmarks/bench_malice_squad.py
"""

from __future__ import annotations

import time

from timing import report, timed

from workbench.apps.malice import malice_app, planner_view
from workbench.apps.squad import squad_app
from workbench.fight.malice_features import basic_malice_features
from workbench.fight.malice_plan import spending_plan
from workbench.fight.malice_schedule import malice_schedule
from workbench.fight.malice_tracker import MaliceTracker
from workbench.fight.squad import SquadTracker, make_squad
from workbench.monster.solo import solo_action


def main() -> None:
    features = (*basic_malice_features(), solo_action())
    schedule = malice_schedule(5, 3, 10, {3: 1})
    report("malice_schedule(5 heroes, 10 rounds, a death)", timed(lambda: malice_schedule(5, 3, 10, {3: 1}), 500))
    report("spending_plan(10 rounds, 6 wishes)", timed(lambda: spending_plan(schedule, features * 2), 500))

    tracker = MaliceTracker(5, 3)
    report("tracker: start_round + spend + undo + undo", timed(
        lambda: (tracker.start_round(), tracker.spend(features[0]), tracker.undo(), tracker.undo()), 500))

    squads = SquadTracker(make_squad(stamina=5, free_strike=2))
    report("squad: area hit (3 in area) + undo", timed(lambda: (squads.damage(6, in_area=3), squads.undo()), 500))

    uses = {f.name: 1 for f in features}
    report("planner_view (figure + HTML)", timed(lambda: planner_view(5, 3, 5, "3:1", uses, features), 50))

    start = time.perf_counter()
    app = malice_app()
    print(f"{'malice_app() first build (FigureWidget, once)':<52} {(time.perf_counter() - start) * 1000:8.1f} ms")
    heroes = app.controls["heroes"]
    report("malice_app: heroes slider change -> figure + HTML", timed(
        lambda: setattr(heroes, "value", 4 if heroes.value == 5 else 5), 30))
    button = app.controls["buttons"]["round"]
    report("malice_app: Start next round click -> HTML", timed(button.click, 100))

    sq = squad_app()
    apply, undo = sq.controls["buttons"]["apply"], sq.controls["buttons"]["undo"]
    report("squad_app: Apply damage + Undo clicks -> HTML", timed(lambda: (apply.click(), undo.click()), 200))


if __name__ == "__main__":
    main()
