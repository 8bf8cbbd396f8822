// Live roller cells: each cell's expression (or random table) is rolled by the project's
// own engine running in Pyodide. Everything comes from this site (no CDN): Pyodide's
// runtime from assets/pyodide/, the package's core from assets/wheels/companion-core.zip.
// Pyodide loads when a Roll button is first approached (hover, focus, touch), so a page
// that is only read stays light.

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
