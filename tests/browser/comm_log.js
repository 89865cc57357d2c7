/* The page's talk with its kernel, as a list of lines in window.__wbCommLog: evidence for a page that never
   becomes ready (conftest._save_evidence writes it out). It keeps, with the time since the page began:
   - the widget models the page's outputs show (model ids, read once the HTML has arrived);
   - every websocket opened or closed;
   - every comm message either way (open, message, close: comm id, target, method), and for the kernel's
     answer with every widget's state ("update_states") the ids of the models it holds;
   - the kernel's status when it is starting, restarting or dead.
   Why: "widget model not found" means an output names a model the page's widget manager does not
   have; this shows whether the kernel sent it, closed it, or was never asked. */
(() => {
  const log = (window.__wbCommLog = []);
  const started = performance.now();
  const at = () => ((performance.now() - started) / 1000).toFixed(3);
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const field = (text, name) => (text.match(new RegExp(`"${name}":\\s*"([\\w.-]+)"`)) || [])[1] || "";
  const note = (direction, data) => {
    let text = "";
    try {
      text = typeof data === "string" ? data : decoder.decode(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
    } catch (error) {
      return;
    }
    const type = field(text, "msg_type");
    const state = type === "status" ? field(text, "execution_state") : "";
    if (!type.startsWith("comm") && !["starting", "restarting", "dead"].includes(state)) {
      return;
    }
    let line = `${at()} ${direction} ${type} ${state || field(text, "target_name")} ${field(text, "comm_id")} ${field(text, "method")}`;
    if (field(text, "method") === "update_states") {
      const ids = [...text.matchAll(/"([0-9a-f]{32})":\s*\{\s*"model_name"/g)].map(match => match[1]);
      line += ` ${ids.length} models: ${ids.join(" ")}`;
    }
    log.push(line);
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      log.push(`${at()} websocket opened ${args[0]}`);
      this.addEventListener("message", event => note("in", event.data));
      this.addEventListener("close", event => log.push(`${at()} websocket closed (${event.code}) ${args[0]}`));
    }
    send(data) {
      note("out", data);
      return super.send(data);
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const shown = [...document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]')]
      .map(output => (output.textContent.match(/"model_id":\s*"([0-9a-f]{32})"/) || [])[1]).filter(Boolean);
    log.push(`${at()} the outputs show the models: ${shown.join(" ")}`);
  });
})();
