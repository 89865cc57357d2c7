"""From a Level slider move to the new chart drawn, in a real browser, on the app pages of `workbench app`.

Starts `workbench app` on a free port (scratch HOME), opens the solos page (`solos.ipynb`: its Level slider
drives the instant-solo chart) in headless Chromium (the printer's: Debian's headless shell when present), and moves the slider the
way a person does: the handle focused, one ArrowRight or ArrowLeft press per change (up to level 10, then back
down). The clock starts at the keydown (in the page) and stops when a MutationObserver on the chart's place
sees a drawn plot whose title names the new level. Each change settles before the next (one at a time), then
the same again with keys pressed 175 ms apart (only the last level of a burst is waited for).

Goal: slider -> chart p95 < 100 ms. Figures in the report, never a timed assertion in the tests.

Run: .venv/bin/python benchmarks/bench_slider_chart.py [changes] [--off DEVICE]   (default 40; DEVICE: `switches.DEVICES`)
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from app_server import OFFLINE, add_off_option, launch_chromium, percentile, running_app  # a script beside this one
from playwright.sync_api import TimeoutError, sync_playwright
from timing import load_average

from workbench.server.app import new_token

PAGE = "solos.ipynb"
ROOT = "#rendered_cells .wb-page"
TOP = 10
MISS_MS = 15_000  # a change whose chart is not drawn by then counts as never drawn

# A keydown on the Level handle starts a sample; an observer on the chart's place stops it when a drawn plot's
# title names the level the slider now shows.
PROBE = """
({root}) => {
  const page = document.querySelector(root);
  const slider = Array.from(page.querySelectorAll('.widget-slider'))
    .find(s => s.querySelector('label.widget-label').textContent.trim() === 'Level');
  const handle = slider.querySelector('.noUi-handle');
  const place = page.querySelector('.js-plotly-plot').closest('.wb-chart-slot') || page;
  const probe = window.__probe = {target: null, start: 0, chart: null, plot: null, replaced: 0, inPlace: 0};
  handle.addEventListener('keydown', () => { probe.start = performance.now(); probe.chart = null; }, true);
  const drawn = () => Array.from(place.querySelectorAll('.js-plotly-plot')).find(p => p.querySelector('.main-svg'));
  const level = () => {
    for (const plot of place.querySelectorAll('.js-plotly-plot')) {
      const title = plot.layout && plot.layout.title && plot.layout.title.text;
      const match = title && /^Level (\\d+) /.exec(title);
      if (match && plot.querySelector('.main-svg')) return +match[1];
    }
    return null;
  };
  // the page's first change outside the slider and the chart (its comparison table): the kernel round trip
  const table = page.querySelector('.wb-solo-compare').closest('.widget-html');
  handle.addEventListener('keydown', () => { probe.table = null; }, true);
  new MutationObserver(() => { if (probe.table === null) probe.table = performance.now() - probe.start; })
    .observe(table, {subtree: true, childList: true, characterData: true});
  new MutationObserver(() => {
    if (probe.chart === null && level() === probe.target) {
      probe.chart = performance.now() - probe.start;
      const plot = drawn();
      if (probe.plot !== null) { if (plot === probe.plot) probe.inPlace++; else probe.replaced++; }
      probe.plot = plot;
    }
  }).observe(place, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""



def report(label: str, values: list[float]) -> None:
    missed = sum(1 for v in values if v == float("inf"))
    print(f"{label:<40} median {statistics.median(values):6.1f} ms   p95 {percentile(values, 0.95):6.1f} ms"
          f"   max {max(values):6.1f}   (n={len(values)}, {missed} never drawn within {MISS_MS // 1000} s)",
          flush=True)


def moves(page, handle, changes: int, gap_ms: int, burst: int = 1, tables: list[float] | None = None) -> list[float]:
    """`changes` samples; with `burst` > 1 the keys of a burst are pressed `gap_ms` apart and the clock of the
    last one is kept."""
    low = int(float(handle.get_attribute("aria-valuemin")))
    level = int(float(handle.get_attribute("aria-valuenow")))
    step, samples = 1, []
    for _ in range(changes):
        for index in range(burst):
            if not low <= level + step <= TOP:
                step = -step
            level += step
            page.evaluate("target => { window.__probe.target = target; }", level)
            handle.press("ArrowRight" if step > 0 else "ArrowLeft")
            if index < burst - 1:
                page.wait_for_timeout(gap_ms)
        try:
            page.wait_for_function("() => window.__probe.chart !== null", timeout=MISS_MS)
            samples.append(page.evaluate("() => window.__probe.chart"))
            if tables is not None:
                tables.append(page.evaluate("() => window.__probe.table ?? Infinity"))
        except TimeoutError:
            samples.append(float("inf"))  # never drawn (a chart that missed anywidget's 2 s stays blank)
        page.wait_for_timeout(gap_ms)
    return samples


def main(changes: int = 40, off: tuple[str, ...] = ()) -> None:
    print(f"{os.cpu_count()} cores, load average {load_average()}; off: {', '.join(off) or 'none'}")
    token = new_token()
    with tempfile.TemporaryDirectory(prefix="bench-slider-") as scratch:
        with running_app(Path(scratch), token, Path(scratch) / "voila.log", off=off) as (_server, url):
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright, OFFLINE)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"{url}/voila/render/{PAGE}?token={token}", timeout=300_000)
                page.wait_for_selector(f"{ROOT} .js-plotly-plot .main-svg", timeout=300_000)
                page.wait_for_timeout(2000)
                page.evaluate(PROBE, {"root": ROOT})
                handle = page.locator(
                    f'{ROOT} .widget-slider:has(> label.widget-label:text-is("Level")) .noUi-handle').first
                handle.focus()
                tables: list[float] = []
                one_at_a_time = moves(page, handle, changes, 250, tables=tables)
                report("slider -> comparison table (no chart)", tables)
                report("slider -> chart, one change at a time", one_at_a_time)
                burst = moves(page, handle, max(changes // 3, 5), 175, burst=3)
                report("slider -> chart, keys 175 ms apart", burst)
                counts = page.evaluate("() => [window.__probe.inPlace, window.__probe.replaced]")
                print(f"charts changed in place: {counts[0]}, replaced by a new chart: {counts[1]}")
                browser.close()
    print(f"load average {load_average()} at the end; goal p95 < 100 ms: "
          f"{'met' if percentile(one_at_a_time, 0.95) < 100 else 'NOT met'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("changes", type=int, nargs="?", default=40, help="changes a run (default 40)")
    add_off_option(parser)
    args = parser.parse_args()
    main(args.changes, tuple(args.off))
