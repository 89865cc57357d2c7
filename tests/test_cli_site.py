"""What `workbench app` serves: the shipped pages in a Director's order, the lessons, the landing page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from workbench.server import site
from workbench.server.app import NOTEBOOKS_DIR, page_arguments, page_environment
from workbench.server.site import (
    CHARTS_SCRIPT_ATTRIBUTE,
    COMPILE_HINT,
    FIGURE_VIEW,
    HEAD_FILE,
    PAGE_ORDER,
    PAGES_DIR,
    TEMPLATE_NAME,
    WORKBENCH_PAGE,
    Bundle,
    head_html,
    landing_data,
    landing_html,
    lessons,
    pages,
    plotly_bundle,
    plotly_js_version,
    prepare_site,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_ON_PAGES = re.compile(r"Run the cells|Shift \+ Enter|/tmp/|onerror|<script|_app\(|_page\(\)")


def test_pages_ship_in_a_directors_order_with_a_title_and_one_line_each():
    listed = pages()
    assert [p.file for p in listed] == [f"{slug}.ipynb" for slug in PAGE_ORDER]
    assert [p.title for p in listed][:6] == ["The workbench", "Build a monster", "Solo monsters", "Build an encounter",
                                            "Plan an adventure", "Run the fight"]
    for page in listed:
        assert page.purpose.endswith(".") and "\n" not in page.purpose and len(page.purpose) < 130, page


def test_each_page_is_one_call_and_its_text_is_for_people():
    for path in PAGES_DIR.glob("*.ipynb"):
        notebook = json.loads(path.read_text())
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        assert len(code) == 1 and not code[0].get("outputs"), path.name  # one call, committed without outputs
        text = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
        assert "<details" in text or path.name == WORKBENCH_PAGE  # the explanation folded away (the workbench
        # page's tools each fold their own)
        assert not FORBIDDEN_ON_PAGES.search(text), path.name
        assert notebook["metadata"]["title"].endswith("· Draw Steel workbench")  # the browser tab's title


def test_lessons_are_the_checkouts_notebooks_and_absent_without_them(tmp_path: Path):
    assert [p.file for p in lessons(NOTEBOOKS_DIR)] == sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))
    assert lessons(None) == () and lessons(tmp_path / "nowhere") == ()


def test_landing_page_links_each_page_by_title_in_order():
    html = landing_html(landing_data(pages(), lessons(NOTEBOOKS_DIR)), base_url="/")
    links = re.findall(r'<a href="/voila/render/([^"]+)">([^<]+)</a>', html)
    assert [f for f, _ in links][: len(PAGE_ORDER)] == [f"{s}.ipynb" for s in PAGE_ORDER]
    assert [t for _, t in links][:2] == ["The workbench", "Build a monster"]
    assert html.index("<h2>Pages</h2>") < html.index("<h2>Lessons</h2>")
    assert "<title>Draw Steel workbench</title>" in html and 'rel="icon"' in html
    assert "cdn." not in html and ".ipynb</a>" not in html  # no file names shown, nothing from a CDN


def test_prepared_site_holds_pages_lessons_and_template(tmp_path: Path):
    root, share = prepare_site(NOTEBOOKS_DIR, tmp_path / "site")
    served = sorted(p.name for p in root.iterdir())
    assert served == sorted([f"{s}.ipynb" for s in PAGE_ORDER] + [p.name for p in NOTEBOOKS_DIR.glob("*.ipynb")])
    template = share / "voila" / "templates" / TEMPLATE_NAME
    assert {p.name for p in template.iterdir()} >= {"conf.json", "index.html.j2", "tree.html", "static"}
    assert site.read_landing(root)["lessons"][0]["file"] == sorted(NOTEBOOKS_DIR.glob("*.ipynb"))[0].name
    root2, _ = prepare_site(None, tmp_path / "site")  # again, without lessons: the old copies are gone
    assert sorted(p.name for p in root2.iterdir()) == sorted(f"{s}.ipynb" for s in PAGE_ORDER)


def test_voila_is_told_where_the_template_is():
    assert page_arguments() == [f"--template={TEMPLATE_NAME}"]
    env = page_environment(Path("/x/share"), {"JUPYTER_PATH": "/y"})
    assert env["JUPYTER_PATH"].split(":") == ["/x/share", "/y"]


def test_the_chart_bundle_is_compiled_off_the_main_thread_and_run_by_each_page_head(tmp_path: Path, monkeypatch):
    """The served chart JavaScript starts with V8's compile hint and is otherwise its files', byte for
    byte; each page's head runs it as a classic script (Chromium keeps its compiled code between visits, not a
    module's), from the very address the charts' widgets are given, and the widgets wait for that script."""
    import jinja2
    import plotly.graph_objects as go

    from workbench.server import page_renderer
    from workbench.server.charts import ServedCharts

    _, share = prepare_site(None, tmp_path / "site")
    template = share / "voila" / "templates" / TEMPLATE_NAME
    bundle = plotly_bundle()
    assert bundle is not None and bundle.classic  # make test fetched the cartesian build
    served = template / "static" / bundle.served_name
    assert served.read_bytes() == COMPILE_HINT + b"\n".join(path.read_bytes() for path in bundle.files)
    assert COMPILE_HINT.decode().strip() == "//# allFunctionsCalledOnLoad"  # V8's name for it, not a typo of ours
    assert f'include "{HEAD_FILE}"' in (template / "index.html.j2").read_text()

    head = jinja2.Template((template / HEAD_FILE).read_text()).render(resources={"base_url": "/base/"})
    script = re.fullmatch(rf'<script defer {CHARTS_SCRIPT_ATTRIBUTE} src="([^"]+)"></script>\s*', head)
    assert script, head
    assert CHARTS_SCRIPT_ATTRIBUTE == page_renderer.CHARTS_SCRIPT_ATTRIBUTE
    monkeypatch.setenv(page_renderer.BUNDLE_VARIABLE, bundle.address)
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    shim = ServedCharts().widget(go.Figure())._esm
    assert json.dumps(script.group(1)) in shim and page_renderer.LOAD_CHARTS in shim
    assert f'document.querySelector("script[{CHARTS_SCRIPT_ATTRIBUTE}]")' in page_renderer.LOAD_CHARTS


def test_the_figure_view_is_a_classic_script_that_leaves_the_view_where_the_charts_take_it():
    view = FIGURE_VIEW.read_text()
    assert not re.search(r"^\s*(export|import)\s", view, re.MULTILINE)  # a module's syntax would not run
    assert "window.workbenchFigureView = { render };" in view
    from workbench.server.page_renderer import LOAD_CHARTS

    assert "return { default: window.workbenchFigureView };" in LOAD_CHARTS


def test_plotlys_own_bundle_is_a_module_the_head_preloads(tmp_path: Path):
    module = Bundle((tmp_path / "widgetbundle.js",), "plotly-widget-9.js", "9", classic=False)
    assert head_html(module) == '<link rel="modulepreload" href="{{ resources.base_url }}voila/static/plotly-widget-9.js?v=9">\n'
    classic = Bundle((tmp_path / "a.js",), "a <b>.js", "1", classic=True)
    assert "<b>" not in head_html(classic) and "a &lt;b&gt;.js?v=1" in head_html(classic)


def _plotly_package_data() -> Path:
    import plotly

    return Path(plotly.__file__).parent / "package_data"


def test_the_charts_run_on_plotly_js_cartesian_build_when_make_fetched_it():
    """`make` fetches plotly.js's cartesian build for the plotly.js that plotly.py speaks: the app then serves it
    with the workbench's view of a FigureWidget, not plotly's widget bundle (the whole of plotly.js)."""
    makefile = (REPO_ROOT / "Makefile").read_text()
    pinned = re.search(r"^PLOTLY_JS_VERSION := (\S+)$", makefile, re.MULTILINE)
    assert pinned, "the Makefile names the plotly.js version it fetches"
    assert plotly_js_version(_plotly_package_data() / "plotly.min.js") == pinned.group(1), \
        "plotly.py now speaks another plotly.js: change PLOTLY_JS_VERSION and its sha512 in the Makefile"
    bundle = plotly_bundle()
    assert bundle is not None
    cartesian, view = bundle.files  # make test made the file (a prerequisite of the test target)
    assert cartesian.name == f"plotly-cartesian-{pinned.group(1)}.min.js"
    assert b"plotly.js (cartesian - minified) v" + pinned.group(1).encode() in cartesian.read_bytes()[:200]
    assert view == FIGURE_VIEW
    assert bundle.address.startswith(f"voila/static/plotly-cartesian-{pinned.group(1)}-")


def test_without_the_cartesian_build_the_app_serves_plotlys_own_bundle(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(site, "CARTESIAN_FOLDER", tmp_path)  # nothing fetched there
    import plotly

    bundle = plotly_bundle()
    assert bundle is not None
    assert bundle.files == (_plotly_package_data() / "widgetbundle.js",)
    assert bundle.address == f"voila/static/plotly-widget-{plotly.__version__}.js?v={plotly.__version__}"


def test_a_changed_figure_view_is_served_at_a_new_address(tmp_path: Path, monkeypatch):
    """The browser keeps the served file by its address: a new view must not be hidden by the old one's cache."""
    before = plotly_bundle()
    view = tmp_path / "figure_view.js"
    view.write_text(FIGURE_VIEW.read_text() + "\n// changed\n")
    monkeypatch.setattr(site, "FIGURE_VIEW", view)
    after = plotly_bundle()
    assert before is not None and after is not None
    assert after.address != before.address and after.served_name != before.served_name


def test_the_plotly_js_version_is_read_from_its_banner(tmp_path: Path):
    banner = tmp_path / "plotly.min.js"
    banner.write_text("/**\n* plotly.js v4.1.1\n* Copyright 2012-2026, Plotly, Inc.\n*/\n(function(){})")
    assert plotly_js_version(banner) == "4.1.1"
    banner.write_text("(function(){})")
    assert plotly_js_version(banner) is None


def _notebook(folder: Path, name: str, heading: str, first_line: str = "What it is for.") -> Path:
    cell = {"cell_type": "markdown", "metadata": {}, "source": f"# {heading}\n\n{first_line}"}
    path = folder / name
    path.write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def _texts(html: str, css: str) -> list[str]:
    """The text of each element of class `css` on the page, as the browser shows it (entities decoded)."""
    import html as html_module

    return [html_module.unescape(re.sub(r"<[^>]+>", "", part))
            for part in re.findall(rf'class="{css}"[^>]*>(.*?)</(?:a|span|p)>', html)]


def test_a_title_that_looks_like_a_template_is_shown_as_written(tmp_path: Path):
    """A notebook's heading is data: Jinja in it is never run (it once showed the output of a command)."""
    lessons_dir = tmp_path / "lessons"
    lessons_dir.mkdir()
    _notebook(lessons_dir, "01_x.ipynb", "{{ 7*7 }} and {% for %} and <b>bold</b>", "Its {{ config }} purpose.")
    _, _ = prepare_site(lessons_dir, tmp_path / "site")
    html = landing_html(site.read_landing(tmp_path / "site" / "root"), base_url="/")
    lesson = re.search(r'<ol class="wb-list wb-lessons">(.*?)</ol>', html, re.S).group(1)
    (title,) = re.findall(r'<a href="/voila/render/01_x.ipynb">([^<]*)</a>', lesson)
    assert title == "{{ 7*7 }} and {% for %} and &lt;b&gt;bold&lt;/b&gt;"  # the browser shows <b>, not bold
    assert "Its {{ config }} purpose." in lesson and "49" not in lesson


def test_a_damaged_lesson_is_listed_as_left_out_and_not_served(tmp_path: Path):
    lessons_dir = tmp_path / "lessons"
    lessons_dir.mkdir()
    _notebook(lessons_dir, "01_fine.ipynb", "Fine")
    (lessons_dir / "02_broken.ipynb").write_text('{"cells": [')
    (lessons_dir / "03_not_a_notebook.ipynb").write_text('{"cells": 3}')
    (lessons_dir / "04_binary.ipynb").write_bytes(b"\xff\xfe\x00")
    root, _ = prepare_site(lessons_dir, tmp_path / "site")
    assert sorted(p.name for p in root.iterdir() if p.stem not in PAGE_ORDER) == ["01_fine.ipynb"]
    html = landing_html(site.read_landing(root), base_url="/")
    assert re.findall(r'<span class="wb-unreadable">([^<]+)</span>', html) == [
        "02_broken.ipynb", "03_not_a_notebook.ipynb", "04_binary.ipynb"]
    assert "left out: it is not a notebook (not JSON)" in html and "Traceback" not in html
    assert "left out: it is not a notebook Jupyter can open" in html and "left out: it is not text" in html


def test_a_missing_or_empty_lessons_folder_is_said_on_the_landing_page(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    for folder, said in ((tmp_path / "nowhere", "does not exist"), (tmp_path / "empty", "holds no notebooks")):
        root, _ = prepare_site(folder, tmp_path / "site")
        html = landing_html(site.read_landing(root), base_url="/")
        assert re.search(rf'class="wb-lead wb-lessons-note">The lessons folder {re.escape(str(folder))} {said}\.', html)
        assert '<ol class="wb-list wb-lessons">' not in html


def test_each_server_serves_its_own_folder_and_a_stopped_servers_folder_goes(tmp_path: Path, monkeypatch):
    """Two servers shared one folder: the second rebuilt it, and the first then served the second's lessons."""
    import os
    import subprocess
    import sys

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first, second = site.site_folder(8001), site.site_folder(8002)
    assert first != second and first.parent == second.parent == tmp_path / "drawsteel-workbench" / "app"
    lessons_dir = tmp_path / "lessons"
    lessons_dir.mkdir()
    _notebook(lessons_dir, "01_one.ipynb", "One")
    prepare_site(lessons_dir, first)
    prepare_site(None, second)
    assert (first / "root" / "01_one.ipynb").exists()  # the second server did not touch the first's lessons
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (second / site.SERVER_PID).write_text(gone.stdout.strip())  # the second server has stopped
    old = first.parent / "root"  # the one shared folder of before, with no server's pid
    old.mkdir()
    os.utime(old, (0, 0))
    assert sorted(site.prune_site_folders(first)) == sorted([second, old])
    assert first.exists() and (first / site.SERVER_PID).read_text() == str(os.getpid())  # this one runs



def test_every_served_notebook_is_signed_by_the_servers_own_notary(tmp_path: Path):
    """The server's notary (its key and signatures in the site folder) trusts each page and lesson as the server
    reads it, cells without ids included: no "Notebook … is not trusted" in the Director's console."""
    import warnings

    import nbformat
    from nbformat.sign import NotebookNotary

    lessons_dir = tmp_path / "lessons"
    lessons_dir.mkdir()
    (lessons_dir / "01_no_ids.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": "# Scores\n\nWhy."}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    root, _share = prepare_site(lessons_dir, tmp_path / "site")
    server = NotebookNotary(data_dir=str(tmp_path / "site" / site.NOTARY))
    (tmp_path / "elsewhere").mkdir()
    stranger = NotebookNotary(data_dir=str(tmp_path / "elsewhere"))
    served = sorted(root.glob("*.ipynb"))
    try:
        assert "01_no_ids.ipynb" in [p.name for p in served] and WORKBENCH_PAGE in [p.name for p in served]
        for path in served:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # read as the server reads it, with no warning
                notebook = nbformat.read(path, as_version=4)
            assert server.check_signature(notebook), path.name
            assert not stranger.check_signature(notebook), path.name  # the control: another key trusts none
    finally:
        server.store.close()  # their signature databases (Python 3.13 warns of an unclosed one)
        stranger.store.close()
