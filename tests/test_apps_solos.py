"""The solos app without a browser: set the controls from Python, read the rendered numbers and the figure."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.apps.solos import DRIFT_LEVELS, solos_app
from workbench.charts.solo import DRIFT_QUANTITIES, solo_figure, solo_figure_parts, update_solo_figure
from workbench.formats.bestiary import sample_bestiary
from workbench.formats.stat_block import whole_stat_block
from workbench.model import Monster
from workbench.monster.solo import compare_solos, solo_drift

ROLES = ["ambusher", "artillery", "brute", "controller", "defender", "harrier", "hexer", "mount", "support"]


@pytest.fixture
def app():
    """An app of its own for each test: the tests move its controls."""
    return solos_app()


@pytest.fixture(scope="module")
def moved_app():
    """One app for all the examples of the property below, which moves its controls from wherever the example
    before left them, as a Director does (only that test uses it)."""
    return solos_app()


def cell(html: str, quantity: str, which: str) -> int:
    row = re.search(rf'data-quantity="{quantity}">(.*?)</tr>', html).group(1)
    return int(re.search(rf'<td class="wb-{which}">(\d+)</td>', row).group(1))


def test_starts_on_a_level_5_leader(app):
    html = app.comparison_view.value
    # leader EV (2 × 5 + 4) × 2 = 28 -> 84; solo (2 × 5 + 4) × 6 = 84
    assert (cell(html, "ev", "instant"), cell(html, "ev", "built")) == (84, 84)
    # leader Stamina (50 + 30) × 2 = 160 -> 400; solo (50 + 30) × 5 = 400
    assert (cell(html, "stamina", "instant"), cell(html, "stamina", "built")) == (400, 400)
    assert app.role.disabled and app.role.value == ""  # "" is the no-role option
    assert isinstance(app.figure, go.FigureWidget)
    assert tuple(app.figure.data[0].y) == (84, 400) and tuple(app.figure.data[1].y) == (84, 400)
    assert '<span class="wb-kind">Leader, instant solo</span>' in app.stat_blocks.value


def test_elite_role_and_level_reach_every_output(app):
    app.organization.value = "elite"
    assert not app.role.disabled and app.role.value != ""
    app.role.value = "artillery"
    app.level.value = 3
    html = app.comparison_view.value
    # elite artillery level 3: Stamina (30 + 10) × 2 = 80 -> 200; built solo (30 + 30) × 5 = 300
    assert (cell(html, "stamina", "instant"), cell(html, "stamina", "built")) == (200, 300)
    assert tuple(app.figure.data[0].y) == (60, 200)  # EV (2 × 3 + 4) × 2 × 3 = 60
    stamina_line = app.figure.data[4 + DRIFT_QUANTITIES.index("Stamina")]
    # built over instant at level 1: elite artillery (10 + 10) × 2 × 2.5 = 100, solo (10 + 30) × 5 = 200
    assert stamina_line.x[0] == 1 and stamina_line.y[0] == pytest.approx(100.0)
    assert "Stamina: the built solo has 100 more (300 against 200)" in html
    assert '<span class="wb-kind">Elite Artillery, instant solo</span>' in app.stat_blocks.value
    app.extra_stamina.value = True
    # with extra Stamina: (80 + 3 × 3 + 3) × 2.5 = 230; built 300 + 12 = 312
    html = app.comparison_view.value
    assert (cell(html, "stamina", "instant"), cell(html, "stamina", "built")) == (230, 312)
    app.extra_stamina.value = False
    app.organization.value = "leader"
    assert app.role.value == "" and app.role.disabled
    assert app.comparison.source.organization == "leader"
    assert app.error.value == ""


@settings(max_examples=25, deadline=None)
@given(level=st.integers(1, 20), organization=st.sampled_from(["leader", "elite"]), role=st.sampled_from(ROLES),
       extra=st.booleans())
def test_every_slider_combination_shows_the_library_numbers(moved_app, level, organization, role, extra):
    app = moved_app
    app.organization.value = organization
    if organization == "elite":
        app.role.value = role
    app.extra_stamina.value = extra
    app.level.value = level
    role_or_none = role if organization == "elite" else None
    expected = compare_solos(wb.build_monster(level, organization, role_or_none, extra_stamina=extra))
    html = app.comparison_view.value
    for row in expected.rows:
        slug = row.quantity.lower().replace(",", "").replace(" ", "-")
        assert (cell(html, slug, "instant"), cell(html, slug, "built")) == (row.instant, row.built)
    assert tuple(app.figure.data[2].y) == expected.instant.damage.as_tuple()
    assert tuple(app.figure.data[3].y) == expected.built.damage.as_tuple()
    # the drift lines (kept between Level moves) are the library's for this organization, role and Extra Stamina
    drift = solo_figure_parts(expected, solo_drift(organization, role_or_none, DRIFT_LEVELS, extra_stamina=extra))
    assert [tuple(trace.y) for trace in app.figure.data[4:]] == [tuple(line["y"]) for line in drift["lines"]]


def test_figure_is_data_in_figure_out():
    comparison = compare_solos(wb.build_monster(4, "elite", "brute"))
    drift = solo_drift("elite", "brute")
    fig = solo_figure(comparison, drift)
    assert len(fig.data) == 4 + len(DRIFT_QUANTITIES)
    # EV line: an elite's × 2 × 3 equals a solo's × 6 at every level -> 0 %
    assert set(fig.data[4 + DRIFT_QUANTITIES.index("EV")].y) == {0.0}
    other = compare_solos(wb.build_monster(8, "leader"))
    update_solo_figure(fig, other, solo_drift("leader"))
    # level 8 leader: EV (16 + 4) × 2 × 3 = 120
    assert tuple(fig.data[0].y)[0] == 120
    assert "Level 8 Leader" in fig.layout.title.text


# ---------------------------------------------------------------- a whole monster the Director has

SAMPLE = sample_bestiary()


def whole(name: str) -> Monster:
    return whole_stat_block(SAMPLE, SAMPLE.named(name))


def test_a_picked_published_elite_is_adapted_with_its_own_printed_numbers(app):
    printed = SAMPLE.named("Bugbear Roughneck")  # the header as printed: Stamina 109, EV 16
    formulas = wb.build_monster(printed.level, printed.organization, printed.role)
    assert printed.stamina != formulas.stamina  # the formulas give a level 2 elite brute other Stamina
    app.offer([("in the encounter", [whole("Bugbear Roughneck"), whole("Goblin Runner"), whole("Goblin Warrior")])])
    labels = [label for label, _ in app.picker.options]
    # the minion and the horde cannot become an instant solo: not offered
    assert labels == ["Built from the sliders", "Bugbear Roughneck (in the encounter)"]
    assert app.picker.value == app.picker.options[0][1]  # the sliders' monster until one is picked
    app.picker.value = app.picker.options[1][1]
    html = app.comparison_view.value
    # "Multiply their Stamina by 2.5", rounded up; "Multiply their EV by 3": of its printed 109 and 16
    assert cell(html, "stamina", "instant") == math.ceil(Fraction(printed.stamina) * Fraction(5, 2)) == 273
    assert cell(html, "ev", "instant") == printed.ev * 3
    assert cell(html, "stamina", "instant") != math.ceil(Fraction(formulas.stamina) * Fraction(5, 2))
    assert app.comparison.source.name == "Bugbear Roughneck"
    blocks = app.stat_blocks.value
    assert "Haymaker" in blocks and "Bugbear" in blocks  # its printed ability and keywords
    assert '<span class="wb-kind">Elite Brute, instant solo</span>' in blocks
    assert all(c.disabled for c in (app.level, app.organization, app.role, app.extra_stamina))
    assert "Bugbear Roughneck (in the encounter)" in app.shown_monster.value
    assert "own Stamina is 109" in html  # the plain words say where 273 comes from
    app.picker.value = app.picker.options[0][1]  # back to the sliders: a level 5 leader, as at the start
    assert not app.level.disabled and app.shown_monster.value == ""
    assert cell(app.comparison_view.value, "stamina", "instant") == 400


def test_the_picked_monster_stays_picked_while_offered_and_the_sliders_return_when_it_goes(app):
    monarch, roughneck = whole("Goblin Monarch"), whole("Bugbear Roughneck")
    app.offer([("in the encounter", [roughneck, monarch])])
    app.picker.value = 1  # the Goblin Monarch
    app.offer([("in the encounter", [monarch]), ("in the builder", [])])
    assert app.picked == monarch and app.comparison.source == monarch
    app.offer([("in the encounter", [])])
    assert app.picked is None and not app.level.disabled
    assert app.comparison.source.name == "" and app.comparison.source.level == 5


def test_a_monster_already_an_instant_solo_or_a_solo_is_not_offered(app):
    leader = wb.build_monster(3, "leader")
    app.offer([("in the builder", [wb.instant_solo(leader), wb.build_monster(3, "solo"), leader])])
    assert [label for label, _ in app.picker.options] == ["Built from the sliders", "leader (in the builder)"]


def test_offering_monsters_while_the_sliders_monster_is_shown_draws_nothing_again(app):
    """The workbench page offers the encounter's and the builder's monsters as the tool opens: the comparison shown
    is still the sliders' monster's, and is not worked out and drawn a second time."""
    chart, block = app.chart.figure, app.stat_blocks.value
    app.offer([("in the encounter", [whole("Bugbear Roughneck")])])
    assert app.picker.value == app.picker.options[0][1]
    assert app.chart.figure is chart and app.stat_blocks.value == block
    app.picker.value = app.picker.options[1][1]  # picking one draws it
    assert app.stat_blocks.value != block
