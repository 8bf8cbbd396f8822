"""The store port: what a [Campaign][companion.store.campaign.Campaign] asks of a store.

[Store][companion.store.port.Store] is the interface (a ``typing.Protocol``: a backend
implements it by shape, no base class needed). Three backends implement it:

- [SqlStore][companion.store.db.SqlStore] (``companion.store.db``): SQLite or PostgreSQL
  through SQLAlchemy, for servers and the command line;
- [MemoryStore][companion.store.memory.MemoryStore]: in memory, optionally written through
  to plain JSON files in a folder; unsaved (no folder) it is the store of an app opened
  without a campaign ([unsaved_store][companion.store.opening.unsaved_store]);
- [BrowserStore][companion.store.browser.BrowserStore]: the static apps' store, a memory
  store over a folder that the page keeps in the browser's IndexedDB.

What every backend does alike lives here once
([StoreBase][companion.store.port.StoreBase]): the name rules, how a new event is numbered,
timestamped, clipped, copied through JSON and chained to the one before it, the conflict's
words, the lookup that names the known campaigns, and polling for a change.

A process may *plug in* one store ([use][companion.store.port.use]): the serverless apps
plug in the browser's, and every app of the page then opens its campaign there
([current][companion.store.port.current]), with no stand-in modules and no database layer
loaded. Standard library only (it runs in Pyodide).

>>> from companion.store.memory import MemoryStore
>>> store = MemoryStore(where=UNSAVED_WHERE)
>>> info = store.create_campaign("Tuesday", ["cairn_srd"])
>>> [e.seq for e in store.append(info.id, [NewEvent("note")], 0)], store.head(info.id)
([1], 1)
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from companion.store.chain import event_hash
from companion.store.records import (
    LOCK_WAIT,
    CampaignInfo,
    ConflictError,
    NewEvent,
    StoredEvent,
    StoreError,
    check_campaign_name,
    check_seed,
    now_text,
)

if TYPE_CHECKING:
    from companion.store.permissions import SeatKey

__all__ = [
    "UNSAVED_WHERE",
    "SeatRow",
    "Store",
    "StoreBase",
    "canonical_json",
    "chain_new",
    "conflict",
    "copied",
    "current",
    "head_hash",
    "json_copy",
    "keep_apart",
    "use",
]

_HEX64 = re.compile(r"[0-9a-f]{64}")

#: A seat as the store keeps it: ``(who, role, secret_hash, created, revoked)``.
SeatRow = tuple[str, str, str, str, "str | None"]


@runtime_checkable
class Store(Protocol):
    """The interface a campaign's store offers (see the module docs for the backends).

    Every method raises [StoreError][companion.store.records.StoreError] (one line) on a
    problem of the store; ``append`` raises
    [ConflictError][companion.store.records.ConflictError] when the campaign's head is no
    longer ``expected_seq`` and, given a ``seat``,
    [SeatError][companion.store.permissions.SeatError] when that seat no longer holds
    (both read in the transaction of the write: nothing is written then).

    ``writer_lock(campaign_id)`` makes this thread the campaign's only writer (issue 47):
    it waits its turn for the campaign's writer lock (PostgreSQL: the campaign's row,
    locked ``FOR UPDATE``; SQLite: the file's write lock, ``BEGIN IMMEDIATE``; in memory:
    the store's lock), and every call this thread makes on the store inside runs in that
    one transaction, until the first write commits it and lets the next writer in. An
    append made in it after reading the head cannot meet a conflict. A block left without
    a write writes nothing. A wait past ``lock_wait`` seconds raises
    [LockWaitError][companion.store.records.LockWaitError] (one line), and so does any
    write that waits that long behind another writer.

    A sitting's server seed never enters the log before its close (issue 49): an
    appended event whose sitting news opens a sitting carries it as
    ``data["sitting"]["secret"]["server_seed"]`` (one that commits the next sitting's
    seed, as ``["next_server_seed"]``), and ``append`` keeps it apart
    ([keep_apart][companion.store.port.keep_apart]): the event is stored and chained
    without it, the seed in the campaign's sitting record (by the hash the opening
    publishes), in the same transaction; an appended close of that sitting deletes the
    record in its own. ``sitting_secret`` reads it (``None``: not kept here, as in a
    campaign imported with its sitting open). ``import_campaign`` stores its events as
    they are (an older log's opening kept its seed in its data).
    """

    #: ``"sqlite"``, ``"postgresql"``, ``"memory"`` or ``"browser"``.
    kind: str
    #: Where the campaigns are kept, for people (never a password).
    where: str
    #: The SQLite file (for a watcher of its changes), else ``None``.
    path: Path | None
    #: Whether it can be read only (nothing is ever written to it then).
    read_only: bool
    #: Whether opening a campaign may store a snapshot (a cache).
    keep_snapshots: bool
    #: Whether other processes may write to it (another screen's moves arrive only
    #: through ``wait_for_change``): worth a watcher thread. False for a store of this
    #: process alone (memory, browser), whose every write is this process's own.
    shared: bool
    #: The longest a write waits for a campaign's writer lock, in seconds
    #: ([LOCK_WAIT][companion.store.records.LOCK_WAIT] unless set).
    lock_wait: float

    # -- campaigns
    def check_name(self, name: str) -> str: ...
    def create_campaign(self, name: str, rulesets: Sequence[str],
                        created: str | None = None) -> CampaignInfo: ...
    def import_campaign(self, name: str, rulesets: Sequence[str], created: str,
                        new: Sequence[NewEvent], uid: str | None = None) -> CampaignInfo: ...
    def list_campaigns(self) -> list[CampaignInfo]: ...
    def find_campaign(self, name: str) -> CampaignInfo | None: ...
    def get_campaign(self, name: str) -> CampaignInfo: ...
    def delete_campaign(self, name: str) -> None: ...
    def check_count(self, info: CampaignInfo) -> None: ...
    def check_log(self, info: CampaignInfo) -> None: ...

    # -- the log: one transaction per append, the seat re-read in it
    def head(self, campaign_id: int) -> int: ...
    def append(self, campaign_id: int, new: Sequence[NewEvent], expected_seq: int, *,
               seat: SeatKey | None = None) -> list[StoredEvent]: ...
    def events_since(self, campaign_id: int, seq: int = 0, limit: int | None = None,
                     kinds: Sequence[str] = ()) -> list[StoredEvent]: ...
    def wait_for_change(self, campaign_id: int, seq: int, timeout: float) -> int: ...
    def writer_lock(self, campaign_id: int) -> AbstractContextManager[None]: ...

    # -- a sitting's server seed, kept apart from the log until the close (issue 49)
    def sitting_secret(self, campaign_id: int, server_hash: str) -> str | None: ...

    # -- snapshots (a cache: the events are the truth)
    def latest_snapshot(self, campaign_id: int) -> tuple[int, dict[str, Any]] | None: ...
    def put_snapshot(self, campaign_id: int, seq: int, state: dict[str, Any]) -> None: ...

    # -- seats
    def seat_rows(self, campaign_id: int) -> list[SeatRow]: ...
    def put_seat(self, campaign_id: int, who: str, role: str, secret_hash: str, *,
                 by: SeatKey | None = None) -> None: ...
    def revoke_seat_row(self, campaign_id: int, who: str, *,
                        by: SeatKey | None = None) -> bool: ...

    # -- the one-time conversion of older logs (companion.store.upcast)
    def meta_value(self, key: str) -> str | None: ...
    def rewrite_events(self, changed: dict[int, Sequence[StoredEvent]],
                       marker: tuple[str, str]) -> None: ...
    def backup_copy(self, suffix: str) -> Path | None: ...

    # -- the store itself
    def schema_version(self) -> int: ...
    def size_on_disk(self) -> int: ...
    def close(self) -> None: ...


# --- what every backend does alike -------------------------------------------------------


def canonical_json(data: Any) -> str:
    """The one JSON text of ``data`` every store writes (sorted keys, no spaces, UTF-8):
    the same bytes in every backend, so an export is the same wherever it was kept."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def keep_apart(new: Sequence[NewEvent]) -> tuple[list[NewEvent], dict[str, str], set[str]]:
    """What ``append`` stores of ``new``: the events without a sitting's server seed, the
    seeds they carried (server hash -> seed: the records to keep), and the hashes of the
    sittings they close (the records to delete). A seed that is not the one its opening
    commits to is refused before anything is written (a defect, never a player's)."""
    from companion.sittings import server_hash

    events: list[NewEvent] = []
    kept: dict[str, str] = {}
    closed: set[str] = set()
    for event in new:
        news = event.data.get("sitting") if isinstance(event.data, dict) else None
        if not isinstance(news, dict):
            events.append(event)
            continue
        close = news.get("close")
        revealed = close.get("server_seed") if isinstance(close, dict) else None
        if isinstance(revealed, str) and _HEX64.fullmatch(revealed):
            closed.add(server_hash(revealed))
        if "secret" not in news:
            events.append(event)
            continue
        secret = news["secret"]
        if not isinstance(secret, dict) or not secret \
                or set(secret) - {"server_seed", "next_server_seed"}:
            raise StoreError("a sitting's secret to keep is not a server seed: nothing "
                             "was stored")
        # The opening's seed, and the one a commitment binds the next sitting to.
        for key, news_key in (("server_seed", "open"), ("next_server_seed", "commit")):
            if key not in secret:
                continue
            seed, published = secret[key], news.get(news_key)
            if not isinstance(seed, str) or not _HEX64.fullmatch(seed) \
                    or not isinstance(published, dict) \
                    or published.get("server_hash") != server_hash(seed):
                raise StoreError(f"a sitting's server seed to keep is not the one its "
                                 f"{'opening' if key == 'server_seed' else 'commitment'} "
                                 "publishes the hash of: nothing was stored")
            kept[server_hash(seed)] = seed
        shown = {k: v for k, v in news.items() if k != "secret"}
        events.append(dataclasses.replace(event, data={**event.data, "sitting": shown}))
    return events, kept, closed


def stored_event(seq: int, event: NewEvent, prev: str) -> StoredEvent:
    """``event`` as it is stored as number ``seq`` after the event hashed ``prev``: its
    time (now if unset), its seat clipped to the columns' widths, its seed checked, its
    data a copy through JSON (nothing shared with the caller, as from a database)."""
    return StoredEvent(seq, event.at or now_text(), event.who[:80], event.role[:10],
                       event.kind, event.tracker, event.move, check_seed(event.seed),
                       json.loads(canonical_json(event.data)), prev)


def chain_new(uid: str, prev: str, first: int,
              new: Sequence[NewEvent]) -> list[StoredEvent]:
    """``new`` as stored events numbered from ``first``, each naming the hash of the one
    before it (the first follows ``prev``) in the campaign ``uid``'s chain."""
    out = []
    for i, event in enumerate(new):
        stored = stored_event(first + i, event, prev)
        prev = event_hash(uid, stored)
        out.append(stored)
    return out


def json_copy(value: Any) -> Any:
    """A copy of parsed JSON (dicts, lists, scalars), without a trip through text: what a
    store in memory hands out, so a reader that changes it changes no stored event."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def copied(event: StoredEvent) -> StoredEvent:
    """``event`` with its own copy of its data."""
    return StoredEvent(event.seq, event.at, event.who, event.role, event.kind, event.tracker,
                       event.move, event.seed, json_copy(event.data), event.prev)


def head_hash(uid: str, events: Sequence[StoredEvent]) -> str:
    """The chain's head after ``events`` ("" for none)."""
    return event_hash(uid, events[-1]) if events else ""


def conflict(head: int, expected: int) -> ConflictError:
    """The refusal of an append made on a stale screen, in the same words everywhere."""
    return ConflictError(f"someone else changed this campaign first (it is at move {head}, "
                         f"this screen at {expected})")


class StoreBase:
    """The parts of a [Store][companion.store.port.Store] that do not depend on where the
    campaigns are kept; a backend defines the rest."""

    where: str
    #: Set by a backend's ``__init__`` where it differs.
    path: Path | None = None
    read_only = False
    keep_snapshots = True
    shared = True
    lock_wait = LOCK_WAIT

    check_name = staticmethod(check_campaign_name)

    def find_campaign(self, name: str) -> CampaignInfo | None:  # pragma: no cover
        raise NotImplementedError

    def list_campaigns(self) -> list[CampaignInfo]:  # pragma: no cover
        raise NotImplementedError

    def head(self, campaign_id: int) -> int:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        """Release what the store holds (nothing by default)."""

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def check_rulesets(rulesets: Sequence[str]) -> None:
        if not rulesets:
            raise StoreError("a campaign plays at least one ruleset")

    def get_campaign(self, name: str) -> CampaignInfo:
        """The campaign called ``name``; the error names the known ones if there is none."""
        info = self.find_campaign(name)
        if info is None:
            known = ", ".join(c.name for c in self.list_campaigns()[:10]) or "none yet"
            raise StoreError(f"no campaign named {name!r} in {self.where} (campaigns: {known})")
        return info

    def poll_for_change(self, campaign_id: int, seq: int, timeout: float,
                        every: float = 0.2) -> int:
        """The head once it passes ``seq`` or ``timeout`` seconds pass, looking every
        ``every`` seconds (one cheap read each time)."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            head = self.head(campaign_id)
            left = deadline - time.monotonic()
            if head > seq or left <= 0:
                return head
            time.sleep(min(every, left))


#: Where an [unsaved_store][companion.store.opening.unsaved_store] says it keeps campaigns.
UNSAVED_WHERE = "this page only (not kept)"


# --- the store plugged into this process ---------------------------------------------------

_lock = threading.Lock()
_plugged: Store | None = None
_refusal = ""


def use(store: Store | None, *, refusal: str = "") -> None:
    """Plug ``store`` in as this process's store: [current][companion.store.port.current]
    hands it out to every app (the serverless page plugs in the browser's). With
    ``refusal`` and no store, opening any campaign is refused in those words (a page that
    may not keep campaigns: another tab holds them). ``use(None)`` unplugs."""
    global _plugged, _refusal
    with _lock:
        _plugged, _refusal = store, ("" if store is not None else refusal)


def current() -> Store | None:
    """The plugged-in store, or ``None`` when none is (then the apps open the SQL store
    ``COMPANION_DB`` names); raises the plugged refusal as a StoreError."""
    with _lock:
        if _refusal:
            raise StoreError(_refusal)
        return _plugged
