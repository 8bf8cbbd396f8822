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
- the campaigns kept in this browser: the browser backend of the store port
  (``companion.store.browser``: a folder on Emscripten's IndexedDB file system, copied to
  IndexedDB after every change) is plugged in (``companion.store.port.use``), so every
  app opens its campaign there and the SQL store (and SQLAlchemy) never loads. Nothing
  is faked in ``sys.modules`` for it and no thread is patched: the apps run their
  background work on the event loop here (``companion.widgets.background``) and start no
  watcher of other screens' moves for a store only this page writes.

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

import json
import math
import os
import sys
import types
from typing import Any

from companion.store.browser import FOLDER, NOT_KEPT, NOT_READ, OTHER_TAB

__all__ = ["FOLDER", "NOT_KEPT", "NOT_READ", "OTHER_TAB", "closed_by_page", "deliver",
           "display", "prepare", "run_cell", "start"]

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


def _keeps_campaigns(app: str, query: str) -> bool:
    """Whether this page opens the campaigns: the start app and the campaigns page always,
    another app when its address names a campaign."""
    from urllib.parse import parse_qs

    return app in ("table", "campaigns") or bool(parse_qs(query).get("campaign"))


NO_CAMPAIGN = ("this page was opened without a campaign: open the campaign's apps from the "
               "table (apps/table.html)")


async def _open_campaign_store(app: str, query: str) -> None:
    """Plug the campaigns kept in this browser into the store port (or, on a page that
    may not keep them, a refusal that says why when an app asks for them)."""
    from companion.store import port
    from companion.store.browser import open_in_browser
    from companion.store.records import StoreError

    if not _keeps_campaigns(app, query):
        port.use(None, refusal=NO_CAMPAIGN)
        return
    try:
        store = await open_in_browser(FOLDER)
    except StoreError as exc:  # another tab holds them: said when an app opens them
        port.use(None, refusal=str(exc))
        return
    port.use(store)


#: What the snapshot holds loaded: the widgets' base and the start app's modules (every
#: app imports them). Not every module: the heap must stay within Pyodide's initial
#: memory for a snapshot to load (snapshot.mjs checks).
_PRELOADED = ("ipywidgets", "companion.widgets", "companion.widgets.layout",
              "companion.widgets.table", "companion.store.browser", "companion.store.campaign",
              "tc_static_campaigns")


def _preload() -> None:
    import importlib

    for name in _PRELOADED:
        importlib.import_module(name)


_prepared = False


def prepare(preload: bool = False) -> None:
    """The stand-ins (IPython, the page's comm), with no JavaScript touched;
    ``preload`` imports every module the apps use (for the snapshot)."""
    global _prepared
    if not _prepared:
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
    if js.document.body.hasAttribute("data-tc-phone"):  # a missing dataset key raises in Pyodide
        # A phone app (companion app's /phone/): the campaign is the table's, joined
        # through its socket (tc_static_phone), not one kept in this browser.
        from tc_static_phone import join  # type: ignore[import-not-found]

        global _remote
        _remote = await join(query)
        return
    await _open_campaign_store(str(js.document.body.dataset.tcStatic or ""), query)


#: The phone app's end of the table (kept for the page's life: it holds the socket).
_remote: Any = None


async def run_cell(code: str) -> None:
    """Run one code cell of the notebook; its last expression is shown, as in Jupyter."""
    from pyodide.code import eval_code_async  # type: ignore[import-not-found]

    result = await eval_code_async(code, globals=_cell_globals)
    if result is not None:
        display(result)


_cell_globals: dict[str, Any] = {"__name__": "__main__", "display": display}
