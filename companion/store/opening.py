"""Opening stores and campaigns: what sits above the backends (issue 43).

The backends ([SqlStore][companion.store.db.SqlStore],
[MemoryStore][companion.store.memory.MemoryStore],
[BrowserStore][companion.store.browser.BrowserStore]) and their port
([companion.store.port][]) know nothing of [Campaign][companion.store.campaign.Campaign],
and the campaign knows only the port: choosing a backend for this process, making an
unsaved table and the one shared campaign of a kernel live here, above both, so the store
has no import circle through them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.store.campaign import ROLES, Campaign, create
from companion.store.permissions import SeatKey, name_key
from companion.store.port import UNSAVED_WHERE, Store, current
from companion.store.records import StoreError

if TYPE_CHECKING:
    from companion.store.memory import MemoryStore

__all__ = ["process_store", "shared_campaign", "unsaved_campaign", "unsaved_store"]

_lock = threading.Lock()

#: The SQL stores this process opened, by database URL (one each, kept open).
_opened: dict[str, Store] = {}


def process_store() -> Store:
    """This process's store: the plugged-in one ([use][companion.store.port.use]; the
    serverless apps plug in the browser's), else the one ``COMPANION_DB`` names (else the
    default file), opened once per process and kept (every app of a kernel shares it)."""
    plugged = current()
    if plugged is not None:
        return plugged
    # SQLAlchemy is loaded here only: the browser's Python never reaches it (it plugs a
    # store in), and a process that opens no campaign never pays for it.
    from companion.store.db import database_url, open_store

    url = database_url()
    with _lock:
        store = _opened.get(url)
        if store is None:
            store = _opened[url] = open_store()
        return store


def unsaved_store() -> MemoryStore:
    """A new store in memory that keeps nothing: the store of an app opened without a
    campaign (its moves go the same way as in a campaign, and vanish with the page)."""
    from companion.store.memory import MemoryStore

    return MemoryStore(where=UNSAVED_WHERE)


def unsaved_campaign(rulesets: Sequence[str], name: str = "Unsaved", *, who: str = "",
                     role: str = "") -> Campaign:
    """A campaign playing ``rulesets`` in a new
    [unsaved_store][companion.store.opening.unsaved_store]: an app opened without a
    campaign takes the same path as in one (every move, undo and rule roll through the
    campaign's unit of work) and keeps nothing.

    >>> from companion.rulesets.plot_points.session import PlotPointSession
    >>> table = unsaved_campaign(["plot_points"])
    >>> table.add("Table", PlotPointSession(), role="minigame").add_player("Ash")
    >>> table.head, table.store.where
    (2, 'this page only (not kept)')
    """
    return create(unsaved_store(), name, rulesets, who=who, role=role)


_SHARED: dict[tuple[str, str, str, str], Campaign] = {}
_STORES: dict[str, Store] = {}
_SHARED_LOCK = threading.Lock()


def shared_campaign(name: str, *, who: str = "", role: str = "",
                    db: str | None = None, seat_key: SeatKey | None = None) -> Campaign:
    """The one open [Campaign][companion.store.campaign.Campaign] of this process for
    ``name`` (in the database ``db``; else in the store plugged into this process,
    [companion.store.port.use][], as the serverless apps plug in the browser's; else in
    ``COMPANION_DB``) and the seat ``who`` (``role``), proven by ``seat_key`` if given.

    Every app shown in one page should take its campaign from here: then a character is
    one object in all of them (damage taken in combat is on the sheet at once). A second
    call for the same seat refreshes it; another seat gets its own object (issue 28: a
    seat is never rewritten on an open campaign). With no seat given, the campaign open
    for ``name`` already, if any."""

    if role not in ROLES:
        raise StoreError(f"a role is gm or player, not {role!r}")
    plugged = current() if db is None else None
    with _SHARED_LOCK:
        store: Store
        if plugged is not None:
            url, store = f"plugged:{id(plugged)}", plugged
        else:
            from companion.store.db import SqlStore, database_url  # the SQL layer: load late

            url = database_url(db)
            sql = _STORES.get(url)
            if sql is None:
                sql = _STORES[url] = SqlStore(url)
            store = sql
        checked = store.check_name(name)
        key = (url, checked, name_key(who), role)
        campaign = _SHARED.get(key)
        if campaign is not None and campaign.role != role:
            campaign = None  # its seat was lost (revoked): a page opening now starts anew
        if campaign is None and not who and not role:
            campaign = next((c for k, c in _SHARED.items() if k[:2] == key[:2]), None)
        if campaign is None:
            campaign = _SHARED[key] = Campaign.open(store, name, who=who, role=role)
            campaign.seat_key = seat_key
            return campaign
    campaign.refresh()
    if seat_key is not None and campaign.role != "spectator":
        campaign.seat_key = seat_key  # the same seat proven anew (a renewed link)
    return campaign
