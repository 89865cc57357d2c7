"""The squad tracker app, driven without a browser: damage in, who drops out, undo."""

from __future__ import annotations

import html

from workbench.apps.squad import default_squad, squad_app
from workbench.fight.squad import make_squad
from workbench.monster.formulas import build_monster


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


def test_attach_captain_applies_the_with_captain_bonus_and_the_rules_refuse_the_rest():
    # "While a minion squad has a captain, each minion in the squad gains the benefits noted at the 'With
    #  Captain' entry": the spinecleavers' +1 damage bonus to strikes.
    app = squad_app()
    c, b = app.controls, app.controls["buttons"]
    assert [label for label, _ in c["captain"].options] == ["Goblin boss", "Bugbear"]
    assert "needs a captain" in c["view"].value
    b["attach"].click()
    assert app.tracker.squad.captain == "Goblin boss" and app.tracker.squad.damage_bonus == 1
    assert "Captain: Goblin boss" in c["view"].value and "needs a captain" not in c["view"].value
    # "A squad of minions can have only one captain"
    c["captain"].value = c["captain"].options[1][1]
    b["attach"].click()
    assert app.tracker.squad.captain == "Goblin boss" and "already has" in html.unescape(c["refusal"].value)
    # "If a squad of minions loses their captain, a new allied creature can become that squad's captain at the
    #  start of the next round": refused in the same round, accepted after Start next round.
    b["falls"].click()
    assert app.tracker.squad.captain is None and app.tracker.squad.damage_bonus == 0
    b["attach"].click()
    assert app.tracker.squad.captain is None and "next round" in html.unescape(c["refusal"].value)
    b["round"].click()
    b["attach"].click()
    assert app.tracker.squad.captain == "Bugbear" and c["refusal"].value == ""
    b["undo"].click()
    assert app.tracker.squad.captain is None


def test_attach_captain_with_a_stamina_bonus_raises_the_pool():
    # A "+2 bonus to Stamina" With Captain entry: each of 8 minions goes from 5 to 7 Stamina, pool 8 × 7 = 56.
    squad = make_squad(name="Guards", stamina=5, free_strike=2, count=8, with_captain="+2 bonus to Stamina")
    app = squad_app(squad)
    app.controls["buttons"]["attach"].click()
    assert (app.tracker.squad.pool, app.tracker.squad.stamina_each) == (56, 7)
    assert "Pool 56 of 56" in app.controls["view"].value


def test_captain_choices_are_checked_by_the_rules_and_escaped():
    # "Any non-mount, non-minion creature ... can be attached to that squad as a captain."
    mount = build_monster(1, "platoon", "mount").model_copy(update={"name": "<i>Worg</i>"})
    boss = build_monster(2, "leader").model_copy(update={"name": "<b>Boss</b>"})
    app = squad_app(captains=[mount, boss])
    c, b = app.controls, app.controls["buttons"]
    b["attach"].click()
    assert app.tracker.squad.captain is None and "mount" in html.unescape(c["refusal"].value)
    c["captain"].value = boss
    b["attach"].click()
    assert app.tracker.squad.captain == "<b>Boss</b>"
    assert "<b>Boss</b>" not in c["view"].value and "&lt;b&gt;Boss&lt;/b&gt;" in c["view"].value
    assert squad_app(captains=[]).controls["buttons"]["attach"].disabled
