"""The scaling explorer without a browser: pick curves, sort the grid, edit a ruleset copy."""

from __future__ import annotations

import re
from decimal import Decimal

import ipywidgets as widgets
import pytest
import rules_reference as ref

from workbench import core_ruleset
from workbench.apps.explorer import changes_from, modifier_editors, scaling_explorer


@pytest.fixture
def app():
    return scaling_explorer()


def cells(html: str) -> list[list[str]]:
    """The body rows of an HTML table as lists of cell texts."""
    body = html.split("<tbody>", 1)[1]
    return [re.findall(r"<td>(.*?)</td>", row) for row in body.split("<tr>")[1:]]


def test_is_a_widget_with_stable_classes(app):
    assert isinstance(app, widgets.VBox)
    assert "wb-explorer" in app._dom_classes
    assert "wb-curves-chart" in app.curves._dom_classes
    assert "wb-grid-table" in app.grid._dom_classes
    assert "wb-differences" in app.differences._dom_classes


def test_what_if_chart_is_drawn_from_the_first_change(app):
    # the page opens with one FigureWidget (the curves); the what-if chart waits for a change
    assert app.curves is not None and app.whatif is None
    app.controls["levels"].value = (1, 2)
    assert [list(trace.x) for trace in app.whatif.data][0] == [1, 2]


def test_curves_follow_the_picks(app):
    c = app.controls
    c["organizations"].value = ("horde", "leader")
    c["roles"].value = ("defender",)
    c["quantity"].value = "ev"
    c["levels"].value = (3, 8)
    # the published monsters' points (on by default, tested in test_calibration_views.py) are not curves
    curves = [trace for trace in app.curves.data if not str(trace.name).startswith("published")]
    names = [trace.name for trace in curves]
    assert names == ["horde defender", "leader"]
    leader = curves[1]
    assert list(leader.x) == list(range(3, 9))
    assert list(leader.y) == [ref.ev(level, "leader") for level in range(3, 9)]  # ((2 x L) + 4) x 2
    c["quantity"].value = "damage_tier2"
    assert list(app.curves.data[0].y) == [ref.damage(level, "horde", "defender", 2) for level in range(3, 9)]
    assert "Damage, tier 2" in app.curves.layout.title.text


def test_grid_is_sortable_and_follows_the_picks(app):
    c = app.controls
    c["organizations"].value = ("platoon", "solo")
    c["roles"].value = ("brute", "hexer")
    c["levels"].value = (4, 4)
    c["sort_by"].value = "stamina"
    c["ascending"].value = False
    header = re.findall(r"<th>(.*?)</th>", app.grid.value)
    rows = cells(app.grid.value)
    stamina = [int(row[header.index("stamina")]) for row in rows]
    # level 4: solo (40 + 30) x 5 = 350, platoon brute 40 + 30 = 70, platoon hexer 40 + 10 = 50
    assert stamina == [350, 70, 50]
    assert [row[header.index("role")] for row in rows] == ["—", "brute", "hexer"]
    c["ascending"].value = True
    assert [int(row[header.index("stamina")]) for row in cells(app.grid.value)] == [50, 70, 350]


def test_what_if_shows_old_and_new_curves_and_the_differences(app):
    c = app.controls
    c["organizations"].value = ("solo",)
    c["quantity"].value = "stamina"
    c["levels"].value = (1, 3)
    assert "No number differs" in app.differences.value
    app.editors[("organizations", "solo", "stamina_modifier")].value = "4"
    old, new = app.whatif.data
    assert old.name == "solo (core)" and new.name == "solo (core (changed))"
    # Solo Stamina ((10 x L) + 30) x 5 as written, x 4 in the copy
    assert list(old.y) == [200, 250, 300]
    assert list(new.y) == [160, 200, 240]
    rows = cells(app.differences.value)
    assert [row[:3] + row[4:] for row in rows] == [
        ["1", "solo", "—", "200", "160", "-40"],
        ["2", "solo", "—", "250", "200", "-50"],
        ["3", "solo", "—", "300", "240", "-60"],
    ]
    assert "3 numbers differ" in app.differences.value
    assert app.variant.organizations["solo"].stamina_modifier == 4
    app.reset.click()
    assert "No number differs" in app.differences.value
    assert app.variant is app.rules


def test_a_table_row_can_be_edited(app):
    c = app.controls
    c["organizations"].value = ("platoon",)
    c["roles"].value = ("brute",)
    c["quantity"].value = "damage_tier1"
    c["levels"].value = (1, 1)
    # the "two or more additional targets" factor is not used at the expected count: no difference
    app.editors[("target_factors", 3, "factor")].value = "0.25"
    assert app.status.value == ""
    assert app.variant.target_factors[3].factor == Decimal("0.25")
    # the tier 1 modifier is: (4 + 1 + 1) x 0.5 = 3, + 2 = 5 instead of ceil(3.6) + 2 = 6
    app.editors[("tiers", "tier1")].value = "0.5"
    assert list(app.whatif.data[1].y) == [5]
    assert list(app.whatif.data[0].y) == [ref.damage(1, "platoon", "brute", 1)] == [6]


def test_bad_edit_is_reported_and_the_last_good_view_stays(app):
    app.editors[("organizations", "solo", "stamina_modifier")].value = "4"
    before = app.differences.value
    app.editors[("tiers", "tier2")].value = "one point one"
    assert "tiers.tier2" in app.status.value and "decimal" in app.status.value
    assert app.differences.value == before
    app.editors[("tiers", "tier2")].value = "1.1"
    assert app.status.value == ""


def test_decimals_are_edited_as_exact_text():
    editors = modifier_editors(core_ruleset())
    assert editors[("tiers", "tier2")].value == "1.1"
    assert editors[("organizations", "minion", "stamina_modifier")].value == "0.125"
    assert changes_from(core_ruleset(), editors) == {}
    editors[("roles", "brute", "damage_modifier")].value = 2
    assert changes_from(core_ruleset(), editors) == {"roles": {"brute": {"damage_modifier": 2}}}


def test_every_numeric_field_has_an_editor():
    editors = modifier_editors(core_ruleset())
    for role in core_ruleset().roles:
        assert ("roles", role, "stamina_modifier") in editors
    for organization in core_ruleset().organizations:
        assert ("organizations", organization, "ev_modifier") in editors
    assert ("options", "halved_damage_rounding") in editors
    assert not any(path[-1] == "description" for path in editors)
