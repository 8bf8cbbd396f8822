"""A campaign store with no database: events in memory, kept as plain files.

The static site's apps run in the browser (Pyodide), where there is no SQLite module to
count on and no server. [MemoryStore][companion.store.memory.MemoryStore] has the public
methods of [Store][companion.store.db.Store] that a
[Campaign][companion.store.campaign.Campaign] uses (campaigns, appending with the same
conflict check, events, snapshots, import), so campaigns, their events and their
export/import documents are the same as on a server. It keeps everything in memory and,
given a folder, writes every change through to small JSON files in it:

- ``campaigns.json``: the campaigns (name, rulesets, creation time, head; their seats and
  the server seeds of their open sittings, ``sitting_secrets``: kept apart from the
  events, issue 49);
- ``c<ID>.events.jsonl``: a campaign's events, one JSON object a line, appended;
- ``c<ID>.snapshot.json``: its newest snapshot.

In the browser the folder is Emscripten's IndexedDB file system, so campaigns survive a
reload and a restart of the browser; ``on_write`` is called after each change (the page
flushes the folder to IndexedDB there).

- Interpretation: a crash between writing events and the campaign list leaves extra lines
  after the head; the head in ``campaigns.json`` is the truth and they are ignored (and
  overwritten by the next append), as a database would have rolled them back.

>>> store = MemoryStore()
>>> info = store.create_campaign("Tuesday", ["cairn_srd"])
>>> store.append(info.id, [NewEvent("note", data={"text": "hi"})], 0)[0].seq
1
>>> try:
...     store.append(info.id, [NewEvent("note")], 0)
... except ConflictError as exc:
...     print(exc)
someone else changed this campaign first (it is at move 1, this screen at 0)
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.names import lookalike_in
from companion.store.chain import ChainError, check_chain, new_campaign_id
from companion.store.permissions import SeatError, SeatKey, same_name, seat_gone
from companion.store.port import (
    StoreBase,
    canonical_json,
    chain_new,
    conflict,
    copied,
    head_hash,
    json_copy,
    keep_apart,
)
from companion.store.records import (
    CampaignInfo,
    ConflictError,  # noqa: F401  (the doctest above catches it)
    NewEvent,
    StoredEvent,
    StoreError,
    lock_wait_error,
    name_taken,
    now_text,
)

__all__ = ["MemoryStore"]

#: The version of the files' layout.
FORMAT = 1


_head_hash = head_hash
_dumps = canonical_json


@dataclass
class _Campaign:
    info: CampaignInfo
    events: list[StoredEvent] = field(default_factory=list)
    snapshot: tuple[int, dict[str, Any]] | None = None
    #: Seats as ``[who, role, secret_hash, created, revoked]``.
    seats: list[list[Any]] = field(default_factory=list)
    #: The server seeds of its sittings not closed yet, by their published hash.
    secrets: dict[str, str] = field(default_factory=dict)


class MemoryStore(StoreBase):
    """Campaigns and their append-only event logs in memory, written through to ``folder``.

    A [Store][companion.store.port.Store]: ``kind`` is ``"memory"``, ``path`` is ``None``
    (nothing for an SQLite watcher to follow) and ``shared`` False (only this process
    writes it: a waiter is woken by the append itself, no polling); ``where`` says where
    the campaigns are kept, for people.
    """

    kind = "memory"
    shared = False

    def __init__(self, folder: str | os.PathLike[str] | None = None, *,
                 on_write: Callable[[], None] | None = None,
                 where: str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.on_write = on_write
        self.where = where or (str(self.folder) if self.folder else "memory (not kept)")
        self._lock = threading.RLock()
        #: Notified on every append: ``wait_for_change`` sleeps on it (no polling).
        self._appended = threading.Condition(self._lock)
        self._campaigns: dict[int, _Campaign] = {}
        self._next_id = 1
        self._meta: dict[str, str] = {}
        if self.folder is not None:
            self._load()

    # -- files -----------------------------------------------------------------------------

    def _file(self, name: str) -> Path:
        assert self.folder is not None
        return self.folder / name

    def _load(self) -> None:
        assert self.folder is not None
        index = self._file("campaigns.json")
        if not index.exists():
            return
        try:
            doc = json.loads(index.read_text(encoding="utf-8"))
            rows = doc["campaigns"]
            self._next_id = int(doc["next_id"])
            self._meta = {str(k): str(v) for k, v in doc.get("meta", {}).items()}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise StoreError(f"{index} is damaged ({exc}); it was left untouched") from None
        for row in rows:
            info = CampaignInfo(int(row["id"]), str(row["name"]), tuple(row["rulesets"]),
                                str(row["created"]), int(row["head"]),
                                str(row.get("uid") or ""), str(row.get("chain") or ""))
            events = self._read_events(info)
            if not info.uid or any(e.prev is None for e in events):
                # Files of a version before the chain: chained as they are read (kept so
                # at the next write), never refused.
                from companion.store.upcast import chain_events

                uid = info.uid or new_campaign_id()
                events = chain_events(uid, events)
                info = dataclasses.replace(info, uid=uid, chain=_head_hash(uid, events))
            snapshot = None
            snap_file = self._file(f"c{info.id}.snapshot.json")
            with contextlib.suppress(OSError, ValueError, KeyError, TypeError, RecursionError):
                snap = json.loads(snap_file.read_text(encoding="utf-8"))
                if int(snap["seq"]) <= info.head and isinstance(snap["state"], dict):
                    snapshot = (int(snap["seq"]), snap["state"])
            seats = [list(seat) for seat in row.get("seats", [])]
            secrets = {str(k): str(v) for k, v in dict(row.get("sitting_secrets") or {}
                                                         ).items()}
            self._campaigns[info.id] = _Campaign(info, events, snapshot, seats, secrets)

    def _read_events(self, info: CampaignInfo) -> list[StoredEvent]:
        path = self._file(f"c{info.id}.events.jsonl")
        events: list[StoredEvent] = []
        if not path.exists():
            if info.head:
                raise StoreError(f"{path} is missing ({info.name!r} has {info.head} events)")
            return events
        with path.open(encoding="utf-8") as f:
            for line in f:
                if len(events) == info.head:
                    break  # lines after the head: a write cut short (see the module docs)
                try:
                    row = json.loads(line)
                    events.append(StoredEvent(int(row["seq"]), str(row["at"]), str(row["who"]),
                                              str(row["role"]), str(row["kind"]),
                                              row["tracker"], row["move"], row["seed"],
                                              dict(row["data"]),
                                              row.get("prev")))  # None: before the chain
                except (ValueError, KeyError, TypeError, RecursionError):
                    raise StoreError(f"{path} is damaged (event {len(events) + 1} is not "
                                     "valid); it was left untouched") from None
        if len(events) != info.head or any(e.seq != i + 1 for i, e in enumerate(events)):
            raise StoreError(f"{path} is damaged ({len(events)} events for a head of "
                             f"{info.head}); it was left untouched")
        return events

    def _write_text(self, name: str, text: str) -> None:
        path = self._file(name)
        temp = path.with_name(path.name + ".tmp")
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, path)

    def _save_index(self) -> None:
        rows = [{"id": c.info.id, "name": c.info.name, "rulesets": list(c.info.rulesets),
                 "created": c.info.created, "head": c.info.head, "uid": c.info.uid,
                 "chain": c.info.chain,
                 **({"seats": c.seats} if c.seats else {}),
                 **({"sitting_secrets": c.secrets} if c.secrets else {})}
                for c in self._campaigns.values()]
        self._write_text("campaigns.json", _dumps({"format": FORMAT, "next_id": self._next_id,
                                                   "meta": self._meta, "campaigns": rows}))

    def _save_events(self, campaign: _Campaign, new: Sequence[StoredEvent],
                     rewrite: bool = False) -> None:
        path = self._file(f"c{campaign.info.id}.events.jsonl")
        lines = "".join(_dumps(e.to_dict()) + "\n" for e in new)
        if rewrite or not path.exists():
            self._write_text(path.name, lines)
            return
        # Trim lines past the stored head (a cut-short write) before appending.
        with path.open("r+", encoding="utf-8") as f:
            for _ in range(campaign.info.head - len(new)):
                if not f.readline():
                    break
            f.seek(f.tell())
            f.truncate()
            f.write(lines)

    def _written(self) -> None:
        if self.on_write is not None:
            self.on_write()

    @contextlib.contextmanager
    def _write(self) -> Any:
        with self._lock:
            try:
                yield
            except OSError as exc:
                raise StoreError(f"cannot write to {self.where}: {exc.strerror or exc}"
                                 ) from None
        self._written()

    @contextlib.contextmanager
    def writer_lock(self, campaign_id: int) -> Any:
        """Make this thread the campaign's only writer for the block (the store's own lock,
        which every write takes; waited for at most ``lock_wait`` seconds): an append
        made in it after reading the head meets no conflict."""
        if not self._lock.acquire(timeout=self.lock_wait):
            campaign = self._campaigns.get(campaign_id)
            raise lock_wait_error(self.where, campaign.info.name if campaign else None,
                                  self.lock_wait)
        try:
            yield
        finally:
            self._lock.release()

    # -- Store's interface -------------------------------------------------------------

    def schema_version(self) -> int:
        return FORMAT

    def meta_value(self, key: str) -> str | None:
        """A value of the store's markers (``None`` when unset)."""
        with self._lock:
            return self._meta.get(key)

    def rewrite_events(self, changed: dict[int, Sequence[StoredEvent]],
                       marker: tuple[str, str]) -> None:
        """Replace the data (and seed) of the given events by campaign id, drop those
        campaigns' snapshots and set ``marker``, as [Store][companion.store.db.Store] does."""
        with self._write():
            key, value = marker
            if self._meta.get(key) == value:
                return
            for campaign_id, stored in changed.items():
                campaign = self._get(campaign_id)
                by_seq = {e.seq: e for e in stored}
                from companion.store.upcast import chain_events

                uid = campaign.info.uid
                campaign.events = chain_events(uid, [
                    StoredEvent(e.seq, e.at, e.who, e.role, e.kind, e.tracker, e.move,
                                by_seq[e.seq].seed, json.loads(_dumps(by_seq[e.seq].data)))
                    if e.seq in by_seq else e for e in campaign.events])
                campaign.info = dataclasses.replace(
                    campaign.info, chain=_head_hash(uid, campaign.events))
                campaign.snapshot = None
                if self.folder is not None:
                    self._save_events(campaign, campaign.events, rewrite=True)
                    self._file(f"c{campaign_id}.snapshot.json").unlink(missing_ok=True)
            self._meta[key] = value
            if self.folder is not None:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._save_index()

    def seat_rows(self, campaign_id: int) -> list[tuple[str, str, str, str, str | None]]:
        """The campaign's seats as ``(who, role, secret_hash, created, revoked)``, by name."""
        with self._lock:
            rows = sorted(self._get(campaign_id).seats, key=lambda r: str(r[0]))
        return [(str(r[0]), str(r[1]), str(r[2]), str(r[3]), r[4]) for r in rows]

    def put_seat(self, campaign_id: int, who: str, role: str, secret_hash: str, *,
                 by: SeatKey | None = None) -> None:
        """Make or renew the seat ``who`` (a name differing only in case is the same seat).
        ``by``: the seat doing it, checked under the same lock (issue 28)."""
        with self._write():
            campaign = self._get(campaign_id)
            _check_manager(campaign.seats, by)
            campaign.seats = [r for r in campaign.seats
                              if not same_name(str(r[0]), who)]
            campaign.seats.append([who, role, secret_hash, now_text(), None])
            if self.folder is not None:
                self._save_index()

    def revoke_seat_row(self, campaign_id: int, who: str, *,
                        by: SeatKey | None = None) -> bool:
        """Revoke the seat ``who`` (any case); False when there is no such seat. ``by``:
        the seat doing it, checked under the same lock (issue 28)."""
        with self._write():
            campaign = self._get(campaign_id)
            _check_manager(campaign.seats, by)
            chosen = [r for r in campaign.seats
                      if r[4] is None and same_name(str(r[0]), who)]
            for row in chosen:
                row[4] = now_text()
            if chosen and self.folder is not None:
                self._save_index()
        return bool(chosen)

    def backup_copy(self, suffix: str) -> Path | None:
        """No copy (``None``): each file is replaced whole, never left half-written."""
        return None

    def _get(self, campaign_id: int) -> _Campaign:
        campaign = self._campaigns.get(campaign_id)
        if campaign is None:
            raise StoreError("this campaign was deleted")
        return campaign

    def create_campaign(self, name: str, rulesets: Sequence[str],
                        created: str | None = None) -> CampaignInfo:
        """Create an empty campaign; refuses a name already taken."""
        return self._insert(name, rulesets, created or now_text(), [], new_campaign_id())

    def _insert(self, name: str, rulesets: Sequence[str], created: str,
                new: Sequence[NewEvent], uid: str) -> CampaignInfo:
        name = self.check_name(name)
        self.check_rulesets(rulesets)
        with self._write():
            taken = lookalike_in(name, (c.info.name for c in self._campaigns.values()))
            if taken is not None:  # the one rule for names (issue 33)
                raise name_taken("campaign", name, taken)
            cid = self._next_id
            events = chain_new(uid, "", 1, new)
            info = CampaignInfo(cid, name, tuple(rulesets), created, len(events), uid,
                                _head_hash(uid, events))
            campaign = _Campaign(info, events)
            if self.folder is not None:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._save_events(campaign, events, rewrite=True)
            self._campaigns[cid] = campaign
            self._next_id += 1
            if self.folder is not None:
                self._save_index()
        return info

    def list_campaigns(self) -> list[CampaignInfo]:
        """Every campaign, by name."""
        with self._lock:
            return sorted((c.info for c in self._campaigns.values()), key=lambda i: i.name)

    def find_campaign(self, name: str) -> CampaignInfo | None:
        clean = " ".join(name.split())
        with self._lock:
            for c in self._campaigns.values():
                if c.info.name == clean:
                    return c.info
        return None

    def delete_campaign(self, name: str) -> None:
        """Delete a campaign with all its events and snapshots."""
        info = self.get_campaign(name)
        with self._write():
            del self._campaigns[info.id]
            if self.folder is not None:
                self._save_index()
                for suffix in ("events.jsonl", "snapshot.json"):
                    self._file(f"c{info.id}.{suffix}").unlink(missing_ok=True)

    def head(self, campaign_id: int) -> int:
        """The campaign's last event number."""
        with self._lock:
            return self._get(campaign_id).info.head

    def check_count(self, info: CampaignInfo) -> None:
        """Events 1..head are all there (they are checked as the files are read)."""
        with self._lock:
            events = self._get(info.id).events
        if len(events) != info.head:
            raise StoreError(f"{self.where} is damaged: campaign {info.name!r}: it counts "
                             f"{info.head} events but {len(events)} are stored")

    def check_log(self, info: CampaignInfo) -> None:
        """Events 1..head are all there and their whole chain meets the recorded head."""
        self.check_count(info)
        with self._lock:
            events = self._get(info.id).events[:info.head]
        try:
            check_chain(info.uid, events, head=(info.head, info.chain))
        except ChainError as exc:
            raise ChainError(f"{self.where} is damaged: campaign {info.name!r}: {exc}"
                             ) from None

    def append(self, campaign_id: int, new: Sequence[NewEvent],
               expected_seq: int, *, seat: SeatKey | None = None) -> list[StoredEvent]:
        """Append events numbered from ``expected_seq + 1``; a
        [ConflictError][companion.store.db.ConflictError] (nothing written) if the head
        moved; with ``seat``, a SeatError if that seat no longer holds (as the SQL store)."""
        with self._write():
            campaign = self._get(campaign_id)
            if seat is not None:
                refusal = seat_gone(campaign.seats, seat)
                if refusal is not None:
                    raise SeatError(refusal)
            if campaign.info.head != expected_seq:
                raise conflict(campaign.info.head, expected_seq)
            info = campaign.info
            chained, kept, closed = keep_apart(new)
            stored = chain_new(info.uid, info.chain, expected_seq + 1, chained)
            if not stored:
                return []
            campaign.info = dataclasses.replace(info, head=expected_seq + len(stored),
                                                chain=_head_hash(info.uid, stored))
            # The sitting records go with the events, in the same write of the index.
            campaign.secrets = {**{k: v for k, v in campaign.secrets.items()
                                   if k not in closed}, **kept}
            if self.folder is not None:
                self._save_events(campaign, stored)
                self._save_index()
            campaign.events.extend(stored)
            self._appended.notify_all()
        return [copied(e) for e in stored]  # the caller's own, as from a database

    def events_since(self, campaign_id: int, seq: int = 0, limit: int | None = None,
                     kinds: Sequence[str] = ()) -> list[StoredEvent]:
        """The campaign's events after number ``seq``, oldest first (only ``kinds`` if given)."""
        with self._lock:
            events = self._get(campaign_id).events[max(seq, 0):]
        if kinds:
            events = [e for e in events if e.kind in kinds]
        # Copies, as a database hands out: a reader changing one changes no stored event.
        return [copied(e) for e in (events[:limit] if limit is not None else events)]

    def sitting_secret(self, campaign_id: int, server_hash: str) -> str | None:
        """The server seed of the campaign's sitting that published ``server_hash``, while
        it is open (``None``: not kept here)."""
        with self._lock:
            return self._get(campaign_id).secrets.get(server_hash)

    def latest_snapshot(self, campaign_id: int) -> tuple[int, dict[str, Any]] | None:
        """The newest snapshot as ``(seq, state)``, or None."""
        with self._lock:
            snap = self._get(campaign_id).snapshot
        return (snap[0], json_copy(snap[1])) if snap is not None else None

    def put_snapshot(self, campaign_id: int, seq: int, state: dict[str, Any]) -> None:
        """Keep ``state`` as the campaign's state after event ``seq``."""
        with self._write():
            campaign = self._get(campaign_id)
            if campaign.snapshot is not None and campaign.snapshot[0] >= seq:
                return
            text = _dumps(state)
            campaign.snapshot = (seq, json.loads(text))
            if self.folder is not None:
                self._write_text(f"c{campaign_id}.snapshot.json",
                                 _dumps({"seq": seq, "state": json.loads(text)}))

    def import_campaign(self, name: str, rulesets: Sequence[str], created: str,
                        new: Sequence[NewEvent], uid: str | None = None) -> CampaignInfo:
        """Create a campaign holding ``new`` (already checked), chained under ``uid``."""
        return self._insert(name, rulesets, created, new, uid or new_campaign_id())

    def wait_for_change(self, campaign_id: int, seq: int, timeout: float) -> int:
        """The head once it passes ``seq`` or ``timeout`` seconds pass: woken by the append
        itself (only this process writes here; one page per browser tab, so another tab's
        moves are seen when the campaign is opened again)."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self._appended:
            while True:
                head = self._get(campaign_id).info.head
                left = deadline - time.monotonic()
                if head > seq or left <= 0:
                    return head
                self._appended.wait(left)

    def size_on_disk(self) -> int:
        """Bytes the campaign files take (0 in memory only)."""
        if self.folder is None or not self.folder.exists():
            return 0
        return sum(p.stat().st_size for p in self.folder.iterdir() if p.is_file())


def _check_manager(rows: Sequence[Sequence[Any]], by: SeatKey | None) -> None:
    """Refuse a change of the seats by a seat revoked or renewed meanwhile (read under the
    change's own lock: no check-then-act), or by a seat that is not a GM's."""
    if by is None:
        return
    refusal = seat_gone(rows, by)
    if refusal is not None:
        raise SeatError(refusal)
    if by.role != "gm":
        raise SeatError("only the campaign's GM manages its seats")
