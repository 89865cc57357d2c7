"""What `workbench app` serves: the app pages, the lessons, and a landing page that lists them in order.

The app pages are notebooks shipped inside the package (`workbench/pages/*.ipynb`, so an installed wheel has
them); the lessons are the teaching notebooks of a source checkout (`notebooks/`), served when present. Voilà
serves one folder, so the two are copied into one (`site_folder()/root`, rebuilt at each start: a page edited
in the checkout is served as it is now). The landing page is Voilà's tree page replaced by the workbench's
Voilà template (`workbench/server/template/workbench`, copied beside the root): its `tree.html` is written
here, from each notebook's own title and first line, in a Director's order (`PAGE_ORDER`).

The template's static folder also gets the charts' JavaScript (`plotly_bundle`): plotly.js's cartesian build
(1.5 MB, fetched by `make`) followed by the workbench's view of a FigureWidget (`workbench/server/figure_view.js`),
or, where `make` did not fetch that build, plotly's own widget bundle (4.8 MB: the whole of plotly.js). The
pages' kernels point their FigureWidgets at that file (`workbench.server.charts`) instead of sending it inside
every chart's widget state, so the browser loads and compiles it once and keeps it in its cache. The cartesian
build cut a chart page's second visit from 2.7-3.2 s to 2.1-2.4 s (median, `bench_pages.py`, a machine at half
its best speed) and Chromium's CPU a chart page's load by 1-2 s. How the browser gets it (issue 18):
* each page's head asks for the file at once (`HEAD_FILE`), so it is fetched and compiled while Voilà's own
  scripts load and the kernel sends the widgets, not after the first chart's widget asks for it;
* the cartesian build and the view are served as a classic script (`<script defer>`), not a module: Chromium
  keeps a classic script's compiled code in its code cache from the third visit on, and a module was parsed
  and compiled again at every visit (its bundle: ~0.35 s on a background thread and ~0.4 s on the page's
  main thread, each visit, on the 2-core machine). plotly's own bundle is a module (`<link rel="modulepreload">`);
* the served copy starts with V8's compile hint `//# allFunctionsCalledOnLoad`: Chromium (136 on) then
  compiles its functions on a background thread while it streams the file, instead of one by one on the
  page's main thread while it runs; other browsers read it as a comment.
"""

from __future__ import annotations

import hashlib
import html
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "CARTESIAN_FOLDER",
    "CHARTS_SCRIPT_ATTRIBUTE",
    "COMPILE_HINT",
    "FIGURE_VIEW",
    "HEAD_FILE",
    "PAGES_DIR",
    "PAGE_ORDER",
    "PLOTLY_BUNDLE_VARIABLE",
    "TEMPLATE_NAME",
    "Bundle",
    "Listed",
    "head_html",
    "landing_html",
    "lessons",
    "pages",
    "plotly_bundle",
    "plotly_js_version",
    "prepare_site",
    "site_folder",
]

PAGES_DIR = Path(__file__).resolve().parents[1] / "pages"
SERVER_DIR = Path(__file__).resolve().parent
FIGURE_VIEW = SERVER_DIR / "figure_view.js"  # the browser side of the app's charts on plotly.js's cartesian build
# Where `make` puts plotly.js's cartesian build (the Makefile's PLOTLY_CARTESIAN), named by its version.
CARTESIAN_FOLDER = Path(sys.prefix) / "share" / "drawsteel-workbench"
TEMPLATE_NAME = "workbench"
# A Director's order: build a monster, then an encounter, run the fight; then homebrew and calibration.
PAGE_ORDER = ("monster", "solos", "encounter", "fight", "homebrew", "calibration")
TITLE = "Draw Steel workbench"
# The kernels of `workbench app` find the bundle's address (under the server's base URL) in this variable.
PLOTLY_BUNDLE_VARIABLE = "WORKBENCH_PLOTLY_BUNDLE"
LINE = 130  # characters: a purpose longer than a line is left off the landing page


@dataclass(frozen=True)
class Listed:
    """One notebook as the landing page lists it: its file, its title and its one-line purpose."""

    file: str
    title: str
    purpose: str


def _plain(text: str) -> str:
    """Markdown emphasis and code marks dropped, whitespace joined: the words as a person reads them."""
    return " ".join(re.sub(r"[*`_]", "", text).split())


def _read(path: Path) -> Listed:
    """Title: the notebook's `title` metadata (without the site name) or its first heading. Purpose: the
    first sentence of the paragraph after that heading."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    first: dict[str, Any] = next((c for c in notebook.get("cells", ()) if c.get("cell_type") == "markdown"), {})
    paragraphs = [part.strip() for part in re.split(r"\n\s*\n", "".join(first.get("source", ""))) if part.strip()]
    heading = next((part for part in paragraphs if part.startswith("# ")), "")
    title = notebook.get("metadata", {}).get("title", "").split(" · ")[0] or _plain(heading.lstrip("# ")) \
        or path.stem
    after = paragraphs[paragraphs.index(heading) + 1:] if heading else paragraphs
    text = _plain(next((part for part in after if not part.startswith(("<", "#", "|", "["))), ""))
    sentence = re.match(r"(.+?[.!?])(\s|$)", text)
    return Listed(file=path.name, title=title, purpose=sentence.group(1) if sentence else text)


def pages(folder: Path = PAGES_DIR) -> tuple[Listed, ...]:
    """The app pages in `PAGE_ORDER` (any other page after them, by name)."""
    found = {p.stem: p for p in folder.glob("*.ipynb")}
    order = [s for s in PAGE_ORDER if s in found] + sorted(set(found) - set(PAGE_ORDER))
    return tuple(_read(found[s]) for s in order)


def lessons(folder: Path | None) -> tuple[Listed, ...]:
    """The teaching notebooks, in their numbered order (none without a folder)."""
    if folder is None or not folder.is_dir():
        return ()
    return tuple(_read(p) for p in sorted(folder.glob("*.ipynb")))


def _item(entry: Listed, base: str) -> str:
    """One line: the title as the link, then the purpose (left out when it would not fit on a line)."""
    purpose = entry.purpose if len(entry.purpose) <= LINE else ""
    return (f'<li><a href="{base}voila/render/{html.escape(entry.file)}">{html.escape(entry.title)}</a>'
            f'<span class="wb-purpose">{html.escape(purpose)}</span></li>')


def landing_html(listed_pages: tuple[Listed, ...], listed_lessons: tuple[Listed, ...]) -> str:
    """The Jinja template of the landing page (Voilà's `tree.html`): the pages, then the lessons."""
    base = "{{ base_url }}"
    page_items = "".join(_item(p, base) for p in listed_pages)
    if listed_lessons:
        lesson_items = "".join(_item(p, base) for p in listed_lessons)
        lessons_part = (
            '<h2>Lessons</h2><p class="wb-lead">How the workbench computes what the pages show, with worked '
            "examples from the book. Open them in JupyterLab (make lab) to change and run them.</p>"
            f'<ol class="wb-list wb-lessons">{lesson_items}</ol>'
        )
    else:
        lessons_part = ("<h2>Lessons</h2><p class=\"wb-lead\">The lessons are the notebooks of the workbench's "
                        "source folder; open them there in JupyterLab (make lab).</p>")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(TITLE)}</title>
  <link rel="icon" type="image/svg+xml" href="{base}voila/static/workbench-favicon.svg">
  <style>
    body {{ margin: 0; background: #faf7f2; font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
           color: #222; }}
    main.wb-landing {{ max-width: 52em; margin: 2.5em auto; padding: 0 1.2em; }}
    .wb-landing h1 {{ font-size: 2em; margin: 0 0 .2em; color: #7a1f1f; }}
    .wb-landing h2 {{ font-size: 1.25em; margin: 1.6em 0 .3em; }}
    .wb-lead {{ margin: .2em 0 .8em; color: #444; }}
    .wb-list {{ padding-left: 1.6em; margin: 0; }}
    .wb-list li {{ margin: .55em 0; line-height: 1.35; }}
    .wb-list a {{ font-weight: 600; font-size: 1.08em; color: #7a1f1f; text-decoration: none; }}
    .wb-list a:hover, .wb-list a:focus {{ text-decoration: underline; }}
    .wb-purpose {{ display: block; color: #444; }}
  </style>
</head>
<body>
<main class="wb-landing">
  <h1>{html.escape(TITLE)}</h1>
  <p class="wb-lead">Monsters, encounters and fights for Draw Steel, by the book's formulas. Start at the top:
  what you build on one page is there on the next.</p>
  <h2>Pages</h2>
  <ol class="wb-list wb-pages">{page_items}</ol>
  {lessons_part}
</main>
</body>
</html>
"""


COMPILE_HINT = b"//# allFunctionsCalledOnLoad\n"
# Included by the template's head (index.html.j2) when prepare_site wrote it (not without plotly's bundle).
HEAD_FILE = "charts-head.html.j2"
# The mark of the head's <script> that the charts wait for: page_renderer.CHARTS_SCRIPT_ATTRIBUTE (written again
# here: that module imports plotly, which the server's own process does not need)
CHARTS_SCRIPT_ATTRIBUTE = "data-workbench-charts"


def head_html(bundle: Bundle) -> str:
    """What each page's head asks for at once, at the very address the charts use (`charts.ServedCharts`:
    the server's base URL + `bundle.address`): a classic bundle it runs (deferred: after the page is parsed),
    plotly's own bundle it preloads into the page's module map, where the charts' import finds it."""
    source = f"{{{{ resources.base_url }}}}{html.escape(bundle.address)}"
    if bundle.classic:
        return f'<script defer {CHARTS_SCRIPT_ATTRIBUTE} src="{source}"></script>\n'
    return f'<link rel="modulepreload" href="{source}">\n'


def site_folder() -> Path:
    """Where the served copy lives: the user's cache (`$XDG_CACHE_HOME` or `~/.cache`)/drawsteel-workbench/app."""
    cache = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(cache) if cache else Path.home() / ".cache") / "drawsteel-workbench" / "app"


@dataclass(frozen=True)
class Bundle:
    """The JavaScript the app's charts run on: `files`, served as one file named `served_name` in the template's
    static folder, at `address` under the server's base URL (a new `version` is a new name, and the `v` lets the
    browser keep it); `classic`: a classic script the page runs, else a module the charts import."""

    files: tuple[Path, ...]
    served_name: str
    version: str
    classic: bool

    @property
    def address(self) -> str:
        return f"voila/static/{self.served_name}?v={self.version}"

    def content(self) -> bytes:
        """What the server sends: V8's compile hint, then the files."""
        return COMPILE_HINT + b"\n".join(path.read_bytes() for path in self.files)


def plotly_js_version(plotly_min_js: Path) -> str | None:
    """The version of plotly.js that plotly.py speaks, from its own copy's banner (`plotly.js v4.1.1`); None
    without that copy or banner."""
    if not plotly_min_js.is_file():
        return None
    with plotly_min_js.open("rb") as file:
        found = re.search(rb"plotly\.js v([0-9][0-9A-Za-z.+-]*)", file.read(300))
    return found.group(1).decode() if found else None


def plotly_bundle() -> Bundle | None:
    """The JavaScript of the app's charts: plotly.js's cartesian build (fetched by `make` into
    `CARTESIAN_FOLDER`, for the plotly.js this plotly speaks) followed by the workbench's view of a FigureWidget
    (`FIGURE_VIEW`); without that build, plotly's own widget bundle (the whole of plotly.js); None when plotly
    or its bundle is missing."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or spec.origin is None:
        return None
    package_data = Path(spec.origin).parent / "package_data"
    js_version = plotly_js_version(package_data / "plotly.min.js")
    cartesian = CARTESIAN_FOLDER / f"plotly-cartesian-{js_version}.min.js"
    if js_version is not None and cartesian.is_file():
        view = hashlib.sha256(FIGURE_VIEW.read_bytes()).hexdigest()[:12]
        return Bundle((cartesian, FIGURE_VIEW), f"plotly-cartesian-{js_version}-{view}.js", view, classic=True)
    bundle = package_data / "widgetbundle.js"
    if not bundle.is_file():
        return None
    version = importlib.metadata.version("plotly")
    return Bundle((bundle,), f"plotly-widget-{version}.js", version, classic=False)


def prepare_site(lessons_dir: Path | None, folder: Path | None = None) -> tuple[Path, Path]:
    """Copy the pages and lessons into `folder/root` and the template into `folder/share/jupyter`, write the
    landing page, and return (the folder to serve, the folder to add to JUPYTER_PATH)."""
    folder = folder or site_folder()
    root, share = folder / "root", folder / "share" / "jupyter"
    for old in (root, share):
        shutil.rmtree(old, ignore_errors=True)
    root.mkdir(parents=True)
    listed_lessons = lessons(lessons_dir)
    for entry in listed_lessons:
        shutil.copy2(lessons_dir / entry.file, root / entry.file)  # type: ignore[operator]
    listed_pages = pages()
    for entry in listed_pages:
        shutil.copy2(PAGES_DIR / entry.file, root / entry.file)
    template = share / "voila" / "templates" / TEMPLATE_NAME
    shutil.copytree(SERVER_DIR / "template" / TEMPLATE_NAME, template)
    (template / "tree.html").write_text(landing_html(listed_pages, listed_lessons), encoding="utf-8")
    bundle = plotly_bundle()
    if bundle is not None:
        (template / "static" / bundle.served_name).write_bytes(bundle.content())
        (template / HEAD_FILE).write_text(head_html(bundle), encoding="utf-8")
    return root, share
