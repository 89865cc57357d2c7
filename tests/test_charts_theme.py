"""The charts' cut-down template (`charts.theme.WHITE`) styles every chart as plotly's "plotly_white" does."""

from __future__ import annotations

import ast

import plotly.graph_objects as go
import plotly.io as pio
from package_source import PACKAGE, nodes
from plotly.basedatatypes import BaseTraceType

from workbench.charts.scaling import curves_figure, scaling_figure
from workbench.charts.theme import TRACE_TYPES, WHITE
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


def test_the_layout_is_plotly_whites_whole_and_the_rest_is_left_out():
    whole = pio.templates["plotly_white"]
    assert WHITE.layout == whole.layout
    styled = {kind for kind, defaults in whole.data.to_plotly_json().items() if defaults}
    assert {kind for kind, defaults in WHITE.data.to_plotly_json().items() if defaults} == styled & set(TRACE_TYPES)
    assert len(WHITE.to_plotly_json()["data"]) < len(whole.to_plotly_json()["data"])


def test_the_white_charts_carry_the_cut_template():
    table = stat_table()
    for figure in (scaling_figure(table, 5, "elite", "brute", "stamina", "role"),
                   curves_figure(table, "stamina", [("solo", None)])):
        assert figure.layout.template == WHITE
