"""What `workbench app` serves: the shipped pages in a Director's order, the lessons, the landing page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from workbench.cli.app import NOTEBOOKS_DIR, page_arguments, page_environment
from workbench.cli.site import (
    COMPILE_HINT,
    PAGE_ORDER,
    PAGES_DIR,
    PRELOAD_FILE,
    TEMPLATE_NAME,
    landing_html,
    lessons,
    pages,
    plotly_bundle,
    prepare_site,
)

FORBIDDEN_ON_PAGES = re.compile(r"Run the cells|Shift \+ Enter|/tmp/|onerror|<script|_app\(|_page\(\)")


def test_pages_ship_in_a_directors_order_with_a_title_and_one_line_each():
    listed = pages()
    assert [p.file for p in listed] == [f"{slug}.ipynb" for slug in PAGE_ORDER]
    assert [p.title for p in listed][:4] == ["Build a monster", "Solo monsters", "Build an encounter", "Run the fight"]
    for page in listed:
        assert page.purpose.endswith(".") and "\n" not in page.purpose and len(page.purpose) < 130, page


def test_each_page_is_one_call_and_its_text_is_for_people():
    for path in PAGES_DIR.glob("*.ipynb"):
        notebook = json.loads(path.read_text())
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        assert len(code) == 1 and not code[0].get("outputs"), path.name  # one call, committed without outputs
        text = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
        assert "<details" in text  # the explanation folded away
        assert not FORBIDDEN_ON_PAGES.search(text), path.name
        assert notebook["metadata"]["title"].endswith("· Draw Steel workbench")  # the browser tab's title


def test_lessons_are_the_checkouts_notebooks_and_absent_without_them(tmp_path: Path):
    assert [p.file for p in lessons(NOTEBOOKS_DIR)] == sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))
    assert lessons(None) == () and lessons(tmp_path / "nowhere") == ()


def test_landing_page_links_each_page_by_title_in_order():
    html = landing_html(pages(), lessons(NOTEBOOKS_DIR))
    links = re.findall(r'<a href="\{\{ base_url \}\}voila/render/([^"]+)">([^<]+)</a>', html)
    assert [f for f, _ in links][: len(PAGE_ORDER)] == [f"{s}.ipynb" for s in PAGE_ORDER]
    assert [t for _, t in links][:1] == ["Build a monster"]
    assert html.index("<h2>Pages</h2>") < html.index("<h2>Lessons</h2>")
    assert "<title>Draw Steel workbench</title>" in html and 'rel="icon"' in html
    assert "cdn." not in html and ".ipynb</a>" not in html  # no file names shown, nothing from a CDN


def test_prepared_site_holds_pages_lessons_and_template(tmp_path: Path):
    root, share = prepare_site(NOTEBOOKS_DIR, tmp_path / "site")
    served = sorted(p.name for p in root.iterdir())
    assert served == sorted([f"{s}.ipynb" for s in PAGE_ORDER] + [p.name for p in NOTEBOOKS_DIR.glob("*.ipynb")])
    template = share / "voila" / "templates" / TEMPLATE_NAME
    assert {p.name for p in template.iterdir()} >= {"conf.json", "index.html.j2", "tree.html", "static"}
    root2, _ = prepare_site(None, tmp_path / "site")  # again, without lessons: the old copies are gone
    assert sorted(p.name for p in root2.iterdir()) == sorted(f"{s}.ipynb" for s in PAGE_ORDER)


def test_voila_is_told_where_the_template_is():
    assert page_arguments() == [f"--template={TEMPLATE_NAME}"]
    env = page_environment(Path("/x/share"), {"JUPYTER_PATH": "/y"})
    assert env["JUPYTER_PATH"].split(":") == ["/x/share", "/y"]


def test_the_chart_bundle_is_compiled_off_the_main_thread_and_asked_for_in_each_page_head(tmp_path: Path, monkeypatch):
    """Issue 18: the served copy of plotly's widget bundle starts with V8's compile hint and is otherwise plotly's
    own, byte for byte; each page's head preloads it at the very address its charts import (else the browser
    would fetch and compile it twice)."""
    import jinja2
    import plotly.graph_objects as go
    from plotly.basewidget import BaseFigureWidget

    from workbench.apps import visit
    from workbench.charts.page_renderer import BUNDLE_VARIABLE

    _, share = prepare_site(None, tmp_path / "site")
    template = share / "voila" / "templates" / TEMPLATE_NAME
    bundle, address = plotly_bundle()  # type: ignore[misc]  # plotly is installed
    served = template / "static" / address.removeprefix("voila/static/").split("?")[0]
    assert served.read_bytes() == COMPILE_HINT + bundle.read_bytes()
    assert COMPILE_HINT.decode().strip() == "//# allFunctionsCalledOnLoad"  # V8's name for it, not a typo of ours
    assert f'include "{PRELOAD_FILE}"' in (template / "index.html.j2").read_text()

    head = jinja2.Template((template / PRELOAD_FILE).read_text()).render(resources={"base_url": "/base/"})
    link = re.fullmatch(r'<link rel="modulepreload" href="([^"]+)">\s*', head)
    assert link, head
    monkeypatch.setattr(BaseFigureWidget, "_esm", BaseFigureWidget._esm)  # restored after the test
    monkeypatch.setenv(BUNDLE_VARIABLE, address)
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    assert visit.load_plotly_from_server()
    assert json.dumps(link.group(1)) in go.FigureWidget()._esm  # the charts import what the head preloaded
