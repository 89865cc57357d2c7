"""notebooks/00_start_here.ipynb in Voilà: no app, but `workbench app` lists it first, so it must render whole."""

from __future__ import annotations

import workbench as wb

NOTEBOOK = "00_start_here.ipynb"


def test_start_here_renders_its_examples_without_errors(open_app):
    brute = wb.build_monster(level=5, organization="elite", role="brute")  # the notebook's first monster
    page = open_app(NOTEBOOK, f'.wb-stat-block[data-ev="{brute.ev}"]')
    try:
        shown = page.page.locator(".wb-stat-block")
        assert shown.locator(".wb-ev").first.inner_text() == str(brute.ev)
        assert shown.locator(".wb-stamina").first.inner_text() == str(brute.stamina)
        text = page.page.locator("body").inner_text()
        minion = wb.build_monster(level=1, organization="minion", role="brute")
        assert f"Stamina {minion.stamina}, a squad of eight: {8 * minion.stamina}" in text
        assert "Traceback" not in text  # Voilà shows a failing cell's traceback on the page
        page.screenshot("page")
        assert page.console_errors == []
    finally:
        page.close()
