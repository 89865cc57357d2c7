"""Switches that turn one of the server's speed devices off, for measuring what each one buys.

Why: a device is kept only while its gain is worth its lines, and that gain is measured by serving the same pages
with and without it (benchmarks/, `--off NAME`). A Director never sets these: `$WORKBENCH_SERVER_OFF` is read
here only, by the server process and by the kernels it starts (they inherit its environment).

- `in-place`: a chart in a `ChartSlot` is never changed in place; each change shows a new FigureWidget
  (`charts.ServedCharts.hears`), as under stock Voilà. The builder changes its scaling chart in place itself,
  without asking the server, and is not concerned.
- `cartesian`: the charts' JavaScript is plotly's own widget bundle (the whole of plotly.js, a module), not
  plotly.js's cartesian build with the workbench's view (`site.plotly_bundle`).
- `zygote`: kernels start the usual way (a new Python that imports everything), not forked from the kernel zygote
  (`app.kernel_provisioner_arguments`).
- `unchecked`: a chart's FigureWidget checks its whole figure again, as plotly does (`charts.heard_widget`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["DEVICES", "OFF_VARIABLE", "off"]

OFF_VARIABLE = "WORKBENCH_SERVER_OFF"  # names of DEVICES, separated by commas
DEVICES = ("in-place", "cartesian", "zygote", "unchecked")


def off(device: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether `$WORKBENCH_SERVER_OFF` turns `device` (one of `DEVICES`) off."""
    if device not in DEVICES:
        raise ValueError(f"no speed device {device!r}; the devices are {', '.join(DEVICES)}")
    env = os.environ if environ is None else environ
    return device in {name.strip() for name in env.get(OFF_VARIABLE, "").split(",")}
