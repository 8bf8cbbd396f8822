"""The browser backend of the [Store][companion.store.port.Store] port: the static apps'
campaigns, kept in this browser.

The static site's apps run in the page's own Python (Pyodide), with no server and no
SQLite. [BrowserStore][companion.store.browser.BrowserStore] is a
[MemoryStore][companion.store.memory.MemoryStore] over a folder of Emscripten's file
system that is mounted on the browser's IndexedDB (IDBFS): the same small JSON files as
ever (``campaigns.json``, ``c<ID>.events.jsonl``, ``c<ID>.snapshot.json``), so campaigns
kept by earlier versions of the site still load, and an export still imports with
``companion campaign import``. After every change ``persist`` is called: the page copies
the folder to IndexedDB then (``FS.syncfs``), so a campaign survives a reload and a
restart of the browser.

[open_in_browser][companion.store.browser.open_in_browser] does the browser's part, in
Pyodide only: it takes the tab lock (one page of this browser keeps the campaigns at a
time: each holds its own copy in memory and writes it back whole, so a second writer would
overwrite the first one's moves), mounts and reads the folder, and hands back the store
for the page to plug in ([companion.store.port.use][]). JavaScript is reached only inside
it (``js``, ``pyodide_js``), so this module imports on any Python.

>>> import tempfile
>>> kept = []
>>> store = BrowserStore(tempfile.mkdtemp(), persist=lambda: kept.append(1))
>>> _ = store.create_campaign("Tuesday", ["cairn_srd"])
>>> store.kind, store.shared, len(kept)
('browser', False, 1)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from companion.store.memory import MemoryStore
from companion.store.records import CampaignInfo, StoreError

__all__ = [
    "ELSEWHERE",
    "FOLDER",
    "NOT_KEPT",
    "NOT_READ",
    "OTHER_TAB",
    "WHERE",
    "BrowserStore",
    "open_in_browser",
]

#: The folder of Emscripten's file system that IndexedDB keeps.
FOLDER = "/campaigns"

#: Where the campaigns are, for people.
WHERE = "this browser (IndexedDB; export a campaign to keep a copy)"

#: The page's storage banner, when a write did not reach IndexedDB: the move is on the
#: page, not in the browser's storage; leaving loses it.
NOT_KEPT = ("This browser did not keep your last move (its storage is full or blocked): "
            "export the campaign from the Campaigns page before you leave this page.")

#: The banner when IndexedDB cannot be read at all (private mode, a policy).
NOT_READ = ("This browser will not let this page keep campaigns (its storage is blocked): "
            "what you do here is lost when you leave the page.")

#: Said after "no campaign named ..." (issue 45): a GM's link opened on a second phone
#: finds nothing here, and the reader should learn why and what does share a table.
ELSEWHERE = ("a campaign made on the site stays in the browser that made it (a link from "
             "another device finds nothing); to share one between phones, its GM runs "
             "'companion app'")

#: The refusal when another tab of this browser holds the campaigns.
OTHER_TAB = ("the campaigns kept in this browser are open in another tab or window: close "
             "it, then reload this page (one page at a time keeps them, so no move is lost)")


class BrowserStore(MemoryStore):
    """A memory store over ``folder`` that calls ``persist`` after every change (the page
    copies the folder to IndexedDB there); ``persist=None`` keeps nothing beyond the
    folder (IndexedDB could not be read: writing back would replace what the browser
    does keep with this empty copy)."""

    kind = "browser"

    def __init__(self, folder: str | os.PathLike[str], *,
                 persist: Callable[[], None] | None, where: str = WHERE) -> None:
        super().__init__(folder, on_write=persist, where=where)

    def get_campaign(self, name: str) -> CampaignInfo:
        """As every store's, and a missing campaign says where campaigns live on the
        site ([ELSEWHERE][companion.store.browser.ELSEWHERE])."""
        info = self.find_campaign(name)
        if info is None:  # the hint first: a page clips a long line's end
            known = ", ".join(c.name for c in self.list_campaigns()[:10]) or "none yet"
            raise StoreError(f"no campaign named {name!r} in this browser: {ELSEWHERE} "
                             f"(campaigns here: {known})")
        return info


# The page's side, in JavaScript: copy the folder to IndexedDB after a change, one copy at a
# time (a change made during one is copied by the next); a failure shows the banner once.
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

# The tab lock (the Web Locks API), held while the page lives.
_HOLD_CAMPAIGNS = """
if (!navigator.locks) return Promise.resolve(true);
return new Promise((ok) => {
  // A few seconds' grace: the page this tab just left may still be letting go of it.
  navigator.locks.request("table-companion-campaigns", { signal: AbortSignal.timeout(4000) },
    () => { ok(true); return new Promise(() => {}); })
    .catch(() => ok(false));
});
"""


async def open_in_browser(folder: str = FOLDER) -> BrowserStore:
    """The campaigns kept in this browser (Pyodide only), read from IndexedDB into
    ``folder``; a StoreError ([OTHER_TAB][companion.store.browser.OTHER_TAB]) if another
    tab holds them. IndexedDB refusing to be read is not an error: the page plays from
    memory, says so once ([NOT_READ][companion.store.browser.NOT_READ]) and writes
    nothing back."""
    import js  # type: ignore[import-not-found]
    import pyodide_js  # type: ignore[import-not-found]

    if not await js.Function.new(_HOLD_CAMPAIGNS)():
        raise StoreError(OTHER_TAB)
    fs: Any = pyodide_js.FS
    sync: Any = js.Function.new("FS", "NOT_KEPT", _SYNC)(fs, NOT_KEPT)
    if not os.path.isdir(folder):
        fs.mkdirTree(folder)
        fs.mount(fs.filesystems.IDBFS, js.Object.new(), folder)
    persist: Callable[[], None] | None = sync.persist
    try:
        await sync.load()
    except Exception:  # IndexedDB blocked (private mode, a policy)
        js.console.error("Table Companion: the campaigns kept in this browser cannot be read")
        failed = getattr(js, "tcStorageFailed", None)
        if failed is not None:
            failed(NOT_READ)
        persist = None
    return BrowserStore(folder, persist=persist)
