"""What `workbench app` serves: the app pages, the lessons, and a landing page that lists them in order.

The app pages are notebooks shipped inside the package (`workbench/pages/*.ipynb`, so an installed wheel has
them); the lessons are the teaching notebooks of a source checkout (`notebooks/`), served when present. Voilà
serves one folder, so the two are copied into one (`site_folder()/root`, rebuilt at each start: a page edited
in the checkout is served as it is now). The landing page is Voilà's tree page replaced by the workbench's
Voilà template (`workbench/server/template/workbench`, copied beside the root): its `tree.html` lists each
notebook's own title and first line, in a Director's order (`PAGE_ORDER`), from data written here
(`landing_data`) that the server hands the template, which escapes it.

The template's static folder also gets the charts' JavaScript (`plotly_bundle`): plotly.js's cartesian build
(1.5 MB, fetched by `make`) followed by the workbench's view of a FigureWidget (`workbench/server/figure_view.js`),
or, where `make` did not fetch that build, plotly's own widget bundle (4.8 MB: the whole of plotly.js). The
pages' kernels point their FigureWidgets at that file (`workbench.server.charts`) instead of sending it inside
every chart's widget state, so the browser loads and compiles it once and keeps it in its cache; the cartesian
build is a third of the whole to fetch and compile. How the browser gets it:
* each page's head asks for the file at once (`HEAD_FILE`), so it is fetched and compiled while Voilà's own
  scripts load and the kernel sends the widgets, not after the first chart's widget asks for it;
* the cartesian build and the view are served as a classic script (`<script defer>`), not a module: Chromium
  keeps a classic script's compiled code in its code cache from the third visit on, and a module was parsed
  and compiled again at every visit, partly on the page's main thread. plotly's own bundle is a module
  (`<link rel="modulepreload">`);
* the served copy starts with V8's compile hint `//# allFunctionsCalledOnLoad`: Chromium (136 on) then
  compiles its functions on a background thread while it streams the file, instead of one by one on the
  page's main thread while it runs; other browsers read it as a comment.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.io.problem import os_reason
from workbench.io.process import process_alive
from workbench.markup import Markup
from workbench.server.switches import off

__all__ = [
    "CARTESIAN_FOLDER",
    "CHARTS_SCRIPT_ATTRIBUTE",
    "COMPILE_HINT",
    "FIGURE_VIEW",
    "HEAD_FILE",
    "NOTARY",
    "PAGES_DIR",
    "PAGE_ORDER",
    "PLOTLY_BUNDLE_VARIABLE",
    "TEMPLATE_NAME",
    "WORKBENCH_PAGE",
    "Bundle",
    "Listed",
    "head_html",
    "landing_data",
    "landing_html",
    "lessons_problem",
    "prune_site_folders",
    "sign_served",
    "read_landing",
    "lessons",
    "pages",
    "plotly_bundle",
    "plotly_js_version",
    "prepare_site",
    "site_folder",
]

PAGES_DIR = Path(__file__).resolve().parents[1] / "pages"
SERVER_DIR = Path(__file__).resolve().parent
TEMPLATE_DIR = SERVER_DIR / "template" / "workbench"  # the Voilà template: page head, landing page, favicon
FIGURE_VIEW = SERVER_DIR / "figure_view.js"  # the browser side of the app's charts on plotly.js's cartesian build
# Where `make` puts plotly.js's cartesian build (the Makefile's PLOTLY_CARTESIAN), named by its version.
CARTESIAN_FOLDER = Path(sys.prefix) / "share" / "drawsteel-workbench"
TEMPLATE_NAME = "workbench"
# The workbench page (every tool on one page) first; then each tool's own page in a Director's order: build a
# monster, then an encounter, plan the day, run the fight (its player view right after, for a second screen); then
# homebrew and calibration.
PAGE_ORDER = ("workbench", "monster", "solos", "encounter", "adventure", "fight", "players", "homebrew",
              "calibration")
WORKBENCH_PAGE = "workbench.ipynb"  # the page `workbench app` opens
TITLE = "Draw Steel workbench"
# The kernels of `workbench app` find the bundle's address (under the server's base URL) in this variable.
PLOTLY_BUNDLE_VARIABLE = "WORKBENCH_PLOTLY_BUNDLE"
LINE = 130  # characters: a purpose longer than a line is left off the landing page


@dataclass(frozen=True)
class Listed:
    """One notebook as the landing page lists it: its file, its title and its one-line purpose; `problem`: why it
    cannot be served (a damaged file), shown instead of a link."""

    file: str
    title: str
    purpose: str
    problem: str = ""


def _plain(text: str) -> str:
    """Markdown emphasis and code marks around words dropped, whitespace joined: the words as a person reads
    them (a lone `*`, as in `7*7`, stays)."""
    text = re.sub(r"(\*\*|\*|`)(\S(?:.*?\S)?)\1", r"\2", text)
    return " ".join(re.sub(r"(?<!\w)(__|_)(\S(?:.*?\S)?)\1(?!\w)", r"\2", text).split())


def _read(path: Path) -> Listed:
    """Title: the notebook's `title` metadata (without the site name) or its first heading. Purpose: the
    first sentence of its `description` metadata, else of the paragraph after that heading. A file that is no notebook is listed with its problem."""
    import nbformat

    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # nbformat's notes on cells without ids: Jupyter opens them
            nbformat.validate(notebook)
        return _listed(path, notebook)
    except (OSError, UnicodeDecodeError) as error:
        problem = f"it cannot be read ({os_reason(error)})" if isinstance(error, OSError) \
            else "it is not text"
    except ValueError:
        problem = "it is not a notebook (not JSON)"
    except nbformat.ValidationError:
        problem = "it is not a notebook Jupyter can open"
    return Listed(file=path.name, title=path.stem, purpose="", problem=problem)


def _listed(path: Path, notebook: dict[str, Any]) -> Listed:
    first: dict[str, Any] = next((c for c in notebook.get("cells", ()) if c.get("cell_type") == "markdown"), {})
    paragraphs = [part.strip() for part in re.split(r"\n\s*\n", "".join(first.get("source", ""))) if part.strip()]
    heading = next((part for part in paragraphs if part.startswith("# ")), "")
    title = notebook.get("metadata", {}).get("title", "").split(" · ")[0] or _plain(heading.lstrip("# ")) \
        or path.stem
    after = paragraphs[paragraphs.index(heading) + 1:] if heading else paragraphs
    described = notebook.get("metadata", {}).get("description", "")  # a page with no text of its own says it there
    text = _plain(described if isinstance(described, str) and described.strip() else
                  next((part for part in after if not part.startswith(("<", "#", "|", "["))), ""))
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


def lessons_problem(folder: Path | None) -> str:
    """Why a lessons folder asked for gives no lessons ("" when it gives some, or none was asked for)."""
    if folder is None:
        return ""
    if not folder.is_dir():
        return f"The lessons folder {folder} does not exist." if not folder.exists() else \
            f"The lessons folder {folder} is not a folder."
    try:
        if not any(folder.glob("*.ipynb")):
            return f"The lessons folder {folder} holds no notebooks."
    except OSError as error:
        return f"The lessons folder {folder} cannot be read ({os_reason(error)})."
    return ""


LANDING_DATA = "landing.json"  # beside the served root: what the landing page lists (`landing_data`)
LANDING_VARIABLE = "workbench_landing"  # the name the landing page's template (tree.html) reads it under


def landing_data(listed_pages: tuple[Listed, ...], listed_lessons: tuple[Listed, ...],
                 lessons_note: str = "") -> dict[str, Any]:
    """What the landing page shows, as data the template escapes (never as template source: a notebook's title is
    text, even when it looks like Jinja): the pages, the lessons (a purpose longer than a line left off), and a
    note on a lessons folder that gave none."""

    def entry(listed: Listed) -> dict[str, str]:
        return {"file": listed.file, "title": listed.title,
                "purpose": listed.purpose if len(listed.purpose) <= LINE else "", "problem": listed.problem}

    return {"title": TITLE, "pages": [entry(p) for p in listed_pages],
            "lessons": [entry(p) for p in listed_lessons], "lessons_note": lessons_note}


def landing_html(data: dict[str, Any], base_url: str = "/") -> str:
    """The landing page as the server renders it: the template's tree.html with `data` (`landing_data`)."""
    import jinja2

    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR), autoescape=True)
    return environment.get_template("tree.html").render(base_url=base_url, **{LANDING_VARIABLE: data})


def read_landing(root: Path) -> dict[str, Any]:
    """The landing page's data `prepare_site` wrote beside the served `root`."""
    data: dict[str, Any] = json.loads((root.parent / LANDING_DATA).read_text(encoding="utf-8"))
    return data


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
    source = Markup("{{{{ resources.base_url }}}}{}").format(bundle.address)  # a Jinja expression, then the address
    if bundle.classic:
        return str(Markup('<script defer {} src="{}"></script>\n').format(CHARTS_SCRIPT_ATTRIBUTE, source))
    return str(Markup('<link rel="modulepreload" href="{}">\n').format(source))


def site_folder(port: int) -> Path:
    """Where the served copy of the server on `port` lives: the user's cache (`$XDG_CACHE_HOME` or
    `~/.cache`)/drawsteel-workbench/app/<port>. Each server has its own: a second server started while the
    first runs must not replace the first one's lessons."""
    cache = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(cache) if cache else Path.home() / ".cache") / "drawsteel-workbench" / "app" / str(port)


SERVER_PID = "server.pid"  # in a site folder: the process serving it (`workbench app` becomes the server: same pid)
PRUNE_AFTER_S = 60  # a folder younger than this may belong to a server starting now, which has not written its pid


def prune_site_folders(keep: Path) -> list[Path]:
    """Remove the site folders beside `keep` whose server has stopped (no pid file, or its process is gone),
    leaving those younger than a minute; returns the ones removed."""
    removed = []
    try:
        others = [folder for folder in keep.parent.iterdir() if folder != keep and folder.is_dir()]
    except OSError:
        return []
    for folder in others:
        try:
            pid = int((folder / SERVER_PID).read_text(encoding="ascii"))
        except (OSError, ValueError):
            pid = None
        try:
            young = time.time() - folder.stat().st_mtime < PRUNE_AFTER_S
        except OSError:
            continue
        if (pid is None and not young) or (pid is not None and not process_alive(pid)):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


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
    if js_version is not None and cartesian.is_file() and not off("cartesian"):
        view = hashlib.sha256(FIGURE_VIEW.read_bytes()).hexdigest()[:12]
        return Bundle((cartesian, FIGURE_VIEW), f"plotly-cartesian-{js_version}-{view}.js", view, classic=True)
    bundle = package_data / "widgetbundle.js"
    if not bundle.is_file():
        return None
    version = importlib.metadata.version("plotly")
    return Bundle((bundle,), f"plotly-widget-{version}.js", version, classic=False)


NOTARY = "notary"  # beside the served root: the key and signatures of the server's notebook notary (`sign_served`)


def sign_served(root: Path, notary: Path) -> None:
    """Sign every notebook under `root` as trusted, with a notary keeping its key and signatures in `notary` (made
    afresh), the folder the server's own notary is given (`app.voila_command`).

    Why: the server reads each notebook through jupyter_server, which checks its signature and logs "Notebook …
    is not trusted" for every page and lesson served, in the Director's console. Trust changes nothing Voilà does
    (it runs the notebook and shows only its outputs); the copies are the workbench's own, so they are signed,
    each server with a key of its own instead of the user's Jupyter one. A copy whose cells have no ids is written
    again with ids, as nbformat gives them on each read (at random: else no signature could match, and nbformat
    warns of each read in the console).
    """
    import nbformat
    from nbformat.sign import NotebookNotary

    shutil.rmtree(notary, ignore_errors=True)
    notary.mkdir(parents=True)
    signer = NotebookNotary(data_dir=str(notary))  # type: ignore[no-untyped-call]  # nbformat leaves it untyped
    for path in sorted(root.glob("*.ipynb")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a cell without an id is given one (nbformat says so, on each read)
            read = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]  # as the server reads it
        nbformat.write(read, path)  # type: ignore[no-untyped-call]  # with those ids: read alike, quietly
        signer.sign(read)  # type: ignore[no-untyped-call]
    signer.store.close()


def prepare_site(lessons_dir: Path | None, folder: Path) -> tuple[Path, Path]:
    """Copy the pages and lessons into `folder/root` and the template into `folder/share/jupyter`, write the
    landing page's data beside the root, and return (the folder to serve, the folder to add to JUPYTER_PATH).
    A lesson that is no notebook is listed with its problem and not served; a folder that cannot be written is
    refused with its path and the cause."""
    from workbench.errors import WorkbenchError

    try:
        return _prepare(lessons_dir, folder)
    except OSError as error:
        where = error.filename or folder
        raise WorkbenchError(f"the app's folder {folder} cannot be prepared: {where}: "
                             f"{os_reason(error)} (set $XDG_CACHE_HOME to a folder you can write)") from None


def _prepare(lessons_dir: Path | None, folder: Path) -> tuple[Path, Path]:
    root, share = folder / "root", folder / "share" / "jupyter"
    for old in (root, share):
        shutil.rmtree(old, ignore_errors=True)
    root.mkdir(parents=True)
    (folder / SERVER_PID).write_text(str(os.getpid()), encoding="ascii")
    listed_lessons = lessons(lessons_dir)
    for entry in listed_lessons:
        if not entry.problem:
            shutil.copy2(lessons_dir / entry.file, root / entry.file)  # type: ignore[operator]
    listed_pages = pages()
    for entry in listed_pages:
        shutil.copy2(PAGES_DIR / entry.file, root / entry.file)
    sign_served(root, folder / NOTARY)
    template = share / "voila" / "templates" / TEMPLATE_NAME
    shutil.copytree(TEMPLATE_DIR, template)
    data = landing_data(listed_pages, listed_lessons, lessons_problem(lessons_dir))
    (folder / LANDING_DATA).write_text(json.dumps(data), encoding="utf-8")
    bundle = plotly_bundle()
    if bundle is not None:
        (template / "static" / bundle.served_name).write_bytes(bundle.content())
        (template / HEAD_FILE).write_text(head_html(bundle), encoding="utf-8")
    return root, share
