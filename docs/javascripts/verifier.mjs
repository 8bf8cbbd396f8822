// The offline verifier of the "Fair dice" page: a log exported with `companion log NAME
// --json` (any seat's view) or a campaign export, dropped on the box, is judged by the
// package's own `companion.store.judge.verify_document`, the very function `companion
// verify` calls (commitments, seeds, sittings; an export's chain and rule rolls made again;
// a seat's view's places in the chain: companion.store.view_chain), running in Pyodide
// loaded from this site. A chain head noted at the table may be typed in, as `verify
// --head`. Nothing is sent anywhere: the file is read in the page.

const siteRoot = new URL("../", import.meta.url);
const pyodideDir = new URL("assets/pyodide/", siteRoot).href;
const coreZip = new URL("assets/wheels/companion-core.zip", siteRoot).href;
const coreDir = "/home/pyodide/companion-core";

// One line back, as the command line answers (its "error: " left out): the checked count,
// the chain's head and the sittings' notes, or the first thing that does not hold, the
// file's name in front once.
const PY_SETUP = `
import json, sys
sys.path.insert(0, ${JSON.stringify(coreDir)})
from companion import fairplay
from companion.errors import CompanionError
from companion.store.judge import noted_head, verify_document

def _companion_verify(text, name, head=""):
    try:
        noted = noted_head(head, "the head typed in") if head.strip() else None
        line = verify_document(fairplay.parse_log(text, name), name, noted)
    except CompanionError as exc:
        line = str(exc)
        if not line.startswith(name):
            line = f"{name}: {line}"
        return json.dumps({"ok": False, "line": line})
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

let turn = 0; // only the newest check says its answer (a file, then a head typed)

async function check(result, file, head) {
  const mine = ++turn;
  say(result, "working", `Checking ${file.name}…`);
  try {
    const [verify, text] = await Promise.all([loadEngine(), file.text()]);
    const answer = JSON.parse(verify(text, file.name, head ? head.value : ""));
    if (mine === turn) say(result, answer.ok ? "ok" : "failed", answer.line);
  } catch (err) {
    if (mine === turn) say(result, "error", `Could not check ${file.name}: ${err.message ?? err}`);
  }
}

function wire(root) {
  const box = root.querySelector("#tc-verifier");
  if (!box || box.dataset.wired) return;
  box.dataset.wired = "1";
  const input = box.querySelector("#tc-verify-file");
  const result = box.querySelector(".tc-verify-result");
  const head = box.querySelector("#tc-verify-head");
  let last = null; // the file last checked: checked again when the noted head changes
  const checkFile = (file) => {
    last = file;
    check(result, file, head);
  };
  input.addEventListener("change", () => {
    if (input.files.length) checkFile(input.files[0]);
  });
  if (head) {
    head.addEventListener("change", () => {
      if (last) check(result, last, head);
    });
  }
  box.addEventListener("dragover", (event) => {
    event.preventDefault();
    box.classList.add("tc-verify-over");
  });
  box.addEventListener("dragleave", () => box.classList.remove("tc-verify-over"));
  box.addEventListener("drop", (event) => {
    event.preventDefault();
    box.classList.remove("tc-verify-over");
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) checkFile(file);
  });
  // Pyodide loads while the reader reads (as the roller cells warm up), so a file dropped
  // later is checked at once.
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 500));
  idle(() => loadEngine().catch(() => {}));
  box.dataset.ready = "1";
}

wire(document);
