"""The charts' cut-down template (`charts.theme.WHITE`) styles every chart as plotly's "plotly_white" does."""

from __future__ import annotations

import ast

import plotly.graph_objects as go
import plotly.io as pio
from package_source import PACKAGE, nodes
from plotly.basedatatypes import BaseTraceType

from workbench.charts.scaling import curves_figure, scaling_figure
from workbench.charts.theme import TRACE_TYPES, UNDRAWN_LAYOUT, WHITE
from workbench.tables.stats import stat_table


def _trace_types_in_the_code() -> set[str]:
    """Every plotly trace type the workbench's code names (`go.Scatter(...)` -> "scatter")."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in nodes(path):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "go":
                kind = getattr(go, node.attr, None)
                if isinstance(kind, type) and issubclass(kind, BaseTraceType):
                    found.add(kind().type)
    return found


def test_every_trace_type_the_workbench_draws_keeps_plotly_whites_defaults():
    drawn = _trace_types_in_the_code()
    assert {"scatter", "bar", "box"} <= drawn  # the scan finds what the charts are known to draw
    assert drawn <= set(TRACE_TYPES), f"add {sorted(drawn - set(TRACE_TYPES))} to charts.theme.TRACE_TYPES"
    whole = pio.templates["plotly_white"]
    for kind in TRACE_TYPES:
        assert WHITE.data[kind] == whole.data[kind], kind


def _names_in_the_code() -> set[str]:
    """Every keyword, attribute and string the workbench's code writes (but the theme, which names the parts
    it leaves out)."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "charts" / "theme.py":
            continue
        for node in nodes(path):
            if isinstance(node, ast.keyword) and node.arg:
                found.add(node.arg)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def test_the_layout_is_plotly_whites_but_for_what_the_workbench_never_draws():
    whole = pio.templates["plotly_white"].layout.to_plotly_json()
    kept = WHITE.layout.to_plotly_json()
    assert set(UNDRAWN_LAYOUT) <= set(whole)  # each part left out is one plotly_white has
    assert kept == {part: value for part, value in whole.items() if part not in UNDRAWN_LAYOUT}
    # no chart asks for a part left out (`coloraxis=`, `layout.polar`, `"scene"`, a trace's `colorscale`) ...
    named = _names_in_the_code()
    for part in UNDRAWN_LAYOUT:
        assert not {name for name in named if name == part or name.startswith(part + "_")}, part
    # ... nor gives a continuous colour: every marker colour the charts set is a named one
    assert "showscale" not in named and "cmin" not in named and "cmax" not in named


def test_the_data_defaults_are_left_out_but_for_the_trace_types_drawn():
    whole = pio.templates["plotly_white"]
    styled = {kind for kind, defaults in whole.data.to_plotly_json().items() if defaults}
    assert {kind for kind, defaults in WHITE.data.to_plotly_json().items() if defaults} == styled & set(TRACE_TYPES)
    assert len(WHITE.to_plotly_json()["data"]) < len(whole.to_plotly_json()["data"])


def test_the_white_charts_carry_the_cut_template():
    table = stat_table()
    for figure in (scaling_figure(table, 5, "elite", "brute", "stamina", "role"),
                   curves_figure(table, "stamina", [("solo", None)])):
        assert figure.layout.template == WHITE
