"""How long encounter building takes per change: the budget, a report with every check, a grouping suggestion,
the quick method, and the editor's Python side of one control change or button click (what a Director waits
for between changing the party or adding a creature and seeing the summary, checks and chart change, less
the browser's round trip).

Run: .venv/bin/python benchmarks/bench_encounter.py
"""

from __future__ import annotations

from timing import report as show
from timing import timed

from workbench.apps.encounter import encounter_app, encounter_view
from workbench.encounter.encounter import Encounter
from workbench.encounter.groups import suggest_groups
from workbench.encounter.party import budget, make_party
from workbench.encounter.quick_method import quick_plan
from workbench.encounter.report import report


def main() -> None:
    party = make_party(heroes=5, level=3, victories=2)
    e = Encounter(party=party).adding(
        "4 x level 3 platoon brute", "8 x level 2 minion harrier", "level 4 leader", "2 x level 3 elite hexer"
    )
    show("budget(5 heroes)", timed(lambda: budget(party), 500))
    show("report(4 entries, every check)", timed(lambda: report(e), 500))
    show("suggest_groups(4 entries)", timed(lambda: suggest_groups(e), 500))
    show("quick_plan(hard, 4 entries)", timed(lambda: quick_plan(party, "hard", e.creatures), 500))
    show("encounter_view (chart + every HTML panel)", timed(lambda: encounter_view(e, "hard"), 100))

    app = encounter_app(encounter=e)
    c = app.controls
    levels = iter(range(10_000))
    show("app: heroes slider change -> all panes updated",
         timed(lambda: setattr(c["heroes"], "value", 4 + next(levels) % 3), 100))

    def add_creature() -> None:
        c["spec"].value = "4 x level 3 minion brute"
        c["add_spec"].click()
    show("app: Add spec click -> all panes updated", timed(add_creature, 50))

    # From the bestiary, with the pace shown: each new kind of stat block is read whole once (for the abilities
    # the Director may mark), then a marked ability only moves the numbers.
    def fresh_editor():
        editor = encounter_app()
        editor.controls["hero_stamina"].value = "40"
        editor.controls["party_damage"].value = 30
        return editor

    def add_from_bestiary(editor, name: str) -> None:
        browser = editor.controls["browser"]
        browser.search.value = name
        browser.rows.value = browser.rows.options[0][1]
        browser.add.click()

    editors = iter([fresh_editor() for _ in range(20)])
    show("app: bestiary Add (a new kind, read whole) + pace",
         timed(lambda: add_from_bestiary(next(editors), "goblin warrior"), 20))
    editor = fresh_editor()
    add_from_bestiary(editor, "goblin warrior")
    show("app: bestiary Add (a kind already there) + pace",
         timed(lambda: add_from_bestiary(editor, "goblin warrior"), 20))
    picker = editor.controls["abilities"].children[0]
    marks = iter(["Bury the Point", ""] * 50)
    show("app: mark another ability for the pace", timed(lambda: setattr(picker, "value", next(marks)), 40))
    objectives = encounter_app(encounter=e)
    objectives.controls["objective"].value = "destroy_the_thing"
    objectives.controls["add_objective_choice"].value = "hold_them_off"
    objectives.controls["add_objective"].click()
    modes = iter(["alternative", "combined"] * 100)
    show("app: combined / alternative objectives switch",
         timed(lambda: setattr(objectives.controls["objective_mode"], "value", next(modes)), 100))


if __name__ == "__main__":
    main()
