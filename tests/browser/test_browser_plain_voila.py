"""A lesson with charts served by plain `voila notebooks/NN.ipynb`, as the README allows, not `workbench app`:
the page draws its charts with no console or page error (conftest.py fails the test on any).

Why this page: its static figure (a cell ending in a go.Figure) used to go through JupyterLab's plotly renderer,
which raised `r.setData is not a function` under Voilà (see workbench/charts/page_renderer.py); its app holds a
FigureWidget beside it, so both kinds of chart are on the page.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from voila_page import AppPage
from voila_server import PAGE_TIMEOUT, running_server

from workbench.server.app import HOST, free_port

LESSON = Path(__file__).resolve().parents[2] / "notebooks" / "05_malice_and_minions.ipynb"  # not NOTEBOOK: open_app preloads those
DRAWN = "#rendered_cells .js-plotly-plot .main-svg"
CHARTS = 2  # the Malice figure (a cell's output) and the planner app's FigureWidget


@pytest.fixture(scope="module")
def plain_voila(artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`voila LESSON` on a free port, with nothing of the workbench's (no template, token or guard)."""
    port = free_port()
    env = dict(os.environ, HOME=str(tmp_path_factory.mktemp("plain-voila-home")))
    command = [sys.executable, "-m", "voila", str(LESSON), "--no-browser", f"--port={port}", f"--Voila.ip={HOST}"]
    with running_server(command, port, artifacts_dir / "plain-voila-server.log", env) as url:
        yield url + "/"


def test_a_lesson_with_charts_under_plain_voila_has_no_page_error(browser, plain_voila, artifacts_dir, page_errors):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    app = AppPage(context.new_page(), f"plain-voila-{LESSON.stem}", artifacts_dir, page_errors)
    # Voilà's own template asks a CDN for icon fonts: answered here, empty (the browser resolves no other host)
    app.page.route(re.compile(rf"^https?://(?!{re.escape(HOST)}[:/])"), app.answer_offline)
    try:
        app.page.goto(plain_voila, timeout=PAGE_TIMEOUT)
        app.page.wait_for_function("([css, n]) => document.querySelectorAll(css).length >= n", arg=[DRAWN, CHARTS],
                                   timeout=PAGE_TIMEOUT)
        assert app.page.locator("#rendered_cells").inner_text().count("Traceback") == 0
        app.page.wait_for_load_state("networkidle")  # the renderers' work after drawing (where setData was)
        app.screenshot("page")
        assert app.console_errors == []
    finally:
        app.close()
