"""How long the builder takes, in-process, from a control's value change to a re-rendered stat block and chart.

Each measured change sets one widget value (level, organization, role, extra Stamina, targets, strike,
chart quantity, name — in a fixed cycle) and stops the clock when the observer has returned, i.e. when the
stat block HTML, the working, the exports and the FigureWidget's traces have all been updated in Python
(the browser's own drawing is not included: bench_browser.py measures that path). Every change is checked
to have changed the block or the chart.

The explorer is timed the same way: a change of the charted number, and a what-if edit (a new ruleset:
the grid is rebuilt for it, old and new curves redrawn, the differences tabled).

    .venv/bin/python benchmarks/bench_builder.py [changes]
"""

from __future__ import annotations

import sys
import tempfile
import time

from timing import report

from workbench.apps.builder import monster_builder
from workbench.apps.explorer import scaling_explorer

ABILITIES = ("signature strike", "two-target strike", "area", "villain action", "malice", "signature strike",
             "area", "two-target strike")


def bench_level_cpu(changes: int) -> None:
    """Kernel CPU (process time) per Level change of a leader with 8 abilities, with each tab open in turn:
    what a slider key costs the kernel before anything is sent."""
    app = monster_builder(folder=tempfile.mkdtemp(prefix="bench-homebrew-"))
    app.controls["organization"].value = "leader"
    for template in ABILITIES:
        app.ability_editor.template.value = template
        app.ability_editor.add.click()
    assert len(app.monster.abilities) == 8
    level = app.controls["level"]
    for title in ("Scaling chart", "How was this computed", "Homebrew library"):
        app.tabs.selected_index = app.tabs.titles.index(title)
        cpu, wall = [], []
        for i in range(changes + 5):
            w0, c0 = time.perf_counter(), time.process_time()
            level.value = 1 + (level.value % 10)
            if i >= 5:  # the first few warm the caches
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
        report(f"level change, 8 abilities, {title} open: CPU", cpu)
        report(f"level change, 8 abilities, {title} open: wall", wall)
    app.ability_editor.show(True)
    app.tabs.selected_index = app.tabs.titles.index("Scaling chart")
    cpu = []
    for _ in range(changes):
        c0 = time.process_time()
        level.value = 1 + (level.value % 10)
        cpu.append(time.process_time() - c0)
    report("level change, 8 abilities, Abilities section open: CPU", cpu)


def bench_builder(changes: int) -> None:
    started = time.perf_counter()
    app = monster_builder(folder=tempfile.mkdtemp(prefix="bench-homebrew-"))
    report("builder created (first grid, FigureWidget)", [time.perf_counter() - started])
    c = app.controls
    app.tabs.selected_index = app.tabs.titles.index("Scaling chart")  # drawn while open: timed with it
    cycle = [
        ("level", lambda i: 1 + i % 10),
        ("organization", lambda i: ("platoon", "elite", "horde", "solo", "minion", "leader")[i % 6]),
        ("role", lambda i: ("brute", "hexer", "defender", "artillery")[i % 4]),
        ("extra_stamina", lambda i: bool(i % 2)),
        ("targets", lambda i: c["targets"].options[i % len(c["targets"].options)][1]),
        ("strike", lambda i: bool(i % 2)),
        ("quantity", lambda i: ("ev", "stamina", "damage_tier2", "free_strike")[i % 4]),
        ("name", lambda i: f"Monster {i}"),
    ]
    for name, value in cycle:  # warm up: the extra-Stamina grid and first renders
        if not c[name].disabled:
            c[name].value = value(1)
    timings: dict[str, list[float]] = {name: [] for name, _ in cycle}
    every: list[float] = []
    turns = {name: 0 for name, _ in cycle}
    i = 0
    while len(every) < changes:
        name, value = cycle[i % len(cycle)]
        i += 1
        turns[name] += 1
        target = value(turns[name])
        if c[name].disabled or c[name].value == target:
            continue
        before = app.stat_block.value, app.figure.layout.title.text, tuple(app.figure.data[1].y)
        t0 = time.perf_counter()
        c[name].value = target
        elapsed = time.perf_counter() - t0
        assert app.status.value == "", app.status.value
        after = app.stat_block.value, app.figure.layout.title.text, tuple(app.figure.data[1].y)
        assert after != before, f"{name} changed nothing"
        timings[name].append(elapsed)
        every.append(elapsed)
    report(f"builder: a change -> block + chart ({len(every)} changes)", every)
    for name, values in timings.items():
        if values:
            report(f"  {name} (n={len(values)})", values)


def bench_explorer(changes: int) -> None:
    started = time.perf_counter()
    app = scaling_explorer()
    report("explorer created (grid, two FigureWidgets)", [time.perf_counter() - started])
    quantity = app.controls["quantity"]
    options = [value for _, value in quantity.options]
    times = []
    for i in range(changes):
        t0 = time.perf_counter()
        quantity.value = options[(i + 1) % len(options)]
        times.append(time.perf_counter() - t0)
    report(f"explorer: charted number changed (n={changes})", times)
    editor = app.editors[("organizations", "solo", "stamina_modifier")]
    edits = []
    for i in range(max(5, changes // 10)):
        t0 = time.perf_counter()
        editor.value = str(3 + i % 3 + (i // 3) / 10)  # a new ruleset each time: no cache hit
        edits.append(time.perf_counter() - t0)
        assert app.status.value == "", app.status.value
    report(f"explorer: what-if edit, new ruleset (n={len(edits)})", edits)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    bench_level_cpu(max(20, count // 2))
    bench_builder(count)
    bench_explorer(count // 2)
