"""The first cell of every static app (``tools/build_static_apps.py`` puts it there).

It runs in the page's Pyodide kernel (a Web Worker) before the notebook's own cells:

- the page's address: the page script (``page.js``) puts the page's query string in
  IndexedDB; here it becomes ``QUERY_STRING``, as Voila sets it, so the apps read
  ``?campaign=..&who=..&role=..`` exactly as on a server;
- the campaigns kept in this browser: a ``MemoryStore`` (``companion.store.memory``)
  over a folder on Emscripten's IndexedDB file system, flushed to IndexedDB after every
  change; the store's openers (``open_store`` and the store ``shared_campaign`` makes) hand it out;
- no threads in the browser: a background thread of the apps (loading the campaign list,
  building apps ahead) runs on the page's event loop right after the cell; the live
  watcher thread is not needed (one page per kernel: its own moves re-render at once).

The build appends ``await boot()``; the cell shows nothing.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import types
from typing import Any

FOLDER = "/campaigns"
QUERY_DB = "table-companion-page"

_READ_QUERY = """
return new Promise((ok) => {
  let req;
  try { req = indexedDB.open(name, 1); } catch (e) { ok(""); return; }
  req.onupgradeneeded = () => req.result.createObjectStore("page");
  req.onerror = () => ok("");
  req.onsuccess = () => {
    try {
      const get = req.result.transaction("page", "readonly").objectStore("page").get("query");
      get.onsuccess = () => ok((get.result && get.result.query) || "");
      get.onerror = () => ok("");
    } catch (e) { ok(""); }
  };
});
"""

_SYNC = """
let busy = false, again = false;
function persist() {
  if (busy) { again = true; return; }
  busy = true;
  FS.syncfs(false, (err) => {
    busy = false;
    if (err) console.error("Table Companion: keeping campaigns failed", err);
    if (again) { again = false; persist(); }
  });
}
return {
  load: () => new Promise((ok, bad) => FS.syncfs(true, (err) => err ? bad(err) : ok())),
  persist,
};
"""


def _start_on_loop(self: threading.Thread) -> None:
    """``Thread.start`` in the browser: the thread's work runs on the event loop, after the
    cell that started it; the live watcher (other screens' moves) is not started."""
    if self.name == "table-live-sync":
        return
    asyncio.get_event_loop().call_soon(self.run)


def _no_sqlite() -> types.ModuleType:
    """A stand-in ``sqlite3`` module: the apps import it (for the server's live watcher,
    not started here); using it says there is no SQLite in this browser."""
    module = types.ModuleType("sqlite3")

    class Error(Exception):
        pass

    def connect(*args: object, **kwargs: object) -> None:
        raise Error("there is no SQLite in this browser")

    module.Error = module.OperationalError = Error  # type: ignore[attr-defined]
    module.Connection = object  # type: ignore[attr-defined]
    module.connect = connect  # type: ignore[attr-defined]
    return module


async def boot() -> None:
    import js  # type: ignore[import-not-found]
    import pyodide_js  # type: ignore[import-not-found]

    query = await js.Function.new("name", _READ_QUERY)(QUERY_DB)
    os.environ["QUERY_STRING"] = str(query or "").lstrip("?")

    threading.Thread.start = _start_on_loop  # type: ignore[method-assign]
    try:
        import sqlite3  # noqa: F401  (not in this Pyodide: IPython started without it)
    except ImportError:
        sys.modules["sqlite3"] = _no_sqlite()

    fs: Any = pyodide_js.FS
    sync: Any = js.Function.new("FS", _SYNC)(fs)
    if not os.path.isdir(FOLDER):
        fs.mkdirTree(FOLDER)
        fs.mount(fs.filesystems.IDBFS, js.Object.new(), FOLDER)
    await sync.load()

    from companion.store import campaign, db
    from companion.store.memory import MemoryStore

    store = MemoryStore(FOLDER, on_write=sync.persist,
                        where="this browser (IndexedDB; export a campaign to keep a copy)")
    os.environ["COMPANION_DB"] = FOLDER + "/campaigns.db"  # the key the openers use

    def open_store(db_: object = None, **_: object) -> MemoryStore:
        return store

    db.open_store = open_store  # type: ignore[assignment]
    campaign.Store = lambda url, **_: store  # type: ignore[assignment,misc]
