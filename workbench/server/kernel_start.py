"""What `workbench app` does in each kernel it starts, once the kernel's IPython is up.

The apps ask `workbench.apps.serving` how to build a page and make a chart; here a kernel of the server answers
for them: a page is built before its visit (`visit.page_for_visit`), its charts load their JavaScript from the
server (`charts.ServedCharts`), and a figure shown as a cell's output draws as HTML (`page_renderer`). Only in a
kernel Voilà started: the test suite's notebook kernels go through the same kernel provisioner and stay as they
are.

A kernel forked from the zygote (`kernel_zygote`) calls `start` before it starts serving; a kernel launched the
usual way runs this module in place of `ipykernel_launcher` (`python -m workbench.server.kernel_start -f ...`).
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["LAUNCHER", "served_lessons", "start"]

LAUNCHER = "workbench.server.kernel_start"  # the module a launched kernel runs (`python -m`)


def start() -> None:
    """In a kernel Voilà started, install the server's ways of building pages, making charts and showing figures,
    and the lessons it serves."""
    from workbench.apps import serving
    from workbench.server.charts import ServedCharts
    from workbench.server.page_renderer import in_voila, use_page_renderer
    from workbench.server.visit import page_for_visit

    if not in_voila():
        return
    use_page_renderer()
    serving.install(pages=page_for_visit, charts=ServedCharts(), lessons=served_lessons(Path.cwd()))


def served_lessons(root: Path) -> tuple[tuple[str, str, str], ...]:
    """The lessons the landing page lists (file, title, purpose), from the data `site.prepare_site` wrote beside
    the served `root` (a kernel runs in it); none where there is no such data (a kernel of plain Voilà)."""
    from workbench.server.site import read_landing

    try:
        listed = read_landing(root)["lessons"]
    except (OSError, ValueError, KeyError, TypeError):
        return ()
    return tuple((entry["file"], entry["title"], entry["purpose"]) for entry in listed
                 if isinstance(entry, dict) and not entry.get("problem"))


def main() -> None:
    """`python -m ipykernel_launcher`, with `start` once the kernel's IPython is up and before it serves."""
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize()  # type: ignore[no-untyped-call]  # ipykernel leaves it untyped
    start()
    app.start()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    if sys.path[0] == "" or Path(sys.path[0]) == Path.cwd():  # as ipykernel_launcher: IPython puts it back
        del sys.path[0]
    main()
