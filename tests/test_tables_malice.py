"""The Malice frames: one row per round, numbers straight from the schedule and the plan."""

from __future__ import annotations

from workbench.fight.malice_plan import spending_plan
from workbench.fight.malice_schedule import malice_schedule
from workbench.model import Trait
from workbench.tables.malice import PLAN_COLUMNS, SCHEDULE_COLUMNS, malice_table, plan_table


def test_schedule_table_is_the_books_example():
    # Five heroes, three Victories: 9, 7, 8 ("and so on"), one row per round.
    frame = malice_table(malice_schedule(5, 3, 3, {3: 1}))
    assert tuple(frame.columns) == SCHEDULE_COLUMNS
    # Round 3 after one death: 4 + 3 = 7; totals 9, 16, 23 by hand.
    assert frame["gain"].tolist() == [9, 7, 7]
    assert frame["total"].tolist() == [9, 16, 23]
    assert frame["deaths"].tolist() == [0, 0, 1]
    assert frame["working"].tolist() == ["3 + 5 + 1", "5 + 2", "4 + 3"]


def test_plan_table_lists_purchases_per_round():
    brutal = Trait(name="Brutal Effectiveness", text="", cost=3)
    frame = plan_table(spending_plan(malice_schedule(2, 0, 2), [brutal, brutal]))
    # Two heroes, no Victories: round 1 has 0 + 2 + 1 = 3 -> one Brutal (0 left); round 2: 2 + 2 = 4 -> one (1).
    assert tuple(frame.columns) == PLAN_COLUMNS
    assert frame["bought"].tolist() == ["Brutal Effectiveness (3)", "Brutal Effectiveness (3)"]
    assert frame["left"].tolist() == [0, 1]
