"""How long one action at the fight runner takes, click to the page's HTML updated and the fight saved: the
Python side of what a Director waits for between pressing a button and seeing the change (the browser's round
trip comes on top; bench_browser measures that for other pages).

The fight is the one the runner's browser test plays: a level 3 party of five against a leader with villain
actions, a squad of eight minions with a captain and two platoon creatures, with a Hold Them Off objective.
Also the model alone (an event and its undo), a duration the Director sets (the fight so far played again
under it), End Effect at the end of a solo's turn, and reopening a saved fight (the replay). The
board (turn order, acting stat blocks, roster, squads, Malice ahead, player view) is redrawn after each click:
the target is one action to the board updated at p95 under 50 ms.

Run: .venv/bin/python benchmarks/bench_fight_runner.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from timing import load_average, report, timed

import workbench as wb
from workbench.apps.fight_runner import fight_runner
from workbench.encounter.encounter import InitiativeGroup, creature_from_monster
from workbench.fight.fight import load_fight


def encounter() -> tuple[wb.Encounter, list[wb.Monster]]:
    boss = wb.build_monster(3, "leader").model_copy(update={"name": "Goblin boss"})
    minion = wb.build_monster(3, "minion", "brute").model_copy(update={"name": "Goblin spinecleaver"})
    orc = wb.build_monster(3, "platoon", "brute").model_copy(update={"name": "Orc"})
    enc = wb.Encounter(party=wb.make_party(heroes=5, level=3, victories=2))
    for monster, count in ((boss, 1), (minion, 8), (orc, 2)):
        enc = enc.adding(creature_from_monster(monster, count))
    groups = (InitiativeGroup(members=((0, 1),)), InitiativeGroup(members=((1, 8),)),
              InitiativeGroup(members=((2, 2),)))
    enc = enc.model_copy(update={"groups": groups, "objectives": (wb.choose_objective("hold_them_off"),)})
    return enc, [boss, minion, orc]


def main() -> None:
    print(f"load average: {load_average()}")
    enc, monsters = encounter()
    report("Fight(encounter) set-up", timed(lambda: wb.Fight(enc, monsters), 50))
    fight = wb.Fight(enc, monsters)
    fight.start_round()
    fight.attach_captain("Goblin spinecleaver", "Goblin boss")
    report("model: damage on the squad + undo", timed(
        lambda: (fight.damage("Goblin spinecleaver", 3), fight.undo()), 500))

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fight.json"
        app = wb.Fight(enc, monsters)
        runner = fight_runner(app, path)
        c, b = runner.controls, runner.controls["buttons"]
        b["round"].click()
        c["target"].value = "Orc 1"
        c["amount"].value = 0  # a hit for 0: a whole event each time, and the orc never falls
        report("click Damage -> HTML + save", timed(b["damage"].click, 200))
        assert c["refusal"].value == "" and app.unit("Orc 1").active
        report("2 clicks: Damage, Undo", timed(lambda: (b["damage"].click(), b["undo"].click()), 100))
        c["actor"].value = "hero:Hero 1"
        report("4 clicks: Start turn, End turn, Undo, Undo", timed(
            lambda: (b["turn"].click(), b["end_turn"].click(), b["undo"].click(), b["undo"].click()), 50))
        c["actor"].value = "group:1"
        b["turn"].click()
        report("2 clicks: End turn, Undo, the leader's stat block shown", timed(
            lambda: (b["end_turn"].click(), b["undo"].click()), 100))
        b["end_turn"].click()
        c["target"].value = "Goblin spinecleaver"
        c["damage_type"].value = "fire"
        c["amount"].value = 0
        report("click Damage (typed) on the squad -> board + save", timed(b["damage"].click, 200))
        c["target"].value = "Orc 1"
        report("click Temporary Stamina -> board + save", timed(b["temporary"].click, 200))

        board = fight_runner(wb.Fight(enc, monsters))  # no file: the action and the board redrawn alone
        bc, bb = board.controls, board.controls["buttons"]
        bb["round"].click()
        bc["target"].value, bc["amount"].value = "Goblin spinecleaver", 0
        bc["damage_type"].value = "fire"
        report("board only: Damage (typed) on the squad", timed(bb["damage"].click, 300))
        bc["actor"].value = "group:1"
        bb["turn"].click()
        report("board only: End turn + Undo, stat block shown", timed(
            lambda: (bb["end_turn"].click(), bb["undo"].click()), 150))

        for _ in range(40):  # a fight some way in: a duration set plays every event again
            app.damage("Orc 2", 0)
        box = runner.controls["durations"]["hold_them_off"]
        rounds = iter([6, 4] * 20)
        report(f"a duration set ({len(runner.fight.events)} events replayed) -> board + save", timed(
            lambda: setattr(runner.controls["durations"]["hold_them_off"], "value", next(rounds)), 20))
        assert box is runner.controls["durations"]["hold_them_off"] and runner.fight.durations

        solo = wb.instant_solo(wb.build_monster(3, "leader").model_copy(update={"name": "Ogre"}))
        duel = fight_runner(wb.Fight(wb.Encounter(party=enc.party).adding(creature_from_monster(solo, 1)), [solo]),
                            Path(folder) / "duel.json")
        dc, db = duel.controls, duel.controls["buttons"]
        db["round"].click()
        dc["actor"].value = "group:1"
        db["turn"].click()
        dc["target"].value, dc["condition"].value, dc["ends"].value = "Ogre", "dazed", "save ends"
        db["condition"].click()
        db["end_turn"].click()
        assert dc["end_effect_row"].layout.display == "flex"
        report("2 clicks: End Effect, Undo (solo) -> board + save", timed(
            lambda: (db["end_effect"].click(), db["undo"].click()), 100))
        assert dc["refusal"].value == ""

        app = runner.fight
        for _ in range(196 - 40):
            app.damage("Orc 2", 0)
        app.save(path)
        start = time.perf_counter()
        again = load_fight(path)
        print(f"{'reopen a fight of ' + str(len(again.events)) + ' events (replay)':<52} "
              f"{(time.perf_counter() - start) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
