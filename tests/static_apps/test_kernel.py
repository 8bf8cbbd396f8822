"""The static apps' page kernel (``tools/static_apps/kernel.py``) outside the browser.

It runs in a fresh Python process: ``prepare`` puts stand-ins into ``sys.modules``
(IPython, the page's comm), which must not leak into the other tests. Pyodide's ``to_js``
is replaced by the identity, and the page by a recorder of what it is sent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib.util, json, sys, types

ffi = types.ModuleType("pyodide.ffi")
ffi.to_js = lambda value: value
pyodide = types.ModuleType("pyodide")
pyodide.ffi = ffi
sys.modules.update({"pyodide": pyodide, "pyodide.ffi": ffi})

spec = importlib.util.spec_from_file_location("tc_static_kernel", "tools/static_apps/kernel.py")
kernel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel)


class Page:
    def __init__(self):
        self.sent, self.shown = [], []

    def from_kernel(self, msg_type, comm_id, target, data, metadata, buffers):
        self.sent.append([msg_type, comm_id, target, json.loads(data), json.loads(metadata),
                          len(buffers)])

    def show_widget(self, model_id):
        self.shown.append(model_id)


page = Page()
kernel._page = page
kernel.prepare()
import IPython
import ipywidgets as w

out = {"ipython": IPython.get_ipython() is None,
       "real_ipython_loaded": "IPython.core.interactiveshell" in sys.modules
       and hasattr(sys.modules["IPython.core.interactiveshell"], "get_ipython")}
box = w.IntText(value=3, description="Guard")
opens = [m for m in page.sent if m[0] == "comm_open" and m[1] == box.model_id]
out["open"] = opens[0][2:5] if opens else None
kernel.display(box)
out["shown"] = page.shown == [box.model_id]
before = len(page.sent)
kernel.deliver(box.model_id, json.dumps({"method": "update", "state": {"value": 7},
                                         "buffer_paths": []}), [])
out["value"] = box.value
out["echo"] = [m[3].get("method") for m in page.sent[before:]]
kernel.closed_by_page(box.model_id)
import comm
out["closed"] = comm.get_comm_manager().get_comm(box.model_id) is None and box.comm._closed
kernel.deliver("no-such-comm", "{}", [])  # a late message for a closed widget: ignored
out["finite"] = json.loads(kernel._json({"a": float("nan"), "b": [1.5, float("inf")]}))

from companion.dice import roller
state = roller.make_rng(None, None).getstate()
roller.reseed_shared()
out["reseeded"] = roller.make_rng(None, None).getstate() != state
print(json.dumps(out))
"""


def test_widget_messages_go_between_python_and_the_page_without_ipython() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["ipython"] is True  # the stand-in: no shell, as in plain Python
    assert out["real_ipython_loaded"] is False
    target, data, metadata = out["open"]
    assert target == "jupyter.widget"
    assert data["state"]["value"] == 3 and data["state"]["description"] == "Guard"
    assert metadata["version"].startswith("2.")  # the widget protocol the page speaks
    assert out["shown"] is True
    assert out["value"] == 7  # the page's message reached the widget
    assert "echo_update" in out["echo"]  # and the widget confirmed it to the page
    assert out["closed"] is True
    assert out["reseeded"] is True
    assert out["finite"] == {"a": None, "b": [1.5, None]}  # JSON the page can read


BLOCKED = r"""
import asyncio, importlib.util, json, os, sys, types

folder = sys.argv[1]
said = []


class Sync:
    async def load(self):
        raise RuntimeError("IndexedDB: the operation is not allowed")

    def persist(self):
        said.append("persist")


class Function:
    @staticmethod
    def new(*args):
        if "navigator.locks" in args[-1]:
            async def held():
                return True
            return lambda: held()
        return lambda *values: Sync()


js = types.ModuleType("js")
js.Function = Function
js.Object = types.SimpleNamespace(new=lambda: None)
js.console = types.SimpleNamespace(error=lambda *a: None)
js.tcStorageFailed = said.append
fs = types.SimpleNamespace(mkdirTree=lambda p: os.makedirs(p, exist_ok=True),
                           mount=lambda *a: None, filesystems=types.SimpleNamespace(IDBFS=0))
pyodide_js = types.ModuleType("pyodide_js")
pyodide_js.FS = fs
sys.modules.update({"js": js, "pyodide_js": pyodide_js})

spec = importlib.util.spec_from_file_location("tc_static_kernel", "tools/static_apps/kernel.py")
kernel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel)
kernel.FOLDER = folder
asyncio.run(kernel._open_campaign_store("table", ""))
from companion.store import port
store = port.current()
store.create_campaign("Tuesday", ["cairn_srd"])
print(json.dumps({"said": said, "not_read": kernel.NOT_READ, "kind": store.kind,
                  "files": sorted(os.listdir(folder)),
                  "faked": [m for m in ("companion.store.db", "sqlite3", "sqlalchemy")
                            if m in sys.modules]}))
"""


def test_a_blocked_indexeddb_says_so_once_and_the_page_still_plays(tmp_path: Path) -> None:
    """IndexedDB refusing to open: the page's storage banner says so (not a "connection
    lost"), the campaign still plays from memory, and nothing is written back (which
    would replace what the browser keeps with an empty copy)."""
    done = subprocess.run([sys.executable, "-c", BLOCKED, str(tmp_path / "campaigns")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["said"] == [out["not_read"]]  # and not "persist": nothing written back
    assert out["kind"] == "browser" and out["files"] == ["c1.events.jsonl", "campaigns.json"]
    assert out["faked"] == []  # the browser's store is plugged in: no SQL layer, no stand-in
    assert "storage" in out["not_read"] and "Connection" not in out["not_read"]
