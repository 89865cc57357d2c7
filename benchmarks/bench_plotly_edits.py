"""What each kind of change costs plotly.js on the builder's Scaling chart, and which ones recompute the figure.

The builder's chart tab misses its goal (a Level key -> the page settled, p95 < 40 ms) by plotly.js's
redraw of the chart (`bench_chart_breakdown.py`). plotly.js's attributes declare cheaper paths than a full redraw:
an edit whose type is "style", "arraydraw" (one shape or annotation redrawn), "ticks" or an axis range. A chart built so
that a level change takes only those paths (the marker and the bars as shapes and annotations, or shown and
hidden by opacity) would be cheaper, if the paths are. This script measures them on the builder's own figure
(`charts.scaling.scaling_figure`, a leader at level 1), in a page of its own on plotly.js's cartesian build (the
one `workbench app` serves), with nothing else on the page:

- *as sent*: the `Plotly.update` calls plotly.py's FigureWidget sends for 40 level changes (`update_scaling_figure`);
- *the title*, *an axis range*, *a style* (the marker's opacity, one value for the trace: plotly recomputes a
  figure when an array of values, one per point, is given or replaced), *a subplot title* (an annotation), *a shape
  moved* (one rectangle on the bars' axes, with those axes' ranges fixed, so no autorange is involved);
- *all three at once*: the title, an axis range and a style in one `Plotly.update`, the cheapest a level change
  could be if a chart were built so that nothing else changed with the level.

For each kind: the time `Plotly.relayout` / `restyle` / `update` takes (plotly draws synchronously, so this is
its redraw) and whether plotly recomputed the figure (`gd.calcdata` replaced: the full path). The kinds take
turns, round after round, so a change in the machine's speed falls on all of them alike.

Run: .venv/bin/python benchmarks/bench_plotly_edits.py [rounds]   (default 4; 40 edits a kind a round)
"""

from __future__ import annotations

import json
import sys
from typing import Any

from app_server import launch_chromium  # scripts beside this one
from bench_browser import report
from playwright.sync_api import sync_playwright
from plotly.utils import PlotlyJSONEncoder

from workbench import stat_table
from workbench.charts.scaling import scaling_figure, update_scaling_figure
from workbench.server.charts import heard_widget as figure_widget
from workbench.server.site import plotly_bundle

KINDS = ("as sent", "the title", "an axis range", "a style", "all three at once", "a subplot title", "a shape moved")


class _Encoder(PlotlyJSONEncoder):  # type: ignore[misc]  # plotly is untyped
    """plotly.py's own encoder; `Undefined` (a trace the change leaves alone) as the marker its view decodes."""

    def default(self, obj: Any) -> Any:
        try:
            return super().default(obj)
        except TypeError:
            return "_undefined_"


def builder_chart(changes: int) -> dict[str, Any]:
    """The chart as a page first draws it, and the update messages of `changes` level changes, 1 to 10 round."""
    table = stat_table(range(1, 11))
    widget = figure_widget(scaling_figure(table, 1, "leader", None))
    sent: list[dict[str, Any]] = []

    def keep(change: dict[str, Any]) -> None:
        if change["new"]:  # plotly.py sets each message, then resets the trait to None
            sent.append(change["new"])

    widget.observe(keep, names="_py2js_update")
    first = {"data": widget._widget_data, "layout": widget._widget_layout}
    level = 1
    for _ in range(changes):
        level = level % 10 + 1
        update_scaling_figure(widget, table, level, "leader", None)
    loaded: dict[str, Any] = json.loads(json.dumps({"first": first, "updates": sent}, cls=_Encoder))
    return loaded


# One round: the figure drawn afresh for each kind, then that kind's edits one at a time, a frame between them.
ROUND = r"""
async ({figure, updates, kind}) => {
  const decode = v => v === "_undefined_" ? undefined : Array.isArray(v) ? v.map(decode)
      : (v && typeof v === "object") ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)])) : v;
  document.body.innerHTML = '<div id="chart" style="width: 900px"></div>';
  const gd = document.getElementById("chart");
  const layout = decode(figure.layout);
  if (kind === "a shape moved") {
    layout.xaxis2 = {...layout.xaxis2, autorange: false, range: [-0.5, 10.5]};
    layout.yaxis2 = {...layout.yaxis2, autorange: false, range: [0, 300]};
    layout.shapes = [{type: "rect", xref: "x2", yref: "y2", x0: 0.6, x1: 1.4, y0: 0, y1: 100}];
  }
  await Plotly.newPlot(gd, decode(figure.data), layout, {editSelection: false});
  const frame = () => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
  const edit = (i) => {
    const sent = decode(updates[i]);
    switch (kind) {
      case "as sent": return Plotly.update(gd, sent.style_data, sent.layout_data, sent.style_traces);
      case "the title": return Plotly.relayout(gd, {"title.text": sent.layout_data["title.text"]});
      case "an axis range": return Plotly.relayout(gd, {"yaxis2.range": [0, 250 + i % 2 * 50]});
      // one value for the trace: an array, one per point, recomputes
      case "a style": return Plotly.restyle(gd, {"marker.opacity": i % 2 ? 1 : 0.9}, [1]);
      case "all three at once": return Plotly.update(gd, {"marker.opacity": i % 2 ? 1 : 0.9},
          {"title.text": sent.layout_data["title.text"], "yaxis2.range": [0, 250 + i % 2 * 50]}, [1]);
      case "a subplot title":
        return Plotly.relayout(gd, {"annotations[1].text": sent.layout_data["annotations.1.text"]});
      case "a shape moved": return Plotly.relayout(gd, {"shapes[0].y1": 100 + i % 2 * 50});
    }
  };
  await frame();
  const times = []; let recomputed = 0;
  for (let i = 0; i < updates.length; i++) {
    const before = gd.calcdata;
    const start = performance.now();
    await edit(i);
    times.push(performance.now() - start);
    if (gd.calcdata !== before) recomputed++;
    await frame();
    await new Promise(done => setTimeout(done, 30));
  }
  return {times, recomputed};
}
"""


def main(rounds: int = 4) -> None:
    bundle = plotly_bundle()
    if bundle is None or not bundle.classic:
        sys.exit("plotly.js's cartesian build is missing: run `make` first (it fetches it)")
    chart = builder_chart(40)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    recomputed = dict.fromkeys(KINDS, 0)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto("about:blank")
        page.add_script_tag(path=str(bundle.files[0]))
        for _ in range(rounds):
            for kind in KINDS:
                result = page.evaluate(ROUND, {"figure": chart["first"], "updates": chart["updates"], "kind": kind})
                times[kind] += result["times"][5:]  # the first few warm plotly's code up
                recomputed[kind] += result["recomputed"]
        browser.close()
    edits = rounds * len(chart["updates"])
    rounds_words = f"{rounds} round{'s' * (rounds != 1)}"
    print(f"the builder's Scaling chart, {rounds_words} of {len(chart['updates'])} edits a kind, in turn")
    for kind in KINDS:
        report(f"{kind} (recomputed {recomputed[kind]} of {edits})", times[kind])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4)
