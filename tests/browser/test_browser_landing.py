"""The landing page of `workbench app`: every notebook listed, each link opening it as an app."""

from __future__ import annotations

from pathlib import Path

from voila_page import AppPage

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def test_landing_page_lists_every_notebook(browser, voila_url, artifacts_dir):
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    landing = AppPage(page, "landing", artifacts_dir)
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(voila_url)
               else AppPage.answer_offline(route))
    try:
        page.goto(voila_url + "/", timeout=120_000)
        links = page.locator(".voila-notebooks a")
        listed = {links.nth(i).inner_text().strip(): links.nth(i).get_attribute("href")
                  for i in range(links.count())}
        expected = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
        assert sorted(listed) == expected
        assert all(listed[name].startswith(f"/voila/render/{name}") for name in expected)
        landing.screenshot("page")
        assert landing.console_errors == []
    finally:
        context.close()
