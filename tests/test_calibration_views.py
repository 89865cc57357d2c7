"""The calibration's frames, figures, HTML and app: shapes, hover names, escaping, and the app's wiring."""

from __future__ import annotations

import pytest

from workbench.calibration.fit import QUANTITIES, calibrate, compare_variants, fit_report
from workbench.errors import InvalidInput
from workbench.formats.bestiary import parse_stat_block, sample_bestiary
from workbench.monster.formulas import build_monster
from workbench.rules.ruleset import core_ruleset


@pytest.fixture(scope="module")
def sample():
    return sample_bestiary().monsters


@pytest.fixture(scope="module")
def results(sample):
    return calibrate(sample)


def _hostile(name="<img src=x onerror=alert(1)>"):
    return parse_stat_block({
        "name": name, "level": 2, "roles": ["Platoon Brute"], "ev": "8", "stamina": "50", "free_strike": 4,
        "might": 2, "agility": 0, "reason": 0, "intuition": 0, "presence": 0,
        "features": [{"name": "<b>Smash</b>", "ability_type": "Signature Ability", "keywords": ["Melee", "Strike"],
                      "target": "One creature <i>or</i> object",
                      "effects": [{"tier1": "6 damage", "tier2": "9 damage", "tier3": "12 damage"}]}],
    })


def test_published_table_has_a_row_per_stat_block(sample):
    from workbench.tables.calibration import published_table

    frame = published_table(sample)
    assert len(frame) == len(sample)
    runner = frame[frame["name"] == "Goblin Runner"].iloc[0]
    assert runner["ev"] == 3  # "3 for four minions", as printed


def test_comparison_table_residuals_and_fit_table_agree_with_pandas(results):
    from workbench.tables.calibration import comparison_table, fit_table

    frame = comparison_table(results)
    assert len(frame) == len(results) * len(QUANTITIES)
    assert (frame["residual"] == frame["predicted"] - frame["printed"]).all()
    by_org = fit_table(results, by="organization")
    for (org, quantity), group in frame.groupby(["organization", "quantity"]):
        row = by_org[(by_org["organization"] == org) & (by_org["quantity"] == quantity)].iloc[0]
        assert row["exact_rate"] == pytest.approx((group["residual"] == 0).mean())
        assert row["mean_abs_error"] == pytest.approx(group["residual"].abs().mean())
        assert row["median_abs_error"] == pytest.approx(group["residual"].abs().median())


def test_calibration_table_is_wide(results):
    from workbench.tables.calibration import calibration_table

    frame = calibration_table(results)
    assert len(frame) == len(results)
    for q in QUANTITIES:
        assert (frame[f"{q} residual"] == frame[f"{q} predicted"] - frame[f"{q} printed"]).all()


def test_variant_table_marks_one_best_and_the_written_first(sample):
    from workbench.tables.calibration import variant_table

    frame = variant_table(compare_variants(sample))
    assert len(frame) == 8
    assert frame["best"].sum() == 1
    assert frame["as_written"].tolist() == [True] + [False] * 7
    assert frame.loc[frame["best"], "total_abs_error"].iloc[0] == frame["total_abs_error"].min()


def test_published_traces_hover_names_every_monster(sample):
    from workbench.charts.calibration import published_traces

    traces = published_traces(sample, "stamina")
    hovered = [h for t in traces for h in t.hovertext]
    assert len(hovered) == len(sample)
    for m in sample:
        assert any(f"<b>{m.name}</b>" in h and f"Stamina: {m.stamina}" in h for h in hovered)


def test_published_traces_escape_names():
    from workbench.charts.calibration import published_traces

    (trace,) = published_traces([_hostile()], "stamina")
    assert "<img" not in trace.hovertext[0] and "&lt;img" in trace.hovertext[0]


def test_formula_curves_are_the_formulas_and_points_are_printed(sample):
    from workbench.charts.calibration import formula_curves_figure

    figure = formula_curves_figure(sample, "stamina", levels=range(1, 11))
    lines = [t for t in figure.data if t.mode == "lines"]
    points = [t for t in figure.data if t.mode == "markers"]
    assert sum(len(t.x) for t in points) == len(sample)
    solo = next(t for t in lines if t.name == "formula solo")
    assert list(solo.y) == [build_monster(level, "solo").stamina for level in range(1, 11)]


def test_a_bad_quantity_is_refused(sample):
    from workbench.charts.calibration import formula_curves_figure

    with pytest.raises(InvalidInput) as caught:
        formula_curves_figure(sample, "charisma")
    assert caught.value.code == "invalid-quantity"


def test_other_figures_build(sample, results):
    from workbench.charts.calibration import predicted_vs_printed_figure, residual_figure, variant_figure

    assert len(predicted_vs_printed_figure(results, "free_strike").data) >= 2
    assert sum(len(t.y) for t in residual_figure(results).data) == len(results) * len(QUANTITIES)
    assert len(variant_figure(compare_variants(sample)).data[0].x) == 8


def test_closest_published_html_escapes_and_lists_three(sample):
    from workbench.render.calibration import closest_published_html

    m = build_monster(2, "platoon", "brute").model_copy(update={"name": "<Grug & co>"})
    html = closest_published_html(m, [*sample, _hostile()])
    assert "&lt;Grug &amp; co&gt;" in html and "<Grug" not in html
    assert "&lt;img" in html and "<img" not in html  # the hostile block is the nearest (same everything)
    assert html.count("<tr>") == 1 + 3  # the header and three published monsters (the built row is styled)


def test_fit_report_html_has_every_number(results):
    from workbench.render.calibration import LABELS, fit_report_html

    html = fit_report_html(fit_report(results, by="organization"), title="<by organization>")
    assert "&lt;by organization&gt;" in html
    for label in LABELS.values():
        assert label in html


def test_calibration_app_controls_drive_the_plot_and_report(sample):
    from workbench.apps.calibration import calibration_app

    app = calibration_app(sample)
    quantity, organization = app.children[0].children
    round_down, minion_characteristic, extra = app.children[1].children
    report, slot = app.children[2], app.children[3]  # the summary and fit first; the chart's slot (a new FigureWidget per change) under them
    organization.value = "solo"
    names = {n for t in slot.figure.data if t.mode == "markers" for n in t.text}
    assert names == {m.name for m in sample if m.organization == "solo"}
    assert "Fit of 3 published monster(s)" in report.value
    before = report.value
    extra.value = True
    assert report.value != before and "extra Stamina" in report.value
    quantity.value = "free_strike"
    assert "Free strike" in slot.figure.layout.yaxis.title.text


def test_closest_published_widget(sample):
    from workbench.apps.calibration import closest_published_widget

    widget = closest_published_widget(build_monster(5, "solo"), sample)
    assert "Medusa" in widget.value


def test_the_builder_shows_the_three_closest_published_monsters(tmp_path):
    from workbench.apps.builder import monster_builder
    from workbench.calibration.fit import closest_published
    from workbench.formats.bestiary import sample_bestiary

    app = monster_builder(folder=tmp_path)
    app.controls["organization"].value = "solo"
    app.controls["level"].value = 5
    # under the stat block, in the same view (one message a change)
    closest = app.stat_block.value.split('<div class="wb-closest-published">', 1)[1]
    expected = closest_published(build_monster(5, "solo"), sample_bestiary().monsters)
    for published in expected:
        assert f"<td>{published.name}</td>" in closest
    assert closest.count("<tr>") == 1 + 3


def test_published_points_can_be_added_to_any_curves_figure(sample):
    import plotly.graph_objects as go

    from workbench.charts.calibration import add_published_points

    figure = add_published_points(go.Figure(), sample, "free_strike", pairs=[("minion", "brute"), ("solo", None)])
    names = {n for t in figure.data for n in t.text}
    assert names == {m.name for m in sample if (m.organization, m.role) in {("minion", "brute"), ("solo", None)}}
    # a number the stat blocks don't print adds nothing
    assert len(add_published_points(go.Figure(), sample, "potency_tier3").data) == 0


def test_the_explorer_shows_published_points_over_its_curves(sample):
    from workbench.apps.explorer import scaling_explorer

    def published(figure):
        return [t for t in figure.data if str(t.name).startswith("published")]

    app = scaling_explorer()
    c = app.controls
    # On from the start, in the figure as first built (a FigureWidget's changes before its first display
    # never reach the page): default picks platoon, elite, solo × brute, artillery, levels 1 to 10.
    default_pairs = {(o, r) for o in ("platoon", "elite") for r in ("brute", "artillery")} | {("solo", None)}
    first = {n for t in published(app.curves) for n in t.text}
    assert first and first == {m.name for m in sample if (m.organization, m.role) in default_pairs and m.level <= 10}
    c["organizations"].value = ("minion", "solo")
    c["roles"].value = ("brute",)
    c["levels"].value = (1, 4)
    points = published(app.curves)
    shown = {n for t in points for n in t.text}
    assert shown == {m.name for m in sample
                     if (m.organization, m.role) in {("minion", "brute"), ("solo", None)} and m.level <= 4}
    assert all("<b>" in h for t in points for h in t.hovertext)
    c["quantity"].value = "potency_tier3"  # not printed as a number in the stat blocks: no points
    assert not published(app.curves)
    c["quantity"].value = "stamina"
    assert published(app.curves)
    c["published"].value = False  # the Director can hide them
    assert not published(app.curves)


def test_formula_curves_title_escapes_the_ruleset_name(sample):
    from workbench.charts.calibration import formula_curves_figure

    rules = core_ruleset().updated({"name": "<b>mine</b>"})
    title = formula_curves_figure(sample[:3], "stamina", ruleset=rules).layout.title.text
    assert "&lt;b&gt;mine&lt;/b&gt;" in title and "<b>" not in title


def test_published_traces_filter_and_skip_unprinted_damage(sample):
    from workbench.charts.calibration import published_traces

    solos = published_traces(sample, "damage_tier1", organizations=["solo"], roles=[None])
    assert [t.name for t in solos] == ["published solo"]
    # each point is the stat block's own first signature tier, read from the bestiary, at its level
    expected = {(m.level, m.signature.damage[0], m.name) for m in sample if m.organization == "solo"}
    assert set(zip(solos[0].x, solos[0].y, solos[0].text, strict=False)) == expected
    brutes = published_traces(sample, "stamina", roles=["brute"])
    assert {n for t in brutes for n in t.text} == {m.name for m in sample if m.role == "brute"}
    no_damage = parse_stat_block({
        "name": "Gazer", "level": 2, "roles": ["Platoon Hexer"], "ev": "8", "stamina": "40", "free_strike": 2,
        "might": 0, "agility": 0, "reason": 2, "intuition": 0, "presence": 0,
        "features": [{"name": "Stare", "ability_type": "Signature Ability", "keywords": ["Magic"],
                      "target": "One creature", "effects": [{"tier1": "slowed", "tier2": "dazed", "tier3": "restrained"}]}],
    })
    assert published_traces([no_damage], "damage_tier2") == []
    assert len(published_traces([no_damage], "stamina")) == 1
