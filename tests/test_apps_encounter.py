"""The encounter editor without a browser: set controls and press buttons in Python, check what it shows.
Also the budget chart, the HTML panels (escaping) and the tables."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from workbench.apps.encounter import encounter_app, encounter_view, party_from_controls
from workbench.charts.encounter import budget_figure
from workbench.encounter.encounter import Encounter, TerrainObject
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import budget, make_party
from workbench.encounter.report import report
from workbench.errors import InvalidInput
from workbench.monster.formulas import build_monster
from workbench.monster.library import save_monster
from workbench.render.escape import escape
from workbench.tables.encounter import bands_table, checks_table, creatures_table, encounter_strength_table


def number(html: str, cls: str, attr: str) -> str:
    match = re.search(rf'class="{cls}" data-{attr}="([^"]*)"', html)
    assert match, f"no {cls} in {html[:200]}"
    return match[1]


def add(app, spec):
    app.controls["spec"].value = spec
    app.controls["add_spec"].click()


def add_from_bestiary(app, search, count):
    """`count` of the first stat block the browser finds for `search`, added by its button; the browser."""
    browser = app.controls["browser"]
    browser.search.value = search
    browser.rows.value = browser.rows.options[0][1]
    browser.count.value = count
    browser.add.click()
    return browser


def test_adding_specs_updates_ev_band_and_victories():
    app = encounter_app()  # five 3rd-level heroes: ES 50
    add(app, "4 x level 3 platoon brute")  # 40: easy (40-49)
    s = app.controls["summary"].value
    assert number(s, "wb-ev-total", "ev") == "40" and number(s, "wb-band", "band") == "easy"
    add(app, "8 x level 2 minion harrier")  # + 8 = 48
    add(app, "level 3 platoon hexer")  # + 10 = 58: standard
    s = app.controls["summary"].value
    assert number(s, "wb-ev-total", "ev") == "58" and number(s, "wb-band", "band") == "standard"
    assert number(s, "wb-victories", "victories") == "1"


def test_party_controls_move_the_budget():
    app = encounter_app()
    add(app, "6 x level 3 platoon brute")  # 60
    assert number(app.controls["summary"].value, "wb-band", "band") == "standard"  # 50-60
    app.controls["heroes"].value = 4  # ES 40, h 10: 60 is hard (51-70)
    assert number(app.controls["summary"].value, "wb-band", "band") == "hard"
    app.controls["victories"].value = "2"  # ES 50: standard again
    assert number(app.controls["summary"].value, "wb-band", "band") == "standard"
    app.controls["mixed"].value = "1, 1, 1, 1"  # ES 24 + 6 = 30, h 6: hard tops at 48 -> extreme
    assert number(app.controls["summary"].value, "wb-band", "band") == "extreme"
    budget_pane = app.controls["budget"].value
    assert 'data-encounter-strength="30"' in budget_pane


def test_a_refusal_changes_nothing_and_says_why():
    app = encounter_app()
    add(app, "2 x level 3 platoon brute")
    before = app.state()
    add(app, "2 x level 3 leader brute")
    assert app.state() == before
    assert "has no creature role" in app.controls["message"].value
    app.controls["victories"].value = "lots"
    assert "Victories takes a number" in app.controls["message"].value and app.state() == before
    app.controls["victories"].value = "0"
    assert app.controls["message"].value == ""


def test_checks_show_live_with_the_rules_words():
    app = encounter_app()
    add(app, "6 x level 1 minion harrier")  # not a multiple of four, fewer than two sets
    checks = app.controls["checks"].value
    assert 'data-check="minions_by_four" data-state="broken"' in checks
    assert "you buy them four at a time" in checks
    add(app, "2 x level 1 minion harrier")  # 8 of them now
    checks = app.controls["checks"].value
    assert 'data-check="minions_by_four" data-state="kept"' in checks
    assert 'data-check="minion_sets" data-state="kept"' in checks


def test_monsters_from_the_builder_and_the_library(tmp_path):
    ogre = build_monster(5, "elite", "brute").model_copy(update={"name": "Ogre"})
    save_monster(build_monster(3, "leader").model_copy(update={"name": "Bandit chief"}), folder=tmp_path)
    (tmp_path / "broken.json").write_text("{not json")
    app = encounter_app(monsters=[ogre], library_folder=tmp_path)
    app.controls["count"].value = 2
    app.controls["add_monster"].click()
    assert number(app.controls["summary"].value, "wb-ev-total", "ev") == "56"  # 2 x 28
    app.controls["load_library"].click()
    assert "1 monster(s) loaded" in app.controls["message"].value and "broken.json" in app.controls["message"].value
    labels = [label for label, _ in app.controls["monster"].options]
    assert labels == ["Ogre", "Bandit chief"]
    app.controls["monster"].index = 1
    app.controls["count"].value = 1
    app.controls["add_monster"].click()
    assert number(app.controls["summary"].value, "wb-ev-total", "ev") == "76"  # + (2 x 3 + 4) x 2 = 20


def test_objective_shifts_the_shown_difficulty_and_victories():
    app = encounter_app()
    add(app, "5 x level 3 platoon brute")  # 50: standard
    app.controls["objective"].value = "escort"
    app.controls["conditions"]["delicate_ward"].value = True  # one category harder
    s = app.controls["summary"].value
    assert number(s, "wb-band", "band") == "standard"
    assert 'data-difficulty="hard"' in s
    assert number(s, "wb-victories", "victories") == "1"  # Escort: 1 unless extreme or the bonus
    app.controls["bonus"].value = True
    assert number(app.controls["summary"].value, "wb-victories", "victories") == "2"
    assert "An encounter built around protecting a delicate ward" in app.controls["objectives"].value  # its words
    assert "delicate 10 × 3 = 30" in app.controls["objectives"].value  # "10 times the heroes' level"


def test_terrain_remove_and_groups():
    app = encounter_app()
    add(app, "4 x level 3 platoon brute")
    app.controls["terrain_name"].value = "<script>alert(1)</script>"
    app.controls["terrain_ev"].value = 4
    app.controls["add_terrain"].click()
    assert number(app.controls["summary"].value, "wb-ev-total", "ev") == "44"
    assert "<script>" not in app.controls["creatures"].value
    app.controls["suggest"].click()
    assert len(app.state().groups) >= 1
    assert "wb-group-ev" in app.controls["groups"].value
    app.controls["groups_text"].value = "1×2; 1×2"  # two groups of 20 EV each
    app.controls["apply_groups"].click()
    assert [g.members for g in app.state().groups] == [((0, 2),), ((0, 2),)]
    # two groups for five heroes: fewer than 5 - 2 = 3, so the count guideline is broken; EV 20 each is fine
    assert 'data-check="group_count" data-state="broken"' in app.controls["checks"].value
    assert 'data-check="group_ev" data-state="kept"' in app.controls["checks"].value
    app.controls["groups_text"].value = "1×9"
    app.controls["apply_groups"].click()
    assert "at most 4" in app.controls["message"].value and len(app.state().groups) == 2
    terrain_row = app.controls["rows"].children[1]  # after the one creature row
    terrain_row.children[-1].click()  # its Remove button
    assert number(app.controls["summary"].value, "wb-ev-total", "ev") == "40"


def test_quick_method_shown_beside_the_ev():
    app = encounter_app()
    add(app, "5 x level 3 platoon brute")
    quick = app.controls["quick"].value
    assert 'data-slots="5"' in quick and 'data-used="5"' in quick  # standard: 5 slots, 5 platoon creatures
    app.controls["difficulty"].value = "hard"
    assert 'data-slots="7"' in app.controls["quick"].value


def test_save_and_load(tmp_path):
    app = encounter_app()
    add(app, "4 x level 3 platoon brute")
    app.controls["heroes"].value = 4
    app.controls["path"].value = str(tmp_path / "gate.json")
    app.controls["save"].click()
    assert "Saved to" in app.controls["file_message"].value and app.controls["message"].value == ""
    app.controls["save"].click()  # exists: refused, says so beside the file box
    assert "exists" in app.controls["file_message"].value
    other = encounter_app()
    other.controls["path"].value = str(tmp_path / "gate.json")
    other.controls["load"].click()
    assert other.state() == app.state()
    assert other.controls["heroes"].value == 4
    assert number(other.controls["summary"].value, "wb-ev-total", "ev") == "40"


def test_starting_from_a_saved_mixed_party(tmp_path):
    e = Encounter(party=make_party([2, 3, 3], retainers=[2])).adding("3 x level 3 platoon brute")
    app = encounter_app(encounter=e)
    assert app.controls["mixed"].value == "2, 3, 3" and app.controls["retainers"].value == "2"
    assert app.state() == e.model_copy(update={"aim": "standard"})  # the editor's Aim for goes with it


def test_objectives_bonus_and_allies_survive_a_change_of_controls(tmp_path):
    # A saved encounter with combined objectives (Escort with the bonus met, and Hold Them Off) and an allied
    # NPC: changing any control rebuilds the encounter from the controls, and must not drop any of it.
    e = Encounter(party=make_party(heroes=4, level=3, allies=[3])).adding("5 x level 3 platoon brute")
    e = e.model_copy(update={"objectives": (
        choose_objective("escort", bonus=True, delicate_ward=True), choose_objective("hold_them_off"),
    )})
    path = save_encounter(e, tmp_path / "combined.json")
    started = encounter_app(encounter=e)
    loaded = encounter_app()
    loaded.controls["path"].value = str(path)
    loaded.controls["load"].click()
    for app in (started, loaded):
        assert app.controls["allies"].value == "3" and app.controls["retainers"].value == ""
        app.controls["difficulty"].value = "hard"  # any change runs the observer
        assert app.state() == e.model_copy(update={"aim": "hard"})
        # 50 EV against ES 50: standard; the delicate ward makes it hard. Victories at hard: Escort with its
        # bonus 2 ("in 3 rounds or less and ... standard or higher") + Hold Them Off 1 = 3.
        assert number(app.controls["summary"].value, "wb-victories", "victories") == "3"


def test_alternative_objectives_earn_the_best_ones_victories_by_mouse_and_in_the_file(tmp_path):
    # "If an encounter has multiple alternative objectives, you reward the heroes for the objective they
    # completed the most successfully": Destroy the Thing (one extra defense: sturdy, no shift) and Hold Them
    # Off at standard earn 1 Victory each; combined "each hero earns Victories as appropriate for each" (2),
    # as alternatives the best one (1).
    app = encounter_app()  # five 3rd-level heroes: ES 50
    add(app, "5 x level 3 platoon brute")  # 50: standard
    app.controls["objective"].value = "destroy_the_thing"
    app.controls["conditions"]["sturdy"].value = True
    app.controls["add_objective_choice"].value = "hold_them_off"
    app.controls["add_objective"].click()
    assert [o.key for o in app.state().objectives] == ["destroy_the_thing", "hold_them_off"]
    assert app.state().objectives[0].conditions["sturdy"] == 1  # the first one's ticks are kept
    assert app.controls["objective"].value == "hold_them_off"  # the added one is now the one edited
    summary = app.controls["summary"].value
    assert number(summary, "wb-band", "band") == "standard" and number(summary, "wb-victories", "victories") == "2"
    mode = app.controls["objective_mode"]
    assert mode.value == "combined" and mode.description == "Earn Victories for"
    assert "the best one of these alternatives" in [label for label, _ in mode.options]
    mode.value = "alternative"
    assert number(app.controls["summary"].value, "wb-victories", "victories") == "1"
    assert "the objective they completed the most successfully" in app.controls["objectives"].value
    assert app.controls["message"].value == ""
    app.controls["difficulty"].value = "hard"  # any other change keeps the mode and both objectives
    assert app.state().objective_mode == "alternative" and len(app.state().objectives) == 2

    app.controls["path"].value = str(tmp_path / "gate.json")
    app.controls["save"].click()
    assert json.loads((tmp_path / "gate.json").read_text())["encounter"]["objective_mode"] == "alternative"
    again = encounter_app()
    again.controls["path"].value = str(tmp_path / "gate.json")
    again.controls["load"].click()
    assert again.controls["objective_mode"].value == "alternative"
    assert number(again.controls["summary"].value, "wb-victories", "victories") == "1"
    assert again.state() == app.state()

    rows = again.controls["objective_rows"].children  # a row per objective: Edit, Remove
    rows[0].children[1].click()  # edit Destroy the Thing
    assert again.controls["objective"].value == "destroy_the_thing"
    assert again.controls["conditions"]["sturdy"].value is True
    again.controls["objective_rows"].children[1].children[2].click()  # remove Hold Them Off
    assert [o.key for o in again.state().objectives] == ["destroy_the_thing"]
    assert again.controls["objective_rows"].children == ()  # one objective: nothing to combine


def test_party_from_controls():
    assert party_from_controls(5, 3, "", "", "2").victories == 2
    assert party_from_controls(5, 3, "1, 2", "3", "0").levels == (1, 2, 3)
    assert [m.kind for m in party_from_controls(1, 3, "", "2", "0", "4").members] == ["hero", "retainer", "ally"]
    with pytest.raises(InvalidInput) as caught:
        party_from_controls(5, 3, "a, b", "", "0")
    assert caught.value.code == "invalid-levels"


def test_budget_figure_bands_marker_and_left_to_spend():
    b = budget(make_party(heroes=5, level=3))
    figure = budget_figure(b, 52, "hard")
    bars = {t.name: (t.base[0], t.x[0]) for t in figure.data if t.type == "bar"}
    # whole EV totals drawn from min to max + 1: trivial 0-39, easy 40-49, standard 50-60, hard 61-80
    assert bars["Trivial"] == (0, 40) and bars["Easy"] == (40, 10)
    assert bars["Standard"] == (50, 11) and bars["Hard"] == (61, 20)
    assert bars["Left for hard"] == (52.0, 28.0)  # 80 - 52
    assert "28 EV left to spend for hard" in figure.layout.annotations[0].text
    assert "needs at least 61" in figure.layout.annotations[0].text
    marker = [t for t in figure.data if t.type == "scatter"][0]
    assert marker.x[0] == 52


def test_view_escapes_names():
    e = Encounter(name="<b>Gate</b>", party=make_party(heroes=5, level=3)).adding(
        "2 x level 3 platoon brute: <img src=x onerror=alert(1)>"
    )
    view = encounter_view(e, "standard")
    for text in (view.summary, view.creatures, view.checks):
        assert "<img" not in text and "<b>Gate" not in text
    assert "&lt;img src=x" in view.creatures


def test_tables():
    frame = encounter_strength_table()
    assert frame.shape == (10, 8) and frame.loc[3, "5 Heroes"] == 50  # "five 3rd-level heroes ... 50"
    assert frame.loc[10, "8 Heroes"] == 192  # last cell of the Encounter Strength Table
    bands = bands_table(budget(make_party(heroes=5, level=3)))
    assert list(bands["min EV"]) == [0, 40, 50, 61, 81]
    e = Encounter(party=make_party(heroes=5, level=3)).adding("8 x level 2 minion harrier").adding(
        TerrainObject(name="pillar", ev=3)
    )
    rows = creatures_table(e)
    assert list(rows["cost"]) == ["8", "3"]
    checks = checks_table(report(e))
    assert set(checks.columns) >= {"guideline", "broken", "rule"}


# ---------------------------------------------------------------- rows, the bestiary, suggestions, the pace


def test_rows_count_buttons_buy_minions_by_fours():
    app = encounter_app()
    add(app, "8 x level 2 minion harrier")  # 8 minions: EV 2 × 4 + 4 = ... the spec's own EV of four
    add(app, "level 3 platoon brute")
    per_four = app.state().creatures[0].ev
    app.row_buttons(0)["plus"].click()
    assert app.state().creatures[0].count == 12
    app.row_buttons(0)["minus"].click()
    app.row_buttons(0)["minus"].click()
    assert app.state().creatures[0].count == 4
    app.row_buttons(0)["minus"].click()  # below one set: refused, nothing changes
    assert app.state().creatures[0].count == 4 and "remove the entry" in app.controls["message"].value
    app.row_buttons(1)["plus"].click()
    assert app.state().creatures[1].count == 2
    rows_html = " ".join(child.value for row in app.controls["rows"].children for child in row.children
                         if hasattr(child, "value") and isinstance(child.value, str))
    assert f"EV {per_four}" in rows_html  # four minions cost the stat block's EV of four
    app.row_buttons(1)["remove"].click()
    assert len(app.state().creatures) == 1


def test_star_toggle_and_groups_by_picking_rows():
    app = encounter_app(difficulty="hard")
    add(app, "level 4 leader")
    add(app, "4 x level 3 platoon brute")
    app.row_buttons(0)["star"].value = True
    assert app.state().creatures[0].star
    assert 'data-check="star_of_the_show"' in app.controls["checks"].value
    app.row_buttons(0)["group"].value = 1  # a new group 1 with the leader
    app.row_buttons(1)["group"].value = 2  # a new group 2 with the brutes
    assert [g.members for g in app.state().groups] == [((0, 1),), ((1, 4),)]
    app.row_buttons(1)["group"].value = 1
    assert [g.members for g in app.state().groups] == [((0, 1), (1, 4))]


def test_only_the_guidelines_that_apply_in_plain_words():
    app = encounter_app()  # five heroes: the small- and large-party advice is about other parties
    checks = app.controls["checks"].value
    assert "Party of 3 or fewer" not in checks and "No guideline applies yet" in checks
    add(app, "6 x level 1 minion harrier")
    checks = app.controls["checks"].value
    assert "✗ Broken:</span> Minions bought 4 at a time" in checks
    assert "not-applicable" not in checks and "Party of 3 or fewer" not in checks
    app.controls["heroes"].value = 3
    assert "Party of 3 or fewer heroes" in app.controls["checks"].value


def test_the_bestiary_adds_to_the_encounter():
    app = encounter_app()
    browser = app.controls["browser"]
    browser.keyword.value = "Goblin"
    browser.search.value = "sniper"
    browser.rows.value = browser.rows.options[0][1]
    assert "Goblin Sniper" in browser.stat_block.value and "Power Roll + 2" in browser.stat_block.value
    assert browser.count.value == 4 and browser.count.step == 4  # minions four at a time
    browser.add.click()
    browser.add.click()
    assert [(c.name, c.count) for c in app.state().creatures] == [("Goblin Sniper", 8)]
    assert number(app.controls["summary"].value, "wb-ev-total", "ev") == "6"  # 2 × the EV of four (3)


def test_suggest_fills_the_editor_with_an_encounter_that_keeps_every_guideline():
    app = encounter_app(difficulty="hard", level=1)  # kobolds are of the heroes' level (the quick method's too)
    app.controls["keyword"].value = "Kobold"
    app.controls["suggest_encounter"].click()
    first = app.state()
    r = report(first)
    assert r.difficulty == "hard" and r.broken == () and first.groups
    assert all(c.name.startswith(("Kobold", "Shieldscale", "Trained")) for c in first.creatures)
    assert len(app.controls["rows"].children) == len(first.creatures)
    app.controls["suggest_encounter"].click()  # the next suggestion
    assert app.state().creatures != first.creatures


def test_suggestions_use_the_directors_library_too(tmp_path):
    # "A bestiary is any set of stat blocks the workbench can read: the shipped sample, a folder ...,
    # and the homebrew library." Bog creatures exist only in this library; once loaded, their keyword is
    # offered and a suggestion is made of them, keeping every guideline.
    for name, role in (("Bog Brute", "brute"), ("Bog Spitter", "artillery"), ("Bog Lurker", "ambusher")):
        monster = build_monster(3, "platoon", role).model_copy(update={"name": name, "keywords": ("Bogling",)})
        save_monster(monster, folder=tmp_path)
    app = encounter_app(library_folder=tmp_path)
    assert "Bogling" not in [value for _, value in app.controls["keyword"].options]
    app.controls["load_library"].click()
    app.controls["keyword"].value = "Bogling"
    app.controls["suggest_encounter"].click()
    chosen = app.state()
    assert chosen.creatures and all(c.name.startswith("Bog ") for c in chosen.creatures)
    assert report(chosen).broken == ()


def test_the_pace_needs_the_heroes_numbers_then_shows_its_chart():
    app = encounter_app()
    add(app, "4 x level 3 platoon brute")
    assert "invents no hero numbers" in app.controls["pace"].value
    assert app.controls["pace_plot"].figure is None
    app.controls["hero_stamina"].value = "40"
    app.controls["party_damage"].value = 60
    assert app.controls["pace_plot"].figure is not None
    assert "The foes are defeated after" in app.controls["pace"].value
    app.controls["hero_stamina"].value = "40, 30"  # five heroes: two numbers are refused
    assert "Hero stamina takes one Stamina for every hero (5)" in app.controls["message"].value


def test_no_python_reprs_on_the_page():
    app = encounter_app(difficulty="hard")
    app.controls["suggest_encounter"].click()
    app.controls["hero_stamina"].value = "45, 40, 42, 38, 50"
    app.controls["party_damage"].value = 80
    texts = [app.controls[name].value for name in ("summary", "checks", "groups", "quick", "pace", "creatures")]
    texts += [child.value for row in app.controls["rows"].children for child in row.children
              if isinstance(getattr(child, "value", None), str)]
    page = " ".join(texts)
    for bad in ("None", "NaN", "Fraction(", "Creature(", "(('", "<NA>"):
        assert bad not in page


def test_the_pace_uses_the_ability_the_director_marks():
    # "each creature's expected damage per turn (its signature ability, or the ability the Director marks)":
    # three goblin warriors, Spear Charge 3 / 4 / 5 at + 2 (3.85 a turn) or Bury the Point 5 / 6 / 7 (5.85).
    app = encounter_app()
    browser = add_from_bestiary(app, "goblin warrior", 3)
    app.controls["hero_stamina"].value = "1000"
    app.controls["party_damage"].value = 1
    pickers = app.controls["abilities"].children
    assert [p.description for p in pickers] == ["Goblin Warrior uses"]
    assert pickers[0].options == (("Spear Charge (signature)", ""), ("Bury the Point", "Bury the Point"))
    assert f"foes deal {float(3 * Fraction('3.85')):.1f} expected damage a round" in app.controls["pace"].value
    pickers[0].value = "Bury the Point"
    pace = app.controls["pace"].value
    assert f"foes deal {float(3 * Fraction('5.85')):.1f} expected damage a round" in pace
    assert "Goblin Warrior × 3: Bury the Point" in pace and app.controls["message"].value == ""
    browser.count.value = 1
    browser.add.click()  # one more of the same kind keeps the mark and the picker
    assert app.controls["abilities"].children[0] is pickers[0] and pickers[0].value == "Bury the Point"
    assert f"foes deal {float(4 * Fraction('5.85')):.1f} expected damage a round" in app.controls["pace"].value
    pickers[0].value = ""
    assert f"foes deal {float(4 * Fraction('3.85')):.1f} expected damage a round" in app.controls["pace"].value


def test_the_marked_ability_is_saved_with_the_encounter(tmp_path):
    # a reopened encounter paces the fight as it was marked: Bury the Point (5.85 a turn), not Spear Charge
    app = encounter_app()
    add_from_bestiary(app, "goblin warrior", 3)
    app.controls["abilities"].children[0].value = "Bury the Point"
    app.controls["path"].value = str(tmp_path / "ambush.json")
    app.controls["save"].click()
    assert [c.attack for c in load_encounter(tmp_path / "ambush.json").creatures] == ["Bury the Point"]
    other = encounter_app()
    other.controls["path"].value = str(tmp_path / "ambush.json")
    other.controls["load"].click()
    other.controls["hero_stamina"].value = "1000"
    other.controls["party_damage"].value = 1
    assert other.controls["abilities"].children[0].value == "Bury the Point"
    assert f"foes deal {float(3 * Fraction('5.85')):.1f} expected damage a round" in other.controls["pace"].value


def test_a_terrain_objects_level_is_checked_against_the_heroes():
    # Quick Encounter Building, Step 3: "Use only objects of the heroes' level or lower."
    app = encounter_app()  # five 3rd-level heroes
    add(app, "4 x level 3 platoon brute")
    app.controls["terrain_name"].value = "collapsing pillar"
    app.controls["terrain_level"].value = "5"
    app.controls["add_terrain"].click()
    assert app.state().terrain[0].level == 5
    checks = app.controls["checks"].value
    assert 'data-check="terrain_level" data-state="broken"' in checks
    assert escape("Use only objects of the heroes' level or lower") in checks
    assert "collapsing pillar (dynamic terrain, EV 2, level 5)" in [
        row.children[0].value for row in app.controls["rows"].children[1:]]
    app.controls["terrain_level"].value = "five"
    app.controls["add_terrain"].click()
    assert "one level from 1 upwards, or blank" in app.controls["message"].value
    assert len(app.state().terrain) == 1  # refused: nothing added
    app.controls["terrain_level"].value = ""  # blank: the object's level is not given
    app.controls["add_terrain"].click()
    assert app.state().terrain[1].level is None


@pytest.mark.parametrize(
    ("victories", "state"),
    [
        ("3", "kept"),  # 3 earned + 2 for this hard or extreme encounter = 5: within "from 4 to 6"
        ("5", "broken"),  # 5 + 2 = 7: past 6, plan a respite
        ("4.5", "kept"),  # an average is rounded down, as for Malice: 4 + 2 = 6
    ],
)
def test_fights_before_a_respite_in_the_editor(victories, state):
    # "A group of heroes can generally handle from 4 to 6 Victories' worth of combat encounters before needing
    # to stop for a respite": the heroes' Victories (earned since their last respite) plus this encounter's.
    app = encounter_app()
    app.controls["victories"].value = victories
    add(app, "10 x level 3 platoon brute")  # 100: hard or extreme for ES 50 + the Victories bonus: 2 Victories
    assert number(app.controls["summary"].value, "wb-victories", "victories") == "2"
    respite = app.controls["respite"].value
    assert f'data-state="{state}"' in respite and "from 4 to 6 Victories" in respite


def test_a_plain_name_saves_there_and_the_encounter_takes_it(tmp_path):
    """The hint says "a name alone saves there": Save takes it as <name>.json in the files folder, and the
    encounter is known by that name from then on (the adventure's plan, the fight); a refused save changes
    nothing. What Save says is beside it, under the file box."""
    app = encounter_app(files_folder=tmp_path)
    add(app, "4 x level 3 platoon brute")
    app.controls["path"].value = "gate"
    assert "gate.json" in app.files.where.value  # the line under the box names the file Save writes
    app.controls["save"].click()
    assert "Saved to" in app.controls["file_message"].value, app.controls["file_message"].value
    assert load_encounter(tmp_path / "gate.json").name == "gate" and app.state().name == "gate"
    other = encounter_app(files_folder=tmp_path)
    add(other, "2 x level 3 platoon brute")
    other.controls["path"].value = "gate"
    other.controls["save"].click()  # exists: refused, and the encounter keeps no name
    assert "exists" in other.controls["file_message"].value and other.state().name == ""
    assert load_encounter(tmp_path / "gate.json").creatures == app.state().creatures
    other.controls["victories"].value = "lots"  # another control's refusal at the top, the file box's words gone
    assert other.controls["file_message"].value == "" and other.controls["message"].value != ""


def test_two_monsters_of_one_name_are_told_apart_in_the_monster_list():
    four = build_monster(4, "elite", "brute").model_copy(update={"name": "Bone Crusher"})
    seven = build_monster(7, "elite", "brute").model_copy(update={"name": "Bone Crusher"})
    other = build_monster(2, "platoon", "brute").model_copy(update={"name": "Rat Pack"})
    app = encounter_app(monsters=[four, seven, other])
    assert [label for label, _m in app.controls["monster"].options] == [
        "Bone Crusher (level 4 elite brute)", "Bone Crusher (level 7 elite brute)", "Rat Pack"]
    app.offer([other, four], first_from=" (in the builder)")
    assert [label for label, _m in app.controls["monster"].options] == ["Rat Pack (in the builder)", "Bone Crusher"]


def widgets_shown(app) -> set[int]:
    """The widgets in the editor's tree (what the browser draws), by id."""
    seen, stack = set(), [app]
    while stack:
        w = stack.pop()
        seen.add(id(w))
        stack.extend(getattr(w, "children", ()))
    return seen


def test_the_editor_opens_with_what_is_in_view_and_makes_a_panel_as_it_is_opened():
    kept = (choose_objective("escort"),)
    app = encounter_app(encounter=Encounter(party=make_party(heroes=4, level=2), objectives=kept))
    add_from_bestiary(app, "", 1)
    before = widgets_shown(app)
    assert app.tabs.fold.selected_index == 0 and app.more.fold.selected_index is None
    assert not any(app.tabs.made(i) for i in (2, 4)) and not app.more.made(0)
    app.offer([build_monster(2, "elite", "brute").model_copy(update={"name": "Ogre"})])
    app.tabs.fold.selected_index = 2  # the Director opens the Objective tab
    objective = app.controls["objective"]
    assert id(objective) not in before and id(objective) in widgets_shown(app)
    assert objective.value == "escort" and app.controls["objectives"].value  # the encounter's, as it is now
    app.more.fold.selected_index = 0  # and the shortcuts
    assert [label for label, _ in app.controls["monster"].options] == ["Ogre"]
    assert id(app.controls["spec"]) in widgets_shown(app)
    app.tabs.fold.selected_index = 4  # the pace, made from the view shown
    assert "invents no hero numbers" in app.controls["pace"].value
    assert len(before) < len(widgets_shown(app)) - 30


def test_an_objective_chosen_before_its_tab_was_opened_is_kept_by_a_change_of_controls():
    kept = (choose_objective("escort", bonus=True),)
    app = encounter_app(encounter=Encounter(party=make_party(heroes=4, level=2), objectives=kept))
    app.controls["heroes"].value = 5  # the objective controls are not made: the objectives stay
    assert app.state().objectives == kept and app.state().party.size == 5
    assert app.edits == 1  # a page hears each change the editor makes
