"""A rendered Voilà notebook driven like a person: find ipywidgets by their visible labels, then use them.

Sliders are moved with the keyboard (focus the `.noUi-handle`, press ArrowRight/ArrowLeft), pickers and
buttons with the mouse; text boxes are filled as a paste would. Console errors and uncaught page errors
of every page are collected by page_errors.PageErrors (conftest.py fails a test on any of them);
`console_errors` is this page's share.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from page_errors import PageErrors
from playwright.sync_api import Locator, Page, Route, TimeoutError

# Pictures of passing steps (`AppPage.screenshot`, the pages test's whole pages) are taken only when asked for:
# WORKBENCH_TEST_SHOTS=1. Each one resizes the window twice (every chart on the page redraws) and rasterises a
# tall page: CPU the suite needs. A failing test's pages are pictured either way (conftest.py).
SHOTS = os.environ.get("WORKBENCH_TEST_SHOTS", "") not in ("", "0")
COMM_LOG_LINES = "() => window.__wbCommLog || []"  # what comm_log.js recorded of the page's talk with its kernel
# What each widget model that record names is (its model, its description, its CSS classes), so that "a click on
# Remove was sent, and the kernel answered with two changes" can be read; the answer with every widget's state,
# which names every model, is left out.
MODELS_NAMED = """async () => {
  const log = window.__wbCommLog || [];
  const manager = window.jupyterapp && window.jupyterapp.widgetManager;
  if (!manager || !manager._models) return [];
  const ids = new Set(log.filter(line => !line.includes("update_states")).flatMap(line => line.match(/\\b[0-9a-f]{32}\\b/g) || []));
  const named = [];
  for (const id of ids) {
    const held = manager._models[id];
    const model = held && await Promise.race([held, new Promise(done => setTimeout(() => done(null), 1000))]);
    if (!model) {
      named.push(`${id} (no model of that id now)`);
      continue;
    }
    const description = model.get("description"), classes = model.get("_dom_classes") || [];
    named.push(`${id} ${model.get("_model_name")}${description ? ` "${description}"` : ""}`
               + `${classes.length ? " ." + classes.join(".") : ""}`);
  }
  return named;
}"""
WAIT_MS = 60_000  # a kernel round trip is quick when idle, seconds when the machine is busy
# Two frames on: a resize of the window reaches the page's listeners (plotly's, lumino's) in a frame's work.
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
# Every chart plotly.js was given is drawn (its div has become a .js-plotly-plot holding an SVG; _replotting while
# a draw runs, a second one too where the margins grew) and every shown responsive chart is as wide as its place:
# such a chart redraws at its new width 100 ms after the window's resize event (plotly's Plots.resize).
CHARTS_AT_REST = """() => Array.from(document.querySelectorAll('#rendered_cells :is(.plotly-graph-div, .js-plotly-plot)'))
  .every(p => p.classList.contains('js-plotly-plot') && p.querySelector('.main-svg') && p._fullLayout
              && !p._fullLayout._replotting
              && (!p._context.responsive || p.offsetParent === null
                  || Math.abs(p._fullLayout.width - parseFloat(getComputedStyle(p).width)) <= 1))"""


def _label(text: str) -> str:
    return f'label.widget-label:text-is("{text}")'


class AppPage:
    def __init__(self, page: Page, notebook: str, artifacts_dir: Path, errors: PageErrors) -> None:
        self.page = page
        self.notebook = notebook
        self.artifacts_dir = artifacts_dir
        self._errors = errors
        page.set_default_timeout(WAIT_MS)

    # ---------------------------------------------------------------- plumbing

    @property
    def console_errors(self) -> list[str]:
        """Console errors and uncaught page errors of this page so far (conftest.py fails a test on any)."""
        return self._errors.console_errors(self.page)

    def allow_error(self, message: str, why: str) -> None:
        """Set apart `message` (a substring) on this page only, for the reason `why` (see page_errors)."""
        self._errors.allow(self.page, message, why)

    @staticmethod
    def answer_offline(route: Route) -> None:
        """Another host asked for (Voilà's template links icon fonts on a CDN): an empty answer, no network."""
        kind = "text/css" if route.request.resource_type == "stylesheet" else "text/plain"
        route.fulfill(status=200, content_type=kind, body="")

    def screenshot(self, name: str, root: str | None = None) -> Path | None:
        """Save a PNG of the element `root` (else the page) to test-artifacts/<notebook>-<name>.png, when pictures
        are asked for (`SHOTS`); its path, or None when not.

        Voilà scrolls inside its own panel, so the window is made as tall as the element for the shot.
        """
        if not SHOTS:
            return None
        path = self.artifacts_dir / f"{Path(self.notebook).stem}-{name}.png"
        target = self.page.locator(root or "body").first
        size = self.page.viewport_size
        height = target.evaluate("e => Math.ceil(e.getBoundingClientRect().height)")
        self.page.set_viewport_size({"width": size["width"], "height": max(size["height"], height + 40)})
        try:
            # Not `target.screenshot()`: it first waits for the element to hold still, and once (a clean-clone
            # run, the builder lesson's ability editor) it never did within 60 s after the window was resized;
            # the shot is evidence, not an assertion, so it is taken of the element's box as it is.
            target.evaluate("e => e.scrollIntoView({block: 'start'})")
            box = target.bounding_box()  # None if it is not drawn: the whole window then
            self.page.screenshot(path=str(path), animations="disabled", **({"clip": box} if box else {}))
        finally:
            self.page.set_viewport_size(size)
        return path

    def close(self) -> None:
        """Close the page; Voilà may then shut the notebook's kernel down."""
        if not self.page.is_closed():
            self.page.close()

    def js(self, expression: str, arg: Any = None) -> Any:
        return self.page.evaluate(expression, arg)

    def settled(self) -> None:
        """Wait until the page has followed its window (after a load or a resize): two frames on, every chart
        drawn at its place's size (`CHARTS_AT_REST`)."""
        self.js(TWO_FRAMES)
        self.page.wait_for_function(CHARTS_AT_REST, polling="raf")

    # ---------------------------------------------------------------- finding widgets by their label

    def slider_handle(self, label: str, within: str = "body") -> Locator:
        return self.page.locator(f"{within} .widget-slider:has(> {_label(label)}) .noUi-handle").first

    def slider_value(self, label: str, within: str = "body") -> int:
        return int(float(self.slider_handle(label, within).get_attribute("aria-valuenow")))

    def dropdown(self, label: str, within: str = "body") -> Locator:
        return self.page.locator(f"{within} .widget-dropdown:has(> {_label(label)}) select").first

    def text_box(self, label: str, within: str = "body") -> Locator:
        return self.page.locator(
            f"{within} :is(.widget-text, .widget-textarea):has(> {_label(label)}) :is(input, textarea)"
        ).first

    def checkbox(self, label: str, within: str = "body") -> Locator:
        return self.page.locator(f'{within} .widget-checkbox:has(span:text-is("{label}")) input').first

    def button(self, text: str, within: str = "body") -> Locator:
        return self.page.locator(f'{within} button.jupyter-button:text-is("{text}")').first

    def toggle(self, text: str, within: str = "body") -> Locator:
        return self.page.locator(f'{within} .widget-toggle-buttons button:text-is("{text}")').first

    def tab(self, title: str, within: str = "body") -> Locator:
        return self.page.locator(f'{within} .lm-TabBar-tab:has(.lm-TabBar-tabLabel:text-is("{title}"))').first

    def accordion(self, title: str, within: str = "body") -> Locator:
        return self.page.locator(f'{within} .jupyter-widget-Collapse-header:has(span:text-is("{title}"))').first

    # ---------------------------------------------------------------- acting like a person

    def open_section(self, title: str, within: str = "body") -> None:
        """Open an accordion section by a click on its title (unless it is open already)."""
        header = self.accordion(title, within)
        if not header.evaluate("h => h.parentElement.classList.contains('jupyter-widget-Collapse-open')"):
            header.click()

    def press_slider(self, label: str, key: str = "ArrowRight", times: int = 1, within: str = "body") -> None:
        handle = self.slider_handle(label, within)
        handle.focus()
        for _ in range(times):
            handle.press(key)

    def slide_to(self, label: str, value: int, within: str = "body") -> None:
        current = self.slider_value(label, within)
        key = "ArrowRight" if value > current else "ArrowLeft"
        self.press_slider(label, key, abs(value - current), within)

    def pick(self, label: str, option: str, within: str = "body") -> None:
        """Click the picker, then choose the option by its visible text."""
        select = self.dropdown(label, within)
        select.click()
        select.select_option(label=option)

    def fill(self, label: str, text: str, within: str = "body") -> None:
        box = self.text_box(label, within)
        box.click()
        box.fill(text)
        box.press("Tab")  # a Text widget with continuous_update=False sends its value on blur

    # ---------------------------------------------------------------- reading what is shown

    def plot_data(self, root: str) -> list[dict]:
        """The traces plotly drew in the plot `root` (or the first plot inside it): name, type, x and y of each."""
        return json.loads(self.js(
            """root => {
                const plot = document.querySelector(`${root}.js-plotly-plot, ${root} .js-plotly-plot`);
                if (!plot || !plot.data) return 'null';
                return JSON.stringify(plot.data.map(t => ({
                    name: t.name ?? null, type: t.type ?? null,
                    x: t.x ? Array.from(t.x) : null, y: t.y ? Array.from(t.y) : null})));
            }""",
            root,
        ))

    def wait_for_plot(self, root: str, check: str, arg: Any = None) -> None:
        """Wait until `check(traces, arg)` (a JS arrow function over the drawn traces) is true."""
        try:
            self._wait_for_plot(root, check, arg)
        except TimeoutError:
            raise AssertionError(f"the plot {root} never satisfied {check} with {arg!r}; it draws "
                                 f"{self.plot_data(root)!r}") from None

    def _wait_for_plot(self, root: str, check: str, arg: Any = None) -> None:
        self.page.wait_for_function(
            f"""([root, arg]) => {{
                const plot = document.querySelector(`${{root}}.js-plotly-plot, ${{root}} .js-plotly-plot`);
                if (!plot || !plot.data) return false;
                const traces = plot.data.map(t => ({{name: t.name, x: t.x ? Array.from(t.x) : [],
                                                     y: t.y ? Array.from(t.y) : []}}));
                try {{ return ({check})(traces, arg); }}
                catch (e) {{ return false; }}  // e.g. a trace not drawn yet: keep waiting (not a page error)
            }}""",
            arg=[root, arg],
        )
