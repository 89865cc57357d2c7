"""How long the calibration takes: reading the sample, comparing, the eight variants, the closest published
monsters (run on every builder redraw), the explorer app's redraw and the command line end to end.

Run: .venv/bin/python benchmarks/bench_calibration.py
"""

from __future__ import annotations

import subprocess
import sys

from timing import report, timed

from workbench.apps.calibration import calibration_app
from workbench.calibration.fit import calibrate, closest_published, compare_variants, fit_report
from workbench.formats.bestiary import SAMPLE_DIR, sample_bestiary
from workbench.monster.formulas import build_monster
from workbench.render.calibration import closest_published_html


def main() -> None:
    monsters = sample_bestiary().monsters
    print(f"{len(monsters)} stat blocks from {SAMPLE_DIR}")
    report("read the sample (49 JSON files)", timed(sample_bestiary, 30))
    report("calibrate 49 monsters (core ruleset)", timed(lambda: calibrate(monsters), 30))
    results = calibrate(monsters)
    report("fit report by organization", timed(lambda: fit_report(results, by="organization"), 30))
    report("eight rule variants", timed(lambda: compare_variants(monsters), 10))
    built = build_monster(4, "platoon", "brute")
    report("closest published (3 of 49)", timed(lambda: closest_published(built, monsters), 200))
    report("closest published as HTML (builder redraw)", timed(lambda: closest_published_html(built, monsters), 200))

    app = calibration_app(monsters)
    organization = app.children[0].children[1]
    round_down = app.children[1].children[0]
    choices = ["all", "minion", "solo", "platoon"]
    state = {"i": 0}

    def move() -> None:
        state["i"] += 1
        organization.value = choices[state["i"] % len(choices)]

    report("calibration app redraw (organization change)", timed(move, 20))
    report("calibration app redraw (rounding switch)", timed(lambda: setattr(round_down, "value", not round_down.value), 10))
    cli = [sys.executable, "-m", "workbench.cli", "calibrate", str(SAMPLE_DIR), "--json"]
    report("workbench calibrate SAMPLE --json (process)", timed(lambda: subprocess.run(cli, check=True, capture_output=True), 5))


if __name__ == "__main__":
    main()
