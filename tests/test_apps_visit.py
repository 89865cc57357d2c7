"""A page built before its visit (Voilà's preheated kernels): it is built again at the visit exactly when the
Director's folder changed in between, waits only in a preheated kernel, and points charts at the server's
copy of plotly's JavaScript only under `workbench app`."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from workbench.apps import visit
from workbench.apps.pages import fight_page, solos_page
from workbench.charts.page_renderer import BUNDLE_VARIABLE
from workbench.encounter.encounter import Encounter
from workbench.encounter.party import make_party
from workbench.fight.workspace import Workspace, save_workspace


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    monkeypatch.delenv(visit.PREHEAT_VARIABLE, raising=False)
    monkeypatch.delenv(BUNDLE_VARIABLE, raising=False)


def _level(page) -> int:
    """The solos page's Level slider (the page opens at the party's level)."""
    stack = [page]
    while stack:
        w = stack.pop(0)
        if isinstance(w, widgets.IntSlider) and w.description == "Level":
            return w.value
        stack.extend(getattr(w, "children", ()))
    raise AssertionError("no Level slider")


def test_a_page_is_built_again_when_another_page_saved_meanwhile():
    """The solos page was preheated for a level 1 party; before the visit the encounter page saved a level 7
    party: the visitor sees level 7."""
    def another_page_saves() -> None:
        save_workspace(Workspace(encounter=Encounter(party=make_party(heroes=4, level=7))))

    built = []

    def build():
        built.append(solos_page())
        return built[-1]

    page = visit.page_for_visit(build, wait=another_page_saves)
    assert len(built) == 2 and page is built[1]
    assert _level(built[0]) == 1 and _level(page) == 7
    assert built[0].comm is None  # the page built before the visit is closed, its widgets with it
    assert all(child.comm is None for child in built[0].children)


def test_an_unchanged_folder_keeps_the_page_built_before_the_visit():
    save_workspace(Workspace(encounter=Encounter(party=make_party(heroes=4, level=3))))
    built = []
    page = visit.page_for_visit(lambda: built.append(fight_page()) or built[-1], wait=lambda: None)
    assert built == [page] and page.comm is not None


def test_outside_a_preheated_kernel_nothing_waits(monkeypatch):
    monkeypatch.setenv(visit.PREHEAT_VARIABLE, "False")  # a kernel Voilà started for the visit
    visit.wait_for_visit()  # returns at once: no server to ask
    assert not visit.preheated()


def test_a_preheated_kernel_waits_once_for_its_visit(monkeypatch):
    import voila.utils

    calls = []
    monkeypatch.setattr(voila.utils, "wait_for_request", lambda: calls.append(1))
    monkeypatch.setenv(visit.PREHEAT_VARIABLE, "True")
    assert visit.preheated()
    visit.wait_for_visit()
    visit.wait_for_visit()  # the page is visited now: nothing more to wait for
    assert calls == [1] and not visit.preheated()


def test_charts_load_plotly_from_the_server_only_under_workbench_app(monkeypatch):
    import plotly.graph_objects as go
    from plotly.basewidget import BaseFigureWidget

    carried = BaseFigureWidget._esm
    assert not visit.load_plotly_from_server()  # no workbench app: charts carry their JavaScript
    assert len(str(go.FigureWidget()._esm)) > 1_000_000
    monkeypatch.setattr(BaseFigureWidget, "_esm", carried)  # restored after the test
    monkeypatch.setenv(BUNDLE_VARIABLE, "voila/static/plotly-widget-9.js?v=9")
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    assert visit.load_plotly_from_server()
    shim = go.FigureWidget()._esm
    assert '"/base/voila/static/plotly-widget-9.js?v=9"' in shim and len(shim) < 500
    assert "export default" in shim
