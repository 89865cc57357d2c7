"""Refusals in words for people: the rule's reason first, never a repr or `got '…'`; a control's label its hover
words."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

import workbench as wb
from workbench.apps.message import plain_tooltips_as_made, refusal_html, refusal_text
from workbench.fight.malice_features import basic_malice_features
from workbench.fight.malice_tracker import MaliceTracker


def test_malicious_strike_two_rounds_in_a_row_says_the_rule():
    strike = [f for f in basic_malice_features() if f.name == "Malicious Strike"][0]
    orc = wb.build_monster(2, "platoon", "brute").model_copy(update={"name": "Orc"})
    tracker = MaliceTracker(5, 3)
    tracker.start_round()
    tracker.spend(strike, 5, orc)
    tracker.start_round()
    try:
        tracker.spend(strike, 5, orc)
    except wb.InvalidInput as exc:
        text = refusal_text(exc)
    assert text.startswith("Malicious Strike was used in round 1; it can't be used two rounds in a row.")
    assert "got" not in text and "'" not in text.split("row.")[0].replace("can't", "")


def test_without_a_reason_it_says_what_the_field_takes_and_escapes():
    exc = wb.InvalidInput("deaths", "<b>two</b>", "ROUND:COUNT pairs, e.g. 2:1")
    assert refusal_text(exc) == "Deaths takes ROUND:COUNT pairs, e.g. 2:1."
    assert "<b>" not in refusal_html(wb.InvalidInput("x", 1, "<b>bold</b>"))


def test_controls_made_in_the_block_are_sent_with_their_labels_as_hover_words_and_only_those():
    with plain_tooltips_as_made():
        spec = widgets.Text(description="Spec")
        plain = widgets.HTML("no label")
    assert spec.tooltip == "Spec" and plain.tooltip is None
    assert spec.get_state()["tooltip"] == "Spec"  # in the state the browser is first sent
    with pytest.raises(RuntimeError), plain_tooltips_as_made():
        raise RuntimeError("a tool that cannot be built")
    assert widgets.Text(description="After").tooltip is None  # the callback is unset, whatever happened
