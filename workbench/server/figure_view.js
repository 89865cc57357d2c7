// The browser side of the app's charts (plotly FigureWidgets) under `workbench app`, on plotly.js's cartesian
// build. `workbench.server.site` serves this script after that build (which sets `window.Plotly`), in place of plotly's own
// widget bundle: that one carries all of plotly.js (4.8 MB: maps, 3D, WebGL), the cartesian build 1.5 MB, and
// the workbench draws only bar, box and scatter charts.
//
// A classic script, not a module: each page's head runs the served file (`<script defer>`), and Chromium keeps
// a classic script's compiled code in its code cache from the third visit on; a module (imported, or run by
// `<script type="module">`) was parsed and compiled again at every visit. The view is left in
// `window.workbenchFigureView`, where the charts' widgets and the lessons' static figures find it
// (`workbench.server.page_renderer.LOAD_CHARTS`).
//
// It speaks the messages of plotly.py's FigureWidget (plotly/basewidget.py): the figure in the `_widget_data`,
// `_widget_layout` and `_config` traits, each change from the kernel in a `_py2js_*` trait (set, then reset to
// null), and after each drawing an answer carrying the change's edit ids (`_js2py_traceDeltas`,
// `_js2py_widget_layoutDelta`), which `workbench.server.charts` waits for before it changes a chart in place. The
// answers carry no computed defaults (plotly's own view sends the whole computed figure after every change):
// the workbench never reads them, and leaving them out keeps a key press's work in the page small.

(() => {
  const Plotly = window.Plotly;

  const TYPED_ARRAYS = {
    int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
    int32: Int32Array, uint32: Uint32Array, float32: Float32Array, float64: Float64Array,
  };

  // plotly.py's serializer sends a 1-D numeric numpy array as {buffer, dtype, shape}, and Undefined as "_undefined_".
  function decode(value) {
    if (value === "_undefined_") return undefined;
    if (Array.isArray(value)) return value.map(decode);
    if (value === null || typeof value !== "object") return value;
    if (value.buffer instanceof DataView && value.dtype in TYPED_ARRAYS) {
      const view = value.buffer;
      const copy = view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
      return new TYPED_ARRAYS[value.dtype](copy);
    }
    const out = {};
    for (const [key, item] of Object.entries(value)) out[key] = decode(item);
    return out;
  }

  // Trace indexes come as a list: plotly.py normalizes them before it sends (`_normalize_trace_indexes`).
  function render({ model, el }) {
    function answer(message) {
      if (message.trace_edit_id !== undefined) {
        const deltas = el.data.filter((trace) => trace.uid !== undefined).map((trace) => ({ uid: trace.uid }));
        model.set("_js2py_traceDeltas", { trace_deltas: deltas, trace_edit_id: message.trace_edit_id });
      }
      model.set("_js2py_widget_layoutDelta", { layout_delta: {}, layout_edit_id: message.layout_edit_id });
      model.save_changes();
    }

    const apply = {
      _py2js_restyle: (m) => Plotly.restyle(el, decode(m.restyle_data), m.restyle_traces),
      _py2js_relayout: (m) => Plotly.relayout(el, decode(m.relayout_data)),
      _py2js_update: (m) => Plotly.update(el, decode(m.style_data || {}), decode(m.layout_data || {}), m.style_traces),
      _py2js_addTraces: (m) => Plotly.addTraces(el, decode(m.trace_data)),
      _py2js_deleteTraces: (m) => Plotly.deleteTraces(el, m.delete_inds),
      _py2js_moveTraces: (m) => Plotly.moveTraces(el, m.current_trace_inds, m.new_trace_inds),
      _py2js_animate: (m) => Plotly.animate(el, { data: decode(m.style_data), layout: decode(m.layout_data),
                                                  traces: m.style_traces }, m.animation_opts),
    };

    const layout = decode(model.get("_widget_layout")); // decode copies: plotly.js must not change the model
    if (!layout.height) layout.height = 360; // plotly's widget's default
    const config = { ...decode(model.get("_config")), editSelection: false };
    const first = { layout_edit_id: model.get("_last_layout_edit_id"), trace_edit_id: model.get("_last_trace_edit_id") };
    // One change at a time, in the order sent, the first drawing first: each waits for the drawing before it.
    let queue = Plotly.newPlot(el, decode(model.get("_widget_data")), layout, config).then(() => answer(first));
    function run(name, message) {
      queue = queue.then(() => apply[name](message)).then(() => {
        if (message.layout_edit_id !== undefined) answer(message);
      }).catch((error) => console.error(`workbench chart: ${name} failed`, error));
    }

    const listeners = Object.keys(apply).map((name) => {
      const listener = () => {
        const message = model.get(name);
        if (message !== null && message !== undefined) run(name, message);
      };
      model.on(`change:${name}`, listener);
      return [`change:${name}`, listener];
    });

    return () => { // the view is gone (its model may live on, shown elsewhere)
      for (const [event, listener] of listeners) model.off(event, listener);
      Plotly.purge(el);
    };
  }

  window.workbenchFigureView = { render };
})();
