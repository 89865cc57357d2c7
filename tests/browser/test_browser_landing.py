"""The landing page of `workbench app`: the pages in a Director's order by title, then the lessons; a title and
a favicon; each link opens its page."""

from __future__ import annotations

from voila_page import AppPage

from workbench.server.site import PAGE_ORDER, pages


def test_landing_page_lists_the_pages_by_title_in_order(browser, voila_url, app_token, artifacts_dir, page_errors):
    context = browser.new_context(viewport={"width": 1024, "height": 800})
    page = context.new_page()
    landing = AppPage(page, "landing", artifacts_dir, page_errors)
    try:
        page.goto(f"{voila_url}/?token={app_token}", timeout=120_000)
        assert page.title() == "Draw Steel workbench"
        links = page.locator(".wb-pages a")
        shown = [(links.nth(i).inner_text().strip(), links.nth(i).get_attribute("href"))
                 for i in range(links.count())]
        assert [title for title, _ in shown] == [p.title for p in pages()]
        assert [href.rsplit("/", 1)[-1] for _, href in shown] == [f"{slug}.ipynb" for slug in PAGE_ORDER]
        assert page.locator(".wb-lessons a").count() >= 1
        icon = page.locator('link[rel="icon"]').get_attribute("href")
        assert page.request.get(voila_url + icon).ok
        landing.screenshot("page")
        assert landing.console_errors == []
    finally:
        context.close()
