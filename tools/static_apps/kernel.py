"""The Python side of a static app page (``site/apps/<app>.html``), in Pyodide.

The page (``runtime.mjs``) runs Pyodide on its own thread and renders widgets with
Jupyter's own stand-alone widget manager (``@jupyter-widgets/html-manager``); this module
is the kernel in between, without a Jupyter kernel:

- widget messages: ipywidgets talks through the ``comm`` package; ``PageComm`` hands each
  message to the page's manager as JSON (and binary buffers), and the page hands the
  manager's messages back through ``deliver``;
- IPython: ipywidgets imports a few of its names; a small stand-in module answers them
  (``get_ipython()`` is ``None``, as in plain Python), so IPython and its dependencies
  (seconds of loading in the browser) stay out;
- the page's address becomes ``QUERY_STRING``, as Voila sets it, so the apps read
  ``?campaign=..&who=..&role=..`` exactly as on a server;
- the campaigns kept in this browser: a ``MemoryStore`` (``companion.store.memory``) over a
  folder on Emscripten's IndexedDB file system, flushed to IndexedDB after every change;
  the store's openers hand it out;
- no threads in the browser: a background thread of the apps (loading the campaign list,
  building apps ahead) runs on the page's event loop; the live watcher of other screens'
  moves is not started (one page per browser tab: its own moves re-render at once).

The page calls ``start(page)`` once, then ``run_cell(code)`` for each code cell of the
notebook and shows what ``display`` sends it.

A later page starts in a quarter of a second instead of three: once a page is shown, a
Web Worker (``docs/javascripts/snapshot.mjs``) boots a second Pyodide, calls
``prepare(preload=True)`` (the stand-ins, and the modules every app imports) and keeps a
memory snapshot of it in the browser's cache; the next page resumes from it. Nothing done
before the snapshot may touch JavaScript (a snapshot cannot hold references to it), so
``js`` is imported only in ``start`` and after, which also draws fresh entropy (the
snapshot's random state would otherwise be every page's).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import sys
import threading
import types
from typing import Any

FOLDER = "/campaigns"
_page: Any = None


# --- IPython's names that ipywidgets and the apps import -------------------------------


def display(*objects: Any, **_: Any) -> None:
    """Show widgets (or anything with an HTML form) on the page, in order."""
    for obj in objects:
        model_id = getattr(obj, "_model_id", None)
        if model_id is not None:
            _page.show_widget(model_id)
        elif hasattr(obj, "_repr_html_"):
            _page.show_html(str(obj._repr_html_()))
        elif obj is not None:
            _page.show_text(repr(obj))


def _ipython_stand_in() -> None:
    def module(name: str, **names: Any) -> types.ModuleType:
        mod = types.ModuleType(name)
        mod.__dict__.update(names)
        sys.modules[name] = mod
        return mod

    class InteractiveShell:
        @classmethod
        def instance(cls) -> InteractiveShell:
            raise RuntimeError("there is no IPython shell in the static apps")

    def get_ipython() -> None:
        return None

    def clear_output(wait: bool = False) -> None:
        return None

    ipython = module("IPython", get_ipython=get_ipython, display=display)
    ipython.__path__ = []  # a package, so its submodules import
    ipython.display = module("IPython.display", display=display,  # type: ignore[attr-defined]
                             clear_output=clear_output)
    core = module("IPython.core")
    core.__path__ = []
    core.interactiveshell = module(  # type: ignore[attr-defined]
        "IPython.core.interactiveshell", InteractiveShell=InteractiveShell)
    core.getipython = module("IPython.core.getipython",  # type: ignore[attr-defined]
                             get_ipython=get_ipython)


# --- widget messages ------------------------------------------------------------------


def _finite(value: Any) -> Any:
    """``value`` with NaN and infinities as ``None`` (JSON has neither, as a kernel's
    message packer also finds)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _json(data: Any) -> str:
    data = data if data is not None else {}
    try:
        return json.dumps(data, default=str, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(data), default=str, allow_nan=False)


def _comm_class() -> type:
    from comm.base_comm import BaseComm

    class PageComm(BaseComm):  # type: ignore[misc]
        """A comm whose other end is the page's widget manager."""

        def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None,
                        buffers: Any = None, **keys: Any) -> None:
            from pyodide.ffi import to_js  # type: ignore[import-not-found]

            raw = [to_js(bytes(b)) for b in (buffers or [])]
            _page.from_kernel(msg_type, self.comm_id, keys.get("target_name") or "",
                              _json(data), _json(metadata), to_js(raw))

    return PageComm


def deliver(comm_id: str, data_json: str, buffers: Any) -> None:
    """A message from the page's widget manager to the widget behind ``comm_id``."""
    import comm

    target = comm.get_comm_manager().get_comm(comm_id)
    if target is None:
        return
    message = {"content": {"comm_id": comm_id, "data": json.loads(data_json)},
               "buffers": [memoryview(b.to_py()) for b in buffers], "metadata": {}}
    target.handle_msg(message)


def closed_by_page(comm_id: str) -> None:
    import comm

    # As a kernel does: closed, forgotten, then the widget told.
    comm.get_comm_manager().comm_close(None, None, {"content": {"comm_id": comm_id,
                                                                "data": {}}})


# --- the browser as the apps' server ---------------------------------------------------


def _start_on_loop(self: threading.Thread) -> None:
    """``Thread.start`` in the browser: the thread's work runs on the event loop, after
    the code that started it; the live watcher (other screens' moves) is not started."""
    if self.name == "table-live-sync":
        return
    asyncio.get_event_loop().call_soon(self.run)


def _no_sqlite() -> types.ModuleType:
    """A stand-in ``sqlite3`` (the npm Pyodide has none): the apps import it for the
    server's live watcher, not started here; using it says there is no SQLite here."""
    module = types.ModuleType("sqlite3")

    class Error(Exception):
        pass

    def connect(*args: object, **kwargs: object) -> None:
        raise Error("there is no SQLite in this browser")

    module.Error = module.OperationalError = Error  # type: ignore[attr-defined]
    module.Connection = object  # type: ignore[attr-defined]
    module.connect = connect  # type: ignore[attr-defined]
    return module


_SYNC = """
let busy = false, again = false;
function persist() {
  if (busy) { again = true; return; }
  busy = true;
  FS.syncfs(false, (err) => {
    busy = false;
    if (err) {
      console.error("Table Companion: keeping campaigns failed", err);
      if (window.tcStorageFailed) window.tcStorageFailed(NOT_KEPT);
    }
    if (again) { again = false; persist(); }
    else if (window.tcStaticKept) window.tcStaticKept();
  });
}
return {
  load: () => new Promise((ok, bad) => FS.syncfs(true, (err) => err ? bad(err) : ok())),
  persist,
};
"""


#: One page of this browser keeps the campaigns at a time: each page holds its own copy of
#: them in memory and writes it back whole, so a second writer would overwrite the
#: first one's moves. The lock is held while the page lives (the Web Locks API).
_HOLD_CAMPAIGNS = """
if (!navigator.locks) return Promise.resolve(true);
return new Promise((ok) => {
  // A few seconds' grace: the page this tab just left may still be letting go of it.
  navigator.locks.request("table-companion-campaigns", { signal: AbortSignal.timeout(4000) },
    () => { ok(true); return new Promise(() => {}); })
    .catch(() => ok(false));
});
"""

OTHER_TAB = ("the campaigns kept in this browser are open in another tab or window: close "
             "it, then reload this page (one page at a time keeps them, so no move is lost)")


def _keeps_campaigns(app: str, query: str) -> bool:
    """Whether this page opens the campaigns: the start app and the campaigns page always,
    another app when its address names a campaign."""
    from urllib.parse import parse_qs

    return app in ("table", "campaigns") or bool(parse_qs(query).get("campaign"))


def _install_store(open_store: Any, store_for_url: Any) -> None:
    """``companion.store.db`` as the apps see it here: a stand-in with the same names over
    the browser's store, so the SQL store (and SQLAlchemy) never loads."""
    from companion.store import records

    db = types.ModuleType("companion.store.db")
    db.__dict__.update({name: getattr(records, name) for name in records.__all__})
    db.open_store = open_store  # type: ignore[attr-defined]
    db.Store = store_for_url  # type: ignore[attr-defined]
    db.database_url = lambda db_=None: "browser:" + FOLDER  # type: ignore[attr-defined]
    sys.modules["companion.store.db"] = db
    import companion.store as package

    package.db = db  # type: ignore[attr-defined]


#: The storage banner's words (runtime.mjs shows them, once, in one line): the move is
#: on the page, not in the browser's storage; leaving loses it.
NOT_KEPT = ("This browser did not keep your last move (its storage is full or blocked): "
            "export the campaign from the Campaigns page before you leave this page.")
NOT_READ = ("This browser will not let this page keep campaigns (its storage is blocked): "
            "what you do here is lost when you leave the page.")

NO_CAMPAIGN = ("this page was opened without a campaign: open the campaign's apps from the "
               "table (apps/table.html)")


def _refuse(why: str) -> Any:
    def opener(*_: object, **__: object) -> Any:
        from companion.store.records import StoreError

        raise StoreError(why)

    return opener


async def _open_campaign_store(app: str, query: str) -> None:
    import js  # type: ignore[import-not-found]
    import pyodide_js  # type: ignore[import-not-found]

    if not _keeps_campaigns(app, query):
        _install_store(_refuse(NO_CAMPAIGN), _refuse(NO_CAMPAIGN))
        return
    if not await js.Function.new(_HOLD_CAMPAIGNS)():
        _install_store(_refuse(OTHER_TAB), _refuse(OTHER_TAB))
        return
    fs: Any = pyodide_js.FS
    sync: Any = js.Function.new("FS", "NOT_KEPT", _SYNC)(fs, NOT_KEPT)
    if not os.path.isdir(FOLDER):
        fs.mkdirTree(FOLDER)
        fs.mount(fs.filesystems.IDBFS, js.Object.new(), FOLDER)
    on_write: Any = sync.persist
    try:
        await sync.load()
    except Exception:  # IndexedDB blocked (private mode, a policy)
        # The page still plays, from memory; writing back would replace whatever the
        # browser does keep with this empty copy, so nothing is written.
        js.console.error("Table Companion: the campaigns kept in this browser cannot be read")
        failed = getattr(js, "tcStorageFailed", None)
        if failed is not None:
            failed(NOT_READ)
        on_write = None

    from companion.store import memory

    store = memory.MemoryStore(
        FOLDER, on_write=on_write,
        where="this browser (IndexedDB; export a campaign to keep a copy)")
    os.environ["COMPANION_DB"] = FOLDER + "/campaigns.db"  # the key the openers use

    def open_store(db_: object = None, **_: object) -> memory.MemoryStore:
        return store

    _install_store(open_store, lambda url=None, **_: store)


#: What the snapshot holds loaded: the widgets' base and the start app's modules (every
#: app imports them). Not every module: the heap must stay within Pyodide's initial
#: memory for a snapshot to load (snapshot.mjs checks).
_PRELOADED = ("ipywidgets", "companion.widgets", "companion.widgets.layout",
              "companion.widgets.table", "companion.store.memory", "companion.store.campaign",
              "tc_static_campaigns")


def _preload() -> None:
    import importlib

    for name in _PRELOADED:
        importlib.import_module(name)


_prepared = False


def prepare(preload: bool = False) -> None:
    """The stand-ins (IPython, sqlite3, the page's comm), with no JavaScript touched;
    ``preload`` imports every module the apps use (for the snapshot)."""
    global _prepared
    if not _prepared:
        try:
            import sqlite3  # noqa: F401
        except ImportError:
            sys.modules["sqlite3"] = _no_sqlite()
        _ipython_stand_in()
        import comm

        page_comm = _comm_class()
        comm.create_comm = lambda **kwargs: page_comm(**kwargs)
        _prepared = True
    if preload:
        _preload()


async def start(page: Any) -> None:
    """Make this Pyodide the apps' kernel: called once by the page before any cell."""
    import js  # type: ignore[import-not-found]

    global _page
    _page = page
    prepare()
    from companion.dice import roller

    roller.reseed_shared()  # resumed from a snapshot: its random state is every page's
    query = str(js.location.search or "").lstrip("?")
    os.environ["QUERY_STRING"] = query
    threading.Thread.start = _start_on_loop  # type: ignore[method-assign]
    await _open_campaign_store(str(js.document.body.dataset.tcStatic or ""), query)


async def run_cell(code: str) -> None:
    """Run one code cell of the notebook; its last expression is shown, as in Jupyter."""
    from pyodide.code import eval_code_async  # type: ignore[import-not-found]

    result = await eval_code_async(code, globals=_cell_globals)
    if result is not None:
        display(result)


_cell_globals: dict[str, Any] = {"__name__": "__main__", "display": display}
