// The offline verifier of the "Fair dice" page: a log exported with `companion log NAME
// --json` (or a campaign export) dropped on the box is checked by the package's own
// `fairplay.verify` (commitments, seeds, sittings: companion.sittings), running in Pyodide
// loaded from this site. Nothing is sent anywhere: the file is read in the page.

const siteRoot = new URL("../", import.meta.url);
const pyodideDir = new URL("assets/pyodide/", siteRoot).href;
const coreZip = new URL("assets/wheels/companion-core.zip", siteRoot).href;
const coreDir = "/home/pyodide/companion-core";

// One line back, as the command line answers: the checked count and the sittings' notes,
// or the first entry that does not hold.
const PY_SETUP = `
import json, sys
sys.path.insert(0, ${JSON.stringify(coreDir)})
from companion import fairplay
from companion.errors import CompanionError

def _companion_verify(text, name):
    notes = []
    try:
        doc = fairplay.parse_log(text, name)
        replay = None
        if isinstance(doc, dict) and "format" in doc:
            # A campaign export holds its facts: its rule rolls are made again whole, as the
            # command line makes them (a log view has none; its rule rolls keep the seed check).
            from companion.store.recompute import Recomputer
            campaign = doc.get("campaign")
            replay = Recomputer(campaign if isinstance(campaign, str) else "")
        checked = fairplay.verify(doc, notes=notes, replay=replay)
    except CompanionError as exc:
        return json.dumps({"ok": False, "line": f"{name}: {exc}"})
    line = f"{name}: {checked} roll{'s' if checked != 1 else ''} checked, all hold"
    for note in notes:
        line += f"; {note}"
    return json.dumps({"ok": True, "line": line})
`;

let engine = null;

function loadEngine() {
  if (engine === null) {
    engine = (async () => {
      const zip = fetch(coreZip).then((response) => {
        if (!response.ok) throw new Error(`could not fetch the checker (HTTP ${response.status})`);
        return response.arrayBuffer();
      });
      const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideDir).href);
      const pyodide = await loadPyodide({ indexURL: pyodideDir });
      pyodide.unpackArchive(await zip, "zip", { extractDir: coreDir });
      pyodide.runPython(PY_SETUP);
      return pyodide.globals.get("_companion_verify");
    })();
    engine.catch(() => { engine = null; }); // a failed load may be retried by the next file
  }
  return engine;
}

function say(result, state, line) {
  result.dataset.state = state;
  result.textContent = line;
}

async function check(result, file) {
  say(result, "working", `Checking ${file.name}…`);
  try {
    const [verify, text] = await Promise.all([loadEngine(), file.text()]);
    const answer = JSON.parse(verify(text, file.name));
    say(result, answer.ok ? "ok" : "failed", answer.line);
  } catch (err) {
    say(result, "error", `Could not check ${file.name}: ${err.message ?? err}`);
  }
}

function wire(root) {
  const box = root.querySelector("#tc-verifier");
  if (!box || box.dataset.wired) return;
  box.dataset.wired = "1";
  const input = box.querySelector("#tc-verify-file");
  const result = box.querySelector(".tc-verify-result");
  input.addEventListener("change", () => {
    if (input.files.length) check(result, input.files[0]);
  });
  box.addEventListener("dragover", (event) => {
    event.preventDefault();
    box.classList.add("tc-verify-over");
  });
  box.addEventListener("dragleave", () => box.classList.remove("tc-verify-over"));
  box.addEventListener("drop", (event) => {
    event.preventDefault();
    box.classList.remove("tc-verify-over");
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) check(result, file);
  });
  // Pyodide loads while the reader reads (as the roller cells warm up), so a file dropped
  // later is checked at once.
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 500));
  idle(() => loadEngine().catch(() => {}));
  box.dataset.ready = "1";
}

wire(document);
