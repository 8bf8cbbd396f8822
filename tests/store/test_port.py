"""One contract for every backend of the store port (``companion.store.port.Store``):
SQLite, PostgreSQL (a real server, see conftest.py), memory and the browser's store (its
folder here is a temporary one; in Chromium it is IndexedDB, see tests/static_apps/).

Each test runs on all four and asserts what a Campaign relies on: numbering and chaining
of appended events, the conflict check and the seat re-read inside the append (nothing
written when refused), the log's reads, snapshots, waiting for a change, seats, import
and deletion; and that a store with a place to keep things gives them back when opened
again.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.store import port
from companion.store.browser import BrowserStore
from companion.store.chain import check_chain, event_hash
from companion.store.memory import MemoryStore
from companion.store.opening import unsaved_store
from companion.store.permissions import SEAT_GONE_LINE, SeatError, SeatKey
from companion.store.records import ConflictError, NewEvent, StoreError

BACKENDS = ["sqlite", "postgresql", "memory", "browser"]


@dataclass
class Backend:
    """A fresh, empty store of one backend; ``reopen`` opens its place again (``None``:
    an unsaved memory store, which keeps nothing)."""

    kind: str
    store: port.Store
    reopen: Callable[[], port.Store] | None
    persisted: list[int] = field(default_factory=list)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    kind = request.param
    opened: list[port.Store] = []
    if kind in ("sqlite", "postgresql"):
        from companion.store.db import open_store

        where = str(tmp_path / "campaigns.db") if kind == "sqlite" else \
            request.getfixturevalue("postgres_server").new_database()

        def reopen() -> port.Store:
            opened.append(open_store(where))
            return opened[-1]

        made = Backend(kind, reopen(), reopen)
    elif kind == "memory":
        made = Backend(kind, unsaved_store(), None)
    else:
        persisted: list[int] = []
        folder = tmp_path / "idb"

        def reopen_browser() -> port.Store:
            return BrowserStore(folder, persist=lambda: persisted.append(1))

        made = Backend(kind, reopen_browser(), reopen_browser, persisted)
    yield made
    for store in opened:
        store.close()


def _events(n: int, who: str = "Mira") -> list[NewEvent]:
    return [NewEvent("roll", who, "gm", data={"n": i}) for i in range(n)]


def test_each_backend_is_a_store_of_its_kind(backend: Backend) -> None:
    store = backend.store
    assert isinstance(store, port.Store)
    assert store.kind == backend.kind
    # Only a database other processes write to is worth a watcher.
    assert store.shared is (backend.kind in ("sqlite", "postgresql"))
    assert not store.read_only and store.keep_snapshots
    assert store.where and store.schema_version() >= 1


def test_campaigns_are_created_found_listed_and_deleted(backend: Backend) -> None:
    store = backend.store
    b = store.create_campaign("Tuesday  night", ["cairn_srd"])
    a = store.create_campaign("Alder", ["plot_points", "cairn_srd"])
    assert b.name == "Tuesday night" and b.head == 0 and b.chain == "" and len(b.uid) > 8
    assert [c.name for c in store.list_campaigns()] == ["Alder", "Tuesday night"]
    assert store.find_campaign(" Tuesday night ") == b
    assert store.get_campaign("Alder").rulesets == ("plot_points", "cairn_srd")
    assert a.id != b.id
    with pytest.raises(StoreError, match="'Tuesday night' already exists"):
        store.create_campaign("Tuesday night", ["cairn_srd"])
    with pytest.raises(StoreError, match="at least one ruleset"):
        store.create_campaign("Empty", [])
    with pytest.raises(StoreError, match=r"no campaign named 'Nope' .*Alder, Tuesday night"):
        store.get_campaign("Nope")
    store.delete_campaign("Alder")
    assert store.find_campaign("Alder") is None
    assert [c.name for c in store.list_campaigns()] == ["Tuesday night"]


def test_appends_are_numbered_and_chained(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    first = store.append(info.id, _events(2), 0)
    second = store.append(info.id, [NewEvent("roll", "x" * 100, "player",
                                             seed=7, data={"é": [1, {"k": None}]})], 2)
    assert [e.seq for e in first + second] == [1, 2, 3]
    log = store.events_since(info.id)
    assert log == first + second  # what append returns is what is stored
    check_chain(info.uid, log, prev="", first=1)  # each names the hash of the one before
    assert log[0].prev == "" and log[1].prev == event_hash(info.uid, log[0])
    assert log[2].who == "x" * 80 and log[2].seed == 7 and log[2].data == {"é": [1, {"k": None}]}
    assert store.head(info.id) == 3
    assert store.get_campaign("T").chain == event_hash(info.uid, log[-1])
    store.check_count(store.get_campaign("T"))  # 1..head, all there


def test_a_stale_append_is_a_conflict_and_writes_nothing(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    store.append(info.id, _events(1), 0)
    with pytest.raises(ConflictError, match=r"it is at move 1, this screen at 0"):
        store.append(info.id, _events(2), 0)
    with pytest.raises(StoreError, match="seed"):
        store.append(info.id, [NewEvent("roll", seed=2**70)], 1)
    assert store.head(info.id) == 1 and len(store.events_since(info.id)) == 1


def test_the_seat_is_read_again_in_the_append(backend: Backend) -> None:
    """A revoked or renewed seat stores nothing; a seat that holds stores."""
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    store.put_seat(info.id, "Bryn", "player", "hash-1")
    bryn = SeatKey("bryn", "player", "hash-1")  # any case: the same seat
    assert [e.seq for e in store.append(info.id, _events(1, "Bryn"), 0, seat=bryn)] == [1]
    with pytest.raises(SeatError, match="revoked or renewed"):
        store.append(info.id, _events(1), 1, seat=SeatKey("Bryn", "gm", "hash-1"))
    store.put_seat(info.id, "BRYN", "player", "hash-2")  # renewed: the old link is dead
    with pytest.raises(SeatError):
        store.append(info.id, _events(1), 1, seat=bryn)
    renewed = SeatKey("Bryn", "player", "hash-2")
    store.append(info.id, _events(1), 1, seat=renewed)
    assert store.revoke_seat_row(info.id, "bryn") is True
    assert store.revoke_seat_row(info.id, "Nobody") is False
    with pytest.raises(SeatError) as refused:
        store.append(info.id, _events(1), 2, seat=renewed)
    assert str(refused.value) == SEAT_GONE_LINE
    assert store.head(info.id) == 2
    rows = store.seat_rows(info.id)
    assert [(r[0], r[1], r[2], r[4] is not None) for r in rows] == [
        ("BRYN", "player", "hash-2", True)]


def test_reads_of_the_log(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    store.append(info.id, [NewEvent("roll", data={"n": 1}), NewEvent("reveal", data={"n": 2}),
                           NewEvent("roll", data={"n": 3})], 0)
    assert [e.seq for e in store.events_since(info.id, 1)] == [2, 3]
    assert [e.seq for e in store.events_since(info.id, 0, limit=2)] == [1, 2]
    assert [e.seq for e in store.events_since(info.id, 0, kinds=("roll",))] == [1, 3]
    assert store.events_since(info.id, 3) == []
    read = store.events_since(info.id)
    read[0].data["n"] = 99  # a reader's copy: the store keeps its own
    assert store.events_since(info.id)[0].data == {"n": 1}


def test_snapshots_keep_the_newest(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    assert store.latest_snapshot(info.id) is None
    store.append(info.id, _events(3), 0)
    state = {"members": {"a": [1, 2]}, "chain": "x"}
    store.put_snapshot(info.id, 2, state)
    state["members"]["a"].append(3)  # the store took a copy
    store.put_snapshot(info.id, 3, {"v": 3})
    assert store.latest_snapshot(info.id) == (3, {"v": 3})
    store.put_snapshot(info.id, 2, {"v": "older"})  # never replaces a newer one
    assert store.latest_snapshot(info.id) == (3, {"v": 3})


def _wait_with(store: port.Store, campaign_id: int, seq: int, timeout: float,
               move: Callable[[], object], after: float = 0.2) -> tuple[int, float]:
    """``store.wait_for_change`` while ``move`` is made ``after`` seconds in, from another
    thread: the head it returned and the seconds it waited."""
    timer = threading.Timer(after, move)
    started = time.monotonic()
    timer.start()
    try:
        head = store.wait_for_change(campaign_id, seq, timeout)
    finally:
        timer.join()
    return head, time.monotonic() - started


def test_waiting_for_a_change(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    store.append(info.id, _events(1), 0)
    assert store.wait_for_change(info.id, 0, 5.0) == 1  # already past: at once
    started = time.monotonic()
    assert store.wait_for_change(info.id, 1, 0.3) == 1  # nothing: after the timeout
    assert 0.25 <= time.monotonic() - started < 3
    # Another writer's append wakes a waiter well within a second.
    head, waited = _wait_with(store, info.id, 1, 10.0,
                              lambda: store.append(info.id, _events(1), 1))
    assert head == 2 and waited < 1.5


def test_a_waiter_sleeps_through_other_campaigns_and_wakes_for_its_own(
        backend: Backend) -> None:
    # What the page's live watcher relies on (it calls only this port method): a move in
    # another campaign of the same store (SQLite: data_version changes for any commit)
    # does not end the wait with a wrong head; a move in its own does, at once.
    store = backend.store
    mine = store.create_campaign("Mine", ["cairn_srd"])
    other = store.create_campaign("Other", ["cairn_srd"])
    head, waited = _wait_with(store, mine.id, 0, 0.6,
                              lambda: store.append(other.id, _events(2), 0), after=0.1)
    assert head == 0 and waited >= 0.55
    assert store.head(other.id) == 2
    head, waited = _wait_with(store, mine.id, 0, 10.0,
                              lambda: store.append(mine.id, _events(1), 0))
    assert head == 1 and waited < 1.5


# Only the SQL stores are shared between processes (memory and browser: one process's).
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)
def test_a_waiter_wakes_for_another_connections_move(backend: Backend) -> None:
    # Another process's move, as a second store opened on the same place makes it: the
    # SQL stores watch the database itself (SQLite: data_version on the store's own
    # watcher connection; PostgreSQL: LISTEN/NOTIFY), not only their own appends.
    assert backend.reopen is not None
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    second = backend.reopen()
    try:
        head, waited = _wait_with(store, info.id, 0, 10.0,
                                  lambda: second.append(info.id, _events(1), 0))
        assert head == 1 and waited < 1.5
        # And again, after the watcher has seen one change (it keeps only what it saw).
        head, _ = _wait_with(store, info.id, 1, 10.0,
                             lambda: second.append(info.id, _events(1), 1))
        assert head == 2
    finally:
        second.close()
    store.close()  # closes the watcher connection too; closing twice is harmless
    store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)
def test_a_closed_store_reconnects_and_its_waiter_watches_again(backend: Backend) -> None:
    # close() releases the connections (a long-lived server, or a test run, would
    # otherwise hold a file per store it ever opened); a page still watching the store
    # must not be left on a closed connection: the next read, write or wait opens anew.
    assert backend.reopen is not None
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    second = backend.reopen()
    try:
        head, _ = _wait_with(store, info.id, 0, 10.0,
                             lambda: second.append(info.id, _events(1), 0))
        assert head == 1
        store.close()
        assert store.head(info.id) == 1
        head, waited = _wait_with(store, info.id, 1, 10.0,
                                  lambda: second.append(info.id, _events(1), 1))
        assert head == 2 and waited < 1.5
        store.append(info.id, _events(1), 2)
        assert second.head(info.id) == 3
    finally:
        second.close()
        store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)
def test_a_waiter_works_in_a_process_holding_over_1024_files(backend: Backend) -> None:
    # A club's server holds many files and sockets: the PostgreSQL waiter watched its
    # connection with select(), which refuses a descriptor numbered past 1,023.
    assert backend.reopen is not None
    padding = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        store, second = backend.reopen(), backend.reopen()
        try:
            info = second.create_campaign("Crowded", ["cairn_srd"])
            head, waited = _wait_with(store, info.id, 0, 10.0,
                                      lambda: second.append(info.id, _events(1), 0))
            assert head == 1 and waited < 1.5
        finally:
            store.close()
            second.close()
    finally:
        for fd in padding:
            os.close(fd)


def test_import_keeps_the_identity_and_chain(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    log = store.append(info.id, _events(3), 0)
    copy = store.import_campaign("Copy", ["cairn_srd"], info.created,
                                 [NewEvent(e.kind, e.who, e.role, e.tracker, e.move, e.seed,
                                           e.data, e.at) for e in log], info.uid)
    assert copy.head == 3 and copy.uid == info.uid
    assert copy.chain == store.get_campaign("T").chain
    assert [e.prev for e in store.events_since(copy.id)] == [e.prev for e in log]
    with pytest.raises(StoreError, match="already exists"):
        store.import_campaign("Copy", ["cairn_srd"], info.created, [], None)


def test_markers_and_rewritten_events(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    store.append(info.id, _events(2), 0)
    store.put_snapshot(info.id, 2, {"v": 1})
    assert store.meta_value("test_marker") is None
    old = store.events_since(info.id)
    changed = {info.id: [type(old[1])(**{**old[1].to_dict(), "data": {"n": "new"}, "seed": 5})]}
    store.rewrite_events(changed, ("test_marker", "1"))
    assert store.meta_value("test_marker") == "1"
    log = store.events_since(info.id)
    assert log[1].data == {"n": "new"} and log[1].seed == 5 and log[0] == old[0]
    check_chain(info.uid, log, prev="", first=1)  # chained anew
    assert store.latest_snapshot(info.id) is None  # a cache of the old events: dropped
    store.rewrite_events({info.id: [old[1]]}, ("test_marker", "1"))  # marked: done once
    assert store.events_since(info.id)[1].data == {"n": "new"}


def test_a_kept_store_gives_everything_back_when_opened_again(backend: Backend) -> None:
    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    store.append(info.id, _events(2), 0)
    store.put_snapshot(info.id, 2, {"v": 2})
    store.put_seat(info.id, "Ash", "player", "h")
    if backend.reopen is None:  # unsaved: a new one starts empty
        assert unsaved_store().list_campaigns() == []
        return
    again = backend.reopen()
    assert again.get_campaign("T") == store.get_campaign("T")
    assert again.events_since(info.id) == store.events_since(info.id)
    assert again.latest_snapshot(info.id) == (2, {"v": 2})
    assert again.seat_rows(info.id) == store.seat_rows(info.id)
    if backend.kind == "browser":  # every change was handed to the page to keep
        assert len(backend.persisted) >= 4


def test_a_campaign_plays_the_same_on_every_backend(backend: Backend,
                                                    tmp_path: Path) -> None:
    """The Campaign over the port: moves stored, reopened identical, its export imports
    into a SQLite store (what ``companion campaign import`` does) and a memory store."""
    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.store import create_campaign, open_campaign
    from companion.store.campaign import Campaign
    from companion.store.db import open_store

    table = create_campaign(backend.store, "Tuesday", ["plot_points"], who="Mira", role="gm")
    session = table.add("Table", PlotPointSession(), role="minigame")
    session.add_player("Ash")
    session.add_player("Bryn")
    session.undo()
    again = open_campaign(backend.store, "Tuesday")
    assert again.tracker("Table").players == session.players == ["Ash"]
    assert again.head == table.head == 4 and again.chain == table.chain
    doc = table.export()
    with open_store(tmp_path / "imported.db") as sql:
        copy = Campaign.import_document(sql, doc, "Copy")
        assert copy.chain == table.chain and copy.tracker("Table").players == ["Ash"]
    assert Campaign.import_document(MemoryStore(), doc).chain == table.chain


def test_a_sittings_server_seed_is_kept_apart_from_the_log(backend: Backend) -> None:
    """Issue 49: an opening's server seed goes to the campaign's sitting record, in the
    append's own write, never into the chained event; the close deletes the record; a
    reopened store gives it back (the browser's from its folder, as IndexedDB keeps it)."""
    from companion.sittings import server_hash

    store = backend.store
    info = store.create_campaign("T", ["cairn_srd"])
    other = store.create_campaign("U", ["cairn_srd"])
    seed = "5e" * 32
    digest = server_hash(seed)
    opening = {"open": {"number": 1, "server_hash": digest, "v": 2},
               "secret": {"server_seed": seed}, "clients": {"Mira": "c"}}
    (stored,) = store.append(info.id, [NewEvent("roll", "Mira", "gm", seed=7,
                                                data={"sitting": opening})], 0)
    assert stored.data["sitting"] == {"open": opening["open"], "clients": {"Mira": "c"}}
    assert seed not in repr(store.events_since(info.id))
    assert check_chain(info.uid, store.events_since(info.id)) == event_hash(info.uid, stored)
    assert store.sitting_secret(info.id, digest) == seed
    assert store.sitting_secret(other.id, digest) is None  # the campaign's own record
    if backend.reopen is not None:
        assert backend.reopen().sitting_secret(info.id, digest) == seed
    # A conflicting append keeps nothing.
    with pytest.raises(ConflictError):
        store.append(other.id, [NewEvent("roll", data={"sitting": {
            **opening, "secret": {"server_seed": "6f" * 32},
            "open": {"number": 1, "server_hash": server_hash("6f" * 32), "v": 2}}})], 5)
    assert store.sitting_secret(other.id, server_hash("6f" * 32)) is None
    close = {"close": {"number": 1, "server_seed": seed, "rolls": 1}}
    store.append(info.id, [NewEvent("sitting", data={"sitting": close})], 1)
    assert store.sitting_secret(info.id, digest) is None
    if backend.reopen is not None:
        assert backend.reopen().sitting_secret(info.id, digest) is None


#: A campaign as the static apps kept it in a browser before the port (written by the
#: MemoryStore of commit 9cd3f32): the browser backend must read it as it is.
KEPT = Path(__file__).parent / "compat" / "browser_9cd3f32"


def test_a_campaign_kept_in_the_browser_before_the_port_still_loads(tmp_path: Path) -> None:
    from companion.store.campaign import Campaign

    folder = tmp_path / "idb"
    shutil.copytree(KEPT, folder)
    kept_events = (KEPT / "c1.events.jsonl").read_text(encoding="utf-8")
    kept: list[int] = []
    store = BrowserStore(folder, persist=lambda: kept.append(1))
    info = store.get_campaign("Tuesday")
    assert (info.head, info.uid) == (2, "85ddb7621146a0b4307a07854fe83306")
    assert [r[:2] for r in store.seat_rows(info.id)] == [("Mira", "gm")]
    table = Campaign.open(store, "Tuesday", who="Mira", role="gm")
    assert table.tracker("Table").players == ["Ash"] and table.chain == info.chain
    table.tracker("Table").add_player("Bryn")  # and play goes on, in the same files
    assert kept
    lines = (folder / "c1.events.jsonl").read_text(encoding="utf-8").splitlines()
    assert "\n".join(lines[:2]) + "\n" == kept_events and len(lines) == 3
    again = Campaign.open(BrowserStore(folder, persist=None), "Tuesday")
    assert again.tracker("Table").players == ["Ash", "Bryn"]


def test_the_plugged_store_is_the_process_store() -> None:
    """The serverless page plugs its store in; a refusal is said when it is asked for."""
    store = unsaved_store()
    try:
        port.use(store)
        assert port.current() is store
        port.use(None, refusal="another tab holds the campaigns")
        with pytest.raises(StoreError, match="another tab"):
            port.current()
    finally:
        port.use(None)
    assert port.current() is None
