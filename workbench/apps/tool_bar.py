"""The workbench page's bar of tools, and the page's address naming the tool in view.

Why a widget of its own (anywidget: a few lines of JavaScript in the browser): the bar's entries are plain links
(`#tool=encounter`), so the browser does what a Director expects of a page with several views without a round
trip to the kernel: a click adds a step to the history, Back and Forward go through the tools seen, a link or a
reload opens the tool it names, and a middle click opens it in a new tab. The browser tells the kernel which tool
the address names (`tool`); when the kernel shows another tool itself, the address follows (a new step in the
history). With `address` off (a notebook in JupyterLab, whose own address must not change) a click only sets
`tool`. Its look is the workbench's stylesheet's (`wb-tool-bar`).
"""

from __future__ import annotations

from collections.abc import Sequence

import anywidget
import traitlets

__all__ = ["ToolBar"]

ESM = """
const named = () => new URLSearchParams(window.location.hash.slice(1)).get("tool");

function render({ model, el }) {
  const nav = document.createElement("nav");
  nav.className = "wb-tool-bar";
  nav.setAttribute("aria-label", "Tools");
  const links = new Map();
  for (const [key, title] of model.get("tools")) {
    const link = document.createElement("a");
    link.href = "#tool=" + encodeURIComponent(key);
    link.textContent = title;
    link.className = "wb-tool-link wb-tool-" + key;
    link.dataset.tool = key;
    nav.appendChild(link);
    links.set(key, link);
  }
  el.appendChild(nav);
  const mark = () => {
    for (const [key, link] of links) {
      if (key === model.get("tool")) {
        link.setAttribute("aria-current", "page");
        if (model.get("address") && model.get("site")) document.title = link.textContent + " · " + model.get("site");
      } else link.removeAttribute("aria-current");
    }
  };
  const ask = (tool) => {
    if (links.has(tool) && tool !== model.get("tool")) {
      model.set("tool", tool);
      model.save_changes();
    }
    mark();
  };
  const follow = (push) => {
    const tool = model.get("tool");
    if (!model.get("address") || named() === tool) return;
    const address = new URL(window.location.href);
    address.hash = "tool=" + encodeURIComponent(tool);
    (push ? window.history.pushState : window.history.replaceState).call(window.history, null, "", address);
  };
  const fromAddress = () => ask(named());
  const clicked = (event) => {
    const link = event.target.closest("a[data-tool]");
    if (!link || model.get("address")) return;  // with the address on, the link's own navigation does it
    event.preventDefault();
    ask(link.dataset.tool);
  };
  const changed = () => { mark(); follow(true); };
  nav.addEventListener("click", clicked);
  model.on("change:tool", changed);
  if (model.get("address")) {
    window.addEventListener("hashchange", fromAddress);
    window.addEventListener("popstate", fromAddress);
    if (links.has(named())) fromAddress(); else follow(false);
  }
  mark();
  return () => {
    model.off("change:tool", changed);
    window.removeEventListener("hashchange", fromAddress);
    window.removeEventListener("popstate", fromAddress);
  };
}

export default { render };
"""



class ToolBar(anywidget.AnyWidget):
    """The bar: `tools` as (key, title) pairs in order, `tool` the key in view, `address` whether the page's
    address follows it (and Back goes to the previous tool), `site`: with the address, the page's title is the
    tool's, then this."""

    _esm = ESM
    tools = traitlets.List(traitlets.Tuple(traitlets.Unicode(), traitlets.Unicode())).tag(sync=True)
    tool = traitlets.Unicode("").tag(sync=True)
    address = traitlets.Bool(False).tag(sync=True)
    site = traitlets.Unicode("").tag(sync=True)

    def __init__(self, tools: Sequence[tuple[str, str]], tool: str, address: bool = False, site: str = "") -> None:
        super().__init__(tools=[tuple(pair) for pair in tools], tool=tool, address=address, site=site)
        self.add_class("wb-tool-bar-widget")
