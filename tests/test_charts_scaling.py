"""Scaling charts and the grid slices under them: the right numbers in the right traces."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest
import rules_reference as ref

from workbench import core_ruleset, stat_table
from workbench.charts.scaling import (
    OTHER_COLOUR,
    THIS_COLOUR,
    curves_figure,
    scaling_figure,
    update_scaling_figure,
)
from workbench.tables.scaling import (
    QUANTITIES,
    curve,
    neighbours,
    pick_rows,
    ruleset_differences,
    sort_grid,
)

LEVELS = range(1, 11)


@pytest.fixture(scope="module")
def table():
    return stat_table(LEVELS)


def test_curve_is_the_number_at_every_level(table):
    line = curve(table, "elite", "brute", "stamina")
    assert line["level"].tolist() == list(LEVELS)
    # Stamina = ((10 x Level) + 30) x 2 for an elite brute
    assert line["value"].tolist() == [(10 * level + 30) * 2 for level in LEVELS]


def test_scaling_figure_marks_this_monster(table):
    fig = scaling_figure(table, 5, "elite", "brute", "stamina", "role")
    line, mark, bars = fig.data
    assert list(line.x) == list(LEVELS)
    assert list(mark.x) == [5] and list(mark.y) == [160]  # ((10 x 5) + 30) x 2
    # the same level's other roles, as elites: Stamina ((10 x 5) + role modifier) x 2
    expected = {f"elite {r}": ref.stamina(5, "elite", r) for r in ref.ROLES}
    assert dict(zip(bars.x, bars.y, strict=False)) == expected
    colours = dict(zip(bars.x, bars.marker.color, strict=False))
    assert colours["elite brute"] == THIS_COLOUR
    assert colours["elite hexer"] == OTHER_COLOUR
    assert "Stamina" in fig.layout.title.text


def test_organizations_comparison(table):
    fig = scaling_figure(table, 3, "horde", "artillery", "ev", "organization")
    bars = fig.data[2]
    expected = {f"{o} artillery": ref.ev(3, o) for o in ("minion", "horde", "platoon", "elite")}
    expected |= {"leader": ref.ev(3, "leader"), "solo": ref.ev(3, "solo")}
    assert dict(zip(bars.x, bars.y, strict=False)) == expected


def test_roleless_monster_compares_with_elites(table):
    bars = neighbours(table, 2, "solo", None, "free_strike", "role")
    assert "elite brute" in bars["label"].tolist() and "leader" in bars["label"].tolist()
    assert bars[bars["this"]]["label"].tolist() == ["solo"]
    # Level 2 solo free strike: (4 + 2 + 2) x 0.6 = 4.8 -> 5
    assert bars[bars["this"]]["value"].tolist() == [5]


def test_update_in_place_changes_the_numbers(table):
    widget = go.FigureWidget(scaling_figure(table, 1, "platoon", "brute", "stamina"))
    update_scaling_figure(widget, table, 7, "solo", None, "ev", "organization")
    assert len(widget.data) == 3
    assert list(widget.data[1].x) == [7]
    assert list(widget.data[1].y) == [ref.ev(7, "solo")]  # ((2 x 7) + 4) x 6 = 108
    assert list(widget.data[0].y) == [ref.ev(level, "solo") for level in LEVELS]
    assert "EV" in widget.layout.title.text and "solo" in widget.layout.title.text


def test_unknown_quantity_is_refused(table):
    with pytest.raises(ValueError, match="quantity"):
        scaling_figure(table, 1, "platoon", "brute", "wisdom")


def test_curves_figure_with_a_variant(table):
    variant = stat_table(LEVELS, ruleset=core_ruleset().updated(
        {"organizations": {"solo": {"stamina_modifier": 4}}}
    ))
    fig = curves_figure(variant, "stamina", [("solo", None), ("platoon", "brute")], old_table=table)
    names = [trace.name for trace in fig.data]
    assert names == ["solo (old)", "solo (new)", "platoon brute (old)", "platoon brute (new)"]
    old, new = fig.data[0], fig.data[1]
    assert old.line.dash == "dash"
    # Solo Stamina ((10 x Level) + 30) x 5, and x 4 in the variant
    assert list(old.y) == [(10 * level + 30) * 5 for level in LEVELS]
    assert list(new.y) == [(10 * level + 30) * 4 for level in LEVELS]
    assert list(fig.data[2].y) == list(fig.data[3].y)  # platoons are untouched


def test_ruleset_differences_lists_only_what_changed(table):
    variant = stat_table(LEVELS, ruleset=core_ruleset().updated(
        {"organizations": {"solo": {"stamina_modifier": 4}}}
    ))
    diff = ruleset_differences(table, variant)
    assert set(diff["organization"]) == {"solo"}
    assert set(diff["number"]) == {"Stamina"}
    assert len(diff) == len(LEVELS)
    first = diff.iloc[0]
    # Level 1 solo: (10 + 30) x 5 = 200 -> (10 + 30) x 4 = 160
    assert (first["level"], first["old"], first["new"], first["change"]) == (1, 200, 160, -40)
    assert ruleset_differences(table, table).empty


def test_pick_and_sort(table):
    rows = pick_rows(table, ["elite", "solo"], ["brute", None], [5])
    assert sorted(zip(rows["organization"], rows["role"].fillna("-"), strict=False)) == [("elite", "brute"), ("solo", "-")]
    ordered = sort_grid(pick_rows(table, levels=[5]), "stamina", ascending=False)
    # the toughest level 5 monster is the solo: ((10 x 5) + 30) x 5 = 400
    assert ordered.iloc[0]["organization"] == "solo" and ordered.iloc[0]["stamina"] == 400
    assert ordered["stamina"].is_monotonic_decreasing
    with pytest.raises(ValueError, match="by"):
        sort_grid(table, "charisma")


def test_every_quantity_is_a_column(table):
    assert set(QUANTITIES) <= set(table.columns)


def test_in_place_update_keeps_the_synced_widget_state(table):
    # A browser view that starts after the update must draw the new state (plotly's synced traits).
    widget = go.FigureWidget(scaling_figure(table, 1, "platoon", "brute", "stamina"))
    update_scaling_figure(widget, table, 4, "platoon", "brute", "stamina")
    # ((10 x 4) + 30) x 1 = 70
    state = widget.get_state()  # what a browser view that starts now is sent
    assert list(state["_widget_data"][1]["y"]) == [70]
    assert "level 4" in state["_widget_layout"]["title"]["text"]
