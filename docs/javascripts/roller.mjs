// Live roller cells: rolls each cell's expression (or random table) with the project's own engine, running
// in Pyodide. Everything is fetched from this site (no CDN): Pyodide's runtime from
// assets/pyodide/ and the package's core from assets/wheels/companion-core.zip.
// Pyodide loads on the first press only, so pages without a press stay light.

const siteRoot = new URL("../", import.meta.url);
const pyodideDir = new URL("assets/pyodide/", siteRoot).href;
const coreZip = new URL("assets/wheels/companion-core.zip", siteRoot).href;
const coreDir = "/home/pyodide/companion-core";

const PY_SETUP = `
import json, sys
sys.path.insert(0, ${JSON.stringify(coreDir)})
from companion import dice, tables
from companion.errors import CompanionError

def _companion_roll(expr):
    try:
        r = dice.roll(expr)
    except CompanionError as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps({"text": str(r), "html": r._repr_html_(), "total": r.total})

def _companion_roll_table(table_id):
    try:
        result = tables.get(table_id).roll()
    except CompanionError as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps({"text": str(result)})
`;

let engine = null;

function loadEngine() {
  if (engine === null) {
    engine = (async () => {
      const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideDir).href);
      const pyodide = await loadPyodide({ indexURL: pyodideDir });
      const response = await fetch(coreZip);
      if (!response.ok) throw new Error(`could not fetch the dice engine (HTTP ${response.status})`);
      pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: coreDir });
      pyodide.runPython(PY_SETUP);
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

async function roll(cell, button, output) {
  button.disabled = true;
  if (output.dataset.n === "0") output.textContent = "Loading the dice engine…";
  try {
    const rollers = await loadEngine();
    const result = JSON.parse(
      cell.dataset.table ? rollers.table(cell.dataset.table) : rollers.expr(cell.dataset.expr),
    );
    output.classList.toggle("roller-failed", "error" in result);
    if ("error" in result) {
      output.textContent = result.error;
    } else {
      // The engine's own HTML (it escapes the expression and labels), else plain text.
      if (result.html) output.innerHTML = result.html;
      else output.textContent = result.text;
      output.dataset.text = result.text;
      if (result.total !== undefined) output.dataset.total = String(result.total);
    }
    output.dataset.n = String(Number(output.dataset.n) + 1);
  } catch (err) {
    output.classList.add("roller-failed");
    output.textContent = `Could not roll: ${err.message ?? err}`;
  } finally {
    button.disabled = false;
  }
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
    live.hidden = false;
  }
}

wire(document);
