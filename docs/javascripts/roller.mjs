// Live roller cells: each cell's expression (or random table) is rolled by the project's
// own engine running in Pyodide. Everything comes from this site (no CDN): Pyodide's
// runtime from assets/pyodide/, the package's core from assets/wheels/companion-core.zip.
// Pyodide loads when a Roll button is first approached (hover, focus, touch), so a page
// that is only read stays light. Once it has loaded on one page, a Web Worker keeps a
// snapshot of it with the engine imported (snapshot.mjs): later pages resume from that in
// a fraction of a second, so their first roll answers at once.

const siteRoot = new URL("../", import.meta.url);
const pyodideDir = new URL("assets/pyodide/", siteRoot).href;
const coreZip = new URL("assets/wheels/companion-core.zip", siteRoot).href;
const coreDir = "/home/pyodide/companion-core";

// Each roll draws a fresh seed and reports it: `companion roll EXPR --seed N` on the command
// line gives the same dice, since CPython and Pyodide share random.Random.
const PY_SETUP = `
import json, random, sys
sys.path.insert(0, ${JSON.stringify(coreDir)})
from companion import dice, tables
from companion.errors import CompanionError

_seeds = random.SystemRandom()

def _companion_roll(expr):
    seed = _seeds.randrange(2**32)
    try:
        r = dice.roll(expr, seed=seed)
    except CompanionError as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps({"text": str(r), "html": r._repr_html_(), "total": r.total, "seed": seed})

def _companion_roll_table(table_id):
    seed = _seeds.randrange(2**32)
    try:
        result = tables.get(table_id).roll(seed=seed)
    except CompanionError as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps({"text": str(result), "seed": seed})
`;

const SNAPSHOTS = "tc-pyodide-snapshot";
const snapshotPrefix = new URL("roller-snapshot/", siteRoot).href;
let engine = null;

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The kept snapshot (there is at most one), read while the engine's zip is fetched; it is
// used only if it was made from that zip.
async function keptSnapshot() {
  if (!("caches" in window)) return null; // not a secure context: no snapshot, no harm
  try {
    const cache = await caches.open(SNAPSHOTS);
    const request = (await cache.keys()).find((r) => r.url.startsWith(snapshotPrefix));
    const hit = request && (await cache.match(request));
    return hit ? { key: request.url, bytes: new Uint8Array(await hit.arrayBuffer()) } : null;
  } catch {
    return null;
  }
}

function keepSnapshot(key) {
  // Automated browsers (the site's tests: a fresh profile per page) would throw it away.
  if (!("caches" in window) || !window.Worker || navigator.webdriver) return;
  const worker = new Worker(new URL("snapshot.mjs", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    worker.terminate();
    document.documentElement.dataset.rollerSnapshot = data.ok ? "kept" : "failed";
  };
  worker.postMessage({ pyodideDir, zipUrl: coreZip, dir: coreDir, setup: PY_SETUP,
                       cacheName: SNAPSHOTS, key, prefix: snapshotPrefix });
}

function loadEngine() {
  if (engine === null) {
    engine = (async () => {
      const fetchZip = fetch(coreZip).then((response) => {
        if (!response.ok) throw new Error(`could not fetch the dice engine (HTTP ${response.status})`);
        return response.arrayBuffer();
      });
      const [{ loadPyodide }, zip, candidate] = await Promise.all([
        import(new URL("pyodide.mjs", pyodideDir).href), fetchZip, keptSnapshot()]);
      // One snapshot per engine build (a Pyodide that differs refuses it: then a fresh start).
      // No digest outside a secure context (plain http on a LAN): then no snapshot either.
      const key = crypto.subtle ? snapshotPrefix + (await digest(zip)) : null;
      const kept = key && candidate && candidate.key === key ? candidate.bytes : null;
      let pyodide = null;
      if (kept) {
        try {
          pyodide = await loadPyodide({ indexURL: pyodideDir, _loadSnapshot: kept });
        } catch {
          caches.open(SNAPSHOTS).then((c) => c.delete(key));
        }
      }
      const resumed = pyodide !== null;
      pyodide ??= await loadPyodide({ indexURL: pyodideDir });
      pyodide.unpackArchive(zip, "zip", { extractDir: coreDir });
      if (resumed) {
        // The snapshot's random state is every page's: fresh entropy for this one.
        pyodide.runPython("import random; random.seed()");
      } else {
        pyodide.runPython(PY_SETUP);
        const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 500));
        if (key) idle(() => keepSnapshot(key));
      }
      document.documentElement.dataset.rollerEngine = resumed ? "resumed" : "booted";
      return {
        expr: pyodide.globals.get("_companion_roll"),
        table: pyodide.globals.get("_companion_roll_table"),
      };
    })();
    // A failed load (e.g. offline half-way) may be retried by the next press.
    engine.catch(() => { engine = null; });
  }
  return engine;
}

function show(cell, output, result) {
  output.classList.toggle("roller-failed", "error" in result);
  if ("error" in result) {
    output.textContent = result.error;
    return;
  }
  // The engine's own HTML (it escapes the expression and labels), else plain text.
  const body = document.createElement("div");
  if (result.html) body.innerHTML = result.html;
  else body.textContent = result.text;
  const replay = document.createElement("div");
  replay.className = "roller-seed";
  const command = cell.dataset.table
    ? `companion table ${cell.dataset.table} --roll --seed ${result.seed}`
    : `companion roll '${cell.dataset.expr}' --seed ${result.seed}`;
  replay.textContent = `seed ${result.seed} · replay: ${command}`;
  output.replaceChildren(body, replay);
  output.dataset.text = result.text;
  output.dataset.seed = String(result.seed);
  if (result.total !== undefined) output.dataset.total = String(result.total);
}

async function roll(cell, button, output) {
  button.disabled = true;
  if (output.dataset.n === "0") output.textContent = "Loading the dice engine…";
  try {
    const rollers = await loadEngine();
    const json = cell.dataset.table ? rollers.table(cell.dataset.table) : rollers.expr(cell.dataset.expr);
    show(cell, output, JSON.parse(json));
    output.dataset.n = String(Number(output.dataset.n) + 1);
  } catch (err) {
    output.classList.add("roller-failed");
    output.textContent = `Could not roll: ${err.message ?? err}`;
  } finally {
    button.disabled = false;
  }
}

function warmUp() {
  loadEngine().catch(() => {}); // errors surface on the press itself
}

function wire(root) {
  for (const cell of root.querySelectorAll(".roller[data-expr], .roller[data-table]")) {
    if (cell.dataset.wired) continue;
    cell.dataset.wired = "1";
    const live = cell.querySelector(".roller-live");
    const button = cell.querySelector(".roller-roll");
    const output = cell.querySelector(".roller-result");
    if (!live || !button || !output) continue;
    button.addEventListener("click", () => roll(cell, button, output));
    for (const event of ["pointerenter", "focus", "touchstart"]) {
      button.addEventListener(event, warmUp, { once: true, passive: true });
    }
    live.hidden = false;
  }
}

wire(document);
