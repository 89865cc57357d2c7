"""The squad tracker app, driven without a browser: damage in, who drops out, undo."""

from __future__ import annotations

import html

from workbench.apps.squad import default_squad, squad_app
from workbench.squad import make_squad


def test_default_is_eight_spinecleavers_with_the_books_drop_list():
    # "a squad of eight goblin spinecleavers loses a minion when they take a total of 5, 10, ... 40 damage"
    app = squad_app()
    assert app.tracker.squad.pool == 40
    assert "5, 10, 15, 20, 25, 30, 35, 40" in app.controls["view"].value


def test_area_damage_with_three_in_the_area_then_undo():
    # Incinerate: 6 to each of three spinecleavers in the area: the pool loses 15, not 18.
    app = squad_app()
    c = app.controls
    c["mode"].value = "Area"
    c["amount"].value = 6
    c["in_area"].value = 3
    c["buttons"]["apply"].click()
    assert (app.tracker.squad.pool, app.tracker.squad.alive) == (25, 5)
    assert "●●●●●○○○" in c["view"].value
    assert c["in_area"].max == 5                      # only the living can be in the next area
    c["buttons"]["undo"].click()
    assert app.tracker.squad == default_squad()


def test_single_target_damage_drops_several_and_refusals_change_nothing():
    app = squad_app()
    c = app.controls
    c["amount"].value = 12                            # the book's 12 from Brutal Slam: two drop
    c["buttons"]["apply"].click()
    assert app.tracker.last_hit.dropped == 2
    before = app.tracker.squad
    c["buttons"]["falls"].click()                     # no captain to fall: refused
    assert app.tracker.squad == before and "captain" in html.unescape(c["refusal"].value)


def test_last_stand_and_round_buttons():
    app = squad_app(make_squad(name="<b>Rats</b>", stamina=4, free_strike=1, count=4))
    c = app.controls
    c["buttons"]["last"].click()
    assert app.tracker.squad.pool == 4                 # pool = number of minions
    c["buttons"]["round"].click()
    assert app.tracker.squad.round == 2
    assert "<b>Rats</b>" not in c["view"].value        # user text escaped
