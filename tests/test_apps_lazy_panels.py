"""A Tab's or an Accordion's panels made when first opened, and a tool's controls by name that make a panel
when one of its controls is asked for."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from workbench.apps.lazy_panels import LazyControls, LazyPanels


def maker(made: list[str], name: str) -> tuple[str, Callable[[], widgets.Widget]]:
    def make() -> widgets.Widget:
        made.append(name)
        return widgets.HTML(name)

    return name, make


def test_only_the_open_panel_is_made_then_each_when_first_opened_and_kept() -> None:
    made: list[str] = []
    tabs = LazyPanels(widgets.Tab, [maker(made, n) for n in ("first", "second", "third")])
    assert made == ["first"] and tabs.fold.titles == ("first", "second", "third") and tabs.fold.selected_index == 0
    assert [place.children for place in tabs.fold.children][1:] == [(), ()]  # empty places: nothing to draw
    tabs.fold.selected_index = 2  # the Director opens the third tab
    assert made == ["first", "third"] and tabs.fold.children[2].children == (tabs.panel(2),)
    tabs.fold.selected_index = 0
    tabs.fold.selected_index = 2
    assert made == ["first", "third"]  # kept, not made again
    assert not tabs.made(1)


def test_a_script_asks_for_a_panel_without_opening_it() -> None:
    made: list[str] = []
    fold = LazyPanels(widgets.Accordion, [maker(made, "shortcuts")], selected=None)
    assert made == [] and fold.fold.selected_index is None
    panel = fold.panel(0)
    assert made == ["shortcuts"] and fold.made(0) and fold.fold.selected_index is None
    assert fold.fold.children[0].children == (panel,)
    assert fold.panel(0) is panel
    fold.fold.selected_index = 0
    assert made == ["shortcuts"]


def test_controls_by_name_make_their_panel_once_when_one_is_asked_for() -> None:
    made: list[str] = []

    def panel() -> tuple[str, str]:
        made.append("panel")
        return "spec box", "add button"

    controls = LazyControls({"save": "save button"}, [(("spec", "add"), panel)])
    assert list(controls) == ["save", "spec", "add"] and len(controls) == 3 and "add" in controls
    assert made == []  # naming them makes nothing
    assert controls["save"] == "save button" and made == []
    assert controls["add"] == "add button" and controls["spec"] == "spec box"
    assert made == ["panel"]
    assert dict(controls) == {"save": "save button", "spec": "spec box", "add": "add button"}
    assert made == ["panel"]


def test_a_panel_made_later_has_its_labels_as_hover_words_as_the_page_has():
    fold = LazyPanels(widgets.Accordion, [("shortcuts", lambda: widgets.VBox([widgets.Text(description="Spec")]))],
                      selected=None)
    (spec,) = fold.panel(0).children
    assert spec.tooltip == "Spec"
