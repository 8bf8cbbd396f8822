// A static app page (site/apps/<app>.html, written by tools/build_static_apps.py).
//
// The page is the whole app, with no server: Pyodide runs the notebook's cells on the
// page's own thread (the site's copy, the one the roller cells use), and Jupyter's
// stand-alone widget manager (@jupyter-widgets/html-manager, loaded before this script)
// draws its widgets. kernel.py is the Python side; widget messages go between the two as
// JSON. Everything comes from the site, so the service worker's copy serves it offline.

const appsDir = new URL("../", import.meta.url);
const siteRoot = new URL("../", appsDir);
const output = document.getElementById("tc-static-output");
const status = document.getElementById("tc-static-status");
const PROTOCOL = { version: "2.1.0" };

const mark = window.tcStaticMark;

function say(text, failed = false) {
  if (!status) return;
  status.textContent = text;
  status.classList.toggle("tc-static-failed", failed);
}

// A storage failure (IndexedDB full or blocked; kernel.py says which): one line on top,
// said once. There is no server here, so there is no "connection lost" to report.
window.tcStorageFailed = (text) => {
  let bar = document.querySelector(".tc-storage-failed");
  if (!bar) {
    bar = document.createElement("div");
    bar.className = "tc-storage-failed";
    bar.setAttribute("role", "alert");
    document.body.prepend(bar);
  }
  bar.textContent = String(text);
};

// Links between apps name notebooks (app.ipynb?...): here each app is app.html.
document.addEventListener("click", (event) => {
  const link = event.target && event.target.closest ? event.target.closest("a[href]") : null;
  if (!link) return;
  const m = /^([A-Za-z0-9_]+)\.ipynb(\?.*)?$/.exec(link.getAttribute("href") || "");
  if (m) link.setAttribute("href", `${m[1]}.html${m[2] || ""}`);
}, true);

// Pyodide and the packages were started by start.js; the widget manager is read by now.
const managerModule = new Promise((ok, bad) =>
  window.requirejs(["@jupyter-widgets/html-manager"], ok, bad)).then((m) => (mark("manager"), m));

// One end of a widget's comm: the manager's side; the other end is kernel.py's PageComm.
class PageComm {
  constructor(kernel, commId, targetName) {
    this.kernel = kernel;
    this.comm_id = commId;
    this.target_name = targetName;
    this._onMsg = null;
    this._onClose = null;
    this._early = []; // messages that came before the model listened
  }
  open() { return this.comm_id; }
  on_msg(callback) {
    this._onMsg = callback;
    const early = this._early;
    this._early = [];
    for (const msg of early) callback(msg);
  }
  on_close(callback) { this._onClose = callback; }
  send(data, callbacks, metadata, buffers) {
    // After the caller has counted the message as pending (it does so on return).
    queueMicrotask(() => {
      this.kernel.toPython(this.comm_id, data, buffers || []);
      const idle = callbacks && callbacks.iopub && callbacks.iopub.status;
      if (idle) idle({ content: { execution_state: "idle" } });
    });
    return this.comm_id;
  }
  close() {
    this.kernel.closeFromPage(this.comm_id);
    return this.comm_id;
  }
  handle(msg) {
    if (this._onMsg) this._onMsg(msg);
    else this._early.push(msg);
  }
}

class PageKernel {
  constructor(manager, python) {
    this.manager = manager;
    this.python = python;
    this.comms = new Map();
    this.shown = [];
  }
  message(commId, data, buffers, metadata) {
    return {
      header: { msg_type: "comm_msg" }, parent_header: {}, channel: "iopub",
      content: { comm_id: commId, data }, metadata: metadata || {},
      buffers: Array.from(buffers || [], (b) => new DataView(b.buffer, b.byteOffset, b.byteLength)),
    };
  }
  // Called from Python (kernel.py PageComm.publish_msg).
  from_kernel(msgType, commId, targetName, dataJson, metadataJson, buffers) {
    const data = JSON.parse(dataJson);
    const metadata = JSON.parse(metadataJson);
    const raw = Array.from(buffers || [], (b) => new Uint8Array(b));
    if (msgType === "comm_open") {
      const comm = new PageComm(this, commId, targetName);
      this.comms.set(commId, comm);
      const msg = this.message(commId, data, raw, { ...PROTOCOL, ...metadata });
      msg.content.target_name = targetName;
      this.manager.handle_comm_open(comm, msg).catch((e) => console.error("widget", e));
    } else if (msgType === "comm_msg") {
      const comm = this.comms.get(commId);
      if (comm) comm.handle(this.message(commId, data, raw, metadata));
    } else if (msgType === "comm_close") {
      const comm = this.comms.get(commId);
      this.comms.delete(commId);
      if (comm && comm._onClose) comm._onClose(this.message(commId, data, raw, metadata));
    }
  }
  toPython(commId, data, buffers) {
    const views = Array.from(buffers, (b) =>
      b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    try {
      this.python.deliver(commId, JSON.stringify(data), views);
    } catch (e) {
      console.error("Table Companion:", e);
    }
  }
  closeFromPage(commId) {
    this.comms.delete(commId);
    try { this.python.closed_by_page(commId); } catch (e) { console.error(e); }
  }
  show_widget(modelId) {
    const box = document.createElement("div");
    box.className = "tc-static-cell";
    output.appendChild(box);
    this.shown.push(this.manager.get_model(modelId)
      .then((model) => this.manager.create_view(model))
      .then((view) => this.manager.display_view(view, box)));
  }
  show_html(html) {
    const box = document.createElement("div");
    box.className = "tc-static-cell";
    box.innerHTML = html;
    output.appendChild(box);
  }
  show_text(text) {
    const box = document.createElement("pre");
    box.className = "tc-static-cell";
    box.textContent = text;
    output.appendChild(box);
  }
}

// A container view (a Box, a Tab...) removed while the views of its children were still
// being made: the app replaced its children again at once (a phone's welcome after a
// reconnect puts every sheet back to the table's save, then makes its waiting taps on
// it again), and the new container shows them. ipywidgets' own view would then add the
// child to its disposed panel and throw ("Cannot read properties of null (reading
// 'widgets')") into the page as an unhandled rejection; here the late child view is
// removed and its adding left undone, as nothing shows that container any more.
const safeViews = new Map();
function safeContainer(cls) {
  if (typeof cls !== "function" || !cls.prototype || !("add_child_model" in cls.prototype)) {
    return cls;
  }
  let safe = safeViews.get(cls);
  if (!safe) {
    safe = class extends cls {
      create_child_view(model, options) {
        return super.create_child_view(model, options).then((view) => {
          const panel = this.luminoWidget;
          if (panel && panel.isDisposed) {
            view.remove();
            return new Promise(() => {}); // never added: its container is gone
          }
          return view;
        });
      }
    };
    safeViews.set(cls, safe);
  }
  return safe;
}

function managerClass(module) {
  // The stand-alone manager answers no comm of its own; ours goes to this page's kernel.
  return class PageManager extends module.HTMLManager {
    setKernel(kernel) { this.kernel = kernel; }
    async loadClass(className, moduleName, moduleVersion) {
      return safeContainer(await super.loadClass(className, moduleName, moduleVersion));
    }
    async _create_comm(targetName, modelId, data, metadata, buffers) {
      const comm = new PageComm(this.kernel, modelId, targetName);
      this.kernel.comms.set(modelId, comm);
      return comm;
    }
    async _get_comm_info() { return {}; }
  };
}

// Every file of the site, kept by the service worker for offline use after one visit.
function keepSiteOffline() {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  // A phone app (companion app's /phone/) has no site around it: its files are cached by
  // their content-hashed folder instead.
  if (document.body.dataset.tcPhone) return;
  navigator.serviceWorker.register(new URL("sw.js", siteRoot).href, { scope: siteRoot.pathname })
    .catch((e) => console.warn("Table Companion: no offline copy", e));
}

// After the first page of a build is shown: a snapshot for the next ones
// (javascripts/snapshot.mjs).
function makeSnapshot(dir) {
  const snapshot = window.tcStaticSnapshot;
  if (snapshot.used || !("caches" in window) || !window.Worker) return;
  const root = document.documentElement;
  root.dataset.tcSnapshot = "making";
  const worker = new Worker(new URL("javascripts/snapshot.mjs", siteRoot), { type: "module" });
  worker.onmessage = ({ data }) => {
    worker.terminate();
    root.dataset.tcSnapshot = data.ok ? "kept" : "failed";
    if (!data.ok) console.warn("Table Companion: no snapshot for faster pages:", data.error);
  };
  worker.postMessage({
    pyodideDir: new URL("assets/pyodide/", siteRoot).href,
    zipUrl: new URL("packages.zip", appsDir).href,
    dir,
    setup: `import sys\nsys.path.insert(0, ${JSON.stringify(dir)})\n` +
      "import tc_static_kernel\ntc_static_kernel.prepare(preload=True)\n",
    cacheName: snapshot.cacheName,
    key: snapshot.key,
    prefix: new URL("snapshot/", appsDir).href,
  });
}

async function main() {
  const cells = JSON.parse(document.getElementById("tc-static-cells").textContent);
  const boot = window.tcStaticBoot;
  const [module, pyodide, zip] = await Promise.all([managerModule, boot.pyodide, boot.packages]);
  say("Starting the app…");
  const dir = "/home/pyodide/app-packages";
  pyodide.unpackArchive(zip, "zip", { extractDir: dir });
  pyodide.runPython(`import sys\nif ${JSON.stringify(dir)} not in sys.path: sys.path.insert(0, ${JSON.stringify(dir)})`);
  const python = pyodide.pyimport("tc_static_kernel");
  window.tcStaticPyodide = pyodide;  // for a look from the browser's console
  const Manager = managerClass(module);
  const manager = new Manager();
  const kernel = new PageKernel(manager, python);
  manager.setKernel(kernel);
  window.tcStaticKernel = kernel;
  mark("unpacked");
  await python.start(kernel);
  mark("started");
  for (const code of cells) await python.run_cell(code);
  mark("ran");
  await Promise.all(kernel.shown);
  mark("shown");
  if (status) status.remove();
  document.documentElement.dataset.tcStatic = "ready";
  window.tcStaticReady = performance.now();
  // Not before the app is shown: keeping the site and making the snapshot take seconds
  // of the same two cores the first page needs.
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 500));
  idle(() => { keepSiteOffline(); makeSnapshot(dir); });
}

main().catch((error) => {
  console.error("Table Companion: the app could not start", error);
  // The last line of a Python traceback, without its exception's class
  // ("companion.store.records.StoreError: ...": a program's word, not the page's).
  const line = String((error && error.message) || error).trim().split("\n").pop()
    .replace(/^[A-Za-z_][\w.]*(Error|Exception|Warning): /, "");
  say(`This app could not start: ${line}`, true);
  document.documentElement.dataset.tcStatic = "failed";
});
