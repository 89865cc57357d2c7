"""What a tool asks to see scrolled into view, scrolled there in the browser (the builder's Export tab, opened by a
button 2,000 px above it).

Why a widget of its own (anywidget: a few lines of JavaScript, drawing nothing): the kernel cannot scroll the
page, and a tool does not know the page it is on. A tool asks its workbench (`Workbench.reveal(selector)`); the
page it is on (the workbench page, a tool's own page) holds a `Revealer` following that workbench, which sends
the selector to its browser side; there, the first element the selector finds is scrolled into view once it is
drawn (a tab just opened is drawn a few frames later).
"""

from __future__ import annotations

from typing import Any

import anywidget

from workbench.apps.shared import Workbench

__all__ = ["Revealer"]

ESM = """
function render({ model, el }) {
  el.style.display = "none";
  const revealed = (message) => {
    if (!message || !message.reveal) return;
    const scroll = (frames) => {
      const target = document.querySelector(message.reveal);
      if (target && target.offsetParent !== null) target.scrollIntoView({block: "start", behavior: "smooth"});
      else if (frames > 0) requestAnimationFrame(() => scroll(frames - 1));  // drawn a few frames later
    };
    scroll(300);
  };
  model.on("msg:custom", revealed);
  return () => model.off("msg:custom", revealed);
}

export default { render };
"""


class Revealer(anywidget.AnyWidget):
    """Scrolls into view, in the browser, what a tool of `shared` asks for (`follow` another workbench)."""

    _esm = ESM

    def __init__(self, shared: Workbench) -> None:
        super().__init__(_dom_classes=("wb-revealer",))
        self.shared = shared
        shared.observe(self._asked, names="revealed")

    def follow(self, shared: Workbench) -> None:
        """Follow `shared` instead (the page works on another workbench)."""
        self.shared.unobserve(self._asked, names="revealed")
        self.shared = shared
        shared.observe(self._asked, names="revealed")

    def _asked(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.reveal(change["new"])

    def reveal(self, selector: str) -> None:
        """Scroll the page's first element `selector` finds into view (once it is drawn)."""
        self.send({"reveal": selector})
